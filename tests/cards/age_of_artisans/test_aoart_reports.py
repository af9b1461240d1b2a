"""What a player reads: the apprentices for hire show what they do."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from adjudicator.store import storage

from .helpers import DATA
from .test_aoart_cli import BuiltOnce, new_game, sample_game

APPRENTICES = {int(a["id"]): a for a in DATA["apprentices"]}


def test_apprentices_for_hire_show_their_abilities(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    new_game(CliRunner(), folder)
    state = storage.read_yaml(max((folder / "history").glob("*.yaml")))
    report = (folder / "reports" / "0000-setup.txt").read_text()
    offered = [cid for row in state["display"] for cid in row if cid is not None]
    assert offered
    for cid in offered:
        card = APPRENTICES[cid]
        assert f"{card['name']} #{cid} ({'/'.join(card['skills'])}): {card['text']}" in report, cid
    for player in ("alice", "bob"):
        private = (folder / "private" / player / "0000-setup.txt").read_text()
        assert all(APPRENTICES[cid]["text"] in private for cid in offered)


def test_no_plural_slips_in_the_sample_reports(tmp_path: Path, built_once: BuiltOnce) -> None:
    import re

    # The sample game replayed once per test run (test_aoart_cli reads it too), in a copy of our own.
    folder = shutil.copytree(sample_game(built_once), tmp_path / "game")
    for path in sorted(folder.glob("reports/*.txt")) + sorted(folder.glob("private/*/*.txt")):
        text = path.read_text()
        assert "(s)" not in text, path.name
        slip = re.search(r"(?<![\d.+-])1 (workers|cards|building cards|debts|unpaid debts)\b", text)
        assert slip is None, (path.name, slip.group(0) if slip else "")
