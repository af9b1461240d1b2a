"""The sample game in orders/age-of-ambition replayed through the CLI, to
final scoring, twice: the two folders must be byte-identical."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import storage

ORDERS = Path(__file__).resolve().parents[3] / "orders" / "age-of-ambition"
TURNS = sorted(ORDERS.glob("[0-9][0-9][0-9]-*.yaml"))


def replay(folder: Path) -> CliRunner:
    runner = CliRunner()
    result = runner.invoke(cli, ["new", str(folder), "--variant", "age-of-ambition",
                                 "--players", "alice,bob", "--seed", "3"])
    assert result.exit_code == 0, result.output
    for turn in TURNS:
        check = runner.invoke(cli, ["check", str(folder), str(turn)])
        assert check.exit_code == 0, (turn.name, check.output)
        result = runner.invoke(cli, ["adjudicate", str(folder), str(turn)])
        assert result.exit_code == 0, (turn.name, result.output)
    return runner


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}


def test_sample_game_plays_to_final_scoring_and_reruns_identically(tmp_path: Path) -> None:
    assert len(TURNS) > 10
    runner = replay(tmp_path / "a" / "game")
    status = runner.invoke(cli, ["status", str(tmp_path / "a" / "game")])
    assert status.exit_code == 0 and "game over" in status.output
    final = storage.read_yaml(min((tmp_path / "a" / "game" / "history").glob("*-final.yaml")))
    assert final["stage"] == "over" and final["scores"]["winners"]
    last_report = max((tmp_path / "a" / "game" / "reports").glob("*.txt")).read_text()
    assert "FINAL SCORES" in last_report and "Winner:" in last_report
    for name in ("alice", "bob"):
        assert (tmp_path / "a" / "game" / "private" / name).is_dir()
    # every turn file's phase matched the game's phase in order
    applied = sorted((tmp_path / "a" / "game" / "orders").glob("*.yaml"))
    assert [p.name.split("-", 1)[1] for p in applied] == [t.name.split("-", 1)[1] for t in TURNS]
    replay(tmp_path / "b" / "game")  # same folder name: reports print it
    assert snapshot(tmp_path / "a" / "game") == snapshot(tmp_path / "b" / "game")


def test_a_bad_turn_file_is_reported_and_not_applied(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(folder), "--variant", "age-of-ambition",
                               "--players", "alice,bob", "--seed", "3"]).exit_code == 0
    first = storage.read_yaml(min((folder / "history").glob("*.yaml")))["current"]
    other = "alice" if first == "bob" else "bob"
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"{first}:\n  actions:\n    - {{action: hire, guild: bakers}}\n"
                   f"    - {{action: borrow, from: {{merchants: 1}}}}\n"
                   f"{other}:\n  actions: []\n")
    check = runner.invoke(cli, ["check", str(folder), str(bad)])
    assert check.exit_code == 1
    assert f"{other}: {other}: not your turn" in check.output
    assert f"{first}: actions[0].guild: unknown guild 'bakers'" in check.output
    assert f"{first}: actions[1].from.merchants: only 0 empty space(s)" in check.output
    result = runner.invoke(cli, ["adjudicate", str(folder), str(bad)])
    assert result.exit_code == 2
    assert len(list((folder / "history").glob("*.yaml"))) == 1
    assert [p.name for p in (folder / "reports").iterdir()] == ["0000-setup.txt"]
