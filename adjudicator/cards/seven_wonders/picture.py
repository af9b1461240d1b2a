"""7 Wonders as a picture: each player's city, one panel a seat in seating
order, drawn from the same view as the text report. A city shows its
buildings as chips in the cards' own colours, one row a colour and each row
named (so colour is never the only cue), its wonder's stages built or not,
its coins, shields and military tokens; the owner's picture (the private
view laid over the public one) adds their hand on top, with each card's
cost and effect as its tooltip. Nothing is drawn that the view does not
hold, so another player's hand can only ever be in their own picture."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.cards.picture_kit import (
    FONT,
    INK,
    SOFT_INK,
    Chip,
    badge,
    chips_height,
    draw_chips,
    label,
    new_drawing,
    panel,
    wrap,
)
from adjudicator.output.drawing import rounded

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

WIDTH = 500
MARGIN = 10
INNER = 12                       # a panel's padding
ROW_LABEL = 62                   # the colour's name before its chips
# The cards' colours as printed, deep enough that a chip's text (black or
# white, whichever reads better) has at least 4.5:1 contrast.
CARD_COLOURS = {"brown": "#8b5a2b", "grey": "#a6a6a6", "blue": "#2f67b1", "yellow": "#f2c230",
                "red": "#b8322a", "green": "#2b7a4b", "purple": "#74408f"}
COLOUR_NAMES = {"brown": "Brown", "grey": "Grey", "blue": "Blue", "yellow": "Yellow", "red": "Red",
                "green": "Green", "purple": "Purple"}
COIN_FILL, SHIELD_FILL = "#e9c46a", "#b8322a"
STAGE_BUILT, STAGE_OPEN = "#6b5a3a", "#ffffff"


def draw(view: dict[str, Any], viewer: str | None) -> str:
    """The table as SVG text: the public view when `viewer` is None, else that
    player's private view (over the public one)."""
    room = WIDTH - 2 * MARGIN - 2 * INNER
    hand = _hand_chips(view) if viewer is not None else []
    pile = [Chip(str(name), "#ffffff") for name in view.get("discard") or []] if viewer is not None else []
    cities = [c for c in view.get("cities") or [] if isinstance(c, dict)]
    scores = {str(s.get("player")): s for s in view.get("scores") or [] if isinstance(s, dict)}
    heights = [_city_height(city, room) for city in cities]
    mine_height = _mine_height(view, hand, pile, room) if viewer is not None else 0.0
    height = 62 + (mine_height + 10 if mine_height else 0) + sum(h + 10 for h in heights) + 4
    dwg = new_drawing(WIDTH, height)
    dwg.set_desc(title=summary(view, cities))
    top = dwg.g(id="table", font_family=FONT, fill=INK)
    _heading(dwg, top, view)
    y = 62.0
    if viewer is not None and mine_height:
        _mine(dwg, top, view, viewer, hand, pile, y, mine_height, room)
        y += mine_height + 10
    for city, city_height in zip(cities, heights):
        _city(dwg, top, city, scores.get(str(city.get("player"))), y, city_height, room)
        y += city_height + 10
    dwg.add(top)
    return str(dwg.tostring())


def summary(view: dict[str, Any], cities: list[dict[str, Any]]) -> str:
    """What the picture shows, in brief: its title, the site's alt text."""
    head = "7 Wonders, the game is over" if view.get("over") else \
        f"7 Wonders, Age {view.get('age_name', '')} before turn {view.get('turn', '')}"
    parts = []
    for city in cities:
        built = city.get("built")
        built = built if isinstance(built, dict) else {}
        counts = ", ".join(f"{len(names)} {colour}" for colour, names in built.items() if names)
        tokens = sum(int(t) for t in city.get("tokens") or [] if isinstance(t, int))
        parts.append(f"{city.get('player', '')}, {city.get('city', '')} ({city.get('side', '')}): "
                     f"{city.get('coins', 0)} coins, {city.get('shields', 0)} shields, military {tokens:+d}, "
                     f"wonder {city.get('stages', 0)} of {city.get('stages_total', 0)}, "
                     f"{city.get('cards', 0)} buildings{f' ({counts})' if counts else ''}")
    return f"{head}. " + "; ".join(parts) + "."


