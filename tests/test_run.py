"""`adjudicator run`: one idempotent step, driven by an injected clock (issue 11 item 1)."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "orders" / "standard"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def collect(game: Path, phase: str, sample: str) -> None:
    """Store every power's orders as ingest would (orders/<phase>/<power>.txt)."""
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    folder = game / "orders" / phase
    folder.mkdir(parents=True, exist_ok=True)
    power, lines = None, {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        if colon:                       # "France:" heading, or "Germany: A mun - ruh"
            power = head.strip().lower()
            lines.setdefault(power, [])
            line = rest
        if power and line.strip():
            lines[power].append(line.strip())
    for power, orders in lines.items():
        (folder / f"{power}.txt").write_text("\n".join(orders) + "\n", encoding="utf-8")


def test_run_waits_then_adjudicates_when_all_are_in_and_is_idempotent(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("deadline", str(game), "2026-12-01T18:00Z")[0] == 0
    code, out = invoke("run", str(game), "--now", "2026-11-30T12:00Z")
    assert code == 0 and "nothing to do: waiting for Austria, England" in out, out
    collect(game, "1901-spring-movement", "1901-spring.txt")
    code, out = invoke("run", str(game), "--now", "2026-11-30T13:00Z")
    assert code == 0 and "adjudicated 1901-spring-movement (every order is in)" in out, out
    assert "next deadline: 2026-12-03T13:00+00:00" in out        # 3 days, from the schedule's default
    assert (game / "reports" / "1901-spring-movement.txt").exists()
    code, out = invoke("run", str(game), "--now", "2026-11-30T13:05Z")
    assert "nothing to do" in out and "adjudicated" not in out


def test_run_adjudicates_after_deadline_and_grace_with_the_missing_nmr(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    meta = yaml.safe_load((game / "game.yaml").read_text())
    meta["schedule"] = {"movement": "2d", "retreat": "12h", "adjustment": "12h", "grace": "1h"}
    meta["deadline"] = "2026-12-01T18:00+00:00"
    (game / "game.yaml").write_text(yaml.safe_dump(meta))
    folder = game / "orders" / "1901-spring-movement"
    folder.mkdir(parents=True)
    (folder / "france.txt").write_text("A par - bur\nA mar - spa\nF bre - mao\n")
    _, out = invoke("run", str(game), "--now", "2026-12-01T18:30Z")
    assert "nothing to do" in out and "until 2026-12-01T19:00+00:00" in out, out
    _code, out = invoke("run", str(game), "--now", "2026-12-01T19:00Z")
    assert "the deadline has passed; NMR: Austria, England, Germany, Italy, Russia, Turkey" in out, out
    assert "next deadline: 2026-12-03T19:00+00:00" in out
    report = (game / "reports" / "1901-spring-movement.txt").read_text()
    assert "No orders were received from Austria" in report and "A Paris - Burgundy" in report


def test_run_on_a_finished_game_does_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    assert invoke("end", str(game), "--draw")[0] == 0
    code, out = invoke("run", str(game), "--now", "2026-12-01T19:00Z")
    assert code == 0 and "the game is over; nothing to do" in out


def test_run_a_turn_file_game(tmp_path: Path) -> None:
    game = tmp_path / "w"
    assert invoke("new", str(game), "--variant", "seven-wonders", "--players", "alice,bob,carol",
                  "--seed", "7")[0] == 0
    sample = yaml.safe_load((ROOT / "orders" / "seven-wonders" / "01-age1-turn1.yaml").read_text())
    folder = game / "orders" / "0001-age1-turn1"
    folder.mkdir(parents=True)
    for player in ("alice", "bob"):
        (folder / f"{player}.yaml").write_text(yaml.safe_dump({player: sample[player]}))
    _, out = invoke("run", str(game), "--now", "2026-12-01T10:00Z")
    assert "waiting for carol" in out, out
    (folder / "carol.yaml").write_text(yaml.safe_dump({"carol": sample["carol"]}))
    _code, out = invoke("run", str(game), "--now", "2026-12-01T10:05Z")
    assert "adjudicated 0001-age1-turn1 (every order is in)" in out, out
