"""The Age of Artisans table as a picture: the board (the open locations'
workers, the Black Market, the Guildhall and the Cathedral, the virtue track,
the apprentices for hire) and each player's workshop; in a player's own
picture, their hand and the cards they are choosing from.

Drawn from the view alone (`GAME.public_view`, or `GAME.private_view` for
the owner's picture), so a hand can only be in its owner's picture. Each
player is a seat colour and always their short label (a legend gives the
whole name), so colour is never the only cue."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.cards.table_art import (
    EDGE,
    EMPTY,
    MARK,
    MUTED,
    PALETTE,
    PANEL,
    Canvas,
    count_boxes,
    drawing,
    finish,
    fit,
    goods_text,
    heading,
    in_order,
    panel,
    short_labels,
    text,
    token,
    wrap,
)

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

WIDTH = 600
PAD = 12
INNER = WIDTH - 2 * PAD
# The open locations, as the board names them, with what a worker there does (the seed's words, short).
LOCATIONS = {
    "mines": ("Mines", "1 clay/worker or 1 gold/2"),
    "quarry": ("Quarry", "1 stone a worker"),
    "forest": ("Forest", "1 wood a worker"),
    "silversmith": ("Silversmith", "1 silver a worker, +1"),
    "guardhouse": ("Guardhouse", "1 action a worker"),
    "storehouse": ("King's Storehouse", "1 trade a worker"),
    "workhouse": ("Workhouse", "hire, or draw buildings"),
    "tax_stand": ("Tax Stand", "-2 virtue: take the tax"),
    "town_center": ("Town Center", "capture workers"),
}
SLOTS = {"small": "Small market (1 silver)", "middle": "Hire / draw (2 silver)", "large": "Large market (3 silver)"}
RESOURCES = ("silver", "clay", "wood", "stone", "gold", "marble")
VIRTUE_MAX = 14
CATHEDRAL_LEVELS = 5


class Table(Canvas):
    """What every part of the picture needs: the drawing, the view, who sees it, and each player's label and colour."""

    def __init__(self, dwg: svgwrite.Drawing, body: Group, view: dict[str, Any], viewer: str | None) -> None:
        super().__init__(dwg, body)
        self.view, self.viewer = view, viewer
        self.order: list[str] = list(view["order"])
        self.label = short_labels(self.order)
        self.colour = {name: PALETTE[(int(view["players"][name]["seat"]) - 1) % len(PALETTE)] for name in self.order}

    def worker(self, at: tuple[float, float], name: str, radius: float = 11) -> None:
        ring = MARK if name == self.view.get("current") else "#000000"
        token(self.dwg, self.body, at, self.colour.get(name, EMPTY), self.label.get(name, "?"),
              radius=radius, title=name, ring=ring)

    def workers_row(self, x: float, y: float, width: float, who: dict[str, int]) -> float:
        """Tokens "Al x3" for each player's workers, wrapping; the y below them."""
        step, cx, cy = 58, x, y
        if not who:
            text(self.dwg, self.body, "none", (x, y + 4), size=12, fill=MUTED)
            return y + 14
        for name, count in in_order(who, self.order):
            if cx + step > x + width + 4:
                cx, cy = x, cy + 26
            self.worker((cx + 11, cy), name)
            text(self.dwg, self.body, f"\u00d7{count}", (cx + 25, cy + 5), size=13, bold=True)
            cx += step
        return cy + 14


def draw(view: dict[str, Any], viewer: str | None) -> str:
    """The table as SVG text: the public picture (viewer None) or `viewer`'s own."""
    dwg = drawing(WIDTH)
    body = dwg.g(font_family="DejaVu Sans, Arial, sans-serif")
    table = Table(dwg, body, view, viewer)
    y = _title(table, PAD)
    if viewer is not None and "hand" in view:
        with table.part("private", viewer):
            y = _private(table, y)
    y = _locations(table, y)
    y = _market_and_hall(table, y)
    y = _virtue_track(table, y)
    y = _display(table, y)
    y = _workshops(table, y)
    if view.get("scores"):
        y = _scores(table, y)
    return finish(dwg, WIDTH, y + PAD, body)


