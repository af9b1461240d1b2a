"""Words for the reports: numbers that agree with their nouns, and card
effects written as the rulebook would say them, naming the reader's
neighbours instead of "left" and "right"."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.seven_wonders.cards import MANUFACTURED, RAW, RESOURCES

# The nouns the data uses for what a card counts, in the singular.
COUNTED = {"wonder_stage": "wonder stage", "defeat": "defeat token"}


def plural(count: int, noun: str) -> str:
    """'1 coin', '2 coins'; VP and resource names do not change."""
    if count == 1 or noun == "VP" or noun in RESOURCES:
        return f"{count} {noun}"
    return f"{count} {noun}s"


def and_list(items: list[str], word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def counted(resources: list[str]) -> list[str]:
    """['2 wood', 'stone'] for a list of single resources, in the fixed order."""
    return [r if resources.count(r) == 1 else f"{resources.count(r)} {r}" for r in RESOURCES if r in resources]


def in_order(options: tuple[str, ...] | list[str]) -> list[str]:
    """The resources of a choice in the fixed order (wood, stone, clay, ore, ...)."""
    return sorted(options, key=lambda r: RESOURCES.index(r) if r in RESOURCES else len(RESOURCES))


def effect_text(effect: dict[str, Any], seats: dict[str, str], colour: str = "") -> str:
    """One card's effect for the reader whose neighbours are `seats`
    ({"left": name, "right": name})."""
    parts = []
    if "produces" in effect:
        parts.append(_produces(effect["produces"], colour == "yellow" or effect.get("sellable") is False))
    if "points" in effect:
        parts.append(f"{plural(int(effect['points']), 'VP')} at game end")
    if "shields" in effect:
        parts.append(plural(int(effect["shields"]), "shield"))
    if "science" in effect:
        parts.append(f"science symbol: {effect['science']}")
    if effect.get("science_choice"):
        parts.append("one science symbol of your choice at game end (tablet, compass or gear)")
    for kind, sides in (effect.get("trade") or {}).items():
        goods = (f"raw materials ({', '.join(RAW)})" if kind == "raw"
                 else f"manufactured goods ({', '.join(MANUFACTURED)})")
        parts.append(f"{goods} bought from {and_list([seats[s] for s in sides], 'or')} cost 1 coin")
    if "coins" in effect:
        parts.append(f"take {plural(int(effect['coins']), 'coin')} from the bank once, when built")
    if "coins_per" in effect:
        parts.append(_per(effect["coins_per"], "coin", seats) + ", taken once when built")
    if "points_per" in effect:
        parts.append(_per(effect["points_per"], "VP", seats) + ", at game end")
    return "; ".join(parts)


def _produces(symbols: list[str], not_for_sale: bool) -> str:
    words = counted([s for s in symbols if "/" not in s])
    words += [f"one of {and_list(in_order(s.split('/')), 'or')} each turn" for s in symbols if "/" in s]
    return "produces " + ", ".join(words) + ("; neighbours may not buy it" if not_for_sale else "")


def _per(rule: dict[str, Any], unit: str, seats: dict[str, str]) -> str:
    """'3 coins for each wonder stage you have built'."""
    kinds = [str(k) for k in rule["count"]]
    thing = COUNTED.get(kinds[0]) or f"{and_list(kinds)} card"
    where = list(rule["in"])
    others = [seats[s] for s in ("left", "right") if s in where]
    if others:
        names = f"({and_list(others)})" if len(others) == 2 else f"({others[0]})"
        whose = f"your neighbours {names}" if len(others) == 2 else f"your neighbour {names}"
        who = f"you and {whose}" if "self" in where else whose
    else:
        who = "you"
    verb = "have" if kinds[0] == "defeat" else "have built"
    return f"{plural(int(rule['each']), unit)} for each {thing} {who} {verb}"
