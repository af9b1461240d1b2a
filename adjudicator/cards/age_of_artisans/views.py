"""What the reports show: the public board, and one player's hand on top.

Hands, the decks' order, the reward pile and the cards a player is choosing
from are secret: only counts reach the public view."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_artisans import guildhall, market
from adjudicator.cards.age_of_artisans.core import RESOURCES, apprentices, buildings
from adjudicator.cards.common import State


def _apprentice(card: dict[str, Any]) -> dict[str, Any]:
    return {"id": card["id"], "name": card["name"], "skills": list(card["skills"]), "ability": card["text"],
            "virtue": int(card.get("virtue") or 0)}


def _building(card: dict[str, Any]) -> dict[str, Any]:
    return {"id": card["id"], "name": card["name"], "vp": card["vp"], "cost": dict(card["cost"]),
            "skills": list(card["skills"]), "virtue": card["virtue"], "effect": card["text"]}


def public_view(state: State, data: dict[str, Any]) -> dict[str, Any]:
    apps, blds = apprentices(data), buildings(data)
    players = {}
    for name in state["order"]:
        p = state["players"][name]
        held = {o: q["captured"][name] for o, q in state["players"].items() if q["captured"].get(name)}
        players[name] = {
            "seat": p["seat"], "supply": p["supply"],
            **{k: p[k] for k in RESOURCES},
            "virtue": p["virtue"], "debts_unpaid": p["debts_unpaid"], "debts_paid": p["debts_paid"],
            "debts_destroyed": p["debts_destroyed"], "prison": p["prison"],
            "captured": dict(sorted(p["captured"].items())), "held_by_others": held,
            "apprentices": [_apprentice(apps[i]) for i in p["apprentices"]],
            "buildings": [_building(blds[i]) for i in p["buildings"]],
            "cathedral": p["cathedral"], "hand_size": len(p["hand"]),
        }
    width = guildhall.row_width(state)
    spaces = state["guildhall"] + [None] * (guildhall.size(state) - len(state["guildhall"]))
    pending = state.get("pending")
    return {
        "stage": state["stage"], "turn": state["turn"], "current": state.get("current"),
        "order": list(state["order"]), "rules": dict(state["rules"]),
        "players": players,
        "board": {loc: dict(sorted(v.items())) for loc, v in state["board"].items()},
        "black_market": dict(state["black_market"]),
        "market_offers": market.offers(state, data),
        "guildhall": {"width": width, "filled": len(state["guildhall"]), "size": guildhall.size(state),
                      "rows": [spaces[i:i + width] for i in range(0, len(spaces), width)]},
        "display": [[None if cid is None else dict(_apprentice(apps[cid]), silver=state["display_silver"][r][c])
                     for c, cid in enumerate(row)] for r, row in enumerate(state["display"])],
        "tax_stand": state["tax_stand"],
        "building_deck": len(state["building_deck"]), "apprentice_deck": len(state["apprentice_deck"]),
        "rewards_left": len(state["rewards"]), "resets": state["resets"],
        "draft_left": list(state["draft_left"]),
        "final_left": None if state["final_left"] is None else list(state["final_left"]),
        "pending": None if not pending else {"player": pending["player"], "kind": pending["kind"]},
        "scores": state.get("scores"),
    }


def private_view(state: State, data: dict[str, Any], player: str) -> dict[str, Any]:
    blds = buildings(data)
    view = public_view(state, data)
    mine = state["players"].get(player)
    view["hand"] = [_building(blds[i]) for i in mine["hand"]] if mine else []
    pending = state.get("pending")
    view["choosing"] = None
    if pending and pending["player"] == player:
        view["choosing"] = {"kind": pending["kind"],
                            "options": [_building(blds[i]) for i in pending.get("options", [])],
                            "count": pending.get("count", 1)}
    return view
