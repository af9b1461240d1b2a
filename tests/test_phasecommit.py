"""A phase is all or nothing (store/phasecommit): what `commit` leaves in a
game folder, the journal it stages, and how `recover` finishes a phase whose
journal was written or throws away one whose journal was not. Each crash is
made by hand, as the staging folder a killed run leaves."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.store import phasecommit, seal
from adjudicator.store.phasecommit import JOURNAL, STAGING, commit, recover


def files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_commit_writes_every_file_and_leaves_no_staging(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("old\n", encoding="utf-8")
    written = commit(tmp_path, [(tmp_path / "game.yaml", "new\n"),
                                (tmp_path / "orders" / "f.txt", "A par H\n"),
                                (tmp_path / "maps" / "m.svg", b"<svg/>\n")])
    assert written == [tmp_path / "game.yaml", tmp_path / "orders" / "f.txt", tmp_path / "maps" / "m.svg"]
    assert files(tmp_path) == {"game.yaml": "new\n", "orders/f.txt": "A par H\n", "maps/m.svg": "<svg/>\n"}
    assert not (tmp_path / STAGING).exists()


def test_moves_come_before_the_writes(tmp_path: Path) -> None:
    """A rollback keeps the old file under another name and writes the new one in its place."""
    (tmp_path / "history").mkdir()
    (tmp_path / "report.txt").write_text("old\n", encoding="utf-8")
    commit(tmp_path, [(tmp_path / "report.txt", "new\n")],
           moves=[(tmp_path / "report.txt", tmp_path / "superseded" / "report.txt")])
    assert files(tmp_path) == {"report.txt": "new\n", "superseded/report.txt": "old\n"}


def test_a_history_file_is_sealed_in_the_same_step(tmp_path: Path) -> None:
    commit(tmp_path, [(tmp_path / "history" / "1901-spring.yaml", "state\n")])
    key = seal.read_key(tmp_path)
    assert key is not None
    assert seal.read_seals(tmp_path) == {"1901-spring.yaml": seal.mac(key, "1901-spring.yaml", b"state\n")}


def test_a_path_outside_the_folder_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    with pytest.raises(AdjudicatorError, match="refusing to write outside the game folder"):
        commit(game, [(game / "ok.txt", "x"), (tmp_path / "outside.txt", "x")])
    assert files(tmp_path) == {}
    with pytest.raises(AdjudicatorError, match="refusing to write outside the game folder"):
        commit(game, [(game / "ok.txt", "x")], moves=[(game / "ok.txt", tmp_path / "outside.txt")])
    assert files(tmp_path) == {}


def test_a_staging_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("old\n", encoding="utf-8")
    (tmp_path / STAGING).write_text("a file where the staging folder goes\n", encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        commit(tmp_path, [(tmp_path / "game.yaml", "new\n")])
    assert caught.value.message.startswith("cannot write the phase: ")
    assert caught.value.message.endswith("; nothing was changed")
    assert caught.value.file == str(tmp_path)
    assert (tmp_path / "game.yaml").read_text(encoding="utf-8") == "old\n"


def test_a_failed_staging_is_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = phasecommit._write_synced

    def fail_on_journal(path: Path, data: bytes, mode: int = 0o600) -> None:
        if path.name.startswith(JOURNAL):
            raise OSError(28, "No space left on device")
        real(path, data, mode)

    monkeypatch.setattr(phasecommit, "_write_synced", fail_on_journal)
    with pytest.raises(DataFileError, match="cannot write the phase: No space left on device; nothing was changed"):
        commit(tmp_path, [(tmp_path / "game.yaml", "new\n")])
    assert files(tmp_path) == {} and not (tmp_path / STAGING).exists()


# --- what a killed run leaves, and `recover` ------------------------------------------------
def stage(folder: Path, name: str, staged: dict[str, str], journal: str | None) -> Path:
    where = folder / STAGING / name
    where.mkdir(parents=True)
    for number, data in staged.items():
        (where / number).write_text(data, encoding="utf-8")
    if journal is not None:
        (where / JOURNAL).write_text(journal, encoding="utf-8")
    return where


def test_recover_with_nothing_staged(tmp_path: Path) -> None:
    assert recover(tmp_path) == []
    assert files(tmp_path) == {}


def test_recover_finishes_a_journalled_phase_and_discards_an_unjournalled_one(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("kept\n", encoding="utf-8")
    stage(tmp_path, "a", {"00000": "one\n", "00001": "two\n"},
          "move\told.txt\tsuperseded/old.txt\n00000\tgame.yaml\n00001\thistory/1901.yaml\n")
    stage(tmp_path, "b", {"00000": "never\n"}, None)
    assert recover(tmp_path) == [
        "finished a phase that an earlier run wrote but did not complete (a)",
        "discarded the partial output of an earlier run that stopped early (b)",
    ]
    assert files(tmp_path) == {"game.yaml": "one\n", "history/1901.yaml": "two\n", "superseded/old.txt": "kept\n"}
    assert not (tmp_path / STAGING).exists()


def test_recover_after_a_crash_half_way_through_the_renames(tmp_path: Path) -> None:
    """The first file was renamed onto its target before the crash: it stays, the rest land."""
    (tmp_path / "game.yaml").write_text("landed\n", encoding="utf-8")
    stage(tmp_path, "c", {"00001": "two\n"}, "00000\tgame.yaml\n00001\treports/r.txt\n")
    recover(tmp_path)
    assert files(tmp_path) == {"game.yaml": "landed\n", "reports/r.txt": "two\n"}


def test_a_journal_that_points_outside_the_folder_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    stage(game, "d", {"00000": "evil\n"}, "00000\t../outside.txt\n")
    with pytest.raises(AdjudicatorError, match="refusing to write outside the game folder"):
        recover(game)
    assert not (tmp_path / "outside.txt").exists()


def test_commit_recovers_first(tmp_path: Path) -> None:
    stage(tmp_path, "e", {"00000": "earlier\n"}, "00000\tearlier.txt\n")
    commit(tmp_path, [(tmp_path / "later.txt", "later\n")])
    assert files(tmp_path) == {"earlier.txt": "earlier\n", "later.txt": "later\n"}


def test_the_journal_names_each_staged_file_and_each_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, str] = {}

    def keep(folder: Path, where: Path) -> None:
        seen.update({p.name: p.read_text(encoding="utf-8") for p in where.iterdir()})

    monkeypatch.setattr(phasecommit, "_apply", keep)
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    commit(tmp_path, [(tmp_path / "x" / "b.txt", "b\n"), (tmp_path / "c.txt", "c\n")],
           moves=[(tmp_path / "a.txt", tmp_path / "old" / "a.txt")])
    assert seen == {"00000": "b\n", "00001": "c\n",
                    JOURNAL: "move\ta.txt\told/a.txt\n00000\tx/b.txt\n00001\tc.txt\n"}


def test_another_runs_staging_is_left_alone_by_apply(tmp_path: Path) -> None:
    """`_apply` removes its own stage, and .staging only once it is empty."""
    mine = stage(tmp_path, "f", {"00000": "x\n"}, "00000\tx.txt\n")
    other = stage(tmp_path, "g", {"00000": "y\n"}, None)
    phasecommit._apply(tmp_path, mine)
    assert not mine.exists() and other.is_dir()
    phasecommit._apply(tmp_path, stage(tmp_path, "h", {}, ""))
    assert (tmp_path / STAGING).is_dir()
    other.joinpath("00000").unlink()
    other.rmdir()
    phasecommit._apply(tmp_path, stage(tmp_path, "i", {}, ""))
    assert not (tmp_path / STAGING).exists()


def test_leftovers_that_cannot_be_removed_do_not_fail_a_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The files have landed: a staging folder the system will not remove is
    left for the next run's `recover`, and the phase still counts."""
    import os
    real_rmdir = os.rmdir

    def refuse(path: object, *args: object, **kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted", str(path))

    stage(tmp_path, "j", {"00000": "never\n"}, None)
    monkeypatch.setattr(os, "rmdir", refuse)
    assert recover(tmp_path) == ["discarded the partial output of an earlier run that stopped early (j)"]
    commit(tmp_path, [(tmp_path / "game.yaml", "new\n")])
    assert (tmp_path / "game.yaml").read_text(encoding="utf-8") == "new\n"
    monkeypatch.setattr(os, "rmdir", real_rmdir)
    recover(tmp_path)
    assert not (tmp_path / STAGING).exists()
