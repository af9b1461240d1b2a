"""Variants: YAML -> Variant (map, powers, start, victory, rule set name).

The variant file is data only. Rule changes are named by `rules:` and looked
up in the hook registry (adjudicator.rules), never tested inline."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from adjudicator.errors import DataFileError
from adjudicator.mapgraph import MapGraph, load_map, normalise_name
from adjudicator.model import Unit, UnitType
from adjudicator.storage import read_yaml

VARIANTS_DIR = Path(__file__).resolve().parent.parent / "variants"


@dataclass(frozen=True)
class PowerInfo:
    id: str
    name: str
    adjective: str
    code: str
    colour: str
    home_centres: tuple[str, ...]
    owned_centres: tuple[str, ...]
    units: tuple[Unit, ...]
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    map: MapGraph
    rules: str
    start_year: int
    seasons: tuple[str, ...]
    victory_centres: int
    powers: dict[str, PowerInfo]
    extra: dict[str, Any]
    source: str

    def power_lookup(self, text: str) -> str | None:
        key = normalise_name(text)
        for pid, power in self.powers.items():
            names = {pid, power.name, power.adjective, power.code, *power.extra.get("aliases", [])}
            if key in {normalise_name(n) for n in names if n}:
                return pid
        return None

    def power_name(self, power: str | None) -> str:
        """A Great Power's or a minor power's name as reports print it."""
        if power is None:
            return "?"
        info = self.powers.get(power)
        if info is not None:
            return info.name
        minors = self.extra.get("minor_powers", {}) or {}
        return str((minors.get(power) or {}).get("name", power.title()))

    def power_suggestion(self, text: str = "") -> str:
        """'did you mean England?' for a near miss, else the list of powers."""
        import difflib
        names = {normalise_name(p.name): p.name for p in self.powers.values()}
        close = difflib.get_close_matches(normalise_name(text), list(names), n=1, cutoff=0.6)
        if close:
            return f"did you mean {names[close[0]]}?"
        return "powers are " + ", ".join(p.name for p in self.powers.values())


def parse_unit(text: str, power: str, graph: MapGraph, source: str, entry: str) -> Unit:
    parts = str(text).split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise DataFileError(f"{entry}: unit {text!r} should look like 'A par' or 'F spa/nc'", file=source)
    unit_type = UnitType(parts[0].upper())
    location = parts[1].lower()
    if not graph.can_stand(unit_type, location):
        raise DataFileError(f"{entry}: a {unit_type.name.lower()} cannot stand in {location!r}", file=source)
    return Unit(power, unit_type, location)


def parse_variant(data: Any, source: str, variant_id: str) -> Variant:
    if not isinstance(data, dict):
        raise DataFileError("a variant file is a mapping", file=source)
    for key in ("map", "powers", "start"):
        if key not in data:
            raise DataFileError(f"missing '{key}'", file=source)
    graph = load_map(str(data["map"]))
    powers: dict[str, PowerInfo] = {}
    for pid, entry in data["powers"].items():
        pid = str(pid)
        where = f"powers.{pid}"
        for centre in [*entry.get("home_centres", []), *entry.get("owned_centres", [])]:
            if centre not in graph.supply_centres:
                raise DataFileError(f"{where}: {centre!r} is not a supply centre of the map", file=source)
        units = tuple(parse_unit(u, pid, graph, source, where) for u in entry.get("units", []))
        known = {"name", "adjective", "code", "colour", "home_centres", "owned_centres", "units"}
        powers[pid] = PowerInfo(
            id=pid, name=str(entry.get("name", pid.title())),
            adjective=str(entry.get("adjective", "")), code=str(entry.get("code", "")),
            colour=str(entry.get("colour", "#888888")),
            home_centres=tuple(entry.get("home_centres", [])),
            owned_centres=tuple(entry.get("owned_centres", [])),
            units=units, extra={k: v for k, v in entry.items() if k not in known})
    start = data["start"]
    known_top = {"name", "map", "rules", "start", "seasons", "victory", "powers"}
    return Variant(
        id=variant_id, name=str(data.get("name", variant_id)), map=graph,
        rules=str(data.get("rules", "standard")), start_year=int(start["year"]),
        seasons=tuple(data.get("seasons", ["spring", "fall"])),
        victory_centres=int((data.get("victory") or {}).get("centres", 18)),
        powers=powers, extra={k: v for k, v in data.items() if k not in known_top}, source=source)


@lru_cache(maxsize=None)
def load_variant(name: str) -> Variant:
    path = Path(name) if name.endswith(".yaml") else VARIANTS_DIR / f"{name}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
        raise DataFileError(f"no variant {name!r}", file=str(path), hint=f"known: {', '.join(known)}")
    return parse_variant(read_yaml(path), str(path), path.stem)
