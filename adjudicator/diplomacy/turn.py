"""One phase of a Diplomacy game, as a recipe:

  movement:   bind + validate (variant pre-step) -> resolve -> variant post-step,
              iterated to a fixed point -> move units (lift all, then drop) ->
              dislodged units with retreat options -> variant after-movement
  retreat:    retreats; two to one place both fail; unordered units disband
  adjustment: builds, disbands, waives; civil-disorder defaults
then the next phase, skipping phases with nothing to do (after Fall, centres
change hands first and victory is checked)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from adjudicator.diplomacy.hooks import PreResolved
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import (
    ARMY,
    BOUNCED,
    CONVOYED,
    CUT,
    HELD,
    MOVED,
    NO_CONVOY,
    NOT_MATCHED,
    SUPPORTED,
    VOID,
    Reason,
    Unit,
    province_of,
)
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.movement_result import ConvoyNote, MovementResult
from adjudicator.diplomacy.order_types.move import move_as_written
from adjudicator.diplomacy.orders import Hold, Move, Order
from adjudicator.diplomacy.outcome import (
    DislodgedLine,
    ErrorLine,
    Opponent,
    OrderLine,
    PhaseOutcome,
    Why,
    WhyKind,
)
from adjudicator.diplomacy.state import Dislodged, GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    OrderError,
    OrderSyntaxError,
)


def error_kind(exc: OrderError) -> str:
    if isinstance(exc, AmbiguousOrderError):
        return "ambiguous"
    if isinstance(exc, IllegalOrderError):
        return "cannot do"
    if isinstance(exc, OrderSyntaxError):
        return "cannot read"
    return "error"


def collect_errors(lines: list[ParsedLine], refused: dict[int, OrderError],
                   published_invalid: set[int] | frozenset[int] = frozenset()) -> list[ErrorLine]:
    """Every line that orders nothing, in line order: the parser's errors,
    then the phase's (`refused`, by line number). Lines the rules publish as
    invalid are marked so: they need not stop the turn."""
    errors = []
    for line in lines:
        error = line.error or refused.get(line.number)
        if error is not None:
            errors.append(ErrorLine(line.power, line.number, line.text,
                                    error.message + (f" ({error.hint})" if error.hint else ""),
                                    error_kind(error), line.number in published_invalid))
    return errors


# --- movement ---------------------------------------------------------------------
def resolve_with_post_steps(variant: Variant, state: GameState, orders: dict[str, Order],
                            void: dict[str, tuple[Order, str]]) -> MovementResult:
    """Resolve, let the variant void orders, resolve again, until nothing
    changes. `orders` holds every unit's order (orders_to_resolve); a newly
    void one is kept in `void` and replaced by a hold."""
    rules = variant.rules
    while True:
        result = resolve_movement(state.units, orders, variant.map.seas_touching, rules.backup_rule)
        newly_void = {p: why for p, why in rules.post_resolve(variant, state, orders, result).items()
                      if p not in void}
        if not newly_void:
            return result
        for prov, why in newly_void.items():
            void[prov] = (orders[prov], why)
            unit = state.units[prov]
            orders[prov] = Hold(unit.power, unit.type, unit.location)


# Reasons that are a plain success: no why, unless the unit was dislodged.
PLAIN_REASONS = frozenset({MOVED, SUPPORTED, CONVOYED, HELD})


def why_of(order: Order, reason: Reason, state: GameState, result: MovementResult, rule: str = "") -> Why | None:
    """The typed reason for a result that is not a plain success, from the
    resolver's decisions; `rule` is the rule a void order broke."""
    # Why and Opponent are made positionally, as OrderLine is (see order_line):
    # Why's fields are (kind, strength, opponents, defence, retreats, disbanded, rule).
    prov, units = order.province, state.units
    contest = result.dislodgements.get(prov)
    if contest is not None:
        (attacker, attack), = contest.others
        return Why(WhyKind.DISLODGED, attack, (Opponent(units[attacker], attack),), contest.strength,
                   (), False, rule)
    if reason is BOUNCED:
        contest = result.bounces.get(prov)
        if contest is not None:
            return Why(WhyKind.BOUNCED, contest.strength,
                       tuple([Opponent(units[p], strength) for p, strength in contest.others]))
    elif reason is NO_CONVOY:
        return Why(WhyKind.NO_CONVOY)
    elif reason is CUT:
        return Why(WhyKind.CUT, None, tuple([Opponent(units[p]) for p in result.cuts.get(prov, ())]))
    elif reason is NOT_MATCHED:
        helped = order.helps()
        if helped is not None:
            return Why(WhyKind.NOT_MATCHED, None, (Opponent(units[province_of(helped)]),))
    return None


