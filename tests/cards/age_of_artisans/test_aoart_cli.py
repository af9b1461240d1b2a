"""The sample game in orders/age-of-artisans replayed through the CLI: it
reaches the score sheet, never leaks a hand, and replays byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import storage

from .helpers import DATA

ORDERS = Path(__file__).resolve().parents[3] / "orders" / "age-of-artisans"
TURNS = sorted(ORDERS.glob("[0-9][0-9][0-9][0-9]-*.yaml"))
CARDS = {int(b["id"]): b["name"] for b in DATA["buildings"]}
BuiltOnce = Callable[[str, Callable[[Path], object]], Path]        # the fixture in tests/conftest.py


def new_game(runner: CliRunner, folder: Path) -> None:
    result = runner.invoke(cli, ["new", str(folder), "--variant", "age-of-artisans",
                                 "--players", "alice,bob", "--seed", "1"])
    assert result.exit_code == 0, result.output


def replay(runner: CliRunner, folder: Path, turns: list[Path]) -> None:
    new_game(runner, folder)
    for turn in turns:
        result = runner.invoke(cli, ["adjudicate", str(folder), str(turn)])
        assert result.exit_code == 0, (turn.name, result.output)


def sample_game(built_once: BuiltOnce) -> Path:
    """The whole sample game replayed, once per test run (test_aoart_reports reads it too)."""
    return built_once("age-of-artisans-sample", lambda home: replay(CliRunner(), home / "game", TURNS)) / "game"


@pytest.fixture(scope="module")
def full_game(built_once: BuiltOnce) -> Path:
    return sample_game(built_once)


def test_sample_turns_exist_and_name_their_phase() -> None:
    assert len(TURNS) > 20
    for turn in TURNS:
        data = storage.read_yaml(turn)
        assert turn.stem.split("-", 1)[1] == data["phase"]


def test_full_game_reaches_the_score_sheet(full_game: Path) -> None:
    result = CliRunner().invoke(cli, ["status", str(full_game)])
    assert "game over" in result.output
    last = max((full_game / "reports").glob("*.txt")).read_text()
    assert "FINAL SCORES" in last and "Winner" in last
    final = storage.read_yaml(max((full_game / "history").glob("*.yaml")))
    sheet = final["scores"]["sheet"]
    for row in sheet:
        parts = ("buildings", "cathedral", "virtue", "gold_marble", "coins", "debts", "prison")
        assert row["total"] == sum(row[p] for p in parts)
        assert f"{row['player']:<10s}" in last
    totals = [r["total"] for r in sheet]
    assert totals == sorted(totals, reverse=True)
    for name in ("alice", "bob"):
        private = max((full_game / "private" / name).glob("*.txt")).read_text()
        assert "FINAL SCORES" in private


def test_no_hand_is_ever_shown_to_anyone_else(full_game: Path) -> None:
    history = sorted((full_game / "history").glob("*.yaml"))
    reports = [p for p in sorted((full_game / "reports").glob("*.txt")) if not p.name.startswith("0000-")]
    assert len(history) == len(reports) + 1
    checked = 0
    for index, report in enumerate(reports):
        state = storage.read_yaml(history[index + 1])
        texts = {"public": report.read_text()}
        for name in ("alice", "bob"):
            texts[name] = (full_game / "private" / name / report.name).read_text()
        assert "YOUR HAND" not in texts["public"]
        secret = {owner: list(player["hand"]) for owner, player in state["players"].items()}
        if state.get("pending") and state["pending"].get("options"):
            secret[state["pending"]["player"]] += state["pending"]["options"]
        for owner, cards in secret.items():
            for cid in cards:
                marks = (f"{CARDS[cid]} #{cid}", f"{CARDS[cid]} (#{cid})", f"#{cid} {CARDS[cid]}")
                for reader, text in texts.items():
                    if reader != owner:
                        assert not any(m in text for m in marks), (report.name, reader, owner, cid)
                checked += 1
                assert f"#{cid} {CARDS[cid]}" in texts[owner]
    assert checked > 100


def test_rerun_is_byte_identical(tmp_path: Path) -> None:
    runner = CliRunner()
    part = TURNS[:30]
    replay(runner, tmp_path / "a" / "game", part)
    replay(runner, tmp_path / "b" / "game", part)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file() and p.name not in ("seal.key", "seals.txt"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file() and p.name not in ("seal.key", "seals.txt"))
    assert files_a == files_b and len(files_a) > 90
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_check_reports_bad_choices_with_player_and_field(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "game"
    new_game(runner, folder)
    state = storage.read_yaml(max((folder / "history").glob("*.yaml")))
    first = state["draft_left"][0]
    other = next(n for n in state["order"] if n != first)
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"{first}: {{hire: 999}}\n{other}: {{hire: 1}}\n")
    result = runner.invoke(cli, ["check", str(folder), str(bad)])
    assert result.exit_code == 1
    assert f"{other}: {other}: not your turn" in result.output
    assert f"{first}: hire: unknown apprentice card 999" in result.output
    result = runner.invoke(cli, ["adjudicate", str(folder), str(bad)])
    assert result.exit_code == 2
    assert [p.name for p in (folder / "reports").iterdir()] == ["0000-setup.txt"]
