"""Territory maps: provinces drawn as their real shapes, from maps/<map>.geometry.yaml.

The geometry (one polygon per province and sea, off-board land, lakes, and
anchors for units, labels and supply-centre markers) is data generated once by
tools/build_map_geometry.py; this module only reads and draws it, with
svgwrite. Units, orders and the legend are drawn by the same helpers as the
schematic (`--style graph`) map in adjudicator/render.py."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.mapgraph import MAPS_DIR, MapGraph
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.store.storage import read_yaml

if TYPE_CHECKING:      # render.render_svg imports svgwrite when it draws
    import svgwrite
    from svgwrite.container import Group

Point = tuple[float, float]

SEA_FILL = "#b4d2ec"
LAND_FILL = "#f3ecd9"
OFF_BOARD_FILL = "#dcd8cf"
LAKE_FILL = "#cfe2f3"
BORDER = "#6b604b"
SEA_BORDER = "#7aa3c9"
COAST_LINE = "#10386b"
TINT = 0.4                 # a power's territory: its colour blended this far towards white
# What the land is tinted by. "territories": every land province by who holds
# it, a centre by its owner and other land by its controller (the last power
# to stand there), so a power's lands read as one country. "centres": only
# supply centres, by their owner; other land neutral.
MAP_STYLES = ("territories", "centres")
DEFAULT_MAP_STYLE = "territories"
LABEL_FONT = 11.0          # px; tools/build_map_geometry.py places labels for this size
FONT = "DejaVu Sans, Arial, sans-serif"


@dataclass(frozen=True)
class CoastShape:
    lines: tuple[str, ...]             # polylines "x,y x,y ..." along the coast
    unit: Point                        # where a fleet on this coast stands


@dataclass(frozen=True)
class ProvinceShape:
    rings: tuple[str, ...]             # outer rings and holes, "x,y x,y ..."
    unit: Point
    label: Point
    centre: Point | None
    coasts: dict[str, CoastShape]


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    provinces: dict[str, ProvinceShape]
    off_board: dict[str, tuple[str, tuple[str, ...], bool]]   # id -> (name, rings, impassable)
    lakes: tuple[str, ...]
    note: str = ""                     # drawn in the board's corner, e.g. where the shapes come from
    # Moves the rules allow between two spaces whose shapes share no border:
    # (a, b, (x1, y1, x2, y2)), the line from a's shape to b's.
    crossings: tuple[tuple[str, str, tuple[float, float, float, float]], ...] = ()

    def anchors(self) -> dict[str, Point]:
        """Where each province's and each coast's unit is drawn."""
        out = {pid: p.unit for pid, p in self.provinces.items()}
        for p in self.provinces.values():
            out.update({loc: c.unit for loc, c in p.coasts.items()})
        return out


def _point(value: Any) -> Point:
    return float(value[0]), float(value[1])


GEOMETRY = "render.geometry"          # graph.derived key: the map's parsed geometry


def parse_geometry(data: dict[str, Any]) -> Geometry:
    provinces: dict[str, ProvinceShape] = {}
    for pid, entry in (data.get("provinces") or {}).items():
        coasts = {str(loc): CoastShape(tuple(str(x) for x in c.get("lines", [])), _point(c["unit"]))
                  for loc, c in (entry.get("coasts") or {}).items()}
        provinces[str(pid)] = ProvinceShape(
            rings=tuple(str(r) for r in entry["rings"]), unit=_point(entry["unit"]), label=_point(entry["label"]),
            centre=_point(entry["centre"]) if "centre" in entry else None, coasts=coasts)
    off_board = {str(k): (str(v.get("name", k)), tuple(str(r) for r in v["rings"]), bool(v.get("impassable")))
                 for k, v in (data.get("off_board") or {}).items()}
    crossings = []
    for entry in data.get("crossings") or []:
        a, b = (str(v) for v in entry["between"])
        x1, y1, x2, y2 = (float(v) for v in entry["line"])
        crossings.append((a, b, (x1, y1, x2, y2)))
    width, height = data["canvas"]
    return Geometry(int(width), int(height), provinces, off_board, tuple(str(r) for r in data.get("lakes") or []),
                    str(data.get("note") or ""), tuple(crossings))


def geometry_path(graph: MapGraph) -> Path:
    source = Path(graph.source)
    path = source.with_name(source.stem + ".geometry.yaml")
    return path if path.exists() else MAPS_DIR / f"{source.stem}.geometry.yaml"


def geometry_for(graph: MapGraph) -> Geometry | None:
    """The map's territory geometry, or None if it has none (then the schematic
    is drawn). Read once per map and kept with it (graph.derived)."""
    if GEOMETRY in graph.derived:
        kept = graph.derived[GEOMETRY]
        return kept if isinstance(kept, Geometry) else None
    path = geometry_path(graph)
    geo = parse_geometry(read_yaml(path, keep=True)) if path.exists() else None
    graph.derived[GEOMETRY] = geo
    return geo


def ring_points(ring: str) -> list[Point]:
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in ring.split())]


def path_data(rings: tuple[str, ...]) -> str:
    """SVG path data: each ring 'x,y x,y ...' is already a polyline in SVG syntax."""
    return " ".join(f"M{ring}Z" for ring in rings)


def mix(colour: str, amount: float, other: str = "#ffffff") -> str:
    """`colour` blended towards `other` by `amount` (0 = colour, 1 = other)."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def land_holder(variant: Variant, state: GameState, pid: str, map_style: str = DEFAULT_MAP_STYLE) -> str | None:
    """The power whose tint a land province takes: a supply centre's owner;
    in the territories style, other land's controller. A unit standing on
    such land counts as controlling it (so a state written before control
    was kept draws its occupied land too)."""
    if variant.map.provinces[pid].supply_centre:
        return state.centres.get(pid)
    if map_style != "territories":
        return None
    unit = state.units.get(pid)
    return unit.power if unit is not None else state.control.get(pid)


