"""Issue 12: a kept intrigue draw must not tell the table what kind of card it
was. Two games that differ only in the card bob draws, one he could play at
once and one he cannot, must give the same phases, the same public reports
and the same private reports to everyone but bob."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjudicator.cards.ambition.engine import GAME
from adjudicator.cards.common import Choice, Event, State
from adjudicator.output.templating import render

from .ambition_harness import DATA, build

DRAWER = "b"
PLAYERS = ["a", DRAWER, "c"]

# (a card bob may play at once, a card he may not). Bob is armed, so Nuclear
# Arms and Armageddon are kept rather than discarded; Armageddon and Sanctions
# are kept cards that cannot be played while not every rival is armed.
PAIRS = [
    ("political-scandal-1", "nuclear-arms-1"),
    ("political-scandal-1", "bunker-1"),
    ("espionage-1", "missile-shield-1"),
    ("espionage-1", "diplomatic-immunity-1"),
    ("political-scandal-1", "armageddon-1"),
    ("espionage-1", "sanctions-1"),
]
# what bob sends whenever the game waits for him after the draw: `keep`, or
# nothing at all (the phase's default)
ANSWERS: list[Choice | None] = [{"action": "keep"}, None]


def table(card: str) -> State:
    """Round 1, bob's Intrigue phase, `card` on top of the intrigue deck."""
    return build({"players": PLAYERS, "seed": 5,
                  "given": {"armed": {DRAWER: True}, "turn": 1, "intrigue_top": [card],
                            "elites": {"a": ["aide-1"], "c": ["general-1"]},
                            "pending": {"step": "intrigue", "player": DRAWER}}})


def rendered(state: State, before: Any, events: list[Event]) -> dict[str, str]:
    """The reports of one phase, built as the turn-file driver builds them."""
    context: dict[str, Any] = {"game": "Ambition", "folder": "g", "phase": before,
                               "next_phase": GAME.phase(state), "view": GAME.public_view(state),
                               "events": [e.text for e in events if e.visible_to is None]}
    out = {"public": render("ambition/public.txt.j2", context)}
    for p in PLAYERS:
        out[p] = render("ambition/private.txt.j2",
                        dict(context, player=p, private=GAME.private_view(state, p),
                             events=[e.text for e in events if e.is_visible_to(p)]))
    return out


def step(state: State, choices: dict[str, Choice | None]) -> tuple[State, dict[str, str]]:
    """One phase: silent players get their default, announced as the driver does."""
    info = GAME.phase(state)
    assert info is not None
    turn: dict[str, Choice] = {}
    silent: list[Event] = []
    for p in info.waiting_for:
        choice = choices.get(p)
        if choice is None:
            default = GAME.default_choice(state, p, DATA)
            assert default is not None
            turn[p] = default
            silent.append(Event(f"{p} sent nothing; default applied",
                                (p,) if info.quiet_defaults else None))
        else:
            turn[p] = choice
    assert not GAME.validate(copy.deepcopy(state), turn, DATA), (info.name, turn)
    outcome = GAME.apply(copy.deepcopy(state), turn, DATA)
    return outcome.state, rendered(outcome.state, info, silent + outcome.events)


def bobs_turn(card: str, answer: Choice | None) -> list[tuple[str, dict[str, str]]]:
    """(phase name, reports) for bob's draw and every phase of his turn after it."""
    state = table(card)
    seen = []
    name = GAME.phase(state).name  # type: ignore[union-attr]
    state, texts = step(state, {DRAWER: {"action": "draw"}})
    seen.append((name, texts))
    while (info := GAME.phase(state)) is not None and info.name.startswith(f"r1-{DRAWER}-"):
        state, texts = step(state, {DRAWER: answer})
        seen.append((info.name, texts))
    seen.append((GAME.phase(state).name, {}))  # type: ignore[union-attr]
    return seen


@pytest.mark.parametrize("answer", ANSWERS, ids=["keep", "silent"])
@pytest.mark.parametrize("playable,unplayable", PAIRS, ids=[f"{a}-vs-{b}" for a, b in PAIRS])
def test_the_table_cannot_tell_what_kind_of_card_was_kept(playable: str, unplayable: str,
                                                         answer: Choice | None) -> None:
    one, other = bobs_turn(playable, answer), bobs_turn(unplayable, answer)
    assert [name for name, _ in one] == [name for name, _ in other]
    for (name, texts), (_, others) in zip(one, other, strict=True):
        for reader in ("public", *(p for p in PLAYERS if p != DRAWER)):
            assert texts.get(reader) == others.get(reader), (name, reader)


@pytest.mark.parametrize("playable,unplayable", PAIRS[:1])
def test_only_the_drawer_learns_the_card_and_whether_it_can_be_played(playable: str,
                                                                      unplayable: str) -> None:
    mine = {card: bobs_turn(card, {"action": "keep"})[0][1][DRAWER] for card in (playable, unplayable)}
    assert "Political Scandal" in mine[playable] and "keep it or play it now" in mine[playable]
    assert "Nuclear Arms" in mine[unplayable] and "cannot be played now" in mine[unplayable]


RICH = {"a": 20, "b": 20, "c": 20}
# (card drawn by a, the table, whether a may play it at once)
PLAYABLE_NOW = [
    ("backstab-1", {}, False),
    ("backstab-1", {"alliances": [{"type": "delay-tactic", "members": ["a", "c"]}]}, True),
    ("embargo-1", {}, False),
    ("embargo-1", {"in_play": {"aerodef": {"holder": "b", "card": "aerodef-1", "since": 1}}}, True),
    ("forced-summit-1", {"influence": RICH}, True),
    ("forced-summit-1", {"influence": {"a": 20, "b": 20, "c": 2}}, False),
    ("forced-summit-1", {"influence": RICH,
                         "alliances": [{"type": "delay-tactic", "members": ["b", "c"]}]}, False),
    ("sanctions-1", {"armed": {"c": True}}, True),
    ("armageddon-1", {"armed": {"a": True, "b": True, "c": True}}, True),
    ("bunker-1", {}, False),
]


@pytest.mark.parametrize("card,given,playable", PLAYABLE_NOW)
def test_the_drawer_is_told_whether_the_card_can_be_played_now(card: str, given: dict[str, Any],
                                                              playable: bool) -> None:
    state = build({"players": ["a", "b", "c"],
                   "given": {**given, "pending": {"step": "drawn", "player": "a", "card": card},
                             "hands": {"a": [card]}}})
    drawn = GAME.private_view(state, "a")["hand"]["drawn"]
    assert drawn["playable"] is playable and bool(drawn["why_not"]) is not playable
    refused = [e.field for e in GAME.validate(state, {"a": {"action": "play"}}, DATA)]
    assert ("action" in refused) is not playable, refused
