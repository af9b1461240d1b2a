"""The map's side panel, top to bottom: the powers, a key to the symbols
and the board, this phase's dislodged units and its failed orders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import UnitType
from adjudicator.output.colours import colour_of, minor_colour, text_colour
from adjudicator.output.drawing import (
    ARMY_EDGE,
    COAST_FILL,
    FAIL_COLOUR,
    FLEET_EDGE,
    LAND_FILL,
    LAND_STROKE,
    NEUTRAL_CENTRE,
    RELIGION_LETTERS,
    SEA_FILL,
    SEA_STROKE,
    arrow,
    cross,
    rounded,
    unit_symbol,
)
from adjudicator.output.map_marks import (
    DISLODGED_RING,
    DISLODGED_SCALE,
    build_mark,
    disband_mark,
    standoff_mark,
)
from adjudicator.output.wording import order_text, result_words

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

    from adjudicator.diplomacy.outcome import PhaseOutcome
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

PANEL_W = 280
TITLE_H = 44


def draw_panel(dwg: svgwrite.Drawing, variant: Variant, state: GameState, outcome: PhaseOutcome | None, *,
               x0: float, schematic: bool, map_style: str = "territories") -> None:
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
        y = _territory_legend(dwg, g, variant, x0, y, map_style)
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
        # The swatch carries the code the power's units carry.
        fill = colour_of(variant, pid)
        g.add(dwg.rect((x0 - 2, y - 10), (20, 14), fill=fill, stroke="#000000", stroke_width=0.8))
        g.add(dwg.text(info.code, insert=(x0 + 8, y + 1), text_anchor="middle", font_weight="bold",
                       font_size=10 if len(info.code) < 2 else 8, fill=text_colour(fill)))
        count = f"{len(state.centres_of(pid))} / {len(state.units_of(pid))}"
        g.add(dwg.text(f"{info.name}", insert=(x0 + 24, y + 1)))
        g.add(dwg.text(count, insert=(x0 + PANEL_W - 24, y + 1), text_anchor="end"))
        y += 17
    if variant.minor_powers:
        g.add(dwg.rect((x0, y - 9), (14, 12), fill=minor_colour(variant), stroke="#000000", stroke_width=0.8))
        letters = ", ".join(f"{v} {k}" for k, v in RELIGION_LETTERS.items())
        g.add(dwg.text("Minor powers; letter = religion:", insert=(x0 + 20, y + 1)))
        y += 14
        g.add(dwg.text(letters, insert=(x0 + 20, y + 1), font_size=10))
        y += 16
    return y + 6


def _symbols_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    y = _legend_heading(dwg, g, x0, y, "Symbols")
    samples = [(UnitType.ARMY, "", "Army"), (UnitType.FLEET, "", "Fleet")]
    for unit_type, letter, text in samples:
        g.add(unit_symbol(dwg, unit_type, (x0 + 12, y - 3), "#777777", letter, scale=0.8, ident=f"legend-{text.lower()}",
                           css="legend-symbol"))
        g.add(dwg.text(text, insert=(x0 + 32, y + 1)))
        y += 22
    g.add(dwg.text("On each unit: its power's code", insert=(x0, y + 1), font_size=10))
    y += 18
    g.add(dwg.circle((x0 + 12, y - 4), 6.5, fill=NEUTRAL_CENTRE, stroke="#000000", stroke_width=1.3))
    g.add(dwg.text("Supply centre (owner's colour)", insert=(x0 + 32, y + 1)))
    return y + 20


def _orders_legend(dwg: svgwrite.Drawing, g: Group, x0: float, y: float) -> float:
    """A sample of each order's mark, drawn as _draw_orders draws it."""
    y = _legend_heading(dwg, g, x0, y, "Orders")
    arrow(dwg, g, (x0 - 8, y - 4), (x0 + 40, y - 4), "#444444", width=2)
    g.add(dwg.text("Move / retreat", insert=(x0 + 46, y)))
    y += 18
    arrow(dwg, g, (x0 - 8, y - 4), (x0 + 40, y - 4), "#444444", width=2, dash="7,4")
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
    cross(dwg, g, (x0 + 14, y - 4), 5)
    g.add(dwg.text("Failed or void (drawn faint)", insert=(x0 + 46, y)))
    y += 28
    g.add(build_mark(dwg, (x0 + 12, y - 4), "#777777", id="legend-build", transform=_about((x0 + 12, y - 4), 0.6)))
    g.add(dwg.text("Build", insert=(x0 + 46, y)))
    y += 26
    g.add(disband_mark(dwg, (x0 + 12, y - 4), id="legend-disband", transform=_about((x0 + 12, y - 4), 0.8)))
    g.add(dwg.text("Disband / removed", insert=(x0 + 46, y)))
    y += 24
    g.add(standoff_mark(dwg, (x0 + 12, y - 4), id="legend-standoff", transform=_about((x0 + 12, y - 4), 0.8)))
    g.add(dwg.text("Standoff: moves bounced, left empty", insert=(x0 + 46, y)))
    y += 26
    g.add(unit_symbol(dwg, UnitType.ARMY, (x0 + 12, y - 4), "#777777", "", scale=DISLODGED_SCALE,
                      ident="legend-dislodged", css="legend-symbol", dashed=True))
    g.add(dwg.circle((x0 + 12, y - 4), DISLODGED_RING, fill="none", stroke=FAIL_COLOUR, stroke_width=1.6))
    g.add(dwg.text("Dislodged; dotted red arrows:", insert=(x0 + 46, y - 3)))
    g.add(dwg.text("where it may retreat", insert=(x0 + 46, y + 10)))
    return y + 30


