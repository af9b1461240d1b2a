"""What players see. Age of Ambition has no hidden information (wealth,
agents, debt and tactics boards are all on the table), so the private view
is the public view plus a summary of the player's own options."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_ambition import board
from adjudicator.cards.age_of_ambition.rules import Rules
from adjudicator.cards.common import State


def _requirement(rules: Rules, district: str) -> str:
    d = rules.district(district)
    parts = [f"{n} {g} building{'s' if n != 1 else ''}" for g, n in d.need_buildings.items()]
    parts += [f"{n} {rules.guild(g).agent if n == 1 else rules.guild(g).agents}" for g, n in d.need_agents.items()]
    return ", ".join(parts) or "nothing"


def _player(state: State, player: str, rules: Rules) -> dict[str, Any]:
    me = state["players"][player]
    gids = rules.guild_ids
    return {
        "name": player,
        "wealth": me["wealth"],
        "flags": me["flags"],
        "claimed_agents": board.claimed_agents(state, player),
        "statues": board.statues_of(state, player),
        "waiting": {g: me["waiting"][g] for g in gids if me["waiting"][g]},
        "waiting_total": sum(me["waiting"].values()),
        "alliance": {g: board.alliance_x(state, player, g, rules) for g in gids},
        "debt": {g: me["debt"][g] for g in gids if me["debt"][g]},
        "debt_total": board.total_debt(state, player),
    }


def public(state: State, rules: Rules) -> dict[str, Any]:
    economy = []
    for g in rules.guilds:
        row = state["economy"][g.id]
        space = board.open_space(row)
        economy.append({"guild": g.id, "name": g.name, "row": row, "wealth": board.row_wealth(row),
                        "next_column": rules.columns[space] if space is not None else None,
                        "unemployed": state["supply"]["agents"][g.id],
                        "in_city": board.buildings_in_city(state, g.id)})
    districts = []
    for did in rules.district_ids:
        spot = state["districts"][did]
        agents = [rules.guild(a["guild"]).agent + (f" ({a['flag']})" if a.get("flag") else "")
                  for a in spot["agents"]]
        # `pieces` is `agents` as data (guild id and flag), for the table picture.
        pieces = [{"guild": a["guild"], "flag": a.get("flag")} for a in spot["agents"]]
        districts.append({"id": did, "name": rules.district(did).name, "buildings": list(spot["buildings"]),
                          "statue": spot["statue"], "agents": agents, "pieces": pieces,
                          "statue_requires": _requirement(rules, did)})
    return {
        "turn": state["turn"], "stage": state["stage"], "current": state["current"],
        "order": list(state["order"]), "end": state["end"],
        "columns": list(rules.columns),
        "economy": economy,
        "supply": {"unemployed": sum(state["supply"]["agents"].values()),
                   "buildings": sum(state["supply"]["buildings"].values()),
                   "statues": state["supply"]["statues"], "debt": state["supply"]["debt"]},
        "districts": districts,
        "players": [_player(state, p, rules) for p in state["order"]],
        "scores": state["scores"],
    }


def private(state: State, player: str, rules: Rules) -> dict[str, Any]:
    view = public(state, rules)
    me = state["players"][player]
    tactics = []
    for t in rules.tactics:
        if me["waiting"][t.guild]:
            x = board.alliance_x(state, player, t.guild, rules)
            tactics.append({"guild": t.guild, "id": t.id, "name": t.name, "x": x, "text": t.text})
    view["you"] = dict(_player(state, player, rules),
                       borrow_room={g: board.borrow_room(state, player, g) for g in rules.guild_ids
                                    if board.borrow_room(state, player, g) > 0},
                       deployable=tactics, your_turn=state["current"] == player and state["stage"] != "over")
    return view
