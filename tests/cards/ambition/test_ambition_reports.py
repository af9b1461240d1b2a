"""What the reports tell and to whom: the perks of the Industrial
Networking cards in play, a drawn intrigue card's kind only to its drawer,
and a secret alliance's deadline to its members."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from adjudicator.cards.ambition.engine import GAME, catalog_from
from adjudicator.cards.common import State
from adjudicator.errors import DataFileError
from adjudicator.output.templating import render

from .ambition_harness import DATA, build
from .test_ambition_cli import BuiltOnce, sample_game


def test_perk_texts_are_whole_sentences() -> None:
    network = catalog_from(DATA)["network"]
    assert network["medianet"]["text"] == "When you win a bluff challenge (either side), collect 2 more."
    assert network["finvest"]["text"] == "When one of your alliances completes, collect 2 more."
    for key, card in network.items():
        assert card["text"].endswith("."), key


def test_a_field_cut_off_by_a_comma_is_refused() -> None:
    data = copy.deepcopy(DATA)
    data["network"][0]["collect 2 more."] = None   # what `text: a, b` in a {...} mapping reads as
    with pytest.raises(DataFileError, match="unknown field 'collect 2 more.'"):
        catalog_from(data)


def reports(state: State, events: list[str] | None = None) -> dict[str, str]:
    """The public report and each player's private report of this state."""
    context: dict[str, Any] = {"game": "Ambition", "folder": "g", "phase": GAME.phase(state),
                               "next_phase": GAME.phase(state), "events": events or [],
                               "view": GAME.public_view(state)}
    out = {"public": render("ambition/public.txt.j2", context)}
    for p in state["players"]:
        out[p] = render("ambition/private.txt.j2", dict(context, player=p, private=GAME.private_view(state, p)))
    return out


def test_perks_in_play_are_shown_to_everyone() -> None:
    state = build({"players": ["a", "b", "c"],
                   "given": {"in_play": {"medianet": {"holder": "b", "card": "medianet-1", "since": 1}},
                             "pending": {"step": "intrigue", "player": "a"}}})
    assert GAME.public_view(state)["in_play"] == [
        {"name": "Medianet", "holder": "b",
         "text": "When you win a bluff challenge (either side), collect 2 more."}]
    for text in reports(state).values():
        assert "Medianet (b): When you win a bluff challenge (either side), collect 2 more." in text


def draw(card: str) -> tuple[list[str], list[str]]:
    """(public events, bob's private events) when armed bob draws `card`."""
    state = build({"players": ["a", "b", "c"],
                   "given": {"armed": {"b": True}, "intrigue_top": [card],
                             "pending": {"step": "intrigue", "player": "b"}}})
    outcome = GAME.apply(state, {"b": {"action": "draw"}}, DATA)
    return ([e.text for e in outcome.events if e.visible_to is None],
            [e.text for e in outcome.events if e.visible_to == ("b",)])


@pytest.mark.parametrize("card", ["nuclear-arms-1", "bunker-1", "missile-shield-1", "sanctions-1"])
def test_a_kept_draw_does_not_tell_the_table_its_kind(card: str) -> None:
    public, private = draw(card)
    assert public[0] == "b draws an intrigue card"
    assert all("keeps it" not in t and "may keep or play" not in t for t in public), public
    assert private[0].startswith("You draw ")


def test_a_secret_alliance_deadline_is_told_to_its_members() -> None:
    state = build({"players": ["a", "b", "c"],
                   "given": {"round": 3, "pending": {"step": "intrigue", "player": "a"},
                             "alliances": [{"type": "mutual-defense", "members": ["a", "b"], "secret": True,
                                            "formed_round": 2, "expires_round": 7}]}})
    texts = reports(state)
    assert "ends after round 7" in texts["a"] and "ends after round 7" in texts["b"]
    assert "ends after round 7" not in texts["c"] and "ends after round 7" not in texts["public"]


def test_no_plural_slips_in_the_sample_reports(built_once: BuiltOnce) -> None:
    # The sample game played once per test run (test_ambition_cli reads it too); read only.
    folder = sample_game(built_once)
    sample = [(p.name, p.read_text()) for p in sorted(folder.glob("reports/*.txt")) + sorted(folder.glob("private/*/*.txt"))]
    for name, text in sample:
        assert "(s)" not in text, name
        assert not re.search(r"(?<![\d.+-])1 (cards|Elites)\b", text), name
