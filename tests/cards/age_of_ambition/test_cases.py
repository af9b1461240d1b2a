"""Runs cases.yaml: worked examples of the rulebook and every action's errors."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from aoa_helpers import fresh_state

from adjudicator.cards.age_of_ambition.engine import GAME
from adjudicator.cards.common import TurnValidationError
from adjudicator.store import storage

CASES: list[dict[str, Any]] = storage.read_yaml(Path(__file__).with_name("cases.yaml"))


def assert_subset(expected: Any, actual: Any, path: str = "state") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a mapping, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            assert_subset(value, actual[key], f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any], data: dict[str, Any]) -> None:
    state = fresh_state(["alice", "bob"], data, case.get("given"))
    player = case.get("player", "alice")
    turn = {player: case["turn"]}
    before = copy.deepcopy(state)
    errors = GAME.validate(state, turn, data)
    assert state == before, "validate must not modify the state"
    if "errors" in case:
        got = [(e.player, e.field, e.reason) for e in errors]
        assert len(errors) == len(case["errors"]), got
        for want in case["errors"]:
            assert any(e.player == want.get("player", player) and e.field == want["field"]
                       and want["reason"] in e.reason for e in errors), (want, got)
        with pytest.raises(TurnValidationError):
            GAME.apply(copy.deepcopy(state), turn, data)
    else:
        assert errors == [], [str(e) for e in errors]
        outcome = GAME.apply(copy.deepcopy(state), turn, data)
        assert_subset(case["expect"], outcome.state)