def order_line(order: Order, state: GameState, result: MovementResult, defaulted: bool) -> OrderLine:
    prov = order.province
    reason = result.reasons[prov]          # the resolver gives every unit's order a reason
    # The common case, a plain success, has no why.
    why = why_of(order, reason, state, result) if reason not in PLAIN_REASONS or prov in result.dislodged else None
    # Positional, in OrderLine's field order (order, result, succeeded, province,
    # unit, why, void, defaulted): every unit gets a line every phase.
    return OrderLine(order, reason, result.succeeded[prov], prov, state.units[prov], why, False, defaulted)


def retreat_options(variant: Variant, state: GameState, unit: Unit, attacker_from: str | None,
                    occupied: set[str], contested: set[str]) -> list[str]:
    """Empty, uncontested neighbours, never the attacker's origin (unless the
    attacker came by convoy, DATC 6.H.11), never by convoy. A fleet's
    candidates come from every coast of its province and the adjacency hook
    decides, so a variant that joins two coasts (A&E's Smyrna) needs no hook
    of its own here."""
    graph = variant.map
    if unit.type is ARMY:
        candidates = set(graph.army_adjacent.get(unit.province, frozenset()))
    else:
        candidates = {loc for own in graph.fleet_locations(unit.province)
                      for loc in graph.fleet_adjacent.get(own, frozenset())}
    options = []
    for loc in sorted(candidates):
        prov = province_of(loc)
        if prov == attacker_from or prov in occupied or prov in contested:
            continue
        if variant.rules.is_adjacent(variant, state, unit, unit.location, loc, "retreat"):
            options.append(loc)
    return options


