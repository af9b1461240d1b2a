"""What each reader may see. The public view is built only from public
facts (cities, coins, tokens, wonder stages); hands, tucked cards, sold cards,
the discard pile and the guild draw never enter it. The private view adds
the player's own hand (with what each card would cost them now) and, when
Halikarnassos is choosing, the discard pile."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.seven_wonders.actions import resolve
from adjudicator.cards.seven_wonders.cards import (
    AGE_NAMES,
    COLOURS,
    Catalog,
    format_cost,
)
from adjudicator.cards.seven_wonders.scoring import neighbours, shields
from adjudicator.cards.seven_wonders.texts import counted, effect_text, in_order, plural
from adjudicator.cards.seven_wonders.trading import Unit, units


def public(cat: Catalog, state: dict[str, Any]) -> dict[str, Any]:
    players = state["players"]
    view: dict[str, Any] = {
        "age": state["age"], "age_name": AGE_NAMES[state["age"]],
        "turn": min(int(state["turn"]), 6),
        "passing": "left" if state["age"] != 2 else "right",
        "discard_pile": len(state["discard"]),
        "over": state.get("scores") is not None,
        "cities": [_city(cat, state, p) for p in players],
    }
    if state.get("scores") is not None:
        view["scores"] = state["scores"]
    return view


def _city(cat: Catalog, state: dict[str, Any], player: str) -> dict[str, Any]:
    city = state["cities"][player]
    wonder = cat.wonders[city["wonder"]]
    board = wonder.sides[city["side"]]
    seats = neighbours(state["players"], player)
    built = {colour: [n for n in city["built"] if cat.card(n).colour == colour] for colour in COLOURS}
    science: dict[str, int] = {}
    for name in city["built"]:
        symbol = cat.card(name).effect.get("science")
        if symbol:
            science[symbol] = science.get(symbol, 0) + 1
    stages = int(city["stages"])
    return {
        "player": player, "city": wonder.city, "wonder": wonder.name, "side": city["side"],
        "left": seats["left"], "right": seats["right"],
        "coins": int(city["coins"]), "shields": shields(cat, city),
        "tokens": list(city["tokens"]), "military": sum(city["tokens"]),
        "stages": stages, "stages_total": len(board),
        "stage_list": [{"number": i + 1, "cost": format_cost(s.cost), "text": s.text, "built": i < stages}
                       for i, s in enumerate(board)],
        "production": _production(units(cat, city)),
        "built": {colour: names for colour, names in built.items() if names},
        "science": science,
        "cards": len(city["built"]),
        "hand_size": len(city["hand"]),
    }


def _production(produced: list[Unit]) -> list[str]:
    """Single resources first, counted, in the fixed order; then the
    choices; then what neighbours may not buy."""
    singles = [u.options[0] for u in produced if len(u.options) == 1 and u.sellable]
    rest = [(not u.sellable, len(u.options), in_order(u.options)) for u in produced
            if not (len(u.options) == 1 and u.sellable)]
    return counted(singles) + ["/".join(options) + (" (not for sale)" if hidden else "")
                               for hidden, _, options in sorted(rest, key=lambda r: (r[0], r[1], r[2]))]


def private(cat: Catalog, state: dict[str, Any], player: str) -> dict[str, Any]:
    city = state["cities"][player]
    step = state["pending"][0] if state["pending"] else None
    view: dict[str, Any] = {
        "player": player,
        "hand": [_hand_card(cat, state, player, name) for name in city["hand"]],
        "tucked": list(city["tucked"]),
        "wonder_next": _wonder_status(cat, state, player),
        "wonder_stage": _next_stage(cat, city),
        "olympia_free": _free_build_status(cat, state, player),
        "discard": [],
        "discard_built": [],
        "waiting": None,
    }
    if step and step["player"] == player:
        view["waiting"] = step["kind"]
        if step["kind"] == "discard":
            # Halikarnassos alone looks through the face-down pile.
            view["discard"] = sorted(state["discard"])
            # You may never build a second card of a name you already have.
            view["discard_built"] = sorted({c for c in state["discard"] if c in city["built"]})
    return view


def _hand_card(cat: Catalog, state: dict[str, Any], player: str, name: str) -> dict[str, Any]:
    card = cat.card(name)
    return {"name": name, "colour": card.colour, "cost": format_cost(card.cost),
            "chains_from": list(card.chains_from),
            "effect": effect_text(card.effect, neighbours(state["players"], player), card.colour),
            "build": _status(cat, state, player, {"action": "build", "card": name})}


def _wonder_status(cat: Catalog, state: dict[str, Any], player: str) -> str:
    city = state["cities"][player]
    if not city["hand"]:
        return ""
    return _status(cat, state, player, {"action": "wonder", "card": city["hand"][0]})


def _next_stage(cat: Catalog, city: dict[str, Any]) -> str:
    """'2 of 3: costs 3 wood; 5 VP at game end.' (empty once all are built)."""
    board = cat.wonders[city["wonder"]].sides[city["side"]]
    built = int(city["stages"])
    if built >= len(board):
        return ""
    stage = board[built]
    return f"{built + 1} of {len(board)}: costs {format_cost(stage.cost)}; {stage.text.rstrip('.')}"


def _free_build_status(cat: Catalog, state: dict[str, Any], player: str) -> bool:
    from adjudicator.cards.seven_wonders.trading import stage_effects
    city = state["cities"][player]
    return (any(e.get("free_build") for e in stage_effects(cat, city))
            and int(city.get("free_used_age", 0)) != int(state["age"]))


def _status(cat: Catalog, state: dict[str, Any], player: str, choice: dict[str, Any]) -> str:
    """A one-line answer to "what would this cost me now?"."""
    errors, plan = resolve(cat, state, player, choice, "turn")
    if errors or plan is None:
        return "no: " + "; ".join(e.reason for e in errors)
    if plan.chained:
        return f"yes, free (chain from {plan.chained})"
    seats = neighbours(state["players"], player)
    parts = []
    if plan.bank_coins:
        parts.append(f"pay {plural(plan.bank_coins, 'coin')} to the bank")
    snippet = ""
    if plan.plan:
        for side, items in plan.plan.buy.items():
            parts.append(f"buy {', '.join(counted(items))} from {seats[side]} for "
                         f"{plural(plan.plan.trade_cost[side], 'coin')}")
        # One snippet for the whole purchase: a player pastes it as it is, and
        # half of a purchase from both neighbours would be refused.
        sides = ", ".join(f"{side}: [{', '.join(items)}]" for side, items in plan.plan.buy.items())
        snippet = f" (buy: {{{sides}}})" if sides else ""
    return "yes, " + ("; ".join(parts) if parts else "with your own resources") + snippet
