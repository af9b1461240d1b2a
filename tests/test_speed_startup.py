"""Start-up (issue 14): `status` and `check` of a Diplomacy game load neither
the renderer (svgwrite) nor networkx. Checked in a fresh interpreter."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ORDERS = Path(__file__).resolve().parent.parent / "orders" / "standard" / "1901-spring.txt"

PROBE = """
import sys
from adjudicator.cli.main import cli
try:
    cli(sys.argv[1:], prog_name="adjudicator")
except SystemExit:
    pass
print("LOADED", sorted(m for m in ("svgwrite", "networkx", "adjudicator.output.render") if m in sys.modules))
"""


@pytest.mark.parametrize("command", [["status", "g"], ["check", "g", str(ORDERS)]])
def test_status_and_check_skip_renderer_and_networkx(tmp_path: Path, command: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "g"], cwd=tmp_path, check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-c", PROBE, *command], cwd=tmp_path, capture_output=True, text=True,
                          check=False)       # check exits 1 when an order is bad; only the modules matter
    assert "LOADED []" in done.stdout, done.stdout + done.stderr


def test_adjudicate_still_writes_the_map(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "g"], cwd=tmp_path, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "adjudicator", "adjudicate", "g", str(ORDERS)], cwd=tmp_path,
                   check=True, capture_output=True)
    assert (tmp_path / "g" / "maps" / "1901-spring-movement.svg").read_text(encoding="utf-8").startswith("<svg")
