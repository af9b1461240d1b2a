"""SVG maps of a Diplomacy game state, drawn with svgwrite.

Two styles. "territory" (the default, where the map has maps/<map>.geometry.yaml):
every province drawn as its shape, land filled by who holds it (map_style
"territories": a centre's owner, other land's controller; "centres": centres only), with
anchors for units, labels and centre markers from the geometry file (see
adjudicator/render_territory.py). "graph": an honest schematic, each province a
round node at the position given in maps/<map>.layout.yaml (sea blue, coastal
green, inland beige), joined by faint adjacency edges (army edges solid,
fleet-only edges dashed). Units, supply centres and orders are drawn on top the
same way in both (render_orders); a side panel holds the legend (render_panel).
Colours are in `colours`, the shared drawing pieces in `drawing`.

Everything here is a pure function of its inputs and iterates in sorted order,
so the same state and orders always give the same bytes. Elements the tests
count carry ids: unit-<loc>, dislodged-<loc>, centre-<province>, prov-<province>."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.diplomacy.mapgraph import MAPS_DIR, MapGraph
from adjudicator.diplomacy.model import province_of
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import DataFileError
from adjudicator.output.colours import (
    colour_of,
    minor_colour,
    power_colours,
    text_colour,
)
from adjudicator.output.drawing import (
    ARMY_EDGE,
    COAST_FILL,
    COAST_R,
    FAIL_COLOUR,
    FLEET_EDGE,
    LAND_FILL,
    LAND_STROKE,
    NEUTRAL_CENTRE,
    NODE_R,
    SEA_FILL,
    SEA_STROKE,
    arrow,
    point,
    rounded,
    unit_letter,
    unit_symbol,
)
from adjudicator.output.map_marks import (
    DISLODGED_RING,
    DISLODGED_SCALE,
    Box,
    obstacles,
    place_dislodged,
    standoff_mark,
    standoffs,
)
from adjudicator.output.render_orders import draw_orders
from adjudicator.output.render_panel import PANEL_W, TITLE_H, draw_panel
from adjudicator.output.render_territory import DEFAULT_MAP_STYLE, MAP_STYLES
from adjudicator.store.storage import read_yaml

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

MAP_W, MAP_H = 1000, 800
# graph.derived key: what this module reads once per map and keeps with it.
LAYOUT = "render.layout"


def _read_layout(path: Path) -> dict[str, tuple[float, float]]:
    data = read_yaml(path, keep=True)
    entries = (data.get("positions") or {}) if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise DataFileError("a layout file maps 'positions:' to each location's [x, y]", file=str(path))
    try:
        return {str(k): (float(v[0]), float(v[1])) for k, v in entries.items()}
    except (TypeError, ValueError, IndexError, KeyError):
        raise DataFileError("each position is [x, y], two numbers", file=str(path)) from None


def layout_for(graph: MapGraph) -> dict[str, tuple[float, float]]:
    """Positions for every province and coast: maps/<map>.layout.yaml next to
    the map file, overridden by any `position` the map itself gives. Read once
    per map and kept with it (graph.derived)."""
    kept = graph.derived.get(LAYOUT)
    if isinstance(kept, dict):
        return dict(kept)
    source = Path(graph.source)
    beside = source.with_name(source.stem + ".layout.yaml")
    layout_path = beside if beside.exists() else MAPS_DIR / f"{source.stem}.layout.yaml"
    positions = _read_layout(layout_path) if layout_path.exists() else {}
    if not layout_path.exists():
        layout_path = beside            # where a missing layout file belongs
    for pid, prov in graph.provinces.items():
        if "position" in prov.drawing:
            x, y = prov.drawing["position"]
            positions[pid] = (float(x), float(y))
    missing = [loc for loc in _all_locations(graph) if loc not in positions]
    if missing:
        shown = ", ".join(sorted(missing)[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        raise DataFileError(f"no drawing position for {shown}", file=str(layout_path),
                            hint=f"give each an x, y under 'positions:' (or draw the map as territory: "
                                 f"{source.stem}.geometry.yaml); docs/variants.md shows how")
    graph.derived[LAYOUT] = positions
    return dict(positions)


def _all_locations(graph: MapGraph) -> list[str]:
    return sorted([*graph.provinces, *(c for p in graph.provinces.values() for c in p.coasts)])


# --- the drawing --------------------------------------------------------------------
STYLES = ("territory", "graph")


def render_svg(variant: Variant, state: GameState, outcome: PhaseOutcome | None = None, *,
               title: str = "", style: str = "territory", map_style: str = DEFAULT_MAP_STYLE) -> str:
    """The map of `state`, with `outcome.orders` drawn if given, as SVG text.

    style="territory" draws the provinces' shapes from maps/<map>.geometry.yaml
    (falling back to the schematic where a map has no geometry); style="graph"
    draws the schematic: round nodes joined by adjacency edges. map_style
    (game.yaml's) says which land a territory map tints: "territories" all
    land a power holds, "centres" only supply centres."""
    if style not in STYLES:
        raise ValueError(f"unknown map style {style!r}; choose from {', '.join(STYLES)}")
    if map_style not in MAP_STYLES:
        raise ValueError(f"unknown map_style {map_style!r}; choose from {', '.join(MAP_STYLES)}")
    # Imported here, not at the top: `status` and `check` never draw a map.
    from adjudicator.output.svgwrite_loader import defer_parser
    defer_parser()
    import svgwrite

    from adjudicator.output.render_territory import geometry_for
    geo = geometry_for(variant.map) if style == "territory" else None
    graph = variant.map
    map_w, map_h = (geo.width, geo.height) if geo is not None else (MAP_W, MAP_H)
    width, height = map_w + PANEL_W, map_h + TITLE_H
    dwg = svgwrite.Drawing(size=(f"{width}px", f"{height}px"), viewBox=f"0 0 {width} {height}", debug=False)
    dwg.add(dwg.rect((0, 0), (width, height), fill="#ffffff"))
    # With orders drawn, the map shows that phase's results, so name that phase.
    shown = f"{outcome.phase} results" if outcome is not None else str(state.phase)
    heading = f"{title}: {shown}" if title else shown
    dwg.add(dwg.text(f"{heading} ({variant.name})", insert=(14, 29), font_size=20, font_weight="bold",
                     font_family="DejaVu Sans, Arial, sans-serif", id="title"))
    board = dwg.g(id="map", transform=f"translate(0,{TITLE_H})")
    dwg.add(board)
    if geo is not None:
        from adjudicator.output.render_territory import (
            draw_crossings,
            draw_labels,
            draw_territories,
        )
        colours = power_colours(variant)
        colours.update({m: minor_colour(variant) for m in variant.minor_powers})
        draw_territories(dwg, board, variant, state, geo, colours, map_style)
        if map_style == "territories":
            from adjudicator.output.render_territory import draw_frontiers
            draw_frontiers(dwg, board, variant, state, geo)
        draw_crossings(dwg, board, variant, geo)
        pos = geo.anchors()
        centre_at = {c: geo.provinces[c].centre or geo.provinces[c].unit for c in graph.supply_centres}
    else:
        pos = layout_for(graph)
        board.add(dwg.rect((0, 0), (MAP_W, MAP_H), fill="#f4f7fa", stroke="#c8d0d8"))
        _draw_edges(dwg, board, graph, pos)
        _draw_provinces(dwg, board, graph, pos)
        centre_at = {c: (pos[c][0] + NODE_R * 0.85, pos[c][1] - NODE_R * 0.85) for c in graph.supply_centres}
    _draw_centres(dwg, board, variant, state, centre_at)
    orders = outcome.orders if outcome is not None else []
    _draw_units(dwg, board, variant, state, pos)
    # Dislodged units are placed first, then arrowheads stop short of every
    # unit marker and label, so that no mark covers another.
    taken = obstacles(state, pos, geo)
    dislodged_at = place_dislodged(state, pos, taken, (map_w, map_h), centre_at.values())
    if outcome is not None:
        _draw_standoffs(dwg, board, standoffs(orders, state), pos)
    draw_orders(dwg, board, variant, orders, pos, taken)
    if geo is not None:
        from adjudicator.output.render_territory import draw_note
        draw_labels(dwg, board, variant, geo)
        draw_note(dwg, board, geo)
    _draw_dislodged(dwg, board, variant, state, pos, dislodged_at, taken)
    draw_panel(dwg, variant, state, outcome, x0=map_w + 12, schematic=geo is None, map_style=map_style)
    return str(dwg.tostring())


def _draw_edges(dwg: svgwrite.Drawing, board: Group, graph: MapGraph, pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="edges", fill="none")
    army_pairs = {tuple(sorted(e)) for e in graph.army_graph.edges}
    for a, b in sorted(army_pairs):
        g.add(dwg.line(point(pos[a]), point(pos[b]), stroke=ARMY_EDGE, stroke_width=1.6, stroke_opacity=0.55))
    fleet_edges = sorted(tuple(sorted(e)) for e in graph.fleet_graph.edges)
    for a, b in fleet_edges:
        if tuple(sorted((province_of(a), province_of(b)))) in army_pairs:
            continue          # coastal pairs reachable by both: the army edge already shows it
        line = dwg.line(point(pos[a]), point(pos[b]), stroke=FLEET_EDGE, stroke_width=1.3, stroke_opacity=0.7)
        line["stroke-dasharray"] = "5,3"
        g.add(line)
    # Coasts hang off their province by a short stub.
    for pid, prov in sorted(graph.provinces.items()):
        for loc in sorted(prov.coasts):
            g.add(dwg.line(point(pos[pid]), point(pos[loc]), stroke=SEA_STROKE, stroke_width=2))
    board.add(g)


def _draw_provinces(dwg: svgwrite.Drawing, board: Group, graph: MapGraph,
                    pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="provinces", font_family="DejaVu Sans, Arial, sans-serif")
    for pid, prov in sorted(graph.provinces.items()):
        fill, stroke = {"sea": (SEA_FILL, SEA_STROKE), "coast": (COAST_FILL, SEA_STROKE),
                        "land": (LAND_FILL, LAND_STROKE)}[prov.terrain]
        node = dwg.g(id=f"prov-{pid}", class_=f"province {prov.terrain}")
        node.set_desc(title=prov.name)
        x, y = pos[pid]
        node.add(dwg.circle(point(pos[pid]), NODE_R, fill=fill, stroke=stroke, stroke_width=1.5))
        # The id inside (what orders are written with), the full name beneath.
        node.add(dwg.text(pid, insert=(rounded(x), rounded(y + 3.5)), text_anchor="middle", font_size=10,
                          fill="#33414e"))
        label = str(prov.drawing.get("label", prov.name))
        node.add(dwg.text(label, insert=(rounded(x), rounded(y + NODE_R + 10)), text_anchor="middle", font_size=9,
                          fill="#1f4f7f" if prov.terrain == "sea" else "#3d3524",
                          font_style="italic" if prov.terrain == "sea" else "normal"))
        g.add(node)
        for loc in sorted(prov.coasts):
            cx, cy = pos[loc]
            cnode = dwg.g(id=f"coast-{loc.replace('/', '-')}", class_="coast-node")
            cnode.set_desc(title=graph.full_name(loc))
            cnode.add(dwg.circle(point(pos[loc]), COAST_R, fill=SEA_FILL, stroke=SEA_STROKE, stroke_width=1.2))
            cnode.add(dwg.text(loc.split("/")[1], insert=(rounded(cx), rounded(cy - COAST_R - 2)), text_anchor="middle",
                               font_size=8, fill="#1f4f7f"))
            g.add(cnode)
    board.add(g)


def _centre_owner(variant: Variant, state: GameState, centre: str) -> str | None:
    owner = state.centres.get(centre)
    if owner is None and centre in variant.minor_powers:
        return centre          # an unconquered minor power holds its own centre
    return owner


def _draw_centres(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState,
                  at: dict[str, tuple[float, float]]) -> None:
    """A ringed dot at each centre's marker point (clear of the unit symbol)."""
    g = dwg.g(id="centres")
    for centre in sorted(variant.map.supply_centres):
        owner = _centre_owner(variant, state, centre)
        fill = NEUTRAL_CENTRE if owner is None else colour_of(variant, owner)
        cx, cy = at[centre]
        marker = dwg.g(id=f"centre-{centre}", class_="centre")
        marker.set_desc(title=f"{variant.map.provinces[centre].name}: supply centre, "
                              f"{variant.power_name(owner) if owner else 'unowned'}")
        marker.add(dwg.circle((rounded(cx), rounded(cy)), 6.5, fill=fill, stroke="#000000", stroke_width=1.3))
        marker.add(dwg.circle((rounded(cx), rounded(cy)), 2, fill=text_colour(fill)))
        g.add(marker)
    board.add(g)


def _draw_units(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState,
                pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="units")
    for prov in sorted(state.units):
        unit = state.units[prov]
        g.add(unit_symbol(dwg, unit.type, pos[unit.location], colour_of(variant, unit.power),
                           unit_letter(variant, unit.power, unit.type), ident=f"unit-{unit.location.replace('/', '-')}",
                           css="unit", tooltip=f"{variant.power_name(unit.power)}: {unit}"))
    board.add(g)


def _draw_dislodged(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState,
                    pos: dict[str, tuple[float, float]], places: dict[str, tuple[float, float]],
                    taken: dict[str, Box]) -> None:
    """Each dislodged unit, smaller and ringed in red, beside its attacker
    where it covers nothing, with a dotted arrow to each retreat option."""
    g = dwg.g(id="dislodged", font_family="DejaVu Sans, Arial, sans-serif")
    for prov in sorted(state.dislodged):
        d = state.dislodged[prov]
        at = places[prov]
        retreats = ", ".join(d.retreats) if d.retreats else "none: disbands"
        g.add(unit_symbol(dwg, d.unit.type, at, colour_of(variant, d.unit.power),
                          unit_letter(variant, d.unit.power, d.unit.type), scale=DISLODGED_SCALE,
                          ident=f"dislodged-{d.unit.location.replace('/', '-')}", css="dislodged", dashed=True,
                          tooltip=f"dislodged: {variant.power_name(d.unit.power)} {d.unit}; retreat: {retreats}"))
        g.add(dwg.circle((rounded(at[0]), rounded(at[1])), DISLODGED_RING, fill="none", stroke=FAIL_COLOUR,
                         stroke_width=1.6))
        mine = f"dislodged {prov}"
        for loc in d.retreats:
            if loc in pos:
                arrow(dwg, g, at, pos[loc], FAIL_COLOUR, width=1.2, opacity=0.6, dash="2,3",
                      avoid=[b for k, b in sorted(taken.items()) if k != mine])
    board.add(g)


def _draw_standoffs(dwg: svgwrite.Drawing, board: Group, provinces: list[str],
                    pos: dict[str, tuple[float, float]]) -> None:
    """A burst where moves bounced and the province stayed empty."""
    g = dwg.g(id="standoffs")
    for prov in provinces:
        if prov in pos:
            mark = standoff_mark(dwg, pos[prov], id=f"standoff-{prov}", class_="standoff")
            mark.set_desc(title=f"standoff in {prov}: the moves there bounced")
            g.add(mark)
    board.add(g)


def render_png(svg_text: str) -> bytes:
    """The SVG as PNG bytes (see adjudicator/png.py)."""
    from adjudicator.output.png import svg_to_png
    return svg_to_png(svg_text)


# --- the phase's map in the game folder ------------------------------------------------
def phase_map(folder: Path, title: str, variant: Variant, outcome: PhaseOutcome,
              map_style: str = DEFAULT_MAP_STYLE) -> list[tuple[Path, str]]:
    """maps/<phase>.svg: the state after the phase, with the phase's orders."""
    svg = render_svg(variant, outcome.next_state, outcome, title=title, map_style=map_style)
    return [(folder / "maps" / f"{outcome.phase.slug}.svg", svg)]
