"""The small value types every part of the judge shares: phases in play
order, units equal and hashed by what they are, and a game state's copy,
which is its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.diplomacy.model import Phase, Unit, UnitType, province_of
from adjudicator.diplomacy.state import GameState

IN_ORDER = [line for line in (Path(__file__).parent / "cases" / "phases-in-order.txt").read_text(
    encoding="utf-8").splitlines() if line and not line.startswith("#")]


def test_phases_sort_in_play_order() -> None:
    # Sorted from the reverse order: two phases that sorted as equal would stay reversed.
    backwards = [Phase.from_slug(slug) for slug in reversed(IN_ORDER)]
    assert [p.slug for p in sorted(backwards, key=lambda p: p.sort_key)] == IN_ORDER


def test_phases_are_values_with_no_order_of_their_own() -> None:
    spring, fall = Phase(1901, "spring", "movement"), Phase(1901, "fall", "movement")
    assert {spring: 1}[Phase.from_slug("1901-spring-movement")] == 1
    with pytest.raises(AttributeError):
        spring.year = 1902      # type: ignore[misc]
    # Their fields would order fall before spring: phases are ordered by sort_key alone.
    with pytest.raises(TypeError):
        assert fall < spring    # type: ignore[operator]
    assert str(fall) == "Fall 1901 Movement"


def test_units_are_equal_and_hashed_by_what_they_are() -> None:
    fleet = Unit("russia", UnitType.FLEET, "stp/sc")
    assert fleet.province == "stp" and str(fleet) == "F stp/sc"
    assert fleet == Unit("russia", UnitType.FLEET, "stp/sc") != Unit("russia", UnitType.FLEET, "stp/nc")
    assert len({fleet, Unit("russia", UnitType.FLEET, "stp/sc")}) == 1
    assert province_of("spa/nc") == "spa" and province_of("par") == "par"


def test_a_state_copy_keeps_everything_and_shares_nothing_that_changes() -> None:
    state = GameState("ambition-empire", Phase(1770, "winter", "adjustment"),
                      {"par": Unit("france", UnitType.ARMY, "par")}, {"par": "france"},
                      extra={"ambition_empire": {"extra_homes": {"denmark": "hew"}}},
                      result={"winner": "france", "centres": ["par"]}, missed={"italy": 2}, control={"bur": "france"})
    copied = state.copy()
    assert copied == state
    copied.extra["ambition_empire"]["extra_homes"]["denmark"] = "sto"
    assert copied.result is not None
    copied.result["centres"].append("bre")
    copied.units.clear()
    assert state.extra == {"ambition_empire": {"extra_homes": {"denmark": "hew"}}}
    assert state.result == {"winner": "france", "centres": ["par"]} and len(state.units) == 1
    assert GameState("standard", Phase(1901, "spring", "movement"), {}, {}).copy().result is None
