"""Winter adjustments: builds in owned, vacant home centres (or where the
variant's build_sites hook allows), disbands, waives. A power that orders
too few disbands, or none, gets the rulebook's civil-disorder disbands
(DATC 2.4 and the 2000 rulebook, DATC 6.J.3-6.J.11):

- distance is the fewest moves to the nearest of the power's home supply
  centres, owned or not (the variant option civil_disorder_distance:
  owned_centres counts to every centre it owns instead, as the 2023
  rulebook does);
- an army counts moves through any province, land or sea, as if convoyed
  (6.J.11); a fleet counts only moves a fleet can make, and reaches a
  split-coast centre by either coast (6.J.9);
- the farthest unit goes first; on equal distance fleets go before armies
  (6.J.7), then by the province's full name in alphabetical order."""

from __future__ import annotations

from collections import deque

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.orders import Build, Disband, Waive
from adjudicator.diplomacy.outcome import AdjustmentLine, OrderLine, PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import collect_errors
from adjudicator.diplomacy.validation import bind_unit
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import IllegalOrderError, OrderError


def adjustment_counts(variant: Variant, state: GameState) -> list[AdjustmentLine]:
    rules = variant.rules
    return [AdjustmentLine(p, len(state.centres_of(p)), len(state.units_of(p)))
            for p in rules.playing_powers(variant, state)]


UNREACHABLE = 99


def distance_to_home(graph: MapGraph, start: str, homes: set[str]) -> int:
    """An army's distance: moves to the nearest of `homes` through land and sea alike."""
    if not homes:
        return UNREACHABLE
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        prov, dist = queue.popleft()
        if prov in homes:
            return dist
        neighbours = set(graph.army_adjacent.get(prov, ()))
        for loc in graph.fleet_locations(prov) if graph.provinces[prov].terrain != "land" else []:
            neighbours.update(n.split("/")[0] for n in graph.fleet_adjacent.get(loc, ()))
        for n in neighbours:
            if n not in seen:
                seen.add(n)
                queue.append((n, dist + 1))
    return UNREACHABLE


def fleet_distance(graph: MapGraph, start: str, homes: set[str]) -> int:
    """A fleet's distance: moves a fleet can make (by exact location, so a
    coast counts) to any location of the nearest of `homes`."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        loc, dist = queue.popleft()
        if loc.split("/")[0] in homes:
            return dist
        for n in graph.fleet_adjacent.get(loc, ()):
            if n not in seen:
                seen.add(n)
                queue.append((n, dist + 1))
    return UNREACHABLE


def unit_distance(graph: MapGraph, unit: Unit, homes: set[str]) -> int:
    if unit.type is UnitType.FLEET:
        return fleet_distance(graph, unit.location, homes)
    return distance_to_home(graph, unit.province, homes)


def disorder_targets(variant: Variant, state: GameState, power: str) -> set[str]:
    """The centres civil-disorder distance counts to, by the variant's rule option."""
    if variant.rule_option("civil_disorder_distance") == "owned_centres":
        return set(state.centres_of(power))
    info = variant.powers.get(power)
    return set(info.home_centres) if info is not None else set(state.centres_of(power))


def default_disbands(variant: Variant, state: GameState, power: str, count: int, spared: set[str]) -> list[Unit]:
    """The `count` units civil disorder removes: farthest first, then fleets, then by province name."""
    targets = disorder_targets(variant, state, power)
    candidates = [u for u in state.units_of(power) if u.province not in spared]
    candidates.sort(key=lambda u: (-unit_distance(variant.map, u, targets),
                                   0 if u.type is UnitType.FLEET else 1, variant.map.full_name(u.province)))
    return candidates[:count]


