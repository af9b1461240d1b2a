"""One phase of a Diplomacy game, as a recipe:

  movement:   bind + validate (variant pre-step) -> resolve -> variant post-step,
              iterated to a fixed point -> move units (lift all, then drop) ->
              dislodged units with retreat options -> variant after-movement
  retreat:    retreats; two to one place both fail; unordered units disband
  adjustment: builds, disbands, waives; civil-disorder defaults
then the next phase, skipping phases with nothing to do (after Fall, centres
change hands first and victory is checked)."""

from __future__ import annotations

from adjudicator.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    OrderError,
    OrderSyntaxError,
)
from adjudicator.model import Reason, Unit
from adjudicator.movement import MovementResult, resolve_movement
from adjudicator.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from adjudicator.outcome import DislodgedLine, ErrorLine, OrderLine, PhaseOutcome
from adjudicator.parser import OrderParser, ParsedLine
from adjudicator.rules import rules_for
from adjudicator.rules.hooks import RuleSet
from adjudicator.state import Dislodged, GameState
from adjudicator.validation import ignored_convoy_note
from adjudicator.variant import Variant


def error_kind(exc: OrderError) -> str:
    if isinstance(exc, AmbiguousOrderError):
        return "ambiguous"
    if isinstance(exc, IllegalOrderError):
        return "cannot do"
    if isinstance(exc, OrderSyntaxError):
        return "cannot read"
    return "error"


def parser_for(variant: Variant) -> OrderParser:
    return OrderParser(variant, list(rules_for(variant).parser_extensions))


def collect_errors(lines: list[ParsedLine]) -> list[ErrorLine]:
    return [ErrorLine(l.power, l.number, l.text, str(l.error.message) + (f" ({l.error.hint})" if l.error.hint else ""),
                      error_kind(l.error)) for l in lines if l.error is not None]


# --- movement ---------------------------------------------------------------------
def resolve_with_post_steps(variant: Variant, rules: RuleSet, state: GameState, orders: dict[str, Order],
                            void: dict[str, tuple[Order, str]]) -> MovementResult:
    """Resolve, let the variant void orders, resolve again, until nothing changes."""
    while True:
        active = {p: o for p, o in orders.items() if p not in void}
        result = resolve_movement(state.units, active, variant.map.seas_touching,
                                  rules.backup_rule)
        newly_void = {p: why for p, why in rules.post_resolve(variant, state, active, result).items()
                      if p not in void}
        if not newly_void:
            return result
        for prov, why in newly_void.items():
            void[prov] = (orders[prov], why)


def describe_result(order: Order, reason: Reason) -> str:
    return {Reason.MOVED: "moved", Reason.BOUNCED: "bounced", Reason.NO_CONVOY: "no convoy",
            Reason.CUT: "cut", Reason.NOT_MATCHED: "void: supported unit did not do that",
            Reason.DISLODGED: "dislodged", Reason.SUPPORTED: "", Reason.CONVOYED: "",
            Reason.HELD: ""}.get(reason, reason.value)


def order_line(order: Order, state: GameState, result: MovementResult, published: str | None) -> OrderLine:
    prov = order.province
    reason = result.reasons.get(prov, Reason.HELD)
    line = OrderLine(order.power, published or str(order), describe_result(order, reason),
                     kind=type(order).__name__, unit=f"{order.unit_type.value if order.unit_type else '?'} {order.location}",
                     succeeded=result.succeeded.get(prov, True), province=prov)
    if isinstance(order, Move):
        line.target = order.dest
    elif isinstance(order, SupportHold):
        line.target = order.target
    elif isinstance(order, (SupportMove, Convoy)):
        line.origin, line.target = order.origin, order.dest
    if prov in result.dislodged and reason is not Reason.DISLODGED:
        line.result = (line.result + ", dislodged").lstrip(", ")
    return line


def retreat_options(variant: Variant, rules: RuleSet, state: GameState, unit: Unit, attacker_from: str | None,
                    occupied: set[str], contested: set[str]) -> list[str]:
    """Empty, uncontested neighbours, never the attacker's origin (unless the
    attacker came by convoy, DATC 6.H.11), never by convoy. A fleet's
    candidates come from every coast of its province and the adjacency hook
    decides, so a variant that joins two coasts (A&E's Smyrna) needs no hook
    of its own here."""
    graph = variant.map
    if unit.type.value == "A":
        candidates = set(graph.army_adjacent.get(unit.province, frozenset()))
    else:
        candidates = {loc for own in graph.fleet_locations(unit.province)
                      for loc in graph.fleet_adjacent.get(own, frozenset())}
    options = []
    for loc in sorted(candidates):
        prov = loc.split("/")[0]
        if prov == attacker_from or prov in occupied or prov in contested:
            continue
        if rules.is_adjacent(state, graph, unit, unit.location, loc, "retreat"):
            options.append(loc)
    return options


def adjudicate_movement(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    rules = rules_for(variant)
    pre = rules.pre_resolve(variant, state, lines)
    orders = dict(pre.orders)
    void = dict(pre.void)
    for prov, unit in state.units.items():          # unordered units hold
        if prov not in orders and prov not in void:
            orders[prov] = Hold(unit.power, unit.type, unit.location)
    result = resolve_with_post_steps(variant, rules, state, orders, void)
    # Each unit's own power's move as written, to note a 'via convoy' that was ignored.
    written = {l.order.province: l.order for l in lines
               if l.error is None and isinstance(l.order, Move) and l.order.via_convoy
               and l.order.province in state.units and state.units[l.order.province].power == l.order.power}
    outcome = PhaseOutcome(state.phase, state, state.copy(), errors=collect_errors(lines),
                           notes=list(pre.notes), private={k: list(v) for k, v in pre.private_notes.items()},
                           gm_log=list(pre.gm_log))
    for prov in sorted(state.units):
        if prov in void:
            order, why = void[prov]
            text = pre.published.get(prov, str(order))
            line = OrderLine(order.power, text, "void", why, kind="Void", unit=str(state.units[prov]),
                             succeeded=False, province=prov, void=True)
            if prov in result.dislodged:
                line.result = "void, dislodged"
            outcome.orders.append(line)
        else:
            line = order_line(orders[prov], state, result, pre.published.get(prov))
            settled, asked = orders[prov], written.get(prov)
            if isinstance(settled, Move) and asked is not None:
                line.detail = ignored_convoy_note(variant.map, asked, settled) or line.detail
            outcome.orders.append(line)
    # Move the units: lift every mover, then drop them, so swaps never collide.
    after = outcome.next_state
    movers = {origin: after.units.pop(origin) for origin in result.moved}
    dislodged_units = {prov: after.units.pop(prov) for prov in result.dislodged if prov in after.units}
    for origin, dest in result.moved.items():
        unit = movers[origin]
        after.units[dest.split("/")[0]] = Unit(unit.power, unit.type, dest)
    occupied = set(after.units)
    for prov, unit in sorted(dislodged_units.items()):
        attacker = result.dislodged[prov]
        blocked = None if attacker in result.convoyed else attacker
        options = retreat_options(variant, rules, after, unit, blocked, occupied, result.contested)
        if options:
            after.dislodged[prov] = Dislodged(unit, attacker, tuple(options))
        else:
            outcome.notes.append(f"{variant.power_name(unit.power)} {variant.map.unit_name(unit)} "
                                 f"was dislodged with nowhere to retreat and is disbanded.")
    outcome.notes += rules.after_movement(variant, state, after, result)
    outcome.dislodged = [DislodgedLine(d.unit, d.attacker_from, list(d.retreats))
                         for _, d in sorted(after.dislodged.items())]
    return outcome
