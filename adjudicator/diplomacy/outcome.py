"""What a phase produced, as plain records for reports, maps and mail.
Secrets (Diplomacy Point allocations) live only in `gm_log` and in each
power's own `private` lines; reports choose what to show."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from adjudicator.diplomacy.model import Phase, Unit
from adjudicator.diplomacy.state import GameState


class WhyKind(Enum):
    """What kept an order from a plain success."""

    BOUNCED = "bounced"          # a move that met equal or greater strength
    NO_CONVOY = "no convoy"      # a convoyed move whose convoy failed
    CUT = "cut"                  # a support cut by an attack on the supporter
    NOT_MATCHED = "not matched"  # a support of an order the supported unit did not give
    DISLODGED = "dislodged"      # the unit was driven out
    VOID = "void"                # the order broke a rule; the unit held


# Opponent and Why are plain (not frozen) records: a phase makes several for
# each order that did not simply succeed, and a frozen record costs about
# twice as much to make. Like the OrderLine they hang from, they are built
# once and then only read.
@dataclass(slots=True)
class Opponent:
    """A unit on the other side of a decision, with the strength it brought."""

    unit: Unit
    strength: int | None = None


@dataclass(slots=True)
class Why:
    """Why an order did not simply succeed, from the resolver's decisions.

    BOUNCED: `strength` is the move's attack strength, `opponents` the units
    whose hold, defend or prevent strength stopped it. CUT: `opponents` are the
    units that cut the support. DISLODGED: `opponents` is the dislodger with its
    attack strength, `defence` the unit's own hold (or defend) strength,
    `retreats` where it may go and `disbanded` if it goes nowhere. VOID and
    NOT_MATCHED: `rule` says, in words, which rule voided it."""

    kind: WhyKind
    strength: int | None = None
    opponents: tuple[Opponent, ...] = ()
    defence: int | None = None
    retreats: tuple[str, ...] = ()
    disbanded: bool = False
    rule: str = ""


@dataclass(slots=True)
class OrderLine:
    power: str
    text: str             # the order as published (normalised, or as written for minor powers)
    result: str           # e.g. "moved", "bounced", "cut", "dislodged", "void"
    detail: str = ""      # why, for void or failed orders
    kind: str = ""        # order class name, for the map renderer
    unit: str = ""        # 'A par'
    target: str = ""      # destination / supported location, for the map renderer
    origin: str = ""      # for supports of moves and convoys: the supported unit's province
    succeeded: bool = True
    province: str = ""    # the ordered unit's province ('spa' for 'F spa/nc'); '' for waives and counts
    void: bool = False    # voided before resolution (the unit held); `detail` says why
    why: Why | None = None  # the typed reason for any result that is not a plain success
    defaulted: bool = False  # the unit had no order and held (or was disbanded) by default


@dataclass
class ErrorLine:
    power: str | None
    line: int
    text: str
    message: str
    kind: str              # "cannot read" | "cannot do" | "ambiguous"
    published: bool = False  # the phase published the line as invalid and went on: it need not stop the turn


@dataclass
class DislodgedLine:
    unit: Unit
    attacker_from: str | None
    retreats: list[str]


@dataclass
class AdjustmentLine:
    power: str
    centres: int
    units: int

    @property
    def delta(self) -> int:
        return self.centres - self.units


@dataclass
class PhaseOutcome:
    phase: Phase
    state_before: GameState
    next_state: GameState
    orders: list[OrderLine] = field(default_factory=list)
    errors: list[ErrorLine] = field(default_factory=list)
    dislodged: list[DislodgedLine] = field(default_factory=list)
    centre_changes: list[tuple[str, str | None, str]] = field(default_factory=list)
    adjustments: list[AdjustmentLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    gm_log: list[str] = field(default_factory=list)
    gm_notes: list[str] = field(default_factory=list)   # for the GM, not secret: lines published as invalid
    missed: list[str] = field(default_factory=list)
    winner: str | None = None
