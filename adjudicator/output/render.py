"""SVG maps of a Diplomacy game state, drawn with svgwrite.

Two styles. "territory" (the default, where the map has maps/<map>.geometry.yaml):
every province drawn as its shape, filled by its supply centre's owner, with
anchors for units, labels and centre markers from the geometry file (see
adjudicator/render_territory.py). "graph": an honest schematic, each province a
round node at the position given in maps/<map>.layout.yaml (sea blue, coastal
green, inland beige), joined by faint adjacency edges (army edges solid,
fleet-only edges dashed). Units, supply centres and orders are drawn on top the
same way in both; a side panel holds the legend.

Everything here is a pure function of its inputs and iterates in sorted order,
so the same state and orders always give the same bytes. Elements the tests
count carry ids: unit-<loc>, dislodged-<loc>, centre-<province>, prov-<province>."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.diplomacy.mapgraph import MAPS_DIR, MapGraph
from adjudicator.diplomacy.model import UnitType, province_of
from adjudicator.diplomacy.outcome import OrderLine, PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.store.storage import read_text, read_yaml

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

MAP_W, MAP_H = 1000, 800
PANEL_W = 280
TITLE_H = 44
NODE_R = 15
COAST_R = 6

SEA_FILL, COAST_FILL, LAND_FILL = "#a9cbe8", "#cfe3b4", "#eadcb8"
SEA_STROKE, LAND_STROKE = "#5d8fbf", "#9b8a62"
ARMY_EDGE, FLEET_EDGE = "#a89a78", "#6f9fd0"
NEUTRAL_CENTRE = "#ffffff"
MINOR_COLOUR = "#9a9a9a"
FAIL_COLOUR = "#d62020"
RELIGION_LETTERS = {"catholic": "C", "protestant": "P", "orthodox": "O", "islamic": "I"}
# graph.derived keys: what this module reads once per map and keeps with it.
LAYOUT, DISPLAY_COLOURS = "render.layout", "render.display_colours"


def _n(value: float) -> float:
    """Coordinates rounded so floating noise never changes the output bytes."""
    return round(value, 1)


def _read_layout(path: Path) -> dict[str, tuple[float, float]]:
    data = read_yaml(path, keep=True)
    return {str(k): (float(v[0]), float(v[1])) for k, v in (data.get("positions") or {}).items()}


def layout_for(graph: MapGraph) -> dict[str, tuple[float, float]]:
    """Positions for every province and coast: maps/<map>.layout.yaml next to
    the map file, overridden by any `position` the map itself gives. Read once
    per map and kept with it (graph.derived)."""
    kept = graph.derived.get(LAYOUT)
    if isinstance(kept, dict):
        return dict(kept)
    source = Path(graph.source)
    layout_path = source.with_name(source.stem + ".layout.yaml")
    if not layout_path.exists():
        layout_path = MAPS_DIR / f"{source.stem}.layout.yaml"
    positions = _read_layout(layout_path) if layout_path.exists() else {}
    for pid, prov in graph.provinces.items():
        if "position" in prov.drawing:
            x, y = prov.drawing["position"]
            positions[pid] = (float(x), float(y))
    missing = [loc for loc in _all_locations(graph) if loc not in positions]
    if missing:
        raise ValueError(f"no drawing position for {', '.join(sorted(missing))} (see {layout_path})")
    graph.derived[LAYOUT] = positions
    return dict(positions)


def _all_locations(graph: MapGraph) -> list[str]:
    return sorted([*graph.provinces, *(c for p in graph.provinces.values() for c in p.coasts)])


# --- powers -------------------------------------------------------------------------
def _display_colours(graph: MapGraph) -> dict[str, str]:
    """The display colours the map's layout file gives, read once per map and
    kept with it (graph.derived)."""
    kept = graph.derived.get(DISPLAY_COLOURS)
    if isinstance(kept, dict):
        return kept
    source = Path(graph.source)
    path = source.with_name(source.stem + ".layout.yaml")
    colours: dict[str, str] = {}
    # Most layouts give no display colours: then the file (schematic positions,
    # ~7 ms of YAML for Standard) is not parsed for the territory map (issue 14).
    if path.exists() and "display_colours" in read_text(path):
        colours = {str(k): str(v) for k, v in (read_yaml(path, keep=True).get("display_colours") or {}).items()}
    graph.derived[DISPLAY_COLOURS] = colours
    return colours


def power_colours(variant: Variant) -> dict[str, str]:
    """The colour each Great Power is drawn in: the variant's, unless the map's
    layout file gives a display colour (where two would be hard to tell apart)."""
    overrides = _display_colours(variant.map)
    return {p: overrides.get(p, info.colour) for p, info in variant.powers.items()}


def _colour(variant: Variant, power: str | None) -> str:
    if power is not None and power in variant.powers:
        return power_colours(variant)[power]
    return MINOR_COLOUR


def _luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _text_colour(fill: str) -> str:
    """Black or white, whichever has the higher contrast ratio on the fill."""
    try:
        lum = _luminance(fill)
    except ValueError:
        return "#000000"
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


# --- geometry -----------------------------------------------------------------------
def _shorten(a: tuple[float, float], b: tuple[float, float], start: float, end: float
             ) -> tuple[tuple[float, float], tuple[float, float]]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _arrow(dwg: svgwrite.Drawing, group: Group, a: tuple[float, float], b: tuple[float, float],
           colour: str, *, width: float = 2.6, opacity: float = 1.0, dash: str | None = None,
           head: bool = True, **extra: str) -> None:
    """A line from a to b with a filled triangular head (drawn as a polygon,
    not an SVG marker, so every renderer shows it the same)."""
    p, q = _shorten(a, b, NODE_R - 3, NODE_R + (1 if head else 0))
    line = dwg.line((_n(p[0]), _n(p[1])), (_n(q[0]), _n(q[1])), stroke=colour, stroke_width=width,
                    stroke_opacity=opacity, stroke_linecap="round", **extra)
    if dash:
        line["stroke-dasharray"] = dash
    group.add(line)
    if head:
        dx, dy = q[0] - p[0], q[1] - p[1]
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        size = 4 + width * 1.6
        tip = (q[0] + ux * 2, q[1] + uy * 2)
        left = (q[0] - ux * size - uy * size * 0.55, q[1] - uy * size + ux * size * 0.55)
        right = (q[0] - ux * size + uy * size * 0.55, q[1] - uy * size - ux * size * 0.55)
        group.add(dwg.polygon([(_n(x), _n(y)) for x, y in (tip, left, right)], fill=colour,
                              fill_opacity=opacity))


def _cross(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], size: float = 6) -> None:
    x, y = at
    g = dwg.g(class_="failed", stroke=FAIL_COLOUR, stroke_width=3, stroke_linecap="round")
    g.add(dwg.line((_n(x - size), _n(y - size)), (_n(x + size), _n(y + size))))
    g.add(dwg.line((_n(x - size), _n(y + size)), (_n(x + size), _n(y - size))))
    group.add(g)


def _mid(a: tuple[float, float], b: tuple[float, float], t: float = 0.5) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


# --- symbols ------------------------------------------------------------------------
def _unit_symbol(dwg: svgwrite.Drawing, unit_type: UnitType, at: tuple[float, float], fill: str,
                 letter: str, *, scale: float = 1.0, ident: str, css: str, dashed: bool = False,
                 tooltip: str = "") -> Group:
    """Army: a rounded square. Fleet: a ship's hull. The letter is A/F for a
    Great Power and the religion initial for a minor power."""
    x, y = at
    g = dwg.g(id=ident, class_=css)
    if tooltip:
        g.set_desc(title=tooltip)
    stroke = {"stroke": "#000000", "stroke_width": 1.4}
    if dashed:
        stroke["stroke_dasharray"] = "3,2"
    if unit_type is UnitType.ARMY:
        s = 10 * scale
        g.add(dwg.rect((_n(x - s), _n(y - s)), (_n(2 * s), _n(2 * s)), rx=_n(3 * scale), fill=fill, **stroke))
    else:
        w, h = 13 * scale, 8 * scale
        g.add(dwg.polygon([(_n(x - w), _n(y - h)), (_n(x + w), _n(y - h)), (_n(x + w * 0.6), _n(y + h)),
                           (_n(x - w * 0.6), _n(y + h))], fill=fill, **stroke))
    g.add(dwg.text(letter, insert=(_n(x), _n(y + 4.5 * scale)), text_anchor="middle",
                   font_size=_n(13 * scale), font_weight="bold", font_family="DejaVu Sans, Arial, sans-serif",
                   fill=_text_colour(fill)))
    return g


def _unit_letter(variant: Variant, power: str, unit_type: UnitType) -> str:
    if power in variant.powers:
        return unit_type.value
    minor = variant.minor_powers.get(power)
    religion = str(minor.traits.get("religion", "")) if minor is not None else ""
    return RELIGION_LETTERS.get(religion, "?")


# --- the drawing --------------------------------------------------------------------
STYLES = ("territory", "graph")


def render_svg(variant: Variant, state: GameState, outcome: PhaseOutcome | None = None, *,
               title: str = "", style: str = "territory") -> str:
    """The map of `state`, with `outcome.orders` drawn if given, as SVG text.

    style="territory" draws the provinces' shapes from maps/<map>.geometry.yaml
    (falling back to the schematic where a map has no geometry); style="graph"
    draws the schematic: round nodes joined by adjacency edges."""
    if style not in STYLES:
        raise ValueError(f"unknown map style {style!r}; choose from {', '.join(STYLES)}")
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
        from adjudicator.output.render_territory import draw_labels, draw_territories
        colours = power_colours(variant)
        colours.update({m: MINOR_COLOUR for m in variant.minor_powers})
        draw_territories(dwg, board, variant, state, geo, colours)
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
    _draw_orders(dwg, board, variant, orders, pos)
    if geo is not None:
        from adjudicator.output.render_territory import draw_note
        draw_labels(dwg, board, variant, geo)
        draw_note(dwg, board, geo)
    _draw_dislodged(dwg, board, variant, state, pos)
    _draw_panel(dwg, variant, state, outcome, x0=map_w + 12, schematic=geo is None)
    return str(dwg.tostring())


def _draw_edges(dwg: svgwrite.Drawing, board: Group, graph: MapGraph, pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="edges", fill="none")
    army_pairs = {tuple(sorted(e)) for e in graph.army_graph.edges}
    for a, b in sorted(army_pairs):
        g.add(dwg.line(_pt(pos[a]), _pt(pos[b]), stroke=ARMY_EDGE, stroke_width=1.6, stroke_opacity=0.55))
    fleet_edges = sorted(tuple(sorted(e)) for e in graph.fleet_graph.edges)
    for a, b in fleet_edges:
        if tuple(sorted((province_of(a), province_of(b)))) in army_pairs:
            continue          # coastal pairs reachable by both: the army edge already shows it
        line = dwg.line(_pt(pos[a]), _pt(pos[b]), stroke=FLEET_EDGE, stroke_width=1.3, stroke_opacity=0.7)
        line["stroke-dasharray"] = "5,3"
        g.add(line)
    # Coasts hang off their province by a short stub.
    for pid, prov in sorted(graph.provinces.items()):
        for loc in sorted(prov.coasts):
            g.add(dwg.line(_pt(pos[pid]), _pt(pos[loc]), stroke=SEA_STROKE, stroke_width=2))
    board.add(g)


def _pt(p: tuple[float, float]) -> tuple[float, float]:
    return _n(p[0]), _n(p[1])


def _draw_provinces(dwg: svgwrite.Drawing, board: Group, graph: MapGraph,
                    pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="provinces", font_family="DejaVu Sans, Arial, sans-serif")
    for pid, prov in sorted(graph.provinces.items()):
        fill, stroke = {"sea": (SEA_FILL, SEA_STROKE), "coast": (COAST_FILL, SEA_STROKE),
                        "land": (LAND_FILL, LAND_STROKE)}[prov.terrain]
        node = dwg.g(id=f"prov-{pid}", class_=f"province {prov.terrain}")
        node.set_desc(title=prov.name)
        x, y = pos[pid]
        node.add(dwg.circle(_pt(pos[pid]), NODE_R, fill=fill, stroke=stroke, stroke_width=1.5))
        # The id inside (what orders are written with), the full name beneath.
        node.add(dwg.text(pid, insert=(_n(x), _n(y + 3.5)), text_anchor="middle", font_size=10,
                          fill="#33414e"))
        label = str(prov.drawing.get("label", prov.name))
        node.add(dwg.text(label, insert=(_n(x), _n(y + NODE_R + 10)), text_anchor="middle", font_size=9,
                          fill="#1f4f7f" if prov.terrain == "sea" else "#3d3524",
                          font_style="italic" if prov.terrain == "sea" else "normal"))
        g.add(node)
        for loc in sorted(prov.coasts):
            cx, cy = pos[loc]
            cnode = dwg.g(id=f"coast-{loc.replace('/', '-')}", class_="coast-node")
            cnode.set_desc(title=graph.full_name(loc))
            cnode.add(dwg.circle(_pt(pos[loc]), COAST_R, fill=SEA_FILL, stroke=SEA_STROKE, stroke_width=1.2))
            cnode.add(dwg.text(loc.split("/")[1], insert=(_n(cx), _n(cy - COAST_R - 2)), text_anchor="middle",
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
        fill = NEUTRAL_CENTRE if owner is None else _colour(variant, owner)
        cx, cy = at[centre]
        marker = dwg.g(id=f"centre-{centre}", class_="centre")
        marker.set_desc(title=f"{variant.map.provinces[centre].name}: supply centre, "
                              f"{variant.power_name(owner) if owner else 'unowned'}")
        marker.add(dwg.circle((_n(cx), _n(cy)), 6.5, fill=fill, stroke="#000000", stroke_width=1.3))
        marker.add(dwg.circle((_n(cx), _n(cy)), 2, fill=_text_colour(fill)))
        g.add(marker)
    board.add(g)


def _draw_units(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState,
                pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="units")
    for prov in sorted(state.units):
        unit = state.units[prov]
        g.add(_unit_symbol(dwg, unit.type, pos[unit.location], _colour(variant, unit.power),
                           _unit_letter(variant, unit.power, unit.type), ident=f"unit-{unit.location.replace('/', '-')}",
                           css="unit", tooltip=f"{variant.power_name(unit.power)}: {unit}"))
    board.add(g)


def _draw_dislodged(dwg: svgwrite.Drawing, board: Group, variant: Variant, state: GameState,
                    pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="dislodged", font_family="DejaVu Sans, Arial, sans-serif")
    for prov in sorted(state.dislodged):
        d = state.dislodged[prov]
        x, y = pos[d.unit.location]
        at = (x + 15, y + 13)       # offset so the dislodger stays visible underneath
        g.add(_unit_symbol(dwg, d.unit.type, at, _colour(variant, d.unit.power),
                           _unit_letter(variant, d.unit.power, d.unit.type), scale=0.8,
                           ident=f"dislodged-{d.unit.location.replace('/', '-')}", css="dislodged", dashed=True,
                           tooltip=f"dislodged: {variant.power_name(d.unit.power)} {d.unit}"))
        g.add(dwg.circle((_n(at[0]), _n(at[1])), 13, fill="none", stroke=FAIL_COLOUR, stroke_width=1.6))
        retreats = ", ".join(d.retreats) if d.retreats else "none: disbands"
        g.add(dwg.text(f"retreat: {retreats}", insert=(_n(at[0] + 15), _n(at[1] + 4)), font_size=10,
                       font_weight="bold", fill=FAIL_COLOUR, stroke="#ffffff", stroke_width=0.3))
        for loc in d.retreats:
            if loc in pos:
                _arrow(dwg, g, at, pos[loc], FAIL_COLOUR, width=1.2, opacity=0.6, dash="2,3")
    board.add(g)


def _unit_location(order: OrderLine) -> str:
    return order.unit.split()[-1] if order.unit else ""


def _draw_orders(dwg: svgwrite.Drawing, board: Group, variant: Variant, orders: list[OrderLine],
                 pos: dict[str, tuple[float, float]]) -> None:
    g = dwg.g(id="orders", fill="none")
    # Where each move goes, so supports and convoys can point at the arrow's middle.
    moves: dict[str, str] = {}
    for o in orders:
        if o.kind == "Move" and o.target:
            moves[province_of(_unit_location(o))] = o.target
    for o in sorted(orders, key=lambda o: (o.kind, o.unit, o.target, o.origin, o.power)):
        loc = _unit_location(o)
        if loc not in pos:
            continue
        colour = _colour(variant, o.power)
        start = pos[loc]
        void = o.kind == "Void" or o.void
        failed = not o.succeeded or void
        opacity = 0.45 if failed else 0.95
        og = dwg.g(class_=f"order {o.kind.lower() or 'order'}{' failed' if failed else ''}")
        og.set_desc(title=f"{variant.power_name(o.power)}: {o.text} ({o.result})")
        target = pos.get(o.target) or pos.get(province_of(o.target)) if o.target else None
        mark: tuple[float, float] | None = start
        if o.kind in ("Move", "Retreat") and target:
            _arrow(dwg, og, start, target, colour, opacity=opacity)
            mark = _mid(start, target, 0.6)
        elif o.kind == "SupportHold" and target:
            p, q = _shorten(start, target, NODE_R - 4, NODE_R + 3)
            line = dwg.line(_pt(p), _pt(q), stroke=colour, stroke_width=2, stroke_opacity=opacity)
            line["stroke-dasharray"] = "7,4"
            og.add(line)
            og.add(dwg.circle(_pt(target), NODE_R + 3, stroke=colour, stroke_width=2, stroke_opacity=opacity))
            mark = _mid(start, target)
        elif o.kind == "SupportMove" and target:
            origin = pos.get(o.origin)
            aim = _mid(origin, target, 0.6) if origin and moves.get(o.origin) else target
            _arrow(dwg, og, start, aim, colour, width=2, opacity=opacity, dash="7,4")
            mark = _mid(start, aim)
        elif o.kind == "Convoy" and target:
            origin = pos.get(o.origin)
            aim = _mid(origin, target) if origin else target
            p, q = _shorten(start, aim, NODE_R - 4, 4)
            line = dwg.line(_pt(p), _pt(q), stroke=colour, stroke_width=2.4, stroke_opacity=opacity,
                            stroke_linecap="round")
            line["stroke-dasharray"] = "0.5,5"
            og.add(line)
            mark = _mid(start, aim)
        elif o.kind == "Hold":
            og.add(dwg.circle(_pt(start), NODE_R + 2, stroke=colour, stroke_width=2.2, stroke_opacity=opacity))
        elif o.kind == "Build":
            og.add(dwg.circle(_pt(start), NODE_R + 3, stroke="#1a9c3a", stroke_width=3))
            failed = not o.succeeded
        elif o.kind == "Disband":
            failed = True      # the unit goes: shown with the same red cross
        if failed and mark is not None:
            _cross(dwg, og, mark)
        g.add(og)
    board.add(g)


def _draw_panel(dwg: svgwrite.Drawing, variant: Variant, state: GameState, outcome: PhaseOutcome | None, *,
                x0: float, schematic: bool) -> None:
    """The side panel, top to bottom: the powers, a key to the symbols, then
    this phase's dislodged units and failed orders. Each part returns the y
    below it."""
    g = dwg.g(id="legend", font_family="DejaVu Sans, Arial, sans-serif", font_size=11)
    y: float = TITLE_H + 14
    y = _powers_legend(dwg, g, variant, state, x0, y)
    y = _symbols_legend(dwg, g, x0, y)
    if schematic:
        y = _schematic_legend(dwg, g, x0, y)
    else:
        y = _territory_legend(dwg, g, x0, y)
    y = _orders_legend(dwg, g, x0, y)
    if state.dislodged:
        y = _dislodged_list(dwg, g, variant, state, x0, y)
    if outcome is not None:
        _failed_orders_list(dwg, g, outcome, x0, y)
    dwg.add(g)


def _legend_heading(dwg: svgwrite.Drawing, g: Group, x0: float, y: float, text: str) -> float:
    g.add(dwg.text(text, insert=(x0, y + 4), font_size=13, font_weight="bold"))
    return y + 18


def _powers_legend(dwg: svgwrite.Drawing, g: Group, variant: Variant, state: GameState,
                   x0: float, y: float) -> float:
    """Each Great Power's colour with its centre and unit counts; then one
    swatch for all minor powers, with the key to their religion letters."""
    y = _legend_heading(dwg, g, x0, y, "Powers (centres / units)")
    for pid, info in variant.powers.items():
        g.add(dwg.rect((x0, y - 9), (14, 12), fill=_colour(variant, pid), stroke="#000000", stroke_width=0.8))
        count = f"{len(state.centres_of(pid))} / {len(state.units_of(pid))}"
        g.add(dwg.text(f"{info.name}", insert=(x0 + 20, y + 1)))
        g.add(dwg.text(count, insert=(x0 + PANEL_W - 24, y + 1), text_anchor="end"))
        y += 16
    if variant.minor_powers:
        g.add(dwg.rect((x0, y - 9), (14, 12), fill=MINOR_COLOUR, stroke="#000000", stroke_width=0.8))
        letters = ", ".join(f"{v} {k}" for k, v in RELIGION_LETTERS.items())
        g.add(dwg.text("Minor powers; letter = religion:", insert=(x0 + 20, y + 1)))
        y += 14
        g.add(dwg.text(letters, insert=(x0 + 20, y + 1), font_size=10))
        y += 16
    return y + 6


def _symbols_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    y = _legend_heading(dwg, g, x0, y, "Symbols")
    samples = [(UnitType.ARMY, "A", "Army"), (UnitType.FLEET, "F", "Fleet")]
    for unit_type, letter, text in samples:
        g.add(_unit_symbol(dwg, unit_type, (x0 + 12, y - 3), "#777777", letter, scale=0.8, ident=f"legend-{text.lower()}",
                           css="legend-symbol"))
        g.add(dwg.text(text, insert=(x0 + 32, y + 1)))
        y += 22
    g.add(dwg.circle((x0 + 12, y - 4), 6.5, fill=NEUTRAL_CENTRE, stroke="#000000", stroke_width=1.3))
    g.add(dwg.text("Supply centre (owner's colour)", insert=(x0 + 32, y + 1)))
    return y + 20


def _orders_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    """A sample of each order's mark, drawn as _draw_orders draws it."""
    y = _legend_heading(dwg, g, x0, y, "Orders")
    _arrow(dwg, g, (x0 - 8, y - 4), (x0 + 40, y - 4), "#444444", width=2)
    g.add(dwg.text("Move / retreat", insert=(x0 + 46, y)))
    y += 18
    _arrow(dwg, g, (x0 - 8, y - 4), (x0 + 40, y - 4), "#444444", width=2, dash="7,4")
    g.add(dwg.text("Support", insert=(x0 + 46, y)))
    y += 18
    cl = dwg.line((x0 + 2, y - 4), (x0 + 26, y - 4), stroke="#444444", stroke_width=2.4, stroke_linecap="round")
    cl["stroke-dasharray"] = "0.5,5"
    g.add(cl)
    g.add(dwg.text("Convoy", insert=(x0 + 46, y)))
    y += 18
    g.add(dwg.circle((x0 + 14, y - 4), 7, fill="none", stroke="#444444", stroke_width=2))
    g.add(dwg.text("Hold", insert=(x0 + 46, y)))
    y += 18
    _cross(dwg, g, (x0 + 14, y - 4), 5)
    g.add(dwg.text("Failed or void (drawn faint)", insert=(x0 + 46, y)))
    return y + 24


