"""The GM's and players' workflow, in-process through click's CliRunner."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "orders" / "standard"


def run(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}


def test_full_year_from_samples(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    assert run(runner, "new", str(game))[0] == 0
    for phase in ("spring", "fall", "winter"):
        code, out = run(runner, "adjudicate", str(game), str(SAMPLES / f"1901-{phase}.txt"))
        assert code == 0, out
    report = (game / "reports" / "1901-fall-movement.txt").read_text()
    assert "Norway: nobody -> England" in report
    assert "A Yorkshire - Norway via convoy  [moved]" in report
    code, out = run(runner, "status", str(game))
    assert "Spring 1902 Movement" in out and "France: 6 centres" in out


def test_byte_identical_rerun(tmp_path: Path, runner: CliRunner) -> None:
    snaps = []
    for name in ("a", "b"):
        game = tmp_path / name / "game"
        run(runner, "new", str(game))
        run(runner, "adjudicate", str(game), str(SAMPLES / "1901-spring.txt"))
        snaps.append(snapshot(game))
    assert snaps[0] == snaps[1]


def test_check_normalises_and_flags(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    run(runner, "new", str(game))
    good = tmp_path / "good.txt"
    good.write_text("France:\nA Paris -> Burgundy\nF bre - mao\n")
    code, out = run(runner, "check", str(game), str(good))
    assert code == 0 and "A Paris - Burgundy" in out and "F Brest - Mid-Atlantic Ocean" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("France:\nA par - Bugundy\nA mun - bur\nF bre - par\n")
    code, out = run(runner, "check", str(game), str(bad), "--power", "France")
    assert code == 1
    assert "did you mean Burgundy" in out
    assert "belongs to Germany" in out
    assert "fleet cannot go inland" in out


def test_player_side_check_with_state_file(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    run(runner, "new", str(game))
    state = next((game / "history").glob("*.yaml"))
    orders = tmp_path / "o.txt"
    orders.write_text("A par - bur\nA mar - spa\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "France", str(orders))
    assert code == 0, out


def test_bad_inputs_exit_2_and_write_nothing(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    run(runner, "new", str(game))
    before = snapshot(game)
    cases = {
        "other.txt": ("France:\nA mun - bur\n", "belongs to Germany", 2),
        "unknown.txt": ("France:\nA par - Bugundy\n", "did you mean Burgundy", 2),
        "power.txt": ("Frnace:\nA par - bur\n", "did you mean France", 1),
        "missing.txt": ("France:\nA pic - bur\n", "no unit in pic", 2),
    }
    for name, (text, fragment, line) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        code, out = run(runner, "adjudicate", str(game), str(path))
        assert code == 2, out
        assert fragment in out and f"{name}:{line}:" in out and "Traceback" not in out
    assert snapshot(game) == before


def test_malformed_state_and_truncated_file(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    run(runner, "new", str(game))
    (game / "game.yaml").write_text("variant: [standard\n")
    code, out = run(runner, "status", str(game))
    assert code == 2 and "game.yaml" in out and "malformed YAML" in out
    run(runner, "new", str(tmp_path / "g2"))
    state = next((tmp_path / "g2" / "history").glob("*.yaml"))
    state.write_text(state.read_text()[:40])
    code, out = run(runner, "status", str(tmp_path / "g2"))
    assert code == 2 and state.name in out


def test_phase_adjudicated_twice_is_refused_then_forced(tmp_path: Path, runner: CliRunner) -> None:
    game = tmp_path / "game"
    run(runner, "new", str(game))
    spring = str(SAMPLES / "1901-spring.txt")
    assert run(runner, "adjudicate", str(game), spring)[0] == 0
    first_report = (game / "reports" / "1901-spring-movement.txt").read_bytes()
    code, out = run(runner, "adjudicate", str(game), spring)
    assert code == 2 and "already adjudicated" in out
    assert (game / "reports" / "1901-spring-movement.txt").read_bytes() == first_report


def test_datc_command(runner: CliRunner) -> None:
    datc = ROOT.parent / "shared" / "datc" / "datc_v2.4_06.txt"
    code, out = run(runner, "datc", str(datc))
    assert code == 0 and out.strip().endswith("167 passed, 0 failed")
