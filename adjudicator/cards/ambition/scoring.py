"""The end of the world and the count of who is left standing."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.ambition import alliances
from adjudicator.cards.ambition.table import effect_of, elite_value, setting
from adjudicator.cards.common import Event, State


def score(state: State, player: str) -> dict[str, Any]:
    """Currency left + Elites at face value + 2 per intrigue card - 5 per Nuclear
    Arms; Industrial Networking cards and wagers of unfinished alliances count 0."""
    elites = sum(elite_value(state, c) for c in state["elites"][player]["hand"])
    arms = sum(1 for c in state["hands"][player] if effect_of(state, c) == "nuclear_arms")
    others = len(state["hands"][player]) - arms
    intrigue = others * int(setting(state, "intrigue_card_score"))
    nuclear = arms * int(setting(state, "nuclear_arms_score"))
    currency = int(state["influence"][player])
    return {"player": player, "currency": currency, "elites": elites, "intrigue": intrigue,
            "nuclear_arms": nuclear, "total": currency + elites + intrigue + nuclear}


def end_game(state: State, reason: str) -> list[Event]:
    """The game's end also ends the turn: terms met in it are paid, then the
    wagers of every alliance still running are lost."""
    paid: list[Event] = []
    lost = []
    for a in state["alliances"]:
        if a["status"] == "met":
            paid += alliances.complete(state, a)
        elif a["status"] == "active":
            a["status"] = "lost"
            lost.append(a)
    state["scores"] = [score(state, p) for p in state["players"]]
    best = max(s["total"] for s in state["scores"])
    state["winners"] = [s["player"] for s in state["scores"] if s["total"] == best]
    state["over"] = reason
    state["pending"] = {"step": "over"}
    events = [Event(f"The game ends ({reason})")] + paid
    for a in lost:
        text = f"wagers of the unfinished {a['id']} alliance are lost"
        events.append(Event(text, tuple(a["members"]) if a["secret"] else None))
    for s in state["scores"]:
        events.append(Event(f"{s['player']} scores {s['total']}: currency {s['currency']}, "
                            f"Elites {s['elites']}, intrigue {s['intrigue']}, "
                            f"Nuclear Arms {s['nuclear_arms']}"))
    events.append(Event("Winner: " + " and ".join(state["winners"])))
    return events