def _dislodged_list(dwg: svgwrite.Drawing, g: Group, variant: Variant, state: GameState,
                    x0: float, y: float) -> float:
    y = _legend_heading(dwg, g, x0, y, "Dislodged")
    for prov in sorted(state.dislodged):
        d = state.dislodged[prov]
        name = variant.power_name(d.unit.power)
        g.add(dwg.text(f"{name} {d.unit}", insert=(x0, y), font_size=10, fill=FAIL_COLOUR))
        y += 13
        g.add(dwg.text(f"   may retreat to: {', '.join(d.retreats) or 'nowhere'}", insert=(x0, y), font_size=10))
        y += 15
    return y


def _failed_orders_list(dwg: svgwrite.Drawing, g: Group, outcome: PhaseOutcome, x0: float, y: float) -> float:
    """The first 18 failed or void orders, cut to fit the panel's width."""
    failed = [o for o in outcome.orders if not o.succeeded or o.void]
    if failed:
        y = _legend_heading(dwg, g, x0, y, "Failed orders")
        for o in sorted(failed, key=lambda o: (o.power, o.unit))[:18]:
            text = f"{o.text}: {o.result}"
            g.add(dwg.text(text[:46], insert=(x0, y), font_size=9.5))
            y += 13
        if len(failed) > 18:
            g.add(dwg.text(f"... and {len(failed) - 18} more", insert=(x0, y), font_size=9.5))
    return y


