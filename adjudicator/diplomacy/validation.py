"""Cannot-do checks: bind each parsed order to the unit it names and check it
against the position, the map and the variant's adjacency hook.

Orders for a missing unit or for another power's unit are errors (they order
nothing). Orders that name a real, own unit but break the rules are void: the
unit holds and the reason is kept for the report."""

from __future__ import annotations

from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AmbiguousOrderError, IllegalOrderError

KIND_NAMES = {UnitType.ARMY: "army", UnitType.FLEET: "fleet"}
MOVEMENT_ORDERS = frozenset((Hold, Move, SupportHold, SupportMove, Convoy))


def bind_unit(state: GameState, order: Order, *, dislodged: bool = False) -> Unit:
    """The unit an order is for, or an error saying why there is none."""
    pool = {p: d.unit for p, d in state.dislodged.items()} if dislodged else state.units
    unit = pool.get(order.province)
    where = order.province
    if unit is None:
        what = "dislodged unit" if dislodged else "unit"
        raise IllegalOrderError(f"there is no {what} in {where}")
    if unit.power != order.power:
        raise IllegalOrderError(f"the unit in {where} belongs to {unit.power.title()}, not {order.power.title()}",
                                hint="you can only order your own units")
    if order.unit_type is not None and order.unit_type is not unit.type:
        raise IllegalOrderError(f"the unit in {where} is {'an' if unit.type is UnitType.ARMY else 'a'} "
                                f"{KIND_NAMES[unit.type]}, not {'an' if order.unit_type is UnitType.ARMY else 'a'} "
                                f"{KIND_NAMES[order.unit_type]}")
    return unit


def resolve_destination(state: GameState, variant: Variant, unit: Unit, dest: str,
                        purpose: str, province: str | None = None) -> str:
    """The exact location a unit moves to. Armies ignore coasts; a fleet that
    names no coast gets the only reachable one, and is ambiguous if several are.
    `province` is dest's province when the caller has it compiled."""
    graph, is_adjacent = variant.map, variant.rules.is_adjacent
    if province is None:
        province = graph.province_of(dest)
    if unit.type is UnitType.ARMY:
        return province
    if graph.terrain[province] == "land":
        raise IllegalOrderError(f"a fleet cannot go inland to {graph.full_name(province)}")
    if dest != province:
        if not is_adjacent(variant, state, unit, unit.location, dest, purpose):
            raise IllegalOrderError(f"{graph.full_name(unit.location)} does not border {graph.full_name(dest)}")
        return dest
    options = [loc for loc in graph.fleet_spots[province]
               if is_adjacent(variant, state, unit, unit.location, loc, purpose)]
    if len(options) == 1:
        return options[0]
    if not options:
        raise IllegalOrderError(f"a fleet in {graph.full_name(unit.location)} cannot reach {graph.full_name(province)}")
    raise AmbiguousOrderError(f"which coast of {graph.full_name(province)}?",
                              hint="name one: " + " or ".join(options))


def can_reach_province(state: GameState, variant: Variant, unit: Unit, province: str) -> bool:
    """For supports: could the unit move to some part of the province?"""
    is_adjacent = variant.rules.is_adjacent
    if unit.type is UnitType.ARMY:
        return is_adjacent(variant, state, unit, unit.location, province, "support")
    return any(is_adjacent(variant, state, unit, unit.location, loc, "support")
               for loc in variant.map.fleet_spots[province])