def _about(at: tuple[float, float], scale: float) -> str:
    """A transform that scales a legend sample about its own centre."""
    x, y = at
    return f"translate({rounded(x)},{rounded(y)}) scale({scale}) translate({rounded(-x)},{rounded(-y)})"


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
        for o in sorted(failed, key=lambda o: (o.power, str(o.unit) if o.unit is not None else ""))[:18]:
            text = f"{order_text(o)}: {result_words(o)}"
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


def _territory_legend(dwg: svgwrite.Drawing, g: Group, variant: Variant, x0: float, y: float,
                      map_style: str) -> float:
    from adjudicator.output import render_territory as rt
    whole = map_style == "territories"
    swatches = ((rt.SEA_FILL, rt.SEA_BORDER, "Sea", ""),
                (rt.LAND_FILL, rt.BORDER, "Land: held by no power" if whole else "Land: no owned centre", ""),
                (rt.OFF_BOARD_FILL, rt.BORDER, "Off the board", ""),
                ("url(#impassable)", rt.BORDER, "Impassable", ""))
    for fill, stroke, text, _ in swatches:
        g.add(dwg.rect((x0 + 3, y - 11), (18, 13), fill=fill, stroke=stroke, stroke_width=1))
        g.add(dwg.text(text, insert=(x0 + 32, y + 1)))
        y += 18
    notes = (["A power's land, in a tint of its colour: its", "centres and the land it last stood on"] if whole
             else ["Owned centres: province in a tint of the owner"])
    for note in notes:
        g.add(dwg.text(note, insert=(x0, y + 1), font_size=10))
        y += 13
    y += 3
    if whole:
        g.add(dwg.line((x0 + 2, y - 4), (x0 + 24, y - 4), stroke=rt.FRONTIER, stroke_width=rt.FRONTIER_W,
                       stroke_linecap="round"))
        g.add(dwg.text("Frontier: where a power's land ends", insert=(x0 + 32, y + 1)))
        y += 18
    cl = dwg.line((x0 + 2, y - 4), (x0 + 24, y - 4), stroke=rt.COAST_LINE, stroke_width=2.6)
    cl["stroke-dasharray"] = "6,3"
    g.add(cl)
    g.add(dwg.text("Split coast (NC, SC, EC)", insert=(x0 + 32, y + 1)))
    geo = rt.geometry_for(variant.map)
    if geo is not None and geo.crossings:
        y += 18
        g.add(rt.crossing_mark(dwg, (x0 + 4, y - 4), (x0 + 22, y - 4), id="legend-crossing"))
        g.add(dwg.text("Crossing: a move with no border", insert=(x0 + 32, y + 1)))
    return y + 22
