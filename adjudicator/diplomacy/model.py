"""Small value types shared by the whole Diplomacy core."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final


class UnitType(Enum):
    ARMY = "A"
    FLEET = "F"

    # Members are singletons: hash by identity, in C (Enum's own __hash__ is
    # Python code, and unit types and reasons are dict keys on the hot path).
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return UNIT_LETTERS[self]


# Enum members also as module names, as the standard library gives its
# flags (re.IGNORECASE), for the per-phase path to read. Python 3.11's
# EnumType defines __getattr__, so each read of `UnitType.ARMY` goes through
# a slow hook: some 750 machine instructions, against a few dozen for a
# global. A phase made about 150 such reads, 7% of its instructions
# (Python 3.12 drops the hook).
ARMY: Final = UnitType.ARMY
FLEET: Final = UnitType.FLEET

UNIT_LETTERS: dict[UnitType, str] = {ARMY: "A", FLEET: "F"}


def province_of(location: str) -> str:
    """'spa/nc' -> 'spa'; 'par' -> 'par'."""
    # Most locations have no coast: a test in C, not a split that makes a list.
    return location if "/" not in location else location.split("/", 1)[0]


# Read-only as the orders are (adjudicator.diplomacy.orders): Final fields, which
# mypy keeps unassigned, equal and hashed by value; not frozen, which would
# cost every unit moved twice as much to make.
@dataclass(slots=True, unsafe_hash=True)
class Unit:
    power: Final[str]
    type: Final[UnitType]
    location: Final[str]   # a location id: province, or province/coast for fleets on split coasts
    province: str = field(init=False, repr=False, compare=False)     # derived once, when made

    def __post_init__(self) -> None:
        self.province = province_of(self.location)

    def __str__(self) -> str:
        return f"{UNIT_LETTERS[self.type]} {self.location}"


SEASONS_ORDER = {"spring": 0, "summer": 1, "fall": 2, "autumn": 2, "winter": 3}
KINDS_ORDER = {"movement": 0, "retreat": 1, "adjustment": 2}


@dataclass(frozen=True, slots=True, order=False)
class Phase:
    year: int
    season: str            # spring | fall | winter
    kind: str              # movement | retreat | adjustment

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (self.year, SEASONS_ORDER.get(self.season, 9), KINDS_ORDER.get(self.kind, 9))

    @property
    def slug(self) -> str:
        """File-name form, e.g. '1901-spring-movement'."""
        return f"{self.year}-{self.season}-{self.kind}"

    @classmethod
    def from_slug(cls, slug: str) -> Phase:
        year, season, kind = slug.split("-")
        return cls(int(year), season, kind)

    def __str__(self) -> str:
        return f"{self.season.capitalize()} {self.year} {self.kind.capitalize()}"


class Reason(Enum):
    """Why an order did what it did, for the report."""

    __hash__ = object.__hash__         # as UnitType: identity, in C

    MOVED = "moved"
    HELD = "held"
    BOUNCED = "bounced"
    CUT = "cut"
    DISLODGED = "dislodged"
    NO_CONVOY = "no convoy"
    VOID = "void"
    SUPPORTED = "supported"
    CONVOYED = "convoyed"
    NOT_MATCHED = "not matched"
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "waived"
    CIVIL_DISORDER = "civil disorder"   # a unit the rules disbanded: its power ordered too few disbands, or none


# The Reason members a movement phase reads, as module names, as ARMY and
# FLEET are (for the same reason). The others are read through Reason.
MOVED: Final = Reason.MOVED
HELD: Final = Reason.HELD
BOUNCED: Final = Reason.BOUNCED
CUT: Final = Reason.CUT
DISLODGED: Final = Reason.DISLODGED
NO_CONVOY: Final = Reason.NO_CONVOY
SUPPORTED: Final = Reason.SUPPORTED
CONVOYED: Final = Reason.CONVOYED
NOT_MATCHED: Final = Reason.NOT_MATCHED
VOID: Final = Reason.VOID
