"""Who sees what. The public view never holds a card id, a hand, a secret
alliance or a face-down declaration; the private view adds only what its
player is entitled to."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.ambition.alliances import describe_terms
from adjudicator.cards.ambition.intrigue import unplayable
from adjudicator.cards.ambition.table import (
    alliance_name,
    card_name,
    elite_value,
    intrigue_card,
    with_article,
)
from adjudicator.cards.common import State


def describe_alliance(state: State, a: dict[str, Any]) -> dict[str, Any]:
    out = {"id": a["id"], "type": alliance_name(state, a["type"]), "members": list(a["members"]),
           "wager": a["wager"], "status": a["status"], "secret": a["secret"],
           "formed_round": a["formed_round"], "expires_round": a["expires_round"]}
    if "third" in a:
        out["third"] = a["third"]
    if "network" in a:
        out["network"] = state["catalog"]["network"][a["network"]]["name"]
    return out


def public_view(state: State) -> dict[str, Any]:
    pending = state["pending"]
    players = []
    for p in state["players"]:
        open_wagers = sum(a["wager"] for a in state["alliances"]
                          if a["status"] in ("active", "met") and not a["secret"] and p in a["members"])
        players.append({
            "name": p, "influence": state["influence"][p], "set_aside_open": open_wagers,
            "armed": state["armed"][p], "elites_in_hand": len(state["elites"][p]["hand"]),
            "intrigue_in_hand": len(state["hands"][p]),
            "in_play": [state["catalog"]["network"][k]["name"]
                        for k, slot in state["in_play"].items() if slot["holder"] == p]})
    view: dict[str, Any] = {
        "round": state["round"], "step": pending["step"], "players": players,
        "tokens_in_supply": state["tokens"],
        "intrigue_deck": len(state["intrigue"]["deck"]),
        "intrigue_discard": len(state["intrigue"]["discard"]),
        "alliances": [describe_alliance(state, a) for a in state["alliances"] if not a["secret"]],
        # Industrial Networking cards lie face up: their perks are public.
        "in_play": [{"name": state["catalog"]["network"][k]["name"], "holder": slot["holder"],
                     "text": state["catalog"]["network"][k].get("text", "")}
                    for k, slot in state["in_play"].items()],
    }
    if pending["step"] != "over":
        view["active"] = pending["player"]
    if pending["step"] == "diplomacy":
        view["roll"] = pending["roll"]
    if pending["step"] == "challenge":
        view["declared_value"] = pending["value"]
    if pending["step"] == "answer" and not pending["terms"].get("secret"):
        view["proposal"] = {"to": pending["partner"],
                            "alliance": alliance_name(state, pending["terms"]["alliance"])}
    if pending["step"] == "defence":
        view["attack_target"] = pending["target"]
    if state.get("over"):
        view["over"] = state["over"]
        view["scores"] = state["scores"]
        view["winners"] = state["winners"]
    return view


def private_view(state: State, player: str) -> dict[str, Any]:
    view = public_view(state)
    pending = state["pending"]
    mine: dict[str, Any] = {
        "elites": [{"card": c, "name": card_name(state, c), "value": elite_value(state, c)}
                   for c in state["elites"][player]["hand"]],
        "intrigue": [{"card": c, "name": card_name(state, c), "text": intrigue_card(state, c)["text"]}
                     for c in state["hands"][player]],
        "alliances": [describe_alliance(state, a) for a in state["alliances"]
                      if player in a["members"]],
    }
    if pending["step"] == "challenge" and pending["player"] == player:
        mine["declared_card"] = card_name(state, pending["card"])
    if pending["step"] == "answer" and player in (pending["player"], pending["partner"]):
        terms = pending["terms"]
        secret = "secret " if terms.get("secret") else ""
        mine["proposal"] = {"from": pending["player"], "to": pending["partner"],
                            "alliance": alliance_name(state, terms["alliance"]),
                            "secret": bool(secret),
                            "text": with_article(secret + describe_terms(state, terms)),
                            **({"third": terms["third"]} if "third" in terms else {}),
                            **({"network": terms["network"]} if "network" in terms else {})}
    if pending["step"] == "drawn" and pending["player"] == player:
        # whether it can be played now is the drawer's alone: the table sees
        # the same drawn phase for every kept card
        reason = unplayable(state, player, pending["card"])
        mine["drawn"] = {"card": pending["card"], "name": card_name(state, pending["card"]),
                         "playable": reason is None, "why_not": reason or ""}
    view["you"] = player
    view["hand"] = mine
    return view
