"""Turn flow: dealing, passing, the seventh card, Ages, and the wonder
stages with extra effects."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from adjudicator.cards.seven_wonders.cards import Catalog, deck_for_age
from adjudicator.cards.seven_wonders.engine import GAME

from .conftest import make_state

NAMES7 = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]


def sell_all(state: dict[str, Any]) -> dict[str, Any]:
    return {p: {"action": "sell", "card": state["cities"][p]["hand"][0]} for p in GAME.phase(state).waiting_for}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_deck_sizes_and_guilds(players: int, data: dict[str, Any], cat: Catalog) -> None:
    state = GAME.setup(NAMES7[:players], 11, data)
    assert len(state["guilds"]) == players + 2
    assert set(state["guilds"]) <= {c.name for c in cat.guilds()}
    for age in (1, 2, 3):
        assert len(deck_for_age(cat, age, players, state["guilds"])) == 7 * players
    hands = [state["cities"][p]["hand"] for p in state["players"]]
    assert all(len(h) == 7 for h in hands)
    assert Counter(c for h in hands for c in h) == Counter(deck_for_age(cat, 1, players, []))


def test_seven_player_passing(data: dict[str, Any]) -> None:
    state = GAME.setup(NAMES7, 5, data)
    for age, direction in ((1, 1), (2, -1), (3, 1)):
        assert state["age"] == age
        for turn in range(1, 7):
            before = {p: list(state["cities"][p]["hand"]) for p in NAMES7}
            choice = sell_all(state)
            state = GAME.apply(copy.deepcopy(state), choice, data).state
            if turn == 6:
                break
            for i, p in enumerate(NAMES7):
                # Each player's leftover hand went to the neighbour in the Age's direction.
                leftover = list(before[p])
                leftover.remove(choice[p]["card"])
                receiver = NAMES7[(i + direction) % 7]
                assert state["cities"][receiver]["hand"] == leftover
                assert len(leftover) == 7 - turn
    assert GAME.phase(state) is None
    # Everyone sold 18 cards: 3 + 54 coins, and the discard pile holds every card.
    assert all(state["cities"][p]["coins"] == 57 for p in NAMES7)
    assert len(state["discard"]) == 3 * 49


def test_seventh_card_discarded_and_age_advances(data: dict[str, Any]) -> None:
    state = GAME.setup(["a", "b", "c"], 3, data)
    for _ in range(6):
        state = GAME.apply(copy.deepcopy(state), sell_all(state), data).state
    assert state["age"] == 2 and state["turn"] == 1
    assert len(state["discard"]) == 21  # 18 sold + 3 seventh cards
    assert all(len(state["cities"][p]["hand"]) == 7 for p in "abc")
    assert GAME.phase(state).name == "age2-turn1"


def sixth_turn(data: dict[str, Any], alice: dict[str, Any], hand: list[str]) -> dict[str, Any]:
    state = make_state(data, {"alice": {**alice, "hand": list(hand)},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom", "Press"]},
                              "carol": {"wonder": "Giza", "hand": ["Altar", "Baths"]}}, turn=6)
    return state


def test_babylon_b_plays_the_seventh_card(data: dict[str, Any]) -> None:
    state = sixth_turn(data, {"wonder": "Babylon", "side": "B", "stages": 2}, ["Theater", "Barracks"])
    turn = {"alice": {"action": "build", "card": "Theater"}, "bob": {"action": "build", "card": "Loom"},
            "carol": {"action": "build", "card": "Altar"}}
    state = GAME.apply(copy.deepcopy(state), turn, data).state
    info = GAME.phase(state)
    assert (info.name, info.waiting_for) == ("age1-seventh", ["alice"])
    assert sorted(state["discard"]) == ["Baths", "Press"]
    assert GAME.validate(state, {"alice": {"action": "build", "card": "Press"}}, data)
    state = GAME.apply(copy.deepcopy(state), {"alice": {"action": "sell", "card": "Barracks"}}, data).state
    assert state["age"] == 2 and state["cities"]["alice"]["coins"] == 6
    assert "Barracks" in state["discard"]


def test_halikarnassos_builds_from_the_discard_pile(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Halicarnassus", "side": "A", "stages": 1, "coins": 10,
                                        "built": ["Ore Vein"], "hand": ["Altar", "Baths"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom", "Press"]},
                              "carol": {"wonder": "Giza", "built": ["Ore Vein"], "hand": ["Tavern", "Stockade"]}},
                       turn=3)
    state["discard"] = ["Palace"]
    # Stage 2 costs 3 ore: own Ore Vein, bob's Rhodes ore, carol's Ore Vein.
    turn = {"alice": {"action": "wonder", "card": "Altar"}, "bob": {"action": "sell", "card": "Loom"},
            "carol": {"action": "sell", "card": "Tavern"}}
    assert GAME.validate(state, turn, data) == []
    outcome = GAME.apply(copy.deepcopy(state), turn, data)
    state = outcome.state
    info = GAME.phase(state)
    assert (info.name, info.mode, info.waiting_for) == ("age1-turn3-discard", "sequential", ["alice"])
    # The pile includes the cards sold this very turn, and only alice sees it.
    assert GAME.private_view(state, "alice")["discard"] == ["Loom", "Palace", "Tavern"]
    assert GAME.private_view(state, "bob")["discard"] == []
    assert GAME.validate(state, {"alice": {"action": "build", "card": "Altar"}}, data)
    state = GAME.apply(copy.deepcopy(state), {"alice": {"action": "build", "card": "Tavern"}}, data).state
    assert "Tavern" in state["cities"]["alice"]["built"] and "Tavern" not in state["discard"]
    # 10 - 4 paid for ore (2 each to bob and carol) + 5 from the Tavern.
    assert state["cities"]["alice"]["coins"] == 11
    assert GAME.phase(state).name == "age1-turn4"


def test_olympia_free_build_once_per_age(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Olympia", "side": "A", "stages": 2, "coins": 0,
                                        "hand": ["Palace", "Senate"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom", "Press"]},
                              "carol": {"wonder": "Giza", "hand": ["Altar", "Baths"]}}, age=3, turn=2)
    free = {"alice": {"action": "build", "card": "Palace", "free": True}}
    assert GAME.validate(state, free, data) == []
    state = GAME.apply(copy.deepcopy(state), {**free, "bob": {"action": "sell", "card": "Loom"},
                                              "carol": {"action": "sell", "card": "Altar"}}, data).state
    assert "Palace" in state["cities"]["alice"]["built"] and state["cities"]["alice"]["coins"] == 0
    errors = GAME.validate(state, {"alice": {"action": "build", "card": state["cities"]["alice"]["hand"][0],
                                             "free": True}}, data)
    assert [(e.field, "already used" in e.reason) for e in errors] == [("free", True)]


def test_immediate_coins_from_wonders_and_yellow_cards(data: dict[str, Any]) -> None:
    state = make_state(data, {"alice": {"wonder": "Ephesus", "side": "A", "stages": 1, "coins": 4,
                                        "built": ["Lumber Yard"], "hand": ["Vineyard", "Altar"]},
                              "bob": {"wonder": "Giza", "built": ["Clay Pool", "Stone Pit"], "coins": 3,
                                      "hand": ["Bazar", "Press"]},
                              "carol": {"wonder": "Olympia", "built": ["Lumber Yard", "Loom"],
                                        "hand": ["Tavern", "Baths"]}}, age=2)
    turn = {"alice": {"action": "wonder", "card": "Altar"},     # Ephesus A stage 2: 2 wood -> 9 coins
            "bob": {"action": "build", "card": "Bazar"},       # 2 per grey in bob, alice, carol
            "carol": {"action": "build", "card": "Tavern"}}    # 5 coins
    state = GAME.apply(copy.deepcopy(state), turn, data).state
    coins = {p: state["cities"][p]["coins"] for p in ("alice", "bob", "carol")}
    # alice buys 1 wood from carol (her right; bob is left and has none): 4 - 2 + 9.
    # bob: 3 + 2 x 1 grey (carol's Loom). carol: 3 + 2 from alice + 5.
    assert coins == {"alice": 11, "bob": 5, "carol": 10}


@pytest.mark.parametrize("side", ["A", "B"])
def test_board_side_option(side: str, data: dict[str, Any]) -> None:
    chosen = dict(data, rules={"side": side})
    state = GAME.setup(["a", "b", "c", "d"], 2, chosen)
    assert {state["cities"][p]["side"] for p in "abcd"} == {side}
    assert len({state["cities"][p]["wonder"] for p in "abcd"}) == 4


def test_random_sides_come_from_the_seed(data: dict[str, Any]) -> None:
    chosen = dict(data, rules={"side": "random"})
    sides = [[GAME.setup(NAMES7, seed, chosen)["cities"][p]["side"] for p in NAMES7] for seed in range(6)]
    assert sides == [[GAME.setup(NAMES7, seed, chosen)["cities"][p]["side"] for p in NAMES7] for seed in range(6)]
    assert {s for row in sides for s in row} == {"A", "B"}


def test_discard_pick_through_the_cli(tmp_path: Any, data: dict[str, Any]) -> None:
    from click.testing import CliRunner

    from adjudicator.cli.main import cli
    from adjudicator.store import seal, storage
    runner = CliRunner()
    game = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(game), "--variant", "seven-wonders",
                               "--players", "alice,bob,carol", "--seed", "3"]).exit_code == 0
    # Replace the opening position with one where Halikarnassos can build stage 2.
    state = make_state(data, {"alice": {"wonder": "Halicarnassus", "side": "A", "stages": 1, "coins": 10,
                                        "built": ["Ore Vein"], "hand": ["Altar", "Baths"]},
                              "bob": {"wonder": "Rhodes", "hand": ["Loom", "Press"]},
                              "carol": {"wonder": "Giza", "built": ["Ore Vein"], "hand": ["Tavern", "Stockade"]}},
                       turn=3, seed=3)
    storage.atomic_write(game / "history" / "0002-age1-turn3.yaml", storage.dump_state(state))
    seal.reseal(game)            # the GM's own repair, sealed with the game's key
    turn = tmp_path / "t.yaml"
    storage.write_yaml(turn, {"phase": "age1-turn3", "alice": {"action": "wonder", "card": "Altar"},
                              "bob": {"action": "sell", "card": "Loom"}, "carol": {"action": "sell", "card": "Tavern"}})
    assert runner.invoke(cli, ["adjudicate", str(game), str(turn)]).exit_code == 0
    alice = (game / "private" / "alice" / "0002-age1-turn3.txt").read_text()
    assert "discard pile for free (or pass):\n  Loom, Tavern" in alice
    assert "Tavern" not in (game / "reports" / "0002-age1-turn3.txt").read_text()
    assert "Tavern" not in (game / "private" / "bob" / "0002-age1-turn3.txt").read_text()
    storage.write_yaml(turn, {"phase": "age1-turn3-discard", "bob": {"action": "pass"}})
    result = runner.invoke(cli, ["check", str(game), str(turn)])
    assert result.exit_code == 1 and "not your turn" in result.output
    storage.write_yaml(turn, {"alice": {"action": "build", "card": "Tavern"}})
    assert runner.invoke(cli, ["adjudicate", str(game), str(turn)]).exit_code == 0
    report = (game / "reports" / "0003-age1-turn3-discard.txt").read_text()
    assert "alice built Tavern from the discard pile" in report
    assert "NEXT: Age I, turn 4" in report
