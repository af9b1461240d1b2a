"""Civil disorder belongs to the variant; a draw is recorded for the survivors
and `status` says so in a sentence (issue 11 items 5 and 6)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli


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
    assert ("Game over. The game ended in a draw between Austria, England, France, Germany, Italy, Russia and Turkey "
            "in Spring 1901 Movement.") in status
    assert "{" not in status


def test_civil_disorder_is_announced_in_the_next_report(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game), "--variant", "ambition-empire")[0] == 0
    assert invoke("civil-disorder", str(game), "England")[0] == 0
    code, out = invoke("adjudicate", str(game), "--nmr")
    assert code == 0, out
    report = (game / "reports" / "1763-spring-movement.txt").read_text(encoding="utf-8")
    assert "Great Britain & Hanover is in permanent civil disorder" in report
    assert invoke("adjudicate", str(game), "--nmr")[0] == 0
    later = (game / "reports" / "1763-fall-movement.txt").read_text(encoding="utf-8")
    assert "permanent civil disorder" not in later          # announced once


def test_end_writes_an_end_of_game_report(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("adjudicate", str(game), str(Path(__file__).parent.parent / "orders" / "standard" /
                                              "1901-spring.txt"))[0] == 0
    code, out = invoke("end", str(game), "--draw")
    assert code == 0 and "draw between Austria, England" in out, out
    text = (game / "reports" / "end.txt").read_text(encoding="utf-8")
    assert "The game ended in a draw between Austria, England, France, Germany, Italy, Russia and Turkey" in text
    assert "FINAL CENTRES" in text and "SUPPLY CENTRES YEAR BY YEAR" in text
    assert "1901" in text and "1 phases were adjudicated" in text
    code, out = invoke("end", str(game), "--draw")
    assert code == 2 and "already over" in out


def test_votes_are_secret_until_unanimous(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("vote", str(game), "Italy", "draw")[0] == 0
    for power in ["Austria", "England", "France", "Germany", "Russia"]:
        code, out = invoke("vote", str(game), power, "concede", "Turkey")
        assert code == 0 and "unanimous" not in out, out
    assert "Game over" not in invoke("status", str(game))[1]
    assert not (game / "reports").exists()          # no report or mail mentions a vote
    assert invoke("vote", str(game), "Italy", "none")[0] == 0      # withdrawn: still not unanimous
    assert not (game / "reports").exists()
    code, out = invoke("vote", str(game), "Italy", "concede", "Turkey")
    assert code == 0 and "unanimous: Turkey won by concession" in out, out
    assert "Turkey won by concession" in (game / "reports" / "end.txt").read_text(encoding="utf-8")


def test_draw_votes_must_agree_and_partial_draws_need_the_gm(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    code, out = invoke("vote", str(game), "France", "draw", "France", "England")
    assert code == 2 and "only a draw shared by every survivor" in out
    code, out = invoke("vote", str(game), "France", "concede", "Narnia")
    assert code == 2 and "not a surviving power" in out
    for power in ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]:
        code, out = invoke("vote", str(game), power, "draw")
    assert "unanimous: The game ended in a draw" in out
    assert "Game over. The game ended in a draw between" in invoke("status", str(game))[1]
