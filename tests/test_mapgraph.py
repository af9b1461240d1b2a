"""Invariants over every map in maps/, plus the Standard map's facts."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.diplomacy.mapgraph import MapGraph, load_map, parse_map
from adjudicator.diplomacy.model import UnitType
from adjudicator.errors import MapDataError

MAPS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "maps").glob("*.yaml")
              if not p.stem.endswith((".layout", ".geometry")))


@pytest.mark.parametrize("name", MAPS)
def test_edges_are_symmetric_and_typed(name: str) -> None:
    graph = load_map(name)
    for a, b in graph.army_graph.edges:
        assert graph.provinces[a].terrain != "sea" and graph.provinces[b].terrain != "sea"
    for a, b in graph.fleet_graph.edges:
        for loc in (a, b):
            assert graph.provinces[loc.split("/")[0]].terrain != "land"
    for pid, prov in graph.provinces.items():
        for coast in prov.coasts:
            assert coast.startswith(pid + "/")
            assert graph.has_location(coast)


def test_standard_counts() -> None:
    graph = load_map("standard")
    assert len(graph.provinces) == 75
    assert len(graph.supply_centres) == 34
    assert sum(p.terrain == "sea" for p in graph.provinces.values()) == 19
    assert sorted(c for p in graph.provinces.values() for c in p.coasts) == [
        "bul/ec", "bul/sc", "spa/nc", "spa/sc", "stp/nc", "stp/sc"]


@pytest.mark.parametrize("unit_type, a, b, adjacent", [
    (UnitType.ARMY, "gas", "mar", True),       # lowercase in DPjudge: armies only
    (UnitType.FLEET, "gas", "mar", False),
    (UnitType.FLEET, "por", "spa/nc", True),
    (UnitType.FLEET, "mar", "spa/nc", False),
    (UnitType.FLEET, "con", "bul/ec", True),
    (UnitType.FLEET, "bul/sc", "bla", False),
    (UnitType.ARMY, "swe", "fin", True),
    (UnitType.FLEET, "kie", "ber", True),
    (UnitType.ARMY, "lvp", "edi", True),
    (UnitType.FLEET, "lvp", "edi", False),
])
def test_standard_adjacency(unit_type: UnitType, a: str, b: str, adjacent: bool) -> None:
    assert load_map("standard").is_adjacent(unit_type, a, b) is adjacent


CASES = yaml.safe_load((Path(__file__).parent / "cases" / "maps" / "small-maps.yaml").read_text(encoding="utf-8"))


def _query(graph: MapGraph, query: str, args: list[Any]) -> Any:
    """One fact of a small map: a method called (a unit type given as 'A' or 'F'), or an attribute;
    'names.may_grow' reads through the map's name index."""
    value: Any = graph
    for part in query.split("."):
        value = getattr(value, part)
    if args:
        value = value(UnitType(args[0]), *args[1:]) if args[0] in ("A", "F") else value(*args)
    return _plain(value)


def _plain(value: Any) -> Any:
    """A value as YAML writes it: sets as sorted lists, tuples as lists."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("case", CASES["loads"], ids=[c["name"] for c in CASES["loads"]])
def test_small_map_facts(case: dict[str, Any]) -> None:
    graph = parse_map(case["map"], "small.yaml")
    got = [[query, *args, _query(graph, query, args)] for query, *args, _ in case["facts"]]
    assert got == case["facts"]


@pytest.mark.parametrize("case", CASES["faults"], ids=[c["error"] for c in CASES["faults"]])
def test_loader_reports_faults_with_file_and_entry(case: dict[str, Any]) -> None:
    with pytest.raises(MapDataError) as err:
        parse_map(case["map"], "bad.yaml")
    assert "bad.yaml" in str(err.value) and case["error"] in str(err.value)