def _heading(dwg: svgwrite.Drawing, group: Group, view: dict[str, Any]) -> None:
    if view.get("over"):
        title, line = "7 Wonders: the game is over", "Final scores beside each city."
    else:
        title = f"7 Wonders: Age {view.get('age_name', '')}, before turn {view.get('turn', '')}"
        line = (f"Hands pass to the {view.get('passing', 'left')}; "
                f"the discard pile holds {view.get('discard_pile', 0)} cards.")
    label(dwg, group, title, (MARGIN, 26), 18, WIDTH - 2 * MARGIN, bold=True)
    label(dwg, group, line, (MARGIN, 48), 13, WIDTH - 2 * MARGIN, fill=SOFT_INK)


def _hand_chips(view: dict[str, Any]) -> list[Chip]:
    chips = []
    for card in view.get("hand") or []:
        if not isinstance(card, dict):
            continue
        colour = str(card.get("colour", ""))
        tip = f"{COLOUR_NAMES.get(colour, colour)}; cost: {card.get('cost') or 'free'}; {card.get('effect', '')}"
        chips.append(Chip(str(card.get("name", "")), CARD_COLOURS.get(colour, "#ffffff"), tip))
    return chips


def _mine_height(view: dict[str, Any], hand: list[Chip], pile: list[Chip], room: float) -> float:
    height = 2 * INNER + 20 + (chips_height(hand, room) if hand else 18)
    if view.get("wonder_stage"):
        height += 4 + 16 * len(_stage_lines(view, room))
    if pile:
        height += 28 + chips_height(pile, room)
    return height


def _stage_lines(view: dict[str, Any], room: float) -> list[str]:
    return wrap(f"Next wonder stage: {view.get('wonder_stage', '')}", 12, room)


def _mine(dwg: svgwrite.Drawing, group: Group, view: dict[str, Any], viewer: str, hand: list[Chip],
          pile: list[Chip], y: float, height: float, room: float) -> None:
    mine = dwg.g(id="your-hand")
    panel(dwg, mine, (MARGIN, y), (WIDTH - 2 * MARGIN, height), mine=True)
    x = MARGIN + INNER
    label(dwg, mine, f"Your hand, {viewer} (only you see this)", (x, y + INNER + 14), 15, room, bold=True)
    y += INNER + 24
    if hand:
        y += draw_chips(dwg, mine, hand, (x, y), room)
    else:
        label(dwg, mine, "No cards in hand.", (x, y + 13), 13, room, fill=SOFT_INK)
        y += 18
    for line in _stage_lines(view, room) if view.get("wonder_stage") else []:
        label(dwg, mine, line, (x, y + 17), 12, room, fill=INK)
        y += 16
    y += 4 if view.get("wonder_stage") else 0
    if pile:
        label(dwg, mine, "The discard pile, to build one from:", (x, y + 20), 13, room, bold=True)
        draw_chips(dwg, mine, pile, (x, y + 28), room)
    group.add(mine)


def _built_rows(city: dict[str, Any]) -> list[tuple[str, list[Chip]]]:
    built = city.get("built") or {}
    rows = []
    for colour, fill in CARD_COLOURS.items():
        names = built.get(colour) if isinstance(built, dict) else None
        if names:
            rows.append((colour, [Chip(str(name), fill) for name in names]))
    return rows


def _city_height(city: dict[str, Any], room: float) -> float:
    rows = _built_rows(city)
    cards = sum(chips_height(chips, room - ROW_LABEL) + 6 for _, chips in rows) if rows else 20
    science = 20 if city.get("science") else 0
    return 2 * INNER + 22 + 34 + 36 + cards + science


