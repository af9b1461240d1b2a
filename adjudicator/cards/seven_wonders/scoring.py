"""Military conflicts and the final score sheet.

Choices the owner makes at game end (the science symbol of the Scientists
Guild and Babylon, the guild Olympia B copies) are made here for them: every
combination is tried and the best total kept, which is what any player would
choose."""

from __future__ import annotations

from itertools import product
from typing import Any

from adjudicator.cards.seven_wonders.cards import SCIENCE, Catalog
from adjudicator.cards.seven_wonders.trading import stage_effects

CATEGORIES = ("military", "coins", "wonder", "blue", "yellow", "green", "purple")
VICTORY = {1: 1, 2: 3, 3: 5}
DEFEAT = -1


def neighbours(players: list[str], player: str) -> dict[str, str]:
    """Seating follows the player list: your left neighbour is the next
    name (wrapping round), your right neighbour the previous one."""
    i = players.index(player)
    return {"left": players[(i + 1) % len(players)], "right": players[(i - 1) % len(players)]}


def shields(cat: Catalog, city: dict[str, Any]) -> int:
    total = sum(int(cat.card(n).effect.get("shields", 0)) for n in city["built"])
    return total + sum(int(e.get("shields", 0)) for e in stage_effects(cat, city))


def military(cat: Catalog, state: dict[str, Any], age: int) -> list[tuple[str, str, int, int, int]]:
    """Compare every pair of neighbours once; tokens go into the cities.
    Returns (player, neighbour, own strength, their strength, token) per comparison."""
    players = state["players"]
    results = []
    for player in players:
        city = state["cities"][player]
        mine = shields(cat, city)
        for side in ("left", "right"):
            other = neighbours(players, player)[side]
            theirs = shields(cat, state["cities"][other])
            token = VICTORY[age] if mine > theirs else DEFEAT if mine < theirs else 0
            if token:
                city["tokens"].append(token)
            results.append((player, other, mine, theirs, token))
    return results


def science_points(counts: dict[str, int]) -> int:
    """Squares of each symbol count plus 7 per complete set of three."""
    return sum(counts.get(s, 0) ** 2 for s in SCIENCE) + 7 * min(counts.get(s, 0) for s in SCIENCE)


def best_science(fixed: dict[str, int], choices: int) -> tuple[int, dict[str, int]]:
    best = (science_points(fixed), dict(fixed))
    for picks in product(SCIENCE, repeat=choices):
        counts = dict(fixed)
        for symbol in picks:
            counts[symbol] = counts.get(symbol, 0) + 1
        points = science_points(counts)
        if points > best[0]:
            best = (points, counts)
    return best


def count(cat: Catalog, state: dict[str, Any], player: str, what: str) -> int:
    city = state["cities"][player]
    if what == "wonder_stage":
        return int(city["stages"])
    if what == "defeat":
        return sum(1 for t in city["tokens"] if t < 0)
    return sum(1 for n in city["built"] if cat.card(n).colour == what)


def effect_count(cat: Catalog, state: dict[str, Any], player: str, rule: dict[str, Any]) -> int:
    """How many things a coins_per / points_per rule counts, times its rate."""
    seats = neighbours(state["players"], player)
    total = 0
    for where in rule["in"]:
        whose = player if where == "self" else seats[where]
        total += sum(count(cat, state, whose, what) for what in rule["count"])
    return total * int(rule["each"])


def score_city(cat: Catalog, state: dict[str, Any], player: str) -> dict[str, Any]:
    city = state["cities"][player]
    built = [cat.card(n) for n in city["built"]]
    stages = stage_effects(cat, city)
    sheet: dict[str, Any] = {
        "military": sum(city["tokens"]),
        "coins": int(city["coins"]) // 3,
        "wonder": sum(int(e.get("points", 0)) for e in stages),
        "blue": sum(int(c.effect.get("points", 0)) for c in built if c.colour == "blue"),
        "yellow": sum(effect_count(cat, state, player, c.effect["points_per"])
                      for c in built if c.colour == "yellow" and "points_per" in c.effect),
    }
    fixed: dict[str, int] = {}
    for card in built:
        if "science" in card.effect:
            fixed[card.effect["science"]] = fixed.get(card.effect["science"], 0) + 1
    choices = sum(1 for e in stages if e.get("science_choice"))
    own_guilds = [c for c in built if c.colour == "purple"]
    # Olympia B may copy one neighbour's guild; try each and keep the best.
    options: list[Any] = [None]
    if any(e.get("copy_guild") for e in stages):
        seats = neighbours(state["players"], player)
        options += sorted({n for side in ("left", "right") for n in state["cities"][seats[side]]["built"]
                           if cat.card(n).colour == "purple"})
    best: tuple[int, int, int, Any, dict[str, int]] | None = None
    for copied in options:
        guilds = own_guilds + ([cat.card(copied)] if copied else [])
        purple = sum(effect_count(cat, state, player, g.effect["points_per"])
                     for g in guilds if "points_per" in g.effect)
        extra = sum(1 for g in guilds if g.effect.get("science_choice"))
        green, counts = best_science(fixed, choices + extra)
        if best is None or green + purple > best[0]:
            best = (green + purple, green, purple, copied, counts)
    assert best is not None
    sheet["green"], sheet["purple"] = best[1], best[2]
    sheet["total"] = sum(sheet[c] for c in CATEGORIES)
    sheet["science"] = {s: best[4].get(s, 0) for s in SCIENCE}
    if best[3]:
        sheet["copied_guild"] = best[3]
    return sheet


def final_scores(cat: Catalog, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Score sheets in final order: total, then coins; equal on both share a rank."""
    sheets = []
    for player in state["players"]:
        sheet = score_city(cat, state, player)
        sheets.append({"player": player, **sheet, "treasury": int(state["cities"][player]["coins"])})
    sheets.sort(key=lambda s: (-s["total"], -s["treasury"]))
    rank = 0
    previous: tuple[int, int] | None = None
    for i, sheet in enumerate(sheets, start=1):
        key = (sheet["total"], sheet["treasury"])
        if key != previous:
            rank, previous = i, key
        sheet["rank"] = rank
    return sheets
