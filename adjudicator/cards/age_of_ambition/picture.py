"""The Age of Ambition table as a picture: the city's six districts with who
holds what in each (statues and claimed agents), the economy board, and each
player's holdings; in a player's own picture, their options (what they can
still borrow, the tactics their waiting agents can use).

The rulebook's districts are tiles laid out in any arrangement ("no impact
on gameplay"), so there is no map geometry: the picture lays them out as a
grid, two by three, in the variant's order. Agents and buildings are drawn
in their guild's colour with the guild's code on them; a claimed agent
carries a flag with its owner's short label, so neither a guild nor a player
is told by colour alone. Drawn from the view alone (`GAME.public_view`, or
`GAME.private_view` for the owner's picture)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.cards.table_art import (
    EDGE,
    EMPTY,
    MARK,
    MUTED,
    PALETTE,
    Canvas,
    count_boxes,
    drawing,
    finish,
    fit,
    heading,
    in_order,
    panel,
    short_labels,
    text,
    token,
    unique_codes,
    wrap,
)

if TYPE_CHECKING:
    import svgwrite
    from svgwrite.container import Group

WIDTH = 600
PAD = 12
INNER = WIDTH - 2 * PAD
WEALTH_FILL = "#c99a2e"     # a gold wealth cube: drawn round and marked W, never told by colour
STATUE_FILL = "#b9b9b9"     # the grey statues
FLAG_W = 26                 # a claimed agent's flag


class Table(Canvas):
    """The drawing, the view, who sees it, each guild's colour and code and each player's label."""

    def __init__(self, dwg: svgwrite.Drawing, body: Group, view: dict[str, Any], viewer: str | None) -> None:
        super().__init__(dwg, body)
        self.view, self.viewer = view, viewer
        self.guilds = [row["guild"] for row in view["economy"]]
        self.guild_name = {row["guild"]: row["name"] for row in view["economy"]}
        self.code = unique_codes(self.guilds)
        self.colour = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(self.guilds)}
        self.order: list[str] = list(view["order"])
        self.label = short_labels(self.order)

    def piece(self, at: tuple[float, float], guild: str, *, square: bool = False, radius: float = 11,
              title: str = "") -> None:
        """An agent (round) or a building (square) of `guild`."""
        token(self.dwg, self.body, at, self.colour.get(guild, EMPTY), self.code.get(guild, "?"),
              radius=radius, square=square, title=title or self.guild_name.get(guild, guild))

    def flag(self, at: tuple[float, float], player: str) -> None:
        """A noble flag: the owner's short label on white, the whole name as its tooltip."""
        x, y = at
        g = self.dwg.g()
        g.set_desc(title=f"claimed by {player}")
        g.add(self.dwg.rect((round(x, 1), round(y - 9, 1)), (FLAG_W, 18), rx=3, fill=EMPTY, stroke="#000000",
                            stroke_width=1.2))
        label = self.dwg.text(self.label.get(player, "?"), insert=(round(x + FLAG_W / 2, 1), round(y + 4.5, 1)),
                              font_size=11, fill="#000000", text_anchor="middle")
        label["font-weight"] = "bold"
        g.add(label)
        self.body.add(g)


def draw(view: dict[str, Any], viewer: str | None) -> str:
    """The table as SVG text: the public picture (viewer None) or `viewer`'s own."""
    dwg = drawing(WIDTH)
    body = dwg.g(font_family="DejaVu Sans, Arial, sans-serif")
    table = Table(dwg, body, view, viewer)
    y = _title(table, PAD)
    if viewer is not None and view.get("you"):
        with table.part("private", viewer):
            y = _private(table, y)
    y = _city(table, y)
    y = _economy(table, y)
    y = _players(table, y)
    if view.get("scores"):
        y = _scores(table, y)
    return finish(dwg, WIDTH, y + PAD, body)


