"""The open locations: Mines, Quarry, Forest, Silversmith, Guardhouse, King's
Storehouse, Workhouse, Tax Stand and Town Center, and captures.

Workers placed on open locations stay there (`state["board"][loc][player]`)
until captured; "workers here" always counts the acting player's own workers,
the one just placed included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.cards.age_of_artisans.apprentices import workhouse_hire
from adjudicator.cards.age_of_artisans.core import (
    BASIC,
    Ctx,
    apprentices,
    as_int,
    goods_text,
    hook_amount,
    owned_hooks,
    parse_goods,
    pay,
    pay_taxed,
    plural,
    workers_at,
)
from adjudicator.cards.age_of_artisans.virtue import (
    change_virtue,
    draw_buildings,
    gain,
    take_debt,
)

OPEN_LOCATIONS = ("mines", "quarry", "forest", "silversmith", "guardhouse", "storehouse",
                  "workhouse", "tax_stand", "town_center")
GUARDHOUSE_ACTIONS = ("turn_in", "release_prison", "release_captured", "release_captured_debt", "pay_debt")


def here(ctx: Ctx, location: str) -> int:
    return workers_at(ctx.state, location, ctx.player)


def mines(ctx: Ctx, choice: dict[str, Any]) -> None:
    n = here(ctx, "mines")
    take = choice.get("take")
    if take == "clay":
        # seed: 1 clay per worker; the published game gives 1 more
        got = {"clay": n + (1 if ctx.official else 0)}
    elif take == "gold":
        if n < 2:
            ctx.fail("take", f"gold needs 2 workers at the Mines per gold; you have {n}")
            return
        got = {"gold": n // 2}
    else:
        ctx.fail("take", f"at the Mines take clay or gold, got {take!r}")
        return
    for ability in owned_hooks(ctx, "mines"):
        got = {k: got.get(k, 0) + ability["gain"].get(k, 0) for k in set(got) | set(ability["gain"])}
    gain(ctx, ctx.player, dict(sorted(got.items())), f"Mines, {plural(n, 'worker')}")


def simple_location(ctx: Ctx, location: str, resource: str, extra: int) -> None:
    """Quarry, Forest, Silversmith: one per worker (+1 at the Silversmith), plus apprentices."""
    n = here(ctx, location)
    got = {resource: n + extra}
    for ability in owned_hooks(ctx, location):
        got[resource] += int(ability["gain"].get(resource, 0))
    gain(ctx, ctx.player, got, f"{location.title()}, {plural(n, 'worker')}")


def guardhouse(ctx: Ctx, choice: dict[str, Any]) -> None:
    """One Guardhouse action per worker here, done in the order given."""
    n = here(ctx, "guardhouse")
    actions = choice.get("actions", [])
    if not isinstance(actions, list):
        ctx.fail("actions", "expected a list, e.g. [turn_in, pay_debt]")
        return
    if len(actions) > n:
        ctx.fail("actions", f"{len(actions)} actions but only {n} of your workers at the Guardhouse (1 action each)")
        return
    for i, action in enumerate(actions):
        field = f"actions[{i}]"
        # tested against the tuple first: a YAML mapping is not hashable
        if action not in GUARDHOUSE_ACTIONS:
            ctx.fail(field, f"unknown Guardhouse action {action!r} (one of {', '.join(GUARDHOUSE_ACTIONS)})")
        else:
            _GUARDHOUSE_STEPS[action](ctx, field)


def _turn_in_captured(ctx: Ctx, field: str) -> None:
    """Send the opponents' workers held on your board to prison, 1 silver each."""
    held = ctx.me["captured"]
    total = sum(held.values())
    if not total:
        ctx.fail(field, "no captured workers on your board to turn in")
        return
    for owner, count in sorted(held.items()):
        ctx.state["players"][owner]["prison"] += count
    ctx.me["captured"] = {}
    ctx.say(f"{ctx.player} turns in {plural(total, 'captured worker')} to prison")
    gain(ctx, ctx.player, {"silver": total}, "1 per worker turned in")
    for ability in owned_hooks(ctx, "turn_in"):
        gain(ctx, ctx.player, ability["gain"], "Enforcer")


def _release_from_prison(ctx: Ctx, field: str) -> None:
    if not ctx.me["prison"]:
        ctx.fail(field, "none of your workers are in prison")
        return
    ctx.say(f"{ctx.player} retrieves {plural(ctx.me['prison'], 'worker')} from prison")
    ctx.me["supply"] += ctx.me["prison"]
    ctx.me["prison"] = 0


def _release_captured_for_silver(ctx: Ctx, field: str) -> None:
    _release_captured(ctx, field, on_credit=False)


def _release_captured_on_credit(ctx: Ctx, field: str) -> None:
    _release_captured(ctx, field, on_credit=True)


