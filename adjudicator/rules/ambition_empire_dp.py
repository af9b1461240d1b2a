"""Ambition & Empire VI: Diplomacy Points (the pre_resolve hook).

A line `2 DP: A Swi S A Mar - Sav` allocates two of the writer's DPs to the
order for the minor unit. Each Spring and Fall a power is entitled to one DP
per centre it controls, at most three; over-allocating voids all of that
power's DPs for the turn. DPs to a minor the same power attacks (or supports
or convoys an attack on) are void. Per minor unit, identical orders pool their
DPs across powers; the order with strictly the most DPs is the unit's order,
published as written; an invalid winner holds and is published '(Invalid)'.
No winner (nothing allocated, or a tie for most) and the unit holds.

Secrecy: allocations and the tally go to gm_log; each power's own allocations
and their fate to private_notes[power]; only the winning order text is
published; notes say nothing about who allocated what."""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.hooks import PreResolved
from adjudicator.diplomacy.lines import LineTag
from adjudicator.diplomacy.model import province_of
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.errors import IllegalOrderError, OrderError
from adjudicator.rules.ambition_empire_common import (
    in_civil_disorder,
    is_christian,
    is_great_power,
    is_islamic,
    minor_name,
    religion_of,
    seed_minor_units,
)

if TYPE_CHECKING:
    from adjudicator.diplomacy.lines import ParsedLine
    from adjudicator.diplomacy.variant import Variant