def adjudicate_adjustments(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    rules = variant.rules
    graph = variant.map
    outcome = PhaseOutcome(state.phase, state, state.copy())
    after = outcome.next_state
    counts = {a.power: a for a in adjustment_counts(variant, state)}
    outcome.adjustments = list(counts.values())
    builds_done: dict[str, int] = {p: 0 for p in counts}
    disbanded: dict[str, set[str]] = {p: set() for p in counts}
    waived: dict[str, int] = {p: 0 for p in counts}
    ordered: set[str] = set()
    for line in lines:
        order = line.order
        if order is None or line.error is not None:
            continue
        power = order.power
        try:
            if power not in counts:
                raise IllegalOrderError(f"{power} has no adjustments to make")
            delta = counts[power].delta
            if isinstance(order, Waive):
                if delta - builds_done[power] - waived[power] <= 0:
                    raise IllegalOrderError("no build left to waive")
                waived[power] += 1
                ordered.add(power)
                outcome.orders.append(OrderLine(power, "waive", "waived", kind="Waive"))
                continue
            if isinstance(order, Build):
                if delta - builds_done[power] - waived[power] <= 0:
                    raise IllegalOrderError(f"{variant.powers[power].name} has no builds left"
                                            if power in variant.powers else "no builds left")
                prov = order.province
                sites = rules.build_sites(variant, after, power)
                if prov not in sites:
                    why = "not an owned, vacant home centre" if prov not in after.units else "occupied"
                    raise IllegalOrderError(f"cannot build in {graph.full_name(prov)}: {why}",
                                            hint=("sites: " + ", ".join(sites)) if sites else "no site is free")
                location = order.location
                assert order.unit_type is not None
                if order.unit_type is UnitType.FLEET and "/" not in location and graph.provinces[prov].coasts:
                    raise IllegalOrderError(f"which coast of {graph.full_name(prov)}?",
                                            hint="e.g. build F " + graph.coasts(prov)[0])
                if not graph.can_stand(order.unit_type, location):
                    raise IllegalOrderError(f"cannot build {'a fleet' if order.unit_type is UnitType.FLEET else 'an army'} "
                                            f"in {graph.full_name(location)}")
                after.units[prov] = Unit(power, order.unit_type, location)
                builds_done[power] += 1
                ordered.add(power)
                outcome.orders.append(OrderLine(power, str(Build(power, order.unit_type, location)), "built",
                                                kind="Build", unit=f"{order.unit_type.value} {location}",
                                                province=prov))
                continue
            if isinstance(order, Disband):
                if delta + len(disbanded[power]) >= 0:
                    raise IllegalOrderError("no disbands are due")
                unit = bind_unit(state, order)
                if unit.province in disbanded[power]:
                    raise IllegalOrderError(f"{unit} is already disbanded")
                disbanded[power].add(unit.province)
                del after.units[unit.province]
                ordered.add(power)
                outcome.orders.append(OrderLine(power, f"{unit} disband", "disbanded", kind="Disband", unit=str(unit),
                                                province=unit.province))
                continue
            raise IllegalOrderError("only builds, disbands and waives are allowed in winter")
        except OrderError as exc:
            exc.line = line.number
            line.error = exc
    outcome.errors = collect_errors(lines)
    for power, adj in counts.items():
        # A power that sent nothing gets the defaults marked as such: the
        # report states them once, in its no-orders sentence.
        silent = power not in ordered
        due = -adj.delta - len(disbanded[power])
        if due > 0:
            for unit in default_disbands(variant, state, power, due, disbanded[power]):
                del after.units[unit.province]
                outcome.orders.append(OrderLine(power, f"{unit} disband", "disbanded (civil disorder)",
                                                "no orders" if silent else "too few disbands ordered",
                                                kind="Disband", unit=str(unit), province=unit.province,
                                                defaulted=silent))
        left = adj.delta - builds_done[power] - waived[power]
        if adj.delta > 0 and left > 0:
            outcome.orders.append(OrderLine(power, f"{left} build{'' if left == 1 else 's'} unused", "waived",
                                            kind="Waive", defaulted=silent))
        if adj.delta != 0 and power not in ordered:
            outcome.missed.append(power)
    outcome.notes += rules.after_adjustment(variant, state, after)
    return outcome
