"""The order model: small frozen records, one class per order type.

An order names its unit by location as the player wrote it; binding to the
actual unit (and catching orders for absent or foreign units) happens in
validation. `str(order)` is the normalised short form, e.g. 'A par - bur'."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.model import UnitType, province_of


@dataclass(frozen=True, slots=True)
class Order:
    power: str
    unit_type: UnitType | None      # as written; None when the player left it out
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def unit_text(self) -> str:
        return f"{self.unit_type.value} {self.location}" if self.unit_type else self.location


@dataclass(frozen=True, slots=True)
class Hold(Order):
    def __str__(self) -> str:
        return f"{self.unit_text()} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    dest: str
    via_convoy: bool = False

    @property
    def dest_province(self) -> str:
        return province_of(self.dest)

    def __str__(self) -> str:
        return f"{self.unit_text()} - {self.dest}" + (" via convoy" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold(Order):
    target_type: UnitType | None
    target: str

    def __str__(self) -> str:
        t = f"{self.target_type.value} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.target}"


@dataclass(frozen=True, slots=True)
class SupportMove(Order):
    target_type: UnitType | None
    origin: str
    dest: str

    def __str__(self) -> str:
        t = f"{self.target_type.value} " if self.target_type else ""
        return f"{self.unit_text()} S {t}{self.origin} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    origin: str
    dest: str

    def __str__(self) -> str:
        return f"{self.unit_text()} C A {self.origin} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    dest: str

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
