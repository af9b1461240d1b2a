"""The retreat phase: each dislodged unit retreats to one of its options or
disbands. Two retreats to one province both fail; unordered units disband.
The retreat's own rules are in adjudicator.diplomacy.order_types.retreat."""

from __future__ import annotations

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.order_types.binding import bind_unit
from adjudicator.diplomacy.order_types.retreat import (
    normalise_retreat,
    retreat_succeeds,
    retreat_targets,
    validate_retreat,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import Disband, Retreat
from adjudicator.diplomacy.outcome import OrderLine, PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import collect_errors
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import IllegalOrderError, OrderError


def adjudicate_retreats(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    """Bind and check the retreats and disbands, then give every dislodged unit its line."""
    chosen, void = choose_retreats(variant, state, lines)
    targets = retreat_targets([o for p, o in chosen.items() if isinstance(o, Retreat) and p not in void])
    outcome = PhaseOutcome(state.phase, state, state.copy(), errors=collect_errors(lines))
    after = outcome.next_state
    after.dislodged = {}
    for prov, dislodged in sorted(state.dislodged.items()):
        unit = dislodged.unit
        choice = chosen.get(prov)
        if choice is None:
            outcome.orders.append(OrderLine(unit.power, f"{unit} (no order)", "disbanded", kind="Disband", unit=str(unit),
                                            province=prov, defaulted=True))
        elif prov in void:
            outcome.orders.append(OrderLine(unit.power, str(choice), "void, disbanded", void[prov],
                                            kind="Void", unit=str(unit), succeeded=False,
                                            province=prov, void=True))
        elif isinstance(choice, Disband):
            outcome.orders.append(OrderLine(unit.power, str(choice), "disbanded", kind="Disband", unit=str(unit),
                                            province=prov))
        else:
            outcome.orders.append(retreat_line(after, unit, prov, choice, retreat_succeeds(choice, targets)))
    return outcome


def choose_retreats(variant: Variant, state: GameState,
                    lines: list[ParsedLine]) -> tuple[dict[str, Retreat | Disband], dict[str, str]]:
    """Each dislodged unit's order, by province, and the void ones' reasons.
    A line that orders nothing (no such unit, a second order, an order of
    the wrong kind) keeps its error instead."""
    chosen: dict[str, Retreat | Disband] = {}
    void: dict[str, str] = {}
    for line in lines:
        if line.order is None or line.error is not None:
            continue
        order = normalise_retreat(line.order)
        try:
            if not isinstance(order, (Retreat, Disband)):
                raise IllegalOrderError("only retreats and disbands are allowed in a retreat phase")
            unit = bind_unit(state, order, dislodged=True)
            if order.province in chosen:
                raise IllegalOrderError(f"the unit in {order.province} already has an order")
        except OrderError as exc:
            exc.line = line.number
            line.error = exc
            continue
        if isinstance(order, Retreat):
            checked = validate_retreat(state, variant.map, order, unit)
            if isinstance(checked, Void):
                void[order.province] = checked.message
            else:
                order = checked
        chosen[order.province] = order
    return chosen, void


def retreat_line(after: GameState, unit: Unit, prov: str, retreat: Retreat, succeeds: bool) -> OrderLine:
    """A valid retreat's line; one that succeeds puts the unit in its new place."""
    if not succeeds:
        return OrderLine(unit.power, str(retreat), "bounced, disbanded", "another unit retreated there too",
                         kind="Retreat", unit=str(unit), target=retreat.dest, succeeded=False, province=prov)
    after.units[retreat.dest_province] = Unit(unit.power, unit.type, retreat.dest)
    return OrderLine(unit.power, str(retreat), "retreated", kind="Retreat",
                     unit=str(unit), target=retreat.dest, province=prov)
