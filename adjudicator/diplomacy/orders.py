"""The order model: small records, one class per order type, read-only.

An order names its unit by location as the player wrote it; binding to the
actual unit (and catching orders for absent or foreign units) happens in
validation. `str(order)` is the normalised short form, e.g. 'A par - bur'.

Each order is compiled once, when it is made: the provinces of its unit and
of its destination are fields (`province`, `dest_province`), so nothing on
the per-phase path splits a location string again. They are derived, so
they take no part in equality, hashing or repr.

The fields are Final: mypy keeps them read-only, and orders are equal and
hash by value. They are not frozen dataclasses, because a frozen record
sets each field through object.__setattr__: making one cost 2.2 us against
0.6 us, and every order line of every phase makes one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from adjudicator.diplomacy.model import UNIT_LETTERS, UnitType, province_of


class OrderShape:
    """What every order record answers about where it points, each class for
    itself: the map, the reports and the rules ask these instead of testing
    an order's class."""

    __slots__ = ()

    def ends(self) -> tuple[str, str]:
        """What the map draws the order between: (origin, target); '' where it has none."""
        return "", ""

    def helps(self) -> str | None:
        """The location of the unit this order supports or convoys; None if it helps none."""
        return None

    def attacks(self) -> str | None:
        """The province this order attacks, or helps to attack; None if it attacks none."""
        return None

    def moves_to(self) -> str | None:
        """The province this order moves its unit to; None if the unit stays."""
        return None

    def winter_count(self) -> int:
        """What the order counts for against a winter's owed adjustments: a
        build or a waive uses one build (1), a disband meets one disband (-1)."""
        return 0


# unsafe_hash: equal orders hash alike, as frozen ones did; the fields are Final.
@dataclass(slots=True, unsafe_hash=True)
class Order(OrderShape):
    power: Final[str]
    unit_type: Final[UnitType | None]      # as written; None when the player left it out
    location: Final[str]
    province: str = field(init=False, repr=False, compare=False)     # the unit's province

    def __post_init__(self) -> None:
        self.province = province_of(self.location)

    def unit_text(self) -> str:
        return f"{UNIT_LETTERS[self.unit_type]} {self.location}" if self.unit_type else self.location


@dataclass(slots=True, unsafe_hash=True)
class Hold(Order):
    def __str__(self) -> str:
        return f"{self.unit_text()} H"


@dataclass(slots=True, unsafe_hash=True)
class Move(Order):
    dest: Final[str]
    via_convoy: Final[bool] = False
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.province = province_of(self.location)
        self.dest_province = province_of(self.dest)

    def __str__(self) -> str:
        return f"{self.unit_text()} - {self.dest}" + (" via convoy" if self.via_convoy else "")

    def ends(self) -> tuple[str, str]:
        return "", self.dest

    def attacks(self) -> str:
        return self.dest_province

    def moves_to(self) -> str:
        return self.dest_province


@dataclass(slots=True, unsafe_hash=True)
class SupportHold(Order):
    target_type: Final[UnitType | None]
    target: Final[str]

    def __str__(self) -> str:
        t = f"{UNIT_LETTERS[self.target_type]} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.target}"

    def ends(self) -> tuple[str, str]:
        return "", self.target

    def helps(self) -> str:
        return self.target


@dataclass(slots=True, unsafe_hash=True)
class SupportMove(Order):
    target_type: Final[UnitType | None]
    origin: Final[str]
    dest: Final[str]
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.province = province_of(self.location)
        self.dest_province = province_of(self.dest)

    def __str__(self) -> str:
        t = f"{UNIT_LETTERS[self.target_type]} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.origin} - {self.dest}"

    def ends(self) -> tuple[str, str]:
        return self.origin, self.dest

    def helps(self) -> str:
        return self.origin

    def attacks(self) -> str:
        return self.dest_province


@dataclass(slots=True, unsafe_hash=True)
class Convoy(Order):
    origin: Final[str]
    dest: Final[str]

    def __str__(self) -> str:
        return f"{self.unit_text()} C A {self.origin} - {self.dest}"

    def ends(self) -> tuple[str, str]:
        return self.origin, self.dest

    def helps(self) -> str:
        return self.origin

    def attacks(self) -> str:
        return province_of(self.dest)


@dataclass(slots=True, unsafe_hash=True)
class Retreat(Order):
    dest: Final[str]
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.province = province_of(self.location)
        self.dest_province = province_of(self.dest)

    def __str__(self) -> str:
        return f"{self.unit_text()} R {self.dest}"

    def ends(self) -> tuple[str, str]:
        return "", self.dest

    def moves_to(self) -> str:
        return self.dest_province


@dataclass(slots=True, unsafe_hash=True)
class Disband(Order):
    def __str__(self) -> str:
        return f"{self.unit_text()} disband"

    def winter_count(self) -> int:
        return -1


@dataclass(slots=True, unsafe_hash=True)
class Build(Order):
    def __str__(self) -> str:
        return f"build {self.unit_text()}"

    def winter_count(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class Waive(OrderShape):
    power: Final[str]
    province: Final[str] = field(default="", init=False, repr=False, compare=False)    # a waive orders no unit

    def __str__(self) -> str:
        return "waive"

    def winter_count(self) -> int:
        return 1


AnyOrder = Order | Waive
