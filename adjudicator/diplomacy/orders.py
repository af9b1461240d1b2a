"""The order model: small frozen records, one class per order type.

An order names its unit by location as the player wrote it; binding to the
actual unit (and catching orders for absent or foreign units) happens in
validation. `str(order)` is the normalised short form, e.g. 'A par - bur'.

Each order is compiled once, when it is made: the provinces of its unit and
of its destination are fields (`province`, `dest_province`), so nothing on
the per-phase path splits a location string again. They are derived, so
they take no part in equality, hashing or repr."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.diplomacy.model import UNIT_LETTERS, UnitType, province_of

_set = object.__setattr__          # frozen records set their derived fields once, in __post_init__


@dataclass(frozen=True, slots=True)
class Order:
    power: str
    unit_type: UnitType | None      # as written; None when the player left it out
    location: str
    province: str = field(init=False, repr=False, compare=False)     # the unit's province

    def __post_init__(self) -> None:
        _set(self, "province", province_of(self.location))

    def unit_text(self) -> str:
        return f"{UNIT_LETTERS[self.unit_type]} {self.location}" if self.unit_type else self.location

    def ends(self) -> tuple[str, str]:
        """What the map draws the order between: (origin, target); '' where it has none."""
        return "", ""


@dataclass(frozen=True, slots=True)
class Hold(Order):
    def __str__(self) -> str:
        return f"{self.unit_text()} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    dest: str
    via_convoy: bool = False
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _set(self, "province", province_of(self.location))
        _set(self, "dest_province", province_of(self.dest))

    def __str__(self) -> str:
        return f"{self.unit_text()} - {self.dest}" + (" via convoy" if self.via_convoy else "")

    def ends(self) -> tuple[str, str]:
        return "", self.dest


@dataclass(frozen=True, slots=True)
class SupportHold(Order):
    target_type: UnitType | None
    target: str

    def __str__(self) -> str:
        t = f"{UNIT_LETTERS[self.target_type]} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.target}"

    def ends(self) -> tuple[str, str]:
        return "", self.target


@dataclass(frozen=True, slots=True)
class SupportMove(Order):
    target_type: UnitType | None
    origin: str
    dest: str
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _set(self, "province", province_of(self.location))
        _set(self, "dest_province", province_of(self.dest))

    def __str__(self) -> str:
        t = f"{UNIT_LETTERS[self.target_type]} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.origin} - {self.dest}"

    def ends(self) -> tuple[str, str]:
        return self.origin, self.dest


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    origin: str
    dest: str

    def __str__(self) -> str:
        return f"{self.unit_text()} C A {self.origin} - {self.dest}"

    def ends(self) -> tuple[str, str]:
        return self.origin, self.dest


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    dest: str
    dest_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _set(self, "province", province_of(self.location))
        _set(self, "dest_province", province_of(self.dest))

    def __str__(self) -> str:
        return f"{self.unit_text()} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband(Order):
    def __str__(self) -> str:
        return f"{self.unit_text()} disband"


@dataclass(frozen=True, slots=True)
class Build(Order):
    def __str__(self) -> str:
        return f"build {self.unit_text()}"


@dataclass(frozen=True, slots=True)
class Waive:
    power: str

    def __str__(self) -> str:
        return "waive"


AnyOrder = Order | Waive
