"""A whole 3-player game through the CLI with the sample turn files in
orders/seven-wonders/: final scores, secrecy of hands, determinism."""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cards.seven_wonders.cards import Catalog
from adjudicator.cards.seven_wonders.engine import GAME
from adjudicator.cli.main import cli
from adjudicator.store import storage

ORDERS = Path(__file__).resolve().parents[3] / "orders" / "seven-wonders"
PLAYERS = ["alice", "bob", "carol"]
BuiltOnce = Callable[[str, Callable[[Path], object]], Path]        # the fixture in tests/conftest.py


def play(folder: Path) -> CliRunner:
    runner = CliRunner()
    result = runner.invoke(cli, ["new", str(folder), "--variant", "seven-wonders",
                                 "--players", ",".join(PLAYERS), "--seed", "7"])
    assert result.exit_code == 0, result.output
    turns = sorted(ORDERS.glob("[0-9][0-9]-*.yaml"))
    assert len(turns) == 18
    for turn in turns:
        result = runner.invoke(cli, ["adjudicate", str(folder), str(turn)])
        assert result.exit_code == 0, f"{turn.name}: {result.output}"
    return runner


def sample_game(built_once: BuiltOnce) -> Path:
    """The sample game played, once per test run (test_sw_reports reads it too)."""
    return built_once("seven-wonders-sample", lambda home: play(home / "g")) / "g"


@pytest.fixture(scope="module")
def game(built_once: BuiltOnce) -> Path:
    return sample_game(built_once)


def test_final_score_sheet(game: Path) -> None:
    result = CliRunner().invoke(cli, ["status", str(game)])
    assert result.output.startswith("7 Wonders: game over")
    final = storage.read_yaml(max((game / "history").iterdir()))
    sheet = {s["player"]: [s[k] for k in ("military", "coins", "wonder", "blue", "yellow", "green",
                                          "purple", "total", "rank")] for s in final["scores"]}
    # Checked by hand against the cities in the last report:
    # alice (Babylon A, 1 stage; 6 coins; tokens 1,1,3,3,-1): blue Altar 2 + Courthouse 4 + Senate 6;
    #   Haven 1 brown; 3 tablets + 1 compass = 10; Philosophers 4 + 3 green, Traders 6 + 0 yellow.
    # bob (Alexandria A, no stage; 13 coins; tokens -1,3,-1,5,5): Gardens 5; Lighthouse 6 yellow;
    #   3 gears + 1 compass = 10; Magistrates 6 (carol) + 3 (alice) blue.
    # carol (Ephesus A; 6 coins; four defeats): Theater 2 + Baths 3 + Aqueduct 5 + Statue 4 +
    #   Temple 3 + Pantheon 7; one of each symbol = 10; Strategists 1 + 2 neighbour defeats.
    assert sheet == {"alice": [7, 2, 3, 12, 1, 10, 13, 48, 1],
                     "bob": [11, 4, 0, 5, 6, 10, 9, 45, 2],
                     "carol": [-4, 2, 0, 24, 0, 10, 3, 35, 3]}
    report = (game / "reports" / "0018-age3-turn6.txt").read_text()
    assert "FINAL SCORES" in report and "Winner: alice." in report
    assert re.search(r"1\s+alice\s+7\s+2\s+3\s+12\s+1\s+10\s+13\s+48\s+6", report)


def hidden_text(text: str, cat: Catalog) -> str:
    # Wonder names contain card names (The *Temple* of Artemis, Hanging *Gardens*...).
    for wonder in cat.wonders.values():
        text = text.replace(wonder.name, "")
    return text


def test_hands_never_leak(game: Path, cat: Catalog) -> None:
    histories = sorted((game / "history").iterdir())
    checked = 0
    for before, after in itertools.pairwise(histories):
        tag = before.stem
        state = storage.read_yaml(after)
        public_cards = {c for p in PLAYERS for c in state["cities"][p]["built"]}
        public = hidden_text((game / "reports" / f"{tag}.txt").read_text(), cat)
        for owner in PLAYERS:
            secret = set(state["cities"][owner]["hand"]) - public_cards
            for reader in PLAYERS:
                text = hidden_text((game / "private" / reader / f"{tag}.txt").read_text(), cat)
                for card in secret:
                    assert (card in text) == (reader == owner), (tag, owner, reader, card)
                    checked += 1
            for card in secret:
                assert card not in public, (tag, owner, card)
    assert checked > 100


def test_public_view_does_not_depend_on_hands(game: Path, data: dict[str, Any]) -> None:
    for path in sorted((game / "history").iterdir())[:-1]:
        state = storage.read_yaml(path)
        other = copy.deepcopy(state)
        for city in other["cities"].values():
            city["hand"] = list(reversed(city["hand"]))[1:] + ["Palace"]
        other["discard"] = ["Pantheon"] * len(other["discard"])  # its size is public, not its cards
        assert GAME.public_view(state) == GAME.public_view(other)
        # alice's private view ignores everyone else's hand too.
        other["cities"]["alice"]["hand"] = state["cities"]["alice"]["hand"]
        assert GAME.private_view(state, "alice")["hand"] == GAME.private_view(other, "alice")["hand"]


def test_same_inputs_same_bytes(game: Path, tmp_path: Path) -> None:
    again = tmp_path / "g"   # same folder name: it appears in the reports
    play(again)
    first = {p.relative_to(game): p.read_bytes() for p in sorted(game.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}
    second = {p.relative_to(again): p.read_bytes() for p in sorted(again.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}
    assert first.keys() == second.keys() and len(first) > 18 * 4
    for name, data in first.items():
        assert data == second[name], name


def test_sample_files_match_the_phases(game: Path) -> None:
    # Each sample file's phase guard names the phase it was applied to.
    for turn in sorted(ORDERS.glob("[0-9][0-9]-*.yaml")):
        phase = storage.read_yaml(turn)["phase"]
        assert turn.stem.split("-", 1)[1] == phase


def test_sold_and_tucked_cards_stay_face_down(game: Path, cat: Catalog) -> None:
    checked = 0
    for turn in sorted(ORDERS.glob("[0-9][0-9]-*.yaml")):
        choices = storage.read_yaml(turn)
        phase = choices.pop("phase")
        report = next((game / "reports").glob(f"*-{phase}.txt"))
        final = storage.read_yaml(max((game / "history").iterdir()))
        built_anywhere = {c for p in PLAYERS for c in final["cities"][p]["built"]}
        public = hidden_text(report.read_text(), cat)
        for player, choice in choices.items():
            if choice["action"] in ("sell", "wonder") and choice["card"] not in built_anywhere:
                assert choice["card"] not in public, (phase, player)
                mine = (game / "private" / player / report.name).read_text()
                assert choice["card"] in mine
                checked += 1
    assert checked > 0
