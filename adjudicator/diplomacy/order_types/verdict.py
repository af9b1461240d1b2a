"""What a phase makes of one order line: the order it gives, Void, or an error.

A void order is an expected result, not a fault: the unit holds (or, in a
retreat phase, disbands) and the report says why. So the checks return
Void rather than raise it: raising cost about 1.4 us a void order against
0.2 us for a return, and a movement phase has several."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from adjudicator.diplomacy.orders import AnyOrder
from adjudicator.errors import OrderError


# Read-only as the orders are: Final fields, not frozen (a frozen record
# costs about three times as much to make).
@dataclass(slots=True)
class Void:
    """An order that breaks a rule, and which rule."""

    message: Final[str]              # which rule the order breaks
    hint: Final[str | None] = None   # how to mend it, where there is a likely fix

    @property
    def reason(self) -> str:
        """The reason as the report gives it: the message, then the hint in brackets."""
        return self.message + (f" ({self.hint})" if self.hint else "")


# A phase's verdict on one line the parser read: the order it gives (bound
# to its unit and checked), Void (it breaks a rule: the unit holds, or in a
# retreat phase is disbanded), or the error that keeps it from ordering
# anything (no such unit, another power's unit, a second order for a unit).
Verdict = AnyOrder | Void | OrderError
