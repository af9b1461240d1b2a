"""What a phase produced, as plain records for reports, maps and mail.
Secrets (Diplomacy Point allocations) live only in `gm_log` and in each
power's own `private` lines; reports choose what to show."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.model import Phase, Unit
from adjudicator.state import GameState


@dataclass
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


@dataclass
class ErrorLine:
    power: str | None
    line: int
    text: str
    message: str
    kind: str              # "cannot read" | "cannot do" | "ambiguous"


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
    missed: list[str] = field(default_factory=list)
    winner: str | None = None
