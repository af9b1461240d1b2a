"""Territory borders agree with the rules.

The adjacency is derived here, in pure Python, from the committed polygons of
maps/<map>.geometry.yaml: two regions touch where their boundaries run
together (within a fraction of a pixel) for longer than a threshold. That is
compared with the map graph: two land provinces share a border iff armies may
move between them; a sea touches exactly the provinces and seas a fleet may
reach from it; each split coast touches exactly its own seas. Exceptions are
listed, with reasons, under geography.adjacency_exceptions in the layout file."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from adjudicator.diplomacy.mapgraph import MAPS_DIR, MapGraph, load_map
from adjudicator.diplomacy.model import province_of
from adjudicator.store.storage import read_yaml

Pt = tuple[float, float]
Seg = tuple[Pt, Pt]
CONTACT_KM = 15.0       # shortest real contact (Denmark-Sweden) is 18 km
SNAP_PX = 0.35          # boundaries closer than this run together
CELL = 6.0              # grid cell for the segment index, px

MAPS_WITH_GEOMETRY = sorted(p.name.removesuffix(".geometry.yaml") for p in MAPS_DIR.glob("*.geometry.yaml"))


def parse_ring(ring: str) -> list[Pt]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in ring.split())]


def ring_segments(ring: str, closed: bool = True) -> list[Seg]:
    pts = parse_ring(ring)
    ends = pts[1:] + pts[:1] if closed else pts[1:]
    return [(a, b) for a, b in zip(pts, ends) if a != b]


def seg_point_distance(p: Pt, seg: Seg) -> float:
    (ax, ay), (bx, by) = seg
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / d2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


class SegmentIndex:
    """Boundary segments of every region, bucketed on a grid."""

    def __init__(self, regions: dict[str, list[Seg]]) -> None:
        self.grid: dict[tuple[int, int], list[tuple[str, Seg]]] = defaultdict(list)
        for rid, segs in regions.items():
            for seg in segs:
                (ax, ay), (bx, by) = seg
                for gx in range(int(min(ax, bx) // CELL) - 1, int(max(ax, bx) // CELL) + 2):
                    for gy in range(int(min(ay, by) // CELL) - 1, int(max(ay, by) // CELL) + 2):
                        self.grid[(gx, gy)].append((rid, seg))

    def regions_near(self, p: Pt) -> set[str]:
        cell = (int(p[0] // CELL), int(p[1] // CELL))
        return {rid for rid, seg in self.grid.get(cell, ()) if seg_point_distance(p, seg) <= SNAP_PX}


def contacts(segments: dict[str, list[Seg]], index: SegmentIndex) -> dict[frozenset[str], float]:
    """Length of shared boundary for every pair of regions, measured along the
    first region's segments (sampled at quarter points, so a vertex one side
    has and the other lacks does not matter)."""
    shared: dict[frozenset[str], float] = defaultdict(float)
    for rid, segs in segments.items():
        for a, b in segs:
            length = math.hypot(b[0] - a[0], b[1] - a[1])
            for t in (0.25, 0.5, 0.75):
                p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                for other in index.regions_near(p) - {rid}:
                    shared[frozenset((rid, other))] += length / 3 / 2     # each pair is seen from both sides
    return shared


def load(map_name: str) -> tuple[MapGraph, dict[str, Any], dict[str, Any]]:
    graph = load_map(map_name)
    geometry = read_yaml(MAPS_DIR / f"{map_name}.geometry.yaml", max_bytes=4 * 1024 * 1024)
    layout = read_yaml(MAPS_DIR / f"{map_name}.layout.yaml")
    return graph, geometry, layout.get("geography") or {}


def derived_differences(map_name: str) -> tuple[list[str], list[tuple[str, str]], dict[tuple[str, str], str]]:
    """Differences between the polygons and the graph, as readable lines, and the
    raw pairs (sorted ids; a coast's pairs use the coast id)."""
    graph, geometry, geo = load(map_name)
    threshold = CONTACT_KM / float(geometry["km_per_px"])
    segments: dict[str, list[Seg]] = {}
    for pid, entry in geometry["provinces"].items():
        segments[pid] = [s for ring in entry["rings"] for s in ring_segments(ring)]
    for oid, entry in (geometry.get("off_board") or {}).items():
        segments[f"off:{oid}"] = [s for ring in entry["rings"] for s in ring_segments(ring)]
    index = SegmentIndex(segments)
    shared = contacts(segments, index)
    touching = {pair for pair, length in shared.items() if length >= threshold}

    def is_sea(pid: str) -> bool:
        return pid in graph.provinces and graph.provinces[pid].terrain == "sea"

    found: set[tuple[str, str]] = set()
    for contact in touching:
        a, b = sorted(contact)
        if a.startswith("off:") or b.startswith("off:"):
            continue                     # off-board land borders anything
        if is_sea(a) or is_sea(b) or (graph.provinces[a].terrain != "sea" and graph.provinces[b].terrain != "sea"):
            found.add((a, b))
    # Expected: army edges between land provinces; fleet edges of seas, coasts folded in.
    expected: set[tuple[str, str]] = set()
    for a, b in graph.army_graph.edges:
        expected.add((min(a, b), max(a, b)))
    for a, b in graph.fleet_graph.edges:
        pa, pb = province_of(a), province_of(b)
        if is_sea(pa) or is_sea(pb):
            expected.add((min(pa, pb), max(pa, pb)))
    # Land-land contacts that are fleet-only (none in Standard) would show here as extra.
    # Split coasts: which seas each coast's lines run along.
    for pid, entry in geometry["provinces"].items():
        for loc, coast in (entry.get("coasts") or {}).items():
            lines = [s for line in coast["lines"] for s in ring_segments(line, closed=False)]
            along: dict[str, float] = defaultdict(float)
            for p, q in lines:
                length = math.hypot(q[0] - p[0], q[1] - p[1])
                for other in index.regions_near(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)):
                    if is_sea(other):
                        along[other] += length
            for sea, length in along.items():
                if length >= threshold:
                    found.add((min(loc, sea), max(loc, sea)))
            for n in graph.fleet_adjacent.get(loc, ()):
                if is_sea(n):
                    expected.add((min(loc, n), max(loc, n)))
    exceptions: dict[tuple[str, str], str] = {}
    for e in geo.get("adjacency_exceptions") or []:
        x, y = sorted(str(v) for v in e["between"])
        exceptions[(x, y)] = str(e["reason"])
    lines_out = []
    raw = []
    for a, b in sorted(found ^ expected):
        pair = (a, b)
        raw.append(pair)
        if pair in exceptions:
            continue
        length = shared.get(frozenset((province_of(a), province_of(b))), 0.0) * float(geometry["km_per_px"])
        name = f"{graph.full_name(a)} ({a}) - {graph.full_name(b)} ({b})"
        if pair in found:
            lines_out.append(f"polygons touch ({length:.0f} km) but the map has no edge: {name}")
        else:
            lines_out.append(f"the map has an edge but the polygons touch for {length:.0f} km only: {name}")
    return lines_out, raw, exceptions


