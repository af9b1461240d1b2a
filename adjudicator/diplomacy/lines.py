"""One line of orders text and what it parsed to: the value the parser
hands to validation, the phases and a variant's rule set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.diplomacy.orders import AnyOrder
from adjudicator.errors import OrderError


@dataclass(slots=True)
class ParsedLine:
    number: int
    text: str
    power: str | None
    order: AnyOrder | None = None
    error: OrderError | None = None
    extra: dict[str, object] = field(default_factory=dict)   # variant data, e.g. DP allocation


# A line extension sees the stripped text and returns the rest of the line to
# parse plus data to attach (A&E: '2 DP: A swi S ...' -> ('A swi S ...', {'dp': 2})).
LineExtension = Callable[[str], "tuple[str, dict[str, object]] | None"]