DP_PREFIX = re.compile(r"^\s*(\d+)\s*d\.?\s*p\.?s?\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DiplomacyPoints(LineTag):
    """A line's Diplomacy Point prefix: how many DPs it allocates to the order after it."""

    amount: int

    def prefix(self) -> str:
        return f"{self.amount} DP: "


def dp_extension(text: str) -> tuple[str, DiplomacyPoints] | None:
    """Parser extension: '2 DP: A swi S A mar - sav' -> ('A swi S A mar - sav', DiplomacyPoints(2))."""
    match = DP_PREFIX.match(text)
    if match is None:
        return None
    return match.group(2), DiplomacyPoints(int(match.group(1)))


def is_allocation(line: ParsedLine) -> bool:
    """A DP line buys a minor power's unit its order: it orders no unit of the writer's own."""
    return isinstance(line.tag, DiplomacyPoints)


def written_order(line: ParsedLine) -> str:
    """The order as the player wrote it: no comment, no power prefix and no DP
    prefix, in whichever order they came ('1 DP: Turkey: A swi H' and
    'Turkey: 1 DP: A swi H' alike). An order itself never holds a colon, so
    everything up to the last one is prefix; this is the text that is
    published, and it must never name the power that wrote it."""
    text = line.text.split("#", 1)[0]
    return text.rsplit(":", 1)[-1].strip()


def entitlement(variant: Variant, state: GameState, power: str) -> int:
    cfg = variant.extra.get("diplomacy_points") or {}
    per = int(cfg.get("per_supply_centre", 1))
    cap = int(cfg.get("max_per_turn", 3))
    if state.phase.season not in tuple(cfg.get("seasons", ("spring", "fall"))):
        return 0
    return min(cap, per * len(state.centres_of(power)))


def order_key(order: Order) -> tuple[object, ...]:
    """Identical orders, whoever wrote them and whether or not they named unit types."""
    fields = {f.name: getattr(order, f.name) for f in dataclasses.fields(order)
              if f.name not in ("power", "unit_type", "target_type")}
    fields["location"] = order.province
    return (type(order).__name__, *sorted(fields.items()))


class Standing(Enum):
    """Where an allocation stands: not yet tallied, won, lost, or void."""

    PENDING = "pending"
    WON = "won"
    LOST = "lost"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class Status:
    """An allocation's standing and, if it is void, the rule that voided it."""

    standing: Standing
    why: str = ""

    def __str__(self) -> str:
        """As the GM's log and the power's private report give it: 'won', 'void: why'."""
        return f"void: {self.why}" if self.standing is Standing.VOID else self.standing.value


PENDING, WON, LOST = Status(Standing.PENDING), Status(Standing.WON), Status(Standing.LOST)


@dataclass
class Allocation:
    line: ParsedLine
    power: str
    dp: int
    order: Order
    minor_prov: str
    status: Status = PENDING


def religion_breach(variant: Variant, state: GameState, minor: str, order: Order) -> str | None:
    """Why this minor order breaks the religion rule, or None."""
    papal = str((variant.extra.get("papal_army") or {}).get("minor", "pap"))

    def faith_at(prov: str) -> str | None:
        unit = state.units.get(prov)
        return religion_of(variant, state, unit.power) if unit else None

    if minor == papal:
        papal_rule = PAPAL_RULES.get(type(order))
        if papal_rule is None:
            return "the Papal army may only hold, sortie or support a Catholic unit"
        return papal_rule(order, faith_at)
    rule = RELIGION_RULES.get(type(order))
    return rule(religion_of(variant, state, minor), order, faith_at) if rule is not None else None


Faith = Callable[[str], "str | None"]      # the religion of the unit in a province, if any


def papal_hold(order: Hold, faith_at: Faith) -> str | None:
    return None


def papal_sortie(order: Move, faith_at: Faith) -> str | None:
    if order.via_convoy:
        return "the Papal army may only sortie to an adjacent space, never by convoy"
    if faith_at(order.dest_province) != "catholic":
        return None
    return "the Papal army may only sortie into an empty space or one held by a non-Catholic unit"


def papal_support(order: SupportHold | SupportMove, faith_at: Faith) -> str | None:
    if faith_at(province_of(order.helps())) == "catholic":
        return None
    return "the Papal army may only support a Catholic unit"


def minor_support_move(religion: str | None, order: SupportMove, faith_at: Faith) -> str | None:
    """A minor power of one faith may not support an attack by the other on its own faith's unit."""
    attacker = faith_at(order.origin)
    defender = faith_at(order.dest_province)
    if is_islamic(religion) and is_christian(attacker) and is_islamic(defender):
        return "an Islamic minor may not support a Christian attack on a space an Islamic unit holds"
    if is_christian(religion) and is_islamic(attacker) and is_christian(defender):
        return "a Christian minor may not support an Islamic attack on a space a Christian unit holds"
    return None


# The orders the Papal army may take, each with its own limit; any other
# order breaks the rule. Then the religion rule of every other minor, by order class.
PAPAL_RULES: dict[type[AnyOrder], Callable[[Any, Faith], str | None]] = {
    Hold: papal_hold,
    Move: papal_sortie,
    SupportHold: papal_support,
    SupportMove: papal_support,
}
RELIGION_RULES: dict[type[AnyOrder], Callable[[str | None, Any, Faith], str | None]] = {
    SupportMove: minor_support_move,
}


def pre_resolve(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PreResolved:
    """The Great Powers' own orders, bound and validated as in the standard
    rules; then the DP allocations, their limits, and per minor unit the
    order that won the most DPs."""
    from adjudicator.diplomacy.validation import settle_convoy_intent
    from adjudicator.rules.standard import bind_movement_orders
    seed_minor_units(variant, state)
    dp_lines = [l for l in lines if is_allocation(l)]
    refused = refuse_minor_orders(variant, state, [l for l in lines if not is_allocation(l)])
    result = bind_movement_orders(variant, state, [l for l in lines if not is_allocation(l) and l.number not in refused])
    result.errors.update(refused)
    allocations, unusable = read_allocations(variant, state, dp_lines, result)
    void_overspending(variant, state, allocations, result.gm_log)
    void_attacking_powers(allocations, result)
    tally(variant, state, allocations, result)
    publish_unusable(variant, state, unusable, result)
    settle_convoy_intent(state, variant, result.orders, result.void)
    name_closed_straits(variant, state, lines, result)
    tell_powers(state, allocations, unusable, result.private_notes)
    return result


def refuse_minor_orders(variant: Variant, state: GameState, plain: list[ParsedLine]) -> dict[int, OrderError]:
    """Great Powers order minor units only through DPs: a plain order for
    one is an error on its line. The errors, by line number."""
    refused: dict[int, OrderError] = {}
    for line in plain:
        order = line.order
        if order is not None:
            unit = state.units.get(order.province)
            if unit is not None and not is_great_power(variant, unit.power) and line.power != unit.power:
                refused[line.number] = IllegalOrderError(
                    f"the unit in {order.province} belongs to the minor power "
                    f"{minor_name(variant, state, unit.power)}", line=line.number,
                    hint=f"allocate Diplomacy Points instead, e.g. '1 DP: {line.text.split(':')[-1].strip()}'")
    return refused


def read_allocations(variant: Variant, state: GameState, dp_lines: list[ParsedLine],
                     result: PreResolved) -> tuple[list[Allocation], list[Allocation]]:
    """The DP lines that allocate to a minor unit, and the Great Powers'
    lines that cannot be used (void, published invalid). A line that
    allocates nothing gets its error in `result.errors`."""
    allocations: list[Allocation] = []
    unusable: list[Allocation] = []
    gone = set(in_civil_disorder(state))
    for line in dp_lines:
        order = line.order
        if order is None:
            continue                # the parser could not read it: its error is on the line
        if line.power in gone:
            # It gives no orders and allocates nothing; not published either.
            result.errors[line.number] = IllegalOrderError(
                f"{variant.power_name(line.power)} is in civil disorder: it allocates no Diplomacy Points",
                line=line.number)
            continue
        allocation = read_allocation(variant, state, line, order)
        if isinstance(allocation, Allocation):
            allocations.append(allocation)
            continue
        allocation.line = line.number
        result.errors[line.number] = allocation
        # The line keeps its error, so `check` tells the player; but the
        # rulebook publishes an unusable order invalid and goes on, so it
        # need not stop the turn (turn.py tells the GM).
        if isinstance(order, Order) and line.power is not None and is_great_power(variant, line.power):
            result.published_invalid.add(line.number)
            unusable.append(Allocation(line, line.power, dp_of(line), order, order.province,
                                       Status(Standing.VOID, allocation.message)))
    return allocations, unusable


def dp_of(line: ParsedLine) -> int:
    """The DPs a line allocates."""
    return line.tag.amount if isinstance(line.tag, DiplomacyPoints) else 0


def read_allocation(variant: Variant, state: GameState, line: ParsedLine, order: AnyOrder) -> Allocation | IllegalOrderError:
    """One DP line's allocation, or the error that makes it unusable."""
    from adjudicator.diplomacy.validation import is_movement_order
    if not is_movement_order(order):
        return IllegalOrderError("DPs buy a minor unit's hold, move, support or convoy")
    if line.power is None or not is_great_power(variant, line.power):
        return IllegalOrderError("only a Great Power allocates DPs")
    dp = dp_of(line)
    if dp < 1:
        return IllegalOrderError("allocate at least one DP")
    unit = state.units.get(order.province)
    if unit is None:
        return IllegalOrderError(f"there is no unit in {order.province}")
    if is_great_power(variant, unit.power):
        return IllegalOrderError(f"the unit in {order.province} is not a minor power's",
                                 hint="DPs are for minor powers' units")
    return Allocation(line, line.power, dp, order, order.province)


def void_overspending(variant: Variant, state: GameState, allocations: list[Allocation], gm: list[str]) -> None:
    """A power that allocates more DPs than it is due loses all of them this turn."""
    spent: dict[str, int] = defaultdict(int)
    for a in allocations:
        spent[a.power] += a.dp
    for power, total in sorted(spent.items()):
        allowed = entitlement(variant, state, power)
        gm.append(f"DP: {variant.powers[power].name} allocates {total} of {allowed}")
        if total > allowed:
            for a in allocations:
                if a.power == power:
                    a.status = Status(Standing.VOID,
                                      f"{total} DPs allocated, only {allowed} due; all this turn's DPs are lost")


def void_attacking_powers(allocations: list[Allocation], result: PreResolved) -> None:
    """No DPs to a minor this power attacks, or supports or convoys an attack on."""
    own_orders: dict[str, list[Order]] = defaultdict(list)
    for order in list(result.orders.values()) + [o for o, _ in result.void.values()]:
        own_orders[order.power].append(order)
    for a in allocations:
        if a.status is not PENDING:
            continue
        if any(o.attacks() == a.minor_prov for o in own_orders.get(a.power, [])):
            a.status = Status(Standing.VOID,
                              "this power attacks (or supports or convoys an attack on) that minor power this turn")


def tally(variant: Variant, state: GameState, allocations: list[Allocation], result: PreResolved) -> None:
    """Per minor unit, pool identical orders' DPs; the order with strictly
    the most is the unit's order (published as written, void if invalid)."""
    gm = result.gm_log
    by_unit: dict[str, list[Allocation]] = defaultdict(list)
    for a in allocations:
        gm.append(f"DP: {variant.powers[a.power].name}: {a.dp} DP to {state.units[a.minor_prov]}: "
                  f"'{written_order(a.line)}'" + ("" if a.status is PENDING else f" ({a.status})"))
        by_unit[a.minor_prov].append(a)
    for prov, allocs in sorted(by_unit.items()):
        winner = pool_winner(state, prov, allocs, gm)
        if winner is not None:
            award(variant, state, prov, winner, result)


def pool_winner(state: GameState, prov: str, allocs: list[Allocation], gm: list[str]) -> Allocation | None:
    """Mark each pending allocation to this unit won or lost; the first
    allocation of the winning pool, or None if nothing won (no valid DPs, or a tie)."""
    unit = state.units[prov]
    pools: dict[tuple[object, ...], list[Allocation]] = defaultdict(list)
    for a in allocs:
        if a.status is PENDING:
            pools[order_key(a.order)].append(a)
    totals = sorted(((sum(a.dp for a in pool), key) for key, pool in pools.items()),
                    key=lambda t: -t[0])
    gm.append(f"DP tally for {unit}: " + ("; ".join(
        f"'{written_order(pools[k][0].line)}' {n}" for n, k in totals) or "nothing valid"))
    winner = totals[0][1] if totals and (len(totals) == 1 or totals[0][0] > totals[1][0]) else None
    for key, pool in pools.items():
        for a in pool:
            a.status = WON if key == winner else LOST
    if winner is None:
        if totals:
            gm.append(f"DP: {unit} tied; it holds")
        return None
    return pools[winner][0]


def award(variant: Variant, state: GameState, prov: str, first: Allocation, result: PreResolved) -> None:
    """The winning order becomes the minor unit's, validated as its own
    order and against the religion rule; an invalid one is void and the unit holds."""
    from adjudicator.diplomacy.validation import Void, validate_movement_order
    unit = state.units[prov]
    text = written_order(first.line)
    order = dataclasses.replace(first.order, power=unit.power)
    result.gm_log.append(f"DP: {unit} is ordered '{text}'")
    result.published[prov] = text          # the report adds '(Invalid)' to every void order
    if order.unit_type is not None and order.unit_type is not unit.type:
        result.void[prov] = (order, f"the unit in {prov} is not of the type written")
        return
    checked = validate_movement_order(state, variant, order, unit)
    if isinstance(checked, Void):
        result.void[prov] = (order, checked.message)
        return
    order = checked
    breach = religion_breach(variant, state, unit.power, order)
    if breach is not None:
        result.void[prov] = (order, breach)
        return
    result.orders[prov] = order


def tell_powers(state: GameState, allocations: list[Allocation], unusable: list[Allocation],
                private: dict[str, list[str]]) -> None:
    """Each power learns the fate of its own allocations, and nobody else's."""
    for a in allocations:
        private.setdefault(a.power, []).append(
            f"{a.dp} DP to {state.units[a.minor_prov]}: '{written_order(a.line)}': {a.status}")
    for a in unusable:
        private.setdefault(a.power, []).append(
            f"{a.dp} DP to {unit_text(a.order)}: '{written_order(a.line)}': {a.status}")


# The province each order class crosses into (a move) or reaches across to
# (a support), for the straits.
CROSSINGS: dict[type[AnyOrder], Callable[[Any], str]] = {
    Move: lambda move: move.dest_province,
    SupportHold: lambda support: province_of(support.target),
    SupportMove: lambda support: support.dest_province,
}


def name_closed_straits(variant: Variant, state: GameState, lines: list[ParsedLine], result: PreResolved) -> None:
    """An order across a closed strait says so. A void one gets the strait as
    its reason; an army move the player wrote plainly, which only a convoy
    could now make and no fleet convoys, is void for the same reason (it is
    not published as a convoy the player never asked for)."""
    from adjudicator.rules.ambition_empire_map import closed_strait_reason
    asked_convoy = {l.order.province for l in lines
                    if l.number not in result.errors and isinstance(l.order, Move) and l.order.via_convoy}
    convoyed = {(o.origin, province_of(o.dest)) for o in result.orders.values() if isinstance(o, Convoy)}
    for prov, (order, _) in list(result.void.items()):
        unit, crossing = state.units.get(prov), CROSSINGS.get(type(order))
        if unit is not None and crossing is not None:
            reason = closed_strait_reason(state, variant, unit, unit.province, crossing(order))
            if reason is not None:
                result.void[prov] = (order, reason)
    for prov, order in list(result.orders.items()):
        if not isinstance(order, Move) or not order.via_convoy or prov in asked_convoy:
            continue
        if (prov, order.dest_province) in convoyed:
            continue
        reason = closed_strait_reason(state, variant, state.units[prov], prov, order.dest_province)
        if reason is not None:
            del result.orders[prov]
            result.void[prov] = (dataclasses.replace(order, via_convoy=False), reason)


def unit_text(order: Order) -> str:
    return f"{order.unit_type.value} {order.location}" if order.unit_type is not None else order.location


def publish_unusable(variant: Variant, state: GameState, unusable: list[Allocation], result: PreResolved) -> None:
    """DP lines that could not be used are void. Those for a minor power
    whose unit is gone are tallied like any others, and the order with the
    most DPs is published as written, invalid, under that minor's name (so
    nobody learns who wrote it)."""
    gm = result.gm_log
    by_prov: dict[str, list[Allocation]] = defaultdict(list)
    for a in unusable:
        gm.append(f"DP: {variant.powers[a.power].name}: {a.dp} DP to {unit_text(a.order)}: "
                  f"'{written_order(a.line)}' ({a.status})")
        owner = state.centres.get(a.minor_prov)
        if a.minor_prov not in state.units and owner is not None and not is_great_power(variant, owner):
            by_prov[a.minor_prov].append(a)
    for prov, allocs in sorted(by_prov.items()):
        pools: dict[tuple[object, ...], list[Allocation]] = defaultdict(list)
        for a in allocs:
            pools[order_key(a.order)].append(a)
        totals = sorted(((sum(a.dp for a in pool), key) for key, pool in pools.items()), key=lambda t: -t[0])
        if len(totals) > 1 and totals[0][0] == totals[1][0]:
            continue
        first = pools[totals[0][1]][0]
        owner = state.centres[prov]
        result.void[prov] = (dataclasses.replace(first.order, power=owner), first.status.why)
        result.published[prov] = written_order(first.line)
