"""The data file: every card is there once, says where it comes from, and uses
only effects the engine runs (a typo would otherwise be silently ignored)."""

from __future__ import annotations

from collections import Counter

from .helpers import DATA

SOURCES = {"real", "default"}
SKILLS = {"carpentry", "tiling", "masonry"}
RESOURCES = {"clay", "wood", "stone", "gold", "marble", "silver"}
# the engine's vocabulary: apprentice hooks, building 'now' keys and end/pre kinds
HOOKS = {"black_market", "black_market_discount", "black_market_no_virtue", "capture_discount", "cathedral",
         "forest", "mines", "none", "pay_debt", "quarry", "reset", "reset_if_prison_empty", "reset_release",
         "silversmith", "storehouse_extra_worker", "tax_stand", "tax_stand_virtue_discount", "trade", "turn_in"}
NOW = {"all_virtue", "captures", "captures_or_release", "choose", "debt", "destroy_debt", "discard_apprentice",
       "discard_for", "draw", "extra_guildhall", "gain", "gold_per_virtue", "hire_free", "prison_virtue_all",
       "release_prison"}
END = {"cathedral_leader", "debt_value", "most", "no_unpaid_debt", "per_building", "per_captured",
       "per_paid_debt", "per_skill", "per_virtue"}
PRE = {"virtue_change", "virtue_if_cathedral_leader", "virtue_per"}


def test_buildings_are_the_43_real_cards() -> None:
    cards = DATA["buildings"]
    assert sorted(c["id"] for c in cards) == list(range(1, 44))
    assert Counter(c["set"] for c in cards) == {"base": 40, "star": 3}
    assert sum(c["vp"] for c in cards) == 298                     # reference invariant
    assert Counter(len(c["skills"]) for c in cards) == {0: 15, 1: 13, 2: 7, 3: 8}
    for card in cards:
        assert card["source"] in SOURCES, card["id"]
        assert set(card["skills"]) <= SKILLS and set(card["cost"]) <= RESOURCES, card["id"]
        effect = card["effect"]
        assert set(effect) <= {"now", "end", "pre"} and len(effect) == 1, card["id"]
        if "now" in effect:
            assert set(effect["now"]) <= NOW, card["id"]
        if "end" in effect:
            assert effect["end"]["kind"] in END, card["id"]
        if "pre" in effect:
            assert effect["pre"]["kind"] in PRE, card["id"]


def test_apprentices_are_the_43_real_cards() -> None:
    cards = DATA["apprentices"]
    assert sorted(c["id"] for c in cards) == list(range(1, 44))
    assert Counter(c["set"] for c in cards) == {"base": 40, "star": 3}
    skills = Counter(s for c in cards for s in c["skills"])
    assert skills == {"carpentry": 15, "tiling": 15, "masonry": 15}   # Labourer counted in all three
    for card in cards:
        assert card["source"] in SOURCES, card["id"]
        assert card["ability"]["hook"] in HOOKS, card["id"]
        if card["ability"]["hook"] == "trade":
            assert set(card["ability"]["pay"]) <= RESOURCES, card["id"]


def test_every_section_says_where_it_comes_from() -> None:
    for section in ("rules", "virtue", "cathedral", "rewards", "black_market"):
        assert DATA[section]["source"] in SOURCES, section
    assert len(DATA["rewards"]["cards"]) == 11
    assert len(DATA["black_market"]["cards"]) == 10
    assert [lv["spaces"] for lv in DATA["cathedral"]["levels"]] == [3, 3, 2, 2, 1]
    assert DATA["virtue"]["max"] == 14 and sorted(DATA["virtue"]["end_vp"]) == list(range(15))
