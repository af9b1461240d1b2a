"""What a phase produced, as plain records for reports, maps and mail.
Secrets (Diplomacy Point allocations) live only in `gm_log` and in each
power's own `private` lines; reports choose what to show."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from adjudicator.diplomacy.model import Phase, Reason, Unit
from adjudicator.diplomacy.movement_result import ConvoyNote
from adjudicator.diplomacy.orders import AnyOrder, OrderShape
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
    whose hold, defend or prevent strength stopped it (for a retreat, the
    other units that retreated there). CUT: `opponents` are the units that
    cut the support. NOT_MATCHED: `opponents` is the supported unit. DISLODGED: `opponents` is the dislodger with its
    attack strength, `defence` the unit's own hold (or defend) strength,
    `retreats` where it may go and `disbanded` if it goes nowhere, and for a
    void order `rule` the rule it broke. VOID: `rule` is the rule the order
    broke, as validation worded it."""

    kind: WhyKind
    strength: int | None = None
    opponents: tuple[Opponent, ...] = ()
    defence: int | None = None
    retreats: tuple[str, ...] = ()
    disbanded: bool = False
    rule: str = ""


@dataclass(frozen=True, slots=True)
class UnusedBuilds(OrderShape):
    """Builds a power was due and did not order: they are waived."""

    power: str
    count: int


@dataclass(slots=True)
class OrderLine:
    """One order and what became of it, as values. Reports and maps make
    their words from these fields (adjudicator.output.wording).

    `order` is the order as resolved, in the form its player gave it (a
    'via convoy' the judge added is in `convoy`, not on the order); for a
    void order, the order as written and bound; for a unit that had no
    order, the default the rules gave it (a hold, or a disband).
    `result` says what became of it; `why`, for any result that is not a
    plain success, the decisions behind it (for a void order, the rule it
    broke). `disbanded`: the unit was disbanded because of it (a retreat
    that bounced or was void). `written`: the words to publish where they are
    not the order's own (Ambition & Empire publishes a minor power's order as
    the player wrote it)."""

    order: AnyOrder | UnusedBuilds
    result: Reason
    succeeded: bool = True
    province: str = ""       # the ordered unit's province ('spa' for 'F spa/nc'); '' for waives
    unit: Unit | None = None  # the ordered (or built) unit; None for waives and for a unit that is gone
    why: Why | None = None
    void: bool = False       # voided before resolution (the unit held); `why.rule` says why
    defaulted: bool = False  # the unit had no order and held (or was disbanded) by default
    disbanded: bool = False
    written: str | None = None
    convoy: ConvoyNote | None = None

    @property
    def power(self) -> str:
        return self.order.power

    @property
    def void_rule(self) -> str:
        """Why a void order was void: the rule it broke ('' for any other order)."""
        return self.why.rule if self.void and self.why is not None else ""


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

    def refused(self) -> set[int]:
        """The numbers of the lines that order nothing: the parser could not
        read them, or the phase's verdict was an error (see `errors`)."""
        return {error.line for error in self.errors}
