"""Shared helpers: the real variant data and a way to build a state with
chosen cities, so each rule can be tested on a small, readable position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.cards.driver import load_data
from adjudicator.cards.seven_wonders.cards import Catalog, catalog
from adjudicator.cards.seven_wonders.engine import GAME
from adjudicator.store import storage

CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="session")
def data() -> dict[str, Any]:
    return load_data(GAME)


@pytest.fixture(scope="session")
def cat(data: dict[str, Any]) -> Catalog:
    return catalog(data)


def load_cases(name: str) -> list[dict[str, Any]]:
    cases = storage.read_yaml(CASES / name)
    assert isinstance(cases, list) and cases
    return cases


def make_state(data: dict[str, Any], cities: dict[str, dict[str, Any]], *, age: int = 1,
               turn: int = 1, seed: int = 1) -> dict[str, Any]:
    """A state for the named players (in seating order) whose cities take the
    given fields (wonder, side, built, stages, coins, hand, tokens)."""
    players = list(cities)
    state = GAME.setup(players, seed, data)
    state["age"], state["turn"] = age, turn
    for player, fields in cities.items():
        city = state["cities"][player]
        city.update({"built": [], "stages": 0, "coins": 3, "tokens": [], "tucked": []})
        city.update(fields)
    return state
