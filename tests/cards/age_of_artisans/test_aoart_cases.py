"""Data-file cases: one choice from a known position, then the state checked."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from adjudicator.cards.age_of_artisans.engine import GAME
from adjudicator.cards.common import TurnValidationError
from adjudicator.store import storage

from .helpers import DATA, get_path, patched, play

CASES: list[dict[str, Any]] = storage.read_yaml(Path(__file__).with_name("cases.yaml"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    state = patched(case.get("given"))
    choice = case["choice"]
    if "errors" in case:
        errors = GAME.validate(state, {"alice": choice}, DATA)
        got = [(e.field, e.reason) for e in errors]
        for field, words in case["errors"]:
            assert any(f == field and words in r for f, r in got), got
        assert all(e.player == "alice" for e in errors)
        before = copy.deepcopy(state)
        with pytest.raises(TurnValidationError):
            GAME.apply(state, {"alice": choice}, DATA)
        assert state == before, "nothing is applied when a choice is bad"
        return
    after, _ = play(state, "alice", choice)
    for path, want in case["expect"].items():
        assert get_path(after, path) == want, path
