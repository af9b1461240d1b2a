"""A phase is all or nothing: every file a phase writes lands together or not at all.

    commit(folder, [(path, content), ...])

1. Each file is written and fsynced under GAME/.staging/<id>/, numbered in order.
2. A journal naming every target is written last, atomically. Its presence means
   "the staging is complete".
3. Each staged file is renamed onto its target (a rename is atomic and needs no
   disk space), the next history file last, because its existence is what moves
   the game on. Then the staging folder goes.

A run killed, or a disk that fills, at any point leaves either an incomplete
staging folder with no journal (the phase never happened: `recover` throws it
away) or a journal (the phase happened: `recover` finishes the renames). Every
command that changes a game folder calls `recover` first, under the folder lock,
so the folder is always seen before the phase or after it."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from adjudicator.errors import DataFileError
from adjudicator.store import seal
from adjudicator.store.names import inside

STAGING = ".staging"
JOURNAL = "JOURNAL"
LOCK_NAME = ".lock"        # the game's lock file (folderlock), made by `new` with the folder
PUBLISHABLE = ("reports", "maps")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_synced(path: Path, data: bytes, mode: int = 0o600) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), mode)          # whatever the umask says
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def file_mode(target: Path) -> int:
    """Reports and maps may be published (world-readable); everything else in a
    game folder (game.yaml, history, orders, private reports, the GM's files,
    mail) is for its owner only."""
    return 0o644 if target.parts and target.parts[0] in PUBLISHABLE else 0o600


def commit(folder: Path, writes: list[tuple[Path, str | bytes]],
           moves: list[tuple[Path, Path]] | None = None) -> list[Path]:
    """Write every (path, content) into `folder` as one step, after moving
    each (source, destination) of `moves` (a rollback's way of keeping old
    files). Paths must lie inside the folder. Returns the paths written."""
    recover(folder)
    root = folder.resolve()
    targets = [inside(folder, path).relative_to(root) for path, _ in writes]
    # A history file is sealed with the game's key in the same step (store.seal);
    # the seals land first, so a history file is never seen unsealed.
    contents = [content.encode("utf-8") if isinstance(content, str) else content for _, content in writes]
    sealing = seal.sealing_writes(folder, list(zip(targets, contents)))
    targets = [inside(folder, folder / relative).relative_to(root) for relative, _ in sealing] + targets
    contents = [data for _, data in sealing] + contents
    renames = [(inside(folder, src).relative_to(root), inside(folder, dst).relative_to(root))
               for src, dst in moves or []]
    stage = folder / STAGING / uuid.uuid4().hex
    try:
        stage.mkdir(parents=True)
        for number, data in enumerate(contents):
            _write_synced(stage / f"{number:05d}", data, file_mode(targets[number]))
        journal = "".join(f"move\t{src.as_posix()}\t{dst.as_posix()}\n" for src, dst in renames)
        journal += "".join(f"{number:05d}\t{target.as_posix()}\n" for number, target in enumerate(targets))
        _write_synced(stage / f"{JOURNAL}.tmp", journal.encode("utf-8"))
        os.replace(stage / f"{JOURNAL}.tmp", stage / JOURNAL)
        _fsync_dir(stage)
    except OSError as exc:
        import shutil
        shutil.rmtree(stage.parent, ignore_errors=True)
        raise DataFileError(f"cannot write the phase: {exc.strerror}; nothing was changed", file=str(folder),
                            hint="free some disk space or fix permissions and run again") from None
    _apply(folder, stage)
    return [folder / target for target in targets]


def _apply(folder: Path, stage: Path) -> None:
    """Rename every staged file onto its target; safe to repeat after a crash."""
    import shutil  # here, not at the top: `status` and `check` never write
    for entry in (stage / JOURNAL).read_text(encoding="utf-8").splitlines():
        fields = entry.split("\t")
        if fields[0] == "move":
            source, destination = folder / fields[1], inside(folder, folder / fields[2])
        else:
            source, destination = stage / fields[0], inside(folder, folder / fields[1])
        if not source.exists():
            continue          # renamed before the crash
        destination.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, destination)
        _fsync_dir(destination.parent)
    (stage / JOURNAL).unlink()
    shutil.rmtree(stage, ignore_errors=True)
    try:
        stage.parent.rmdir()       # .staging itself, once empty
    except OSError:
        pass


def recover(folder: Path) -> list[str]:
    """Finish a commit that has its journal; throw away one that does not.
    Returns one line per staging folder handled, for the GM."""
    notes: list[str] = []
    staging = folder / STAGING
    if not staging.is_dir():
        return notes
    import shutil
    for stage in sorted(staging.iterdir()):
        if (stage / JOURNAL).exists():
            _apply(folder, stage)
            notes.append(f"finished a phase that an earlier run wrote but did not complete ({stage.name})")
        else:
            shutil.rmtree(stage, ignore_errors=True)
            notes.append(f"discarded the partial output of an earlier run that stopped early ({stage.name})")
    shutil.rmtree(staging, ignore_errors=True)
    return notes
