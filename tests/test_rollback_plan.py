"""What a rollback moves (store/rollback.py), on a folder laid out by hand
with phases numbered 1, 2, 3: rolling back to phase 2 keeps its history
file (the state it returns to) and the orders collected for it, and moves
everything phase 2 and later produced, intact, under
history/superseded/<n>/, n counting rollbacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.errors import GameFolderError
from adjudicator.store import rollback


def phase_key(name: str) -> Any:
    return int(name[:4]) if name[:4].isdigit() and name[4:5] == "-" else None


FILES = [
    "game.yaml", ".lock", "notes.txt",
    "history/0001-a.yaml", "history/0002-b.yaml", "history/0003-c.yaml",
    "history/superseded/1/reports/0003-c.txt", "history/superseded/notes/0003-c.txt",
    "reports/0001-a.txt", "reports/0002-b.txt", "reports/0003-c.txt",
    "reports/0001-a/0003-c.svg", "reports/0003-c/0001-a.svg",    # a file's own name before its folder's
    "orders/0001-a.txt", "orders/0002-b.txt",                     # orders adjudicated in a phase
    "orders/0002-b/france.txt", "orders/0003-c/france.txt",       # orders collected for a phase
    "mail/notices/0002-b/phase.yaml", "mail/notices/0001-a/phase.yaml",
    "replies/0003-c.txt", "quarantine/0003-c.eml", "preview/0003-c.txt", ".staging/0003-c",
    "orders/0003-c/game.yaml",
]

MOVED = [
    "history/0003-c.yaml",
    "mail/notices/0002-b/phase.yaml",
    "orders/0002-b.txt", "orders/0003-c/france.txt",
    "reports/0001-a/0003-c.svg", "reports/0002-b.txt", "reports/0003-c.txt",
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in FILES:
        path = tmp_path / "g" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name, encoding="utf-8")
    return tmp_path / "g"


def test_the_plan_moves_phase_two_and_later_under_the_next_rollback_number(folder: Path) -> None:
    plan = rollback.plan(folder, 2, phase_key)
    assert plan == [(folder / name, folder / "history" / "superseded" / "2" / name) for name in MOVED]


def test_the_first_rollback_is_number_one_and_the_tenth_follows_the_ninth(tmp_path: Path) -> None:
    game = tmp_path / "g"
    (game / "history").mkdir(parents=True)
    (game / "history" / "0002-b.yaml").write_text("x", encoding="utf-8")
    first = game / "history" / "superseded" / "1" / "history" / "0002-b.yaml"
    assert rollback.plan(game, 1, phase_key)[0][1] == first
    (game / "history" / "superseded" / "notes").mkdir(parents=True)      # a folder there, but no rollback yet
    assert rollback.plan(game, 1, phase_key)[0][1] == first
    for number in ("9", "3", "kept"):
        (game / "history" / "superseded" / number).mkdir(parents=True)
    assert rollback.plan(game, 1, phase_key)[0][1].relative_to(game / "history" / "superseded").parts[0] == "10"


def test_rolling_back_moves_the_files_intact_and_writes_in_the_same_step(folder: Path) -> None:
    moved = rollback.roll_back(folder, 2, "phase 2", phase_key, [(folder / "game.yaml", "deadline: soon\n")])
    assert moved == [folder / "history" / "superseded" / "2" / name for name in MOVED]
    for name in MOVED:
        assert not (folder / name).exists()
        assert (folder / "history" / "superseded" / "2" / name).read_text(encoding="utf-8") == name
    assert (folder / "game.yaml").read_text(encoding="utf-8") == "deadline: soon\n"
    assert (folder / "history" / "0002-b.yaml").exists() and (folder / "orders" / "0002-b" / "france.txt").exists()
    with pytest.raises(GameFolderError) as caught:
        rollback.roll_back(folder, 3, "phase 3", phase_key)
    assert (caught.value.message, caught.value.file) == ("nothing to roll back: phase 3 has not been adjudicated",
                                                         str(folder))