def _title(t: Table, y: float) -> float:
    v = t.view
    stage = {"draft": "starting apprentice draft", "over": "the game is over"}.get(v["stage"], f"turn {v['turn']}")
    line = f"Age of Artisans: {stage}"
    if v["stage"] != "over" and v.get("current"):
        line += f", {v['current']} to play"
    text(t.dwg, t.body, fit(line, INNER, 18), (PAD, y + 20), size=18, bold=True, title=line)
    y += 30
    notes = []
    if v.get("final_left") is not None and v["stage"] != "over":
        notes.append("final round")
    if v.get("pending"):
        notes.append(f"{v['pending']['player']} is choosing ({v['pending']['kind']})")
    if t.viewer is not None:
        notes.append(f"{t.viewer}'s picture: your hand is secret")
    if notes:
        text(t.dwg, t.body, fit("; ".join(notes), INNER, 12), (PAD, y + 10), size=12, fill=MUTED)
        y += 18
    # The key: each player's token, whole name and seat.
    x: float = PAD
    for name in t.order:
        label = fit(name, 130, 13)
        width = 30 + len(label) * 13 * 0.6 + 14
        if x + width > WIDTH - PAD:
            x, y = PAD, y + 26
        t.worker((x + 11, y + 12), name)
        text(t.dwg, t.body, label, (x + 27, y + 17), size=13, bold=name == v.get("current"), title=name)
        x += width
    return y + 32


def _private(t: Table, y: float) -> float:
    """The viewer's hand, and what they are choosing from: only in their picture."""
    v = t.view
    rows = [("Your hand (secret)", list(v.get("hand") or []))]
    choosing = v.get("choosing")
    if choosing:
        rows.append((f"You are choosing ({choosing['kind']})", list(choosing.get("options") or [])))
    group = t.dwg.g()
    top = y
    y += 6
    inner = t.dwg, group
    for title, cards in rows:
        text(*inner, title, (PAD + 10, y + 14), size=14, bold=True)
        y += 22
        if not cards:
            text(*inner, "none", (PAD + 10, y + 10), size=12, fill=MUTED)
            y += 18
        for card in cards:
            need = f"; needs {'/'.join(card['skills'])}" if card.get("skills") else ""
            line = f"#{card['id']} {card['name']}: {card['vp']} VP, costs {goods_text(card['cost'], RESOURCES)}{need}"
            if card.get("effect"):
                line += f". {card['effect'][:1].upper()}{card['effect'][1:]}"
            first, *rest = wrap(line, INNER - 34, 12, lines=3)
            text(*inner, first, (PAD + 10, y + 10), size=12)
            for part in rest:
                y += 15
                text(*inner, part, (PAD + 24, y + 10), size=12)
            y += 17
        y += 4
    t.body.add(t.dwg.rect((PAD, top), (INNER, round(y - top, 1)), rx=6, fill="#fff8dc", stroke="#8a6d00",
                          stroke_width=1.5))
    t.body.add(group)
    return y + 10


