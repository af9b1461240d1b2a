"""Scoring: the science formula, every category, guilds, ties."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.cards.seven_wonders.cards import Catalog
from adjudicator.cards.seven_wonders.scoring import (
    final_scores,
    military,
    science_points,
    score_city,
)

from .conftest import load_cases, make_state


@pytest.mark.parametrize("case", load_cases("science.yaml"), ids=lambda c: c["why"])
def test_science_formula(case: dict[str, Any]) -> None:
    counts = {s: case[s] for s in ("tablet", "compass", "gear")}
    assert science_points(counts) == case["points"]


def test_science_from_built_cards(data: dict[str, Any], cat: Catalog) -> None:
    # 3 tablets, 2 compasses, 1 gear = 9 + 4 + 1 + 7 = 21, from real cards.
    built = ["Scriptorium", "Library", "University", "Apothecary", "Dispensary", "Workshop"]
    state = make_state(data, {"alice": {"wonder": "Giza", "built": built},
                              "bob": {"wonder": "Rhodes"}, "carol": {"wonder": "Ephesus"}})
    sheet = score_city(cat, state, "alice")
    assert sheet["science"] == {"tablet": 3, "compass": 2, "gear": 1}
    assert sheet["green"] == 21


@pytest.mark.parametrize("case", load_cases("cities.yaml"), ids=lambda c: c["name"])
def test_city_scoring(case: dict[str, Any], data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, case["cities"])
    for player, expected in case["expect"].items():
        sheet = score_city(cat, state, player)
        assert {k: sheet[k] for k in expected} == expected, player


def test_total_is_the_sum_of_categories(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {
        "alice": {"wonder": "Giza", "stages": 1, "coins": 7, "tokens": [1, -1],
                  "built": ["Altar", "Scriptorium", "Haven", "Lumber Yard", "Workers Guild"]},
        "bob": {"wonder": "Rhodes", "built": ["Stone Pit"]}, "carol": {"wonder": "Ephesus"}})
    sheet = score_city(cat, state, "alice")
    # military 0, coins 2, wonder 3, blue 2, yellow 1, green 1, purple 1 (bob's Stone Pit)
    assert [sheet[k] for k in ("military", "coins", "wonder", "blue", "yellow", "green", "purple")] == \
        [0, 2, 3, 2, 1, 1, 1]
    assert sheet["total"] == 10


def test_ties_broken_by_coins_then_shared(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Giza", "coins": 5, "built": ["Altar"]},
                              "bob": {"wonder": "Rhodes", "coins": 4, "built": ["Altar"]},
                              "carol": {"wonder": "Ephesus", "coins": 5, "built": ["Altar"]}})
    sheets = final_scores(cat, state)
    assert [s["total"] for s in sheets] == [3, 3, 3]
    # alice and carol tie on points and coins: they share first place; bob has fewer coins.
    assert [(s["player"], s["rank"]) for s in sheets] == [("alice", 1), ("carol", 1), ("bob", 3)]


@pytest.mark.parametrize("age,value", [(1, 1), (2, 3), (3, 5)])
def test_military_tokens_by_age(age: int, value: int, data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Giza", "built": ["Stockade", "Barracks"]},
                              "bob": {"wonder": "Rhodes", "built": ["Guard Tower"]},
                              "carol": {"wonder": "Ephesus", "built": ["Guard Tower"]},
                              "dave": {"wonder": "Babylon"}})
    military(cat, state, age)
    tokens = {p: state["cities"][p]["tokens"] for p in state["players"]}
    # alice (2) beats bob (1) and dave (0); bob (1) and carol (1) tie.
    assert tokens["alice"] == [value, value]
    assert tokens["bob"] == [-1]           # loses to alice, ties carol
    assert tokens["carol"] == [value]      # ties bob, beats dave
    assert tokens["dave"] == [-1, -1]      # loses to carol and alice


def test_rhodes_stage_adds_shields(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Rhodes", "side": "A", "stages": 2},
                              "bob": {"wonder": "Giza", "built": ["Stockade"]},
                              "carol": {"wonder": "Ephesus"}})
    military(cat, state, 2)
    assert state["cities"]["alice"]["tokens"] == [3, 3]
