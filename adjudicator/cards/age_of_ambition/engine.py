"""Age of Ambition as a TurnGame: sequential turns of up to two actions, the
end trigger with its extra turns and final action, and final scoring.

Turn file, one player per phase:

    phase: turn-03-alice
    alice:
      actions:
        - {action: hire, guild: merchants, column: 2}
        - {action: deploy, guild: mercenaries, tactic: compel-service, district: 3, agents: [clerics]}
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from adjudicator.cards.age_of_ambition import board, scoring, views
from adjudicator.cards.age_of_ambition.actions import ACTIONS
from adjudicator.cards.age_of_ambition.context import Ctx, run_action
from adjudicator.cards.age_of_ambition.rules import Rules, read_rules
from adjudicator.cards.common import (
    Choice,
    ChoiceError,
    Event,
    Outcome,
    ParsedData,
    PhaseInfo,
    State,
    TurnValidationError,
    VariantData,
    new_rng_record,
    rng,
)
from adjudicator.errors import GameFolderError


def play_turn(state: State, player: str, choice: Any, rules: Rules, *, checking: bool) -> Ctx:
    """Run a player's actions in order. Every bad action is reported; the
    later ones are checked against the state without it.

    Checking, `state` is left alone: each action runs on a copy (a
    TrialState, which copies the parts the action reads), except the last
    once a copy exists (nothing reads the state after it). Otherwise the turn
    has been checked, so no action fails, and they change `state` itself."""
    ctx = Ctx(state, rules, player, "actions")
    if choice is None or choice == {}:
        # A pass is said in so many words; an empty choice is more likely a
        # mail whose lines were lost than a player who meant to do nothing.
        ctx.bad("", "no actions given: to take no action this turn, send 'actions: []'")
        return ctx
    if not isinstance(choice, dict):
        ctx.bad("", "expected a mapping with an 'actions' list")
        return ctx
    for key in choice:
        if key != "actions":
            ctx.errors.append(ChoiceError(player, str(key), "unknown field (a turn has only 'actions')"))
    actions = choice.get("actions") or []
    if not isinstance(actions, list):
        ctx.bad("", "expected a list of actions")
        return ctx
    limit = rules.final_actions if state["stage"] == "final" else rules.actions_per_turn
    if len(actions) > limit:
        ctx.bad("", f"at most {limit} action(s) this turn, not {len(actions)}")
    if not actions:
        ctx.say(f"{player} takes no action")
    for i, action in enumerate(actions):
        ctx.prefix = f"actions[{i}]"
        got = action.get("action") if isinstance(action, dict) else action
        # isinstance first: a list or mapping as the action name cannot be looked up
        if not isinstance(action, dict) or not isinstance(got, str) or got not in ACTIONS:
            ctx.bad("action", f"unknown action {got!r}: name one of {', '.join(ACTIONS)}, "
                              "e.g. {action: hire, guild: clerics}")
            continue
        on_copy = checking and (ctx.state is state or i < len(actions) - 1)
        run_action(ctx, functools.partial(_act, ACTIONS[got], action), on_copy=on_copy)
    return ctx


def _advance(state: State, rules: Rules, events: list[Event]) -> None:
    """Move to the next phase: next player, the last turns, the final action, or the end."""
    end = state["end"]
    if state["stage"] == "final":
        state["stage"] = "over"
        scores = scoring.final_scores(state, rules)
        events.append(Event("The game is over. Winner: " + " and ".join(scores["winners"])))
        return
    state["turn"] += 1
    if end is None:
        order = state["order"]
        state["current"] = order[(order.index(state["current"]) + 1) % len(order)]
        return
    if state["current"] != end["trigger"] and end["remaining"] and end["remaining"][0] == state["current"]:
        end["remaining"].pop(0)
    if end["remaining"]:
        state["current"] = end["remaining"][0]
    else:
        state["current"] = end["trigger"]
        state["stage"] = "final"


class AgeOfAmbition:
    name = "age-of-ambition"
    # The field names its choices use: a mailed line with one of these keys is
    # the player's choice, never a misspelt password (Ambition's `secret: true`).
    choice_keys = frozenset({"actions", "action", "advance", "agent", "agents", "building", "buildings", "column",
                             "debt", "district", "flag", "from", "guild", "moves", "players", "tactic", "take", "to"})
    title = "Age of Ambition"
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        self.variant_data = VariantData(self.name)
        # read on every validate and apply, which are given the same mapping
        self.rules_of = ParsedData(read_rules)

    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        rules = self.rules_of(data)
        state: State = {"rng": new_rng_record(seed)}
        first = rng(state).randrange(len(players))  # the rules pick the first player at random
        order = players[first:] + players[:first]
        state.update({"order": order, "turn": 1, "current": order[0], "stage": "turn", "end": None})
        state.update(board.new_board(players, rules))
        state["rules"] = {"stalemate_ends": rules.stalemate_ends}  # the game's options, fixed at setup
        state["scores"] = None
        return state

    def phase(self, state: State) -> PhaseInfo | None:
        player = state["current"]
        if state["stage"] == "over":
            return None
        if state["stage"] == "final":
            return PhaseInfo(f"final-{player}", "sequential", [player], f"Final action: {player}")
        last = " (last turn)" if state["end"] is not None else ""
        return PhaseInfo(f"turn-{state['turn']:02d}-{player}", "sequential", [player],
                         f"Turn {state['turn']}: {player}{last}")

    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        rules = self.rules_of(data)
        errors: list[ChoiceError] = []
        if state["stage"] == "over":
            return [ChoiceError(name, name, "the game is over") for name in turn]
        for name, choice in turn.items():
            if name != state["current"]:
                errors.append(ChoiceError(str(name), str(name), f"not your turn: waiting for {state['current']}"))
                continue
            errors.extend(play_turn(state, name, choice, rules, checking=True).errors)
        return errors

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        # Actions are optional ("up to two"), so silence is a turn with none.
        return {"actions": []}

    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        rules = self.rules_of(data)
        if state["stage"] == "over":
            raise GameFolderError("the game is over")
        errors = self.validate(state, turn, data)
        if errors:
            raise TurnValidationError(errors)
        player = state["current"]
        ctx = play_turn(state, player, turn.get(player), rules, checking=False)
        events = list(ctx.events)
        reason = ctx.triggers[0] if ctx.triggers else None
        # a game begun before the option existed takes the variant's setting
        stalemate_ends = state.get("rules", {}).get("stalemate_ends", rules.stalemate_ends)
        if reason is None and stalemate_ends and state["stage"] == "turn" and board.stalemate(state):
            reason = (f"stalemate after {player}'s turn: no agent is unemployed or waiting, so no agent "
                      "can be hired, deployed or claimed again")
        if reason is not None and state["end"] is None:
            order = state["order"]
            at = order.index(player)
            others = order[at + 1:] + order[:at]
            state["end"] = {"trigger": player, "reason": reason, "remaining": others}
            events.append(Event(f"The end is triggered: {reason}. " + ", ".join(others)
                                + f" take one more turn each, then {player} takes one final action."))
        _advance(state, rules, events)
        return Outcome(state, events)

    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.public(state, self._rules(data))

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.private(state, player, self._rules(data))

    def _rules(self, data: dict[str, Any] | None) -> Rules:
        """The game's own rules when the driver passes its data; else the installed file's."""
        return self.rules_of(self.variant_data.installed() if data is None else data)


def _act(handler: Callable[[Ctx, dict[str, Any]], None], action: dict[str, Any], trial: Ctx) -> None:
    """One action on the trial copy (bound with functools.partial, not a loop closure)."""
    handler(trial, action)


GAME = AgeOfAmbition()
