"""One line of orders text and what the parser read in it: the value the
parser hands to the phases and to a variant's rule set. The phases never
write to it: binding and validation return their verdict on each line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from adjudicator.diplomacy.orders import AnyOrder
from adjudicator.errors import OrderError


class LineTag:
    """What a variant's line extension read off the front of a line, as a
    typed record of that variant's rule set (Ambition & Empire: how many
    Diplomacy Points the line allocates). The core only carries it."""

    __slots__ = ()

    def prefix(self) -> str:
        """The prefix as the judge writes it back when it echoes the line ('2 DP: ')."""
        return ""


# Read-only as the orders are (adjudicator.diplomacy.orders): Final fields,
# which mypy keeps unassigned; not frozen, because a frozen record costs
# about four times as much to make, and every line of every text makes one.
@dataclass(slots=True)
class ParsedLine:
    number: Final[int]
    text: Final[str]
    power: Final[str | None]
    order: Final[AnyOrder | None] = None
    error: Final[OrderError | None] = None    # the line could not be read (or is refused unread)
    tag: Final[LineTag | None] = None         # a variant's reading of the line's prefix


# A line extension sees the stripped text and returns the rest of the line to
# parse and its tag (A&E: '2 DP: A swi S ...' -> ('A swi S ...', 2 DPs)).
LineExtension = Callable[[str], "tuple[str, LineTag] | None"]
