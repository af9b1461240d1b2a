"""Civil disorder belongs to the variant; a draw is recorded for the survivors
and `status` says so in a sentence (issue 11 items 5 and 6)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import cli


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_standard_has_no_civil_disorder(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    before = snapshot(game)
    code, out = invoke("civil-disorder", str(game), "England")
    assert code == 2 and "Standard has no civil disorder declaration" in out
    assert snapshot(game) == before


def test_ambition_empire_civil_disorder_disbands_the_power(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game), "--variant", "ambition-empire")[0] == 0
    code, out = invoke("civil-disorder", str(game), "England")
    assert code == 0 and "permanent civil disorder" in out, out
    assert any(p.parts[-2] == "superseded" for p in (game / "history").rglob("*.yaml"))


def test_draw_status_is_a_sentence(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("end", str(game), "--draw")[0] == 0
    status = invoke("status", str(game))[1]
    assert ("Game over: a draw between Austria, England, France, Germany, Italy, Russia and Turkey "
            "in Spring 1901 Movement.") in status
    assert "{" not in status
