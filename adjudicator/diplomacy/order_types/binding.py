"""Bind an order to the unit it names, whatever the order's type.

An order for a missing unit or for another power's unit is an error (it
orders nothing): the verdict on its line. The movement, retreat and winter
phases use this."""

from __future__ import annotations

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.orders import Order
from adjudicator.diplomacy.state import GameState
from adjudicator.errors import IllegalOrderError

KIND_NAMES = {UnitType.ARMY: "army", UnitType.FLEET: "fleet"}


def bind_unit(state: GameState, order: Order, *, dislodged: bool = False) -> Unit | IllegalOrderError:
    """The unit an order is for, or the error saying why there is none."""
    pool = {p: d.unit for p, d in state.dislodged.items()} if dislodged else state.units
    unit = pool.get(order.province)
    where = order.province
    if unit is None:
        what = "dislodged unit" if dislodged else "unit"
        return IllegalOrderError(f"there is no {what} in {where}")
    if unit.power != order.power:
        return IllegalOrderError(f"the unit in {where} belongs to {unit.power.title()}, not {order.power.title()}",
                                 hint="you can only order your own units")
    if order.unit_type is not None and order.unit_type is not unit.type:
        return IllegalOrderError(f"the unit in {where} is {'an' if unit.type is UnitType.ARMY else 'a'} "
                                 f"{KIND_NAMES[unit.type]}, not {'an' if order.unit_type is UnitType.ARMY else 'a'} "
                                 f"{KIND_NAMES[order.unit_type]}")
    return unit
