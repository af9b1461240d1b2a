"""Support, of a hold ('A mun S A ber') or of a move ('A mun S A ber -
sil'). A support counts only for the order it names; it is cut by an attack
from anywhere but the province it supports against, and by no attack of its
own power's units."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import (
    ARMY,
    CUT,
    NOT_MATCHED,
    Reason,
    Unit,
    UnitType,
)
from adjudicator.diplomacy.order_types.board import (
    Board,
    Decided,
    is_dislodged,
)
from adjudicator.diplomacy.order_types.convoy import has_path
from adjudicator.diplomacy.order_types.reading import (
    HOLD_WORDS,
    MOVE_WORDS,
    Reader,
    Tokens,
)
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import Order, SupportHold, SupportMove
from adjudicator.errors import OrderSyntaxError

if TYPE_CHECKING:
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


# --- parsing ------------------------------------------------------------------------
def read_support(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None,
                 location: str) -> SupportHold | SupportMove:
    """After 'S': the supported unit, then nothing (or 'H') for a hold, or '- dest' for a move."""
    target_type = reader.read_unit_type(tokens)
    target = reader.read_location(tokens)
    nxt = tokens.peek()
    if nxt is None or nxt in HOLD_WORDS:
        if nxt:
            tokens.take()
        return SupportHold(power, unit_type, location, target_type, target)
    if nxt not in MOVE_WORDS:
        raise OrderSyntaxError(f"'{nxt}': expected '-' and a destination, or nothing, after the supported unit")
    tokens.take()
    tokens.skip_to_after_verb()
    return SupportMove(power, unit_type, location, target_type, target, reader.read_location(tokens))


# --- validation ---------------------------------------------------------------------
def can_reach_province(state: GameState, variant: Variant, unit: Unit, province: str) -> bool:
    """For supports: could the unit move to some part of the province?"""
    is_adjacent = variant.rules.is_adjacent
    if unit.type is ARMY:
        return is_adjacent(variant, state, unit, unit.location, province, "support")
    # A loop, not any() over a generator: a fleet's support is checked every phase.
    for loc in variant.map.fleet_spots[province]:
        if is_adjacent(variant, state, unit, unit.location, loc, "support"):
            return True
    return False


def validate_support_hold(state: GameState, variant: Variant, order: SupportHold, unit: Unit,
                          exact: bool) -> SupportHold | Void:
    """Another unit that stands where this one could move."""
    graph = variant.map
    here = order.province
    target = graph.province_of(order.target)
    if target == here:
        return Void("a unit cannot support itself")
    if target not in state.units:
        return Void(f"there is no unit in {graph.full_name(target)} to support")
    if not can_reach_province(state, variant, unit, target):
        return Void(f"{graph.full_name(unit.location)} cannot support into {graph.full_name(target)}")
    if exact and order.target == target:
        return order
    return SupportHold(unit.power, unit.type, unit.location, order.target_type, target)


def validate_support_move(state: GameState, variant: Variant, order: SupportMove, unit: Unit,
                          exact: bool) -> SupportMove | Void:
    """Another unit's move into a province this one could move to, not its own."""
    graph = variant.map
    here = order.province
    origin = graph.province_of(order.origin)
    dest = order.dest_province
    if origin == here:
        return Void("a unit cannot support its own move")
    if dest == here:
        return Void("a unit cannot support a move into its own province")
    if origin not in state.units:
        return Void(f"there is no unit in {graph.full_name(origin)} to support")
    if origin == dest:
        return Void("the supported move goes nowhere")
    if not can_reach_province(state, variant, unit, dest):
        return Void(f"{graph.full_name(unit.location)} cannot support into {graph.full_name(dest)}")
    if exact and order.origin == origin:
        return order
    return SupportMove(unit.power, unit.type, unit.location, order.target_type, origin, order.dest)


# --- adjudication -------------------------------------------------------------------
def index_support_hold(board: Board, prov: str, order: SupportHold) -> None:
    board.hold_supports[order.target].append(prov)
    board.supports.append(prov)


def index_support_move(board: Board, prov: str, order: SupportMove) -> None:
    board.move_supports[(order.origin, order.dest_province)].append(prov)
    board.supports.append(prov)


def support_move_matches(board: Board, order: SupportMove) -> bool:
    """Was the supported unit ordered to move where the support says? A
    support that names a coast only helps a move to that coast (DATC 6.B.9)."""
    supported = board.moves.get(order.origin)
    if supported is None or supported.dest_province != order.dest_province:
        return False
    return "/" not in order.dest or "/" not in supported.dest or order.dest == supported.dest


def support_hold_matches(board: Board, order: SupportHold) -> bool:
    """A support of a hold helps any unit that does not move."""
    return order.target not in board.moves


def unmatch_support_move(board: Board, prov: str, order: SupportMove) -> None:
    """An unmatched support of a move is taken off the move's supporters."""
    board.move_supports[(order.origin, order.dest_province)].remove(prov)


def unmatch_support_hold(board: Board, prov: str, order: SupportHold) -> None:
    """An unmatched support of a hold stays listed: support_given never gives it."""


# Per support class: does it match the supported unit's order, and what an
# unmatched one takes off the board's indexes.
MATCHES: dict[type[Order], Callable[[Board, Any], bool]] = {
    SupportMove: support_move_matches,
    SupportHold: support_hold_matches,
}
UNMATCH: dict[type[Order], Callable[[Board, str, Any], None]] = {
    SupportMove: unmatch_support_move,
    SupportHold: unmatch_support_hold,
}


def support_matches(board: Board, prov: str) -> bool:
    """Was the unit the support in `prov` supports ordered as the support says?"""
    order = board.orders[prov]
    return MATCHES[type(order)](board, order)


def supports_given(board: Board, supporters: list[str], decided: Decided, exclude_power: str | None = None) -> int:
    """How many of these supports are given (not cut, not dislodged), leaving
    out those of `exclude_power`."""
    count = 0
    for s in supporters:
        if exclude_power is not None and board.units[s].power == exclude_power:
            continue
        if decided(s):
            count += 1
    return count


def support_given(board: Board, prov: str, support: SupportHold | SupportMove, decided: Decided) -> bool:
    """The support decision: matched, not cut, and not dislodged by the unit it supports against."""
    if prov in board.unmatched:
        return False        # supports a move that was not ordered, or a hold by a unit that moves
    against = support.attacks()           # the province a support of a move supports an attack on
    attackers = board.moves_to.get(prov, ())
    power = board.units[prov].power
    for attacker in attackers:
        if attacker == against or board.units[attacker].power == power:
            continue
        if attacker not in board.by_convoy or has_path(board, attacker, decided):
            return False    # cut
    # Dislodged by the unit it supported against?
    return not (against is not None and against in attackers and is_dislodged(board, prov, decided))


def support_failure(board: Board, prov: str, order: SupportHold | SupportMove, decided: Decided) -> Reason:
    """Why a support was not given: it matched no order, or it was cut."""
    return NOT_MATCHED if prov in board.unmatched else CUT


def cutters(board: Board, prov: str, decided: Decided) -> tuple[str, ...]:
    """The units whose attacks cut this support (not the one it supports against, not its own power's)."""
    against = board.orders[prov].attacks()
    power = board.units[prov].power
    return tuple([a for a in board.moves_to.get(prov, ()) if a != against and board.units[a].power != power
                  and (a not in board.by_convoy or has_path(board, a, decided))])
