"""Invariants over every map in maps/, plus the Standard map's facts."""
from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.diplomacy.mapgraph import load_map, parse_map
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


@pytest.mark.parametrize("data, fragment", [
    ({"provinces": {"aaa": {"name": "A", "terrain": "land", "army": ["bbb"]},
                    "bbb": {"name": "B", "terrain": "land", "army": []}}}, "not listed back"),
    ({"provinces": {"aaa": {"name": "A", "terrain": "land", "army": ["zzz"]}}}, "unknown province"),
    ({"provinces": {"aaa": {"name": "A", "terrain": "lava"}}}, "terrain"),
    ({"provinces": {"aaa": {"name": "A", "terrain": "sea", "fleet": ["bbb"]},
                    "bbb": {"name": "B", "terrain": "coast", "coasts": {"nc": {"fleet": []}}}}}, "name the coast"),
])
def test_loader_reports_faults_with_file_and_entry(data: dict, fragment: str) -> None:
    with pytest.raises(MapDataError) as err:
        parse_map(data, "bad.yaml")
    assert "bad.yaml" in str(err.value) and fragment in str(err.value)
