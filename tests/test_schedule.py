"""Deadlines and who the judge waits for (issue 11 item 1, issue 10 item 4)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.errors import AdjudicatorError
from adjudicator.folder import schedule
from adjudicator.store import seal, storage

ROOT = Path(__file__).resolve().parent.parent
UTC = datetime.timezone.utc


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("text, hours", [("90m", 1.5), ("12h", 12), ("3d", 72), ("1d12h", 36), ("1d 2h", 26)])
def test_durations(text: str, hours: float) -> None:
    assert schedule.parse_duration(text) == datetime.timedelta(hours=hours)


@pytest.mark.parametrize("text", ["", "3", "d", "3x", "1d-2h", "3 days"])
def test_bad_durations_say_how_to_write_one(text: str) -> None:
    with pytest.raises(AdjudicatorError, match="is not a duration"):
        schedule.parse_duration(text)


def test_times_need_a_zone() -> None:
    assert schedule.parse_time("2026-12-01T18:00Z") == datetime.datetime(2026, 12, 1, 18, tzinfo=UTC)
    with pytest.raises(AdjudicatorError, match="no time zone"):
        schedule.parse_time("2026-12-01T18:00")


def test_deadline_command_sets_and_extends(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    code, out = invoke("deadline", str(game), "2026-12-01T18:00+01:00")
    assert code == 0 and "2026-12-01T18:00+01:00" in out
    code, out = invoke("deadline", str(game), "+2d")
    assert code == 0 and "2026-12-03T18:00+01:00" in out
    assert yaml.safe_load((game / "game.yaml").read_text())["deadline"] == "2026-12-03T18:00+01:00"
    code, out = invoke("deadline", str(game), "soon")
    assert code == 2 and "not a time" in out


def test_retreat_status_waits_only_for_powers_with_a_dislodged_unit(tmp_path: Path) -> None:
    """Issue 10: status in a retreat phase waited for powers with nothing to retreat."""
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    history = game / "history" / "1901-spring-movement.yaml"
    history.unlink()
    (game / "history" / "1901-spring-retreat.yaml").write_text(storage.seal(yaml.safe_dump({
        "variant": "standard", "phase": {"year": 1901, "season": "spring", "kind": "retreat"},
        "units": {"germany": ["A bur"], "england": ["F lon"]}, "centres": {"france": ["par"]},
        "dislodged": [{"unit": "A par", "power": "france", "attacker_from": "bur", "retreats": ["gas"]}]})))
    seal.reseal(game)            # the GM's own repair, sealed with the game's key
    out = invoke("status", str(game))[1]
    assert "Waiting for: France\n" in out
    assert "Orders in: nobody" in out


def test_adjustment_status_skips_powers_with_nothing_owed(tmp_path: Path) -> None:
    game = tmp_path / "g"
    assert invoke("new", str(game))[0] == 0
    for phase in ("spring", "fall"):
        assert invoke("adjudicate", str(game), str(ROOT / "orders" / "standard" / f"1901-{phase}.txt"))[0] == 0
    out = invoke("status", str(game))[1]
    waiting = out.split("Waiting for: ")[1].splitlines()[0].split(", ")
    state = yaml.safe_load(max((game / "history").glob("*.yaml")).read_text())
    owed = {p for p in state["units"]
            if len(state["centres"].get(p, [])) != len(state["units"].get(p, []))}
    names = {"austria": "Austria", "england": "England", "france": "France", "germany": "Germany",
             "italy": "Italy", "russia": "Russia", "turkey": "Turkey"}
    assert set(waiting) == {names[p] for p in owed}
