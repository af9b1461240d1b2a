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
    if not isinstance(choice, dict):
        return [ChoiceError(player, "choice", "expected a mapping such as {action: build, card: Lumber Yard}")], None
    return _ChoiceCheck(cat, state, player, choice, kind).run()


@dataclass
class _ChoiceCheck:
    """One player's choice (a mapping) being checked, and the errors found so far."""
    cat: Catalog
    state: dict[str, Any]
    player: str
    choice: dict[Any, Any]
    kind: str
    errors: list[ChoiceError] = field(default_factory=list)

    def bad(self, where: str, reason: str) -> None:
        self.errors.append(ChoiceError(self.player, where, reason))

    def outcome(self, result: Resolved | None) -> tuple[list[ChoiceError], Resolved | None]:
        """The errors, and the plan only if there are none."""
        return self.errors, (result if not self.errors else None)

    @property
    def city(self) -> dict[str, Any]:
        city: dict[str, Any] = self.state["cities"][self.player]
        return city

    def run(self) -> tuple[list[ChoiceError], Resolved | None]:
        action = self.action()
        if action is None:
            return self.outcome(None)
        if action == "pass":
            return self.outcome(Resolved(self.player, "pass"))
        city = self.city
        name = self.card_name()
        if name is None:
            return self.outcome(None)
        result = Resolved(self.player, action, name)
        if action == "build" and name in city["built"]:
            self.bad("card", f"already built: your city already has {name}")
        if self.kind == "discard":
            # Halikarnassos builds the discarded card for free.
            result.free = True
            self.refuse_payment_fields("not used when building from the discard pile (it is free)")
            return self.outcome(result)
        if action == "sell":
            self.refuse_payment_fields("selling costs nothing; remove this field")
            return self.outcome(result)
        need = self.wonder_stage_cost(result) if action == "wonder" else self.building_cost(name, result)
        if need is None:
            return self.outcome(None)
        return self.pay_for(need, result)

    def action(self) -> str | None:
        """The action named, if allowed for this kind of choice; also flags unknown fields."""
        # str(): a YAML key may be a number, true or null, and those do not sort with strings
        unknown = sorted(str(k) for k in set(self.choice) - {"action", "card", "buy", "free"})
        if unknown:
            self.bad(unknown[0], "unknown field; use action, card, buy, free")
        allowed = DISCARD_ACTIONS if self.kind == "discard" else NORMAL_ACTIONS
        action = self.choice.get("action")
        if action not in allowed:
            self.bad("action", f"must be one of {', '.join(allowed)}, got {action!r}")
            return None
        return str(action)

    def card_name(self) -> str | None:
        """The card's full name, if it is in the hand (the discard pile for "discard")."""
        typed = self.choice.get("card")
        if typed is None:
            self.bad("card", "missing: name the card to play")
            return None
        name = self.cat.resolve(typed)
        if name is None:
            self.bad("card", f"unknown card {typed!r}")
            return None
        from_discard = self.kind == "discard"
        if name not in (self.state["discard"] if from_discard else self.city["hand"]):
            self.bad("card", f"{name} is not in the discard pile" if from_discard
                     else f"{name} is not in your hand")
            return None
        return name

    def refuse_payment_fields(self, reason: str) -> None:
        for key in ("buy", "free"):
            if key in self.choice:
                self.bad(key, reason)

    def wonder_stage_cost(self, result: Resolved) -> dict[str, int] | None:
        """The resources the next stage needs; its coins go in `result`."""
        city = self.city
        board = self.cat.wonders[city["wonder"]].sides[city["side"]]
        if int(city["stages"]) >= len(board):
            self.bad("action", f"already built: all {len(board)} stages of your wonder are built")
            return None
        result.stage = int(city["stages"]) + 1
        need = {r: int(n) for r, n in board[city["stages"]].cost.items() if r != "coin"}
        result.bank_coins = int(board[city["stages"]].cost.get("coin", 0))
        if "free" in self.choice:
            self.bad("free", "Olympia's free build is for buildings, not wonder stages")
        return need

    def building_cost(self, name: str, result: Resolved) -> dict[str, int]:
        """The resources the card needs, none if built free (Olympia) or by a
        chain; its coins go in `result`."""
        city = self.city
        card = self.cat.card(name)
        need = card.resource_cost
        result.bank_coins = card.coin_cost
        chain = next((c for c in card.chains_from if c in city["built"]), None)
        if self.choice.get("free"):
            if not any(e.get("free_build") for e in stage_effects(self.cat, city)):
                self.bad("free", "only Olympia (side A, stage 2) may build for free")
            elif int(city.get("free_used_age", 0)) == int(self.state["age"]):
                self.bad("free", "already used Olympia's free build this Age")
            result.free = True
            need, result.bank_coins = {}, 0
        elif chain:
            result.chained = chain
            need, result.bank_coins = {}, 0
        return need

    def pay_for(self, need: dict[str, int], result: Resolved) -> tuple[list[ChoiceError], Resolved | None]:
        """Plan buying what `need` lacks, then check every coin can be paid."""
        choice = self.choice
        if "buy" in choice and (result.free or result.chained) and choice["buy"]:
            self.bad("buy", "nothing to buy: this build is free")
        plan = _plan(self.cat, self.state, self.player, need, choice.get("buy"), self.errors, "buy" in choice)
        if plan is None:
            return self.outcome(None)
        result.plan = plan
        result.chosen_by_judge = "buy" not in choice and bool(plan.buy)
        if plan.missing:
            self.bad("card", f"can't afford {format_cost(need)}: missing {describe(plan.missing)} "
                             f"(neither you nor your neighbours can supply it)")
        elif result.total_coins > int(self.city["coins"]):
            self.bad("card", self.coins_short(result, plan))
        return self.outcome(result)

    def coins_short(self, result: Resolved, plan: Plan) -> str:
        """Why the coins do not reach: what goes to the bank and to each neighbour."""
        parts = []
        if result.bank_coins:
            parts.append(f"{result.bank_coins} to the bank")
        parts += [f"{c} to {neighbours(self.state['players'], self.player)[s]}" for s, c in plan.trade_cost.items()]
        short = result.total_coins - int(self.city["coins"])
        return (f"can't afford: needs {plural(result.total_coins, 'coin')} ({', '.join(parts)}), "
                f"you have {self.city['coins']}; missing {plural(short, 'coin')}")


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
