"""The Black Market: three one-worker slots and the five-step reset.

Offers: `state["market_deck"]` is the shuffled list of double-sided cards and
`state["market_pos"]` the index of the card whose Small side is showing; the
Large Market shows the Large side of the next card. A reset moves both on by
one card, so "the small market and large market bonus each change"."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_artisans.apprentices import take_from_display
from adjudicator.cards.age_of_artisans.core import (
    Ctx,
    as_int,
    goods_text,
    hook_amount,
    owned_hooks,
    plural,
)
from adjudicator.cards.age_of_artisans.virtue import (
    can_use_black_market,
    change_virtue,
    gain,
    take_debt,
)
from adjudicator.cards.common import State

SLOTS = ("small", "middle", "large")


def offers(state: State, data: dict[str, Any]) -> dict[str, dict[str, int]]:
    cards = {int(c["id"]): c for c in data["black_market"]["cards"]}
    deck = state["market_deck"]
    pos = state["market_pos"]
    return {"small": dict(cards[deck[pos % len(deck)]]["small"]),
            "large": dict(cards[deck[(pos + 1) % len(deck)]]["large"])}


def black_market(ctx: Ctx, choice: dict[str, Any]) -> None:
    slot = choice.get("slot")
    if slot not in SLOTS:
        ctx.fail("slot", f"Black Market slot must be one of {', '.join(SLOTS)}, got {slot!r}")
        return
    taken = ctx.state["black_market"][slot]
    if taken is not None:
        ctx.fail("slot", f"Black Market {slot} slot is taken by {taken} until the next reset")
        return
    if not can_use_black_market(ctx.me["virtue"]):
        ctx.fail("place", f"virtue too high: {ctx.me['virtue']} (10 or more may not use the Black Market)")
        return
    base = int(ctx.data["black_market"]["cost"][slot])
    cost = max(0, base - hook_amount(ctx, "black_market_discount"))
    if ctx.me["silver"] < cost:
        ctx.fail("slot", f"can't afford the {slot} Black Market slot: costs {cost} silver, "
                         f"missing {cost - ctx.me['silver']}")
        return
    ctx.me["silver"] -= cost
    ctx.state["black_market"][slot] = ctx.player
    ctx.say(f"{ctx.player} takes the {slot} Black Market slot for {cost} silver")
    if not hook_amount(ctx, "black_market_no_virtue"):
        change_virtue(ctx, ctx.player, -1, "Black Market")
    for ability in owned_hooks(ctx, "black_market"):
        gain(ctx, ctx.player, ability["gain"], "Swindler")
    if slot in ("small", "large"):
        gain(ctx, ctx.player, offers(ctx.state, ctx.data)[slot], f"{slot} market bonus")
    elif "hire" in choice and "draw" in choice:
        ctx.fail("hire", "choose either hire or draw at the middle slot, not both")
    elif "hire" in choice:
        take_from_display(ctx, choice["hire"], "hire", choice, "free, Black Market")
    elif choice.get("draw") is True:
        deck = ctx.state["building_deck"]
        look = deck[:5]
        del deck[:5]
        if look:
            # the choice of which to keep is a follow-up phase for this player alone
            ctx.state["pending"] = {"player": ctx.player, "kind": "keep", "options": look}
            ctx.say(f"{ctx.player} looks at {len(look)} building cards to keep one")
        else:
            ctx.say(f"{ctx.player} would look at building cards but the deck is empty")
    else:
        ctx.fail("hire", "the middle slot needs `hire: <apprentice id>` or `draw: true`")
    if all(ctx.state["black_market"][s] is not None for s in SLOTS):
        reset(ctx, "all three Black Market actions are taken")


def reset(ctx: Ctx, why: str) -> None:
    """The five reset steps, in the seed's order."""
    state = ctx.state
    ctx.say(f"Black Market reset: {why}")
    # 1. Black Market workers go to prison
    for slot in SLOTS:
        owner = state["black_market"][slot]
        if owner is not None:
            state["players"][owner]["prison"] += 1
            state["black_market"][slot] = None
            ctx.say(f"{owner}'s worker on the {slot} slot goes to prison")
    # 2. both market bonuses change
    state["market_pos"] = (state["market_pos"] + 1) % len(state["market_deck"])
    now = offers(state, ctx.data)
    ctx.say(f"new small market bonus: {goods_text(now['small'])}; large: {goods_text(now['large'])}")
    # 3. apprentices' reset abilities (applied automatically, in turn order)
    for name in state["order"]:
        player = state["players"][name]
        for ability in owned_hooks(ctx, "reset_release", name):
            freed = min(int(ability["amount"]), player["prison"])
            if freed:
                player["prison"] -= freed
                player["supply"] += freed
                ctx.say(f"{name}'s Gatekeeper releases {plural(freed, 'worker')} from prison")
        for ability in owned_hooks(ctx, "reset_if_prison_empty", name):
            if player["prison"] == 0:
                gain(ctx, name, ability["gain"], "Squire, nobody in prison")
        for ability in owned_hooks(ctx, "reset", name):
            gain(ctx, name, ability["gain"], "Peddler")
    # 4. three or more in prison: lose a virtue
    for name in state["order"]:
        if state["players"][name]["prison"] >= 3:
            change_virtue(ctx, name, -1, "3 or more workers in prison at a reset")
    # 5. most workers in prison: an unpaid debt (ties: each of them)
    most = max(state["players"][n]["prison"] for n in state["order"])
    if most > 0:
        for name in state["order"]:
            if state["players"][name]["prison"] == most:
                take_debt(ctx, name, 1, f"most workers in prison ({most}) at a reset")
    state["resets"] += 1


def keep(ctx: Ctx, choice: dict[str, Any]) -> None:
    """The follow-up to the middle slot's draw: keep one, the rest go under the deck."""
    pending = ctx.state["pending"]
    cid = as_int(choice.get("keep"))
    if cid is None or cid not in pending["options"]:
        ctx.fail("keep", f"keep must be one of the cards you looked at: {pending['options']}")
        return
    ctx.me["hand"].append(cid)
    ctx.state["building_deck"].extend(i for i in pending["options"] if i != cid)
    ctx.state["pending"] = None
    ctx.say(f"{ctx.player} keeps one building card; the rest go under the deck")
    from adjudicator.cards.age_of_artisans.core import buildings, card_label
    ctx.say(f"you keep {card_label(buildings(ctx.data)[cid])}", to=ctx.player)