def _title(t: Table, y: float) -> float:
    v = t.view
    line = "Age of Ambition: the game is over" if v["stage"] == "over" else f"Age of Ambition: turn {v['turn']}"
    if v["stage"] != "over" and v.get("current"):
        line += f", {v['current']} to play"
    text(t.dwg, t.body, fit(line, INNER, 18), (PAD, y + 20), size=18, bold=True, title=line)
    y += 30
    notes = []
    end = v.get("end")
    if end and v["stage"] != "over":
        notes.append(f"the end is triggered: {end['reason']}")
    if t.viewer is not None:
        notes.append(f"{t.viewer}'s picture")
    for note in notes:
        for line in wrap(note, INNER, 12, lines=2):
            text(t.dwg, t.body, line, (PAD, y + 10), size=12, fill=MUTED)
            y += 16
    # The key: each guild's colour and code, and what a flag is.
    cols = 3
    step = INNER / cols
    for i, guild in enumerate(t.guilds):
        x, ky = PAD + (i % cols) * step, y + (i // cols) * 26
        t.piece((x + 11, ky + 12), guild)
        text(t.dwg, t.body, fit(t.guild_name[guild], step - 32, 12), (x + 27, ky + 16), size=12,
             title=t.guild_name[guild])
    y += 26 * -(-len(t.guilds) // cols) + 4
    t.piece((PAD + 11, y + 12), t.guilds[0] if t.guilds else "")
    t.flag((PAD + 24, y + 12), t.order[0] if t.order else "")
    text(t.dwg, t.body, "an agent claimed by a player (the flag's label); a square is a building",
         (PAD + 58, y + 16), size=11, fill=MUTED)
    return y + 30


def _private(t: Table, y: float) -> float:
    """The viewer's own options: only in their picture."""
    you = t.view["you"]
    lines = []
    if you.get("your_turn"):
        lines.append(("It is your turn.", True))
    room = ", ".join(f"{t.guild_name.get(g, g)} {n}" for g, n in in_order(you.get("borrow_room", {}), t.guilds))
    lines.append((f"You can still borrow: {room or 'nothing'}", False))
    top = y
    y += 8
    text(t.dwg, t.body, "Your options", (PAD + 10, y + 14), size=14, bold=True)
    y += 22
    for words, bold in lines:
        for part in wrap(words, INNER - 20, 12, lines=2):
            text(t.dwg, t.body, part, (PAD + 10, y + 10), size=12, bold=bold)
            y += 16
    tactics = you.get("deployable") or []
    if not tactics:
        text(t.dwg, t.body, "No waiting agents to deploy.", (PAD + 10, y + 10), size=12)
        y += 16
    for tactic in tactics:
        t.piece((PAD + 20, y + 6), tactic["guild"], radius=9)
        words = f"{tactic['name']} (X={tactic['x']}): {tactic['text']}"
        for part in wrap(words, INNER - 44, 12, lines=2):
            text(t.dwg, t.body, part, (PAD + 34, y + 10), size=12)
            y += 16
        y += 4
    # Framed (drawn last, unfilled) in the colour the owner's hand has in Age of Artisans.
    t.body.add(t.dwg.rect((PAD, top), (INNER, round(y - top + 4, 1)), rx=6, fill="none", stroke="#8a6d00",
                          stroke_width=1.5))
    return y + 14


def holding(agents: int, statue: bool) -> str:
    """"2 agents, statue": what a player holds in a district."""
    return ", ".join([f"{agents} agent{'s' if agents != 1 else ''}"] * bool(agents) + ["statue"] * statue)


def _holders(district: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """Who holds what in a district, most first: (player, claimed agents, holds the statue)."""
    counts: dict[str, int] = {}
    for piece in district["pieces"]:
        if piece.get("flag"):
            counts[piece["flag"]] = counts.get(piece["flag"], 0) + 1
    statue = district.get("statue")
    if statue:
        counts.setdefault(statue, 0)
    return sorted(((p, n, p == statue) for p, n in counts.items()), key=lambda h: (-h[1] - 6 * h[2], h[0]))


def _city(t: Table, y: float) -> float:
    y = heading(t.dwg, t.body, "The city: who holds each district", PAD, y)
    cols, gap = 2, 8
    width = (INNER - gap * (cols - 1)) / cols
    districts = t.view["districts"]
    for row in range(0, len(districts), cols):
        height = max(_district_layout(t, d, width)[0] for d in districts[row:row + cols])
        for col, district in enumerate(districts[row:row + cols]):
            with t.part("district", district["name"]):
                _district(t, district, (PAD + col * (width + gap), y), width, height)
        y += height + gap
    return y


def _held_lines(d: dict[str, Any], width: float) -> list[str]:
    held = ", ".join(f"{p} ({holding(n, s)})" for p, n, s in _holders(d))
    return wrap(f"Held by {held}" if held else "Held by nobody", width - 16, 12, lines=2)


def _district_layout(t: Table, d: dict[str, Any], width: float
                     ) -> tuple[float, list[tuple[float, float, dict[str, Any]]]]:
    """The district's height, and where each agent goes (offsets from its corner), in guild order, claimed
    ones by owner: the agents flow left to right, a claimed one as wide as the agent and its flag."""
    rank = {g: i for i, g in enumerate(t.guilds)}
    pieces = sorted(d["pieces"], key=lambda a: (rank.get(a["guild"], len(rank)), a.get("flag") or ""))
    x, y = 8.0, spots_top(t, d, width)
    spots = []
    for piece in pieces:
        wide = 24 + (FLAG_W + 4 if piece.get("flag") else 0)
        if x + wide > width - 6:
            x, y = 8.0, y + 26
        spots.append((x + 11, y, piece))
        x += wide + 6
    needs = len(wrap(f"Statue needs {d['statue_requires']}", width - 16, 11, lines=3))
    return y + 18 + 14 * needs + 4, spots


def _district(t: Table, d: dict[str, Any], at: tuple[float, float], width: float, height: float) -> None:
    x, y = at
    panel(t.dwg, t.body, (x, y), (width, height))
    text(t.dwg, t.body, fit(d["name"], width - 120, 14), (x + 8, y + 19), size=14, bold=True, title=d["name"])
    # The statue, drawn grey and claimed by its owner's flag.
    if d.get("statue"):
        token(t.dwg, t.body, (x + width - 50, y + 13), STATUE_FILL, "\u2605", radius=10,
              title=f"statue claimed by {d['statue']}")
        t.flag((x + width - 36, y + 13), d["statue"])
    else:
        text(t.dwg, t.body, "no statue", (x + width - 8, y + 18), size=11, fill=MUTED, anchor="end")
    ly = y + 37
    for line in _held_lines(d, width):
        text(t.dwg, t.body, line, (x + 8, ly), size=12, bold=bool(_holders(d)))
        ly += 16
    # The buildings, then the agents (each with its flag when claimed).
    by = ly + 6
    if d["buildings"]:
        for i, guild in enumerate(d["buildings"]):
            t.piece((x + 19 + i * 26, by), guild, square=True, title=f"{t.guild_name.get(guild, guild)} building")
    else:
        text(t.dwg, t.body, "no buildings", (x + 8, by + 4), size=11, fill=MUTED)
    _, spots = _district_layout(t, d, width)
    if not spots:
        text(t.dwg, t.body, "no agents", (x + 8, y + spots_top(t, d, width) + 4), size=11, fill=MUTED)
    for dx, dy, piece in spots:
        t.piece((x + dx, y + dy), piece["guild"])
        if piece.get("flag"):
            t.flag((x + dx + 13, y + dy), piece["flag"])
    needs = wrap(f"Statue needs {d['statue_requires']}", width - 16, 11, lines=3)
    ny = y + height - 14 * len(needs) - 2
    for part in needs:
        text(t.dwg, t.body, part, (x + 8, ny + 10), size=11, fill=MUTED)
        ny += 14


def spots_top(t: Table, d: dict[str, Any], width: float) -> float:
    """Where the first row of agents goes, below the district's corner."""
    return 37 + 16 * len(_held_lines(d, width)) + 34


def _economy(t: Table, y: float) -> float:
    """The economy board: a row per guild, W a wealth cube, a square a building waiting to be built."""
    y = heading(t.dwg, t.body, "Economy board", PAD, y)
    columns = t.view["columns"]
    name_w, cell = 134, 30
    stats_x = PAD + name_w + len(columns) * cell + 10
    stats_w = (WIDTH - PAD - stats_x) / 3
    height = 30 + 28 * len(t.view["economy"]) + 24
    panel(t.dwg, t.body, (PAD, y), (INNER, height))
    for c, value in enumerate(columns):
        text(t.dwg, t.body, str(value), (PAD + name_w + c * cell + cell / 2, y + 18), size=11, bold=True,
             anchor="middle", fill=MUTED)
    for i, words in enumerate(("next hire", "unemployed", "in city")):
        text(t.dwg, t.body, words, (stats_x + (i + 0.5) * stats_w, y + 18), size=11, fill=MUTED, anchor="middle")
    ry = y + 38
    for row in t.view["economy"]:
        guild = row["guild"]
        t.piece((PAD + 19, ry), guild, radius=10)
        text(t.dwg, t.body, fit(row["name"].replace(" Guild", ""), name_w - 36, 12), (PAD + 34, ry + 4), size=12,
             title=row["name"])
        for c, space in enumerate(str(row["row"])):
            cx = PAD + name_w + c * cell + cell / 2
            if space == "W":
                token(t.dwg, t.body, (cx, ry), WEALTH_FILL, "W", radius=10, title="wealth")
            elif space == "B":
                t.piece((cx, ry), guild, square=True, radius=9, title=f"{row['name']} building, not yet built")
            else:
                t.body.add(t.dwg.circle((round(cx, 1), ry), 10, fill=EMPTY, stroke=EDGE, stroke_width=1.2))
        nxt = "full" if row["next_column"] is None else str(row["next_column"])
        for i, value in enumerate((nxt, row["unemployed"], row["in_city"])):
            text(t.dwg, t.body, str(value), (stats_x + (i + 0.5) * stats_w, ry + 4), size=13, bold=True,
                 anchor="middle")
        ry += 28
    s = t.view["supply"]
    supply = (f"Supply: {s['unemployed']} unemployed agents, {s['buildings']} buildings, {s['statues']} statues, "
              f"{s['debt']} debt")
    text(t.dwg, t.body, fit(supply, INNER - 16, 11), (PAD + 8, ry + 2), size=11, fill=MUTED)
    return y + height + 8


def _players(t: Table, y: float) -> float:
    y = heading(t.dwg, t.body, "Players", PAD, y)
    for p in t.view["players"]:
        with t.part("player", p["name"]):
            y = _player(t, p, y) + 8
    return y


def _player(t: Table, p: dict[str, Any], y: float) -> float:
    name = p["name"]
    to_play = name == t.view.get("current") and t.view["stage"] != "over"
    height = 142.0
    panel(t.dwg, t.body, (PAD, y), (INNER, height), stroke=MARK if to_play else EDGE, width=2 if to_play else 1)
    t.flag((PAD + 8, y + 17), name)
    text(t.dwg, t.body, fit(name, INNER - 160, 14), (PAD + 42, y + 22), size=14, bold=True, title=name)
    if to_play:
        text(t.dwg, t.body, "to play", (WIDTH - PAD - 10, y + 22), size=12, bold=True, anchor="end")
    boxes = [("wealth", p["wealth"]), ("debt", p["debt_total"]), ("flags left", p["flags"]),
             ("claimed agents", p["claimed_agents"]), ("statues", p["statues"])]
    count_boxes(t.dwg, t.body, boxes, (PAD + 10, y + 32), INNER - 20)
    # Waiting agents, then the alliance value X per guild (and any debt on that track).
    wy = y + 92
    text(t.dwg, t.body, "Waiting:", (PAD + 10, wy + 4), size=12, bold=True)
    x: float = PAD + 96
    if not p["waiting"]:
        text(t.dwg, t.body, "none", (x, wy + 4), size=12, fill=MUTED)
    for guild, n in in_order(p["waiting"], t.guilds):
        t.piece((x + 9, wy), guild, radius=9)
        text(t.dwg, t.body, f"\u00d7{n}", (x + 21, wy + 4), size=12, bold=True)
        x += 52
    ay = wy + 28
    text(t.dwg, t.body, "Alliance X:", (PAD + 10, ay + 4), size=12, bold=True)
    x = PAD + 96
    for guild in t.guilds:
        t.piece((x + 9, ay), guild, radius=9)
        debt = p["debt"].get(guild, 0)
        text(t.dwg, t.body, f"{p['alliance'].get(guild, 0)}", (x + 21, ay + 4), size=12, bold=True,
             title=f"{t.guild_name.get(guild, guild)}: X {p['alliance'].get(guild, 0)}, debt {debt}")
        if debt:  # under the value: beside it, it would run into the next guild's column
            text(t.dwg, t.body, f"{debt} debt", (x + 21, ay + 16), size=10, fill=MUTED)
        x += (INNER - 96) / max(1, len(t.guilds))
    return y + height


def _scores(t: Table, y: float) -> float:
    scores = t.view["scores"]
    y = heading(t.dwg, t.body, "Final scores", PAD, y)
    for place, name in enumerate(scores["ranking"], start=1):
        s = scores["players"][name]
        t.flag((PAD, y + 10), name)
        line = (f"#{place} {name}: {s['influence']} influence ({s['agent_influence']} from {s['claimed_agents']} "
                f"agents, {s['statue_influence']} from {s['statues']} statues); wealth {s['wealth']}")
        text(t.dwg, t.body, fit(line, INNER - 34, 12), (PAD + 34, y + 14), size=12, title=line)
        y += 24
    winners = " and ".join(scores["winners"])
    text(t.dwg, t.body, fit(f"Winner: {winners}", INNER, 14), (PAD, y + 14), size=14, bold=True, title=winners)
    return y + 22
