"""Pieces the card games' table pictures share: the drawing, a palette every
vision tells apart, short unique labels for players, text that fits, tokens
and panels.

A picture is drawn from a game's view dict only (the public view, or one
player's private view), so it can show nothing its viewer may not see. Every
text goes through svgwrite, which escapes it; a name is cut to fit with an
ellipsis and given whole in the element's tooltip."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from adjudicator.output.colours import text_colour

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

FONT = "DejaVu Sans, Arial, sans-serif"
INK = "#222222"          # body text
MUTED = "#4f4f4f"        # notes: 8:1 on white, 7:1 on PANEL
PANEL = "#f4f1ea"        # a section's background
EDGE = "#b3aa98"         # a panel's border
EMPTY = "#ffffff"        # an open space
MARK = "#111111"         # the ring of the player to move
# Six colours (a seat's in Age of Artisans, a guild's in Age of Ambition) that
# differ, two by two and each against white and PANEL, by a CIEDE2000 colour
# difference of at least 20 in normal vision and 12 under simulated
# protanopia, deuteranopia and tritanopia (the maps' bar: docs/maps.md). Found
# by the maps' greedy grid search from the Okabe-Ito colours;
# tests/cards/test_table_pictures.py measures them.
PALETTE = ("#775544", "#66ccff", "#669977", "#eedd44", "#0077bb", "#dd6611")
# A character's advance in DejaVu Sans, on average over mixed text, is
# about 0.51 em (measured on the pictures' lines); 0.56 leaves room for
# capitals and wide letters when text is cut or wrapped to fit.
CHAR_EM = 0.56


class Canvas:
    """A drawing and the group its parts go into now."""

    def __init__(self, dwg: svgwrite.Drawing, body: Group) -> None:
        self.dwg, self.body = dwg, body

    @contextmanager
    def part(self, css: str, title: str = "") -> Iterator[None]:
        """Draw into a group of class `css` (its tooltip `title`): one player's
        panel, one district, the private part; tests find them by it."""
        outer, group = self.body, self.dwg.g(class_=css)
        if title:
            group.set_desc(title=title)
        self.body = group
        try:
            yield
        finally:
            self.body = outer
            outer.add(group)


def drawing(width: int) -> svgwrite.Drawing:
    """A new drawing `width` px wide; `finish` sets its height."""
    from adjudicator.output.svgwrite_loader import defer_parser
    defer_parser()
    import svgwrite
    dwg = svgwrite.Drawing(size=(f"{width}px", "10px"), debug=False)
    return dwg


def finish(dwg: svgwrite.Drawing, width: int, height: float, body: Group) -> str:
    """The SVG text: a white page of the height the content reached."""
    h = int(height) + 1
    dwg["height"] = f"{h}px"
    dwg["viewBox"] = f"0 0 {width} {h}"
    dwg.elements.insert(1, dwg.rect((0, 0), (width, h), fill="#ffffff"))
    dwg.add(body)
    return str(dwg.tostring())


def short_labels(names: Sequence[str]) -> dict[str, str]:
    """A label of at most 3 characters per name, unique among them: the
    shortest prefix of 2 or 3 that no other name shares, its first letter
    capitalised ("alice" -> "Al"); failing that, the first letter and a
    number."""
    def cut(name: str, size: int) -> str:
        return name[:1].upper() + name[1:size]

    labels: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        others = [n for n in names if n != name]
        label = next((cut(name, size) for size in (2, 3)
                      if cut(name, size) not in used and all(cut(o, size) != cut(name, size) for o in others)), "")
        number = 1
        while not label or label in used:
            label, number = f"{name[:1].upper()}{number}", number + 1
        labels[name] = label
        used.add(label)
    return labels


def unique_codes(ids: Sequence[str]) -> dict[str, str]:
    """A code per id, 1 or 2 letters, unique: the first letter where no
    other id starts with it, else the first letter and the first later one
    that makes a code not yet taken ("masons" Ma, "merchants" Me, "mercenaries" Mr)."""
    codes: dict[str, str] = {}
    for index, ident in enumerate(ids):
        first = ident[:1].upper()
        if sum(1 for o in ids if o[:1].upper() == first) == 1:
            codes[ident] = first
            continue
        taken = set(codes.values())
        code = next((first + c.lower() for c in ident[1:] if c.isalnum() and first + c.lower() not in taken),
                    f"{first}{index + 1}")
        codes[ident] = code
    return codes


def fit(text: str, width: float, size: float) -> str:
    """`text` cut with an ellipsis to about `width` px at font size `size`."""
    most = max(1, int(width / (size * CHAR_EM)))
    return text if len(text) <= most else text[:most - 1] + "\u2026"


def wrap(text: str, width: float, size: float, lines: int = 3) -> list[str]:
    """`text` in lines of about `width` px, at most `lines` of them (the last cut to fit)."""
    most = max(4, int(width / (size * CHAR_EM)))
    out = textwrap.wrap(text, most) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = fit(out[-1] + " \u2026", width, size) if len(out[-1]) < most - 2 else out[-1][:most - 1] + "\u2026"
    return out


def text(dwg: svgwrite.Drawing, group: Group, words: str, at: tuple[float, float], *, size: float = 13,
         bold: bool = False, fill: str = INK, anchor: str = "start", title: str = "") -> None:
    """A line of text; `title` adds a tooltip (the whole of a cut name)."""
    element = dwg.text(words, insert=(round(at[0], 1), round(at[1], 1)), font_size=size, fill=fill)
    if bold:
        element["font-weight"] = "bold"
    if anchor != "start":
        element["text-anchor"] = anchor
    if title:
        element.set_desc(title=title)
    group.add(element)


def panel(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], size: tuple[float, float], *,
          fill: str = PANEL, stroke: str = EDGE, width: float = 1.0) -> None:
    group.add(dwg.rect((round(at[0], 1), round(at[1], 1)), (round(size[0], 1), round(size[1], 1)),
                       rx=6, fill=fill, stroke=stroke, stroke_width=width))


def token(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], fill: str, label: str, *,
          radius: float = 11, title: str = "", ring: str = "#000000", square: bool = False) -> None:
    """A round token (a worker, an agent) or, `square`, a cube (a building),
    in `fill`, with its label: colour is never the only cue."""
    x, y = round(at[0], 1), round(at[1], 1)
    g = dwg.g()
    if title:
        g.set_desc(title=title)
    if square:
        g.add(dwg.rect((round(x - radius, 1), round(y - radius, 1)), (round(2 * radius, 1), round(2 * radius, 1)),
                       rx=2, fill=fill, stroke=ring, stroke_width=1.2))
    else:
        g.add(dwg.circle((x, y), radius, fill=fill, stroke=ring, stroke_width=1.2))
    size = round(radius * (1.0 if len(label) < 2 else 0.82 if len(label) < 3 else 0.66), 1)
    label_text = dwg.text(label, insert=(x, round(y + size * 0.36, 1)), font_size=size, fill=text_colour(fill),
                          text_anchor="middle")
    label_text["font-weight"] = "bold"
    g.add(label_text)
    group.add(g)


def count_boxes(dwg: svgwrite.Drawing, group: Group, counts: Sequence[tuple[str, Any]], at: tuple[float, float],
                width: float) -> None:
    """A row of boxes across `width`, each a count under its small label ("silver" / 17)."""
    step = width / max(1, len(counts))
    x0, y = at
    for i, (label, value) in enumerate(counts):
        x = x0 + i * step
        group.add(dwg.rect((round(x, 1), round(y, 1)), (round(step - 4, 1), 40), rx=4, fill=EMPTY, stroke=EDGE))
        text(dwg, group, label, (x + (step - 4) / 2, y + 13), size=10, anchor="middle", fill=MUTED)
        text(dwg, group, str(value), (x + (step - 4) / 2, y + 34), size=16, anchor="middle", bold=True)


def heading(dwg: svgwrite.Drawing, group: Group, words: str, x: float, y: float) -> float:
    """A section heading; the y below it."""
    text(dwg, group, words, (x, y + 16), size=15, bold=True)
    return y + 26


def goods_text(goods: dict[str, int], order: Sequence[str] = ()) -> str:
    """"2 wood, 1 stone": in `order`, then any other kind by name, so that
    the words never hang on how a mapping was ordered."""
    rank = {k: i for i, k in enumerate(order)}
    kinds = sorted(goods, key=lambda k: (rank.get(k, len(rank)), k))
    parts = [f"{goods[k]} {k.replace('_', ' ')}" for k in kinds if goods[k]]
    return ", ".join(parts) if parts else "nothing"


def in_order(mapping: dict[str, Any], order: Sequence[str]) -> list[tuple[str, Any]]:
    """A mapping's items in `order` (players in seat order, guilds in the
    variant's), then any others by name: the picture never hangs on how a
    mapping was ordered."""
    rank = {k: i for i, k in enumerate(order)}
    return [(k, mapping[k]) for k in sorted(mapping, key=lambda k: (rank.get(k, len(rank)), k))]
