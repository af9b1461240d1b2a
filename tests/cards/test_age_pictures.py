"""The table pictures of Age of Artisans and Age of Ambition.

Each is drawn from a game's view: the public view, or one player's private
view for that player's own picture. Played games (random valid turns, and a
scripted Age of Ambition game: age_pictures.yaml) give real mid-game and
finished states. Every picture must be well-formed SVG, show what the state
says, escape hostile names, keep each player's secret parts out of every
other picture, give the same bytes on a re-run, and fit a mail as a PNG."""

from __future__ import annotations

import copy
import importlib
import itertools
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from test_fuzz_play import game_and_data, new_game, play

from adjudicator.cards.common import State, TurnGame
from adjudicator.cards.table_art import PALETTE, PANEL, short_labels, unique_codes

HERE = Path(__file__).resolve().parent
CASES = yaml.safe_load((HERE / "age_pictures.yaml").read_text(encoding="utf-8"))
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = ["<script>alert(1)</script>", "a&b", "q\"u'o]]>"]


def picture(game_name: str) -> ModuleType:
    return importlib.import_module(f"adjudicator.cards.{game_name.replace('-', '_')}.picture")


@cache
def random_state(game_name: str, players: int, seed: int, turns_seed: int, phases: int) -> State:
    state, _ = play(game_name, new_game(game_name, players, seed), random.Random(turns_seed), phases)
    return state


@cache
def scripted_state(index: int) -> State:
    case = CASES["scripted"][index]
    game, data = game_and_data(case["game"])
    state = game.setup(list(case["players"]), 1, data)
    state["order"], state["current"] = list(case["players"]), case["players"][0]
    for turn in case["turns"]:
        choice = {who: {"actions": actions} for who, actions in turn.items()}
        assert not game.validate(state, choice, data), game.validate(state, choice, data)
        state = game.apply(copy.deepcopy(state), choice, data).state
    return state


def tables() -> list[Any]:
    out = [pytest.param(c["game"], "random", (c["players"], c["seed"], c["turns_seed"], c["phases"]),
                        id=f"{c['game']}-{c['players']}p-{c['phases']}") for c in CASES["random"]]
    out += [pytest.param(c["game"], "scripted", (i,), id=f"{c['game']}-scripted-{i}")
            for i, c in enumerate(CASES["scripted"])]
    return out


def state_of(game_name: str, kind: str, args: tuple[Any, ...]) -> State:
    return random_state(game_name, *args) if kind == "random" else scripted_state(*args)


def draw_all(game_name: str, state: State) -> tuple[str, dict[str, str]]:
    """The public picture and each player's own."""
    game, data = game_and_data(game_name)
    draw = picture(game_name).draw
    public = draw(game.public_view(state, data), None)
    own = {p: draw(game.private_view(state, p, data), p) for p in state["order"]}
    return public, own


def texts(element: ET.Element) -> list[str]:
    """Every text element's words (not its tooltip), in document order."""
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def title_of(element: ET.Element) -> str | None:
    found = element.find(f"{SVG}title")
    return None if found is None else found.text


def parts(svg: str, css: str) -> dict[str, ET.Element]:
    """The groups of class `css` (a player's panel, a district...), by their tooltip."""
    root = ET.fromstring(svg)
    return {title_of(g) or "": g for g in root.iter(f"{SVG}g") if g.get("class") == css}


def box_value(group: ET.Element, label: str) -> str:
    """The figure drawn under a count box's label (the text after it)."""
    words = texts(group)
    return words[words.index(label) + 1]


@pytest.mark.parametrize("game_name, kind, args", tables())
def test_every_picture_is_well_formed_svg(game_name: str, kind: str, args: tuple[Any, ...]) -> None:
    public, own = draw_all(game_name, state_of(game_name, kind, args))
    for svg in [public, *own.values()]:
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        width, height = int(root.get("width", "0")[:-2]), int(root.get("height", "0")[:-2])
        assert root.get("viewBox") == f"0 0 {width} {height}" and 300 < height < 4000


@pytest.mark.parametrize("game_name, kind, args", tables())
def test_picture_shows_each_players_counts(game_name: str, kind: str, args: tuple[Any, ...]) -> None:
    # Read from the state itself, not the view, so the view is checked too.
    state = state_of(game_name, kind, args)
    public, _ = draw_all(game_name, state)
    if game_name == "age-of-artisans":
        panels = parts(public, "workshop")
        assert list(panels) == state["order"]
        for name, p in state["players"].items():
            for label in ("virtue", "silver", "clay", "wood", "stone", "gold", "marble"):
                assert box_value(panels[name], label) == str(p[label]), (name, label)
            assert box_value(panels[name], "buildings") == str(len(p["buildings"]))
    else:
        panels = parts(public, "player")
        assert list(panels) == state["order"]
        for name, p in state["players"].items():
            claimed = sum(1 for d in state["districts"].values() for a in d["agents"] if a.get("flag") == name)
            statues = sum(1 for d in state["districts"].values() if d["statue"] == name)
            assert box_value(panels[name], "wealth") == str(p["wealth"])
            assert box_value(panels[name], "flags left") == str(p["flags"])
            assert box_value(panels[name], "claimed agents") == str(claimed)
            assert box_value(panels[name], "statues") == str(statues)


