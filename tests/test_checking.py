"""`adjudicator check` and the reply to a mailed order (checking.check_lines):
void orders come back as errors with their reason, matched to the very line;
supports of other powers' units are fine; warnings do not change the exit code."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.folder.checking import check_lines
from adjudicator.rules import load_variant
from adjudicator.store import storage


def run(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def check(tmp_path: Path, runner: CliRunner, text: str, *extra: str) -> tuple[int, str]:
    game = tmp_path / "G"
    if not game.exists():
        assert run(runner, "new", str(game))[0] == 0
    orders = tmp_path / "o.txt"
    orders.write_text(text, encoding="utf-8")
    return run(runner, "check", str(game), str(orders), *extra)


# --- issue 12: void results matched to their lines ------------------------------------------------------
def test_support_of_a_foreign_unit_is_good(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "France:\nA mar S A ven - pie\n")
    assert code == 0, out
    assert "error" not in out
    assert "A Marseilles S A Venice - Piedmont" in out


def test_foreign_support_hold_is_good(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "Italy:\nA ven S F tri\nA rom S A ven\n")
    assert code == 0, out
    assert "error (" not in out


def test_void_order_names_its_reason(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "France:\nA par - mos\nA mar S A ven - pie\n")
    assert code == 1
    lines = out.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith("line 2:"))
    assert "does not border" in lines[at + 1], out
    assert "error (cannot do): \n" not in out + "\n"
    assert not any(l.startswith("line 3:") and "error (" in lines[i + 1]
                   for i, l in enumerate(lines[:-1])), out


def test_every_error_message_is_nonempty(tmp_path: Path, runner: CliRunner) -> None:
    text = "France:\nA par S A mun - bur\nA mar S A ven - pie\nF bre S A par - pic\n"
    code, out = check(tmp_path, runner, text)
    assert code == 0, out
    assert not any(l.rstrip().endswith("):") for l in out.splitlines()), out


def test_mailed_reply_keeps_foreign_support() -> None:
    variant = load_variant("standard")
    state = initial_state(variant)
    echo, errors, bad = check_lines(variant, state, "A mar S A ven - pie\nA par - mos\n", "france")
    assert bad == set()
    assert len(errors) == 1 and errors[0].startswith("line 2:") and "does not border" in errors[0]
    assert echo[0] == "line 1: A Marseilles S A Venice - Piedmont"


# --- issue 12 item 3: warnings (godip's corroborate) -----------------------------------------------------
def test_own_support_that_matches_no_order_warns(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "Italy:\nA ven - tyr\nF nap S A ven - apu\nA rom S A ven\n")
    assert code == 0, out
    assert "    warning: A Venice is not ordered to move to Apulia" in out
    assert "    warning: A Venice is ordered to move, so this support to hold does nothing" in out
    assert out.rstrip().endswith("all orders are good (2 warnings)")


def test_own_support_that_matches_gives_no_warning(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "France:\nA par - gas\nA mar S A par - gas\nF bre S A par - gas\n")
    assert code == 0 and "warning" not in out, out


def test_unordered_units_warn_when_one_power_is_checked(tmp_path: Path, runner: CliRunner) -> None:
    code, out = check(tmp_path, runner, "A par - bur\n", "--power", "France")
    assert code == 0, out
    assert "warning: F Brest has no order (it will hold)" in out
    assert "warning: A Marseilles has no order (it will hold)" in out
    assert "Paris has no order" not in out
    code, out = check(tmp_path, runner, "France:\nA par - bur\n")
    assert "has no order" not in out       # the GM's whole-file check: no power to hold to account


def write_state(path: Path, units: dict[str, list[str]], centres: dict[str, list[str]],
                season: str = "winter", kind: str = "adjustment") -> Path:
    import yaml
    path.write_text(storage.seal(yaml.safe_dump({"variant": "standard",
                                    "phase": {"year": 1901, "season": season, "kind": kind},
                                    "units": units, "dislodged": [], "centres": centres})))
    return path


def test_build_and_disband_counts_warn(tmp_path: Path, runner: CliRunner) -> None:
    state = write_state(tmp_path / "s.yaml",
                        {"france": ["A bur", "A mar", "A par"], "germany": ["A mun"]},
                        {"france": ["bre", "par"], "germany": ["mun", "ber", "kie", "hol"]})
    orders = tmp_path / "o.txt"
    orders.write_text("# nothing yet\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "France", str(orders))
    assert code == 0, out
    assert "warning: France must disband 1 and orders 0 disband(s); civil disorder disbands the rest" in out
    orders.write_text("build A ber\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "Germany", str(orders))
    assert code == 0, out
    assert "warning: Germany may build 3 and orders 1 build or waive; the rest are waived" in out
    orders.write_text("build A ber\nbuild F kie\nwaive\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "Germany", str(orders))
    assert code == 0 and "warning" not in out, out


def test_own_convoy_that_matches_no_move_warns(tmp_path: Path, runner: CliRunner) -> None:
    state = write_state(tmp_path / "s.yaml", {"england": ["A yor", "F nth"]}, {"england": ["lon"]},
                        "spring", "movement")
    orders = tmp_path / "o.txt"
    orders.write_text("A yor - lon\nF nth C A yor - nwy\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "England", str(orders))
    assert code == 0, out
    assert "    warning: A Yorkshire is not ordered to move to Norway" in out
    orders.write_text("A yor - nwy\nF nth C A yor - nwy\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "England", str(orders))
    assert code == 0 and "warning" not in out, out


def test_void_retreat_is_an_error(tmp_path: Path, runner: CliRunner) -> None:
    import yaml
    state = tmp_path / "s.yaml"
    state.write_text(storage.seal(yaml.safe_dump({
        "variant": "standard", "phase": {"year": 1901, "season": "spring", "kind": "retreat"},
        "units": {"germany": ["A bur"]}, "centres": {"france": ["par"]},
        "dislodged": [{"unit": "A par", "power": "france", "attacker_from": "bur", "retreats": ["gas", "pic"]}]})))
    orders = tmp_path / "o.txt"
    orders.write_text("A par R bre\n")
    code, out = run(runner, "check", "--state", str(state), "--power", "France", str(orders))
    assert code == 1 and "error (cannot do): cannot retreat to Brest" in out, out
