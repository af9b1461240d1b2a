"""Ambition & Empire VI: adjacency rules (the is_adjacent hook).

Straits: Edinburgh-Ireland and Andalusia-Morocco are ordinary army and fleet
edges of the map, closed for moving and supporting when a fleet of a
different Great Power started the turn in the controlling sea, and closed for
retreating when such a fleet is there before retreats. The core passes the
start-of-turn state for moves and supports and the after-movement state for
retreats, so "is there a fleet in the sea of `state`" answers both.

Smyrna: fleets of the power that controls Constantinople treat the two coasts
as one coastline; they still name a coast."""

from __future__ import annotations

from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Unit, UnitType, province_of
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant


def _strait_sea(graph: MapGraph, a: str, b: str) -> str | None:
    """The sea that controls the crossing between provinces a and b, or None
    if they are not a strait's ends (the map lists two straits)."""
    for strait in graph.extra.get("straits") or []:
        ends = strait["between"]
        if (a, b) == (ends[0], ends[1]) or (b, a) == (ends[0], ends[1]):
            return str(strait["controlled_from"])
    return None


def closing_fleet(state: GameState, variant: Variant, unit: Unit, a: str, b: str) -> Unit | None:
    """The fleet that closes the crossing between provinces a and b (if it is
    one) to `unit`, or None. Only a Great Power's fleet closes a strait (minor
    fleets never leave home)."""
    sea = _strait_sea(variant.map, a, b)
    guard = state.units.get(sea) if sea is not None else None
    if (guard is not None and guard.type is UnitType.FLEET
            and guard.power in variant.powers and guard.power != unit.power):
        return guard
    return None


def strait_closed(state: GameState, variant: Variant, unit: Unit, a: str, b: str) -> bool:
    """Is the crossing between provinces a and b (if it is one) closed to `unit`?"""
    return closing_fleet(state, variant, unit, a, b) is not None


def closed_strait_reason(state: GameState, variant: Variant, unit: Unit, a: str, b: str) -> str | None:
    """'the crossing between Andalusia and Morocco is closed: a Great Britain &
    Hanover fleet is in Gibraltar', or None if that crossing is open (or none)."""
    guard = closing_fleet(state, variant, unit, a, b)
    if guard is None:
        return None
    graph = variant.map
    return (f"the crossing between {graph.full_name(a)} and {graph.full_name(b)} is closed: "
            f"a {variant.power_name(guard.power)} fleet is in {graph.full_name(guard.province)}")


def _unified_coasts(variant: Variant, state: GameState, unit: Unit) -> list[list[str]]:
    """The coast groups this fleet treats as one coastline."""
    groups = []
    for entry in variant.extra.get("unified_coasts") or []:
        controller = state.centres.get(str(entry["for_fleets_of_controller_of"]))
        if controller is not None and controller == unit.power:
            prov = str(entry["province"])
            groups.append([f"{prov}/{c}" for c in entry["coasts"]])
    return groups


def fleet_adjacent(variant: Variant, state: GameState, graph: MapGraph, unit: Unit, source: str,
                   target: str) -> bool:
    if graph.is_adjacent(UnitType.FLEET, source, target):
        return True
    for group in _unified_coasts(variant, state, unit):
        sources = group if source in group else [source]
        targets = group if target in group else [target]
        if (source in group or target in group) and any(
                graph.is_adjacent(UnitType.FLEET, s, t) for s in sources for t in targets if s != t):
            return True
    return False


def is_adjacent(variant: Variant, state: GameState, unit: Unit, source: str, target: str, purpose: str) -> bool:
    graph = variant.map
    src, dst = province_of(source), province_of(target)
    if strait_closed(state, variant, unit, src, dst):
        return False
    if unit.type is UnitType.ARMY:
        return graph.is_adjacent(UnitType.ARMY, source, target)
    return fleet_adjacent(variant, state, graph, unit, source, target)
