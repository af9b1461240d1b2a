"""The six actions a player may take on their turn. Each one reads its
fields, reports every problem through ctx.bad, and changes ctx.state (a
copy while a turn is checked, see engine.play_turn)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.cards.age_of_ambition import board, tactics
from adjudicator.cards.age_of_ambition.context import Ctx
from adjudicator.cards.age_of_ambition.rules import Rules


def pieces(rules: Rules, n: int, guild: str) -> str:
    g = rules.guild(guild)
    return f"{n} {g.agent if n == 1 else g.agents}"


def hire(ctx: Ctx, action: dict[str, Any]) -> None:
    ctx.only_keys(action, {"action", "guild", "column", "advance"})
    guild = ctx.guild(action.get("guild"), "guild")
    if ctx.me["wealth"] < 1:
        ctx.bad("", "can't afford it: hiring costs 1 wealth and you have 0")
    if guild is None:
        return
    row = ctx.state["economy"][guild]
    space = board.open_space(row)
    if space is None:
        ctx.bad("guild", f"full track: the {guild} row of the economy board has no open space")
        return
    column = ctx.rules.columns[space]
    if "column" in action and action["column"] != column:
        ctx.bad("column", f"the leftmost open space of the {guild} row is in the {column} column, "
                          f"not {action['column']!r}")
    unemployed = ctx.state["supply"]["agents"][guild]
    advance = action.get("advance", True)
    if not isinstance(advance, bool):
        ctx.bad("advance", "expected true or false")
    elif not advance and unemployed > 0:
        ctx.bad("advance", "only a hire that collects no agents may leave the alliance marker in place")
    if ctx.errors:
        return
    ctx.me["wealth"] -= 1
    ctx.state["economy"][guild], _ = board.add_wealth(row)
    got = min(column, unemployed)
    ctx.state["supply"]["agents"][guild] -= got
    ctx.me["waiting"][guild] += got
    moved = ""
    if advance:
        pos = ctx.me["alliance"][guild]
        ctx.me["alliance"][guild] = min(pos + 1, len(ctx.rules.track) - 1)
        moved = f"; {guild} alliance now {board.alliance_x(ctx.state, ctx.player, guild, ctx.rules)}"
    ctx.say(f"{ctx.player} hires from the {ctx.rules.guild(guild).name} in the {column} column: "
            f"collects {pieces(ctx.rules, got, guild)}{moved}")
    if got and board.unemployed_total(ctx.state) == 0:
        ctx.triggers.append(f"{ctx.player} hired the last unemployed agent")


def dismiss(ctx: Ctx, action: dict[str, Any]) -> None:
    ctx.only_keys(action, {"action", "agents"})
    counts = ctx.guild_counts(action.get("agents"), "agents")
    if counts is None:
        return
    if sum(counts.values()) > ctx.rules.max_dismiss:
        ctx.bad("agents", f"at most {ctx.rules.max_dismiss} agents per dismiss, not {sum(counts.values())}")
    for guild, n in counts.items():
        have = ctx.me["waiting"][guild]
        if have < n:
            ctx.bad(f"agents.{guild}", f"you have {have} waiting {ctx.rules.guild(guild).agents}, not {n}")
    if ctx.errors:
        return
    for guild, n in counts.items():
        ctx.me["waiting"][guild] -= n
        ctx.state["supply"]["agents"][guild] += n
        took = min(n, board.row_wealth(ctx.state["economy"][guild]))
        ctx.state["economy"][guild] = board.take_wealth(ctx.state["economy"][guild], took)
        ctx.me["wealth"] += took
        ctx.say(f"{ctx.player} dismisses {pieces(ctx.rules, n, guild)} and takes {took} wealth "
                f"from the {ctx.rules.guild(guild).name}")


def borrow(ctx: Ctx, action: dict[str, Any]) -> None:
    ctx.only_keys(action, {"action", "from"})
    counts = ctx.guild_counts(action.get("from"), "from")
    if counts is None:
        return
    total = sum(counts.values())
    if total > ctx.rules.max_borrow:
        ctx.bad("from", f"at most {ctx.rules.max_borrow} wealth per borrow, not {total}")
    if ctx.state["supply"]["debt"] < total:
        ctx.bad("from", f"only {ctx.state['supply']['debt']} debt markers left in the supply")
    for guild, n in counts.items():
        wealth = board.row_wealth(ctx.state["economy"][guild])
        if wealth < n:
            ctx.bad(f"from.{guild}", f"the {guild} row has {wealth} wealth, not {n}")
        room = board.borrow_room(ctx.state, ctx.player, guild)
        if room < n:
            ctx.bad(f"from.{guild}", f"only {room} empty space(s) left of your {guild} alliance marker, "
                                     f"{n} needed")
    if ctx.errors:
        return
    for guild, n in counts.items():
        ctx.state["economy"][guild] = board.take_wealth(ctx.state["economy"][guild], n)
        ctx.me["wealth"] += n
        ctx.me["debt"][guild] += n
        ctx.state["supply"]["debt"] -= n
        ctx.say(f"{ctx.player} borrows {n} wealth from the {ctx.rules.guild(guild).name} (+{n} debt)")


def reassign(ctx: Ctx, action: dict[str, Any]) -> None:
    ctx.only_keys(action, {"action", "moves"})
    moves = action.get("moves")
    if not isinstance(moves, list) or not moves:
        ctx.bad("moves", "expected a list of moves, e.g. [{guild: clerics, from: 1, to: 2}]")
        return
    seen: set[str] = set()
    for i, move in enumerate(moves):
        where = f"moves[{i}]"
        if not isinstance(move, dict):
            ctx.bad(where, "expected {guild, from, to} and optionally flag")
            continue
        for key in move:
            if key not in ("guild", "from", "to", "flag"):
                ctx.bad(f"{where}.{key}", "unknown field (allowed: guild, from, to, flag)")
        guild = ctx.guild(move.get("guild"), f"{where}.guild")
        src = ctx.district(move.get("from"), f"{where}.from")
        dst = ctx.district(move.get("to"), f"{where}.to")
        flag = move.get("flag")
        if flag is not None:
            flag = ctx.player_name(flag, f"{where}.flag")
            if flag is None:
                continue
        if guild is None:
            continue
        if guild in seen:
            ctx.bad(f"{where}.guild", f"one {ctx.rules.guild(guild).agent} per reassign")
        seen.add(guild)
        x = board.alliance_x(ctx.state, ctx.player, guild, ctx.rules)
        if x <= 0:
            ctx.bad(f"{where}.guild", f"your {guild} alliance value is 0; it must be greater than zero")
        if src is None or dst is None:
            continue
        if src == dst:
            ctx.bad(f"{where}.to", "from and to are the same district")
        elif board.agents_here(ctx.state, src, guild, flag) < 1:
            whose = f"claimed by {flag}" if flag else "unclaimed"
            ctx.bad(f"{where}.from", f"no {whose} {ctx.rules.guild(guild).agent} in district {src}")
        if ctx.errors:
            continue
        board.remove_agent(ctx.state, src, guild, flag)
        board.put_agent(ctx.state, dst, guild, ctx.rules, flag)
        whose = f" ({flag}'s)" if flag else ""
        ctx.say(f"{ctx.player} reassigns a {ctx.rules.guild(guild).agent}{whose} from district {src} "
                f"to district {dst}")


def distract(ctx: Ctx, action: dict[str, Any]) -> None:
    ctx.only_keys(action, {"action", "guild", "district"})
    guild = ctx.guild(action.get("guild"), "guild")
    district = ctx.district(action.get("district"), "district")
    if guild is not None and ctx.state["supply"]["agents"][guild] < 1:
        ctx.bad("guild", f"no unemployed {ctx.rules.guild(guild).agents} left")
    if ctx.errors or guild is None or district is None:
        return
    ctx.state["supply"]["agents"][guild] -= 1
    board.put_agent(ctx.state, district, guild, ctx.rules)
    ctx.say(f"{ctx.player} distracts: an unemployed {ctx.rules.guild(guild).agent} goes to district {district}")


def deploy(ctx: Ctx, action: dict[str, Any]) -> None:
    guild = ctx.guild(action.get("guild"), "guild")
    district = ctx.district(action.get("district"), "district")
    tactic_id = action.get("tactic")
    tactic = ctx.rules.tactic(str(tactic_id)) if tactic_id is not None else None
    if guild is None:
        return
    names = ", ".join(t.id for t in ctx.rules.tactics_of(guild))
    if tactic is None or tactic.guild != guild:
        ctx.bad("tactic", f"unknown tactic {tactic_id!r} for the {guild} (one of {names})")
        return
    ctx.only_keys(action, {"action", "guild", "tactic", "district"} | tactics.FIELDS[tactic.effect])
    if ctx.me["waiting"][guild] < 1:
        ctx.bad("guild", f"you have no waiting {ctx.rules.guild(guild).agents}")
    if ctx.errors or district is None:
        return
    # The deployed agent goes down first, unclaimed, and counts as here.
    ctx.me["waiting"][guild] -= 1
    board.put_agent(ctx.state, district, guild, ctx.rules)
    x = board.alliance_x(ctx.state, ctx.player, guild, ctx.rules)
    ctx.say(f"{ctx.player} deploys a {ctx.rules.guild(guild).agent} to district {district}: "
            f"{tactic.name} (X={x})")
    tactics.resolve(ctx, action, tactic, district, x)


ACTIONS: dict[str, Callable[[Ctx, dict[str, Any]], None]] = {
    "hire": hire, "dismiss": dismiss, "borrow": borrow, "reassign": reassign,
    "deploy": deploy, "distract": distract,
}
