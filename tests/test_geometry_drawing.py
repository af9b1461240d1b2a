"""The territory map reads: unit letters legible on their colours, labels and
symbols never on top of one another (the colours themselves: test_palette.py)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from adjudicator.diplomacy.mapgraph import MAPS_DIR, MapGraph, load_map
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import VARIANTS_DIR
from adjudicator.output.colours import minor_colour, power_colours, text_colour
from adjudicator.output.render import render_svg
from adjudicator.output.render_territory import Geometry, geometry_for, label_box
from adjudicator.rules import load_variant
from adjudicator.store.storage import read_yaml

SVG = "{http://www.w3.org/2000/svg}"
# Every map with territory geometry, and every Diplomacy variant drawn on one:
# a new variant's map is checked as soon as its files are in place.
MAPS_WITH_GEOMETRY = sorted(p.name.removesuffix(".geometry.yaml") for p in MAPS_DIR.glob("*.geometry.yaml"))
DRAWN_VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml")
                        if (read_yaml(p) or {}).get("map") in MAPS_WITH_GEOMETRY)


def relative_luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("variant_name", DRAWN_VARIANTS)
def test_unit_letters_contrast_with_their_colour(variant_name: str) -> None:
    variant = load_variant(variant_name)
    colours = [*power_colours(variant).values(), minor_colour(variant)]
    for colour in colours:
        # The letter on a unit is black or white, whichever the renderer picks;
        # WCAG's 3:1 is the floor for large bold text.
        assert contrast(colour, text_colour(colour)) >= 3.0, colour


def boxes(geo: Geometry) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for pid, shape in geo.provinces.items():
        out[f"label {pid}"] = label_box(geo, pid)
        x, y = shape.unit
        out[f"unit {pid}"] = (x - 13, y - 10, x + 13, y + 10)
        if shape.centre is not None:
            cx, cy = shape.centre
            out[f"centre {pid}"] = (cx - 6.5, cy - 6.5, cx + 6.5, cy + 6.5)
        for loc, coast in shape.coasts.items():
            x, y = coast.unit
            out[f"unit {loc}"] = (x - 13, y - 10, x + 13, y + 10)
    return out


@pytest.mark.parametrize("map_name", MAPS_WITH_GEOMETRY)
def test_labels_and_symbols_do_not_overlap(map_name: str) -> None:
    geo = geometry_for(load_map(map_name))
    assert geo is not None
    placed = boxes(geo)
    names = sorted(placed)
    clashes = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p, q = placed[a], placed[b]
            if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]:
                clashes.append(f"{a} / {b}")
    assert not clashes, clashes
    for name, (x0, y0, x1, y1) in placed.items():
        assert 0 <= x0 and x1 <= geo.width and 0 <= y0 and y1 <= geo.height, name


def test_territory_map_fills_provinces_by_owner() -> None:
    variant = load_variant("standard")
    state = initial_state(variant)
    root = ET.fromstring(render_svg(variant, state, title="T"))
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    from adjudicator.output.render_territory import LAND_FILL, SEA_FILL, TINT, mix
    assert by_id["prov-par"].get("fill") == mix(power_colours(variant)["france"], TINT)
    # No centre, but French land from the start (the default map_style, territories) ...
    assert by_id["prov-bur"].get("fill") == by_id["prov-par"].get("fill")
    assert by_id["prov-naf"].get("fill") == LAND_FILL       # ... while North Africa is nobody's
    centres_only = ET.fromstring(render_svg(variant, state, title="T", map_style="centres"))
    assert {e.get("id"): e.get("fill") for e in centres_only.iter()}["prov-bur"] == LAND_FILL
    assert by_id["prov-nth"].get("fill") == SEA_FILL
    assert by_id["offboard-swi"].get("class") == "off-board impassable"
    # A fleet on a split coast stands on that coast.
    geo = geometry_for(variant.map)
    assert geo is not None
    stp = by_id["unit-stp-sc"]
    x, _ = geo.provinces["stp"].coasts["stp/sc"].unit
    poly = stp.find(f"{SVG}polygon")
    assert poly is not None
    xs = [float(p.split(",")[0]) for p in (poly.get("points") or "").split()]
    assert abs(sum(xs) / len(xs) - x) < 3
    assert len([e for e in root.iter() if (e.get("class") or "") == "split-coast"]) == 6


def test_graph_style_still_draws_the_schematic() -> None:
    variant = load_variant("standard")
    root = ET.fromstring(render_svg(variant, initial_state(variant), title="T", style="graph"))
    ids = {e.get("id") for e in root.iter()}
    assert "edges" in ids and "territories" not in ids
    with pytest.raises(ValueError):
        render_svg(variant, initial_state(variant), style="nonsense")


def inside(point: tuple[float, float], rings: tuple[str, ...]) -> bool:
    """Even-odd point in polygon over all rings (holes included)."""
    from adjudicator.output.render_territory import ring_points
    x, y = point
    result = False
    for ring in rings:
        pts = ring_points(ring)
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
    return result


# Holstein (Ambition & Empire) is too narrow, even at 1500 px, for fleets on
# both its coasts to stand apart inside it: they stand just off their coasts,
# and its label beside it.
OFFSHORE = {"ambition-empire": {"hst hst/ec", "hst hst/wc", "hst label"}}


@pytest.mark.parametrize("map_name", MAPS_WITH_GEOMETRY)
def test_units_labels_and_centres_stand_in_their_province(map_name: str) -> None:
    geo = geometry_for(load_map(map_name))
    assert geo is not None
    outside = set()
    for pid, shape in geo.provinces.items():
        points = {"unit": shape.unit, "label": (shape.label[0], shape.label[1] - 4), "centre": shape.centre}
        points.update({loc: coast.unit for loc, coast in shape.coasts.items()})
        outside |= {f"{pid} {what}" for what, p in points.items() if p is not None and not inside(p, shape.rings)}
    assert outside == OFFSHORE.get(map_name, set())


def _is_edge(graph: MapGraph, a: str, b: str) -> bool:
    return any(graph.army_graph.has_edge(x, y) or graph.fleet_graph.has_edge(x, y)
               for x in (a, *graph.provinces[a].coasts) for y in (b, *graph.provinces[b].coasts))


def _nearest_vertex(point: tuple[float, float], rings: tuple[str, ...]) -> float:
    from adjudicator.output.render_territory import ring_points
    return min(math.hypot(point[0] - x, point[1] - y) for ring in rings for x, y in ring_points(ring))


CROSSINGS = {"standard": set(), "ambition-empire": {("and", "mor"), ("edi", "ire")},
             "ancient-mediterranean": {("aus", "tyn"), ("gop", "thb"), ("got", "mes")}}


@pytest.mark.parametrize("map_name", MAPS_WITH_GEOMETRY)
def test_every_move_without_a_border_is_drawn(map_name: str) -> None:
    """Each pair of spaces the map joins whose shapes share no border (as
    measured from the polygons) is drawn as a crossing that runs from one
    shape to the other."""
    from test_geometry_adjacency import derived_differences
    graph = load_map(map_name)
    geo = geometry_for(graph)
    assert geo is not None
    _, differences, _ = derived_differences(map_name)
    unbordered = {(a, b) for a, b in differences
                  if a in graph.provinces and b in graph.provinces and _is_edge(graph, a, b)}
    assert unbordered == CROSSINGS.get(map_name, unbordered)
    variant = next(load_variant(v) for v in DRAWN_VARIANTS if load_variant(v).map.name == graph.name)
    root = ET.fromstring(render_svg(variant, initial_state(variant)))
    drawn = {e.get("id"): e for e in root.iter() if (e.get("class") or "") == "crossing"}
    assert set(drawn) == {f"crossing-{a}-{b}" for a, b in unbordered}
    for a, b in unbordered:
        lines = drawn[f"crossing-{a}-{b}"].findall(f"{SVG}line")
        assert lines, (a, b)
        x1, y1, x2, y2 = (float(lines[-1].get(k) or "nan") for k in ("x1", "y1", "x2", "y2"))
        assert _nearest_vertex((x1, y1), geo.provinces[a].rings) <= 12, (a, b)
        assert _nearest_vertex((x2, y2), geo.provinces[b].rings) <= 12, (a, b)
