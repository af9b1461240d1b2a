"""The crossings of a territory map: moves the rules allow between two spaces
whose shapes share no border (Ambition & Empire's Edinburgh-Ireland across
the Straits of Moyle; Ancient Mediterranean's seas meeting at a corner).

They are the layout's `geography.adjacency_exceptions` that are edges of the
map (an exception can also be a border the map has no edge for, which is not
drawn). For each, the geometry gets the shortest line between the two
shapes' vertices, which the map draws (adjudicator/output/render_territory.py).
tools/build_map_geometry.py calls add_crossings; run on its own, this adds
them to a committed geometry file without rebuilding it (no shapely needed):

    python tools/map_crossings.py ambition-empire
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import yaml

from adjudicator.diplomacy.mapgraph import MapGraph, load_map

ROOT = Path(__file__).resolve().parent.parent


def _vertices(rings: list[str]) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for ring in rings for x, y in (p.split(",") for p in ring.split())]


def _is_edge(graph: MapGraph, a: str, b: str) -> bool:
    """Whether the map lets some unit move between provinces a and b (coasts folded in)."""
    return any(graph.army_graph.has_edge(x, y) or graph.fleet_graph.has_edge(x, y)
               for x in (a, *graph.provinces[a].coasts) for y in (b, *graph.provinces[b].coasts))


def crossing_line(rings_a: list[str], rings_b: list[str]) -> list[float]:
    """[x1, y1, x2, y2]: the closest pair of vertices, first from a, then from b."""
    best: tuple[float, tuple[float, float], tuple[float, float]] | None = None
    vb = _vertices(rings_b)
    for p in _vertices(rings_a):
        for q in vb:
            d = math.hypot(p[0] - q[0], p[1] - q[1])
            if best is None or d < best[0]:
                best = (d, p, q)
    assert best is not None, "a shape without vertices"
    _, p, q = best
    return [round(p[0], 1), round(p[1], 1), round(q[0], 1), round(q[1], 1)]


def add_crossings(result: dict[str, Any], geography: dict[str, Any], graph: MapGraph) -> None:
    """result["crossings"]: [{between: [a, b], line: [x1, y1, x2, y2]}], a < b, sorted."""
    crossings = []
    for exception in geography.get("adjacency_exceptions") or []:
        a, b = sorted(str(v) for v in exception["between"])
        if _is_edge(graph, a, b):
            line = crossing_line(result["provinces"][a]["rings"], result["provinces"][b]["rings"])
            crossings.append({"between": [a, b], "line": line})
    if crossings:
        result["crossings"] = sorted(crossings, key=lambda c: c["between"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", help="map name, e.g. ambition-empire")
    args = parser.parse_args(argv)
    path = ROOT / "maps" / f"{args.map}.geometry.yaml"
    result = yaml.safe_load(path.read_text(encoding="utf-8"))
    layout = yaml.safe_load((ROOT / "maps" / f"{args.map}.layout.yaml").read_text(encoding="utf-8"))
    result.pop("crossings", None)
    add_crossings(result, layout.get("geography") or {}, load_map(args.map))
    path.write_text(yaml.safe_dump(result, sort_keys=False, width=160, allow_unicode=True,
                                   default_flow_style=None), encoding="utf-8")
    print(f"{path}: {len(result.get('crossings') or [])} crossings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
