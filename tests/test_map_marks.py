"""On a map with orders drawn, no arrowhead and no dislodged unit covers
another unit's marker or a province's label (measured on the SVG itself), and
the legend explains every mark the map can carry."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from test_render import with_minors

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.model import UnitType
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.state import GameState, Unit
from adjudicator.diplomacy.variant import Variant
from adjudicator.output.map_marks import Box, overlaps, points_box
from adjudicator.output.render import render_svg
from adjudicator.output.render_territory import LABEL_FONT

SVG = "{http://www.w3.org/2000/svg}"


def crowded_turn(variant: Variant, base: GameState, seed: int) -> PhaseOutcome:
    """A movement phase with units on about half the board, each moving,
    supporting or holding at random: many arrows, bounces and dislodgements."""
    rng = random.Random(seed)
    graph = variant.map
    state = base.copy() if hasattr(base, "copy") else base
    powers = sorted(variant.powers)
    free = sorted(p for p in graph.provinces if p not in state.units)
    for prov in rng.sample(free, len(free) // 2):
        terrain = graph.provinces[prov].terrain
        kind = UnitType.ARMY if terrain == "land" else UnitType.FLEET if terrain == "sea" else \
            rng.choice([UnitType.ARMY, UnitType.FLEET])
        locations = graph.fleet_locations(prov) if kind is UnitType.FLEET else [prov]
        if not locations:
            continue
        state.units[prov] = Unit(rng.choice(powers), kind, rng.choice(sorted(locations)))
    lines: dict[str, list[str]] = {p: [] for p in powers}
    moves: dict[str, tuple[Unit, str]] = {}      # mover's province -> (unit, target)
    ordered = [p for p in sorted(state.units) if state.units[p].power in variant.powers]
    for prov in ordered:
        unit = state.units[prov]
        near = reach(variant, unit)
        if near and rng.random() < 0.5:
            moves[prov] = (unit, rng.choice(near))
            lines[unit.power].append(f"{unit.type.value} {unit.location} - {moves[prov][1]}")
    for prov in ordered:
        if prov in moves:
            continue
        unit = state.units[prov]
        me = f"{unit.type.value} {unit.location}"
        near = {loc.split("/")[0] for loc in reach(variant, unit)}
        helped = [(u, t) for u, t in moves.values() if t.split("/")[0] in near]
        if helped and rng.random() < 0.8:
            other, target = rng.choice(helped)
            lines[unit.power].append(f"{me} S {other.type.value} {other.location} - {target.split('/')[0]}")
        else:
            lines[unit.power].append(f"{me} H")
    text = "".join(f"{p}:\n" + "\n".join(ls) + "\n" for p, ls in lines.items() if ls)
    return adjudicate_text(variant, state, text)


def reach(variant: Variant, unit: Unit) -> list[str]:
    graph = variant.map
    return sorted(graph.army_adjacent.get(unit.location, ()) if unit.type is UnitType.ARMY
                  else graph.fleet_adjacent.get(unit.location, ()))


def marker_box(group: ET.Element) -> Box:
    shape = group.find(f"{SVG}rect")
    if shape is not None:
        x, y = float(shape.get("x") or 0), float(shape.get("y") or 0)
        return x, y, x + float(shape.get("width") or 0), y + float(shape.get("height") or 0)
    poly = group.find(f"{SVG}polygon")
    assert poly is not None
    return points_box([(float(a), float(b)) for a, b in (p.split(",") for p in (poly.get("points") or "").split())])


def label_box(text: ET.Element) -> Box:
    # As render_territory.label_box: DejaVu Sans bold glyphs average about 0.68 em.
    x, y = float(text.get("x") or 0), float(text.get("y") or 0)
    w = 0.68 * LABEL_FONT * len(text.text or "")
    return x - w / 2, y - LABEL_FONT * 0.8, x + w / 2, y + LABEL_FONT * 0.2


def shrink(box: Box, by: float = 0.5) -> Box:
    """A box less a half-pixel rim: touching edges are not an overlap."""
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


def clashes(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    units = {g.get("id", "")[5:]: marker_box(g) for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    dislodged = {g.get("id", ""): marker_box(g) for g in root.iter(f"{SVG}g") if g.get("class") == "dislodged"}
    labels = {t.get("id", ""): label_box(t) for t in root.iter(f"{SVG}text") if t.get("class") == "label"}
    out = []
    for order in root.iter(f"{SVG}g"):
        if not (order.get("class") or "").startswith("order"):
            continue
        # The order's own unit, where it stood and where it moved to.
        own = (order.get("data-unit") or "").replace("/", "-")
        moved_to = (order.get("data-moved-to") or "").replace("/", "-")
        for head in order.iter(f"{SVG}polygon"):
            if head.get("class") != "arrowhead":
                continue
            box = shrink(points_box([(float(a), float(b)) for a, b in
                                     (p.split(",") for p in (head.get("points") or "").split())]))
            out += [f"arrowhead of {own} on unit {u}" for u, ub in units.items()
                    if u not in (own, moved_to) and overlaps(box, ub)]
            out += [f"arrowhead of {own} on {lab}" for lab, lb in labels.items() if overlaps(box, lb)]
            out += [f"arrowhead of {own} on {d}" for d, db in dislodged.items() if overlaps(box, db)]
    for d, db in dislodged.items():
        box = shrink(db)
        out += [f"{d} on unit {u}" for u, ub in units.items() if overlaps(box, ub)]
        out += [f"{d} on {lab}" for lab, lb in labels.items() if overlaps(box, lb)]
    return out


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
@pytest.mark.parametrize("seed", range(6))
def test_no_arrowhead_or_dislodged_unit_covers_a_unit_or_label(variant_name: str, seed: int) -> None:
    variant, state = with_minors(variant_name)
    outcome = crowded_turn(variant, state, seed)
    after = outcome.next_state
    svg = render_svg(variant, after, outcome, title="T")
    root = ET.fromstring(svg)
    heads = [e for e in root.iter(f"{SVG}polygon") if e.get("class") == "arrowhead"]
    assert len(heads) > 15 and after.dislodged       # the test saw a crowded board
    assert clashes(svg) == []


def test_standoff_build_and_disband_have_their_own_marks() -> None:
    from adjudicator.diplomacy.statefile import initial_state
    from adjudicator.rules import load_variant
    variant = load_variant("standard")
    spring = adjudicate_text(variant, initial_state(variant), "france:\nA par - bur\ngermany:\nA mun - bur\n")
    root = ET.fromstring(render_svg(variant, spring.next_state, spring))
    ids = {e.get("id") for e in root.iter()}
    assert "standoff-bur" in ids and not {i for i in ids if i and i.startswith("standoff-") and i != "standoff-bur"}
    # A winter: France (with Spain, and Paris empty) builds, Germany (one centre short after losing Munich) disbands.
    state = initial_state(variant).copy()
    state.phase = state.phase.__class__.from_slug("1901-winter-adjustment")
    state.centres["spa"] = "france"
    state.centres["mun"] = "russia"
    del state.units["mun"]
    del state.units["par"]          # Paris empty, so France may build there
    state.units["sil"] = Unit("germany", UnitType.ARMY, "sil")
    winter = adjudicate_text(variant, state, "france:\nbuild A par\ngermany:\nremove A sil\n")
    root = ET.fromstring(render_svg(variant, winter.next_state, winter))
    kinds = {(g.get("class") or ""): g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("order")}
    assert set(kinds) >= {"order build", "order disband"}, set(kinds)
    # A disband is not a failure: no red cross on it.
    assert kinds["order disband"].find(f".//{SVG}g[@class='failed']") is None


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_legend_explains_every_mark(variant_name: str) -> None:
    variant, state = with_minors(variant_name)
    ids = {e.get("id") for e in ET.fromstring(render_svg(variant, state)).iter()}
    wanted = {"legend-build", "legend-disband", "legend-standoff", "legend-dislodged"}
    if variant_name == "ambition-empire":
        wanted.add("legend-crossing")
    assert wanted <= ids