def _release_captured(ctx: Ctx, field: str, *, on_credit: bool) -> None:
    """Take back every worker opponents hold: for 3 silver and the tax, or
    (published rules only) for a debt and 1 virtue."""
    held = {o: p["captured"].get(ctx.player, 0) for o, p in ctx.state["players"].items()}
    total = sum(held.values())
    if not total:
        ctx.fail(field, "no opponent holds any of your workers")
        return
    if on_credit:
        if not ctx.official:
            ctx.fail(field, "release_captured_debt is only in the published rules (rules: {artisans_official: true})")
            return
        take_debt(ctx, ctx.player, 1, "releasing captured workers")
        change_virtue(ctx, ctx.player, -1, "releasing captured workers on credit")
    elif not pay_taxed(ctx, 3, 2, field, "freeing workers held by opponents"):
        return
    for owner, count in held.items():
        if count:
            del ctx.state["players"][owner]["captured"][ctx.player]
    ctx.me["supply"] += total
    ctx.say(f"{ctx.player} frees {plural(total, 'captured worker')} from opponents' boards")


def _pay_off_debt(ctx: Ctx, field: str) -> None:
    if not ctx.me["debts_unpaid"]:
        ctx.fail(field, "you have no unpaid debt")
        return
    if not pay_taxed(ctx, 3, 3, field, "paying off a debt"):
        return
    ctx.me["debts_unpaid"] -= 1
    ctx.me["debts_paid"] += 1
    ctx.say(f"{ctx.player} pays off a debt")
    change_virtue(ctx, ctx.player, 1, "paying off a debt")
    for ability in owned_hooks(ctx, "pay_debt"):
        gain(ctx, ctx.player, ability["gain"], "Debt Collector")


# One step for each of GUARDHOUSE_ACTIONS; each gets the field to blame.
_GUARDHOUSE_STEPS: dict[str, Callable[[Ctx, str], None]] = {
    "turn_in": _turn_in_captured,
    "release_prison": _release_from_prison,
    "release_captured": _release_captured_for_silver,
    "release_captured_debt": _release_captured_on_credit,
    "pay_debt": _pay_off_debt,
}


def storehouse(ctx: Ctx, choice: dict[str, Any]) -> None:
    """One trade per worker here (the Overseer counts as one more)."""
    n = here(ctx, "storehouse") + hook_amount(ctx, "storehouse_extra_worker")
    trades = choice.get("trades", [])
    if not isinstance(trades, list) or not trades:
        ctx.fail("trades", "expected a non-empty list, e.g. [{get: virtue, pay: {clay: 2}}]")
        return
    if len(trades) > n:
        ctx.fail("trades", f"{len(trades)} trades but only {n} allowed (1 per worker at the King's Storehouse)")
        return
    cards = apprentices(ctx.data)
    for i, trade in enumerate(trades):
        field = f"trades[{i}]"
        if not isinstance(trade, dict):
            ctx.fail(field, "each trade is a mapping")
            continue
        if "apprentice" in trade:
            cid = as_int(trade["apprentice"])
            if cid is None or cid not in ctx.me["apprentices"] or cards[cid]["ability"].get("hook") != "trade":
                ctx.fail(field, f"you have no trading apprentice {trade['apprentice']!r}")
                continue
            ability = cards[cid]["ability"]
            if pay(ctx, dict(ability["pay"]), field, f"{cards[cid]['name']}'s trade"):
                gain(ctx, ctx.player, ability["gain"], f"trade with {cards[cid]['name']}")
            continue
        get = trade.get("get")
        rule = {"virtue": (BASIC, 2), "marble": (("wood", "stone"), 3)}.get(get) if isinstance(get, str) else None
        if rule is None or not isinstance(get, str):
            ctx.fail(field, f"get must be virtue or marble (or use apprentice: <id>), got {get!r}")
            continue
        given = parse_goods(ctx, trade.get("pay"), field + ".pay", rule[0])
        if given is None:
            continue
        if sum(given.values()) != rule[1]:
            ctx.fail(field + ".pay", f"{get} costs exactly {rule[1]} of {'/'.join(rule[0])}, "
                                     f"you offered {sum(given.values())}")
            continue
        if pay(ctx, given, field, f"1 {get}"):
            ctx.say(f"{ctx.player} trades {goods_text(given)} at the King's Storehouse")
            gain(ctx, ctx.player, {get: 1}, "King's Storehouse")