def adjudicate_movement(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    """The movement recipe: settle the orders, resolve them, write every
    unit's order line, move the units, then place the dislodged."""
    rules = variant.rules
    pre = rules.pre_resolve(variant, state, lines)
    orders, void = orders_to_resolve(state, pre)
    result = resolve_with_post_steps(variant, state, orders, void)
    outcome = PhaseOutcome(state.phase, state, state.copy(), errors=collect_errors(lines, pre.errors,
                                                                                  pre.published_invalid),
                           notes=list(pre.notes), private={k: list(v) for k, v in pre.private_notes.items()},
                           gm_log=list(pre.gm_log))
    note_invalid_lines(variant, outcome)
    by_province = write_order_lines(variant, state, pre, orders, void, result, outcome)
    after = outcome.next_state
    dislodged_units = move_units(result, after)
    place_dislodged(variant, after, dislodged_units, result)
    # The variant's rules see every dislodged unit first (A&E disbands a minor
    # unit a Great Power dislodged, and says so); then a unit with nowhere to go
    # is disbanded, so each disbandment is worded once.
    outcome.notes += rules.after_movement(variant, state, after, result)
    disband_stranded(variant, after, outcome.notes)
    note_retreats(by_province, dislodged_units, after)
    outcome.dislodged = [DislodgedLine(d.unit, d.attacker_from, list(d.retreats))
                         for _, d in sorted(after.dislodged.items())]
    return outcome


def orders_to_resolve(state: GameState, pre: PreResolved) -> tuple[dict[str, Order], dict[str, tuple[Order, str]]]:
    """Every unit's order, in the units' order: its valid order, or a hold if
    it has none or a void one; and the void orders with their reasons."""
    valid, void = pre.orders, dict(pre.void)
    orders: dict[str, Order] = {}
    for prov, unit in state.units.items():
        order = valid.get(prov)
        orders[prov] = order if order is not None and prov not in void else Hold(unit.power, unit.type, unit.location)
    return orders, void


def write_order_lines(variant: Variant, state: GameState, pre: PreResolved, orders: dict[str, Order],
                      void: dict[str, tuple[Order, str]], result: MovementResult,
                      outcome: PhaseOutcome) -> dict[str, OrderLine]:
    """One order line per unit, by province, into the outcome; then the void
    orders the variant published for units that are gone."""
    # Each unit's own power's move as written: what the judge made of its
    # 'via convoy' goes on the line beside it.
    written = pre.written
    valid_asked, void_asked = pre.orders, pre.void    # what the players ordered, before post-steps
    by_province: dict[str, OrderLine] = {}
    published, lines_out, units = pre.published, outcome.orders, state.units
    for prov in sorted(units):
        defaulted = prov not in valid_asked and prov not in void_asked
        if prov in void:
            order, why = void[prov]
            line = void_line(state, prov, order, why, result, defaulted)
        else:
            resolved, asked = orders[prov], written.get(prov)
            line = order_line(resolved, state, result, defaulted)
            if asked is not None and asked is not resolved:     # validation made the order anew
                settle = AS_WRITTEN.get(type(resolved))
                if settle is not None:
                    line.order, line.convoy = settle(variant.map, asked, resolved)
        line.written = published.get(prov)
        by_province[prov] = line
        lines_out.append(line)
    for prov in sorted([p for p in void if p not in units]):
        # A variant may publish an order for a unit that is gone (A&E: a DP
        # order for a minor whose unit was disbanded), invalid.
        order, why = void[prov]
        lines_out.append(OrderLine(order, VOID, False, prov, None, Why(WhyKind.VOID, rule=why), True,
                                   written=published.get(prov)))
    return by_province


# What the line of a resolved order shows of the order its player wrote,
# by order class: a move's 'via convoy' as written, with a note where the
# judge took it otherwise.
AS_WRITTEN: dict[type[Order], Callable[[MapGraph, Any, Any], tuple[Order, ConvoyNote | None]]] = {
    Move: move_as_written,
}


def void_line(state: GameState, prov: str, order: Order, why: str, result: MovementResult,
              defaulted: bool) -> OrderLine:
    """The line of a unit whose order was void: it held (and may have been dislodged)."""
    if prov in result.dislodged:
        reason = why_of(order, result.reasons[prov], state, result, why)
    else:
        reason = Why(WhyKind.VOID, None, (), None, (), False, why)
    return OrderLine(order, VOID, False, prov, state.units[prov], reason, True, defaulted)


def move_units(result: MovementResult, after: GameState) -> dict[str, Unit]:
    """Lift every mover, then drop them, so swaps never collide; the
    dislodged units come off the board and are returned, by province."""
    movers = {origin: after.units.pop(origin) for origin in result.moved}
    dislodged_units = {prov: after.units.pop(prov) for prov in result.dislodged if prov in after.units}
    for origin, dest in result.moved.items():
        unit = movers[origin]
        after.units[province_of(dest)] = Unit(unit.power, unit.type, dest)
    return dislodged_units


def place_dislodged(variant: Variant, after: GameState, dislodged_units: dict[str, Unit],
                    result: MovementResult) -> None:
    """Each dislodged unit, with where it may retreat, in the next state."""
    occupied = set(after.units)
    for prov, unit in sorted(dislodged_units.items()):
        attacker = result.dislodged[prov]
        blocked = None if attacker in result.convoyed else attacker
        options = retreat_options(variant, after, unit, blocked, occupied, result.contested)
        after.dislodged[prov] = Dislodged(unit, attacker, tuple(options))


def disband_stranded(variant: Variant, after: GameState, notes: list[str]) -> None:
    """A dislodged unit with nowhere to retreat is disbanded, and the report says so."""
    for prov, d in sorted(after.dislodged.items()):
        if not d.retreats:
            del after.dislodged[prov]
            notes.append(f"{variant.power_name(d.unit.power)} {variant.map.unit_name(d.unit)} "
                         f"was dislodged with nowhere to retreat and is disbanded.")


def note_retreats(by_province: dict[str, OrderLine], dislodged_units: dict[str, Unit], after: GameState) -> None:
    """A dislodged unit's order line says where it may retreat, or that it was disbanded."""
    for prov in dislodged_units:
        reason = by_province[prov].why
        if reason is not None and reason.kind is WhyKind.DISLODGED:
            kept = after.dislodged.get(prov)
            by_province[prov].why = dataclasses.replace(
                reason, retreats=kept.retreats if kept else (), disbanded=kept is None)


def note_invalid_lines(variant: Variant, outcome: PhaseOutcome) -> None:
    """Lines the variant's rules published as invalid (A&E: a DP line that
    cannot be used) keep their error, so `check` tells the player, but they
    need not stop the turn: the rulebook publishes them invalid and goes on.
    The GM is told in `gm_notes`."""
    for error in outcome.errors:
        if error.published:
            who = variant.power_name(error.power) if error.power else "no power"
            outcome.gm_notes.append(f"line {error.line} ({who}): '{error.text}' could not be used "
                                    f"({error.message}); it was published (Invalid) and the turn went on.")
