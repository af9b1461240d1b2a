"""Start-up, which a GM waits for at every command: `status` and `check` of a Diplomacy game load neither
the renderer (svgwrite) nor networkx; `adjudicate` of a movement phase loads
no retreat or adjustment code. Checked in a fresh interpreter."""
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


# --- what each light command may load -----------------------------------------------------------
LOADS = """
import sys
from adjudicator.cli.main import cli
try:
    cli(sys.argv[2:], prog_name="adjudicator")
except SystemExit:
    pass
names = sys.argv[1].split(",")
print("LOADED", sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in sys.modules)))
"""
WRITING = ["jinja2", "filelock", "svgwrite", "networkx", "adjudicator.output.render", "adjudicator.output.templating"]
MAIL = ["smtplib", "imaplib", "imapclient", "argon2", "adjudicator.mail", "adjudicator.cli.mail"]
OTHER_COMMANDS = ["adjudicator.cli.maps", "adjudicator.cli.players"]
SW_TURN = ORDERS.parent.parent / "seven-wonders" / "01-age1-turn1.yaml"


def loaded(cwd: Path, modules: list[str], command: list[str]) -> str:
    done = subprocess.run([sys.executable, "-c", LOADS, ",".join(modules), *command], cwd=cwd, capture_output=True,
                          text=True, check=False)
    return done.stdout + done.stderr


def test_help_loads_no_game_code(tmp_path: Path) -> None:
    heavy = ["yaml", "adjudicator.folder", "adjudicator.store", "adjudicator.diplomacy", "adjudicator.rules",
             "adjudicator.cards", "adjudicator.output", *WRITING, *MAIL, *OTHER_COMMANDS]
    out = loaded(tmp_path, heavy, ["--help"])
    assert "LOADED []" in out, out
    for name in ["map", "site", "mail", "ingest", "player", "status", "check", "adjudicate"]:
        assert f"\n  {name} " in out, out                 # every command listed, with its one-line help


@pytest.mark.parametrize("command", [["status", "g"], ["check", "g", str(ORDERS)]])
def test_status_and_check_skip_writing_and_mail(tmp_path: Path, command: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "g"], cwd=tmp_path, check=True, capture_output=True)
    out = loaded(tmp_path, [*WRITING, *MAIL, *OTHER_COMMANDS, "adjudicator.cards"], command)
    assert "LOADED []" in out, out


def test_status_skips_the_resolver(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "g"], cwd=tmp_path, check=True, capture_output=True)
    out = loaded(tmp_path, ["adjudicator.diplomacy.game", "adjudicator.diplomacy.parser",
                            "adjudicator.diplomacy.outcome"], ["status", "g"])
    assert "LOADED []" in out, out


@pytest.mark.parametrize("command", [["status", "w"], ["check", "w", str(SW_TURN), "--player", "alice"]])
def test_turn_file_status_and_check_skip_writing(tmp_path: Path, command: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "w", "--variant", "seven-wonders",
                    "--players", "alice,bob,carol"], cwd=tmp_path, check=True, capture_output=True)
    out = loaded(tmp_path, [*WRITING, *MAIL, *OTHER_COMMANDS, "adjudicator.diplomacy"], command)
    assert "LOADED []" in out, out


def test_lazy_commands_keep_their_help() -> None:
    """--help lists the commands of other modules by LAZY_COMMANDS' summaries: each
    must be the first paragraph of the real command's help, so every width shows the same."""
    from adjudicator.cli.main import LAZY_COMMANDS, LazyCommand
    for name, (target, summary) in LAZY_COMMANDS.items():
        real = LazyCommand(name, target, summary).real()
        assert real.name == name
        assert summary.split() == (real.help or "").partition("\n\n")[0].split(), name
        for width in range(10, 120):
            assert LazyCommand(name, target, summary).get_short_help_str(width) == real.get_short_help_str(width)


def test_lazy_command_runs_as_itself(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "adjudicator", "player", "--help"], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith("Usage: adjudicator player [OPTIONS] COMMAND [ARGS]...") and "  replace " in out, out


def test_adjudicate_skips_what_it_does_not_use(tmp_path: Path) -> None:
    """adjudicate locks with fcntl (not filelock, which brings logging), and a
    movement phase needs no retreat or adjustment code."""
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "g"], cwd=tmp_path, check=True, capture_output=True)
    unused = ["networkx", "adjudicator.diplomacy.retreats", "adjudicator.diplomacy.adjustments"]
    if sys.platform != "win32":                     # Windows has no fcntl: filelock it is
        unused += ["filelock", "logging"]
    out = loaded(tmp_path, unused, ["adjudicate", "g", str(ORDERS)])
    assert "LOADED []" in out, out
    assert (tmp_path / "g" / "maps" / "1901-spring-movement.svg").exists()
