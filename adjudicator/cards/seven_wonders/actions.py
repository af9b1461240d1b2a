"""One player's choice, checked against the state and turned into a plan:
which card, what it costs in coins, what is bought from whom.

The same function serves validate (collect every error) and apply (use the
plan), so what was checked is exactly what gets done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.cards.common import ChoiceError
from adjudicator.cards.seven_wonders.cards import RESOURCES, Catalog, format_cost
from adjudicator.cards.seven_wonders.scoring import neighbours
from adjudicator.cards.seven_wonders.texts import plural
from adjudicator.cards.seven_wonders.trading import (
    SIDES,
    Plan,
    can_supply,
    cover,
    describe,
    prices,
    stage_effects,
    units,
)

NORMAL_ACTIONS = ("build", "wonder", "sell")
DISCARD_ACTIONS = ("build", "pass")


@dataclass
class Resolved:
    player: str
    action: str
    card: str | None = None
    bank_coins: int = 0
    plan: Plan | None = None
    chained: str | None = None
    free: bool = False
    chosen_by_judge: bool = False
    stage: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def total_coins(self) -> int:
        return self.bank_coins + (self.plan.coins if self.plan else 0)


def resolve(cat: Catalog, state: dict[str, Any], player: str, choice: Any,
            kind: str) -> tuple[list[ChoiceError], Resolved | None]:
    """Check one choice. `kind` is "turn" (play from hand, also Babylon's
    seventh card) or "discard" (Halikarnassos picks from the discard pile)."""
    errors: list[ChoiceError] = []

    def bad(where: str, reason: str) -> tuple[list[ChoiceError], None]:
        errors.append(ChoiceError(player, where, reason))
        return errors, None

    if not isinstance(choice, dict):
        return bad("choice", "expected a mapping such as {action: build, card: Lumber Yard}")
    # str(): a YAML key may be a number, true or null, and those do not sort with strings
    unknown = sorted(str(k) for k in set(choice) - {"action", "card", "buy", "free"})
    if unknown:
        bad(unknown[0], "unknown field; use action, card, buy, free")
    allowed = DISCARD_ACTIONS if kind == "discard" else NORMAL_ACTIONS
    action = choice.get("action")
    if action not in allowed:
        return bad("action", f"must be one of {', '.join(allowed)}, got {action!r}")
    if action == "pass":
        return errors, (Resolved(player, "pass") if not errors else None)
    city = state["cities"][player]
    typed = choice.get("card")
    if typed is None:
        return bad("card", "missing: name the card to play")
    name = cat.resolve(typed)
    if name is None:
        return bad("card", f"unknown card {typed!r}")
    pile = state["discard"] if kind == "discard" else city["hand"]
    if name not in pile:
        return bad("card", f"{name} is not in the discard pile" if kind == "discard"
                   else f"{name} is not in your hand")
    result = Resolved(player, str(action), name)
    if action == "build" and name in city["built"]:
        bad("card", f"already built: your city already has {name}")
    if kind == "discard":
        # Halikarnassos builds the discarded card for free.
        result.free = True
        for key in ("buy", "free"):
            if key in choice:
                bad(key, "not used when building from the discard pile (it is free)")
        return errors, (result if not errors else None)
    if action == "sell":
        for key in ("buy", "free"):
            if key in choice:
                bad(key, "selling costs nothing; remove this field")
        return errors, (result if not errors else None)

    need: dict[str, int]
    if action == "wonder":
        board = cat.wonders[city["wonder"]].sides[city["side"]]
        if int(city["stages"]) >= len(board):
            return bad("action", f"already built: all {len(board)} stages of your wonder are built")
        result.stage = int(city["stages"]) + 1
        need = {r: int(n) for r, n in board[city["stages"]].cost.items() if r != "coin"}
        result.bank_coins = int(board[city["stages"]].cost.get("coin", 0))
        if "free" in choice:
            bad("free", "Olympia's free build is for buildings, not wonder stages")
    else:
        card = cat.card(name)
        need = card.resource_cost
        result.bank_coins = card.coin_cost
        chain = next((c for c in card.chains_from if c in city["built"]), None)
        if choice.get("free"):
            if not any(e.get("free_build") for e in stage_effects(cat, city)):
                bad("free", "only Olympia (side A, stage 2) may build for free")
            elif int(city.get("free_used_age", 0)) == int(state["age"]):
                bad("free", "already used Olympia's free build this Age")
            result.free = True
            need, result.bank_coins = {}, 0
        elif chain:
            result.chained = chain
            need, result.bank_coins = {}, 0
    if "buy" in choice and (result.free or result.chained) and choice["buy"]:
        bad("buy", "nothing to buy: this build is free")
    plan = _plan(cat, state, player, need, choice.get("buy"), errors, "buy" in choice)
    if plan is None:
        return errors, None
    result.plan = plan
    result.chosen_by_judge = "buy" not in choice and bool(plan.buy)
    if plan.missing:
        bad("card", f"can't afford {format_cost(need)}: missing {describe(plan.missing)} "
                    f"(neither you nor your neighbours can supply it)")
    elif result.total_coins > int(city["coins"]):
        parts = []
        if result.bank_coins:
            parts.append(f"{result.bank_coins} to the bank")
        parts += [f"{c} to {neighbours(state['players'], player)[s]}" for s, c in plan.trade_cost.items()]
        short = result.total_coins - int(city["coins"])
        bad("card", f"can't afford: needs {plural(result.total_coins, 'coin')} ({', '.join(parts)}), "
                    f"you have {city['coins']}; missing {plural(short, 'coin')}")
    return errors, (result if not errors else None)


def _plan(cat: Catalog, state: dict[str, Any], player: str, need: dict[str, int], buy: Any,
          errors: list[ChoiceError], explicit: bool) -> Plan | None:
    """The purchase: the player's own (checked) or the cheapest legal one."""
    city = state["cities"][player]
    seats = neighbours(state["players"], player)
    their_units = {s: units(cat, state["cities"][seats[s]]) for s in SIDES}
    price = prices(cat, city)
    own = units(cat, city)
    if not explicit:
        return cover(need, own, their_units, price)
    if buy is None:
        buy = {}
    if not isinstance(buy, dict) or set(buy) - set(SIDES):
        errors.append(ChoiceError(player, "buy", "expected {left: [resources], right: [resources]}"))
        return None
    wanted: dict[str, list[str]] = {}
    ok = True
    for side in SIDES:
        items = buy.get(side) or []
        if isinstance(items, str):
            items = [items]
        names = [cat.resolve_resource(i) for i in items] if isinstance(items, list) else [None]
        if None in names:
            errors.append(ChoiceError(player, f"buy.{side}", f"unknown resource in {items!r}; "
                                      f"use {', '.join(RESOURCES)}"))
            ok = False
            continue
        wanted[side] = [n for n in names if n]
        short = can_supply(wanted[side], their_units[side])
        if short:
            errors.append(ChoiceError(player, f"buy.{side}", f"{seats[side]} cannot sell you {describe(short)} "
                                      "(only their board resource, brown and grey cards are for sale)"))
            ok = False
    if not ok:
        return None
    rest = dict(need)
    for side in SIDES:
        for res in wanted.get(side, []):
            if rest.get(res, 0) <= 0:
                errors.append(ChoiceError(player, f"buy.{side}", f"buys {res} that the cost does not need"))
                return None
            rest[res] -= 1
    own_plan = cover({r: n for r, n in rest.items() if n > 0}, own, {}, price)
    trade = {s: sum(price[s][r] for r in wanted.get(s, [])) for s in SIDES}
    return Plan(buy={s: v for s, v in wanted.items() if v}, trade_cost={s: c for s, c in trade.items() if c},
                missing=own_plan.missing)
