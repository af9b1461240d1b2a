"""Marks on the map that must find room: where arrowheads stop and where a
dislodged unit stands, so that neither covers another unit's marker or a
province's label; and the marks for builds, disbands and standoffs.

Everything works on axis-aligned boxes (x0, y0, x1, y1) in board pixels, and
is deterministic: the same state and orders always give the same places."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Reason, UnitType
from adjudicator.diplomacy.orders import Move
from adjudicator.diplomacy.outcome import OrderLine
from adjudicator.diplomacy.state import GameState

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

    from adjudicator.output.render_territory import Geometry

Point = tuple[float, float]
Box = tuple[float, float, float, float]

ARMY_HALF, FLEET_HALF = (10.0, 10.0), (13.0, 8.0)    # as drawing.unit_symbol draws them
DISLODGED_SCALE = 0.8
DISLODGED_RING = 13.0                                # the red ring round a dislodged unit
MARK_INK = "#111111"


def overlaps(p: Box, q: Box) -> bool:
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def unit_box(unit_type: UnitType, at: Point, scale: float = 1.0) -> Box:
    hx, hy = ARMY_HALF if unit_type is UnitType.ARMY else FLEET_HALF
    return at[0] - hx * scale, at[1] - hy * scale, at[0] + hx * scale, at[1] + hy * scale


def head_points(p: Point, q: Point, width: float) -> tuple[Point, Point, Point]:
    """An arrowhead whose base is at q, pointing away from p: tip, left, right."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    size = 4 + width * 1.6
    tip = (q[0] + ux * 2, q[1] + uy * 2)
    left = (q[0] - ux * size - uy * size * 0.55, q[1] - uy * size + ux * size * 0.55)
    right = (q[0] - ux * size + uy * size * 0.55, q[1] - uy * size - ux * size * 0.55)
    return tip, left, right


def points_box(points: Iterable[Point]) -> Box:
    xs, ys = zip(*points)
    return min(xs), min(ys), max(xs), max(ys)


_SIDEWAYS = (0.0, 3.5, -3.5, 7.0, -7.0, 10.5, -10.5, 14.0, -14.0, 17.5, -17.5, 21.0, -21.0, 24.5, -24.5, 28.0, -28.0)


