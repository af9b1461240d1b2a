"""End-game scoring from the seed's seven sources, after the buildings'
before-scoring virtue effects. Ties: virtue, then silver."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_artisans.core import Ctx, apprentices, buildings
from adjudicator.cards.age_of_artisans.virtue import change_virtue

CATEGORIES = ("buildings", "cathedral", "virtue", "gold_marble", "coins", "debts", "prison")


def _strict_leader(state: dict[str, Any], name: str, key: str) -> bool:
    mine = state["players"][name][key]
    return all(mine > p[key] for n, p in state["players"].items() if n != name)


def pre_scoring(ctx: Ctx) -> None:
    """Trading Post, Castle, Chapel, Observatory, Reservoir, Museum, Dungeon."""
    cards = buildings(ctx.data)
    for name in ctx.state["order"]:
        player = ctx.state["players"][name]
        for cid in player["buildings"]:
            eff = cards[cid].get("effect", {}).get("pre")
            if not eff:
                continue
            kind = eff["kind"]
            if kind == "virtue_per":
                have = sum(len(player[k]) if isinstance(player[k], list) else int(player[k]) for k in eff["of"])
                delta = have // int(eff["per"])
            elif kind == "virtue_if_cathedral_leader":
                delta = int(eff["virtue"]) if _strict_leader(ctx.state, name, "cathedral") else 0
            else:  # virtue_change
                delta = int(eff["virtue"])
            if delta:
                change_virtue(ctx, name, delta, f"{cards[cid]['name']}, end of game")


def building_points(ctx: Ctx, name: str) -> int:
    cards, apps = buildings(ctx.data), apprentices(ctx.data)
    player = ctx.state["players"][name]
    total = 0
    for cid in player["buildings"]:
        card = cards[cid]
        total += int(card["vp"])
        eff = card.get("effect", {}).get("end")
        if not eff:
            continue
        kind, vp = eff["kind"], int(eff.get("vp", 0))
        if kind == "cathedral_leader" and _strict_leader(ctx.state, name, "cathedral") or kind == "most" and _strict_leader(ctx.state, name, eff["resource"]):
            total += vp
        elif kind == "per_skill":
            total += vp * sum(1 for a in player["apprentices"] if eff["skill"] in apps[a]["skills"])
        elif kind == "no_unpaid_debt" and not player["debts_unpaid"]:
            total += vp
        elif kind == "per_building":
            total += vp * len(player["buildings"])
        elif kind == "per_captured":
            total += vp * (sum(player["captured"].values()) // int(eff["per"]))
        elif kind == "per_virtue":
            total += vp * (player["virtue"] // int(eff["per"]))
        elif kind == "per_paid_debt":
            total += vp * player["debts_paid"]
    return total


def debt_value(ctx: Ctx, name: str) -> int:
    """-2 each; the Fountain makes it -1 (and wins over the Gambler's Den)."""
    cards = buildings(ctx.data)
    values = [int(cards[c]["effect"]["end"]["vp"]) for c in ctx.state["players"][name]["buildings"]
              if cards[c].get("effect", {}).get("end", {}).get("kind") == "debt_value"]
    return max(values) if values else -2


def score(ctx: Ctx) -> dict[str, Any]:
    pre_scoring(ctx)
    levels = {int(lv["level"]): int(lv["vp"]) for lv in ctx.data["cathedral"]["levels"]}
    table = {int(k): int(v) for k, v in ctx.data["virtue"]["end_vp"].items()}
    sheet: dict[str, dict[str, int]] = {}
    for name in ctx.state["order"]:
        p = ctx.state["players"][name]
        row = {
            "buildings": building_points(ctx, name),
            "cathedral": levels.get(p["cathedral"], 0),
            "virtue": table[p["virtue"]],
            "gold_marble": p["gold"] + p["marble"],
            "coins": p["silver"] // 10,
            "debts": debt_value(ctx, name) * p["debts_unpaid"],
            "prison": -(p["prison"] // 2),
        }
        row["total"] = sum(row[c] for c in CATEGORIES)
        sheet[name] = row
    ranking = sorted(ctx.state["order"], key=lambda n: (-sheet[n]["total"], -ctx.state["players"][n]["virtue"],
                                                        -ctx.state["players"][n]["silver"], ctx.state["order"].index(n)))
    ranked = []
    place = 0
    prev: tuple[int, int, int] | None = None
    for i, name in enumerate(ranking):
        p = ctx.state["players"][name]
        key = (sheet[name]["total"], p["virtue"], p["silver"])
        if key != prev:
            place = i + 1
            prev = key
        ranked.append({"player": name, "place": place, **sheet[name],
                       "tiebreak_virtue": p["virtue"], "tiebreak_silver": p["silver"]})
    return {"sheet": ranked, "winners": [r["player"] for r in ranked if r["place"] == 1]}