def province_fill(variant: Variant, state: GameState, pid: str, owner_colour: dict[str, str],
                  map_style: str = DEFAULT_MAP_STYLE) -> str:
    """Seas blue; land held by a power in a tint of its colour (see land_holder); other land neutral."""
    if variant.map.provinces[pid].terrain == "sea":
        return SEA_FILL
    owner = land_holder(variant, state, pid, map_style)
    if owner is not None and owner in owner_colour:
        return mix(owner_colour[owner], TINT)
    return LAND_FILL


FRONTIERS = "render.frontiers"        # graph.derived key: the land borders, province pair -> polylines
FRONTIER = "#2e2a20"
FRONTIER_W = 2.2


def land_borders(variant: Variant, geo: Geometry) -> dict[tuple[str, str], tuple[str, ...]]:
    """Each border between two land provinces, as polylines "x,y x,y ...",
    keyed by the pair (in order). The geometry is one coverage, so two
    neighbours share their border's vertices exactly. Found once per map and
    kept with it (graph.derived)."""
    graph = variant.map
    kept = graph.derived.get(FRONTIERS)
    if isinstance(kept, dict):
        return kept
    land = sorted(pid for pid in geo.provinces if graph.provinces[pid].terrain != "sea")
    owners: dict[tuple[str, str], set[str]] = {}
    for pid in land:
        for ring in geo.provinces[pid].rings:
            points = ring.split()
            for a, b in zip(points, points[1:] + points[:1]):
                owners.setdefault((a, b) if a < b else (b, a), set()).add(pid)
    lines: dict[tuple[str, str], list[list[str]]] = {}
    for pid in land:
        for ring in geo.provinces[pid].rings:
            points = ring.split()
            for a, b in zip(points, points[1:] + points[:1]):
                other = owners.get((a, b) if a < b else (b, a), set()) - {pid}
                if len(other) != 1 or min(other) < pid:
                    continue            # a coast, or a border walked from the other side
                runs = lines.setdefault((pid, min(other)), [])
                if runs and runs[-1][-1] == a:
                    runs[-1].append(b)
                else:
                    runs.append([a, b])
    found = {pair: tuple(" ".join(run) for run in runs) for pair, runs in sorted(lines.items())}
    graph.derived[FRONTIERS] = found
    return found


