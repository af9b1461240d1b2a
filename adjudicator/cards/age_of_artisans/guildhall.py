"""The Guildhall: constructing buildings and Cathedral stages, and the worker
rows to the left of the Cathedral, whose spaces trigger the Age of Artisans
apprentice discard, Black Market resets and the end of the game."""

from __future__ import annotations

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


def immediate(ctx: Ctx, card: dict[str, Any], choice: dict[str, Any], prefix: str) -> None:
    """The building's 'when built' effect; sub-choices sit beside `build`."""
    eff = card.get("effect", {}).get("now", {})
    me, name = ctx.me, card["name"]
    if "gain" in eff:
        gain(ctx, ctx.player, eff["gain"], name)
    if "choose" in eff:
        take = choice.get("take")
        if take not in eff["choose"]:
            ctx.fail(prefix + "take", f"{name}: take one of {', '.join(eff['choose'])}, got {take!r}")
        else:
            gain(ctx, ctx.player, eff["choose"][take], name)
    if "hire_free" in eff and "hire" in choice:
        display.take_from_display(ctx, choice["hire"], prefix + "hire", choice, name)
    if eff.get("prison_virtue_all"):
        for other in ctx.state["order"]:
            if ctx.state["players"][other]["prison"] >= int(eff["prison_virtue_all"]):
                change_virtue(ctx, other, -1, f"{name}: 3 or more workers in prison")
    if "captures" in eff:
        board.captures(ctx, choice.get("captures", []), prefix + "captures", int(eff["captures"]), free=True)
    if "captures_or_release" in eff:
        if choice.get("release") is True:
            freed = 0
            for other, player in ctx.state["players"].items():
                freed += player["captured"].pop(ctx.player, 0)
            me["supply"] += freed
            ctx.say(f"{ctx.player} frees {plural(freed, 'captured worker')} ({name})")
        else:
            board.captures(ctx, choice.get("captures", []), prefix + "captures", 1, free=True)
    if eff.get("debt"):
        take_debt(ctx, ctx.player, int(eff["debt"]), name)
    if eff.get("destroy_debt") and me["debts_unpaid"]:
        me["debts_unpaid"] -= 1
        me["debts_destroyed"] += 1
        ctx.say(f"{ctx.player} destroys an unpaid debt ({name})")
    if eff.get("draw"):
        draw_buildings(ctx, ctx.player, int(eff["draw"]), name)
    if eff.get("release_prison"):
        ctx.say(f"{ctx.player} releases {plural(me['prison'], 'worker')} from prison ({name})")
        me["supply"] += me["prison"]
        me["prison"] = 0
    if "discard_for" in eff and "discard" in choice:
        cid = as_int(choice["discard"])
        if cid not in me["hand"]:
            ctx.fail(prefix + "discard", f"card {choice['discard']!r} is not in your hand")
        else:
            me["hand"].remove(cid)
            ctx.state["building_deck"].append(cid)
            gain(ctx, ctx.player, eff["discard_for"], f"{name}, discarding a card")
    if eff.get("all_virtue"):
        for other in ctx.state["order"]:
            change_virtue(ctx, other, int(eff["all_virtue"]), name)
    if eff.get("gold_per_virtue"):
        gain(ctx, ctx.player, {"gold": me["virtue"] // int(eff["gold_per_virtue"])}, name)
    if eff.get("discard_apprentice"):
        cid = as_int(choice.get("discard_apprentice"))
        if not me["apprentices"]:
            ctx.say(f"{ctx.player} has no apprentice to discard ({name})")
        elif cid not in me["apprentices"]:
            ctx.fail(prefix + "discard_apprentice", f"{name}: name one of your apprentices to discard")
        else:
            me["apprentices"].remove(cid)
            ctx.state["apprentice_discard"].append(cid)
            ctx.say(f"{ctx.player} discards an apprentice ({name})")
    if "then" in choice and not eff.get("extra_guildhall"):
        ctx.fail(prefix + "then", f"only the Crane gives a second Guildhall action, not {name}")
    if "then" in choice and not isinstance(choice["then"], dict):
        ctx.fail(prefix + "then", "expected a mapping like {build: 12}")
    if eff.get("extra_guildhall") and isinstance(choice.get("then"), dict):
        # Crane: another worker from supply builds again; skipped if none is free
        if me["supply"] > 0 and not is_full(ctx.state):
            me["supply"] -= 1
            guildhall(ctx, choice["then"], prefix + "then.")
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
