"""Binding an order to its unit (issue 14): the movement phase checks the
common order inline and asks bind_unit only why one fails. The two must
agree on every case below: each way an order can fail to bind, and orders
that bind. A check added to bind_unit needs a case here too."""
from __future__ import annotations

import itertools

import pytest

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types.binding import bind_unit
from adjudicator.diplomacy.orders import Hold, Move, Order
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.errors import OrderError
from adjudicator.rules import load_variant
from adjudicator.rules.standard import bind_movement_orders

VARIANT = load_variant("standard")

# Who stands in Burgundy (nobody, a French army, a French fleet, a German
# army), who orders it, and which unit type the order names.
STANDING = (None, Unit("france", UnitType.ARMY, "bur"), Unit("france", UnitType.FLEET, "bur"),
            Unit("germany", UnitType.ARMY, "bur"))
ORDERING = ("france", "germany")
WRITTEN = (None, UnitType.ARMY, UnitType.FLEET)


def bind_error(unit: Unit | None, order: Order) -> str | None:
    state = initial_state(VARIANT)
    state.units = {"bur": unit} if unit is not None else {}
    try:
        bind_unit(state, order)
    except OrderError as exc:
        return exc.message
    return None


def phase_error(unit: Unit | None, order: Order) -> str | None:
    state = initial_state(VARIANT)
    state.units = {"bur": unit} if unit is not None else {}
    line = ParsedLine(1, str(order), order.power, order)
    bind_movement_orders(VARIANT, state, [line])
    return line.error.message if line.error is not None else None


@pytest.mark.parametrize("unit,power,written", list(itertools.product(STANDING, ORDERING, WRITTEN)))
def test_the_phase_binds_as_bind_unit_does(unit: Unit | None, power: str, written: UnitType | None) -> None:
    for order in (Hold(power, written, "bur"), Move(power, written, "bur", "par")):
        assert phase_error(unit, order) == bind_error(unit, order)


def test_the_cases_cover_every_verdict() -> None:
    """The table above holds orders that bind and each way one fails."""
    verdicts = {bind_error(u, Hold(p, w, "bur")) is None for u, p, w in itertools.product(STANDING, ORDERING, WRITTEN)}
    messages = {bind_error(u, Hold(p, w, "bur")) for u, p, w in itertools.product(STANDING, ORDERING, WRITTEN)}
    assert verdicts == {True, False}
    assert any(m and m.startswith("there is no unit") for m in messages)
    assert any(m and "belongs to" in m for m in messages)
    assert any(m and ", not a" in m for m in messages)