def draw_frontiers(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState, geo: Geometry) -> None:
    """A stronger line where the land one power holds meets land another
    holds, or nobody's: where a power's territory ends is seen without its
    colour (two powers' tints can be close, for colour-blind eyes most)."""
    g = dwg.g(id="frontiers", fill="none", stroke=FRONTIER, stroke_width=FRONTIER_W, stroke_linecap="round",
              stroke_linejoin="round")
    for (a, b), runs in land_borders(variant, geo).items():
        if land_holder(variant, state, a) != land_holder(variant, state, b):
            g.add(dwg.path(d=" ".join(f"M{run}" for run in runs), class_="frontier"))
    board.add(g)


def label_text(pid: str) -> str:
    return pid[:1].upper() + pid[1:]


def draw_territories(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState, geo: Geometry,
                     owner_colour: dict[str, str], map_style: str = DEFAULT_MAP_STYLE) -> None:
    """Seas, land, off-board land, lakes, split-coast lines and labels."""
    graph = variant.map
    defs = dwg.defs
    hatch = dwg.pattern(id="impassable", size=(8, 8), patternUnits="userSpaceOnUse",
                        patternTransform="rotate(45)")
    hatch.add(dwg.rect((0, 0), (8, 8), fill=OFF_BOARD_FILL))
    hatch.add(dwg.line((0, 0), (0, 8), stroke="#8c8577", stroke_width=2.2))
    defs.add(hatch)
    g = dwg.g(id="territories", stroke_linejoin="round")
    for oid, (name, rings, impassable) in sorted(geo.off_board.items()):
        el = dwg.path(d=path_data(rings), id=f"offboard-{oid}", class_="off-board" + (" impassable" if impassable else ""),
                      fill="url(#impassable)" if impassable else OFF_BOARD_FILL, fill_rule="evenodd",
                      stroke=BORDER, stroke_width=0.6)
        el.set_desc(title=f"{name}: impassable" if impassable else f"{name} (off the board)")
        g.add(el)
    for sea_first in (True, False):
        for pid, shape in sorted(geo.provinces.items()):
            prov = graph.provinces[pid]
            if (prov.terrain == "sea") != sea_first:
                continue
            el = dwg.path(d=path_data(shape.rings), id=f"prov-{pid}", class_=f"province {prov.terrain}",
                          fill=province_fill(variant, state, pid, owner_colour, map_style), fill_rule="evenodd",
                          stroke=SEA_BORDER if sea_first else BORDER, stroke_width=0.7 if sea_first else 0.8)
            el.set_desc(title=prov.name)
            g.add(el)
    for i, ring in enumerate(geo.lakes):
        g.add(dwg.path(d=f"M{ring}Z", id=f"lake-{i}", class_="lake", fill=LAKE_FILL, stroke=SEA_BORDER,
                       stroke_width=0.5))
    board.add(g)
    coasts = dwg.g(id="split-coasts", fill="none")
    for pid, shape in sorted(geo.provinces.items()):
        for loc, coast in sorted(shape.coasts.items()):
            cg = dwg.g(id=f"coast-{loc.replace('/', '-')}", class_="split-coast")
            cg.set_desc(title=graph.full_name(loc))
            for line in coast.lines:
                pl = dwg.polyline(ring_points(line), stroke=COAST_LINE, stroke_width=2.6, stroke_linecap="round")
                pl["stroke-dasharray"] = "6,3"
                cg.add(pl)
            x, y = coast.unit
            cg.add(dwg.text(loc.split("/")[1].upper(), insert=(round(x, 1), round(y + 4, 1)), text_anchor="middle",
                            font_size=9, font_weight="bold", font_family=FONT, fill=COAST_LINE))
            coasts.add(cg)
    board.add(coasts)


CROSSING_COLOUR = "#3a2a10"
CROSSING_MIN = 22.0        # px: a crossing between shapes that meet at a point still shows


