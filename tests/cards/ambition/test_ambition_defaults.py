"""What a silent player does in each kind of phase."""

from __future__ import annotations

import pytest

from adjudicator.cards.ambition.engine import GAME

from .ambition_harness import DATA, build

DIPLOMACY = {"step": "diplomacy", "player": "a", "rerolled": False, "spied": False}
CASES = [
    ({**DIPLOMACY, "roll": 3}, "a", {"action": "draw"}),
    ({**DIPLOMACY, "roll": 5}, "a", {"action": "pass"}),
    ({"step": "challenge", "player": "a", "card": "aide-1", "value": 3}, "b", {"challenge": False}),
    ({"step": "answer", "player": "a", "partner": "b", "terms": {"alliance": "delay-tactic"}}, "b",
     {"accept": False}),
    # a secret proposal: the silent partner declines, a silent outsider does nothing
    ({"step": "answer", "player": "a", "partner": "b", "terms": {"alliance": "delay-tactic", "secret": True}},
     "b", {"accept": False}),
    ({"step": "answer", "player": "a", "partner": "b", "terms": {"alliance": "delay-tactic", "secret": True}},
     "c", {"accept": False}),
    ({"step": "defence", "player": "a", "target": "b"}, "c", {}),
    ({"step": "intrigue", "player": "a"}, "a", {"action": "draw"}),
    ({"step": "drawn", "player": "a", "card": "backstab-1"}, "a", {"action": "keep"}),
    ({"step": "comply", "player": "a"}, "b", {"discard": ["nuclear-arms-4"]}),
    ({"step": "audit", "player": "a"}, "b", {"challenge": []}),
]


@pytest.mark.parametrize("pending,player,expected", CASES, ids=[f"{c[0]['step']}-{i}" for i, c in enumerate(CASES)])
def test_default_choice(pending: dict, player: str, expected: dict | None) -> None:
    state = build({"players": ["a", "b", "c"], "given": {"pending": pending,
                                                          "hands": {"b": ["nuclear-arms-4", "bunker-1"]}}})
    choice = GAME.default_choice(state, player, DATA)
    assert choice == expected
    if choice is not None:  # a default is always a valid choice
        assert GAME.validate(state, {player: choice}, DATA) == []


def test_secret_answer_phase_waits_for_everyone_else_and_keeps_defaults_quiet() -> None:
    pending = CASES[4][0]
    state = build({"players": ["a", "b", "c"], "given": {"pending": pending}})
    info = GAME.phase(state)
    assert info is not None and info.mode == "simultaneous" and info.waiting_for == ["b", "c"]
    # who sent nothing would point at the partner, so the driver tells only the silent player
    assert info.quiet_defaults


def test_only_secret_answers_and_drawn_cards_keep_defaults_quiet() -> None:
    """A drawer who cannot play the card has nothing to send; the table must
    not learn from their silence what kind of card they kept (issue 12)."""
    for pending, _, _ in CASES:
        quiet = bool(pending.get("terms", {}).get("secret")) or pending["step"] == "drawn"
        info = GAME.phase(build({"players": ["a", "b", "c"], "given": {"pending": pending}}))
        assert info is not None and info.quiet_defaults == quiet, pending
