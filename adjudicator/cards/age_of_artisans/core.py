"""Shared plumbing for one player's action: the context that collects errors
and events, card look-ups, and resource payments.

Validation and application run the same code on a copy of the state, so a
rule is written once and `validate` can never disagree with `apply`."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.common import ChoiceError, Event, State

RESOURCES = ("clay", "wood", "stone", "gold", "marble", "silver")
BASIC = ("clay", "wood", "stone")  # the seed's brick/wood/stone


def plural(count: int, noun: str) -> str:
    """'1 worker', '2 workers'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class Ctx:
    """One player's turn in progress: the state being changed, the data file,
    and where bad choices and report lines go."""

    def __init__(self, state: State, data: dict[str, Any], player: str) -> None:
        self.state = state
        self.data = data
        self.player = player
        self.errors: list[ChoiceError] = []
        self.events: list[Event] = []

    @property
    def me(self) -> dict[str, Any]:
        me: dict[str, Any] = self.state["players"][self.player]
        return me

    @property
    def rules(self) -> dict[str, Any]:
        rules: dict[str, Any] = self.state["rules"]
        return rules

    @property
    def official(self) -> bool:
        return bool(self.state["rules"].get("artisans_official", False))

    def fail(self, field: str, reason: str) -> bool:
        self.errors.append(ChoiceError(self.player, field, reason))
        return False

    def say(self, text: str, to: str | None = None) -> None:
        self.events.append(Event(text, None if to is None else (to,)))


def extra_keys(choice: dict[Any, Any], allowed: set[str]) -> list[str]:
    """The fields of `choice` not in `allowed`, as sorted text: a YAML key may be
    a number, true or null, which do not sort with strings."""
    return sorted(str(k) for k in choice if k not in allowed)


def buildings(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(b["id"]): b for b in data.get("buildings", [])}


def apprentices(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(a["id"]): a for a in data.get("apprentices", [])}


def card_label(card: dict[str, Any]) -> str:
    return f"{card['name']} (#{card['id']})"


def goods_text(goods: dict[str, int]) -> str:
    parts = [f"{n} {k.replace('_', ' ')}" for k, n in goods.items() if n]
    return ", ".join(parts) if parts else "nothing"


def as_int(value: Any) -> int | None:
    """Card ids may come as 7 or "7" from a hand-written turn file."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def parse_goods(ctx: Ctx, value: Any, field: str, allowed: tuple[str, ...] = RESOURCES) -> dict[str, int] | None:
    """A `{resource: count}` mapping from a turn file, or None after reporting why not."""
    if not isinstance(value, dict):
        ctx.fail(field, "expected a mapping like {wood: 2, stone: 1}")
        return None
    out: dict[str, int] = {}
    ok = True
    for key, n in value.items():
        if key not in allowed:
            ok = ctx.fail(field, f"unknown or not allowed resource {key!r} (allowed: {', '.join(allowed)})")
        elif isinstance(n, bool) or not isinstance(n, int) or n < 0:
            ok = ctx.fail(field, f"{key}: count must be a whole number >= 0")
        else:
            out[str(key)] = n
    return out if ok else None


def missing(ctx: Ctx, cost: dict[str, int]) -> dict[str, int]:
    return {k: n - ctx.me[k] for k, n in cost.items() if n > ctx.me[k]}


def pay(ctx: Ctx, cost: dict[str, int], field: str, why: str) -> bool:
    """Pay `cost` to the supply, or report exactly what is missing."""
    short = missing(ctx, cost)
    if short:
        return ctx.fail(field, f"can't afford {why}: costs {goods_text(cost)}, missing {goods_text(short)}")
    for k, n in cost.items():
        ctx.me[k] -= n
    return True


def tax_relief(ctx: Ctx, name: str | None = None) -> int:
    """Virtue 3 or less pays less tax (seed rule 4); the amounts are the board's icons."""
    virtue = ctx.state["players"][name or ctx.player]["virtue"]
    table = {int(k): int(v) for k, v in ctx.data.get("virtue", {}).get("tax_relief", {0: 2, 1: 2, 2: 1, 3: 1}).items()}
    return table.get(virtue, 0)


def pay_taxed(ctx: Ctx, silver: int, tax: int, field: str, why: str) -> bool:
    """A payment with a tax part: the tax (less any virtue relief) goes on the Tax Stand."""
    tax_due = max(0, tax - tax_relief(ctx))
    total = silver + tax_due
    if ctx.me["silver"] < total:
        return ctx.fail(field, f"can't afford {why}: costs {silver} silver + {tax_due} tax = {total}, "
                               f"you have {ctx.me['silver']} (missing {total - ctx.me['silver']} silver)")
    ctx.me["silver"] -= total
    ctx.state["tax_stand"] += tax_due
    # say what was paid and where it went: the tax is what the Tax Stand later pays out
    parts = ([f"{silver} silver"] if silver else []) + [f"{tax_due} tax"]
    waived = tax - tax_due
    note = f"; {waived} tax waived at virtue {ctx.me['virtue']}" if waived else ""
    ctx.say(f"{ctx.player} pays {' + '.join(parts)} ({why}{note}); Tax Stand now {ctx.state['tax_stand']}")
    return True


def owned_hooks(ctx: Ctx, hook: str, name: str | None = None) -> list[dict[str, Any]]:
    """Abilities of the apprentices `name` has hired that fire on `hook`."""
    cards = apprentices(ctx.data)
    player = ctx.state["players"][name or ctx.player]
    return [dict(cards[i]["ability"], card=i) for i in player["apprentices"]
            if cards[i].get("ability", {}).get("hook") == hook]


def hook_amount(ctx: Ctx, hook: str, name: str | None = None) -> int:
    return sum(int(a.get("amount", 0)) for a in owned_hooks(ctx, hook, name))


def skills_of(ctx: Ctx, name: str | None = None) -> set[str]:
    cards = apprentices(ctx.data)
    player = ctx.state["players"][name or ctx.player]
    return {s for i in player["apprentices"] for s in cards[i]["skills"]}


def workers_at(state: State, location: str, name: str) -> int:
    return int(state["board"][location].get(name, 0))
