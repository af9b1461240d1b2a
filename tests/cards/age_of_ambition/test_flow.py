"""Turn order, the end trigger with its last turns and final action, and
final scoring with debt and tie-breaks."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from aoa_helpers import fresh_state

from adjudicator.cards.age_of_ambition import scoring
from adjudicator.cards.age_of_ambition.engine import GAME
from adjudicator.cards.age_of_ambition.rules import Rules
from adjudicator.cards.common import TurnValidationError

PASS: dict[str, Any] = {"actions": []}


def play(state: dict[str, Any], data: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    player = state["current"]
    assert GAME.validate(state, {player: choice}, data) == []
    return GAME.apply(copy.deepcopy(state), {player: choice}, data).state


def empty_supply(but: dict[str, int]) -> dict[str, Any]:
    guilds = ["scribes", "clerics", "masons", "merchants", "thieves", "mercenaries"]
    return {"supply": {"agents": {g: but.get(g, 0) for g in guilds}}}


def test_setup_picks_first_player_with_the_seed(data: dict[str, Any]) -> None:
    firsts = {GAME.setup(["a", "b", "c", "d"], seed, data)["order"][0] for seed in range(20)}
    assert len(firsts) > 1, "the first player should depend on the seed"
    state = GAME.setup(["a", "b", "c"], 5, data)
    assert sorted(state["order"]) == ["a", "b", "c"]
    assert state == GAME.setup(["a", "b", "c"], 5, data)


def test_turns_rotate_in_seat_order(data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob", "carol"], data)
    names = []
    for _ in range(4):
        names.append(GAME.phase(state).name)
        state = play(state, data, PASS)
    assert names == ["turn-01-alice", "turn-02-bob", "turn-03-carol", "turn-04-alice"]


def test_hiring_the_last_unemployed_agent_ends_the_game(data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob", "carol"], data, empty_supply({"merchants": 2}))
    # alice completes her turn as normal after triggering: both actions apply
    state = play(state, data, {"actions": [{"action": "hire", "guild": "merchants"},
                                           {"action": "hire", "guild": "clerics"}]})
    assert state["end"]["trigger"] == "alice"
    assert "hired the last unemployed agent" in state["end"]["reason"]
    assert state["players"]["alice"]["alliance"]["clerics"] == 1
    phases = []
    while (info := GAME.phase(state)) is not None:
        phases.append(info.name)
        state = play(state, data, PASS)
    assert phases == ["turn-02-bob", "turn-03-carol", "final-alice"]
    assert state["stage"] == "over" and state["scores"] is not None


def test_the_final_action_is_one_action_by_the_trigger_player(data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob"], data, empty_supply({"masons": 1}))
    state = play(state, data, PASS)                       # alice
    state = play(state, data, {"actions": [{"action": "hire", "guild": "masons"}]})  # bob triggers
    assert GAME.phase(state).name == "turn-03-alice"
    assert "last turn" in GAME.phase(state).title
    state = play(state, data, PASS)
    info = GAME.phase(state)
    assert info.name == "final-bob" and info.waiting_for == ["bob"] and info.mode == "sequential"
    two = {"actions": [{"action": "hire", "guild": "clerics"}, {"action": "hire", "guild": "clerics"}]}
    assert [e.field for e in GAME.validate(state, {"bob": two}, data)] == ["actions"]
    state = play(state, data, {"actions": [{"action": "hire", "guild": "clerics"}]})
    assert GAME.phase(state) is None


def test_an_empty_supply_hire_does_not_trigger(data: dict[str, Any]) -> None:
    # bob's waiting scribe keeps the game out of a stalemate (see below)
    given = {**empty_supply({}), "players": {"bob": {"waiting": {"scribes": 1}}}}
    state = fresh_state(["alice", "bob"], data, given)
    state = play(state, data, {"actions": [{"action": "hire", "guild": "masons"}]})
    assert state["end"] is None


def test_placing_the_last_flag_ends_the_game_and_a_second_trigger_changes_nothing(data: dict[str, Any]) -> None:
    given = {"players": {"alice": {"flags": 1, "waiting": {"clerics": 1}, "alliance": {"clerics": 1}},
                         "bob": {"flags": 1, "waiting": {"clerics": 1}, "alliance": {"clerics": 1}}}}
    state = fresh_state(["alice", "bob", "carol"], data, given)
    ordain = {"actions": [{"action": "deploy", "guild": "clerics", "tactic": "ordain", "district": 1,
                           "agents": ["clerics"]}]}
    state = play(state, data, ordain)
    assert state["end"] == {"trigger": "alice", "reason": "alice placed their last noble flag",
                            "remaining": ["bob", "carol"]}
    state = play(state, data, ordain)  # bob also places his last flag
    assert state["end"]["trigger"] == "alice"
    state = play(state, data, PASS)
    assert GAME.phase(state).name == "final-alice"


def scored(data: dict[str, Any], rules: Rules, given: dict[str, Any]) -> dict[str, Any]:
    state = fresh_state(["alice", "bob"], data, given)
    return scoring.final_scores(state, rules)


CITY = {"1": {"buildings": ["clerics", "clerics", "masons"]}, "2": {"buildings": ["masons"]}}


def test_debt_is_repaid_with_wealth_then_costs_the_cheapest_flags(data: dict[str, Any], rules: Rules) -> None:
    districts = copy.deepcopy(CITY)
    districts["1"]["agents"] = [{"guild": "clerics", "flag": "alice"}, {"guild": "masons", "flag": "alice"},
                                {"guild": "scribes", "flag": "alice"}]
    districts["2"]["agents"] = [{"guild": "thieves", "flag": "alice"}]
    districts["2"]["statue"] = "alice"
    sheet = scored(data, rules, {"districts": districts,
                                 "players": {"alice": {"wealth": 1, "debt": {"merchants": 2, "thieves": 1}}}})
    alice = sheet["players"]["alice"]
    assert (alice["debt"], alice["repaid"], alice["unpaid"], alice["wealth"]) == (3, 1, 2, 0)
    assert alice["flags_lost"] == ["scribe in district 1", "thief in district 2"]
    # cleric: 2 cleric buildings; mason: 2 mason buildings; statue: 6
    assert (alice["agent_influence"], alice["statues"], alice["influence"]) == (4, 1, 10)
    assert alice["claimed_agents"] == 2


def test_debt_fully_repaid_keeps_every_flag(data: dict[str, Any], rules: Rules) -> None:
    districts = copy.deepcopy(CITY)
    districts["1"]["agents"] = [{"guild": "scribes", "flag": "bob"}]
    sheet = scored(data, rules, {"districts": districts, "players": {"bob": {"wealth": 4, "debt": {"clerics": 3}}}})
    bob = sheet["players"]["bob"]
    assert (bob["repaid"], bob["unpaid"], bob["wealth"], bob["flags_lost"], bob["claimed_agents"]) == (3, 0, 1, [], 1)


@pytest.mark.parametrize("alice_agents, bob_agents, alice_wealth, bob_wealth, winners", [
    # influence decides: alice 2+2, bob 2
    (["clerics", "masons"], ["clerics"], 0, 9, ["alice"]),
    # tied on 4 influence; bob has more claimed agents (a scribe worth 0)
    (["clerics", "masons"], ["clerics", "masons", "scribes"], 9, 0, ["bob"]),
    # tied on influence and agents; wealth decides
    (["clerics", "masons"], ["masons", "clerics"], 2, 3, ["bob"]),
    # tied on everything: both win
    (["clerics"], ["masons"], 3, 3, ["alice", "bob"]),
])
def test_ties_go_to_claimed_agents_then_wealth(data: dict[str, Any], rules: Rules, alice_agents: list[str],
                                               bob_agents: list[str], alice_wealth: int, bob_wealth: int,
                                               winners: list[str]) -> None:
    districts = copy.deepcopy(CITY)
    districts["3"] = {"agents": [{"guild": g, "flag": "alice"} for g in alice_agents]
                      + [{"guild": g, "flag": "bob"} for g in bob_agents]}
    sheet = scored(data, rules, {"districts": districts, "players": {"alice": {"wealth": alice_wealth},
                                                                     "bob": {"wealth": bob_wealth}}})
    assert sheet["winners"] == winners
    assert sheet["ranking"][0] == winners[0]


def test_every_choice_error_names_player_field_and_reason_and_nothing_applies(data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob"], data, {"players": {"alice": {"wealth": 1}}})
    turn = {"alice": {"actions": [{"action": "hire", "guild": "masons"},
                                  {"action": "hire", "guild": "clerics"}]}}
    errors = GAME.validate(state, turn, data)
    # the first hire spends the last wealth, so the second cannot be paid for
    assert [(e.player, e.field) for e in errors] == [("alice", "actions[1]")]
    assert "can't afford" in errors[0].reason
    before = copy.deepcopy(state)
    with pytest.raises(TurnValidationError):
        GAME.apply(state, turn, data)
    assert state == before


def test_distracting_the_last_unemployed_agent_does_not_trigger(data: dict[str, Any]) -> None:
    # The rulebook names only hiring the last unemployed agent as a trigger.
    # (bob's waiting scribe keeps the game out of a stalemate, see below.)
    given = {**empty_supply({"thieves": 1}), "players": {"bob": {"waiting": {"scribes": 1}}}}
    state = fresh_state(["alice", "bob"], data, given)
    state = play(state, data, {"actions": [{"action": "distract", "guild": "thieves", "district": 2}]})
    assert state["end"] is None and sum(state["supply"]["agents"].values()) == 0


# --- stalemate: the rulebook's end can no longer come (issue 11 item 5) ---------------

def test_a_stalemate_triggers_the_end(data: dict[str, Any]) -> None:
    """With no unemployed agent and no waiting agent anywhere, nothing can be
    hired, deployed or claimed again, so neither rulebook trigger can happen.
    The project's default (variants/age-of-ambition.yaml, rules.stalemate_ends)
    triggers the end then, by the player whose turn made it so."""
    state = fresh_state(["alice", "bob", "carol"], data, empty_supply({"thieves": 1}))
    state = play(state, data, {"actions": [{"action": "distract", "guild": "thieves", "district": 2}]})
    assert state["end"] is not None and state["end"]["trigger"] == "alice"
    assert "stalemate" in state["end"]["reason"]
    phases = []
    while (info := GAME.phase(state)) is not None:
        phases.append(info.name)
        state = play(state, data, PASS)
    assert phases == ["turn-02-bob", "turn-03-carol", "final-alice"]


def test_a_stalemate_waits_for_the_last_waiting_agent(data: dict[str, Any]) -> None:
    given = {**empty_supply({}), "players": {"bob": {"waiting": {"clerics": 1}}}}
    state = fresh_state(["alice", "bob"], data, given)
    state = play(state, data, PASS)            # alice: bob can still deploy
    assert state["end"] is None
    deploy = {"actions": [{"action": "deploy", "guild": "clerics", "tactic": "absolve", "district": 1}]}
    state = play(state, data, deploy)          # bob deploys the last one: stalemate
    assert state["end"]["trigger"] == "bob"


def test_the_stalemate_rule_can_be_turned_off(data: dict[str, Any]) -> None:
    literal = {**data, "rules": {**data["rules"], "stalemate_ends": False}}
    state = GAME.setup(["alice", "bob"], 1, literal)
    state["order"], state["current"] = ["alice", "bob"], "alice"
    state["supply"]["agents"] = {g: 0 for g in state["supply"]["agents"]}
    state = play(state, data, PASS)            # the game's own setting wins over the data passed later
    assert state["end"] is None
