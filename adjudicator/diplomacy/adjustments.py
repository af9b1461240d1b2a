"""Winter adjustments: builds in owned, vacant home centres (or where the
variant's build_sites hook allows), disbands, waives. A power that orders
too few disbands, or none, gets the rulebook's civil-disorder disbands
(DATC 2.4 and the 2000 rulebook, DATC 6.J.3-6.J.11):

- distance is the fewest moves to the nearest of the power's home supply
  centres, owned or not;
- an army counts moves through any province, land or sea, as if convoyed
  (6.J.11); a fleet counts only moves a fleet can make, and reaches a
  split-coast centre by either coast (6.J.9);
- under the rule option civil_disorder_distance: owned_centres (the 2023
  rulebook, DATC 3.0 6.J) distance is to the nearest centre the power owns,
  and fleets count moves over land and sea as armies do (6.J.8);
- the farthest unit goes first; on equal distance fleets go before armies
  (6.J.7), then by the province's full name in alphabetical order.

Each winter order's own checks are in its module under
adjudicator.diplomacy.order_types (build, disband, waive); this module keeps
the ledger of what each power has done and applies the defaults."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Reason, Unit, UnitType, province_of
from adjudicator.diplomacy.order_types.build import validate_build
from adjudicator.diplomacy.order_types.disband import validate_winter_disband
from adjudicator.diplomacy.order_types.waive import validate_waive
from adjudicator.diplomacy.orders import AnyOrder, Build, Disband, Waive
from adjudicator.diplomacy.outcome import (
    AdjustmentLine,
    OrderLine,
    PhaseOutcome,
    UnusedBuilds,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import collect_errors
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
            neighbours.update(province_of(n) for n in graph.fleet_adjacent.get(loc, ()))
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
        if province_of(loc) in homes:
            return dist
        for n in graph.fleet_adjacent.get(loc, ()):
            if n not in seen:
                seen.add(n)
                queue.append((n, dist + 1))
    return UNREACHABLE


def unit_distance(graph: MapGraph, unit: Unit, homes: set[str], fleets_by_water: bool) -> int:
    if unit.type is UnitType.FLEET and fleets_by_water:
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
    # The 2023 rules count every unit's moves over land and sea alike.
    by_water = variant.rule_option("civil_disorder_distance") != "owned_centres"
    candidates = [u for u in state.units_of(power) if u.province not in spared]
    candidates.sort(key=lambda u: (-unit_distance(variant.map, u, targets, by_water),
                                   0 if u.type is UnitType.FLEET else 1, variant.map.full_name(u.province)))
    return candidates[:count]


@dataclass
class Ledger:
    """A winter phase so far: the powers' adjustments due and what each has
    ordered, with the outcome its lines go into."""

    counts: dict[str, AdjustmentLine]
    outcome: PhaseOutcome
    builds_done: dict[str, int] = field(init=False)
    disbanded: dict[str, set[str]] = field(init=False)
    waived: dict[str, int] = field(init=False)
    ordered: set[str] = field(init=False)          # powers that sent any valid order

    def __post_init__(self) -> None:
        self.builds_done = {p: 0 for p in self.counts}
        self.disbanded = {p: set() for p in self.counts}
        self.waived = {p: 0 for p in self.counts}
        self.ordered = set()

    def builds_left(self, power: str) -> int:
        return self.counts[power].delta - self.builds_done[power] - self.waived[power]


def adjudicate_adjustments(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    """Apply each power's builds, disbands and waives in line order, then the
    civil-disorder defaults for what was left unordered."""
    outcome = PhaseOutcome(state.phase, state, state.copy())
    counts = {a.power: a for a in adjustment_counts(variant, state)}
    outcome.adjustments = list(counts.values())
    ledger = Ledger(counts, outcome)
    errors: dict[int, OrderError] = {}
    for line in lines:
        if line.order is None:
            continue                # the parser could not read it: its error is on the line
        error = adjustment_verdict(variant, state, ledger, line.order)
        if error is not None:
            error.line = line.number
            errors[line.number] = error
    outcome.errors = collect_errors(lines, errors)
    apply_defaults(variant, state, ledger)
    outcome.notes += variant.rules.after_adjustment(variant, state, outcome.next_state)
    return outcome


def adjustment_verdict(variant: Variant, state: GameState, ledger: Ledger, order: AnyOrder) -> OrderError | None:
    """One line's verdict in winter: its order is applied to the ledger (None),
    or the error that keeps it from ordering anything."""
    if order.power not in ledger.counts:
        return IllegalOrderError(f"{order.power} has no adjustments to make")
    adjust = ADJUSTMENTS.get(type(order))
    if adjust is None:
        return IllegalOrderError("only builds, disbands and waives are allowed in winter")
    return adjust(variant, state, ledger, order)


def adjust_waive(variant: Variant, state: GameState, ledger: Ledger, order: Waive) -> OrderError | None:
    power = order.power
    error = validate_waive(ledger.builds_left(power))
    if error is not None:
        return error
    ledger.waived[power] += 1
    ledger.ordered.add(power)
    ledger.outcome.orders.append(OrderLine(order, Reason.WAIVED))
    return None


def adjust_build(variant: Variant, state: GameState, ledger: Ledger, order: Build) -> OrderError | None:
    power = order.power
    after = ledger.outcome.next_state
    unit = validate_build(variant, after, order, ledger.builds_left(power))
    if isinstance(unit, OrderError):
        return unit
    after.units[unit.province] = unit
    ledger.builds_done[power] += 1
    ledger.ordered.add(power)
    ledger.outcome.orders.append(OrderLine(Build(power, unit.type, unit.location), Reason.BUILT, True,
                                           unit.province, unit))
    return None


def adjust_disband(variant: Variant, state: GameState, ledger: Ledger, order: Disband) -> OrderError | None:
    power = order.power
    disbanded = ledger.disbanded[power]
    unit = validate_winter_disband(state, order, -ledger.counts[power].delta - len(disbanded), disbanded)
    if isinstance(unit, OrderError):
        return unit
    disbanded.add(unit.province)
    del ledger.outcome.next_state.units[unit.province]
    ledger.ordered.add(power)
    ledger.outcome.orders.append(OrderLine(Disband(power, unit.type, unit.location), Reason.DISBANDED, True,
                                           unit.province, unit))
    return None


# Each winter order type, applied to the ledger once its own checks
# (adjudicator.diplomacy.order_types) pass; else the error that stops it.
ADJUSTMENTS: dict[type[AnyOrder], Callable[[Variant, GameState, Ledger, Any], OrderError | None]] = {
    Waive: adjust_waive,
    Build: adjust_build,
    Disband: adjust_disband,
}


def apply_defaults(variant: Variant, state: GameState, ledger: Ledger) -> None:
    """Civil-disorder disbands for disbands left unordered, unused builds
    waived, and the powers that sent nothing marked as missed."""
    outcome, after = ledger.outcome, ledger.outcome.next_state
    for power, adj in ledger.counts.items():
        # A power that sent nothing gets the defaults marked as such: the
        # report states them once, in its no-orders sentence.
        silent = power not in ledger.ordered
        due = -adj.delta - len(ledger.disbanded[power])
        if due > 0:
            for unit in default_disbands(variant, state, power, due, ledger.disbanded[power]):
                del after.units[unit.province]
                outcome.orders.append(OrderLine(Disband(power, unit.type, unit.location), Reason.CIVIL_DISORDER,
                                                True, unit.province, unit, defaulted=silent))
        left = ledger.builds_left(power)
        if adj.delta > 0 and left > 0:
            outcome.orders.append(OrderLine(UnusedBuilds(power, left), Reason.WAIVED, defaulted=silent))
        if adj.delta != 0 and silent:
            outcome.missed.append(power)
