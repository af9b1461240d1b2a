"""Waive: 'waive' (or 'pass') alone on a line: in winter, a build the power
chooses not to make."""

from __future__ import annotations

from adjudicator.diplomacy.order_types.reading import Reader, Tokens
from adjudicator.diplomacy.orders import Waive
from adjudicator.errors import IllegalOrderError


# --- parsing ------------------------------------------------------------------------
def read_waive(reader: Reader, tokens: Tokens, power: str) -> Waive | None:
    """The waive word alone; None (and nothing read) if more follows."""
    if tokens.peek(1) is not None:
        return None
    tokens.take()
    return Waive(power)


# --- validation ---------------------------------------------------------------------
def validate_waive(builds_left: int) -> IllegalOrderError | None:
    """A waive uses up one of the power's builds; it needs one left (else the error)."""
    if builds_left <= 0:
        return IllegalOrderError("no build left to waive")
    return None