@pytest.mark.parametrize("map_name", MAPS_WITH_GEOMETRY)
def test_borders_agree_with_the_map_graph(map_name: str) -> None:
    differences, raw, exceptions = derived_differences(map_name)
    print(f"{map_name}: {len(raw)} differences before exceptions, {len(exceptions)} exceptions listed")
    for pair, reason in sorted(exceptions.items()):
        print(f"  exception {pair[0]}-{pair[1]}: {reason}")
    assert not differences, "\n".join(differences)
    stale = sorted(set(exceptions) - set(raw))
    assert not stale, f"exceptions that are no longer differences: {stale}"


@pytest.mark.parametrize("map_name", MAPS_WITH_GEOMETRY)
def test_every_province_has_a_shape(map_name: str) -> None:
    graph, geometry, _ = load(map_name)
    assert set(geometry["provinces"]) == set(graph.provinces)
    for pid, prov in graph.provinces.items():
        coasts = set(geometry["provinces"][pid].get("coasts") or {})
        assert coasts == set(prov.coasts), pid


def test_segment_matching_is_tolerant_of_vertex_differences() -> None:
    # Two squares sharing an edge where only one side has a midpoint vertex.
    a = ["0,0 10,0 10,5 10,10 0,10"]
    b = ["10,0 20,0 20,10 10,10"]
    segs = {"a": [s for r in a for s in ring_segments(r)], "b": [s for r in b for s in ring_segments(r)]}
    shared = contacts(segs, SegmentIndex(segs))
    assert shared[frozenset(("a", "b"))] == pytest.approx(10.0)
    assert len(shared) == 1


def test_no_geometry_dependency_at_run_time() -> None:
    import adjudicator.output.render_territory as rt
    source = Path(rt.__file__).read_text(encoding="utf-8")
    assert "shapely" not in source and "numpy" not in source


def test_the_contacts_measured_on_standard_are_the_real_ones() -> None:
    """The derivation has teeth: known short borders are found, straits that
    separate seas keep them apart, and the Clyde-North Sea sliver is below the
    threshold."""
    graph, geometry, _ = load("standard")
    km = float(geometry["km_per_px"])
    segments = {pid: [s for ring in e["rings"] for s in ring_segments(ring)] for pid, e in geometry["provinces"].items()}
    shared = contacts(segments, SegmentIndex(segments))

    def length(a: str, b: str) -> float:
        return shared.get(frozenset((a, b)), 0.0) * km

    assert length("den", "swe") >= CONTACT_KM           # across the Oresund, which Denmark owns
    assert length("lyo", "tus") >= CONTACT_KM
    assert length("ska", "bal") == 0 and length("aeg", "bla") == 0
    assert length("mun", "nth") == 0 and length("bur", "eng") == 0      # inland stays inland
    assert length("cly", "nth") < CONTACT_KM
    assert length("par", "bur") > 100 and length("mao", "nao") > 100
    touching = {p for p, v in shared.items() if v * km >= CONTACT_KM}
    expected = {frozenset(e) for e in graph.army_graph.edges}
    assert expected <= touching
