"""The Virtue track and its five thresholds, plus goods, debts and card draws.

Thresholds are read from the player's current virtue at the moment of the
change (the seed: "regardless of where they may have been previously")."""

from __future__ import annotations

from adjudicator.cards.age_of_artisans.core import RESOURCES, Ctx, goods_text, plural

MAX_VIRTUE = 14
BLACK_MARKET_BARRED_FROM = 10   # rule 2: 10 or more may not use the Black Market
CATHEDRAL_BARRED_UP_TO = 4      # rule 3: 4 or less may not build Cathedral stages


def change_virtue(ctx: Ctx, name: str, delta: int, why: str) -> None:
    """Move `name` on the track one step at a time, so rules 1 and 5 apply per point."""
    player = ctx.state["players"][name]
    destroyed = debts = 0
    before = player["virtue"]
    for _ in range(abs(delta)):
        if delta > 0:
            if player["virtue"] >= MAX_VIRTUE:
                # rule 1: at 14, a gain destroys an unpaid debt (it is not a paid debt)
                if player["debts_unpaid"] > 0:
                    player["debts_unpaid"] -= 1
                    player["debts_destroyed"] += 1
                    destroyed += 1
            else:
                player["virtue"] += 1
        else:
            if player["virtue"] <= 0:
                # rule 5: at 0, each virtue lost is an unpaid debt
                player["debts_unpaid"] += 1
                debts += 1
            else:
                player["virtue"] -= 1
    if delta:
        sign = "gains" if delta > 0 else "loses"
        text = f"{name} {sign} {abs(delta)} virtue ({why}): {before} -> {player['virtue']}"
        if destroyed:
            text += f"; at 14 virtue, {plural(destroyed, 'unpaid debt')} destroyed"
        if debts:
            text += f"; at 0 virtue, takes {plural(debts, 'unpaid debt')}"
        ctx.say(text)


def take_debt(ctx: Ctx, name: str, count: int, why: str) -> None:
    ctx.state["players"][name]["debts_unpaid"] += count
    ctx.say(f"{name} takes {count} unpaid debt ({why})")


def draw_buildings(ctx: Ctx, name: str, count: int, why: str) -> list[int]:
    """Draw from the building deck; only the drawer learns which cards."""
    deck = ctx.state["building_deck"]
    drawn = deck[:count]
    del deck[:count]
    ctx.state["players"][name]["hand"].extend(drawn)
    if drawn:
        from adjudicator.cards.age_of_artisans.core import buildings, card_label
        cards = buildings(ctx.data)
        ctx.say(f"{name} draws {plural(len(drawn), 'building card')} ({why})")
        ctx.say(f"you drew: {', '.join(card_label(cards[i]) for i in drawn)}", to=name)
    else:
        ctx.say(f"{name} would draw ({why}) but the building deck is empty")
    return list(drawn)


def gain(ctx: Ctx, name: str, goods: dict[str, int], why: str) -> None:
    """Add goods; `virtue` and `building_card` entries go through their own rules."""
    player = ctx.state["players"][name]
    plain = {k: int(n) for k, n in goods.items() if k in RESOURCES and n}
    for k, n in plain.items():
        player[k] += n
    if plain:
        ctx.say(f"{name} gains {goods_text(plain)} ({why})")
    if goods.get("virtue"):
        change_virtue(ctx, name, int(goods["virtue"]), why)
    if goods.get("building_card"):
        draw_buildings(ctx, name, int(goods["building_card"]), why)


def can_use_black_market(virtue: int) -> bool:
    return virtue < BLACK_MARKET_BARRED_FROM


def can_build_cathedral(virtue: int) -> bool:
    return virtue > CATHEDRAL_BARRED_UP_TO
