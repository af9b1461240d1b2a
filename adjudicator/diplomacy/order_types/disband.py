"""Disband: 'disband A par' or 'A par disband'. In a retreat phase a
dislodged unit may disband instead of retreating; in winter a power with
more units than centres disbands the difference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types.binding import bind_unit
from adjudicator.diplomacy.order_types.reading import Reader, Tokens
from adjudicator.diplomacy.orders import Disband
from adjudicator.errors import IllegalOrderError

if TYPE_CHECKING:
    from adjudicator.diplomacy.state import GameState


# --- parsing ------------------------------------------------------------------------
def read_disband_first(reader: Reader, tokens: Tokens, power: str) -> Disband:
    """'disband A par': the order word first, then the unit."""
    tokens.take()
    unit_type = reader.read_unit_type(tokens)
    return Disband(power, unit_type, reader.read_location(tokens))


def read_disband(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str) -> Disband:
    """'A par disband': nothing after the order word."""
    return Disband(power, unit_type, location)


# --- validation ---------------------------------------------------------------------
def validate_winter_disband(state: GameState, order: Disband, still_due: int,
                            disbanded: set[str]) -> Unit | IllegalOrderError:
    """The power's unit to disband, if it still owes disbands and has not
    already disbanded this one; else the error."""
    if still_due <= 0:
        return IllegalOrderError("no disbands are due")
    unit = bind_unit(state, order)
    if isinstance(unit, IllegalOrderError):
        return unit
    if unit.province in disbanded:
        return IllegalOrderError(f"{unit} is already disbanded")
    return unit
