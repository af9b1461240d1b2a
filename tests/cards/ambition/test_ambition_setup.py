"""Set-up as the handbook gives it, and the seeded die of the Diplomacy phase."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.cards.ambition.engine import GAME
from adjudicator.cards.ambition.table import elite_value, key_of

from .ambition_harness import DATA

PLAYERS = ["ann", "ben", "cat", "dan"]


def full(kind: str) -> Counter[str]:
    return Counter({e["key"]: e["count"] for e in DATA[kind]})


@pytest.mark.parametrize("seed", [1, 2, 3, 53])
def test_setup_follows_the_handbook(seed: int) -> None:
    state = GAME.setup(PLAYERS, seed, DATA)
    for p in PLAYERS:
        elites = state["elites"][p]
        # each player has their own shuffled Elites deck and draws the top three...
        assert len(elites["hand"]) == 3 and elites["discard"] == []
        assert Counter(key_of(c) for c in elites["deck"] + elites["hand"]) == full("elites")
        # ...whose sum is their starting Influence, drawn from the bank; the cards stay in hand
        assert state["influence"][p] == sum(elite_value(state, c) for c in elites["hand"])
        # and their own shuffled Industrial Networking deck, nothing in play yet
        assert Counter(key_of(c) for c in state["network"][p]["deck"]) == full("network")
        assert state["hands"][p] == [] and not state["armed"][p]
    assert state["in_play"] == {} and state["alliances"] == []
    # the shared intrigue deck, face down, and the Nuclear Armament tokens in the centre
    assert Counter(key_of(c) for c in state["intrigue"]["deck"]) == full("intrigue")
    assert state["intrigue"]["discard"] == []
    assert state["tokens"] == len(PLAYERS) * DATA["settings"]["tokens_per_player"]["value"]
    # the decks are shuffled, each on its own
    decks = [tuple(state["elites"][p]["deck"]) for p in PLAYERS]
    assert len(set(decks)) == len(PLAYERS)
    assert state["intrigue"]["deck"] != sorted(state["intrigue"]["deck"])


def test_setup_and_die_depend_only_on_the_seed() -> None:
    rolls = set()
    for seed in range(40):
        a, b = GAME.setup(PLAYERS, seed, DATA), GAME.setup(PLAYERS, seed, DATA)
        assert a == b
        info = GAME.phase(a)
        assert info is not None and info.waiting_for == [PLAYERS[0]] and info.name.endswith("-diplomacy")
        rolls.add(a["pending"]["roll"])
    assert rolls == {1, 2, 3, 4, 5, 6}  # a d6
