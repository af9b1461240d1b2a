"""Which judge adjudicated: `adjudicator --version`, the footer of every
results mail and of every page of the site, all from adjudicator.__version__
(the one place the version is written; pyproject.toml reads it from there).
The version is fixed per install, so re-runs stay byte-identical."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from click.testing import CliRunner
from mailservers import body_of, strict_parse

from adjudicator import __version__
from adjudicator.cli.main import cli
from adjudicator.cli.maps import site_command
from adjudicator.folder import gamefolder, players
from adjudicator.mail import results as mail

ROOT = Path(__file__).resolve().parent.parent
SPRING = ROOT / "orders" / "standard" / "1901-spring.txt"
SIGNATURE = f"\n-- \nAdjudicated by adjudicator {__version__}\n"


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"adjudicator, version {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert version("adjudicator") == __version__        # the installed metadata says the same


def test_every_results_mail_ends_with_the_judge_version(tmp_path: Path) -> None:
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    players.add_player(folder, "france", "Fran", "fr@example.org", "pw-france")
    players.add_player(folder, "england", "Eng", "en@example.org", "pw-england")
    gamefolder.adjudicate(folder, SPRING)
    messages = mail.build_messages(folder, "1901-spring-movement")
    assert len(messages) == 2
    for message in messages:
        text = body_of(strict_parse(mail.message_bytes(message)))
        power = str(message["X-Adjudicator-Power"])
        report = (folder / "private" / power / "1901-spring-movement.txt").read_text(encoding="utf-8")
        assert text == report.rstrip("\n") + SIGNATURE


def test_every_site_page_names_the_judge_version_and_a_rerun_is_identical(tmp_path: Path) -> None:
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    gamefolder.adjudicate(folder, SPRING)
    written = []
    for out in (tmp_path / "one", tmp_path / "two"):
        result = CliRunner().invoke(site_command, [str(folder), str(out)])
        assert result.exit_code == 0, result.output
        written.append({p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    pages = [name for name in written[0] if name.suffix == ".html"]
    assert len(pages) == 4                               # the index, two phases and the centre chart
    for name in pages:
        assert f"<footer><p>Written by adjudicator {__version__}.</p></footer>" in written[0][name].decode()
    assert written[0] == written[1]
