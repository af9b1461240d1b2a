"""The order types' checks called as the rule sets may call them, outside a
phase (their callers in the engine pass what they have already compiled)."""

from __future__ import annotations

import pytest

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types.move import resolve_destination
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.rules import load_variant

STANDARD = load_variant("standard")


@pytest.mark.parametrize("unit, dest, expected", [
    (Unit("france", UnitType.FLEET, "lyo"), "spa", "spa/sc"),       # the only coast it can reach
    (Unit("france", UnitType.FLEET, "mao"), "spa/nc", "spa/nc"),
    (Unit("france", UnitType.ARMY, "gas"), "spa/nc", "spa"),        # an army ignores the coast
])
def test_resolve_destination_finds_the_province_itself(unit: Unit, dest: str, expected: str) -> None:
    state = initial_state(STANDARD)
    assert resolve_destination(state, STANDARD, unit, dest, "move") == expected


def test_resolve_destination_of_two_coasts_asks_which() -> None:
    verdict = resolve_destination(initial_state(STANDARD), STANDARD, Unit("france", UnitType.FLEET, "mao"), "spa",
                                  "move")
    assert isinstance(verdict, Void) and verdict.message == "which coast of Spain?"
