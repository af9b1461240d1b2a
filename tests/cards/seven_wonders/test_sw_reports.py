"""The reports read like the rulebook: effects in words, neighbours by
name, numbers that agree with their nouns, a sorted production list, the
seventh card told truly, and Halikarnassos' pile marking what may not be
built."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.cards.seven_wonders.engine import GAME
from adjudicator.output.templating import render

from .conftest import make_state
from .test_sw_game import BuiltOnce, sample_game


def hand_effects(data: dict[str, Any], hand: list[str]) -> dict[str, str]:
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": hand},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom"]},
                              "carol": {"wonder": "Ephesus", "hand": ["Press"]}}, age=3)
    return {c["name"]: c["effect"] for c in GAME.private_view(state, "alice")["hand"]}


def test_effects_read_like_the_rulebook(data: dict[str, Any]) -> None:
    effects = hand_effects(data, ["Arena", "Workers Guild", "Strategists Guild", "Shipowners Guild",
                                  "Builders Guild", "Senate", "Fortifications", "Lodge"])
    assert effects["Arena"] == ("3 coins for each wonder stage you have built, taken once when built; "
                                "1 VP for each wonder stage you have built, at game end")
    assert effects["Workers Guild"] == "1 VP for each brown card your neighbours (bob and carol) have built, at game end"
    assert effects["Strategists Guild"] == "1 VP for each defeat token your neighbours (bob and carol) have, at game end"
    assert effects["Shipowners Guild"] == "1 VP for each brown, grey and purple card you have built, at game end"
    assert effects["Builders Guild"] == ("1 VP for each wonder stage you and your neighbours (bob and carol) "
                                         "have built, at game end")
    assert effects["Senate"] == "6 VP at game end"
    assert effects["Fortifications"] == "3 shields"
    assert effects["Lodge"] == "science symbol: compass"
    for text in effects.values():
        assert not re.search(r"wonder_stage|\bself\b|\bper\b|\(s\)", text), text


def test_discounts_name_the_neighbour(data: dict[str, Any]) -> None:
    # alice's left neighbour is bob (the next name), her right neighbour carol.
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["East Trading Post", "West Trading Post",
                                                                   "Marketplace"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom"]},
                              "carol": {"wonder": "Ephesus", "hand": ["Press"]}})
    effects = {c["name"]: c["effect"] for c in GAME.private_view(state, "alice")["hand"]}
    assert effects["East Trading Post"] == "raw materials (wood, stone, clay, ore) bought from carol cost 1 coin"
    assert effects["West Trading Post"] == "raw materials (wood, stone, clay, ore) bought from bob cost 1 coin"
    assert effects["Marketplace"] == ("manufactured goods (glass, loom, papyrus) bought from bob or carol "
                                      "cost 1 coin")


def test_numbers_agree_with_nouns(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Alexandria", "coins": 0, "hand": ["Stockade", "Baths"]},
                              "bob": {"wonder": "Giza", "hand": ["Loom"]},
                              "carol": {"wonder": "Olympia", "coins": 1, "hand": ["Press"]}})
    # Stockade needs 1 wood: carol (Olympia) sells it for 2; Baths 1 stone from bob (Giza).
    errors = GAME.validate(state, {"alice": {"action": "build", "card": "Stockade"}}, data)
    assert [e.reason for e in errors] == ["can't afford: needs 2 coins (2 to carol), you have 0; missing 2 coins"]
    state["cities"]["alice"]["coins"] = 1
    errors = GAME.validate(state, {"alice": {"action": "build", "card": "Stockade"}}, data)
    assert [e.reason for e in errors] == ["can't afford: needs 2 coins (2 to carol), you have 1; missing 1 coin"]
    hand = {c["name"]: c for c in GAME.private_view(state, "alice")["hand"]}
    assert hand["Stockade"]["effect"] == "1 shield"
    assert hand["Stockade"]["build"] == "no: can't afford: needs 2 coins (2 to carol), you have 1; missing 1 coin"
    state["cities"]["alice"]["coins"] = 3
    hand = {c["name"]: c for c in GAME.private_view(state, "alice")["hand"]}
    assert hand["Baths"]["build"] == "yes, buy stone from bob for 2 coins (buy: {left: [stone]})"


@pytest.fixture(scope="module")
def reports(built_once: BuiltOnce) -> list[tuple[Path, str]]:
    folder = sample_game(built_once)         # played once per test run (test_sw_game reads it too)
    files = sorted((folder / "reports").glob("*.txt")) + sorted((folder / "private").glob("*/*.txt"))
    return [(f, f.read_text()) for f in files]


def test_no_plural_slips_in_the_sample_reports(reports: list[tuple[Path, str]]) -> None:
    for path, text in reports:
        assert "(s)" not in text, path
        slip = re.search(r"(?<![\d.+-])1 (coins|shields|cards|tokens|stages)\b", text)
        assert slip is None, f"{path.name}: {slip.group(0) if slip else ''}"


def test_production_is_sorted_and_counted(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Alexandria", "stages": 2,
                                        "built": ["Loom", "Clay Pool", "Glassworks", "Sawmill", "Caravansery",
                                                  "Ore Vein", "Clay Pit"], "hand": ["Altar"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom"]},
                              "carol": {"wonder": "Ephesus", "hand": ["Press"]}}, age=2)
    city = GAME.public_view(state)["cities"][0]
    assert city["production"] == ["2 wood", "clay", "ore", "2 glass", "loom", "clay/ore",
                                  "wood/stone/clay/ore (not for sale)", "wood/stone/clay/ore (not for sale)"]


def sixth_turn(data: dict[str, Any], side: str, stages: int) -> dict[str, Any]:
    state = make_state(data, {"alice": {"wonder": "Babylon", "side": side, "stages": stages,
                                        "hand": ["Theater", "Barracks"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom", "Press"]},
                              "carol": {"wonder": "Giza", "hand": ["Altar", "Baths"]}}, turn=6)
    turn = {"alice": {"action": "build", "card": "Theater"}, "bob": {"action": "build", "card": "Loom"},
            "carol": {"action": "build", "card": "Altar"}}
    return {"events": [e.text for e in GAME.apply(copy.deepcopy(state), turn, data).events]}


def test_seventh_card_kept_by_babylon_is_not_called_discarded(data: dict[str, Any]) -> None:
    kept = sixth_turn(data, "B", 2)["events"]
    assert "The seventh cards are discarded face down." not in kept
    assert "bob and carol discard their seventh cards face down; alice keeps the seventh card " \
           "to play it (Babylon)." in kept
    assert "The seventh cards are discarded face down." in sixth_turn(data, "A", 2)["events"]


def test_halikarnassos_pile_marks_cards_already_built(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Halicarnassus", "side": "A", "stages": 2,
                                        "built": ["Ore Vein", "Altar"], "hand": ["Baths"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom"]},
                              "carol": {"wonder": "Giza", "hand": ["Press"]}}, turn=3)
    state["discard"] = ["Tavern", "Altar", "Loom"]
    state["pending"] = [{"kind": "discard", "player": "alice", "name": "age1-turn3-discard"}]
    private = GAME.private_view(state, "alice")
    assert private["discard"] == ["Altar", "Loom", "Tavern"]
    assert private["discard_built"] == ["Altar"]
    text = render("seven-wonders/private.txt.j2",
                  {"game": "7 Wonders", "folder": "g", "phase": GAME.phase(state), "next_phase": GAME.phase(state),
                   "view": GAME.public_view(state), "events": [], "player": "alice", "private": private})
    assert "  Loom, Tavern\n  Not allowed (you already built it): Altar\n" in text


def test_a_purchase_from_both_neighbours_is_one_snippet_that_validates(data: dict[str, Any]) -> None:
    # Lighthouse costs stone and glass: alice (Rhodes, ore) buys stone from bob (Giza, her left)
    # and glass from carol (Alexandria, her right). Pasting the snippet must give a valid choice.
    state = make_state(data, {"alice": {"wonder": "Rhodes", "coins": 7, "hand": ["Lighthouse"]},
                              "bob": {"wonder": "Giza", "hand": ["Loom"]},
                              "carol": {"wonder": "Alexandria", "hand": ["Press"]}}, age=3)
    [card] = GAME.private_view(state, "alice")["hand"]
    assert card["build"] == ("yes, buy stone from bob for 2 coins; buy glass from carol for 2 coins "
                             "(buy: {left: [stone], right: [glass]})")
    [snippet] = re.findall(r"\(buy: (\{.*\})\)", card["build"])
    choice = {"action": "build", "card": "Lighthouse", "buy": yaml.safe_load(snippet)}
    assert GAME.validate(state, {"alice": choice}, data) == []
