"""A movement phase's decisions as values: what moved, what was dislodged,
and why each order did what it did.

These records sit below the order types (which fill in a Contest) and below
the rule-set hooks (which read a MovementResult), so neither has to import
the movement phase that makes them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from adjudicator.diplomacy.model import Reason


class ConvoyNote(Enum):
    """What the judge made of an army move's 'via convoy', where it differs from what was written."""

    ADDED = "added"              # written plainly, but a fleet of its own power convoys it: it goes by convoy
    NO_ROUTE = "no route"        # 'via convoy' ignored: no convoy can go there; a move over land
    NO_FLEET = "no fleet"        # 'via convoy' ignored: no fleet convoys it; a move over land


# Read-only as the orders are: Final fields, not frozen, which costs three
# times as much to make (a phase makes one per bounce and dislodgement).
@dataclass(slots=True, unsafe_hash=True)
class Contest:
    """The strengths behind a decision that went against an order: the
    order's own strength, and the province and strength of each unit on the
    other side."""

    strength: Final[int]
    others: Final[tuple[tuple[str, int], ...]]


@dataclass
class MovementResult:
    succeeded: dict[str, bool]                      # province -> the order's decision
    reasons: dict[str, Reason]                      # province -> why, for the report
    dislodged: dict[str, str]                       # province -> where the dislodger came from
    moved: dict[str, str]                           # origin province -> destination location
    contested: set[str]                             # provinces left empty by a standoff
    convoyed: set[str] = field(default_factory=set)  # provinces of armies that moved by convoy
    # The decisions behind each failure, as values (the report's "why"):
    bounces: dict[str, Contest] = field(default_factory=dict)        # bounced move: its attack, and who stopped it
    cuts: dict[str, tuple[str, ...]] = field(default_factory=dict)   # cut support: the provinces of the units that cut it
    dislodgements: dict[str, Contest] = field(default_factory=dict)  # dislodged unit: its defence, and the dislodger's attack