@pytest.mark.parametrize("game_name, kind, args", tables())
def test_picture_shows_the_board(game_name: str, kind: str, args: tuple[Any, ...]) -> None:
    state = state_of(game_name, kind, args)
    public, _ = draw_all(game_name, state)
    if game_name == "age-of-artisans":
        # Each location's workers: a token labelled for each player there, with the count beside it.
        labels = short_labels(state["order"])
        for loc, group in parts(public, "location").items():
            words = texts(group)
            shown = {words[i]: words[i + 1] for i in range(len(words) - 1) if words[i + 1].startswith("\u00d7")}
            assert shown == {labels[p]: f"\u00d7{n}" for p, n in state["board"][loc].items()}, loc
        assert len(parts(public, "location")) == len(state["board"])
    else:
        # Each district: who holds it (claimed agents and statue), each claimed agent's flag, each building.
        game, data = game_and_data(game_name)
        labels = short_labels(state["order"])
        rules = game.rules_of(data)  # type: ignore[attr-defined]
        districts = parts(public, "district")
        assert len(districts) == len(state["districts"])
        for did, spot in state["districts"].items():
            group = districts[rules.district(did).name]
            held: dict[str, int] = {}
            for agent in spot["agents"]:
                if agent.get("flag"):
                    held[agent["flag"]] = held.get(agent["flag"], 0) + 1
            if spot["statue"]:
                held.setdefault(spot["statue"], 0)
            words = " ".join(texts(group))
            for player, n in held.items():
                parts_held = [f"{n} agent{'s' if n != 1 else ''}"] * bool(n) + ["statue"] * (spot["statue"] == player)
                assert f"{player} ({', '.join(parts_held)})" in words, (did, player)
            if not held:
                assert "Held by nobody" in words
            flags = sorted(w for w in texts(group) if w in labels.values())
            expected = [labels[a["flag"]] for a in spot["agents"] if a.get("flag")]
            expected += [labels[spot["statue"]]] if spot["statue"] else []
            assert flags == sorted(expected), did
            buildings = [title_of(g) for g in group.iter(f"{SVG}g") if (title_of(g) or "").endswith(" building")]
            assert len(buildings) == len(spot["buildings"]), did


@pytest.mark.parametrize("index", range(len(CASES["scripted"])))
def test_scripted_game_reads_as_written(index: int) -> None:
    case = CASES["scripted"][index]
    public, own = draw_all(case["game"], scripted_state(index))
    words = " ".join(texts(ET.fromstring(public)))
    for line in case["shows"]:
        assert line in words
    for player, lines in case["private"].items():
        mine = " ".join(texts(ET.fromstring(own[player])))
        for line in lines:
            assert line in mine
            assert line not in words
            for other, svg in own.items():
                if other != player:
                    assert line not in " ".join(texts(ET.fromstring(svg))), (player, other, line)


@pytest.mark.parametrize("game_name", ["age-of-artisans", "age-of-ambition"])
def test_hostile_names_are_escaped(game_name: str) -> None:
    # The judge refuses such names at `new`; the picture escapes them anyway.
    game, data = game_and_data(game_name)
    state = game.setup(list(HOSTILE), 3, data)
    state, _ = play(game_name, state, random.Random(4), 40)
    public, own = draw_all(game_name, state)
    for svg in [public, *own.values()]:
        assert "<script" not in svg and "a&b" not in svg
        root = ET.fromstring(svg)
        shown = set(texts(root)) | {t.text for t in root.iter(f"{SVG}title")}
        for name in HOSTILE:
            assert name in shown or any(name in (s or "") for s in shown), name


def test_a_hand_is_only_in_its_owners_picture() -> None:
    # Every building card in a hand, and every card a player is choosing from, by id and name.
    game_name = "age-of-artisans"
    _, data = game_and_data(game_name)
    seen_hands = 0
    for c in CASES["random"]:
        if c["game"] != game_name:
            continue
        state = random_state(game_name, c["players"], c["seed"], c["turns_seed"], c["phases"])
        public, own = draw_all(game_name, state)
        assert not parts(public, "private")
        cards = {b["id"]: b["name"] for b in data["buildings"]}
        for player, p in state["players"].items():
            assert list(parts(own[player], "private")) == [player]
            secret = list(p["hand"])
            pending = state.get("pending")
            if pending and pending["player"] == player:
                secret += pending.get("options", [])
            for card in secret:
                mark = f"#{card} {cards[card]}:"
                assert mark in own[player]
                assert mark not in public
                for other in state["players"]:
                    if other != player:
                        assert mark not in own[other], (player, other, mark)
            seen_hands += len(secret)
    assert seen_hands > 10