def _city(dwg: svgwrite.Drawing, group: Group, city: dict[str, Any], score: dict[str, Any] | None,
          y: float, height: float, room: float) -> None:
    player = str(city.get("player", ""))
    box = dwg.g(class_="city")
    box.set_desc(title=f"{player}'s city")
    panel(dwg, box, (MARGIN, y), (WIDTH - 2 * MARGIN, height))
    x = MARGIN + INNER
    line = y + INNER + 15
    label(dwg, box, player, (x, line), 17, room * 0.55, bold=True)
    where = f"{city.get('city', '')} ({city.get('side', '')})"
    if score is not None:
        where = f"{score.get('total', 0)} VP, place {score.get('rank', '')}"
    label(dwg, box, where, (x + room, line), 12, room * 0.45 - 8, fill=SOFT_INK, anchor="end")
    line += 12
    # Coins, shields and military tokens.
    stats = line + 20
    badge(dwg, box, str(city.get("coins", 0)), (x + 15, stats), COIN_FILL)
    label(dwg, box, "coins", (x + 34, stats + 5), 13, 60)
    badge(dwg, box, str(city.get("shields", 0)), (x + 105, stats), SHIELD_FILL)
    label(dwg, box, "shields", (x + 124, stats + 5), 13, 70)
    tokens = [int(t) for t in city.get("tokens") or [] if isinstance(t, int)]
    token_text = " ".join(f"{t:+d}".replace("-", "−") for t in tokens) or "none"
    label(dwg, box, f"Military: {token_text}", (x + 200, stats + 5), 13, room - 200)
    # The wonder's stages.
    line = stats + 22
    stages = [s for s in city.get("stage_list") or [] if isinstance(s, dict)]
    label(dwg, box, f"Wonder {city.get('stages', 0)}/{city.get('stages_total', len(stages))}",
          (x, line + 16), 13, ROW_LABEL + 40, bold=True)
    for i, stage in enumerate(stages):
        sx = x + 100 + i * 60
        built = bool(stage.get("built"))
        item = dwg.g(class_="stage")
        item.set_desc(title=f"Stage {stage.get('number', i + 1)}: {'built' if built else 'not built'}; "
                            f"costs {stage.get('cost', '')}; {stage.get('text', '')}")
        rect = dwg.rect((rounded(sx), rounded(line + 2)), (52, 22), rx=4, ry=4,
                        fill=STAGE_BUILT if built else STAGE_OPEN, stroke=STAGE_BUILT, stroke_width=1.5)
        if not built:
            rect["stroke-dasharray"] = "4,3"
        item.add(rect)
        item.add(dwg.text(f"{'✓ ' if built else ''}{stage.get('number', i + 1)}",
                          insert=(rounded(sx + 26), rounded(line + 18)), font_size=13, font_weight="bold", text_anchor="middle", fill="#ffffff" if built else INK))
        box.add(item)
    after = x + 100 + len(stages) * 60
    label(dwg, box, f"left {city.get('left', '')}, right {city.get('right', '')}", (x + room, line + 17), 12,
          x + room - after - 4, fill=SOFT_INK, anchor="end")
    # The buildings, a row a colour.
    line += 34
    rows = _built_rows(city)
    if not rows:
        label(dwg, box, "No buildings yet.", (x, line + 14), 13, room, fill=SOFT_INK)
        line += 20
    for colour, chips in rows:
        label(dwg, box, COLOUR_NAMES[colour], (x, line + 15), 12, ROW_LABEL - 4, fill=SOFT_INK)
        line += draw_chips(dwg, box, chips, (x + ROW_LABEL, line), room - ROW_LABEL) + 6
    science = city.get("science") or {}
    if science and isinstance(science, dict):
        text = ", ".join(f"{count} {symbol}" for symbol, count in sorted(science.items()))
        label(dwg, box, f"Science: {text}", (x, line + 14), 12, room, fill=INK)
    group.add(box)

