"""Waive: 'waive' (or 'pass') alone on a line: in winter, a build the power
chooses not to make."""

from __future__ import annotations

from adjudicator.diplomacy.order_types.reading import Reader, Tokens
from adjudicator.diplomacy.orders import Waive
from adjudicator.errors import IllegalOrderError, OrderSyntaxError


# --- parsing ------------------------------------------------------------------------
def read_waive(reader: Reader, tokens: Tokens, power: str) -> Waive | None:
    """The waive word alone. With more after it, a province of that name
    starts a unit's order (None, nothing read); otherwise the words after it
    are refused, since a waive names no unit or province."""
    word = tokens.peek()
    if tokens.peek(1) is None:
        tokens.take()
        return Waive(power)
    if word in reader.graph.names.exact:
        return None
    raise OrderSyntaxError(f"'{word}' stands alone on its line: a waive names no unit or province",
                           hint=f"write '{word}' by itself, once for each build not made")


# --- validation ---------------------------------------------------------------------
def validate_waive(builds_left: int) -> IllegalOrderError | None:
    """A waive uses up one of the power's builds; it needs one left (else the error)."""
    if builds_left <= 0:
        return IllegalOrderError("no build left to waive")
    return None
