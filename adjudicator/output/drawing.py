"""The map's drawing pieces, shared by the board, the orders and the side
panel: rounded coordinates (so floating noise never changes the bytes),
arrows, crosses and unit symbols, and the board's palette."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import UnitType
from adjudicator.output.colours import text_colour
from adjudicator.output.map_marks import Box, clear_end, head_points

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

    from adjudicator.diplomacy.variant import Variant

NODE_R = 15
COAST_R = 6
SEA_FILL, COAST_FILL, LAND_FILL = "#a9cbe8", "#cfe3b4", "#eadcb8"
SEA_STROKE, LAND_STROKE = "#5d8fbf", "#9b8a62"
ARMY_EDGE, FLEET_EDGE = "#a89a78", "#6f9fd0"
NEUTRAL_CENTRE = "#ffffff"
FAIL_COLOUR = "#d62020"
RELIGION_LETTERS = {"catholic": "C", "protestant": "P", "orthodox": "O", "islamic": "I"}


def rounded(value: float) -> float:
    """Coordinates rounded so floating noise never changes the output bytes."""
    return round(value, 1)


def point(p: tuple[float, float]) -> tuple[float, float]:
    return rounded(p[0]), rounded(p[1])


# --- geometry -----------------------------------------------------------------------
def shorten(a: tuple[float, float], b: tuple[float, float], start: float, end: float
             ) -> tuple[tuple[float, float], tuple[float, float]]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def arrow(dwg: svgwrite.Drawing, group: Group, a: tuple[float, float], b: tuple[float, float],
           colour: str, *, width: float = 2.6, opacity: float = 1.0, dash: str | None = None,
           head: bool = True, avoid: Sequence[Box] = (), **extra: str) -> None:
    """A line from a to b with a filled triangular head (drawn as a polygon,
    not an SVG marker, so every renderer shows it the same), stopped short
    where its head would cover one of the `avoid` boxes (unit markers, labels)."""
    p, q = shorten(a, b, NODE_R - 3, NODE_R + (1 if head else 0))
    head_width = width
    if head:
        q, head_width = clear_end(p, q, width, avoid)
    line = dwg.line((rounded(p[0]), rounded(p[1])), (rounded(q[0]), rounded(q[1])), stroke=colour, stroke_width=width,
                    stroke_opacity=opacity, stroke_linecap="round", **extra)
    if dash:
        line["stroke-dasharray"] = dash
    group.add(line)
    if head:
        group.add(dwg.polygon([(rounded(x), rounded(y)) for x, y in head_points(p, q, head_width)], fill=colour,
                              fill_opacity=opacity, class_="arrowhead"))


def cross(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], size: float = 6) -> None:
    x, y = at
    g = dwg.g(class_="failed", stroke=FAIL_COLOUR, stroke_width=3, stroke_linecap="round")
    g.add(dwg.line((rounded(x - size), rounded(y - size)), (rounded(x + size), rounded(y + size))))
    g.add(dwg.line((rounded(x - size), rounded(y + size)), (rounded(x + size), rounded(y - size))))
    group.add(g)


def midpoint(a: tuple[float, float], b: tuple[float, float], t: float = 0.5) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


# --- symbols ------------------------------------------------------------------------
def unit_symbol(dwg: svgwrite.Drawing, unit_type: UnitType, at: tuple[float, float], fill: str,
                 letter: str, *, scale: float = 1.0, ident: str, css: str, dashed: bool = False,
                 tooltip: str = "") -> Group:
    """Army: a rounded square. Fleet: a ship's hull. The letter is the power's
    code (one or two letters) or a minor power's religion initial."""
    x, y = at
    g = dwg.g(id=ident, class_=css)
    if tooltip:
        g.set_desc(title=tooltip)
    stroke = {"stroke": "#000000", "stroke_width": 1.4}
    if dashed:
        stroke["stroke_dasharray"] = "3,2"
    if unit_type is UnitType.ARMY:
        s = 10 * scale
        g.add(dwg.rect((rounded(x - s), rounded(y - s)), (rounded(2 * s), rounded(2 * s)), rx=rounded(3 * scale), fill=fill, **stroke))
    else:
        w, h = 13 * scale, 8 * scale
        g.add(dwg.polygon([(rounded(x - w), rounded(y - h)), (rounded(x + w), rounded(y - h)), (rounded(x + w * 0.6), rounded(y + h)),
                           (rounded(x - w * 0.6), rounded(y + h))], fill=fill, **stroke))
    size = (13 if len(letter) < 2 else 9.5) * scale
    g.add(dwg.text(letter, insert=(rounded(x), rounded(y + size * 0.35)), text_anchor="middle",
                   font_size=rounded(size), font_weight="bold", font_family="DejaVu Sans, Arial, sans-serif",
                   fill=text_colour(fill)))
    return g


def unit_letter(variant: Variant, power: str, unit_type: UnitType) -> str:
    """The power's code (A, E, ... or A&E's BH, DN, ...), so that colour is
    never the only cue to whose unit it is; the shape tells army from fleet.
    A minor power's unit carries its religion's initial."""
    if power in variant.powers:
        return variant.powers[power].code
    minor = variant.minor_powers.get(power)
    religion = str(minor.traits.get("religion", "")) if minor is not None else ""
    return RELIGION_LETTERS.get(religion, "?")
