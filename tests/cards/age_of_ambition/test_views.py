"""Views and data. Age of Ambition has no hidden information, so a private
view must be the public view plus that player's own summary, and nothing
about anyone else's options. The GM can change the data without code."""

from __future__ import annotations

import copy
from typing import Any

from aoa_helpers import fresh_state

from adjudicator.cards.age_of_ambition.engine import GAME
from adjudicator.cards.age_of_ambition.rules import read_rules


def test_private_view_is_public_view_plus_own_summary(data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob"], data, {"players": {"alice": {"waiting": {"thieves": 2}},
                                                             "bob": {"waiting": {"clerics": 1}}}})
    public = GAME.public_view(state)
    for player in ("alice", "bob"):
        private = GAME.private_view(state, player)
        you = private.pop("you")
        assert private == public
        assert you["name"] == player
    assert [t["guild"] for t in GAME.private_view(state, "alice")["you"]["deployable"]] == ["thieves", "thieves"]
    assert [t["guild"] for t in GAME.private_view(state, "bob")["you"]["deployable"]] == ["clerics", "clerics"]


def test_every_default_is_marked(data: dict[str, Any]) -> None:
    assert data["economy"]["source"] == "default"
    assert data["alliance_track"]["source"] == "default"
    assert all(d["source"] == "default" for d in data["districts"])
    sources = {t["id"]: t["source"] for t in data["tactics"]}
    assert sources.pop("dedicate-statue") == "rulebook" and sources.pop("compel-service") == "rulebook"
    assert set(sources.values()) == {"default"} and len(sources) == 10
    rules = read_rules(data)
    assert all(len(rules.tactics_of(g)) == 2 for g in rules.guild_ids)


def test_gm_can_replace_columns_and_tactics_in_the_data(data: dict[str, Any]) -> None:
    changed = copy.deepcopy(data)
    changed["economy"]["columns"] = [3, 4, 2, 2, 1, 1]
    ordain = next(t for t in changed["tactics"] if t["id"] == "ordain")
    ordain["amount"] = "X+1"
    state = fresh_state(["alice", "bob"], changed, {"players": {"alice": {"waiting": {"clerics": 1}}}})
    turn = {"alice": {"actions": [
        {"action": "hire", "guild": "masons", "column": 4},
        {"action": "deploy", "guild": "clerics", "tactic": "ordain", "district": 1, "agents": ["clerics"]}]}}
    assert GAME.validate(state, turn, changed) == []
    out = GAME.apply(copy.deepcopy(state), turn, changed).state
    assert out["players"]["alice"]["waiting"]["masons"] == 4
    assert out["districts"]["1"]["agents"] == [{"guild": "clerics", "flag": "alice"}]
    # with the shipped data (X = 0 at the start) the same claim is refused
    assert GAME.validate(state, {"alice": {"actions": turn["alice"]["actions"][1:]}}, data)
