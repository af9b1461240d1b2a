"""Tactic effects. The YAML names an effect kind and its parameters; each
kind here reads the player's targets from the deploy action, checks them and
applies them. The deployed agent is already in the district."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.cards.age_of_ambition import board
from adjudicator.cards.age_of_ambition.context import Ctx
from adjudicator.cards.age_of_ambition.rules import Tactic

# Extra fields a deploy action may carry, per effect kind.
FIELDS: dict[str, set[str]] = {
    "statue": set(), "claim": {"agents"}, "return_debt": {"debt"}, "build": {"buildings"},
    "move_buildings": {"moves"}, "buy_claim": {"agents"}, "collect": {"from"},
    "pick_pockets": {"players"}, "steal_credit": {"agent"}, "compel": {"agents"},
    "sack": {"building", "take"},
}


def _limit(ctx: Ctx, items: list[Any], amount: int, field: str, what: str) -> None:
    if len(items) > amount:
        ctx.bad(field, f"at most {amount} {what} (X-based limit), not {len(items)}")


def statue(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    spot = ctx.state["districts"][here]
    if spot["statue"] is not None:
        ctx.bad("district", f"district {here} already has a statue")
        return
    if ctx.state["supply"]["statues"] < 1:
        ctx.bad("district", "no statues left in the supply")
    missing: list[str] = []
    need = ctx.rules.district(here)
    for guild, n in need.need_buildings.items():
        have = spot["buildings"].count(guild)
        if have < n:
            missing.append(f"{n} {guild} building(s) (has {have})")
    for guild, n in need.need_agents.items():
        have = board.agents_here(ctx.state, here, guild, any_flag=True)
        if have < n:
            missing.append(f"{n} {ctx.rules.guild(guild).agents} (has {have})")
    if missing:
        ctx.bad("district", f"statue requirement of district {here} not met: needs " + ", ".join(missing))
    if ctx.me["flags"] < 1:
        ctx.bad("district", "no noble flags left to claim the statue")
    if ctx.errors:
        return
    spot["statue"] = ctx.player
    ctx.state["supply"]["statues"] -= 1
    ctx.use_flag()
    ctx.say(f"{ctx.player} dedicates a statue in district {here} and claims it")


def claim(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    wanted = ctx.guild_list(action.get("agents"), "agents")
    if wanted is None:
        return
    _limit(ctx, wanted, tactic.amount(x), "agents", "agents")
    only = tactic.params.get("only_guild")
    for i, guild in enumerate(wanted):
        where = f"agents[{i}]"
        if only and guild != only:
            ctx.bad(where, f"{tactic.name} claims only {only}")
        elif tactic.params.get("needs_building_here") and guild not in ctx.state["districts"][here]["buildings"]:
            ctx.bad(where, f"no {guild} building in district {here}")
        elif not ctx.errors and ctx.claim(here, guild, where):
            ctx.say(f"{ctx.player} claims a {ctx.rules.guild(guild).agent} in district {here}")


def return_debt(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    raw = action.get("debt")
    counts = ctx.guild_counts(raw, "debt") if raw is not None else {}
    if counts is None:
        return
    if sum(counts.values()) > tactic.amount(x):
        ctx.bad("debt", f"at most {tactic.amount(x)} debt markers, not {sum(counts.values())}")
    for guild, n in counts.items():
        if ctx.me["debt"][guild] < n:
            ctx.bad(f"debt.{guild}", f"you have {ctx.me['debt'][guild]} {guild} debt, not {n}")
    if ctx.errors:
        return
    for guild, n in counts.items():
        ctx.me["debt"][guild] -= n
        ctx.state["supply"]["debt"] += n
        ctx.say(f"{ctx.player} returns {n} {guild} debt to the supply")


def build(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    wanted = ctx.guild_list(action.get("buildings"), "buildings")
    if wanted is None:
        return
    _limit(ctx, wanted, tactic.amount(x), "buildings", "buildings")
    if len(set(wanted)) != len(wanted):
        ctx.bad("buildings", "each building must be of a different guild")
    for i, guild in enumerate(wanted):
        where = f"buildings[{i}]"
        spot = ctx.state["districts"][here]
        if board.agents_here(ctx.state, here, guild, any_flag=True) < 1:
            ctx.bad(where, f"no {ctx.rules.guild(guild).agent} in district {here}")
        elif len(spot["buildings"]) >= ctx.rules.district_max_buildings:
            ctx.bad(where, f"district {here} already has {ctx.rules.district_max_buildings} buildings")
        elif not board.building_available(ctx.state, guild):
            ctx.bad(where, f"all {guild} buildings are already in the city")
        elif not ctx.errors:
            board.take_building(ctx.state, guild)
            board.add_building(ctx.state, here, guild, ctx.rules)
            ctx.say(f"{ctx.player} builds a {guild} building in district {here}")


def move_buildings(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    moves = action.get("moves") or []
    if not isinstance(moves, list):
        ctx.bad("moves", "expected a list like [{guild: masons, from: 2}]")
        return
    _limit(ctx, moves, tactic.amount(x), "moves", "buildings")
    for i, move in enumerate(moves):
        where = f"moves[{i}]"
        if not isinstance(move, dict):
            ctx.bad(where, "expected {guild, from}")
            continue
        guild = ctx.guild(move.get("guild"), f"{where}.guild")
        src = ctx.district(move.get("from"), f"{where}.from")
        if guild is None or src is None:
            continue
        if src == here:
            ctx.bad(f"{where}.from", "the building is already in this district")
        elif guild not in ctx.state["districts"][src]["buildings"]:
            ctx.bad(f"{where}.from", f"no {guild} building in district {src}")
        elif len(ctx.state["districts"][here]["buildings"]) >= ctx.rules.district_max_buildings:
            ctx.bad(where, f"district {here} already has {ctx.rules.district_max_buildings} buildings")
        elif not ctx.errors:
            ctx.state["districts"][src]["buildings"].remove(guild)
            board.add_building(ctx.state, here, guild, ctx.rules)
            ctx.say(f"{ctx.player} moves a {guild} building from district {src} to district {here}")


def buy_claim(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    wanted = ctx.guild_list(action.get("agents"), "agents")
    if wanted is None:
        return
    _limit(ctx, wanted, tactic.amount(x), "agents", "agents")
    price = int(tactic.params.get("price", 1))
    for i, guild in enumerate(wanted):
        where = f"agents[{i}]"
        row = ctx.state["economy"][guild]
        if ctx.me["wealth"] < price:
            ctx.bad(where, f"can't afford it: needs {price} wealth, you have {ctx.me['wealth']}")
        elif row.count(board.OPEN) < price:
            ctx.bad(where, f"full track: the {guild} row cannot take {price} more wealth")
        elif not ctx.errors and ctx.claim(here, guild, where):
            for _ in range(price):
                ctx.state["economy"][guild], _ = board.add_wealth(ctx.state["economy"][guild])
            ctx.me["wealth"] -= price
            ctx.say(f"{ctx.player} pays {price} wealth to the {ctx.rules.guild(guild).name} "
                    f"and claims a {ctx.rules.guild(guild).agent} in district {here}")


def collect(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    wanted = ctx.guild_list(action.get("from"), "from")
    if wanted is None:
        return
    _limit(ctx, wanted, tactic.amount(x), "from", "wealth")
    if len(set(wanted)) != len(wanted):
        ctx.bad("from", "at most 1 wealth from each guild's row")
    for i, guild in enumerate(wanted):
        where = f"from[{i}]"
        if guild not in ctx.state["districts"][here]["buildings"]:
            ctx.bad(where, f"no {guild} building in district {here}")
        elif board.row_wealth(ctx.state["economy"][guild]) < 1:
            ctx.bad(where, f"the {guild} row has no wealth")
        elif not ctx.errors:
            ctx.state["economy"][guild] = board.take_wealth(ctx.state["economy"][guild], 1)
            ctx.me["wealth"] += 1
            ctx.say(f"{ctx.player} collects 1 wealth from the {ctx.rules.guild(guild).name}")


def pick_pockets(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    names = action.get("players") or []
    if not isinstance(names, list):
        ctx.bad("players", "expected a list of player names")
        return
    _limit(ctx, names, tactic.amount(x), "players", "players")
    if len(set(map(str, names))) != len(names):
        ctx.bad("players", "each player at most once")
    for i, raw in enumerate(names):
        where = f"players[{i}]"
        victim = ctx.player_name(raw, where)
        if victim is None:
            continue
        if victim == ctx.player:
            ctx.bad(where, "you cannot pick your own pocket")
        elif board.agents_here(ctx.state, here, None, victim) < 1:
            ctx.bad(where, f"{victim} has no claimed agent in district {here}")
        elif ctx.state["players"][victim]["wealth"] < 1:
            ctx.bad(where, f"{victim} has no wealth")
        elif not ctx.errors:
            ctx.state["players"][victim]["wealth"] -= 1
            ctx.me["wealth"] += 1
            ctx.say(f"{ctx.player} takes 1 wealth from {victim}")


def steal_credit(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    target = action.get("agent")
    if target is None:
        return
    if not isinstance(target, dict):
        ctx.bad("agent", "expected {guild, flag}")
        return
    guild = ctx.guild(target.get("guild"), "agent.guild")
    owner = ctx.player_name(target.get("flag"), "agent.flag")
    if guild is None or owner is None:
        return
    limit = tactic.amount(x)
    if owner == ctx.player:
        ctx.bad("agent.flag", "that agent is already yours")
    elif board.agents_here(ctx.state, here, guild, owner) < 1:
        ctx.bad("agent", f"no {ctx.rules.guild(guild).agent} claimed by {owner} in district {here}")
    elif board.buildings_in_city(ctx.state, guild) >= limit:
        ctx.bad("agent.guild", f"the {guild} have {board.buildings_in_city(ctx.state, guild)} buildings "
                               f"in the city; fewer than {limit} needed")
    elif ctx.me["flags"] < 1:
        ctx.bad("agent", "no noble flags left to claim with")
    if ctx.errors:
        return
    board.set_flag(ctx.state, here, guild, owner, ctx.player, ctx.rules)
    ctx.state["players"][owner]["flags"] += 1
    ctx.use_flag()
    ctx.say(f"{ctx.player} steals credit for {owner}'s {ctx.rules.guild(guild).agent} in district {here}")


def compel(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    wanted = ctx.guild_list(action.get("agents"), "agents")
    if wanted is None:
        return
    _limit(ctx, wanted, tactic.amount(x), "agents", "agents")
    for i, guild in enumerate(wanted):
        where = f"agents[{i}]"
        if guild == tactic.guild:
            ctx.bad(where, f"{tactic.name} takes only non-{ctx.rules.guild(guild).agent} agents")
        elif board.agents_here(ctx.state, here, guild) < 1:
            ctx.bad(where, f"no unclaimed {ctx.rules.guild(guild).agent} in district {here}")
        elif not ctx.errors:
            board.remove_agent(ctx.state, here, guild)
            ctx.me["waiting"][guild] += 1
            ctx.say(f"{ctx.player} takes a {ctx.rules.guild(guild).agent} from district {here} "
                    f"into their waiting agents")


def sack(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    if action.get("building") is None:
        return
    guild = ctx.guild(action.get("building"), "building")
    if guild is None:
        return
    if guild not in ctx.state["districts"][here]["buildings"]:
        ctx.bad("building", f"no {guild} building in district {here}")
        return
    limit = tactic.amount(x)
    available = board.row_wealth(ctx.state["economy"][guild])
    take = action.get("take", min(limit, available))
    if ctx.number(take, "take") is None:
        return
    if take > limit:
        ctx.bad("take", f"at most {limit} wealth (X-1), not {take}")
    elif take > available:
        ctx.bad("take", f"the {guild} row has {available} wealth, not {take}")
    if ctx.errors:
        return
    ctx.state["districts"][here]["buildings"].remove(guild)
    ctx.state["supply"]["buildings"][guild] += 1
    ctx.state["economy"][guild] = board.take_wealth(ctx.state["economy"][guild], take)
    ctx.me["wealth"] += take
    ctx.say(f"{ctx.player} sacks a {guild} building in district {here} and takes {take} wealth")


EFFECTS: dict[str, Callable[[Ctx, dict[str, Any], Tactic, str, int], None]] = {
    "statue": statue, "claim": claim, "return_debt": return_debt, "build": build,
    "move_buildings": move_buildings, "buy_claim": buy_claim, "collect": collect,
    "pick_pockets": pick_pockets, "steal_credit": steal_credit, "compel": compel, "sack": sack,
}


def resolve(ctx: Ctx, action: dict[str, Any], tactic: Tactic, here: str, x: int) -> None:
    EFFECTS[tactic.effect](ctx, action, tactic, here, x)
