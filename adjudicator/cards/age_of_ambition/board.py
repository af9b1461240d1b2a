"""The shared pieces: economy rows, districts, supply, and players' areas.

An economy row is a string, one character per space: "W" wealth, "B" a
building covering the space, "." open. Wealth enters at the leftmost open
space and leaves from the rightmost wealth; that is the whole row rule.
A district holds `agents` (a sorted list of {guild, flag?}), `buildings`
(a sorted list of guild ids) and `statue` (the claiming player or None)."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_ambition.rules import Rules
from adjudicator.cards.common import State

WEALTH, BUILDING, OPEN = "W", "B", "."

Agent = dict[str, str]


# --- economy board ---------------------------------------------------------

def open_space(row: str) -> int | None:
    index = row.find(OPEN)
    return None if index < 0 else index


def row_wealth(row: str) -> int:
    return row.count(WEALTH)


def add_wealth(row: str) -> tuple[str, int]:
    """Place one wealth; returns the new row and the index used."""
    index = open_space(row)
    assert index is not None, "caller checks for a full row"
    return row[:index] + WEALTH + row[index + 1:], index


def take_wealth(row: str, n: int) -> str:
    """Remove up to n wealth, rightmost first."""
    cells = list(row)
    for i in range(len(cells) - 1, -1, -1):
        if n <= 0:
            break
        if cells[i] == WEALTH:
            cells[i] = OPEN
            n -= 1
    return "".join(cells)


def setup_row(rules: Rules) -> str:
    cols = rules.columns
    cells = [OPEN] * len(cols)
    cells[cols.index(rules.setup_wealth_column)] = WEALTH
    span = [i for i, c in enumerate(cols) if c == rules.setup_building_column]
    cells[span[0]] = BUILDING
    cells[span[-1]] = BUILDING
    return "".join(cells)


# --- buildings -------------------------------------------------------------

def buildings_in_city(state: State, guild: str) -> int:
    return sum(d["buildings"].count(guild) for d in state["districts"].values())


def building_available(state: State, guild: str) -> bool:
    return state["supply"]["buildings"][guild] > 0 or BUILDING in state["economy"][guild]


def take_building(state: State, guild: str) -> None:
    """A new building comes from the supply, else the leftmost one on the
    guild's economy row, which uncovers that space."""
    if state["supply"]["buildings"][guild] > 0:
        state["supply"]["buildings"][guild] -= 1
        return
    row = state["economy"][guild]
    i = row.index(BUILDING)
    state["economy"][guild] = row[:i] + OPEN + row[i + 1:]


def add_building(state: State, district: str, guild: str, rules: Rules) -> None:
    buildings = state["districts"][district]["buildings"]
    buildings.append(guild)
    buildings.sort(key=rules.guild_ids.index)


# --- agents ----------------------------------------------------------------

def unemployed_total(state: State) -> int:
    return sum(state["supply"]["agents"].values())


def stalemate(state: State) -> bool:
    """No unemployed agent and no waiting agent anywhere: nothing can be hired,
    deployed or claimed again (only Deploy claims, only Hire and Compel Service
    give waiting agents, only Dismiss refills the supply), so neither rulebook
    trigger, hiring the last unemployed agent or placing a last flag, can come."""
    return unemployed_total(state) == 0 and not any(
        n for player in state["players"].values() for n in player["waiting"].values())


def agents_here(state: State, district: str, guild: str | None = None,
                flag: str | None = None, any_flag: bool = False) -> int:
    """Agents in a district, of a guild if given; unclaimed only unless a flag
    (claimed by that player) or any_flag is given."""
    count = 0
    for agent in state["districts"][district]["agents"]:
        if guild is not None and agent["guild"] != guild:
            continue
        if any_flag or agent.get("flag") == flag:
            count += 1
    return count


def sort_agents(state: State, district: str, rules: Rules) -> None:
    order = rules.guild_ids
    state["districts"][district]["agents"].sort(
        key=lambda a: (order.index(a["guild"]), a.get("flag", "")))


def put_agent(state: State, district: str, guild: str, rules: Rules, flag: str | None = None) -> None:
    agent: Agent = {"guild": guild}
    if flag is not None:
        agent["flag"] = flag
    state["districts"][district]["agents"].append(agent)
    sort_agents(state, district, rules)


def remove_agent(state: State, district: str, guild: str, flag: str | None = None) -> None:
    agents = state["districts"][district]["agents"]
    for i, agent in enumerate(agents):
        if agent["guild"] == guild and agent.get("flag") == flag:
            del agents[i]
            return
    raise AssertionError("caller checks the agent is there")


def set_flag(state: State, district: str, guild: str, old: str | None, new: str | None,
             rules: Rules) -> None:
    """Move one agent's flag: claim (old None), unclaim (new None) or steal."""
    remove_agent(state, district, guild, old)
    put_agent(state, district, guild, rules, new)


def claimed_agents(state: State, player: str) -> int:
    return sum(1 for d in state["districts"].values() for a in d["agents"] if a.get("flag") == player)


def statues_of(state: State, player: str) -> int:
    return sum(1 for d in state["districts"].values() if d["statue"] == player)


# --- players ---------------------------------------------------------------

def alliance_x(state: State, player: str, guild: str, rules: Rules) -> int:
    return int(rules.track[state["players"][player]["alliance"][guild]])


def borrow_room(state: State, player: str, guild: str) -> int:
    """Empty spaces left of the alliance marker: its position minus debt there."""
    me = state["players"][player]
    return int(me["alliance"][guild]) - int(me["debt"][guild])


def total_debt(state: State, player: str) -> int:
    return sum(state["players"][player]["debt"].values())


def new_board(players: list[str], rules: Rules) -> dict[str, Any]:
    gids = rules.guild_ids
    return {
        "economy": {g: setup_row(rules) for g in gids},
        "supply": {
            "agents": {g: rules.agents_per_guild for g in gids},
            # two buildings per guild start on the economy board
            "buildings": {g: rules.buildings_per_guild - 2 for g in gids},
            "statues": rules.statues,
            "debt": rules.debt_markers,
        },
        "districts": {d: {"agents": [], "buildings": [], "statue": None} for d in rules.district_ids},
        "players": {p: {"wealth": rules.starting_wealth, "flags": rules.flags_per_player,
                        "waiting": {g: 0 for g in gids}, "alliance": {g: 0 for g in gids},
                        "debt": {g: 0 for g in gids}} for p in players},
    }
