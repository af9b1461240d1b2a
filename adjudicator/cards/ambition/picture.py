"""Ambition as a picture, drawn from the same view as the text report: the
round and whose turn it is, this turn's open step (the die, a declared
value, a proposal, an attack), then a panel a player in seating order with
their influence, what they have set aside, whether they hold a Nuclear
Armament token, how many Elite and Intrigue cards they hold (counts only:
the backs are all anyone sees) and their perks, the Industrial Networking
cards they have in play. Alliances known to all close the table. The owner's
picture (their private view) adds their hand, their face-down declared card,
a drawn card and their alliances, secret ones included. Ambition has no
tricks: the turn's step is its one shared, open moment."""

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
INNER = 12
LINE = 18
INFLUENCE_FILL = "#e9c46a"
ELITE_FILL, INTRIGUE_FILL, PERK_FILL = "#e9c46a", "#5a3d7a", "#2a6f7f"
ARMED_FILL, UNARMED_FILL = "#f2c230", "#ffffff"
ACTIVE_STROKE = "#b8322a"
STEPS = {"diplomacy": "Diplomacy", "declare": "Diplomacy: declaring influence", "challenge": "a challenge may come",
         "answer": "an alliance proposal awaits its answer", "intrigue": "Intrigue", "drawn": "Intrigue: a card drawn",
         "defence": "a nuclear attack: defences", "over": "the game is over"}


def draw(view: dict[str, Any], viewer: str | None) -> str:
    """The table as SVG text: the public view when `viewer` is None, else that
    player's private view."""
    room = WIDTH - 2 * MARGIN - 2 * INNER
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    turn = _turn_lines(view)
    hand = view.get("hand") if viewer is not None and isinstance(view.get("hand"), dict) else None
    mine = _mine_parts(hand) if hand is not None else None
    alliances = [_alliance_line(a) for a in view.get("alliances") or [] if isinstance(a, dict)]
    perks = {str(n.get("name")): str(n.get("text", "")) for n in view.get("in_play") or [] if isinstance(n, dict)}
    heights = [_player_height(p, room) for p in players]
    mine_height = _mine_height(mine, room) if mine is not None else 0.0
    turn_height = 2 * INNER + LINE * len(turn)
    allies_height = 2 * INNER + LINE * (1 + max(1, len(alliances)))
    height = 58 + turn_height + 10 + (mine_height + 10 if mine is not None else 0) \
        + sum(h + 10 for h in heights) + allies_height + 10
    dwg = new_drawing(WIDTH, height)
    dwg.set_desc(title=summary(view, players))
    top = dwg.g(id="table", font_family=FONT, fill=INK)
    label(dwg, top, _title(view), (MARGIN, 26), 18, WIDTH - 2 * MARGIN, bold=True)
    label(dwg, top, f"Intrigue deck {view.get('intrigue_deck', 0)}, discard {view.get('intrigue_discard', 0)}; "
                    f"nuclear tokens left {view.get('tokens_in_supply', 0)}",
          (MARGIN, 46), 12, WIDTH - 2 * MARGIN, fill=SOFT_INK)
    y = 58.0
    box = dwg.g(id="turn")
    panel(dwg, box, (MARGIN, y), (WIDTH - 2 * MARGIN, turn_height))
    for i, line in enumerate(turn):
        label(dwg, box, line, (MARGIN + INNER, y + INNER + 13 + i * LINE), 13, room, bold=i == 0)
    top.add(box)
    y += turn_height + 10
    if mine is not None:
        _mine(dwg, top, mine, str(viewer), y, mine_height, room)
        y += mine_height + 10
    for player, player_height in zip(players, heights):
        _player(dwg, top, player, perks, player.get("name") == view.get("active"), y, player_height, room)
        y += player_height + 10
    box = dwg.g(id="alliances")
    panel(dwg, box, (MARGIN, y), (WIDTH - 2 * MARGIN, allies_height))
    label(dwg, box, "Alliances known to all", (MARGIN + INNER, y + INNER + 13), 14, room, bold=True)
    for i, line in enumerate(alliances or ["none"]):
        label(dwg, box, line, (MARGIN + INNER, y + INNER + 13 + (i + 1) * LINE), 12, room,
              fill=INK if alliances else SOFT_INK)
    top.add(box)
    dwg.add(top)
    return str(dwg.tostring())