def workhouse(ctx: Ctx, choice: dict[str, Any]) -> None:
    n = here(ctx, "workhouse")
    if "hire" in choice and "draw" in choice:
        ctx.fail("hire", "choose either hire or draw at the Workhouse, not both")
    elif "hire" in choice:
        workhouse_hire(ctx, choice["hire"], choice, n)
    elif choice.get("draw") is True:
        draw_buildings(ctx, ctx.player, 1 + n // 2, f"Workhouse, {plural(n, 'worker')}")
    else:
        ctx.fail("hire", "at the Workhouse give `hire: <apprentice id>` or `draw: true`")


def tax_stand(ctx: Ctx, choice: dict[str, Any]) -> None:
    pot = ctx.state["tax_stand"]
    if pot <= 0:
        ctx.fail("place", "the Tax Stand is empty")
        return
    loss = max(0, 2 - hook_amount(ctx, "tax_stand_virtue_discount"))
    ctx.state["tax_stand"] = 0
    gain(ctx, ctx.player, {"silver": pot}, "all the tax on the Tax Stand")
    change_virtue(ctx, ctx.player, -loss, "Tax Stand")
    for ability in owned_hooks(ctx, "tax_stand"):
        gain(ctx, ctx.player, ability["gain"], "Pickpocket")


def captures(ctx: Ctx, value: Any, field: str, limit: int, *, free: bool) -> None:
    """Take all workers of one player at one open location per capture.
    4-5 players: all from one location. 2-3 players: seed, any locations;
    published rules, at most 2 locations."""
    if not isinstance(value, list):
        ctx.fail(field, "expected a list like [{player: bob, location: mines}]")
        return
    if len(value) > limit:
        ctx.fail(field, f"{len(value)} captures but only {limit} allowed")
        return
    seen: set[tuple[str, str]] = set()
    places: list[str] = []
    for i, cap in enumerate(value):
        sub = f"{field}[{i}]"
        if not isinstance(cap, dict):
            ctx.fail(sub, "expected {player: NAME, location: LOCATION}")
            continue
        who, where = cap.get("player"), cap.get("location")
        if not isinstance(who, str) or who not in ctx.state["players"]:
            ctx.fail(sub, f"unknown player {who!r}: name another player, e.g. {{player: bob, location: mines}}")
            continue
        if where not in OPEN_LOCATIONS:
            ctx.fail(sub, f"cannot capture at {where!r} (open locations only: {', '.join(OPEN_LOCATIONS)})")
            continue
        if (who, where) in seen:
            ctx.fail(sub, f"{who}'s workers at {where} are already captured by this action")
            continue
        count = workers_at(ctx.state, where, who)
        if not count:
            ctx.fail(sub, f"{who} has no workers at {where}")
            continue
        if where not in places:
            places.append(where)
        players = len(ctx.state["order"])
        if players >= 4 and len(places) > 1:
            ctx.fail(sub, "with 4-5 players every capture must be from the same location")
            continue
        if players <= 3 and ctx.official and len(places) > 2:
            ctx.fail(sub, "published rules: with 2-3 players captures come from at most 2 locations")
            continue
        if not free:
            if not seen:
                ok = pay_taxed(ctx, 0, 1, sub, "the capture tax")
            else:
                cost = max(0, 1 - hook_amount(ctx, "capture_discount"))
                ok = pay(ctx, {"silver": cost}, sub, "a further capture")
                if ok:
                    ctx.say(f"{ctx.player} pays {cost} silver for a further capture (no more tax)" if cost
                            else f"{ctx.player}'s further capture is free (Conspirator)")
            if not ok:
                continue
        seen.add((who, where))
        del ctx.state["board"][where][who]
        if who == ctx.player:
            ctx.me["supply"] += count
            ctx.say(f"{ctx.player} captures {plural(count, 'own worker')} at {where}: back to supply")
        else:
            ctx.me["captured"][who] = ctx.me["captured"].get(who, 0) + count
            ctx.say(f"{ctx.player} captures {plural(count, 'worker')} of {who}'s at {where}")


def town_center(ctx: Ctx, choice: dict[str, Any]) -> None:
    captures(ctx, choice.get("captures", []), "captures", here(ctx, "town_center"), free=False)


def recallable(state: dict[str, Any], name: str) -> list[str]:
    """Where a player with an empty supply may take a worker back from: open
    locations, then (BGA) the prison or an opponent's board."""
    spots = [loc for loc in OPEN_LOCATIONS if workers_at(state, loc, name)]
    if state["players"][name]["prison"]:
        spots.append("prison")
    spots += [o for o in state["order"] if state["players"][o]["captured"].get(name)]
    return spots


def recall(ctx: Ctx, value: Any) -> None:
    """With no worker in supply, the whole turn is returning one worker (BGA).
    `none` passes, allowed only when no worker can be reached at all."""
    spots = recallable(ctx.state, ctx.player)
    if value == "none" and not spots:
        ctx.say(f"{ctx.player} has no worker to place or recall and passes")
        return
    if value not in spots:
        ctx.fail("recall", f"recall one worker from where you have one ({', '.join(spots) or 'none'}), got {value!r}")
        return
    if value in OPEN_LOCATIONS:
        ctx.state["board"][value][ctx.player] -= 1
        if not ctx.state["board"][value][ctx.player]:
            del ctx.state["board"][value][ctx.player]
    elif value == "prison":
        ctx.me["prison"] -= 1
    else:
        held = ctx.state["players"][value]["captured"]
        held[ctx.player] -= 1
        if not held[ctx.player]:
            del held[ctx.player]
    ctx.me["supply"] += 1
    ctx.say(f"{ctx.player} has no workers left and takes one back from {value}")
