"""The retreat phase: each dislodged unit retreats to one of its options or
disbands. Two retreats to one province both fail; unordered units disband."""

from __future__ import annotations

from collections import Counter

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.orders import Disband, Retreat
from adjudicator.diplomacy.outcome import OrderLine, PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import collect_errors
from adjudicator.diplomacy.validation import bind_unit, normalise_retreat
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import IllegalOrderError, OrderError


def adjudicate_retreats(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    graph = variant.map
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
            options = state.dislodged[order.province].retreats
            dest = order.dest
            if unit.type.value == "F" and "/" not in dest:
                matches = [o for o in options if o.split("/")[0] == dest]
                dest = matches[0] if len(matches) == 1 else dest
            elif unit.type.value == "A":
                dest = dest.split("/")[0]
            if dest not in options:
                why = (f"cannot retreat to {graph.full_name(dest) if graph.has_location(dest) else dest}; "
                       + ("options: " + ", ".join(options) if options else "no retreat is possible"))
                void[order.province] = why
                chosen[order.province] = order
                continue
            order = Retreat(unit.power, unit.type, unit.location, dest)
        chosen[order.province] = order
    targets = Counter(o.dest.split("/")[0] for p, o in chosen.items() if isinstance(o, Retreat) and p not in void)
    outcome = PhaseOutcome(state.phase, state, state.copy(), errors=collect_errors(lines))
    after = outcome.next_state
    after.dislodged = {}
    for prov, dislodged in sorted(state.dislodged.items()):
        unit = dislodged.unit
        choice = chosen.get(prov)
        if choice is None:
            outcome.orders.append(OrderLine(unit.power, f"{unit} (no order)", "disbanded", kind="Disband", unit=str(unit),
                                            province=prov, defaulted=True))
            continue
        if prov in void:
            outcome.orders.append(OrderLine(unit.power, str(choice), "void, disbanded", void[prov],
                                            kind="Void", unit=str(unit), succeeded=False,
                                            province=prov, void=True))
            continue
        if isinstance(choice, Disband):
            outcome.orders.append(OrderLine(unit.power, str(choice), "disbanded", kind="Disband", unit=str(unit),
                                            province=prov))
            continue
        dest_prov = choice.dest.split("/")[0]
        if targets[dest_prov] > 1:
            outcome.orders.append(OrderLine(unit.power, str(choice), "bounced, disbanded",
                                            "another unit retreated there too", kind="Retreat",
                                            unit=str(unit), target=choice.dest, succeeded=False,
                                            province=prov))
            continue
        after.units[dest_prov] = Unit(unit.power, unit.type, choice.dest)
        outcome.orders.append(OrderLine(unit.power, str(choice), "retreated", kind="Retreat",
                                        unit=str(unit), target=choice.dest, province=prov))
    return outcome
