"""Hold: 'A par H', or 'A par' alone; the order of every unit left unordered
or ordered void. A hold has no decision of its own; the unit's hold
strength is what a move into its province must beat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types.board import Board, Decided
from adjudicator.diplomacy.order_types.reading import Reader, Tokens
from adjudicator.diplomacy.order_types.support import supports_given
from adjudicator.diplomacy.orders import Hold, Order

if TYPE_CHECKING:
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


# --- parsing ------------------------------------------------------------------------
def read_hold(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str) -> Hold:
    """After 'H': nothing more."""
    return Hold(power, unit_type, location)


# --- validation ---------------------------------------------------------------------
def validate_hold(state: GameState, variant: Variant, order: Hold, unit: Unit, exact: bool) -> Hold:
    """Any unit may hold."""
    return order if exact else Hold(unit.power, unit.type, unit.location)


# --- adjudication -------------------------------------------------------------------
def holds(board: Board, prov: str, order: Order, decided: Decided) -> bool:
    """The decision of an order that has none of its own: it succeeds."""
    return True


def hold_strength(board: Board, prov: str, decided: Decided) -> int:
    """The strength with which the unit in `prov` (if any) stays: none if it
    moves away successfully, else one plus its hold supports (a unit whose
    move fails holds with strength one, and no hold support counts for it)."""
    if prov not in board.units:
        return 0
    if prov in board.moves:
        return 0 if decided(prov) else 1
    supporters = board.hold_supports.get(prov)
    return 1 + supports_given(board, supporters, decided) if supporters else 1


