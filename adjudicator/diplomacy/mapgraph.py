"""Maps as graphs: YAML -> compiled lookups, with validation and fast typed queries.

A map YAML lists provinces with terrain, names and aliases, supply centres,
army adjacency (province ids) and fleet adjacency (location ids; a split-coast
province has its fleet adjacency per coast, e.g. 'spa/nc'). Every edge must be
listed on both sides.

Loading compiles the map once into plain lookups (ids to frozensets): army and
fleet moves, the provinces a fleet can reach, the seas touching each province,
each location's province and terrain, and a name index. Validation and
adjudication read only these. The networkx graphs (army graph over provinces,
fleet graph over locations) are for analysis and drawing; they are built on
first access, so the per-phase path never imports networkx."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import (
    ARMY,
    UNIT_LETTERS,
    Unit,
    UnitType,
    province_of,
)
from adjudicator.errors import MapDataError
from adjudicator.store.packagedata import package_folder
from adjudicator.store.storage import read_yaml

if TYPE_CHECKING:
    import networkx as nx

MAPS_DIR = package_folder("adjudicator.maps")      # maps/ of the clone, or of the installed wheel
TERRAINS = ("land", "coast", "sea")
NOWHERE: frozenset[str] = frozenset()
NORMALISE_CACHE = 8192         # entries in a name index's normalisation cache before it starts over
_NOT_NAME = re.compile(r"[^a-z0-9/]+")


def normalise_name(text: str) -> str:
    """Case, punctuation and spacing folded, so 'St. Petersburg', 'st petersburg'
    and 'ST-PETERSBURG' all compare equal."""
    text = text.lower().replace("&", " and ")
    return " ".join(_NOT_NAME.sub(" ", text).split())


@dataclass
class Province:
    id: str
    name: str
    terrain: str
    supply_centre: bool
    aliases: tuple[str, ...]
    coasts: dict[str, str]                 # coast id ('spa/nc') -> coast name ('North Coast')
    drawing: dict[str, Any] = field(default_factory=dict)


class NameIndex:
    """Every way to write a province on one map, built once per map: exact
    names (full names, ids, aliases, normalised), the same with the spaces
    taken out ('Mid Atlantic' = 'MidAtlantic'), the word-prefixes of every
    name, and a cached normalisation. The parser decides how to use them."""

    def __init__(self, provinces: dict[str, Province]) -> None:
        exact: dict[str, str] = {}
        spellings: dict[str, list[str]] = {}
        for pid, prov in provinces.items():
            for name in (pid, prov.name, *prov.aliases):
                key = normalise_name(name)
                exact.setdefault(key, pid)
                spellings.setdefault(key, []).append(name)
        self.exact = exact
        # Each key as the map's file writes it ('Mid-Atlantic Ocean', 'St. Petersburg').
        self.spellings: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in spellings.items()}
        compact: dict[str, str | None] = {}
        for key, pid in exact.items():
            squeezed = key.replace(" ", "")
            compact[squeezed] = pid if compact.get(squeezed, pid) == pid else None
        self.compact: dict[str, str] = {k: v for k, v in compact.items() if v is not None}
        # Word-prefixes of every name ('st', 'st petersburg'), and string
        # prefixes of every name with its spaces out: a run of words that is
        # neither can never grow into a name.
        words: set[str] = set()
        following: dict[str, set[str]] = {}
        for key in exact:
            parts = key.split()
            for n in range(1, len(parts) + 1):
                words.add(" ".join(parts[:n]))
                if n < len(parts):
                    following.setdefault(" ".join(parts[:n]), set()).add(parts[n])
        self.word_prefixes = frozenset(words)
        # A name's first words -> the words that may come next in some name.
        self.next_words: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in following.items()}
        self.compact_prefixes = frozenset(k[:n] for k in self.compact for n in range(1, len(k) + 1))
        self.keys = tuple(sorted({*exact, *self.compact}))
        # One-word keys, for a parser's fast path: what each names, exact first.
        self.one_word: dict[str, str] = {k: exact.get(k) or self.compact[k] for k in self.keys
                                         if k.isascii() and k.isalnum()}
        self.coast_ids = tuple(coast for prov in provinces.values() for coast in prov.coasts)
        self._normalised: dict[str, str] = {}
        self._prefixes: dict[str, tuple[str, ...]] = {}
        self.suggestions: dict[str, str | None] = {}

    def normalise(self, text: str) -> str:
        """normalise_name, remembered (the same few words come up all the time)."""
        key = self._normalised.get(text)
        if key is None:
            if len(self._normalised) >= NORMALISE_CACHE:
                self._normalised.clear()
            key = self._normalised[text] = normalise_name(text)
        return key

    def may_grow(self, key: str) -> bool:
        """Could a run of words normalised to `key` be the start of a name?"""
        return not key or key in self.word_prefixes or key.replace(" ", "") in self.compact_prefixes

    def prefix(self, key: str, min_length: int) -> tuple[str, ...]:
        """The provinces (sorted ids) that a normalised word of at least
        min_length letters is a prefix of."""
        if len(key) < min_length or not key.isalpha():
            return ()
        found = self._prefixes.get(key)
        if found is None:
            if len(self._prefixes) >= NORMALISE_CACHE:
                self._prefixes.clear()
            ids = {self.exact.get(k) or self.compact[k] for k in self.keys if k.startswith(key)}
            found = self._prefixes[key] = tuple(sorted(ids))
        return found


class MapGraph:
    """A loaded, validated map, compiled into lookups.

    army: province -> neighbouring provinces, as listed (file order)
    fleet: location -> neighbouring locations, as listed"""

    def __init__(self, name: str, provinces: dict[str, Province], army: dict[str, list[str]],
                 fleet: dict[str, list[str]], extra: dict[str, Any], source: str) -> None:
        self.name = name
        self.provinces = provinces
        self.extra = extra              # top-level keys the core does not use (straits, drawing...)
        self.source = source
        self._army_lists = army
        self._fleet_lists = fleet
        self._army_graph: nx.Graph | None = None
        self._fleet_graph: nx.Graph | None = None
        self._name_index: NameIndex | None = None
        # What other modules read or build once for this map (the renderer's
        # layout and geometry): kept with the map, not in module-level caches.
        self.derived: dict[str, object] = {}
        self.army_adjacent: dict[str, frozenset[str]] = {n: frozenset(near) for n, near in army.items()}
        self.fleet_adjacent: dict[str, frozenset[str]] = {n: frozenset(near) for n, near in fleet.items()}
        self.supply_centres = frozenset(p for p, prov in provinces.items() if prov.supply_centre)
        self.seas = frozenset(p for p, prov in provinces.items() if prov.terrain == "sea")
        # Every location id (province or coast) -> its province, terrain and
        # full name ('St Petersburg (South Coast)').
        self.location_province: dict[str, str] = {}
        self.terrain: dict[str, str] = {}
        self.full_names: dict[str, str] = {}
        for pid, prov in provinces.items():
            self.full_names[pid] = prov.name
            for loc in (pid, *prov.coasts):
                self.location_province[loc] = pid
                self.terrain[loc] = prov.terrain
            for coast, coast_name in prov.coasts.items():
                self.full_names[coast] = f"{prov.name} ({coast_name})"
        # Where a fleet in each province can stand: its coasts, or the province itself.
        self.fleet_spots: dict[str, tuple[str, ...]] = {
            pid: () if prov.terrain == "land" else tuple(sorted(prov.coasts)) if prov.coasts else (pid,)
            for pid, prov in provinces.items()}
        # The provinces a fleet on each location can reach (some coast of them).
        self.fleet_reach: dict[str, frozenset[str]] = {
            loc: frozenset(self.location_province[n] for n in near) for loc, near in self.fleet_adjacent.items()}
        # Province-level sea contacts, for convoy routes: which seas touch each province.
        self.seas_touching: dict[str, frozenset[str]] = {
            pid: frozenset(n for loc in self.fleet_spots[pid] for n in self.fleet_adjacent.get(loc, NOWHERE)
                           if n in self.seas)
            for pid in provinces}
        # Bodies of water: seas joined through seas share a number.
        self.sea_component: dict[str, int] = {}
        number = 0
        for start in fleet:
            if start not in self.seas or start in self.sea_component:
                continue
            number, frontier = number + 1, [start]
            while frontier:
                sea = frontier.pop()
                if sea in self.sea_component:
                    continue
                self.sea_component[sea] = number
                frontier.extend(n for n in self.fleet_adjacent[sea] if n in self.seas and n not in self.sea_component)

    # --- graphs for analysis (built on first use) -------------------------------------
    @property
    def army_graph(self) -> nx.Graph:
        """The army graph over provinces (networkx; not used on the per-phase path)."""
        if self._army_graph is None:
            self._army_graph = _graph(self._army_lists)
        return self._army_graph

    @property
    def fleet_graph(self) -> nx.Graph:
        """The fleet graph over locations (networkx; not used on the per-phase path)."""
        if self._fleet_graph is None:
            self._fleet_graph = _graph(self._fleet_lists)
        return self._fleet_graph

    # --- terrain and structure -------------------------------------------------
    def province_of(self, location: str) -> str:
        """A location's province, from the compiled table."""
        return self.location_province.get(location) or province_of(location)

    def _terrain(self, location: str) -> str:
        terrain = self.terrain.get(location)
        return terrain if terrain is not None else self.provinces[province_of(location)].terrain

    def is_sea(self, location: str) -> bool:
        return self._terrain(location) == "sea"

    def is_land(self, location: str) -> bool:
        """Inland: armies only."""
        return self._terrain(location) == "land"

    def is_coastal(self, location: str) -> bool:
        return self._terrain(location) == "coast"

    def has_location(self, location: str) -> bool:
        return location in self.location_province

    def coasts(self, province: str) -> list[str]:
        return sorted(self.provinces[province].coasts)

    def fleet_locations(self, province: str) -> list[str]:
        """Where a fleet in this province can stand: its coasts, or the province itself."""
        spots = self.fleet_spots.get(province)
        if spots is None:
            raise KeyError(province)
        return list(spots)

    def can_stand(self, unit_type: UnitType, location: str) -> bool:
        terrain = self.terrain.get(location)
        if terrain is None:
            return False
        if unit_type is ARMY:
            return "/" not in location and terrain != "sea"
        return location in self.fleet_adjacent

    # --- adjacency ------------------------------------------------------------
    def is_adjacent(self, unit_type: UnitType, source: str, target: str) -> bool:
        """Can a unit of this type standing on `source` move directly to `target`?
        For armies coasts are ignored; for fleets `target` must be an exact location."""
        if unit_type is ARMY:
            provinces = self.location_province        # province_of, inlined: this is the hot path
            return (provinces.get(target) or province_of(target)) in self.army_adjacent.get(
                provinces.get(source) or province_of(source), NOWHERE)
        return target in self.fleet_adjacent.get(source, NOWHERE)

    def reachable_coasts(self, source: str, province: str) -> list[str]:
        """The locations of `province` a fleet on `source` can reach."""
        near = self.fleet_adjacent.get(source, NOWHERE)
        return [loc for loc in self.fleet_spots.get(province, ()) if loc in near]

    def province_adjacent(self, unit_type: UnitType, source: str, province: str) -> bool:
        """Can the unit reach some part of `province` (used for supports: the
        supporting unit must be able to move to the province, any coast)."""
        if unit_type is ARMY:
            return self.is_adjacent(unit_type, source, province)
        return province in self.fleet_reach.get(source, NOWHERE)

    def could_convoy(self, sea: str, origin: str, dest: str) -> bool:
        """Is the fleet's sea joined, through seas, to both ends of the convoy?"""
        component = self.sea_component.get(sea)
        if component is None:
            return False
        return any(self.sea_component.get(s) == component for s in self.seas_touching.get(origin, ())) and \
            any(self.sea_component.get(s) == component for s in self.seas_touching.get(dest, ()))

    # --- names ----------------------------------------------------------------
    @property
    def names(self) -> NameIndex:
        """The name index, built on first use and kept with the map."""
        if self._name_index is None:
            self._name_index = NameIndex(self.provinces)
        return self._name_index

    def lookup(self, text: str) -> str | None:
        """Province id for a full name, id or alias in any case; None if unknown."""
        names = self.names
        return names.exact.get(names.normalise(text))

    def suggest(self, text: str) -> str | None:
        """A near-miss: the full name of the closest known province, if any is close."""
        names = self.names
        key = names.normalise(text)
        if key in names.suggestions:
            return names.suggestions[key]
        import difflib  # only a near miss needs it

        match = difflib.get_close_matches(key, list(names.exact), n=1, cutoff=0.7)
        found = self.provinces[names.exact[match[0]]].name if match else None
        if len(names.suggestions) >= NORMALISE_CACHE:
            names.suggestions.clear()
        names.suggestions[key] = found
        return found

    def full_name(self, location: str) -> str:
        name = self.full_names.get(location)
        if name is not None:
            return name
        prov = self.provinces[self.province_of(location)]
        if "/" in location:
            return f"{prov.name} ({prov.coasts[location]})"
        return prov.name

    def unit_name(self, unit: Unit) -> str:
        """'A Mecklenburg', 'F Smyrna (south coast)': a unit as reports name it."""
        return f"{UNIT_LETTERS[unit.type]} {self.full_name(unit.location)}"