def validate_movement_order(state: GameState, variant: Variant, order: Order) -> Order:
    """Return the order in canonical form (exact unit location, exact
    destination) or raise IllegalOrderError/AmbiguousOrderError if void.
    Reads the order's compiled provinces and the map's compiled tables."""
    graph = variant.map
    here = order.province
    unit = state.units[here]
    # An order that already names its unit exactly is kept as it is (orders
    # are values), so the common case makes no new record.
    exact = (order.unit_type is unit.type and order.location == unit.location and order.power == unit.power
             and type(order) in MOVEMENT_ORDERS)
    if isinstance(order, Hold):
        return order if exact else Hold(unit.power, unit.type, unit.location)
    if isinstance(order, Move):
        target = order.dest_province
        if target == here:
            raise IllegalOrderError("a unit cannot move to its own province")
        if unit.type is UnitType.FLEET:
            if order.via_convoy:
                raise IllegalOrderError("only armies can be convoyed")
            dest = resolve_destination(state, variant, unit, order.dest, "move", target)
            return order if exact and dest == order.dest else Move(unit.power, unit.type, unit.location, dest)
        if target in graph.seas:
            raise IllegalOrderError(f"an army cannot move to the sea ({graph.full_name(target)})")
        adjacent = variant.rules.is_adjacent(variant, state, unit, unit.location, target, "move")
        if adjacent and (not order.via_convoy or not convoy_possible(graph, here, target)):
            # 'via convoy' where no convoy can ever go: the directive is ignored
            # and the army moves over land (turn.py notes it on the order line).
            if exact and order.dest == target and not order.via_convoy:
                return order
            return Move(unit.power, unit.type, unit.location, target)
        # A convoy move: both ends must touch the sea.
        if not convoy_possible(graph, here, target):
            if order.via_convoy:
                raise IllegalOrderError(f"no convoy can take an army from {graph.full_name(here)} "
                                        f"to {graph.full_name(target)}")
            raise IllegalOrderError(f"{graph.full_name(here)} does not border {graph.full_name(target)}")
        via = True if order.via_convoy else not adjacent
        if exact and order.dest == target and order.via_convoy == via:
            return order
        return Move(unit.power, unit.type, unit.location, target, via)
    if isinstance(order, SupportHold):
        target = graph.province_of(order.target)
        if target == here:
            raise IllegalOrderError("a unit cannot support itself")
        if target not in state.units:
            raise IllegalOrderError(f"there is no unit in {graph.full_name(target)} to support")
        if not can_reach_province(state, variant, unit, target):
            raise IllegalOrderError(f"{graph.full_name(unit.location)} cannot support into {graph.full_name(target)}")
        if exact and order.target == target:
            return order
        return SupportHold(unit.power, unit.type, unit.location, order.target_type, target)
    if isinstance(order, SupportMove):
        origin = graph.province_of(order.origin)
        dest = order.dest_province
        if origin == here:
            raise IllegalOrderError("a unit cannot support its own move")
        if dest == here:
            raise IllegalOrderError("a unit cannot support a move into its own province")
        if origin not in state.units:
            raise IllegalOrderError(f"there is no unit in {graph.full_name(origin)} to support")
        if origin == dest:
            raise IllegalOrderError("the supported move goes nowhere")
        if not can_reach_province(state, variant, unit, dest):
            raise IllegalOrderError(f"{graph.full_name(unit.location)} cannot support into {graph.full_name(dest)}")
        if exact and order.origin == origin:
            return order
        return SupportMove(unit.power, unit.type, unit.location, order.target_type, origin, order.dest)
    if isinstance(order, Convoy):
        if unit.type is not UnitType.FLEET:
            raise IllegalOrderError("only fleets can convoy")
        if unit.location not in graph.seas:
            raise IllegalOrderError("only fleets at sea can convoy")
        origin, dest = graph.province_of(order.origin), graph.province_of(order.dest)
        army = state.units.get(origin)
        if army is None:
            raise IllegalOrderError(f"there is no army in {graph.full_name(origin)} to convoy")
        if army.type is not UnitType.ARMY:
            raise IllegalOrderError("only armies can be convoyed")
        if dest in graph.seas or origin == dest:
            raise IllegalOrderError(f"an army cannot be convoyed to {graph.full_name(dest)}")
        if not graph.could_convoy(unit.location, origin, dest):
            raise IllegalOrderError(f"a fleet in {graph.full_name(unit.location)} cannot be part of a convoy "
                                    f"from {graph.full_name(origin)} to {graph.full_name(dest)}")
        if exact and order.origin == origin and order.dest == dest:
            return order
        return Convoy(unit.power, unit.type, unit.location, origin, dest)
    raise IllegalOrderError(f"'{order}' is not a movement-phase order")


def convoy_possible(graph: MapGraph, origin: str, dest: str) -> bool:
    """Could any convoy, with fleets anywhere, take an army from origin to dest?
    Both ends must touch seas of one connected body of water."""
    ends = [{graph.sea_component.get(s) for s in graph.seas_touching.get(p, ())} for p in (origin, dest)]
    return bool(ends[0] & ends[1] - {None})


def ignored_convoy_note(graph: MapGraph, written: Move, settled: Move) -> str | None:
    """The note for an order line whose 'via convoy' was ignored (the army
    moved, or tried to move, over land), or None if it was not."""
    if not written.via_convoy or settled.via_convoy:
        return None
    origin, dest = written.province, settled.dest_province
    if not convoy_possible(graph, origin, dest):
        return (f"'via convoy' ignored: no convoy can go from {graph.full_name(origin)} to "
                f"{graph.full_name(dest)}; a move over land")
    return "'via convoy' ignored: no fleet convoys it; a move over land"


def normalise_retreat(order: AnyOrder) -> AnyOrder:
    """In a retreat phase, 'F tri - alb' means a retreat."""
    if isinstance(order, Move):
        return Retreat(order.power, order.unit_type, order.location, order.dest)
    return order


def settle_convoy_intent(state: GameState, variant: Variant, orders: dict[str, Order],
                         void: dict[str, tuple[Order, str]]) -> None:
    """Decide which army moves go by convoy (DATC 4.A.3 as the 2.4 test file
    has it): an army goes by convoy if it says 'via convoy' or a fleet of its
    own power orders a convoy for exactly this move. A move that needs a
    convoy but that no fleet convoys is void (the army holds); 'via convoy'
    with no convoy ordered falls back to the land route when there is one."""
    graph = variant.map
    convoyed_by: dict[tuple[str, str], list[str]] = {}
    for prov, order in orders.items():
        if isinstance(order, Convoy):
            convoyed_by.setdefault((order.origin, order.dest), []).append(state.units[prov].power)
    for prov, order in list(orders.items()):
        if not isinstance(order, Move):
            continue
        unit = state.units[prov]
        if unit.type is not UnitType.ARMY:
            continue
        powers = convoyed_by.get((prov, order.dest_province), ())
        if order.via_convoy == bool(powers):
            continue            # as ordered: by convoy with a convoy, or over land with none
        adjacent = variant.rules.is_adjacent(variant, state, unit, unit.location, order.dest_province, "move")
        if order.via_convoy:
            if adjacent:
                orders[prov] = Move(order.power, order.unit_type, order.location, order.dest, False)
            elif not fleet_route_exists(state, graph, prov, order.dest_province):
                # No fleets stand where a convoy could go (DATC 6.D.32): the order is
                # void and the army holds. With fleets there, it is a failed convoy (6.D.8).
                del orders[prov]
                void[prov] = (order, "no fleet convoys it, and no fleets could")
        elif adjacent and unit.power in powers:
            orders[prov] = Move(order.power, order.unit_type, order.location, order.dest, True)


def fleet_route_exists(state: GameState, graph: MapGraph, origin: str, dest: str) -> bool:
    """Is there a chain of fleets at sea, whatever their orders, from origin to dest?"""
    at_sea = {p for p, u in state.units.items() if u.type is UnitType.FLEET and graph.is_sea(p)}
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
