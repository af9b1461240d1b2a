"""Final scoring: repay debt with wealth, lose a flag per unpaid debt, then
count influence; ties go to claimed agents, then wealth."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_ambition import board
from adjudicator.cards.age_of_ambition.rules import Rules
from adjudicator.cards.common import State


def _drop_flags(state: State, player: str, n: int, rules: Rules) -> list[str]:
    """Remove n of the player's agent flags, cheapest agents first: the rules
    let the player choose, and this is the choice that costs them least.
    Statues are not agents and keep their flags."""
    owned = [(board.buildings_in_city(state, a["guild"]), rules.guild_ids.index(a["guild"]),
              rules.district_ids.index(d), d, a["guild"])
             for d, spot in state["districts"].items() for a in spot["agents"] if a.get("flag") == player]
    lost: list[str] = []
    for _, _, _, district, guild in sorted(owned)[:n]:
        board.set_flag(state, district, guild, player, None, rules)
        state["players"][player]["flags"] += 1
        lost.append(f"{rules.guild(guild).agent} in district {district}")
    return lost


def final_scores(state: State, rules: Rules) -> dict[str, Any]:
    """Score every player into state["scores"] (mutates state) and return it."""
    sheet: dict[str, dict[str, Any]] = {}
    for player in state["order"]:
        me = state["players"][player]
        debt = board.total_debt(state, player)
        repaid = min(debt, me["wealth"])
        me["wealth"] -= repaid
        lost = _drop_flags(state, player, debt - repaid, rules)
        for guild in me["debt"]:
            state["supply"]["debt"] += me["debt"][guild]
            me["debt"][guild] = 0
        per_guild: dict[str, int] = {}
        agent_points = 0
        for spot in state["districts"].values():
            for agent in spot["agents"]:
                if agent.get("flag") == player:
                    value = board.buildings_in_city(state, agent["guild"])
                    per_guild[agent["guild"]] = per_guild.get(agent["guild"], 0) + 1
                    agent_points += value
        statues = board.statues_of(state, player)
        sheet[player] = {
            "debt": debt, "repaid": repaid, "unpaid": debt - repaid, "flags_lost": lost,
            "agents": {g: n for g, n in sorted(per_guild.items(), key=lambda kv: rules.guild_ids.index(kv[0]))},
            "claimed_agents": sum(per_guild.values()), "agent_influence": agent_points,
            "statues": statues, "statue_influence": statues * rules.statue_value,
            "influence": agent_points + statues * rules.statue_value, "wealth": me["wealth"],
        }

    def key(p: str) -> tuple[int, int, int]:
        s = sheet[p]
        return (-s["influence"], -s["claimed_agents"], -s["wealth"])

    ranking = sorted(state["order"], key=lambda p: (key(p), state["order"].index(p)))
    winners = [p for p in ranking if key(p) == key(ranking[0])]
    scores = {"players": sheet, "ranking": ranking, "winners": winners}
    state["scores"] = scores
    return scores