def _locations(t: Table, y: float) -> float:
    y = heading(t.dwg, t.body, "The board", PAD, y)
    cols, gap = 3, 8
    width = (INNER - gap * (cols - 1)) / cols
    names = list(LOCATIONS)
    for row in range(0, len(names), cols):
        height = 0.0
        # Each tile as tall as its row's fullest one.
        for loc in names[row:row + cols]:
            who = t.view["board"].get(loc, {})
            per_row = max(1, int((width - 12) // 58))
            height = max(height, 44 + 26 * max(1, -(-len(who) // per_row)))
        for col, loc in enumerate(names[row:row + cols]):
            x = PAD + col * (width + gap)
            title, does = LOCATIONS[loc]
            if loc == "tax_stand":
                does = f"{t.view['tax_stand']} silver on it"
            with t.part("location", loc):
                panel(t.dwg, t.body, (x, y), (width, height))
                text(t.dwg, t.body, title, (x + 8, y + 17), size=13, bold=True)
                text(t.dwg, t.body, fit(does, width - 14, 11), (x + 8, y + 31), size=11, fill=MUTED)
                t.workers_row(x + 8, y + 50, width - 12, t.view["board"].get(loc, {}))
        y += height + gap
    return y


def _market_and_hall(t: Table, y: float) -> float:
    """The Black Market's three slots beside the Guildhall and the Cathedral."""
    v = t.view
    top = y
    left_w = 236
    market_h = 44 + 52 * len(SLOTS)
    panel(t.dwg, t.body, (PAD, y), (left_w, market_h))
    text(t.dwg, t.body, "Black Market", (PAD + 8, y + 18), size=13, bold=True)
    text(t.dwg, t.body, f"-1 virtue each; resets so far: {v['resets']}", (PAD + 8, y + 32), size=11, fill=MUTED)
    sy = y + 44
    for slot, title in SLOTS.items():
        who = v["black_market"].get(slot)
        if who:
            t.worker((PAD + 20, sy + 14), who)
        else:
            t.body.add(t.dwg.circle((PAD + 20, sy + 14), 11, fill=EMPTY, stroke=EDGE, stroke_width=1.2))
        text(t.dwg, t.body, title, (PAD + 38, sy + 12), size=12, bold=True)
        offer = {"small": v["market_offers"].get("small"), "large": v["market_offers"].get("large")}.get(slot)
        note = f"gain {goods_text(offer, RESOURCES)}" if offer is not None else "hire an apprentice free, or draw"
        for i, part in enumerate(wrap(note, left_w - 44, 11, lines=2)):
            text(t.dwg, t.body, part, (PAD + 38, sy + 26 + 13 * i), size=11, fill=MUTED)
        sy += 52
    # The Guildhall: a row of spaces per round of building, filled left to right.
    gx, gw = PAD + left_w + 8, INNER - left_w - 8
    hall = v["guildhall"]
    rows = hall["rows"]
    cell = 26
    height = max(float(market_h), 44 + len(rows) * cell + 10)
    panel(t.dwg, t.body, (gx, y), (gw, height))
    text(t.dwg, t.body, f"Guildhall {hall['filled']}/{hall['size']}", (gx + 8, y + 18), size=13, bold=True)
    text(t.dwg, t.body, "the game ends when it is full", (gx + 8, y + 32), size=11, fill=MUTED)
    for r, row in enumerate(rows):
        for c, who in enumerate(row):
            at = (gx + 20 + c * cell, y + 56 + r * cell)
            if who:
                t.worker(at, who)
            else:
                t.body.add(t.dwg.circle(at, 11, fill=EMPTY, stroke=EDGE, stroke_width=1.2))
    # The Cathedral: five levels, each player's token on the level reached.
    # Right of the spaces, and clear of the Guildhall's heading.
    cx = max(gx + 20 + (max((len(r) for r in rows), default=1) - 1) * cell + 19, gx + 172)
    level_w = gx + gw - cx - 8
    text(t.dwg, t.body, "Cathedral", (cx, y + 18), size=13, bold=True)
    reached = {name: int(p["cathedral"]) for name, p in v["players"].items()}
    for level in range(CATHEDRAL_LEVELS, -1, -1):
        ly = y + 30 + (CATHEDRAL_LEVELS - level) * 24
        t.body.add(t.dwg.rect((round(cx, 1), ly), (round(level_w, 1), 22), fill=EMPTY if level else PANEL,
                              stroke=EDGE, stroke_width=1))
        text(t.dwg, t.body, str(level), (cx + 6, ly + 16), size=12, bold=True, fill=MUTED)
        here = [name for name in t.order if reached.get(name) == level]
        # Closer together where many share a level, so all stay inside it.
        step = min(21.0, (level_w - 34) / max(1, len(here) - 1)) if len(here) > 1 else 21.0
        for i, name in enumerate(here):
            t.worker((cx + 29 + i * step, ly + 11), name, radius=9.5)
    return top + max(height, 30 + (CATHEDRAL_LEVELS + 1) * 24 + 8) + 8


def _virtue_track(t: Table, y: float) -> float:
    """The virtue track, 0 to 14: each player's token on their virtue."""
    step = INNER / (VIRTUE_MAX + 1)
    stacks: dict[int, list[str]] = {}
    for name in t.order:
        stacks.setdefault(max(0, min(VIRTUE_MAX, int(t.view["players"][name]["virtue"]))), []).append(name)
    tallest = max((len(s) for s in stacks.values()), default=1)
    height = 40 + 22 * tallest
    panel(t.dwg, t.body, (PAD, y), (INNER, height))
    text(t.dwg, t.body, "Virtue", (PAD + 8, y + 17), size=13, bold=True)
    for n in range(VIRTUE_MAX + 1):
        x = PAD + n * step
        text(t.dwg, t.body, str(n), (x + step / 2, y + 34), size=11, anchor="middle", fill=MUTED)
        for i, name in enumerate(stacks.get(n, [])):
            t.worker((x + step / 2, y + 50 + 22 * i), name, radius=10)
    return y + height + 8


def _display(t: Table, y: float) -> float:
    """The apprentices for hire: two rows, column 1 on the left."""
    rows = t.view["display"]
    cols = max((len(r) for r in rows), default=1)
    gap = 6
    width = (INNER - gap * (cols - 1)) / cols
    text(t.dwg, t.body, "Apprentices for hire", (PAD, y + 14), size=13, bold=True)
    decks = (f"decks: {t.view['building_deck']} buildings, {t.view['apprentice_deck']} apprentices, "
             f"{t.view['rewards_left']} rewards")
    text(t.dwg, t.body, decks, (WIDTH - PAD, y + 14), size=11, fill=MUTED, anchor="end")
    y += 22
    for row in rows:
        for c, card in enumerate(row):
            x = PAD + c * (width + gap)
            if card is None:
                panel(t.dwg, t.body, (x, y), (width, 50), fill=EMPTY)
                text(t.dwg, t.body, "(empty)", (x + 8, y + 28), size=11, fill=MUTED)
                continue
            panel(t.dwg, t.body, (x, y), (width, 50))
            text(t.dwg, t.body, fit(card["name"], width - 12, 12), (x + 7, y + 16), size=12, bold=True,
                 title=f"{card['name']}: {card['ability']}")
            text(t.dwg, t.body, fit(f"#{card['id']} {'/'.join(card['skills'])}", width - 12, 11), (x + 7, y + 30),
                 size=11, fill=MUTED)
            extra = []
            if card.get("silver"):
                extra.append(f"{card['silver']} silver")
            if card.get("virtue"):
                extra.append(f"virtue {card['virtue']:+d}")
            if extra:
                text(t.dwg, t.body, fit(", ".join(extra), width - 12, 11), (x + 7, y + 44), size=11, bold=True)
        y += 50 + gap
    return y + 4


def _workshops(t: Table, y: float) -> float:
    y = heading(t.dwg, t.body, "Workshops", PAD, y)
    for name in t.order:
        with t.part("workshop", name):
            y = _workshop(t, name, y) + 8
    return y


def _workshop(t: Table, name: str, y: float) -> float:
    p = t.view["players"][name]
    lines = _workshop_lines(p, t.order)
    wrapped = [part for line in lines for part in wrap(line, INNER - 20, 12, lines=2)]
    height = 84 + 16 * len(wrapped)
    to_play = name == t.view.get("current") and t.view["stage"] != "over"
    panel(t.dwg, t.body, (PAD, y), (INNER, height), stroke=MARK if to_play else EDGE, width=2 if to_play else 1)
    t.worker((PAD + 20, y + 18), name)
    head = fit(name, INNER - 220, 14)
    text(t.dwg, t.body, head, (PAD + 38, y + 23), size=14, bold=True, title=name)
    side = f"seat {p['seat']}" + (" - to play" if to_play else "")
    text(t.dwg, t.body, side, (WIDTH - PAD - 10, y + 23), size=12, anchor="end", bold=to_play)
    # A box per count: virtue first, then silver and the goods.
    boxes = [("virtue", p["virtue"]), *((k, p[k]) for k in RESOURCES), ("buildings", len(p["buildings"]))]
    count_boxes(t.dwg, t.body, boxes, (PAD + 10, y + 34), INNER - 20)
    ly = y + 92
    for line in wrapped:
        text(t.dwg, t.body, line, (PAD + 10, ly), size=12)
        ly += 16
    return y + height


def _workshop_lines(p: dict[str, Any], order: list[str]) -> list[str]:
    held = ", ".join(f"{o} \u00d7{n}" for o, n in in_order(p["captured"], order))
    held_by = ", ".join(f"{o} \u00d7{n}" for o, n in in_order(p["held_by_others"], order))
    workers = f"Workers: {p['supply']} in supply, {p['prison']} in prison"
    if held:
        workers += f"; has captured {held}"
    if held_by:
        workers += f"; held by {held_by}"
    debts = f"Debts: {p['debts_unpaid']} unpaid, {p['debts_paid']} paid"
    if p.get("debts_destroyed"):
        debts += f", {p['debts_destroyed']} destroyed"
    debts += f". Cathedral stage {p['cathedral']}. Building cards in hand: {p['hand_size']}"
    apprentices = ", ".join(f"{a['name']} ({'/'.join(a['skills'])})" for a in p["apprentices"]) or "none"
    built = ", ".join(f"{b['name']} ({b['vp']} VP)" for b in p["buildings"]) or "none"
    return [workers, debts, f"Apprentices: {apprentices}", f"Buildings: {built}"]


def _scores(t: Table, y: float) -> float:
    scores = t.view["scores"]
    y = heading(t.dwg, t.body, "Final scores", PAD, y)
    columns = ("buildings", "cathedral", "virtue", "gold_marble", "coins", "debts", "prison", "total")
    heads = ("build", "cath", "virt", "gold/m", "coins", "debts", "prison", "TOTAL")
    x0, step = PAD + 150, (INNER - 150) / len(columns)
    for i, h in enumerate(heads):
        text(t.dwg, t.body, h, (x0 + i * step + step / 2, y + 12), size=11, anchor="middle", fill=MUTED)
    y += 18
    for row in scores["sheet"]:
        name = row["player"]
        t.worker((PAD + 12, y + 10), name, radius=10)
        text(t.dwg, t.body, fit(f"#{row['place']} {name}", 118, 13), (PAD + 28, y + 15), size=13, title=name)
        for i, key in enumerate(columns):
            text(t.dwg, t.body, str(row[key]), (x0 + i * step + step / 2, y + 15), size=13, anchor="middle",
                 bold=key == "total")
        y += 24
    winners = ", ".join(scores["winners"])
    text(t.dwg, t.body, fit(f"Winner: {winners}", INNER, 14), (PAD, y + 14), size=14, bold=True, title=winners)
    return y + 22
