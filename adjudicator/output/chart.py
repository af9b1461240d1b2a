"""The supply-centre chart: each power's centre count year by year, as an SVG
line chart in the map's palette, each line ending in the power's code (so
colour is never the only cue), with the victory line dashed."""

from __future__ import annotations

from adjudicator.diplomacy.variant import Variant
from adjudicator.output.colours import power_colours

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 48, 150, 40, 44
FONT = "DejaVu Sans, Arial, sans-serif"


def centre_chart_svg(variant: Variant, rows: list[tuple[str, dict[str, int]]], title: str = "") -> str:
    """rows: (label, {power: centres}) in order, e.g. ("1901", {...}) ... ("end", {...})."""
    from adjudicator.output.svgwrite_loader import defer_parser
    defer_parser()
    import svgwrite
    dwg = svgwrite.Drawing(size=(f"{WIDTH}px", f"{HEIGHT}px"), viewBox=f"0 0 {WIDTH} {HEIGHT}", debug=False)
    dwg.add(dwg.rect((0, 0), (WIDTH, HEIGHT), fill="#ffffff"))
    dwg.add(dwg.text(title or f"Supply centres by year ({variant.name})", insert=(LEFT, 24), font_size=16,
                     font_weight="bold", font_family=FONT, fill="#222222"))
    top = max([variant.victory_centres, *(n for _, counts in rows for n in counts.values())], default=1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(i: int) -> float:
        return round(LEFT + (plot_w * i / (len(rows) - 1) if len(rows) > 1 else plot_w / 2), 1)

    def y_at(n: float) -> float:
        return round(TOP + plot_h * (1 - n / top), 1)

    axes = dwg.g(id="axes", font_family=FONT, font_size=11, fill="#333333")
    step = 2 if top <= 20 else 5
    for n in range(0, top + 1, step):
        axes.add(dwg.line((LEFT, y_at(n)), (LEFT + plot_w, y_at(n)), stroke="#e2e2e2", stroke_width=1))
        axes.add(dwg.text(str(n), insert=(LEFT - 8, y_at(n) + 4), text_anchor="end"))
    for i, (label, _) in enumerate(rows):
        axes.add(dwg.text(label, insert=(x_at(i), TOP + plot_h + 18), text_anchor="middle"))
    win = dwg.line((LEFT, y_at(variant.victory_centres)), (LEFT + plot_w, y_at(variant.victory_centres)),
                   stroke="#222222", stroke_width=1.2)
    win["stroke-dasharray"] = "6,4"
    axes.add(win)
    axes.add(dwg.text(f"{variant.victory_centres} to win", insert=(LEFT + 4, y_at(variant.victory_centres) - 4)))
    dwg.add(axes)
    colours = power_colours(variant)
    lines = dwg.g(id="lines", font_family=FONT, font_size=11, font_weight="bold")
    ends: list[tuple[float, str]] = []
    # Each line a little above or below the true height, so that powers with
    # equal counts show as parallel stripes rather than one hiding another.
    spread = 1.6
    middle = (len(variant.powers) - 1) / 2
    for index, (power, info) in enumerate(variant.powers.items()):
        shift = round((index - middle) * spread, 1)
        points = [(x_at(i), round(y_at(counts.get(power, 0)) + shift, 1)) for i, (_, counts) in enumerate(rows)]
        if not points:
            continue
        g = dwg.g(id=f"line-{power}", class_="power-line")
        g.set_desc(title=f"{info.name}: " + ", ".join(f"{label} {counts.get(power, 0)}" for label, counts in rows))
        g.add(dwg.polyline(points, fill="none", stroke=colours[power], stroke_width=2.6,
                           stroke_linejoin="round", stroke_linecap="round"))
        for x, y in points:
            g.add(dwg.circle((x, y), 2.6, fill=colours[power]))
        lines.add(g)
        ends.append((points[-1][1], power))
    # The names at the right, in the order the lines end, spread so none overlaps.
    placed: list[float] = []
    for y, power in sorted(ends):
        at = max([y, *(p + 13 for p in placed[-1:])])
        placed.append(at)
        info = variant.powers[power]
        lines.add(dwg.line((LEFT + plot_w + 6, round(at, 1)), (LEFT + plot_w + 20, round(at, 1)),
                           stroke=colours[power], stroke_width=4))
        lines.add(dwg.text(f"{info.code} {info.name}"[:20], insert=(LEFT + plot_w + 24, round(at + 4, 1)),
                           fill="#222222"))
    dwg.add(lines)
    return str(dwg.tostring())