def summary(view: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """What the picture shows, in brief: its title, the site's alt text."""
    parts = []
    for p in players:
        perks = ", ".join(str(n) for n in p.get("in_play") or []) or "no perks"
        parts.append(f"{p.get('name', '')}: {p.get('influence', 0)} influence, "
                     f"{'armed' if p.get('armed') else 'unarmed'}, {p.get('elites_in_hand', 0)} Elite and "
                     f"{p.get('intrigue_in_hand', 0)} Intrigue cards, {perks}")
    return f"{_title(view)}. " + "; ".join(parts) + "."


def _title(view: dict[str, Any]) -> str:
    if view.get("over"):
        return f"Ambition: the game is over after round {view.get('round', '')}"
    active = f", {view['active']} to play" if view.get("active") else ""
    return f"Ambition: round {view.get('round', '')}{active}"


def _turn_lines(view: dict[str, Any]) -> list[str]:
    """This turn's open step, as the table sees it."""
    step = str(view.get("step", ""))
    lines = ["The game is over" if step == "over" else f"This turn: {STEPS.get(step, step)}"]
    if "roll" in view:
        lines.append(f"The die shows {view['roll']}.")
    if "declared_value" in view:
        lines.append(f"{view.get('active', '')} declared an Elite of value {view['declared_value']}.")
    proposal = view.get("proposal")
    if isinstance(proposal, dict) and "alliance" in proposal:
        lines.append(f"{view.get('active', '')} proposes a {proposal.get('alliance', '')} to {proposal.get('to', '')}.")
    if "attack_target" in view:
        lines.append(f"{view.get('active', '')} launches a nuclear attack on {view['attack_target']}.")
    if view.get("over"):
        scores = [s for s in view.get("scores") or [] if isinstance(s, dict)]
        if scores:
            lines.append("Scores: " + ", ".join(f"{s.get('player', '')} {s.get('total', '')}" for s in scores))
        winners = view.get("winners") or []
        lines.append("Won by " + " and ".join(str(w) for w in winners) + "." if winners else "No winner.")
    return lines


def _alliance_line(a: dict[str, Any]) -> str:
    members = " & ".join(str(m) for m in a.get("members") or [])
    status = "terms met" if a.get("status") == "met" else str(a.get("status", ""))
    secret = " (secret)" if a.get("secret") else ""
    return f"{a.get('type', '')}{secret}: {members}, wager {a.get('wager', 0)}, {status}"


def _mine_parts(hand: dict[str, Any]) -> dict[str, Any]:
    elites = [Chip(str(c.get("name", "")), ELITE_FILL, f"{c.get('card', '')}: value {c.get('value', '')}")
              for c in hand.get("elites") or [] if isinstance(c, dict)]
    intrigue = [Chip(str(c.get("name", "")), INTRIGUE_FILL, str(c.get("text", "")))
                for c in hand.get("intrigue") or [] if isinstance(c, dict)]
    notes = []
    if hand.get("declared_card"):
        notes.append(f"Your face-down declared card: {hand['declared_card']}")
    drawn = hand.get("drawn")
    if isinstance(drawn, dict):
        notes.append(f"You drew {drawn.get('name', '')}: " + ("keep it or play it now." if drawn.get("playable")
                                                               else "it cannot be played now."))
    proposal = hand.get("proposal")
    if isinstance(proposal, dict):
        notes.append(f"Proposal: {proposal.get('from', '')} offers {proposal.get('to', '')} {proposal.get('text', '')}")
    notes += [_alliance_line(a) for a in hand.get("alliances") or [] if isinstance(a, dict)]
    return {"elites": elites, "intrigue": intrigue, "notes": notes}


def _mine_height(mine: dict[str, Any], room: float) -> float:
    height = 2.0 * INNER + 24
    for chips in (mine["elites"], mine["intrigue"]):
        height += LINE + (chips_height(chips, room) if chips else LINE) + 6
    return height + LINE * sum(len(wrap(note, 12, room)) for note in mine["notes"])


def _mine(dwg: svgwrite.Drawing, group: Group, mine: dict[str, Any], viewer: str, y: float, height: float,
          room: float) -> None:
    box = dwg.g(id="your-hand")
    panel(dwg, box, (MARGIN, y), (WIDTH - 2 * MARGIN, height), mine=True)
    x = MARGIN + INNER
    label(dwg, box, f"Your hand, {viewer} (only you see this)", (x, y + INNER + 14), 15, room, bold=True)
    y += INNER + 24
    for title, chips in (("Elites", mine["elites"]), ("Intrigue cards", mine["intrigue"])):
        label(dwg, box, title, (x, y + 13), 12, room, fill=SOFT_INK)
        y += LINE
        if chips:
            y += draw_chips(dwg, box, chips, (x, y), room)
        else:
            label(dwg, box, "none", (x, y + 13), 12, room, fill=SOFT_INK)
            y += LINE
        y += 6
    for note in mine["notes"]:
        for line in wrap(note, 12, room):
            label(dwg, box, line, (x, y + 13), 12, room)
            y += LINE
    group.add(box)


def _perk_chips(player: dict[str, Any], perks: dict[str, str]) -> list[Chip]:
    return [Chip(str(name), PERK_FILL, perks.get(str(name), "")) for name in player.get("in_play") or []]


def _player_height(player: dict[str, Any], room: float) -> float:
    chips = _perk_chips(player, {})
    return 2 * INNER + 66 + (chips_height(chips, room - 60) if chips else LINE)


def _player(dwg: svgwrite.Drawing, group: Group, player: dict[str, Any], perks: dict[str, str], active: bool,
            y: float, height: float, room: float) -> None:
    name = str(player.get("name", ""))
    box = dwg.g(class_="player")
    box.set_desc(title=f"{name}'s table")
    panel(dwg, box, (MARGIN, y), (WIDTH - 2 * MARGIN, height))
    if active:
        mark = dwg.rect((MARGIN, rounded(y)), (WIDTH - 2 * MARGIN, rounded(height)), rx=8, ry=8, fill="none",
                        stroke=ACTIVE_STROKE, stroke_width=3)
        box.add(mark)
    x = MARGIN + INNER
    line = y + INNER + 15
    label(dwg, box, name, (x, line), 17, room - 110, bold=True)
    if active:
        label(dwg, box, "to play", (x + room, line), 13, 100, bold=True, fill=ACTIVE_STROKE, anchor="end")
    stats = line + 25
    badge(dwg, box, str(player.get("influence", 0)), (x + 16, stats), INFLUENCE_FILL, radius=16)
    label(dwg, box, "influence", (x + 38, stats + 5), 13, 80)
    label(dwg, box, f"{player.get('set_aside_open', 0)} set aside", (x + 120, stats + 5), 13, 100)
    armed = bool(player.get("armed"))
    badge(dwg, box, "☢" if armed else "–", (x + 235, stats), ARMED_FILL if armed else UNARMED_FILL)
    label(dwg, box, "armed" if armed else "unarmed", (x + 254, stats + 5), 13, 80)
    _card_backs(dwg, box, (x + 330, stats - 13), int(player.get("elites_in_hand", 0)), ELITE_FILL, "Elites")
    _card_backs(dwg, box, (x + 405, stats - 13), int(player.get("intrigue_in_hand", 0)), INTRIGUE_FILL,
                "Intrigue")
    line = stats + 22
    label(dwg, box, "Perks", (x, line + 13), 12, 56, fill=SOFT_INK)
    chips = _perk_chips(player, perks)
    if chips:
        draw_chips(dwg, box, chips, (x + 60, line), room - 60)
    else:
        label(dwg, box, "none in play", (x + 60, line + 13), 12, room - 60, fill=SOFT_INK)
    group.add(box)


def _card_backs(dwg: svgwrite.Drawing, group: Group, at: tuple[float, float], count: int, fill: str,
                what: str) -> None:
    """A small stack of card backs with the count on it: hands are counted, never shown."""
    item = dwg.g(class_="backs")
    item.set_desc(title=f"{count} {what} card{'' if count == 1 else 's'} in hand")
    for i in range(min(count, 3) or 1):
        item.add(dwg.rect((rounded(at[0] + i * 3), rounded(at[1] - i * 2)), (20, 26), rx=3, ry=3,
                          fill=fill if count else "#ffffff", stroke=INK, stroke_width=1))
    item.add(dwg.text(str(count), insert=(rounded(at[0] + 32), rounded(at[1] + 18)), font_size=13,
                      font_weight="bold", fill=INK))
    item.add(dwg.text(what, insert=(rounded(at[0] - 2), rounded(at[1] + 40)), font_size=10,
                      fill=SOFT_INK))
    group.add(item)
