"""Maps as graphs: YAML -> networkx, with validation and fast typed queries.

A map YAML lists provinces with terrain, names and aliases, supply centres,
army adjacency (province ids) and fleet adjacency (location ids; a split-coast
province has its fleet adjacency per coast, e.g. 'spa/nc'). Every edge must be
listed on both sides. Two graphs are built: the army graph over provinces and
the fleet graph over locations. Lookups on the hot path use frozensets derived
from the graphs once at load time."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import networkx as nx

from adjudicator.errors import MapDataError
from adjudicator.model import Unit, UnitType, province_of
from adjudicator.storage import read_yaml

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"
TERRAINS = ("land", "coast", "sea")


def normalise_name(text: str) -> str:
    """Case, punctuation and spacing folded, so 'St. Petersburg', 'st petersburg'
    and 'ST-PETERSBURG' all compare equal."""
    text = text.lower().replace("&", " and ")
    text = re.sub(r"[^a-z0-9/]+", " ", text)
    return " ".join(text.split())


@dataclass
class Province:
    id: str
    name: str
    terrain: str
    supply_centre: bool
    aliases: tuple[str, ...]
    coasts: dict[str, str]                 # coast id ('spa/nc') -> coast name ('North Coast')
    drawing: dict[str, Any] = field(default_factory=dict)


class MapGraph:
    """A loaded, validated map."""

    def __init__(self, name: str, provinces: dict[str, Province], army: nx.Graph, fleet: nx.Graph,
                 extra: dict[str, Any], source: str) -> None:
        self.name = name
        self.provinces = provinces
        self.army_graph = army
        self.fleet_graph = fleet
        self.extra = extra              # top-level keys the core does not use (straits, drawing...)
        self.source = source
        self.army_adjacent: dict[str, frozenset[str]] = {n: frozenset(army.adj[n]) for n in army.nodes}
        self.fleet_adjacent: dict[str, frozenset[str]] = {n: frozenset(fleet.adj[n]) for n in fleet.nodes}
        self.supply_centres = frozenset(p for p, prov in provinces.items() if prov.supply_centre)
        # Province-level sea contacts, for convoy routes: which seas touch each province.
        self.seas_touching: dict[str, frozenset[str]] = {}
        for pid, prov in provinces.items():
            seas: set[str] = set()
            for loc in self.fleet_locations(pid):
                seas.update(n for n in self.fleet_adjacent.get(loc, ()) if self.is_sea(n))
            self.seas_touching[pid] = frozenset(seas)
        seas = [n for n in fleet.nodes if provinces[province_of(n)].terrain == "sea"]
        self.sea_component: dict[str, int] = {}
        for number, component in enumerate(nx.connected_components(fleet.subgraph(seas))):
            for sea in component:
                self.sea_component[sea] = number
        self._names = self._build_name_index()

    # --- terrain and structure -------------------------------------------------
    def is_sea(self, location: str) -> bool:
        return self.provinces[province_of(location)].terrain == "sea"

    def is_land(self, location: str) -> bool:
        """Inland: armies only."""
        return self.provinces[province_of(location)].terrain == "land"

    def is_coastal(self, location: str) -> bool:
        return self.provinces[province_of(location)].terrain == "coast"

    def has_location(self, location: str) -> bool:
        prov = self.provinces.get(province_of(location))
        if prov is None:
            return False
        return "/" not in location or location in prov.coasts

    def coasts(self, province: str) -> list[str]:
        return sorted(self.provinces[province].coasts)

    def fleet_locations(self, province: str) -> list[str]:
        """Where a fleet in this province can stand: its coasts, or the province itself."""
        prov = self.provinces[province]
        if prov.terrain == "land":
            return []
        return sorted(prov.coasts) if prov.coasts else [province]

    def can_stand(self, unit_type: UnitType, location: str) -> bool:
        if not self.has_location(location):
            return False
        prov = self.provinces[province_of(location)]
        if unit_type is UnitType.ARMY:
            return "/" not in location and prov.terrain != "sea"
        if prov.terrain == "land":
            return False
        return location in prov.coasts if prov.coasts else "/" not in location

    # --- adjacency ------------------------------------------------------------
    def is_adjacent(self, unit_type: UnitType, source: str, target: str) -> bool:
        """Can a unit of this type standing on `source` move directly to `target`?
        For armies coasts are ignored; for fleets `target` must be an exact location."""
        if unit_type is UnitType.ARMY:
            return province_of(target) in self.army_adjacent.get(province_of(source), frozenset())
        return target in self.fleet_adjacent.get(source, frozenset())

    def reachable_coasts(self, source: str, province: str) -> list[str]:
        """The locations of `province` a fleet on `source` can reach."""
        near = self.fleet_adjacent.get(source, frozenset())
        return [loc for loc in self.fleet_locations(province) if loc in near]

    def province_adjacent(self, unit_type: UnitType, source: str, province: str) -> bool:
        """Can the unit reach some part of `province` (used for supports: the
        supporting unit must be able to move to the province, any coast)."""
        if unit_type is UnitType.ARMY:
            return self.is_adjacent(unit_type, source, province)
        return bool(self.reachable_coasts(source, province))

    def could_convoy(self, sea: str, origin: str, dest: str) -> bool:
        """Is the fleet's sea joined, through seas, to both ends of the convoy?"""
        component = self.sea_component.get(sea)
        if component is None:
            return False
        return any(self.sea_component.get(s) == component for s in self.seas_touching.get(origin, ())) and \
            any(self.sea_component.get(s) == component for s in self.seas_touching.get(dest, ()))

    # --- names ----------------------------------------------------------------
    def _build_name_index(self) -> dict[str, str]:
        index: dict[str, str] = {}
        for pid, prov in self.provinces.items():
            for name in (pid, prov.name, *prov.aliases):
                index.setdefault(normalise_name(name), pid)
        return index

    def lookup(self, text: str) -> str | None:
        """Province id for a full name, id or alias in any case; None if unknown."""
        return self._names.get(normalise_name(text))

    def suggest(self, text: str) -> str | None:
        """A near-miss: the full name of the closest known province, if any is close."""
        key = normalise_name(text)
        match = difflib.get_close_matches(key, list(self._names), n=1, cutoff=0.7)
        if not match:
            return None
        return self.provinces[self._names[match[0]]].name

    def full_name(self, location: str) -> str:
        prov = self.provinces[province_of(location)]
        if "/" in location:
            return f"{prov.name} ({prov.coasts[location]})"
        return prov.name

    def unit_name(self, unit: Unit) -> str:
        """'A Mecklenburg', 'F Smyrna (south coast)': a unit as reports name it."""
        return f"{unit.type.value} {self.full_name(unit.location)}"


