"""The phase's orders on the map: moves and retreats as arrows, supports
dashed, convoys dotted, holds ringed, builds ringed with a + badge, disbands
struck through; a failed or void order is drawn faint and crossed. Each order class has its mark (MARKS), drawn from
the typed order line: the order's own ends, its unit, whether it succeeded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import province_of
from adjudicator.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.outcome import OrderLine, UnusedBuilds
from adjudicator.output.colours import colour_of
from adjudicator.output.drawing import NODE_R, arrow, cross, midpoint, point, shorten
from adjudicator.output.map_marks import Box, build_mark, disband_mark
from adjudicator.output.wording import order_text, result_words

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

    from adjudicator.diplomacy.variant import Variant

Point = tuple[float, float]


@dataclass
class Pen:
    """One order's mark as it is drawn: where its unit stands, where the
    order points (None where the map has no such place), its power's colour."""

    dwg: svgwrite.Drawing
    group: Group
    start: Point
    target: Point | None
    origin: Point | None
    aims_at_move: bool          # a support of a unit that was ordered to move
    colour: str
    opacity: float
    # What its arrowhead keeps off: every other unit's marker, every label.
    avoid: list[Box] = field(default_factory=list)


def mark_move(pen: Pen) -> Point:
    """An arrow to the destination; a failure is crossed on it."""
    if pen.target is None:
        return pen.start
    arrow(pen.dwg, pen.group, pen.start, pen.target, pen.colour, opacity=pen.opacity, avoid=pen.avoid)
    return midpoint(pen.start, pen.target, 0.6)


def mark_support_hold(pen: Pen) -> Point:
    """A dashed line to the supported unit, ringed."""
    dwg, target = pen.dwg, pen.target
    if target is None:
        return pen.start
    p, q = shorten(pen.start, target, NODE_R - 4, NODE_R + 3)
    line = dwg.line(point(p), point(q), stroke=pen.colour, stroke_width=2, stroke_opacity=pen.opacity)
    line["stroke-dasharray"] = "7,4"
    pen.group.add(line)
    pen.group.add(dwg.circle(point(target), NODE_R + 3, stroke=pen.colour, stroke_width=2,
                             stroke_opacity=pen.opacity))
    return midpoint(pen.start, target)


def mark_support_move(pen: Pen) -> Point:
    """A dashed arrow to the middle of the supported move's arrow (or to its destination)."""
    if pen.target is None:
        return pen.start
    aim = midpoint(pen.origin, pen.target, 0.6) if pen.origin and pen.aims_at_move else pen.target
    arrow(pen.dwg, pen.group, pen.start, aim, pen.colour, width=2, opacity=pen.opacity, dash="7,4", avoid=pen.avoid)
    return midpoint(pen.start, aim)


def mark_convoy(pen: Pen) -> Point:
    """A dotted line to the middle of the convoyed army's path."""
    if pen.target is None:
        return pen.start
    aim = midpoint(pen.origin, pen.target) if pen.origin else pen.target
    p, q = shorten(pen.start, aim, NODE_R - 4, 4)
    line = pen.dwg.line(point(p), point(q), stroke=pen.colour, stroke_width=2.4, stroke_opacity=pen.opacity,
                        stroke_linecap="round")
    line["stroke-dasharray"] = "0.5,5"
    pen.group.add(line)
    return midpoint(pen.start, aim)


def mark_hold(pen: Pen) -> Point:
    pen.group.add(pen.dwg.circle(point(pen.start), NODE_R + 2, stroke=pen.colour, stroke_width=2.2,
                                 stroke_opacity=pen.opacity))
    return pen.start


def mark_build(pen: Pen) -> Point:
    """A ring in the power's colour with a + badge (not a colour a power is drawn in)."""
    pen.group.add(build_mark(pen.dwg, pen.start, pen.colour))
    return pen.start


def mark_disband(pen: Pen) -> Point:
    """A struck-through ghost of the unit: not the red cross of a failed order."""
    pen.group.add(disband_mark(pen.dwg, pen.start))
    return pen.start


def mark_nothing(pen: Pen) -> Point:
    return pen.start


# Each order class's mark; it returns where a failure's cross goes.
MARKS: dict[type, Callable[[Pen], Point]] = {
    Move: mark_move,
    Retreat: mark_move,
    SupportHold: mark_support_hold,
    SupportMove: mark_support_move,
    Convoy: mark_convoy,
    Hold: mark_hold,
    Build: mark_build,
    Disband: mark_disband,
}
# What each order's group is called in the SVG (its class) and sorted by:
# the class's name, a void order's "Void", and unused builds' "Waive".
NAMES: dict[type, str] = {UnusedBuilds: "Waive"}


def drawn_name(line: OrderLine) -> str:
    return "Void" if line.void else NAMES.get(type(line.order), type(line.order).__name__)


def drawn_ends(line: OrderLine) -> tuple[str, str]:
    """(origin, target) the order is drawn between; a void order is drawn at its unit alone."""
    return ("", "") if line.void else line.order.ends()


def draw_orders(dwg: svgwrite.Drawing, board: Group, variant: Variant, orders: list[OrderLine],
                pos: dict[str, Point], taken: dict[str, Box]) -> None:
    """Each order's mark; `taken` holds the unit markers and labels (by
    "unit <location>", "label <province>") that arrowheads keep off."""
    g = dwg.g(id="orders", fill="none")
    # Where each move goes, so supports and convoys can point at the arrow's middle.
    moves: dict[str, str] = {}
    for o in orders:
        target = drawn_ends(o)[1]
        if o.unit is not None and target and o.order.moves_to() is not None:
            moves[o.unit.province] = target
    shown = []
    for o in orders:
        origin, target = drawn_ends(o)
        shown.append((drawn_name(o), str(o.unit) if o.unit is not None else "", target, origin, o.power, o))
    for name, _, target, origin, _, o in sorted(shown, key=lambda row: row[:5]):
        loc = o.unit.location if o.unit is not None else ""
        if loc not in pos:
            continue
        failed = not o.succeeded or o.void
        opacity = 0.45 if failed else 0.95
        og = dwg.g(class_=f"order {name.lower()}{' failed' if failed else ''}")
        og.set_desc(title=f"{variant.power_name(o.power)}: {order_text(o)} ({result_words(o)})")
        # Its arrowhead may touch the unit's own marker (where it stood, or
        # where it moved to), no other.
        own = {f"unit {loc}"}
        og["data-unit"] = loc
        if o.order.moves_to() is not None and not failed and target:
            own.add(f"unit {target}")
            og["data-moved-to"] = target
        pen = Pen(dwg, og, pos[loc], pos.get(target) or pos.get(province_of(target)) if target else None,
                  pos.get(origin), bool(moves.get(origin)), colour_of(variant, o.power), opacity,
                  [box for key, box in sorted(taken.items()) if key not in own])
        mark = MARKS.get(type(o.order), mark_nothing) if not o.void else mark_nothing
        at = mark(pen)
        if failed:
            cross(dwg, og, at)
        g.add(og)
    board.add(g)
