"""The retreat phase: each dislodged unit retreats to one of its options or
disbands. Two retreats to one place both fail; unordered units disband.
The retreat's own rules are in adjudicator.diplomacy.order_types.retreat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Reason, Unit
from adjudicator.diplomacy.order_types.binding import bind_unit
from adjudicator.diplomacy.order_types.retreat import (
    normalise_retreat,
    retreat_rivals,
    validate_retreat,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import AnyOrder, Disband, Order, Retreat
from adjudicator.diplomacy.outcome import (
    Opponent,
    OrderLine,
    PhaseOutcome,
    Why,
    WhyKind,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import collect_errors
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import IllegalOrderError, OrderError


def adjudicate_retreats(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    """Bind and check the retreats and disbands, then give every dislodged unit its line."""
    chosen, void, errors = choose_retreats(variant, state, lines)
    rivals = retreat_rivals(state, {p: o for p, o in chosen.items() if p not in void})
    outcome = PhaseOutcome(state.phase, state, state.copy(), errors=collect_errors(lines, errors))
    after = outcome.next_state
    after.dislodged = {}
    for prov, dislodged in sorted(state.dislodged.items()):
        unit = dislodged.unit
        choice = chosen.get(prov)
        if choice is None:
            line = OrderLine(Disband(unit.power, unit.type, unit.location), Reason.DISBANDED, True, prov, unit,
                             defaulted=True)
        elif prov in void:
            line = OrderLine(choice, Reason.VOID, False, prov, unit, Why(WhyKind.VOID, rule=void[prov]), True,
                             disbanded=True)
        else:
            line = CARRY_OUT[type(choice)](after, unit, choice, rivals.get(prov, ()))
        outcome.orders.append(line)
    return outcome


def choose_retreats(variant: Variant, state: GameState, lines: list[ParsedLine]
                    ) -> tuple[dict[str, Order], dict[str, str], dict[int, OrderError]]:
    """Each dislodged unit's order, by province; the void ones' reasons; and,
    by line number, the error of each line that orders nothing (no such
    unit, a second order, an order of the wrong kind)."""
    chosen: dict[str, Order] = {}
    void: dict[str, str] = {}
    errors: dict[int, OrderError] = {}
    for line in lines:
        if line.order is None:
            continue                # the parser could not read it: its error is on the line
        order = normalise_retreat(line.order)
        verdict = retreat_verdict(variant, state, order, chosen)
        if isinstance(verdict, OrderError):
            verdict.line = line.number
            errors[line.number] = verdict
            continue
        assert isinstance(order, Order)      # only a retreat or a disband gets this far
        if isinstance(verdict, Void):
            void[order.province] = verdict.message
            chosen[order.province] = order
        else:
            chosen[verdict.province] = verdict
    return chosen, void, errors


def retreat_verdict(variant: Variant, state: GameState, order: AnyOrder,
                    chosen: dict[str, Order]) -> Order | Void | OrderError:
    """One line's verdict in a retreat phase: a dislodged unit's retreat or
    disband, bound to it and checked."""
    check = CHECKS.get(type(order))
    if check is None:
        return IllegalOrderError("only retreats and disbands are allowed in a retreat phase")
    assert isinstance(order, Order)          # both retreat-phase orders are for a unit
    unit = bind_unit(state, order, dislodged=True)
    if isinstance(unit, OrderError):
        return unit
    if order.province in chosen:
        return IllegalOrderError(f"the unit in {order.province} already has an order")
    checked: Order | Void = check(state, variant.map, order, unit)
    return checked


def keep_disband(state: GameState, graph: MapGraph, order: Disband, unit: Unit) -> Disband:
    """A dislodged unit may always disband."""
    return order


def retreat_line(after: GameState, unit: Unit, retreat: Retreat, rivals: tuple[Unit, ...]) -> OrderLine:
    """A valid retreat's line; one that no other unit retreats beside puts
    the unit in its new place, and one that others do is disbanded."""
    prov = unit.province
    if rivals:
        return OrderLine(retreat, Reason.BOUNCED, False, prov, unit,
                         Why(WhyKind.BOUNCED, opponents=tuple(Opponent(rival) for rival in rivals)), disbanded=True)
    after.units[retreat.dest_province] = Unit(unit.power, unit.type, retreat.dest)
    return OrderLine(retreat, Reason.RETREATED, True, prov, unit)


def disband_line(after: GameState, unit: Unit, disband: Disband, rivals: tuple[Unit, ...]) -> OrderLine:
    return OrderLine(disband, Reason.DISBANDED, True, unit.province, unit)


# Each retreat-phase order class: its check (bound unit -> the order in
# canonical form, or Void), and what it does once every order is known.
CHECKS: dict[type[AnyOrder], Callable[[GameState, MapGraph, Any, Unit], Retreat | Disband | Void]] = {
    Retreat: validate_retreat,
    Disband: keep_disband,
}
CARRY_OUT: dict[type[AnyOrder], Callable[[GameState, Unit, Any, tuple[Unit, ...]], OrderLine]] = {
    Retreat: retreat_line,
    Disband: disband_line,
}