# --- loading ---------------------------------------------------------------------
def _fail(source: str, entry: str, message: str) -> MapDataError:
    return MapDataError(f"{entry}: {message}", file=source)


def parse_map(data: Any, source: str) -> MapGraph:
    if not isinstance(data, dict) or not isinstance(data.get("provinces"), dict):
        raise MapDataError("a map needs a 'provinces' mapping", file=source)
    provinces: dict[str, Province] = {}
    army_lists: dict[str, list[str]] = {}
    fleet_lists: dict[str, list[str]] = {}
    for pid, entry in data["provinces"].items():
        pid = str(pid)
        if not isinstance(entry, dict):
            raise _fail(source, pid, "each province is a mapping")
        terrain = entry.get("terrain")
        if terrain not in TERRAINS:
            raise _fail(source, pid, f"terrain must be one of {', '.join(TERRAINS)}, not {terrain!r}")
        if "name" not in entry:
            raise _fail(source, pid, "missing 'name'")
        coasts: dict[str, str] = {}
        for cid, centry in (entry.get("coasts") or {}).items():
            loc = f"{pid}/{cid}"
            if terrain != "coast":
                raise _fail(source, pid, f"coast {loc} on a province that is not coastal")
            coasts[loc] = str((centry or {}).get("name", cid))
            fleet_lists[loc] = [str(x) for x in (centry or {}).get("fleet", [])]
        if "fleet" in entry and coasts:
            raise _fail(source, pid, "a split-coast province lists fleet adjacency per coast, not on the province")
        if terrain != "land" and not coasts:
            fleet_lists[pid] = [str(x) for x in entry.get("fleet", [])]
        elif terrain == "land" and entry.get("fleet"):
            raise _fail(source, pid, "inland provinces cannot have fleet adjacency")
        if terrain != "sea":
            army_lists[pid] = [str(x) for x in entry.get("army", [])]
        elif entry.get("army"):
            raise _fail(source, pid, "sea provinces cannot have army adjacency")
        provinces[pid] = Province(
            id=pid, name=str(entry["name"]), terrain=terrain,
            supply_centre=bool(entry.get("supply_centre", False)),
            aliases=tuple(str(a) for a in entry.get("aliases", []) or []),
            coasts=coasts,
            drawing={k: entry[k] for k in ("position", "label", "outline") if k in entry},
        )
    army = nx.Graph()
    army.add_nodes_from(army_lists)
    for pid, neighbours in army_lists.items():
        for other in neighbours:
            if other not in army_lists:
                what = "a sea" if other in provinces else "an unknown province"
                raise _fail(source, pid, f"army neighbour {other!r} is {what}")
            if pid not in army_lists[other]:
                raise _fail(source, pid, f"army edge to {other} is not listed back under {other}")
            army.add_edge(pid, other)
    fleet = nx.Graph()
    fleet.add_nodes_from(fleet_lists)
    for loc, neighbours in fleet_lists.items():
        for other in neighbours:
            if other not in fleet_lists:
                prov = provinces.get(province_of(other))
                if prov is None:
                    why = "an unknown location"
                elif "/" in other:
                    why = f"not a coast of {prov.id}"
                elif prov.coasts:
                    why = f"a split-coast province: name the coast ({', '.join(prov.coasts)})"
                else:
                    why = "inland"
                raise _fail(source, loc, f"fleet neighbour {other!r} is {why}")
            if loc not in fleet_lists[other]:
                raise _fail(source, loc, f"fleet edge to {other} is not listed back under {other}")
            fleet.add_edge(loc, other)
    extra = {k: v for k, v in data.items() if k not in ("name", "provinces")}
    return MapGraph(str(data.get("name", Path(source).stem)), provinces, army, fleet, extra, source)


@lru_cache(maxsize=None)
def load_map(name: str) -> MapGraph:
    """Load maps/<name>.yaml (or a path to a .yaml file)."""
    path = Path(name) if name.endswith(".yaml") else MAPS_DIR / f"{name}.yaml"
    return parse_map(read_yaml(path), str(path))
