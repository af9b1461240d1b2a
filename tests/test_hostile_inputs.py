"""Hostile and broken input files (tests/cases/hostile/inputs.yaml): each is
refused with one line that names the file, exit code 2, no traceback, and
the game folder unchanged; or, where the case says so, accepted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import seal, storage

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "hostile" / "inputs.yaml").read_text(encoding="utf-8"))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def case_text(case: dict[str, Any], current: str) -> str:
    if "truncate_lines" in case:
        return "".join(current.splitlines(keepends=True)[:case["truncate_lines"]])
    if "replace" in case:
        old, new = case["replace"]
        assert old in current
        return current.replace(old, new, 1)
    text = str(case["content"])
    for key, (unit, times) in (case.get("repeat") or {}).items():
        text = text.replace(key, unit * times)
    return storage.seal(text) if case.get("seal") else text


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hostile_input(case: dict[str, Any], tmp_path: Path) -> None:
    runner = CliRunner()
    game = tmp_path / "g"
    if case["target"] == "turn":
        assert runner.invoke(cli, ["new", str(game), "--variant", "seven-wonders",
                                   "--players", "alice,bob,carol"]).exit_code == 0
    else:
        assert runner.invoke(cli, ["new", str(game)]).exit_code == 0
    state = max((game / "history").glob("*.yaml"))
    target = {"game.yaml": game / "game.yaml", "state": state,
              "orders": tmp_path / "orders.txt", "turn": tmp_path / "turn.yaml"}[case["target"]]
    text = case_text(case, target.read_text(encoding="utf-8") if target.exists() else "")
    target.write_bytes(text.encode("latin-1" if case.get("latin1") else "utf-8"))
    if case["target"] == "state" and case.get("seal"):
        seal.reseal(game)      # the schema checks behind the keyed seal are under test here
    before = snapshot(game)
    command = case["command"]
    if command == "check-state":
        args = ["check", "--state", str(state), str(tmp_path / "o.txt")]
        (tmp_path / "o.txt").write_text("France:\nA par - bur\n", encoding="utf-8")
    elif command == "status":
        args = ["status", str(game)]
    else:
        args = [command, str(game), str(target)]
    result = runner.invoke(cli, args)
    output = result.output
    assert "Traceback" not in output
    assert result.exit_code == case["expect"], output
    assert snapshot(game) == before
    if case["expect"] == 2:
        assert isinstance(result.exception, SystemExit), result.exception
        lines = [line for line in output.splitlines() if line.startswith("error:")]
        assert len(lines) == 1, output
        assert case["says"] in lines[0], output
        assert target.name in lines[0], output
