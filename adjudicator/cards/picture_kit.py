"""The pieces the card games' pictures share: a drawing in the maps' palette
spirit (parchment panels, dark ink, DejaVu Sans), text cut to the room it
has, and chips laid out in rows that wrap. Every coordinate is rounded, so
the same view gives the same bytes. svgwrite escapes every text it writes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from adjudicator.output.colours import text_colour
from adjudicator.output.drawing import (
    LAND_FILL,
    LAND_STROKE,
    SEA_FILL,
    SEA_STROKE,
    rounded,
)

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

FONT = "DejaVu Sans, Arial, sans-serif"
INK = "#222222"
SOFT_INK = "#4a4a4a"          # 8.9:1 on white, 6.9:1 on the parchment
PAPER = "#ffffff"
PANEL_FILL, PANEL_STROKE = LAND_FILL, LAND_STROKE
MINE_FILL, MINE_STROKE = SEA_FILL, SEA_STROKE     # the owner's own panel: their hand
# DejaVu Sans is wide: its average glyph is about 0.6 of the font size.
CHAR_WIDTH = 0.6


class Chip(NamedTuple):
    """A rounded label in a colour: a card, a perk."""

    text: str
    fill: str
    title: str = ""        # the tooltip: a card's effect, say


def new_drawing(width: float, height: float) -> svgwrite.Drawing:
    from adjudicator.output.svgwrite_loader import defer_parser
    defer_parser()
    import svgwrite
    dwg = svgwrite.Drawing(size=(f"{rounded(width)}px", f"{rounded(height)}px"),
                           viewBox=f"0 0 {rounded(width)} {rounded(height)}", debug=False)
    dwg.add(dwg.rect((0, 0), (rounded(width), rounded(height)), fill=PAPER))
    return dwg


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def fit(text: str, size: float, room: float) -> str:
    """The text, cut with an ellipsis where it would run past `room` pixels."""
    if text_width(text, size) <= room:
        return text
    keep = max(1, int(room / (size * CHAR_WIDTH)) - 1)
    return text[:keep].rstrip() + "…"


def wrap(text: str, size: float, room: float, lines: int = 3) -> list[str]:
    """The text in lines that fit `room`, word by word, at most `lines` (the last cut)."""
    out: list[str] = []
    for word in text.split():
        if out and text_width(f"{out[-1]} {word}", size) <= room:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines - 1] + [" ".join(out[lines - 1:])]
    return [fit(line, size, room) for line in out] or [""]


def label(dwg: svgwrite.Drawing, group: Group, text: str, at: tuple[float, float], size: float,
          room: float, *, bold: bool = False, fill: str = INK, anchor: str = "start") -> None:
    """One line of text, cut to `room`, its whole text the tooltip when cut."""
    shown = fit(text, size, room)
    item = dwg.text(shown, insert=(rounded(at[0]), rounded(at[1])), font_size=size, fill=fill, text_anchor=anchor, **({"font_weight": "bold"} if bold else {}))
    if shown != text:
        item.set_desc(title=text)
    group.add(item)


def panel(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], size: tuple[float, float],
          *, mine: bool = False) -> None:
    group.add(dwg.rect((rounded(at[0]), rounded(at[1])), (rounded(size[0]), rounded(size[1])), rx=8, ry=8,
                       fill=MINE_FILL if mine else PANEL_FILL, stroke=MINE_STROKE if mine else PANEL_STROKE,
                       stroke_width=1.5))


CHIP_SIZE = 13           # font size of a chip's text
CHIP_HEIGHT = 22
CHIP_GAP = 5
CHIP_PAD = 7


def chip_width(chip: Chip, room: float) -> float:
    return min(room, text_width(chip.text, CHIP_SIZE) + 2 * CHIP_PAD + 2)


def chip_rows(chips: Sequence[Chip], room: float) -> list[list[tuple[Chip, float, float]]]:
    """The chips as rows that fit in `room`: each (chip, x offset, width)."""
    rows: list[list[tuple[Chip, float, float]]] = []
    x = 0.0
    for chip in chips:
        width = chip_width(chip, room)
        if not rows or x + width > room:
            rows.append([])
            x = 0.0
        rows[-1].append((chip, x, width))
        x += width + CHIP_GAP
    return rows


def chips_height(chips: Sequence[Chip], room: float) -> float:
    rows = len(chip_rows(chips, room))
    return rows * CHIP_HEIGHT + max(0, rows - 1) * CHIP_GAP


def draw_chips(dwg: svgwrite.Drawing, group: Group, chips: Sequence[Chip], at: tuple[float, float],
               room: float) -> float:
    """The chips from `at` (top left), wrapping within `room`; returns the height used."""
    for row_number, row in enumerate(chip_rows(chips, room)):
        y = at[1] + row_number * (CHIP_HEIGHT + CHIP_GAP)
        for chip, x, width in row:
            item = dwg.g(class_="chip")
            if chip.title:
                item.set_desc(title=chip.title)
            item.add(dwg.rect((rounded(at[0] + x), rounded(y)), (rounded(width), CHIP_HEIGHT), rx=5, ry=5,
                              fill=chip.fill, stroke=INK, stroke_opacity=0.3, stroke_width=1))
            item.add(dwg.text(fit(chip.text, CHIP_SIZE, width - 2 * CHIP_PAD),
                              insert=(rounded(at[0] + x + CHIP_PAD), rounded(y + 15.5)), font_size=CHIP_SIZE, fill=text_colour(chip.fill)))
            group.add(item)
    return chips_height(chips, room)


def badge(dwg: svgwrite.Drawing, group: Group, text: str, at: tuple[float, float], fill: str,
          *, radius: float = 14, size: float = 13) -> None:
    """A round token with its figure on it: coins, a military total."""
    group.add(dwg.circle((rounded(at[0]), rounded(at[1])), radius, fill=fill, stroke=INK, stroke_width=1))
    group.add(dwg.text(text, insert=(rounded(at[0]), rounded(at[1] + size * 0.36)), font_size=size,
                       font_weight="bold", text_anchor="middle", fill=text_colour(fill)))
