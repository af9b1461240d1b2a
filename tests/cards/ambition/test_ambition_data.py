"""variants/ambition.yaml against the handbook: every card and number the
handbook names is there and marked `rulebook`; everything else is marked
`default`, so a GM can tell which entries they may change."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.cards.ambition.engine import catalog_from
from adjudicator.errors import DataFileError

from .ambition_harness import DATA

SOURCES = {"rulebook", "default"}


def entries() -> list[tuple[str, dict[str, Any]]]:
    out = [(f"settings.{k}", v) for k, v in DATA["settings"].items()]
    for kind in ("elites", "network", "alliances", "intrigue"):
        out += [(f"{kind}.{e['key']}", e) for e in DATA[kind]]
    return out


@pytest.mark.parametrize("where,entry", entries(), ids=[w for w, _ in entries()])
def test_every_entry_says_where_it_comes_from(where: str, entry: dict[str, Any]) -> None:
    assert entry.get("source") in SOURCES, where


def by_key(kind: str) -> dict[str, dict[str, Any]]:
    return {e["key"]: e for e in DATA[kind]}


def test_the_handbooks_cards_and_numbers() -> None:
    intrigue = by_key("intrigue")
    named = {"i-am-become-death": "I am become death", "nuclear-arms": "Nuclear Arms",
             "bunker": "Bunker", "armageddon": "Armageddon"}
    for key, name in named.items():
        assert intrigue[key]["name"] == name and intrigue[key]["source"] == "rulebook"
    # "the Bunker Card", "the Armageddon card": one of each
    assert intrigue["bunker"]["count"] == 1 and intrigue["armageddon"]["count"] == 1
    network = by_key("network")
    assert len(network) == 6 and network["tecmeds"]["name"] == "Tecmeds"  # six types, one named
    costs = {k: a["cost"] for k, a in by_key("alliances").items()}
    assert costs == {"mutual-defense": 5, "unity-compact": 3, "technology-trade": 5,
                     "industrial-exchange": 8, "delay-tactic": 6}
    assert by_key("alliances")["industrial-exchange"]["hold_rounds"] == 3
    settings = {k: v["value"] for k, v in DATA["settings"].items() if v["source"] == "rulebook"}
    assert settings == {"starting_elites": 3, "challenge_penalty": 10, "neighbour_loss": 10,
                        "alliance_bonus": 1, "intrigue_card_score": 2, "nuclear_arms_score": -5}


def test_alliance_round_limits_are_marked_as_ours() -> None:
    # the handbook gives no time limit (Technology Trade: "no turn limit")
    for key, alliance in by_key("alliances").items():
        if alliance["limit"] is not None:
            assert alliance.get("limit_source") == "default", key
    assert by_key("alliances")["technology-trade"]["limit"] is None


def test_unknown_effects_are_refused() -> None:
    bad = dict(DATA, intrigue=[dict(DATA["intrigue"][0], effect="teleport")])
    with pytest.raises(DataFileError, match="unknown effect 'teleport'"):
        catalog_from(bad)
