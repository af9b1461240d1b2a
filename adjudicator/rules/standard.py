"""The standard rules, one function per hook. Variants reuse these and
replace only what they change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.hooks import PreResolved, RuleSet
from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.movement import MovementResult, standard_backup_rule
from adjudicator.diplomacy.orders import AnyOrder, Order, Waive
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.validation import (
    Void,
    bind_unit,
    settle_convoy_intent,
    validate_movement_order,
)
from adjudicator.errors import IllegalOrderError, OrderError

if TYPE_CHECKING:
    from adjudicator.diplomacy.lines import ParsedLine
    from adjudicator.diplomacy.variant import Variant


def is_allocation(line: ParsedLine) -> bool:
    """Standard orders are all a power's own: no line allocates."""
    return False


def is_adjacent(variant: Variant, state: GameState, unit: Unit, source: str, target: str, purpose: str) -> bool:
    return variant.map.is_adjacent(unit.type, source, target)


def bind_movement_orders(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PreResolved:
    """Each line's verdict: the order it gives, bound to its unit (the first
    order for a unit stands) and checked; Void (the unit holds, and the
    report says why); or the error that keeps it from ordering anything.
    Then which army moves go by convoy."""
    result = PreResolved(orders={})
    valid, void, written, errors = result.orders, result.void, result.written, result.errors
    seen: dict[str, int] = {}
    for line in lines:
        order = line.order
        if order is None:
            continue                # the parser could not read it: its error is on the line
        number = line.number
        elsewhere = OTHER_PHASES.get(type(order))
        if elsewhere is not None:
            errors[number] = IllegalOrderError(elsewhere, line=number)
            continue
        assert isinstance(order, Order)         # every order but a waive is for a unit
        unit = bind_unit(state, order)
        if isinstance(unit, OrderError):
            unit.line = number
            errors[number] = unit
            continue
        prov = order.province
        if prov in seen:
            errors[number] = IllegalOrderError(f"the unit in {prov} already has an order on line {seen[prov]}",
                                               line=number)
            continue
        seen[prov] = number
        written[prov] = order
        verdict = validate_movement_order(state, variant, order, unit)
        if isinstance(verdict, Void):
            void[prov] = (order, verdict.reason)
        else:
            valid[prov] = verdict
    settle_convoy_intent(state, variant, valid, void)
    return result


# The orders that name no unit, and why they have no place in a movement phase.
OTHER_PHASES: dict[type[AnyOrder], str] = {Waive: "waive is only for winter adjustments"}


def pre_resolve(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PreResolved:
    return bind_movement_orders(variant, state, lines)


def post_resolve(variant: Variant, state: GameState, orders: dict[str, Order],
                 result: MovementResult) -> dict[str, str]:
    return {}


def after_movement(variant: Variant, before: GameState, after: GameState, result: MovementResult) -> list[str]:
    return []


def after_ownership(variant: Variant, before: GameState, after: GameState, changes: dict[str, str]) -> list[str]:
    return []


def build_sites(variant: Variant, state: GameState, power: str) -> list[str]:
    """Owned, vacant home centres."""
    info = variant.powers.get(power)
    if info is None:
        return []
    return [c for c in info.home_centres if state.centres.get(c) == power and c not in state.units]


def after_adjustment(variant: Variant, before: GameState, after: GameState) -> list[str]:
    return []


def victory(variant: Variant, state: GameState) -> str | None:
    counts = {p: len(state.centres_of(p)) for p in variant.powers}
    winners = [p for p, n in counts.items() if n >= variant.victory_centres]
    return winners[0] if len(winners) == 1 else None


def playing_powers(variant: Variant, state: GameState) -> list[str]:
    return list(variant.powers)


def setup(variant: Variant, state: GameState) -> None:
    """Nothing beyond the powers' own units and centres."""


def survivors(variant: Variant, state: GameState) -> list[str]:
    """Every power with a unit or a supply centre left."""
    alive = {u.power for u in state.units.values()} | {d.unit.power for d in state.dislodged.values()} \
        | set(state.centres.values())
    return [power for power in variant.powers if power in alive]


STANDARD: RuleSet[Variant] = RuleSet(
    name="standard",
    is_adjacent=is_adjacent,
    backup_rule=standard_backup_rule,
    pre_resolve=pre_resolve,
    post_resolve=post_resolve,
    after_movement=after_movement,
    after_ownership=after_ownership,
    build_sites=build_sites,
    after_adjustment=after_adjustment,
    victory=victory,
    playing_powers=playing_powers,
    setup=setup,
    survivors=survivors,
    is_allocation=is_allocation,
)
