"""The game state of a Diplomacy game: a plain value (who stands where,
who owns which centre, who controls the other land, who was dislodged). Its YAML form, which needs the
variant to check, is in adjudicator.diplomacy.statefile."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from adjudicator.diplomacy.model import Phase, Unit


@dataclass(frozen=True)
class Dislodged:
    unit: Unit
    attacker_from: str | None        # province the dislodging attack came from
    retreats: tuple[str, ...]        # locations the unit may retreat to


@dataclass
class GameState:
    variant: str
    phase: Phase
    units: dict[str, Unit]                       # province -> unit
    centres: dict[str, str]                      # supply centre -> owning power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)   # province -> dislodged unit
    extra: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    missed: dict[str, int] = field(default_factory=dict)   # power -> phases missed in a row
    # Land that is not a supply centre -> the last power whose unit stood
    # there at the end of a phase (the maps tint it; no rule reads it).
    control: dict[str, str] = field(default_factory=dict)

    def copy(self) -> GameState:
        return GameState(self.variant, self.phase, dict(self.units), dict(self.centres),
                         dict(self.dislodged), copy.deepcopy(self.extra) if self.extra else {},
                         copy.deepcopy(self.result) if self.result is not None else None, dict(self.missed),
                         dict(self.control))

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.centres.items() if p == power)