def clear_end(p: Point, q: Point, width: float, avoid: Iterable[Box]) -> tuple[Point, float]:
    """Where the arrow from p towards q ends, and the line width its head is
    drawn for, so that the head touches none of the boxes: q, or q pulled
    back towards p 2 px at a time; where straight back does not clear, the
    end nudged up to 28 px sideways (the arrow then comes in at a slant), or
    up to 14 px further on where the arrow is very short; as a last resort a
    smaller head. (q, width) if nothing clears."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy)
    reach = 45.0
    near = [b for b in avoid if b[0] < max(p[0], q[0]) + reach and min(p[0], q[0]) - reach < b[2]
            and b[1] < max(p[1], q[1]) + reach and min(p[1], q[1]) - reach < b[3]]
    if d == 0 or not near:
        return q, width
    ux, uy = dx / d, dy / d
    # Shorter first; on a very short arrow (units side by side), a little longer too.
    lengths = [d - 2 * i for i in range(int((d - 4) / 2) + 1)] + [d + 2 * i for i in range(1, 8)]
    for head_width in (width, width * 0.6):
        for sideways in _SIDEWAYS:
            for length in lengths:
                end = (p[0] + ux * length - uy * sideways, p[1] + uy * length + ux * sideways)
                head = points_box(head_points(p, end, head_width))
                if not any(overlaps(head, box) for box in near):
                    return end, head_width
    return q, width


def obstacles(state: GameState, pos: dict[str, Point], geo: Geometry | None) -> dict[str, Box]:
    """What arrowheads and dislodged units keep off: each unit's marker
    ("unit <location>") and each label ("label <province>")."""
    out = {f"unit {u.location}": unit_box(u.type, pos[u.location])
           for u in state.units.values() if u.location in pos}
    if geo is not None:
        from adjudicator.output.render_territory import label_box
        out.update({f"label {pid}": label_box(geo, pid) for pid in geo.provinces})
    return out


# Where a dislodged unit may stand, tried in turn: beside its attacker, lower
# right first (as players are used to), then round about, further out.
_DIRECTIONS = [(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]
_DISTANCES = (22.0, 30.0, 40.0, 52.0)


def place_dislodged(state: GameState, pos: dict[str, Point], taken: dict[str, Box],
                    size: tuple[float, float], centres: Iterable[Point] = ()) -> dict[str, Point]:
    """Where each dislodged unit is drawn: the first spot near its province
    whose ring touches no unit, label, supply centre or other dislodged unit,
    inside the board. Adds each placed ring to `taken`."""
    avoid = dict(taken)
    avoid.update({f"centre {i}": (x - 6.5, y - 6.5, x + 6.5, y + 6.5) for i, (x, y) in enumerate(centres)})
    placed: dict[str, Point] = {}
    for prov in sorted(state.dislodged):
        unit = state.dislodged[prov].unit
        x, y = pos[unit.location]
        spot = (x + 15, y + 13)
        for distance in _DISTANCES:
            found = None
            for dx, dy in _DIRECTIONS:
                norm = math.hypot(dx, dy)
                at = (x + dx / norm * distance, y + dy / norm * distance)
                ring = _ring_box(at)
                inside = ring[0] >= 0 and ring[1] >= 0 and ring[2] <= size[0] and ring[3] <= size[1]
                if inside and not any(overlaps(ring, box) for box in avoid.values()):
                    found = at
                    break
            if found is not None:
                spot = found
                break
        placed[prov] = spot
        taken[f"dislodged {prov}"] = avoid[f"dislodged {prov}"] = _ring_box(spot)
    return placed


def _ring_box(at: Point) -> Box:
    r = DISLODGED_RING + 1
    return at[0] - r, at[1] - r, at[0] + r, at[1] + r


def standoffs(orders: list[OrderLine], after: GameState) -> list[str]:
    """Provinces left empty where moves bounced (a standoff): targets of
    bounced moves with no unit in them after the phase."""
    bounced = {o.order.dest_province for o in orders
               if isinstance(o.order, Move) and o.result is Reason.BOUNCED and not o.void}
    return sorted(p for p in bounced if p not in after.units)


# --- the marks ----------------------------------------------------------------------
def standoff_mark(dwg: svgwrite.Drawing, at: Point, **attrs: str) -> Group:
    """A standoff: an eight-pointed burst, dark on a white edge."""
    x, y = at
    points = []
    for i in range(16):
        r = 10.0 if i % 2 == 0 else 4.5
        a = math.pi * i / 8
        points.append((round(x + r * math.cos(a), 1), round(y + r * math.sin(a), 1)))
    g = dwg.g(**attrs)
    g.add(dwg.polygon(points, fill=MARK_INK, stroke="#ffffff", stroke_width=1.2))
    return g


def build_mark(dwg: svgwrite.Drawing, at: Point, colour: str, **attrs: str) -> Group:
    """A build: a ring in the power's colour with a black '+' badge."""
    x, y = at
    g = dwg.g(**attrs)
    g.add(dwg.circle((round(x, 1), round(y, 1)), 18, fill="none", stroke="#ffffff", stroke_width=5))
    g.add(dwg.circle((round(x, 1), round(y, 1)), 18, fill="none", stroke=colour, stroke_width=3))
    bx, by = round(x + 14, 1), round(y - 14, 1)
    g.add(dwg.circle((bx, by), 6.5, fill="#ffffff", stroke=MARK_INK, stroke_width=1.4))
    g.add(dwg.line((bx - 3.5, by), (bx + 3.5, by), stroke=MARK_INK, stroke_width=2))
    g.add(dwg.line((bx, by - 3.5), (bx, by + 3.5), stroke=MARK_INK, stroke_width=2))
    return g


def disband_mark(dwg: svgwrite.Drawing, at: Point, **attrs: str) -> Group:
    """A disband: a dashed ghost of a unit struck through with a black bar
    (a failed order's cross is red and diagonal both ways)."""
    x, y = at
    g = dwg.g(**attrs)
    ghost = dwg.rect((round(x - 10, 1), round(y - 10, 1)), (20, 20), rx=3, fill="#ffffff", fill_opacity=0.7,
                     stroke=MARK_INK, stroke_width=1.4)
    ghost["stroke-dasharray"] = "3,2"
    g.add(ghost)
    g.add(dwg.line((round(x - 12, 1), round(y + 12, 1)), (round(x + 12, 1), round(y - 12, 1)), stroke=MARK_INK,
                   stroke_width=3.2, stroke_linecap="round"))
    return g
