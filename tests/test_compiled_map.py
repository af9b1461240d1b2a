"""The compiled map, which keeps networkx off the per-phase path: the plain lookups validation and adjudication
read agree with the networkx graphs, which load only when asked for."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from adjudicator.diplomacy.mapgraph import load_map
from adjudicator.diplomacy.model import UnitType

MAPS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "maps").glob("*.yaml")
              if not p.stem.endswith((".layout", ".geometry")))


@pytest.mark.parametrize("name", MAPS)
def test_tables_agree_with_the_graphs(name: str) -> None:
    graph = load_map(name)
    army, fleet = graph.army_graph, graph.fleet_graph
    assert graph.army_adjacent == {n: frozenset(army.adj[n]) for n in army.nodes}
    assert graph.fleet_adjacent == {n: frozenset(fleet.adj[n]) for n in fleet.nodes}
    seas = [n for n in fleet.nodes if graph.provinces[n.split("/")[0]].terrain == "sea"]
    components = {frozenset(c) for c in nx.connected_components(fleet.subgraph(seas))}
    numbered: dict[int, set[str]] = {}
    for sea, number in graph.sea_component.items():
        numbered.setdefault(number, set()).add(sea)
    assert {frozenset(c) for c in numbered.values()} == components
    for pid, prov in graph.provinces.items():
        spots = sorted(prov.coasts) if prov.coasts else ([] if prov.terrain == "land" else [pid])
        assert graph.fleet_locations(pid) == spots
        touching = {n for loc in spots for n in fleet.adj[loc] if graph.provinces[n.split("/")[0]].terrain == "sea"}
        assert graph.seas_touching[pid] == touching
        for loc in (pid, *prov.coasts):
            assert graph.province_of(loc) == pid
            assert graph.is_sea(loc) is (prov.terrain == "sea")
    for loc in fleet.nodes:
        for pid in graph.provinces:
            reach = any(spot in fleet.adj[loc] for spot in graph.fleet_locations(pid))
            assert graph.province_adjacent(UnitType.FLEET, loc, pid) is reach


def test_graphs_are_built_once_on_first_use() -> None:
    graph = load_map("standard")
    assert graph.army_graph is graph.army_graph
    assert graph.fleet_graph is graph.fleet_graph
    assert graph.names is graph.names


def test_a_phase_never_imports_networkx() -> None:
    code = (
        "import sys\n"
        "from adjudicator.diplomacy.game import adjudicate_text\n"
        "from adjudicator.diplomacy.statefile import initial_state\n"
        "from adjudicator.rules import load_variant\n"
        "v = load_variant('standard')\n"
        "out = adjudicate_text(v, initial_state(v), 'France:\\nA par - bur\\nF bre - mao\\nA mar S A par - bur\\n')\n"
        "assert out.next_state.units['bur'].power == 'france'\n"
        "print('networkx' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