def crossing_ends(line: tuple[float, float, float, float]) -> tuple[Point, Point]:
    """The crossing's line, lengthened about its middle to at least CROSSING_MIN."""
    x1, y1, x2, y2 = line
    length = math.hypot(x2 - x1, y2 - y1)
    if length >= CROSSING_MIN:
        return (x1, y1), (x2, y2)
    ux, uy = ((x2 - x1) / length, (y2 - y1) / length) if length > 0 else (1.0, 0.0)
    mx, my, half = (x1 + x2) / 2, (y1 + y2) / 2, CROSSING_MIN / 2
    return (mx - ux * half, my - uy * half), (mx + ux * half, my + uy * half)


def crossing_mark(dwg: svgwrite.Drawing, a: Point, b: Point, **attrs: str) -> Group:
    """A crossing: a dark dashed line on a white casing, a dot at each end."""
    g = dwg.g(**attrs)
    ends = [(round(x, 1), round(y, 1)) for x, y in (a, b)]
    g.add(dwg.line(*ends, stroke="#ffffff", stroke_width=6, stroke_linecap="round", stroke_opacity=0.85))
    line = dwg.line(*ends, stroke=CROSSING_COLOUR, stroke_width=3, stroke_linecap="round")
    line["stroke-dasharray"] = "5,3"
    g.add(line)
    for end in ends:
        g.add(dwg.circle(end, 3.2, fill=CROSSING_COLOUR, stroke="#ffffff", stroke_width=1))
    return g


def draw_crossings(dwg: svgwrite.Drawing, board: Group, variant: Variant, geo: Geometry) -> None:
    """Each crossing of the map, so players see the moves no border shows."""
    if not geo.crossings:
        return
    g = dwg.g(id="crossings")
    for a, b, line in geo.crossings:
        mark = crossing_mark(dwg, *crossing_ends(line), id=f"crossing-{a}-{b}", class_="crossing")
        mark.set_desc(title=f"Crossing: {variant.map.provinces[a].name} - {variant.map.provinces[b].name}")
        g.add(mark)
    board.add(g)


def draw_note(dwg: svgwrite.Drawing, board: Group, geo: Geometry) -> None:
    """The geometry's note (where the shapes come from), in the board's lower left corner."""
    if geo.note:
        t = dwg.text(geo.note, insert=(8, geo.height - 8), id="map-note", font_family=FONT, font_size=11,
                     font_style="italic", fill="#333333", stroke="#ffffff", stroke_width=2.5, stroke_opacity=0.8)
        t["paint-order"] = "stroke"
        board.add(t)


def draw_labels(dwg: svgwrite.Drawing, board: Group, variant: Variant, geo: Geometry) -> None:
    # A white halo (stroke painted under the fill) keeps labels legible over arrows and rings.
    g = dwg.g(id="labels", font_family=FONT, font_size=LABEL_FONT, text_anchor="middle", stroke="#ffffff",
              stroke_width=2.2, stroke_opacity=0.75, stroke_linejoin="round")
    g["paint-order"] = "stroke"
    for pid, shape in sorted(geo.provinces.items()):
        prov = variant.map.provinces[pid]
        sea = prov.terrain == "sea"
        x, y = shape.label
        t = dwg.text(label_text(pid), insert=(round(x, 1), round(y, 1)), id=f"label-{pid}", class_="label",
                     fill="#1f4f7f" if sea else "#2e2a20", font_style="italic" if sea else "normal",
                     font_weight="normal" if sea else "bold")
        t.set_desc(title=prov.name)
        g.add(t)
    board.add(g)


def label_box(geo: Geometry, pid: str) -> tuple[float, float, float, float]:
    """The box a label covers (x0, y0, x1, y1), for overlap checks: DejaVu Sans
    bold glyphs average about 0.68 em."""
    x, y = geo.provinces[pid].label
    w = 0.68 * LABEL_FONT * len(label_text(pid))
    return x - w / 2, y - LABEL_FONT * 0.8, x + w / 2, y + LABEL_FONT * 0.2
