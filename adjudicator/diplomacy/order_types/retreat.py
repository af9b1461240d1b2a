"""Retreat: 'A ser R alb' (also 'A ser - alb' in a retreat phase, and 'A ser
R disband'). A dislodged unit retreats to one of the options its
dislodgement left it; two retreats to one province both fail."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import (
    ARMY,
    FLEET,
    Unit,
    UnitType,
    province_of,
)
from adjudicator.diplomacy.order_types.reading import (
    DISBAND_WORDS,
    MOVE_WORDS,
    Reader,
    Tokens,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import AnyOrder, Disband, Move, Order, Retreat

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.state import GameState


# --- parsing ------------------------------------------------------------------------
def read_retreat(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None,
                 location: str) -> Retreat | Disband:
    """After 'R': a destination ('R alb', 'R - alb'), or 'disband'."""
    if tokens.peek() in MOVE_WORDS:
        tokens.take()
    if tokens.peek() in DISBAND_WORDS:
        tokens.take()
        return Disband(power, unit_type, location)
    return Retreat(power, unit_type, location, reader.read_location(tokens))


def normalise_retreat(order: AnyOrder) -> AnyOrder:
    """An order as a retreat phase reads it: 'F tri - alb' means a retreat."""
    reading = RETREAT_READINGS.get(type(order))
    return reading(order) if reading is not None else order


def move_as_retreat(move: Move) -> Retreat:
    return Retreat(move.power, move.unit_type, move.location, move.dest)


# The order classes a retreat phase reads as another.
RETREAT_READINGS: dict[type[AnyOrder], Callable[[Any], AnyOrder]] = {Move: move_as_retreat}


# --- validation ---------------------------------------------------------------------
def validate_retreat(state: GameState, graph: MapGraph, order: Retreat, unit: Unit) -> Retreat | Void:
    """The retreat to the exact option it names (a fleet that names no coast
    gets the only option in that province; an army ignores a coast), or
    Void saying why not."""
    options = state.dislodged[order.province].retreats
    dest = order.dest
    if unit.type is FLEET and "/" not in dest:
        matches = [o for o in options if province_of(o) == dest]
        dest = matches[0] if len(matches) == 1 else dest
    elif unit.type is ARMY:
        dest = province_of(dest)
    if dest not in options:
        return Void(f"cannot retreat to {graph.full_name(dest) if graph.has_location(dest) else dest}; "
                    + ("options: " + ", ".join(options) if options else "no retreat is possible"))
    return Retreat(unit.power, unit.type, unit.location, dest)


# --- adjudication -------------------------------------------------------------------
def retreat_rivals(state: GameState, chosen: dict[str, Order]) -> dict[str, tuple[Unit, ...]]:
    """For each dislodged unit that retreats, by province, the other units
    that retreat to the same province: if there are any, all of them fail."""
    by_dest: dict[str, list[str]] = defaultdict(list)
    for prov, order in sorted(chosen.items()):
        dest = order.moves_to()
        if dest is not None:
            by_dest[dest].append(prov)
    return {prov: tuple(state.dislodged[other].unit for other in provs if other != prov)
            for provs in by_dest.values() for prov in provs}
