"""Cannot-do checks: bind each parsed order to the unit it names and check it
against the position, the map and the variant's adjacency hook.

Orders for a missing unit or for another power's unit are errors (they order
nothing). Orders that name a real, own unit but break the rules are void: the
unit holds and the reason is kept for the report. A void order is a value
the checks return (Void), not an error they raise.

Each order type's own checks are in its module (adjudicator.diplomacy.order_types);
this module dispatches to them by order class and settles, across all the
orders of a phase, which army moves go by convoy. The names the order types
now hold are still importable from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from adjudicator.diplomacy.model import ARMY, Unit
from adjudicator.diplomacy.order_types.binding import KIND_NAMES, bind_unit
from adjudicator.diplomacy.order_types.convoy import (
    convoy_possible,
    fleet_route_exists,
    validate_convoy,
)
from adjudicator.diplomacy.order_types.hold import validate_hold
from adjudicator.diplomacy.order_types.move import (
    resolve_destination,
    validate_move,
)
from adjudicator.diplomacy.order_types.retreat import normalise_retreat
from adjudicator.diplomacy.order_types.support import (
    can_reach_province,
    validate_support_hold,
    validate_support_move,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant

__all__ = [
    "KIND_NAMES",
    "Void",
    "bind_unit",
    "can_reach_province",
    "convoy_possible",
    "fleet_route_exists",
    "is_movement_order",
    "normalise_retreat",
    "resolve_destination",
    "settle_convoy_intent",
    "validate_movement_order",
]

# Each movement-phase order type's check: (state, variant, order, its unit,
# whether the order already names that unit exactly) -> the canonical order,
# or Void saying which rule it breaks.
Validator = Callable[[GameState, Variant, Any, Unit, bool], Order | Void]
VALIDATORS: dict[type[Order], Validator] = {
    Hold: validate_hold,
    Move: validate_move,
    SupportHold: validate_support_hold,
    SupportMove: validate_support_move,
    Convoy: validate_convoy,
}


def is_movement_order(order: AnyOrder) -> TypeGuard[Order]:
    """Is this an order a movement phase takes (hold, move, support, convoy)?"""
    return type(order) in VALIDATORS


def validate_movement_order(state: GameState, variant: Variant, order: Order, unit: Unit) -> Order | Void:
    """Return the order in canonical form (exact unit location, exact
    destination), or Void with the rule it breaks.
    `unit` is the unit the order is bound to (bind_unit). Reads the order's
    compiled provinces and the map's compiled tables; the checks themselves
    are the order type's (adjudicator.diplomacy.order_types)."""
    validate = VALIDATORS.get(type(order))
    if validate is None:
        return Void(f"'{order}' is not a movement-phase order")
    # An order that already names its unit exactly is kept as it is (orders
    # are values), so the common case makes no new record.
    exact = order.unit_type is unit.type and order.location == unit.location and order.power == unit.power
    return validate(state, variant, order, unit, exact)


def settle_convoy_intent(state: GameState, variant: Variant, orders: dict[str, Order],
                         void: dict[str, tuple[Order, str]]) -> None:
    """Decide which army moves go by convoy (DATC 4.A.3 as the 2.4 test file
    has it): an army goes by convoy if it says 'via convoy' or a fleet of its
    own power orders a convoy for exactly this move. A move that needs a
    convoy but that no fleet convoys is void (the army holds); 'via convoy'
    with no convoy ordered falls back to the land route when there is one,
    unless the rule option via_convoy_fallback is none (2023 rules, DATC 3.0
    6.G.8): then it is a convoy move that fails for want of a convoy."""
    graph = variant.map
    convoyed_by: dict[tuple[str, str], list[str]] = {}
    asked = False           # does any move say 'via convoy'?
    for prov, order in orders.items():
        if type(order) is Convoy:     # the order classes have no subclasses
            convoyed_by.setdefault((order.origin, order.dest), []).append(state.units[prov].power)
        elif type(order) is Move and order.via_convoy:
            asked = True
    if not convoyed_by and not asked:
        return              # no convoy ordered or asked for: every move goes as ordered
    for prov, order in list(orders.items()):
        if not isinstance(order, Move):
            continue
        unit = state.units[prov]
        if unit.type is not ARMY:
            continue
        powers = convoyed_by.get((prov, order.dest_province), ())
        if order.via_convoy == bool(powers):
            continue            # as ordered: by convoy with a convoy, or over land with none
        adjacent = variant.rules.is_adjacent(variant, state, unit, unit.location, order.dest_province, "move")
        if order.via_convoy:
            if adjacent and variant.rule_option("via_convoy_fallback") == "land_route":
                orders[prov] = Move(order.power, order.unit_type, order.location, order.dest, False)
            elif not fleet_route_exists(state, graph, prov, order.dest_province):
                # No fleets stand where a convoy could go (DATC 6.D.32): the order is
                # void and the army holds. With fleets there, it is a failed convoy (6.D.8).
                del orders[prov]
                void[prov] = (order, "no fleet convoys it, and no fleets could")
        elif adjacent and unit.power in powers:
            orders[prov] = Move(order.power, order.unit_type, order.location, order.dest, True)

