"""The card games' pictures of the table (adjudicator/cards/pictures.py and
each game's picture module), on the games of pictures.yaml: each picture is
well-formed SVG that shows what its view says, no player's secret is in the
public picture or in another player's, the same view gives the same bytes,
hostile names are escaped; the game folder, the results mail and the site
carry them where their readers may see them."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_fuzz_play import game_and_data, new_game, play

from adjudicator.cards import driver, pictures
from adjudicator.cards.common import State
from adjudicator.folder.site import build_site
from adjudicator.store import storage

CASES = yaml.safe_load((Path(__file__).parent / "pictures.yaml").read_text(encoding="utf-8"))
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & ]]> \"q\""


def played(case: dict[str, Any]) -> State:
    state = new_game(case["game"], case["players"], case["seed"])
    return play(case["game"], state, random.Random(case["seed"]), case["phases"])[0]


def case_id(case: dict[str, Any]) -> str:
    return f"{case['game']}-{case['players']}p-{case['phases']}"


def texts(svg: str) -> list[str]:
    """Every <text> of the picture, as a reader sees it (the XML parsed)."""
    return [text.text or "" for text in ET.fromstring(svg).iter(f"{SVG}text")]


def everything(svg: str) -> str:
    """All the picture says: its texts and every tooltip."""
    return "\n".join(ET.fromstring(svg).itertext())


def group(svg: str, **attrs: str) -> ET.Element:
    root = ET.fromstring(svg)
    for g in root.iter(f"{SVG}g"):
        title = g.find(f"{SVG}title")
        if all((g.get(k) if k != "title" else (title.text if title is not None else None)) == v
               for k, v in attrs.items()):
            return g
    raise AssertionError(f"no group {attrs}")


def group_texts(g: ET.Element) -> list[str]:
    return [t.text or "" for t in g.iter(f"{SVG}text")]


def hand_names(game: str, private: dict[str, Any]) -> list[str]:
    """The names of the cards in a player's hand, as their private view gives them."""
    if game == "seven-wonders":
        return [str(c["name"]) for c in private["hand"]]
    hand = private["hand"]
    return [str(c["name"]) for c in hand["elites"] + hand["intrigue"]]


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_each_picture_shows_its_view(case: dict[str, Any]) -> None:
    name = case["game"]
    state = played(case)
    game, data = game_and_data(name)
    public = game.public_view(state, data)
    svg = pictures.picture(name, state, data)
    assert svg is not None
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.find(f"{SVG}title") is not None
    if name == "seven-wonders":
        for city in public["cities"]:
            shown = group_texts(group(svg, **{"class": "city", "title": f"{city['player']}'s city"}))
            assert city["player"] in shown and str(city["coins"]) in shown and str(city["shields"]) in shown
            assert sum(t.startswith("✓ ") for t in shown) == city["stages"]
            for names in city["built"].values():
                assert set(names) <= set(shown), (names, shown)
            tokens = " ".join(f"{t:+d}".replace("-", "−") for t in city["tokens"]) or "none"
            assert f"Military: {tokens}" in shown
        if public.get("scores"):
            for sheet in public["scores"]:
                assert f"{sheet['total']} VP, place {sheet['rank']}" in texts(svg)
    else:
        for player in public["players"]:
            shown = group_texts(group(svg, **{"class": "player", "title": f"{player['name']}'s table"}))
            assert player["name"] in shown and str(player["influence"]) in shown
            assert str(player["elites_in_hand"]) in shown and str(player["intrigue_in_hand"]) in shown
            assert set(player["in_play"]) <= set(shown)
            assert ("armed" if player["armed"] else "unarmed") in shown
    for player in (public.get("cities") or public.get("players") or []):
        seat = player.get("player") or player.get("name")
        own = pictures.picture(name, state, data, seat)
        assert own is not None
        assert set(hand_names(name, game.private_view(state, seat, data))) <= \
            set(group_texts(group(own, id="your-hand")))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_hand_is_only_in_its_owners_picture(case: dict[str, Any]) -> None:
    name = case["game"]
    state = played(case)
    game, data = game_and_data(name)
    public_text = json.dumps(game.public_view(state, data))
    seats = list(state["players"])
    # What each player may see, from the game itself (not from the code under test).
    views = {seat: {**game.public_view(state, data), **game.private_view(state, seat, data)} for seat in seats}
    drawn = {seat: everything(str(pictures.picture(name, state, data, seat))) for seat in seats}
    drawn_public = everything(str(pictures.picture(name, state, data)))
    assert "your-hand" not in str(pictures.picture(name, state, data))
    checked = 0
    for seat in seats:
        secrets = [card for card in hand_names(name, views[seat]) if card not in public_text]
        for card in secrets:
            assert not mentions(drawn_public, card), f"{seat}'s {card} is in the public picture"
            for other in seats:
                if other != seat and card not in json.dumps(views[other]):
                    assert not mentions(drawn[other], card), f"{seat}'s {card} is in {other}'s picture"
                    checked += 1
    assert checked or case["phases"] >= 40, "no secret was checked"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_same_view_gives_the_same_bytes(case: dict[str, Any]) -> None:
    name = case["game"]
    _, data = game_and_data(name)
    first, second = played(case), played(case)
    seat = first["players"][0]
    assert pictures.picture(name, first, data) == pictures.picture(name, second, data)
    assert pictures.picture(name, first, data, seat) == pictures.picture(name, second, data, seat)


