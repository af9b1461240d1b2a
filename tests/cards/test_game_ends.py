"""Every turn-file game reaches its end (issue 11 item 5).

Random games (random seed and player count, random valid choices with some
defaults mixed in, see test_fuzz_play.py) are played in-process, with no CLI
and no templates, and each must be over within a bound on the number of
phases:

- 7 Wonders: 3 Ages of 6 turns, plus at most a Babylon or Halikarnassos
  step per player and Age: 18 + 3 x players.
- Ambition: the round limit (30) x players x 6 phases a turn at most
  (diplomacy, a reroll, an answer phase, intrigue, then drawn, or comply and audit).
- Age of Ambition and Age of Artisans have no bound in their rules: a player
  can hire and dismiss, or place and recall, for ever. Their bound is a
  generous multiple of the longest random game measured (Age of Ambition,
  200 games: at most about 560 phases; Age of Artisans: about 1,700), and
  the Age of Ambition test runs 200 games because a stalemate once kept a
  played game going from turn 32 to 401 (see `stalemate_ends` in
  variants/age-of-ambition.yaml).
- Playing only the defaults is not enough to end Age of Ambition or Age of
  Artisans: the default turn there does nothing (no action) or only takes
  silver, by design, so that a silent player is not played for.

Set ADJUDICATOR_ENDS_GAMES to play more (or fewer) Age of Ambition games.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_play import game_and_data, new_game, play

AOA_GAMES = int(os.environ.get("ADJUDICATOR_ENDS_GAMES", "200"))

GAMES_PLAYED = {"seven-wonders": 30, "age-of-ambition": AOA_GAMES, "age-of-artisans": 10, "ambition": 12}


def bound(name: str, players: int) -> int:
    if name == "seven-wonders":
        return 18 + 3 * players
    if name == "ambition":
        _, data = game_and_data(name)
        return int(data["rules"]["round_limit"]) * players * 6
    return {"age-of-ambition": 2000, "age-of-artisans": 6000}[name]


@pytest.mark.parametrize("name", sorted(GAMES_PLAYED))
def test_random_games_end_within_the_bound(name: str) -> None:
    game, _ = game_and_data(name)

    @settings(max_examples=GAMES_PLAYED[name], deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 10**6), players=st.integers(game.min_players, game.max_players),
           choices=st.integers(0, 2**32))
    def one_game(seed: int, players: int, choices: int) -> None:
        state = new_game(name, players, seed)
        limit = bound(name, players)
        state, phases = play(name, state, random.Random(choices), limit + 1)
        assert game.phase(state) is None, f"{name}: not over after {phases} phases (bound {limit})"

    one_game()
