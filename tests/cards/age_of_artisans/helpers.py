"""Shared helpers: a known 2-player position after the draft, dotted-path
patches for data-file cases, and running one choice through the engine."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.cards.age_of_artisans.engine import GAME
from adjudicator.cards.driver import load_data

DATA = load_data(GAME)


def base_state(players: tuple[str, ...] = ("alice", "bob"), seed: int = 5) -> dict[str, Any]:
    """Past the draft, alice to play, nobody holds apprentices, known markets."""
    state = GAME.setup(list(players), seed, DATA)
    state["order"] = list(players)
    for seat, name in enumerate(players):
        state["players"][name]["seat"] = seat + 1
        state["players"][name]["apprentices"] = []
    state.update(stage="play", draft_left=[], current=players[0], turn=1)
    state["market_deck"] = list(range(1, 11))
    state["market_pos"] = 0
    return state


def set_path(state: dict[str, Any], path: str, value: Any) -> None:
    keys = path.split(".")
    node = state
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = copy.deepcopy(value)


def get_path(state: dict[str, Any], path: str) -> Any:
    node: Any = state
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def patched(given: dict[str, Any] | None, players: tuple[str, ...] = ("alice", "bob")) -> dict[str, Any]:
    state = base_state(players)
    for path, value in (given or {}).items():
        set_path(state, path, value)
    return state


def play(state: dict[str, Any], player: str, choice: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    errors = GAME.validate(state, {player: choice}, DATA)
    assert not errors, [str(e) for e in errors]
    out = GAME.apply(copy.deepcopy(state), {player: choice}, DATA)
    return out.state, [e.text for e in out.events]
