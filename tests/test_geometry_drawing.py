"""The territory map reads: power colours told apart (CIEDE2000), unit letters
legible on their colours, labels and symbols never on top of one another."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from adjudicator.diplomacy.mapgraph import MAPS_DIR, load_map
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import VARIANTS_DIR
from adjudicator.output.colours import MINOR_COLOUR, power_colours, text_colour
from adjudicator.output.render import render_svg
from adjudicator.output.render_territory import Geometry, geometry_for, label_box
from adjudicator.rules import load_variant
from adjudicator.store.storage import read_yaml

SVG = "{http://www.w3.org/2000/svg}"
MIN_DELTA_E = 15.0
# Every map with territory geometry, and every Diplomacy variant drawn on one:
# a new variant's map is checked as soon as its files are in place.
MAPS_WITH_GEOMETRY = sorted(p.name.removesuffix(".geometry.yaml") for p in MAPS_DIR.glob("*.geometry.yaml"))
DRAWN_VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml")
                        if (read_yaml(p) or {}).get("map") in MAPS_WITH_GEOMETRY)


# --- CIEDE2000 (Sharma, Wu and Dalal 2005) ----------------------------------------------
def hex_to_lab(colour: str) -> tuple[float, float, float]:
    """sRGB hex -> CIE L*a*b* (D65)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def test_ciede2000_reference_pairs() -> None:
    # Sharma, Wu and Dalal's published test data, pairs 1, 7, 17 and 25.
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert ciede2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == pytest.approx(1.2644, abs=1e-4)


def relative_luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("variant_name", DRAWN_VARIANTS)
def test_power_colours_are_told_apart(variant_name: str) -> None:
    variant = load_variant(variant_name)
    colours = power_colours(variant)      # as drawn
    if variant.minor_powers:
        colours["(minor powers)"] = MINOR_COLOUR
    too_close = []
    names = sorted(colours)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = ciede2000(hex_to_lab(colours[a]), hex_to_lab(colours[b]))
            if d < MIN_DELTA_E:
                too_close.append(f"{a} {colours[a]} / {b} {colours[b]}: dE00 {d:.1f}")
    assert not too_close, "\n".join(too_close)


@pytest.mark.parametrize("variant_name", DRAWN_VARIANTS)
def test_unit_letters_contrast_with_their_colour(variant_name: str) -> None:
    variant = load_variant(variant_name)
    colours = [*power_colours(variant).values(), MINOR_COLOUR]
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
    from adjudicator.output.render_territory import LAND_FILL, SEA_FILL, mix
    assert by_id["prov-par"].get("fill") == mix(variant.powers["france"].colour, 0.45)
    assert by_id["prov-bur"].get("fill") == LAND_FILL       # no centre: neutral
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