@pytest.mark.parametrize("name", ["seven-wonders", "ambition"])
def test_hostile_names_are_escaped(name: str) -> None:
    case = next(c for c in CASES if c["game"] == name and c["phases"])
    state = played(case)
    game, data = game_and_data(name)
    seat = state["players"][0]
    escaped = json.dumps(HOSTILE)[1:-1]
    for viewer in (None, seat):
        view = json.loads(json.dumps(pictures.picture_view(game, state, data, viewer))
                          .replace(f'"{seat}"', f'"{escaped}"'))
        svg = pictures.draw_view(name, view, None if viewer is None else HOSTILE)
        assert svg is not None
        root = ET.fromstring(svg)                        # well-formed
        assert "<script" not in svg and not list(root.iter(f"{SVG}script"))
        title = root.find(f"{SVG}title")
        assert title is not None and HOSTILE in (title.text or "")      # the name, as text
        shown = texts(svg)
        assert any(t == HOSTILE or (t.endswith("…") and HOSTILE.startswith(t[:-1])) for t in shown)


def test_a_game_without_a_picture_module_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game("seven-wonders", 3, 1)
    _, data = game_and_data("seven-wonders")
    monkeypatch.setitem(pictures.PICTURE_MODULES, "seven-wonders", "adjudicator.cards.seven_wonders.no_such_picture")
    assert pictures.picture("seven-wonders", state, data) is None
    # A module that is there but fails to import is an error, not "no picture".
    monkeypatch.setitem(pictures.PICTURE_MODULES, "seven-wonders", "adjudicator.cards.no_such_package.picture")
    with pytest.raises(ModuleNotFoundError):
        pictures.picture("seven-wonders", state, data)


@pytest.mark.draws_afresh
def test_every_picture_is_a_small_png() -> None:
    from adjudicator.output.png import MAX_PNG_BYTES, svg_to_png
    case = next(c for c in CASES if c["players"] == 7)
    state = played(case)
    _, data = game_and_data(case["game"])
    svg = str(pictures.picture(case["game"], state, data, state["players"][0]))
    png = svg_to_png(svg)
    assert png.startswith(b"\x89PNG") and len(png) < MAX_PNG_BYTES
    assert svg_to_png(svg) == png


def wonders_folder(root: Path) -> Path:
    folder = driver.new_game(root / "wonders", "seven-wonders", ["alice", "bob", "carol"], 4)
    for _ in range(3):
        driver.adjudicate(folder, None, nmr=True)
    return folder


def test_the_game_folder_keeps_the_pictures_where_their_readers_look(tmp_path: Path) -> None:
    first, again = wonders_folder(tmp_path / "a"), wonders_folder(tmp_path / "b")
    drawn = sorted(p.relative_to(first).as_posix() for p in first.rglob("*.svg"))
    assert drawn == ["maps/0000-setup.svg", "maps/0001-age1-turn1.svg", "maps/0002-age1-turn2.svg",
                     "maps/0003-age1-turn3.svg"] + \
        [f"private/{p}/{tag}.svg" for p in ("alice", "bob", "carol")
         for tag in ("0000-setup", "0001-age1-turn1", "0002-age1-turn2", "0003-age1-turn3")]
    for path in drawn:                                    # a re-run gives the same bytes
        assert (first / path).read_bytes() == (again / path).read_bytes(), path
    # Each is drawn from the state the phase left, as the report is.
    _, data = game_and_data("seven-wonders")
    after = storage.read_state(first / "history" / "0003-age1-turn3.yaml")
    assert (first / "maps" / "0002-age1-turn2.svg").read_text(encoding="utf-8") == \
        pictures.picture("seven-wonders", after, data)
    assert (first / "private" / "bob" / "0002-age1-turn2.svg").read_text(encoding="utf-8") == \
        pictures.picture("seven-wonders", after, data, "bob")


def test_the_site_shows_the_public_picture_and_no_hand(tmp_path: Path) -> None:
    folder = wonders_folder(tmp_path)
    out = tmp_path / "site"
    build_site(folder, out)
    page = (out / "0002-age1-turn2.html").read_text(encoding="utf-8")
    assert '<a href="maps/0002-age1-turn2.svg"><img id="map" src="maps/0002-age1-turn2.svg" ' \
           'alt="Picture of the table: 7 Wonders, Age I before turn 3. alice, ' in page
    assert (out / "maps" / "0002-age1-turn2.svg").read_bytes() == \
        (folder / "maps" / "0002-age1-turn2.svg").read_bytes()
    game, data = game_and_data("seven-wonders")
    state = driver.current(folder).state
    public_text = json.dumps(game.public_view(state, data))
    secrets = [c["name"] for p in state["players"] for c in game.private_view(state, p, data)["hand"]
               if c["name"] not in public_text]
    assert secrets
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "your-hand" not in text and "only you see this" not in text, path
            assert not [card for card in secrets if mentions(text, card)], path
