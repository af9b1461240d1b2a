"""Void: an order type's verdict that a bound order breaks a rule.

A void order is an expected result, not a fault: the unit holds (or, in a
retreat phase, disbands) and the report says why. So the checks return this
value rather than raise. Raising cost about 1.4 us a void order against
0.2 us for a return, and a movement phase has several (issue 14)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


# Read-only as the orders are: Final fields, not frozen (a frozen record
# costs about three times as much to make).
@dataclass(slots=True)
class Void:
    message: Final[str]              # which rule the order breaks
    hint: Final[str | None] = None   # how to mend it, where there is a likely fix

    @property
    def reason(self) -> str:
        """The reason as the report gives it: the message, then the hint in brackets."""
        return self.message + (f" ({self.hint})" if self.hint else "")
