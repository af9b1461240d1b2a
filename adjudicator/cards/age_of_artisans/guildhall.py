"""The Guildhall: constructing buildings and Cathedral stages, and the worker
rows to the left of the Cathedral, whose spaces trigger the Age of Artisans
apprentice discard, Black Market resets and the end of the game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.cards.age_of_artisans import apprentices as display
from adjudicator.cards.age_of_artisans import board, market
from adjudicator.cards.age_of_artisans.core import (
    Ctx,
    as_int,
    buildings,
    card_label,
    goods_text,
    owned_hooks,
    parse_goods,
    pay,
    plural,
    skills_of,
)
from adjudicator.cards.age_of_artisans.virtue import (
    can_build_cathedral,
    change_virtue,
    draw_buildings,
    gain,
    take_debt,
)
from adjudicator.cards.common import State

ROWS = 4


def row_width(state: State) -> int:
    return len(state["order"]) + 1


def size(state: State) -> int:
    return ROWS * row_width(state)


def is_full(state: State) -> bool:
    return len(state["guildhall"]) >= size(state)


def cathedral_levels(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {int(lv["level"]): lv for lv in data["cathedral"]["levels"]}


def guildhall(ctx: Ctx, choice: dict[str, Any], prefix: str = "") -> None:
    """Place a worker in the next Guildhall space, then build or advance."""
    state = ctx.state
    if is_full(state):
        ctx.fail(prefix + "place", "the Guildhall is full")
        return
    wants_build, wants_cathedral = "build" in choice, choice.get("cathedral") is True
    if wants_build == wants_cathedral:
        ctx.fail(prefix + "build", "at the Guildhall give either `build: <card id>` or `cathedral: true`")
        return
    state["guildhall"].append(ctx.player)
    space = len(state["guildhall"])
    width = row_width(state)
    row, col = divmod(space - 1, width)
    ctx.say(f"{ctx.player} places a worker on Guildhall space {space} (row {row + 1})")
    if col == 2 and row < 3:
        display.aoa_discard(ctx)   # Age of Artisans: before the build (as BGA)
    if wants_build:
        build(ctx, choice, prefix)
    else:
        cathedral(ctx, choice, prefix)
    if ctx.official:
        if col == 0 and row in (2, 3):
            market.reset(ctx, f"a worker reached the first space of Guildhall row {row + 1}")
    elif col == width - 1:
        market.reset(ctx, f"Guildhall row {row + 1} is complete")
    if space == size(state) and state["final_left"] is None:
        order = state["order"]
        i = order.index(ctx.player)
        state["final_left"] = order[i + 1:] + order[:i + 1]
        state["final_started"] = False
        ctx.say("the last Guildhall row is full: every player gets one more turn")


def build(ctx: Ctx, choice: dict[str, Any], prefix: str) -> None:
    cards = buildings(ctx.data)
    field = prefix + "build"
    cid = as_int(choice["build"])
    if cid is None or cid not in cards:
        ctx.fail(field, f"unknown building card {choice['build']!r} (use its id number)")
        return
    card = cards[cid]
    if cid not in ctx.me["hand"]:
        ctx.fail(field, f"{card_label(card)} is not in your hand")
        return
    lacking = [s for s in card["skills"] if s not in skills_of(ctx)]
    if lacking:
        ctx.fail(field, f"{card_label(card)} needs apprentice skill{'s' if len(lacking) > 1 else ''} you lack: {', '.join(lacking)}")
        return
    if not pay(ctx, dict(card["cost"]), field, card_label(card)):
        return
    ctx.me["hand"].remove(cid)
    ctx.me["buildings"].append(cid)
    ctx.say(f"{ctx.player} builds {card_label(card)} for {goods_text(card['cost'])} ({card['vp']} VP)")
    if card.get("virtue"):
        change_virtue(ctx, ctx.player, int(card["virtue"]), card["name"])
    immediate(ctx, card, choice, prefix)


@dataclass(frozen=True)
class _Built:
    """A building just built: its name, and the sub-choices given beside `build`
    (`prefix` places them in a Crane's `then:`)."""
    ctx: Ctx
    name: str
    choice: dict[str, Any]
    prefix: str

    def field(self, key: str) -> str:
        return self.prefix + key


def immediate(ctx: Ctx, card: dict[str, Any], choice: dict[str, Any], prefix: str) -> None:
    """The building's 'when built' effect; sub-choices sit beside `build`."""
    eff = card.get("effect", {}).get("now", {})
    built = _Built(ctx, card["name"], choice, prefix)
    for key, effect in _WHEN_BUILT.items():
        if key in eff:
            effect(built, eff[key])
    _second_guildhall_action(built, eff.get("extra_guildhall"))


def _gain_goods(b: _Built, goods: Any) -> None:
    gain(b.ctx, b.ctx.player, goods, b.name)


def _choose_goods(b: _Built, options: Any) -> None:
    take = b.choice.get("take")
    if take not in options:
        b.ctx.fail(b.field("take"), f"{b.name}: take one of {', '.join(options)}, got {take!r}")
    else:
        gain(b.ctx, b.ctx.player, options[take], b.name)


def _hire_free(b: _Built, _count: Any) -> None:
    if "hire" in b.choice:
        display.take_from_display(b.ctx, b.choice["hire"], b.field("hire"), b.choice, b.name)


def _shame_prisoners(b: _Built, at_least: Any) -> None:
    """Every player with `at_least` workers in prison loses a virtue."""
    if at_least:
        for other in b.ctx.state["order"]:
            if b.ctx.state["players"][other]["prison"] >= int(at_least):
                change_virtue(b.ctx, other, -1, f"{b.name}: 3 or more workers in prison")


def _free_captures(b: _Built, limit: Any) -> None:
    board.captures(b.ctx, b.choice.get("captures", []), b.field("captures"), int(limit), free=True)


def _capture_or_release(b: _Built, _count: Any) -> None:
    """`release: true` takes back every worker opponents hold; else one free capture."""
    ctx = b.ctx
    if b.choice.get("release") is True:
        freed = 0
        for player in ctx.state["players"].values():
            freed += player["captured"].pop(ctx.player, 0)
        ctx.me["supply"] += freed
        ctx.say(f"{ctx.player} frees {plural(freed, 'captured worker')} ({b.name})")
    else:
        board.captures(ctx, b.choice.get("captures", []), b.field("captures"), 1, free=True)


def _take_debts(b: _Built, count: Any) -> None:
    if count:
        take_debt(b.ctx, b.ctx.player, int(count), b.name)


def _destroy_debt(b: _Built, flag: Any) -> None:
    me = b.ctx.me
    if flag and me["debts_unpaid"]:
        me["debts_unpaid"] -= 1
        me["debts_destroyed"] += 1
        b.ctx.say(f"{b.ctx.player} destroys an unpaid debt ({b.name})")


def _draw_cards(b: _Built, count: Any) -> None:
    if count:
        draw_buildings(b.ctx, b.ctx.player, int(count), b.name)


def _release_prison(b: _Built, flag: Any) -> None:
    me = b.ctx.me
    if flag:
        b.ctx.say(f"{b.ctx.player} releases {plural(me['prison'], 'worker')} from prison ({b.name})")
        me["supply"] += me["prison"]
        me["prison"] = 0


def _discard_for_goods(b: _Built, goods: Any) -> None:
    """An optional `discard: <card id>` from the hand, paid for with `goods`."""
    if "discard" not in b.choice:
        return
    me = b.ctx.me
    cid = as_int(b.choice["discard"])
    if cid not in me["hand"]:
        b.ctx.fail(b.field("discard"), f"card {b.choice['discard']!r} is not in your hand")
    else:
        me["hand"].remove(cid)
        b.ctx.state["building_deck"].append(cid)
        gain(b.ctx, b.ctx.player, goods, f"{b.name}, discarding a card")


def _virtue_for_all(b: _Built, amount: Any) -> None:
    if amount:
        for other in b.ctx.state["order"]:
            change_virtue(b.ctx, other, int(amount), b.name)


def _gold_per_virtue(b: _Built, per: Any) -> None:
    if per:
        gain(b.ctx, b.ctx.player, {"gold": b.ctx.me["virtue"] // int(per)}, b.name)


def _discard_apprentice(b: _Built, flag: Any) -> None:
    if not flag:
        return
    me = b.ctx.me
    cid = as_int(b.choice.get("discard_apprentice"))
    if not me["apprentices"]:
        b.ctx.say(f"{b.ctx.player} has no apprentice to discard ({b.name})")
    elif cid not in me["apprentices"]:
        b.ctx.fail(b.field("discard_apprentice"), f"{b.name}: name one of your apprentices to discard")
    else:
        me["apprentices"].remove(cid)
        b.ctx.state["apprentice_discard"].append(cid)
        b.ctx.say(f"{b.ctx.player} discards an apprentice ({b.name})")


# The 'when built' effects by their key in the data, in the order they happen;
# each gets the key's value (a flag or count is ignored when 0).
_WHEN_BUILT: dict[str, Callable[[_Built, Any], None]] = {
    "gain": _gain_goods,
    "choose": _choose_goods,
    "hire_free": _hire_free,
    "prison_virtue_all": _shame_prisoners,
    "captures": _free_captures,
    "captures_or_release": _capture_or_release,
    "debt": _take_debts,
    "destroy_debt": _destroy_debt,
    "draw": _draw_cards,
    "release_prison": _release_prison,
    "discard_for": _discard_for_goods,
    "all_virtue": _virtue_for_all,
    "gold_per_virtue": _gold_per_virtue,
    "discard_apprentice": _discard_apprentice,
}


def _second_guildhall_action(b: _Built, crane: Any) -> None:
    """`then:` is a second Guildhall action, which only the Crane gives."""
    ctx, choice, me = b.ctx, b.choice, b.ctx.me
    if "then" in choice and not crane:
        ctx.fail(b.field("then"), f"only the Crane gives a second Guildhall action, not {b.name}")
    if "then" in choice and not isinstance(choice["then"], dict):
        ctx.fail(b.field("then"), "expected a mapping like {build: 12}")
    if crane and isinstance(choice.get("then"), dict):
        # Crane: another worker from supply builds again; skipped if none is free
        if me["supply"] > 0 and not is_full(ctx.state):
            me["supply"] -= 1
            guildhall(ctx, choice["then"], b.field("then."))
        else:
            why = "the Guildhall is full" if is_full(ctx.state) else "no worker left in supply"
            ctx.say(f"{ctx.player}'s second Guildhall action (Crane) is skipped: {why}")


def cathedral(ctx: Ctx, choice: dict[str, Any], prefix: str) -> None:
    me = ctx.me
    field = prefix + "cathedral"
    if not can_build_cathedral(me["virtue"]):
        ctx.fail(field, f"virtue too low: {me['virtue']} (4 or less may not build Cathedral stages)")
        return
    levels = cathedral_levels(ctx.data)
    nxt = me["cathedral"] + 1
    if nxt not in levels:
        ctx.fail(field, "you have built every Cathedral stage")
        return
    level = levels[nxt]
    there = sum(1 for p in ctx.state["players"].values() if p["cathedral"] == nxt)
    if there >= int(level["spaces"]):
        ctx.fail(field, f"Cathedral stage {nxt} has no free space ({level['spaces']} taken)")
        return
    discard = as_int(choice.get("discard"))
    if discard not in me["hand"]:
        ctx.fail(prefix + "discard", "a Cathedral stage needs an unused building card from your hand: "
                                     f"discard: <card id> (got {choice.get('discard')!r})")
        return
    cost = level["cost"]
    if "pay" in cost:
        spend = dict(cost["pay"])
    else:
        parsed = parse_goods(ctx, choice.get("pay"), prefix + "pay", tuple(cost["any_of"]))
        if parsed is None:
            return
        spend = parsed
        if sum(spend.values()) != int(cost["count"]):
            ctx.fail(prefix + "pay", f"stage {nxt} costs {cost['count']} of {'/'.join(cost['any_of'])} "
                                     f"in any mix: give pay: {{...}} adding up to {cost['count']}")
            return
    if not pay(ctx, spend, field, f"Cathedral stage {nxt}"):
        return
    me["hand"].remove(discard)
    ctx.state["building_deck"].append(discard)
    me["cathedral"] = nxt
    ctx.say(f"{ctx.player} builds Cathedral stage {nxt} for {goods_text(spend)} and a building card")
    rewards = {int(r["id"]): r for r in ctx.data["rewards"]["cards"]}
    if ctx.state["rewards"]:
        rid = ctx.state["rewards"].pop(0)
        gain(ctx, ctx.player, rewards[rid]["gain"], "Cathedral reward")
    else:
        change_virtue(ctx, ctx.player, 1, "Cathedral, no reward card left")
    for ability in owned_hooks(ctx, "cathedral"):
        gain(ctx, ctx.player, ability["gain"], "Acolyte")
