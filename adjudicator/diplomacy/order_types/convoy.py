"""Convoy: 'F nth C A lon - nwy'. A fleet at sea carries an army's move;
the move's path is a chain of convoying fleets, each of whose convoy
succeeds (it is not dislodged), from coast to coast."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import (
    ARMY,
    DISLODGED,
    FLEET,
    Reason,
    Unit,
    UnitType,
)
from adjudicator.diplomacy.order_types.board import Board, Decided, is_dislodged
from adjudicator.diplomacy.order_types.reading import (
    MOVE_WORDS,
    UNIT_WORDS,
    Reader,
    Tokens,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import Convoy
from adjudicator.errors import OrderSyntaxError

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


# --- parsing ------------------------------------------------------------------------
def read_convoy(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str) -> Convoy:
    """After 'C': the army's move, 'A lon - nwy' ('A' may be left out)."""
    if tokens.peek() in UNIT_WORDS:
        tokens.take()
    origin = reader.read_location(tokens)
    if tokens.peek() not in MOVE_WORDS:
        raise OrderSyntaxError("a convoy names the army's move", hint="e.g. 'F nth C A lon - nwy'")
    tokens.take()
    tokens.skip_to_after_verb()
    return Convoy(power, unit_type, location, origin, reader.read_location(tokens))


# --- validation ---------------------------------------------------------------------
def validate_convoy(state: GameState, variant: Variant, order: Convoy, unit: Unit, exact: bool) -> Convoy | Void:
    """A fleet at sea that could be part of a convoy of an army from origin to dest."""
    graph = variant.map
    if unit.type is not FLEET:
        return Void("only fleets can convoy")
    if unit.location not in graph.seas:
        return Void("only fleets at sea can convoy")
    origin, dest = graph.province_of(order.origin), graph.province_of(order.dest)
    army = state.units.get(origin)
    if army is None:
        return Void(f"there is no army in {graph.full_name(origin)} to convoy")
    if army.type is not ARMY:
        return Void("only armies can be convoyed")
    if dest in graph.seas or origin == dest:
        return Void(f"an army cannot be convoyed to {graph.full_name(dest)}")
    if not graph.could_convoy(unit.location, origin, dest):
        return Void(f"a fleet in {graph.full_name(unit.location)} cannot be part of a convoy "
                                f"from {graph.full_name(origin)} to {graph.full_name(dest)}")
    if variant.rule_option("unnecessary_convoy") == "illegal" \
            and not is_needed_on_a_route(variant, unit.location, origin, dest):
        # The 2023 rules ignore an illegal order, so it shows no intent (DATC 3.0 6.G.19).
        return Void(f"a fleet in {graph.full_name(unit.location)} is needed on no convoy route "
                    f"from {graph.full_name(origin)} to {graph.full_name(dest)}")
    if exact and order.origin == origin and order.dest == dest:
        return order
    return Convoy(unit.power, unit.type, unit.location, origin, dest)


# Chordless routes to try before a convoy is taken as needed: far beyond any
# real map's seas, a bound on what a hostile map file can make the search cost.
ROUTE_SEARCH_LIMIT = 100_000


def is_needed_on_a_route(variant: Variant, sea: str, origin: str, dest: str) -> bool:
    """Is the fleet in `sea` part of some convoy route from origin to dest
    that no fleet could be left out of (a chordless chain of seas, only its
    first sea touching origin and only its last touching dest)? Kept with
    the variant: a map's answer never changes."""
    known = variant.derived.setdefault("needed_convoys", {})
    assert isinstance(known, dict)
    key = (sea, origin, dest)
    if key not in known:
        known[key] = _search_needed(variant.map, sea, origin, dest)
    return bool(known[key])


def _search_needed(graph: MapGraph, sea: str, origin: str, dest: str) -> bool:
    touching = graph.seas_touching
    starts, goals = touching.get(origin, frozenset()), touching.get(dest, frozenset())
    if sea in starts and sea in goals:
        return True             # it convoys alone
    budget = ROUTE_SEARCH_LIMIT
    path: list[str] = []

    def through(nxt: str) -> bool:
        path.append(nxt)
        found = extend(nxt)
        path.pop()
        return found

    def extend(last: str) -> bool:
        nonlocal budget
        budget -= 1
        if budget < 0:
            return True         # too many routes to try: take the order as legal
        if last in goals:
            return sea in path
        # In name order, so a search the budget cuts short ends the same way every run.
        return any(through(nxt) for nxt in sorted(touching.get(last, frozenset()))
                   if nxt not in starts and nxt not in path
                   and not any(nxt in touching.get(p, frozenset()) for p in path[:-1]))

    return any(through(first) for first in sorted(starts))


def convoy_possible(graph: MapGraph, origin: str, dest: str) -> bool:
    """Could any convoy, with fleets anywhere, take an army from origin to dest?
    Both ends must touch seas of one connected body of water."""
    ends = [{graph.sea_component.get(s) for s in graph.seas_touching.get(p, ())} for p in (origin, dest)]
    return bool(ends[0] & ends[1] - {None})


def fleet_route_exists(state: GameState, graph: MapGraph, origin: str, dest: str) -> bool:
    """Is there a chain of fleets at sea, whatever their orders, from origin to dest?"""
    at_sea = {p for p, u in state.units.items() if u.type is FLEET and graph.is_sea(p)}
    frontier = [s for s in graph.seas_touching.get(origin, ()) if s in at_sea]
    goal = graph.seas_touching.get(dest, frozenset())
    seen: set[str] = set()
    while frontier:
        sea = frontier.pop()
        if sea in goal:
            return True
        if sea in seen:
            continue
        seen.add(sea)
        frontier.extend(s for s in graph.seas_touching.get(sea, ()) if s in at_sea and s not in seen)
    return False


# --- adjudication -------------------------------------------------------------------
def index_convoy(board: Board, prov: str, order: Convoy) -> None:
    board.convoys[(order.origin, order.dest)].append(prov)


def has_path(board: Board, prov: str, decided: Decided) -> bool:
    """The path decision of the move from `prov`. Direct moves always have a
    path; convoyed moves need a chain of convoying fleets, each of whose
    convoy succeeds, from coast to coast. Callers skip this call for
    direct moves: they are the hot path."""
    if prov not in board.by_convoy:
        return True
    dest = board.target[prov]
    fleets = board.convoys.get((prov, dest), [])
    if not fleets:
        return False
    fleet_set = set(fleets)
    start = board.seas_touching.get(prov, frozenset())
    goal = board.seas_touching.get(dest, frozenset())
    frontier = [f for f in fleets if f in start]
    seen: set[str] = set()
    while frontier:
        fleet = frontier.pop()
        if fleet in seen:
            continue
        seen.add(fleet)
        if not decided(fleet):
            continue
        if fleet in goal:
            return True
        for nxt in board.seas_touching.get(fleet, frozenset()):
            if nxt in fleet_set and nxt not in seen:
                frontier.append(nxt)
    return False


def convoy_given(board: Board, prov: str, order: Convoy, decided: Decided) -> bool:
    """A convoy succeeds unless its fleet is dislodged."""
    return not is_dislodged(board, prov, decided)


def convoy_failure(board: Board, prov: str, order: Convoy, decided: Decided) -> Reason:
    """A convoy fails only when its fleet is dislodged."""
    return DISLODGED
