"""Hostile turn files against every turn-file game (issue 16).

For each game a pool of reachable states is played first (random seeds and
player counts, random valid choices, see test_fuzz_play.py). Hypothesis then
picks a state and feeds `validate` choices a careless or hostile player might
send: wrong types, lists for names, nested mappings, huge strings and
numbers, unknown keys, non-string keys, names of other players, cards and
locations, and valid choices with one field spoiled. The contract:

- `validate` never raises and never changes the state: it returns ChoiceErrors;
- when it returns none, `apply` never raises, and the new state is a mapping
  that YAML can dump and the views and `phase` can read.

Every crash found this way is kept as a named case in CRASHES below.

The default run is bounded (about 150 examples per game). A longer run:

    ADJUDICATOR_FUZZ_EXAMPLES=5000 ADJUDICATOR_FUZZ_POOL=12 .venv/bin/pytest tests/cards/test_fuzz_turns.py

(`ADJUDICATOR_FUZZ_POOL` is how many games each pool is played from; add
`-p no:cacheprovider` to start without Hypothesis's saved examples.)
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_play import (
    CANDIDATES,
    GAMES,
    NAMES,
    game_and_data,
    new_game,
    random_turn,
    state_copy,
)

from adjudicator.cards.common import Choice, ChoiceError, State

EXAMPLES = int(os.environ.get("ADJUDICATOR_FUZZ_EXAMPLES", "150"))
POOL_GAMES = int(os.environ.get("ADJUDICATOR_FUZZ_POOL", "3"))

# Field names each game's choices use, so that spoiled choices hit real code paths.
FIELDS: dict[str, list[str]] = {
    "seven-wonders": ["action", "card", "buy", "free", "left", "right"],
    "age-of-ambition": ["actions", "action", "guild", "column", "advance", "agents", "from", "to", "moves",
                        "flag", "district", "tactic", "debt", "buildings", "players", "agent", "building",
                        "take"],
    "age-of-artisans": ["place", "take", "actions", "trades", "captures", "hire", "draw",
                        "discard_apprentice", "slot", "build", "cathedral", "pay", "discard", "release",
                        "then", "recall", "keep", "get", "apprentice", "player", "location"],
    "ambition": ["action", "card", "value", "partner", "alliance", "secret", "third", "network", "target",
                 "arms", "spy", "reveal", "challenge", "accept", "deflect", "immunity", "players",
                 "discard"],
}

# Phases played between snapshots, and the most phases a pool game is played.
POOL_STRIDE = {"seven-wonders": 1, "age-of-ambition": 4, "age-of-artisans": 12, "ambition": 6}
POOL_CAP = {"seven-wonders": 60, "age-of-ambition": 400, "age-of-artisans": 800, "ambition": 600}

_POOLS: dict[str, list[State]] = {}


def pool(name: str) -> list[State]:
    """Reachable states of `name`: snapshots of a few random games, the end included."""
    if name in _POOLS:
        return _POOLS[name]
    game, data = game_and_data(name)
    states: list[State] = []
    for k in range(POOL_GAMES):
        r = random.Random(f"{name}:{k}")
        state = new_game(name, game.min_players + k % (game.max_players - game.min_players + 1),
                         r.randrange(10**6))
        for n in range(POOL_CAP[name]):
            if n % POOL_STRIDE[name] == 0:
                states.append(state_copy(state))
            if game.phase(state) is None:
                break
            turn = random_turn(name, state, r)
            state = game.apply(state_copy(state), turn, data).state
        states.append(state)
    _POOLS[name] = states
    return states


def harvest(value: Any, out: set[Any]) -> None:
    """Every short string and small number in a state: names of players,
    cards, locations, alliances, ids..."""
    if isinstance(value, str) and len(value) < 40 or isinstance(value, int) and not isinstance(value, bool) and -100 < value < 100:
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            harvest(k, out)
            harvest(v, out)
    elif isinstance(value, list):
        for v in value:
            harvest(v, out)


def vocabulary(state: State) -> list[Any]:
    words: set[Any] = set()
    harvest(state, words)
    return sorted(words, key=repr)


def hostile(name: str, words: list[Any]) -> st.SearchStrategy[Any]:
    """Any value a YAML turn file can hold, weighted towards the game's own words."""
    leaves = st.one_of(
        st.sampled_from(words),
        st.sampled_from(FIELDS[name]),
        st.none(), st.booleans(),
        st.integers(min_value=-3, max_value=10),
        st.sampled_from([-(10**18), 10**18, 2**63, -1, 0]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        st.sampled_from(["x" * 100_000, "", " ", "none", "ALICE", "1", "-1", "nan", "~"]),
    )
    keys = st.one_of(st.sampled_from(FIELDS[name]), st.sampled_from(words), st.none(), st.booleans(),
                     st.integers(min_value=-2, max_value=7), st.text(max_size=6))
    return st.recursive(leaves, lambda kids: st.lists(kids, max_size=4)
                        | st.dictionaries(keys, kids, max_size=4), max_leaves=10)


def spoil(draw: Any, choice: Any, values: st.SearchStrategy[Any], keys: st.SearchStrategy[Any]) -> Any:
    """A valid-looking choice with one part replaced, added or removed, at any depth."""
    if isinstance(choice, dict) and choice and draw(st.integers(0, 3)) > 0:
        key = draw(st.sampled_from(sorted(choice, key=repr)))
        out = dict(choice)
        how = draw(st.integers(0, 3))
        if how == 0:
            out[draw(keys)] = draw(values)
        elif how == 1:
            del out[key]
        else:
            out[key] = spoil(draw, choice[key], values, keys)
        return out
    if isinstance(choice, list) and choice and draw(st.integers(0, 3)) > 0:
        i = draw(st.integers(0, len(choice) - 1))
        out_list = list(choice)
        if draw(st.booleans()):
            out_list[i] = spoil(draw, choice[i], values, keys)
        else:
            out_list.insert(i, draw(values))
        return out_list
    return draw(values)


def check_contract(name: str, state: State, turn: dict[str, Any]) -> None:
    """The fuzzer's assertion, also used for the named crash cases."""
    game, data = game_and_data(name)
    before = state_copy(state)
    errors = game.validate(state, state_copy(turn), data)
    assert state == before, "validate changed the state"
    assert isinstance(errors, list) and all(isinstance(e, ChoiceError) for e in errors)
    for e in errors:
        assert isinstance(e.player, str) and isinstance(e.field, str) and isinstance(e.reason, str), e
    if errors or game.phase(state) is None:
        return
    outcome = game.apply(state_copy(state), state_copy(turn), data)
    assert isinstance(outcome.state, dict)
    yaml.safe_dump(outcome.state)
    info = game.phase(outcome.state)
    yaml.safe_dump(game.public_view(outcome.state))
    for player in (info.waiting_for if info else []):
        yaml.safe_dump(game.private_view(outcome.state, player))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_choices_never_crash(name: str, data: st.DataObject) -> None:
    game, variant = game_and_data(name)
    states = pool(name)
    state = state_copy(states[data.draw(st.integers(0, len(states) - 1), label="state")])
    words = vocabulary(state)
    values = hostile(name, words)
    keys = st.one_of(st.sampled_from(FIELDS[name]), st.sampled_from(words), st.none(),
                     st.integers(min_value=-2, max_value=7))
    info = game.phase(state)
    waiting = info.waiting_for if info else list(NAMES[:2])  # after the end: still only errors
    r = random.Random(data.draw(st.integers(0, 2**32), label="candidate seed"))
    turn: dict[str, Any] = {}
    for player in waiting:
        how = data.draw(st.sampled_from(["default", "spoiled", "hostile"]), label=f"{player} sends")
        default: Choice | None = game.default_choice(state, player, variant) if info else None
        if how == "hostile":
            turn[player] = data.draw(values, label=player)
        elif how == "spoiled" and info is not None:
            candidates: list[Any] = CANDIDATES[name](state, player, r) or [default]
            base = data.draw(st.sampled_from(candidates), label=f"{player} base")
            turn[player] = spoil(data.draw, base, values, keys)
        elif default is not None:
            turn[player] = default
    check_contract(name, state, turn)


# --- crashes found, kept as named cases ------------------------------------------------
# (case, game, seed, players, phases of default play before the turn, the turn).
# Each crashed `validate` (so both `check` and `adjudicate`) before its fix.

CRASHES: list[tuple[str, str, int, int, int, dict[str, Any]]] = [
    # a list where a name belongs: looked up in a dict or set, "unhashable type"
    ("ambition-action-list", "ambition", 53, 3, 0, {"alice": {"action": []}}),
    ("ambition-alliance-list", "ambition", 53, 3, 0,
     {"alice": {"action": "propose", "partner": "bob", "alliance": []}}),
    ("ambition-network-list", "ambition", 53, 3, 0,
     {"alice": {"action": "propose", "partner": "bob", "alliance": "industrial-exchange", "network": []}}),
    ("ambition-embargo-network-list", "ambition", 1, 3, 93,
     {"alice": {"action": "play", "card": "embargo-2", "network": ["aerodef"]}}),
    ("ambition-summit-players-lists", "ambition", 1, 3, 30,
     {"carol": {"action": "play", "card": "forced-summit-1", "players": [[], []],
                "alliance": "mutual-defense"}}),
    ("age-of-ambition-action-list", "age-of-ambition", 1, 2, 0,
     {"alice": {"actions": [{"action": []}]}}),
    ("age-of-artisans-place-list", "age-of-artisans", 5, 2, 2, {"alice": {"place": []}}),
    ("age-of-artisans-capture-player-list", "age-of-artisans", 5, 2, 2,
     {"alice": {"place": "town_center", "captures": [{"player": [], "location": "mines"}]}}),
    # keys YAML reads as numbers, true or null do not sort with strings
    ("seven-wonders-null-key", "seven-wonders", 1, 3, 0, {"alice": {"action": "sell", None: 1, "x": 2}}),
    ("ambition-number-key", "ambition", 53, 3, 0, {"alice": {"action": "draw", 1: "x", "y": "z"}}),
    ("ambition-intrigue-null-key", "ambition", 53, 3, 1, {"alice": {"action": "draw", None: 1, "y": 2}}),
    ("age-of-artisans-draft-number-key", "age-of-artisans", 5, 2, 0, {"bob": {0: {}, "place": []}}),
    ("age-of-artisans-place-true-key", "age-of-artisans", 5, 2, 2,
     {"alice": {"place": "forest", True: 1, "x": 2}}),
]


@pytest.mark.parametrize("case_id, name, seed, n_players, phases, turn",
                         CRASHES, ids=[c[0] for c in CRASHES])
def test_found_crash_is_fixed(case_id: str, name: str, seed: int, n_players: int, phases: int,
                              turn: dict[str, Any]) -> None:
    game, data = game_and_data(name)
    state = new_game(name, n_players, seed)
    for _ in range(phases):
        info = game.phase(state)
        assert info is not None
        defaults = {p: game.default_choice(state, p, data) for p in info.waiting_for}
        state = game.apply(state_copy(state), {p: c for p, c in defaults.items() if c is not None},
                           data).state
    info = game.phase(state)
    assert info is not None and set(turn) <= set(info.waiting_for), (case_id, info)
    errors = game.validate(state, turn, data)
    assert errors, f"{case_id}: the bad choice must be refused"
    check_contract(name, state, turn)