def _graph(adjacency: dict[str, list[str]]) -> nx.Graph:
    """A networkx graph of an adjacency list (imported here: only analysis and drawing need it)."""
    import networkx as nx
    graph = nx.Graph()
    graph.add_nodes_from(adjacency)
    for node, neighbours in adjacency.items():
        for other in neighbours:
            graph.add_edge(node, other)
    return graph


# --- loading ---------------------------------------------------------------------
def _fail(source: str, entry: str, message: str) -> MapDataError:
    return MapDataError(f"{entry}: {message}", file=source)


def parse_map(data: Any, source: str) -> MapGraph:
    """A map's YAML data -> MapGraph, checking every province and that each
    edge is listed from both ends."""
    if not isinstance(data, dict) or not isinstance(data.get("provinces"), dict):
        raise MapDataError("a map needs a 'provinces' mapping", file=source)
    provinces: dict[str, Province] = {}
    army_lists: dict[str, list[str]] = {}
    fleet_lists: dict[str, list[str]] = {}
    for pid, entry in data["provinces"].items():
        pid = str(pid)
        provinces[pid] = _read_province(source, pid, entry, army_lists, fleet_lists)
    _check_army_edges(source, provinces, army_lists)
    _check_fleet_edges(source, provinces, fleet_lists)
    extra = {k: v for k, v in data.items() if k not in ("name", "provinces")}
    return MapGraph(str(data.get("name", Path(source).stem)), provinces, army_lists, fleet_lists, extra, source)