def test_your_options_are_only_in_your_picture() -> None:
    # Age of Ambition hides nothing, but each player's summary of options is theirs alone.
    game_name = "age-of-ambition"
    for c in CASES["random"]:
        if c["game"] != game_name:
            continue
        state = random_state(game_name, c["players"], c["seed"], c["turns_seed"], c["phases"])
        public, own = draw_all(game_name, state)
        assert not parts(public, "private") and "Your options" not in public
        for player, svg in own.items():
            assert list(parts(svg, "private")) == [player]


RERUN = ("age-of-artisans-4p-60", "age-of-ambition-4p-30", "age-of-ambition-scripted-0")


@pytest.mark.parametrize("game_name, kind, args", [t for t in tables() if t.id in RERUN])
def test_a_rerun_gives_the_same_bytes(game_name: str, kind: str, args: tuple[Any, ...], tmp_path: Path) -> None:
    # Drawn again in a fresh interpreter with another string-hash seed, from the view as a file holds it.
    game, data = game_and_data(game_name)
    state = state_of(game_name, kind, args)
    player = state["order"][0]
    views = {"public": game.public_view(state, data), "private": game.private_view(state, player, data)}
    # Sorted keys: the picture must not hang on how a mapping was ordered.
    (tmp_path / "views.yaml").write_text(yaml.safe_dump(views, sort_keys=True), encoding="utf-8")
    script = ("import sys, yaml, importlib\n"
              f"m = importlib.import_module('adjudicator.cards.{game_name.replace('-', '_')}.picture')\n"
              "v = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))\n"
              f"sys.stdout.write(m.draw(v['public'], None) + '\\0' + m.draw(v['private'], {player!r}))\n")
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "views.yaml")], check=True,
                             capture_output=True, text=True, env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
        draw = picture(game_name).draw
        assert out == draw(views["public"], None) + "\0" + draw(views["private"], player)


@pytest.mark.parametrize("game_name, kind, args", [t for t in tables() if "5p" in t.id or "scripted" in t.id])
def test_png_fits_a_mail(game_name: str, kind: str, args: tuple[Any, ...]) -> None:
    from adjudicator.output.png import MAX_PNG_BYTES, svg_to_png
    # The owner's picture: it is the public one and more (the hand, the options).
    _, own = draw_all(game_name, state_of(game_name, kind, args))
    png = svg_to_png(next(iter(own.values())))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < MAX_PNG_BYTES


# --- the pieces --------------------------------------------------------------------

@pytest.mark.parametrize("names", [
    ["alice", "bob", "carol"], ["anna", "anne", "ann", "an"], ["a", "a2", "A"], ["Zoë", "zoe", "Élodie"],
    ["x" * 40, "x" * 39 + "y", "x" * 38 + "yz"], HOSTILE,
])
def test_player_labels_are_short_and_unique(names: list[str]) -> None:
    labels = short_labels(names)
    assert len(set(labels.values())) == len(names)
    assert all(1 <= len(label) <= 3 for label in labels.values())


@pytest.mark.parametrize("ids", [
    ["scribes", "clerics", "masons", "merchants", "thieves", "mercenaries"], ["aa", "ab", "a", "ac"],
    ["mm", "mm2", "m"],
])
def test_guild_codes_are_unique(ids: list[str]) -> None:
    codes = unique_codes(ids)
    assert len(set(codes.values())) == len(ids) and all(1 <= len(c) <= 3 for c in codes.values())


def test_palette_is_told_apart_in_every_vision() -> None:
    # The maps' bar (docs/maps.md): CIEDE2000 >= 20 in normal vision, >= 12 under simulated
    # protanopia, deuteranopia and tritanopia (coloraide), two by two and against the grounds.
    from coloraide import Color
    minimum = {"normal": 20.0, "protan": 12.0, "deutan": 12.0, "tritan": 12.0}

    def seen(colour: str, vision: str) -> Any:
        c = Color(colour)
        return c if vision == "normal" else c.filter(vision)

    too_close = []
    pairs = [*itertools.combinations(PALETTE, 2), *((c, g) for c in PALETTE for g in ("#ffffff", PANEL))]
    for vision, bar in minimum.items():
        for a, b in pairs:
            d = float(seen(a, vision).delta_e(seen(b, vision), method="2000"))
            if d < bar:
                too_close.append(f"{vision}: {a} / {b}: {d:.1f}")
    assert not too_close


def test_every_guild_and_seat_has_a_colour() -> None:
    _, data = game_and_data("age-of-ambition")
    assert len(data["guilds"]) <= len(PALETTE)
    artisans: TurnGame = game_and_data("age-of-artisans")[0]
    assert artisans.max_players <= len(PALETTE)
