"""The turn recipe: start a player's turn, hand over to the Intrigue phase,
end the turn (alliance checks, next player, round limit)."""

from __future__ import annotations

from adjudicator.cards.ambition import alliances, scoring
from adjudicator.cards.ambition.table import (
    gain,
    has_perk,
    perk_amount,
    perk_event,
    roll_die,
    setting,
)
from adjudicator.cards.common import Event, State


def active(state: State) -> str:
    player: str = state["players"][state["turn"]]
    return player


def begin_turn(state: State) -> list[Event]:
    """1. roll the die  2. collect Petrolux income  3. wait for the Diplomacy choice."""
    player = active(state)
    events = [Event(f"Round {state['round']}: {player}'s turn")]
    roll = roll_die(state)
    state["pending"] = {"step": "diplomacy", "player": player, "roll": roll,
                        "rerolled": False, "spied": False}
    events.append(Event(f"{player} rolls {roll}: " + ("influence or bluff" if roll <= 4
                                                        else "forge an alliance")))
    if has_perk(state, player, "diplomacy_income"):
        amount = perk_amount(state, "diplomacy_income")
        gain(state, player, amount)
        events.append(perk_event(state, player, "diplomacy_income",
                                 f"{player} collects {amount} from Petrolux"))
    return events


def to_intrigue(state: State) -> list[Event]:
    player = active(state)
    state["pending"] = {"step": "intrigue", "player": player}
    return []


def end_turn(state: State) -> list[Event]:
    """Alliances are settled at a turn's end, then the next player starts."""
    events = alliances.settle(state)
    state["turn"] += 1
    if state["turn"] >= len(state["players"]):
        state["turn"] = 0
        state["round"] += 1
        if state["round"] > int(setting(state, "round_limit")):
            events.append(Event(f"The round limit ({setting(state, 'round_limit')}) is reached"))
            return events + scoring.end_game(state, "round limit")
    return events + begin_turn(state)
