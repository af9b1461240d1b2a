"""Random legal play keeps the books straight: every player always owns
exactly 20 workers somewhere, no resource goes negative, defaults are legal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from adjudicator.cards.age_of_artisans.core import RESOURCES
from adjudicator.cards.age_of_artisans.engine import GAME

from .helpers import DATA, patched, play

SIMPLE = [{"place": "mines", "take": "clay"}, {"place": "mines", "take": "gold"}, {"place": "quarry"},
          {"place": "forest"}, {"place": "silversmith"}, {"place": "tax_stand"},
          {"place": "workhouse", "draw": True}, {"place": "guardhouse", "actions": ["turn_in"]},
          {"place": "guardhouse", "actions": ["release_prison"]},
          {"place": "black_market", "slot": "small"}, {"place": "black_market", "slot": "large"}]


def workers(state: dict[str, Any], name: str) -> int:
    p = state["players"][name]
    return (p["supply"] + p["prison"] + state["guildhall"].count(name)
            + sum(loc.get(name, 0) for loc in state["board"].values())
            + sum(q["captured"].get(name, 0) for q in state["players"].values())
            + list(state["black_market"].values()).count(name))


def options(state: dict[str, Any], name: str, r: random.Random) -> list[dict[str, Any]]:
    me = state["players"][name]
    opts = [dict(c) for c in SIMPLE]
    opts += [{"place": "guildhall", "build": c} for c in me["hand"]]
    opts += [{"place": "town_center", "captures": [{"player": o, "location": loc}]}
             for loc, there in state["board"].items() for o in there]
    r.shuffle(opts)
    return opts + [GAME.default_choice(state, name, DATA)]


@pytest.mark.parametrize("seed", [2, 9])
@pytest.mark.parametrize("players", [("alice", "bob"), ("alice", "bob", "carol", "dave", "erin")])
def test_random_play_conserves_workers(seed: int, players: tuple[str, ...]) -> None:
    state = GAME.setup(list(players), seed, DATA)
    r = random.Random(seed)
    for _ in range(120):
        info = GAME.phase(state)
        if info is None:
            break
        name = info.waiting_for[0]
        choice = next(c for c in options(state, name, r) if not GAME.validate(state, {name: c}, DATA))
        state, _ = play(state, name, choice)
        for who in players:
            assert workers(state, who) == 20
            assert all(state["players"][who][k] >= 0 for k in RESOURCES)
            assert 0 <= state["players"][who]["virtue"] <= 14


@pytest.mark.parametrize("given", [
    {},
    {"players.alice.supply": 0, "board.forest": {"alice": 1}},
    {"pending": {"player": "alice", "kind": "keep", "options": [3, 4, 5]}},
    {"pending": {"player": "alice", "kind": "discard", "count": 1}, "players.alice.hand": [1, 2]},
])
def test_default_choice_is_always_legal(given: dict[str, Any]) -> None:
    state = patched(given)
    choice = GAME.default_choice(state, "alice", DATA)
    assert choice is not None
    assert GAME.validate(state, {"alice": choice}, DATA) == []


def test_public_view_never_carries_hands_or_pending_cards() -> None:
    state = patched({"pending": {"player": "alice", "kind": "keep", "options": [3, 4, 5]},
                     "players.alice.hand": [7, 8]})
    public = GAME.public_view(state)
    assert "hand" not in public and all("hand" not in p for p in public["players"].values())
    assert public["pending"] == {"player": "alice", "kind": "keep"}
    assert public["players"]["alice"]["hand_size"] == 2
    mine = GAME.private_view(state, "alice")
    assert [c["id"] for c in mine["hand"]] == [7, 8]
    assert [c["id"] for c in mine["choosing"]["options"]] == [3, 4, 5]
    theirs = GAME.private_view(state, "bob")
    assert theirs["choosing"] is None and [c["id"] for c in theirs["hand"]] == [
        c for c in state["players"]["bob"]["hand"]]