def _schematic_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    for fill, stroke, text in ((SEA_FILL, SEA_STROKE, "Sea"), (COAST_FILL, SEA_STROKE, "Coastal land"),
                               (LAND_FILL, LAND_STROKE, "Inland")):
        g.add(dwg.circle((x0 + 12, y - 4), 8, fill=fill, stroke=stroke, stroke_width=1.3))
        g.add(dwg.text(text, insert=(x0 + 32, y + 1)))
        y += 19
    g.add(dwg.line((x0, y - 4), (x0 + 24, y - 4), stroke=ARMY_EDGE, stroke_width=1.6))
    g.add(dwg.text("Adjacent (armies, and fleets along coasts)", insert=(x0 + 32, y + 1), font_size=10))
    y += 16
    fl = dwg.line((x0, y - 4), (x0 + 24, y - 4), stroke=FLEET_EDGE, stroke_width=1.3)
    fl["stroke-dasharray"] = "5,3"
    g.add(fl)
    g.add(dwg.text("Adjacent for fleets only", insert=(x0 + 32, y + 1), font_size=10))
    return y + 22


def _territory_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    from adjudicator.output import render_territory as rt
    swatches = ((rt.SEA_FILL, rt.SEA_BORDER, "Sea", ""), (rt.LAND_FILL, rt.BORDER, "Land: no owned centre", ""),
                (rt.OFF_BOARD_FILL, rt.BORDER, "Off the board", ""),
                ("url(#impassable)", rt.BORDER, "Impassable", ""))
    for fill, stroke, text, _ in swatches:
        g.add(dwg.rect((x0 + 3, y - 11), (18, 13), fill=fill, stroke=stroke, stroke_width=1))
        g.add(dwg.text(text, insert=(x0 + 32, y + 1)))
        y += 18
    g.add(dwg.text("Owned centres: province in a tint of the owner", insert=(x0, y + 1), font_size=10))
    y += 16
    cl = dwg.line((x0 + 2, y - 4), (x0 + 24, y - 4), stroke=rt.COAST_LINE, stroke_width=2.6)
    cl["stroke-dasharray"] = "6,3"
    g.add(cl)
    g.add(dwg.text("Split coast (NC, SC, EC)", insert=(x0 + 32, y + 1)))
    return y + 22


def render_png(svg_text: str) -> bytes:
    """The SVG as PNG bytes (see adjudicator/png.py)."""
    from adjudicator.output.png import svg_to_png
    return svg_to_png(svg_text)


# --- the phase's map in the game folder ------------------------------------------------
def phase_map(folder: Path, title: str, variant: Variant, outcome: PhaseOutcome) -> list[tuple[Path, str]]:
    """maps/<phase>.svg: the state after the phase, with the phase's orders."""
    svg = render_svg(variant, outcome.next_state, outcome, title=title)
    return [(folder / "maps" / f"{outcome.phase.slug}.svg", svg)]
