"""Trading: who sells what, at what price, and the judge's cheapest purchase."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.seven_wonders.actions import resolve
from adjudicator.cards.seven_wonders.cards import Catalog

from .conftest import make_state

# Seating alice, bob, carol: alice's left is bob, her right is carol.


def plan_for(cat: Catalog, state: dict[str, Any], choice: dict[str, Any], player: str = "alice") -> Any:
    errors, plan = resolve(cat, state, player, choice, "turn")
    assert not errors, errors
    return plan


def test_default_price_is_two(data: dict[str, Any], cat: Catalog) -> None:
    # Giza produces stone; Stockade needs wood, which only bob's Olympia board has.
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Stockade"]},
                              "bob": {"wonder": "Olympia"}, "carol": {"wonder": "Ephesus"}})
    plan = plan_for(cat, state, {"action": "build", "card": "Stockade"})
    assert plan.plan.buy == {"left": ["wood"]}
    assert plan.plan.trade_cost == {"left": 2}


def test_trading_posts_have_directions(data: dict[str, Any], cat: Catalog) -> None:
    # Wood is on sale both sides; West Trading Post makes the left side (bob) cheaper.
    cities = {"alice": {"wonder": "Giza", "hand": ["Stockade"], "built": ["West Trading Post"]},
              "bob": {"wonder": "Olympia"}, "carol": {"wonder": "Ephesus", "built": ["Lumber Yard"]}}
    plan = plan_for(cat, make_state(data, cities), {"action": "build", "card": "Stockade"})
    assert (plan.plan.buy, plan.plan.trade_cost) == ({"left": ["wood"]}, {"left": 1})
    cities["alice"]["built"] = ["East Trading Post"]
    plan = plan_for(cat, make_state(data, cities), {"action": "build", "card": "Stockade"})
    assert (plan.plan.buy, plan.plan.trade_cost) == ({"right": ["wood"]}, {"right": 1})


def test_marketplace_lowers_manufactured_goods(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Workshop"], "built": ["Marketplace"]},
                              "bob": {"wonder": "Alexandria"}, "carol": {"wonder": "Ephesus"}})
    plan = plan_for(cat, state, {"action": "build", "card": "Workshop"})
    assert plan.plan.trade_cost == {"left": 1}


def test_yellow_and_wonder_resources_are_not_for_sale(data: dict[str, Any], cat: Catalog) -> None:
    # bob's Caravansery and carol's Alexandria stage make wood, but neither may be sold.
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Stockade"]},
                              "bob": {"wonder": "Rhodes", "built": ["Caravansery"]},
                              "carol": {"wonder": "Alexandria", "side": "A", "stages": 2}})
    errors, _ = resolve(cat, state, "alice", {"action": "build", "card": "Stockade"}, "turn")
    assert len(errors) == 1 and "missing 1 wood" in errors[0].reason
    errors, _ = resolve(cat, state, "alice", {"action": "build", "card": "Stockade", "buy": {"left": ["wood"]}},
                        "turn")
    assert errors and errors[0].field == "buy.left" and "cannot sell" in errors[0].reason


def test_own_choice_resource_is_used_where_it_saves_most(data: dict[str, Any], cat: Catalog) -> None:
    # Walls: 3 stone. alice has Giza stone + Timber Yard (stone/wood); she buys
    # the third stone from carol's Stone Pit at 2.
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Walls"], "built": ["Timber Yard"]},
                              "bob": {"wonder": "Olympia"}, "carol": {"wonder": "Ephesus", "built": ["Stone Pit"]}})
    plan = plan_for(cat, state, {"action": "build", "card": "Walls"})
    assert plan.plan.buy == {"right": ["stone"]} and plan.total_coins == 2


def test_cheapest_mix_of_both_neighbours(data: dict[str, Any], cat: Catalog) -> None:
    # Training Ground: wood + 2 ore. alice has nothing useful; bob (left) has
    # Rhodes ore, carol (right) has ore and wood; East Trading Post makes carol's cheaper.
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Training Ground"], "coins": 5,
                                        "built": ["East Trading Post"]},
                              "bob": {"wonder": "Rhodes"},
                              "carol": {"wonder": "Olympia", "built": ["Ore Vein", "Mine"]}})
    plan = plan_for(cat, state, {"action": "build", "card": "Training Ground"})
    assert plan.plan.buy == {"right": ["wood", "ore", "ore"]} and plan.total_coins == 3


def test_named_purchase_is_used_as_given(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Stockade"], "built": ["West Trading Post"]},
                              "bob": {"wonder": "Olympia"}, "carol": {"wonder": "Ephesus", "built": ["Lumber Yard"]}})
    plan = plan_for(cat, state, {"action": "build", "card": "Stockade", "buy": {"right": ["wood"]}})
    assert plan.plan.trade_cost == {"right": 2}  # dearer than the left, but that is what she asked
    assert not plan.chosen_by_judge


def test_chain_makes_a_card_free(data: dict[str, Any], cat: Catalog) -> None:
    state = make_state(data, {"alice": {"wonder": "Giza", "hand": ["Aqueduct"], "built": ["Baths"], "coins": 0},
                              "bob": {"wonder": "Olympia"}, "carol": {"wonder": "Ephesus"}})
    plan = plan_for(cat, state, {"action": "build", "card": "Aqueduct"})
    assert plan.chained == "Baths" and plan.total_coins == 0