def _read_province(source: str, pid: str, entry: Any, army_lists: dict[str, list[str]],
                   fleet_lists: dict[str, list[str]]) -> Province:
    """One province's entry; its army and fleet neighbours go into the lists."""
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
    return Province(
        id=pid, name=str(entry["name"]), terrain=terrain,
        supply_centre=bool(entry.get("supply_centre", False)),
        aliases=tuple(str(a) for a in entry.get("aliases", []) or []),
        coasts=coasts,
        drawing={k: entry[k] for k in ("position", "label", "outline") if k in entry},
    )


def _check_army_edges(source: str, provinces: dict[str, Province], army_lists: dict[str, list[str]]) -> None:
    """Every army neighbour is a province armies stand in, and lists this one back."""
    for pid, neighbours in army_lists.items():
        for other in neighbours:
            if other not in army_lists:
                what = "a sea" if other in provinces else "an unknown province"
                raise _fail(source, pid, f"army neighbour {other!r} is {what}")
            if pid not in army_lists[other]:
                raise _fail(source, pid, f"army edge to {other} is not listed back under {other}")


def _check_fleet_edges(source: str, provinces: dict[str, Province], fleet_lists: dict[str, list[str]]) -> None:
    """Every fleet neighbour is a location fleets stand in (a coast where the
    province has several), and lists this one back."""
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


def load_map(name: str) -> MapGraph:
    """Load maps/<name>.yaml (or a path to a .yaml file): a new MapGraph each
    time. The variant that loads it owns it (Variant.map), and with it what
    is derived from it (MapGraph.derived); the parse itself is kept per
    machine (read_yaml's keep)."""
    path = Path(name) if name.endswith(".yaml") else MAPS_DIR / f"{name}.yaml"
    return parse_map(read_yaml(path, keep=True), str(path))
