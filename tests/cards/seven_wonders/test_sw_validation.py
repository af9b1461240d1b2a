"""Every bad choice is reported with player, field and reason, and a turn
with any bad choice changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from adjudicator.cards.seven_wonders.engine import GAME
from adjudicator.cli.main import cli
from adjudicator.store import storage

from .conftest import make_state


def position(data: dict[str, Any]) -> dict[str, Any]:
    return make_state(data, {
        "alice": {"wonder": "Giza", "coins": 0, "hand": ["Stockade", "Altar", "Tavern"], "built": ["Altar"]},
        "bob": {"wonder": "Rhodes", "coins": 3, "hand": ["Palace", "Baths", "Loom"]},
        "carol": {"wonder": "Ephesus", "coins": 3, "hand": ["Walls", "Press", "Scriptorium"],
                  "built": ["Lumber Yard"]}})


def reasons(data: dict[str, Any], turn: dict[str, Any]) -> dict[tuple[str, str], str]:
    errors = GAME.validate(position(data), turn, data)
    return {(e.player, e.field): e.reason for e in errors}


def test_good_turn_has_no_errors(data: dict[str, Any]) -> None:
    assert reasons(data, {"alice": {"action": "sell", "card": "Stockade"},
                          "bob": {"action": "build", "card": "Loom"},
                          "carol": {"action": "build", "card": "Scriptorium"}}) == {}


def test_not_in_your_hand(data: dict[str, Any]) -> None:
    got = reasons(data, {"alice": {"action": "build", "card": "Loom"}})
    assert "not in your hand" in got[("alice", "card")]


def test_unknown_card(data: dict[str, Any]) -> None:
    got = reasons(data, {"bob": {"action": "build", "card": "Death Star"}})
    assert "unknown card" in got[("bob", "card")]


def test_already_built(data: dict[str, Any]) -> None:
    got = reasons(data, {"alice": {"action": "build", "card": "Altar"}})
    assert "already built" in got[("alice", "card")]


def test_cannot_afford_says_what_is_missing(data: dict[str, Any]) -> None:
    # alice has 0 coins and must buy wood for the Stockade from carol for 2.
    got = reasons(data, {"alice": {"action": "build", "card": "Stockade"},
                         "bob": {"action": "build", "card": "Palace"}})
    assert got[("alice", "card")] == "can't afford: needs 2 coins (2 to carol), you have 0; missing 2 coins"
    # Palace needs 7 different resources; nobody near bob has clay, glass or loom.
    assert "can't afford" in got[("bob", "card")] and "missing 1 clay, 1 glass, 1 loom" in got[("bob", "card")]


def test_not_your_turn_and_unknown_player(data: dict[str, Any]) -> None:
    state = position(data)
    state["pending"] = [{"kind": "discard", "player": "carol", "name": "age1-turn3-discard"}]
    state["discard"] = ["Baths"]
    errors = GAME.validate(state, {"alice": {"action": "sell", "card": "Altar"},
                                   "zed": {"action": "sell", "card": "Altar"}}, data)
    got = {(e.player, e.field): e.reason for e in errors}
    assert "not your turn" in got[("alice", "alice")]
    assert "unknown player" in got[("zed", "zed")]


def test_bad_action_and_fields(data: dict[str, Any]) -> None:
    got = reasons(data, {"alice": {"action": "burn", "card": "Altar"},
                         "bob": "build Loom",
                         "carol": {"action": "sell", "card": "Press", "buy": {"left": ["wood"]}}})
    assert "must be one of" in got[("alice", "action")]
    assert "expected a mapping" in got[("bob", "choice")]
    assert "selling costs nothing" in got[("carol", "buy")]


def test_bad_purchases(data: dict[str, Any]) -> None:
    got = reasons(data, {"carol": {"action": "build", "card": "Walls", "buy": {"left": ["unobtainium"]}},
                         "bob": {"action": "build", "card": "Baths", "buy": {"right": ["stone", "stone"]}}})
    assert "unknown resource" in got[("carol", "buy.left")]
    # bob's right is alice (Giza: one stone), so two stones cannot be sold.
    assert "cannot sell you 1 stone" in got[("bob", "buy.right")]


def test_wonder_already_complete(data: dict[str, Any]) -> None:
    state = position(data)
    state["cities"]["bob"]["stages"] = 3
    errors = GAME.validate(state, {"bob": {"action": "wonder", "card": "Loom"}}, data)
    assert [(e.player, e.field) for e in errors] == [("bob", "action")]
    assert "already built" in errors[0].reason


def test_cli_check_and_nothing_applied(tmp_path: Path) -> None:
    runner = CliRunner()
    game = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(game), "--variant", "seven-wonders",
                               "--players", "alice,bob,carol", "--seed", "7"]).exit_code == 0
    state = storage.read_yaml(max((game / "history").iterdir()))
    hand = state["cities"]["alice"]["hand"]
    turn = tmp_path / "bad.yaml"
    storage.write_yaml(turn, {"phase": "age1-turn1",
                              "alice": {"action": "build", "card": "Palace"},
                              "bob": {"action": "sell", "card": "Nonsense Hall"},
                              "carol": {"action": "sell", "card": hand[0]}})
    result = runner.invoke(cli, ["check", str(game), str(turn)])
    assert result.exit_code == 1
    assert "alice: card: Palace is not in your hand" in result.output
    assert "bob: card: unknown card 'Nonsense Hall'" in result.output
    assert f"carol: card: {hand[0]} is not in your hand" in result.output
    before = sorted(p.name for p in game.rglob("*"))
    result = runner.invoke(cli, ["adjudicate", str(game), str(turn)])
    assert result.exit_code == 2 and "3 bad choices" in result.output
    assert sorted(p.name for p in game.rglob("*")) == before
