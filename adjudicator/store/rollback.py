"""Rollback: return a game to the state before one of its phases.

Nothing is deleted or rewritten. Everything that phase and the later ones
produced (reports, private reports, maps, the GM's logs, results mails, the
orders that were adjudicated, and the later history files) moves, intact,
under history/superseded/<n>/ with its path kept; n counts rollbacks. The
history file of the phase itself stays: it is the state the game returns to.
Orders collected for that phase stay too, so it can be adjudicated again;
those collected for later phases move with the rest.

Both kinds of game name their files by phase: Diplomacy by slug
(`1901-fall-movement`), turn-file games by a numbered slug (`0003-age1-turn2`).
A `PhaseKey` turns a file or folder name into a sortable key, or None."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adjudicator.errors import GameFolderError
from adjudicator.store import phasecommit

PhaseKey = Callable[[str], Any]
SUPERSEDED = Path("history") / "superseded"
KEPT = {"game.yaml", ".lock"}
KEPT_FOLDERS = {"superseded", phasecommit.STAGING, "replies", "quarantine", "preview"}


def _key_of(relative: Path, phase_key: PhaseKey) -> Any:
    """The phase a file belongs to: its own name's slug, or its nearest folder's."""
    for name in (relative.stem, *(part for part in reversed(relative.parts[:-1]))):
        key = phase_key(name)
        if key is not None:
            return key
    return None


def plan(folder: Path, target: Any, phase_key: PhaseKey) -> list[tuple[Path, Path]]:
    """(source, destination) of every file that rolling back to `target` moves."""
    keep = folder / SUPERSEDED
    number = 1 + max((int(p.name) for p in keep.iterdir() if p.name.isdigit()), default=0) \
        if keep.is_dir() else 1
    moves = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or relative.name in KEPT or KEPT_FOLDERS & set(relative.parts):
            continue
        key = _key_of(relative, phase_key)
        if key is None:
            continue
        is_state_before = relative.parts[0] == "history"
        is_collected = relative.parts[0] == "orders" and len(relative.parts) > 2
        later = key > target if is_state_before or is_collected else key >= target
        if later:
            moves.append((path, keep / str(number) / relative))
    return moves


def roll_back(folder: Path, target: Any, label: str, phase_key: PhaseKey,
              writes: list[tuple[Path, str | bytes]] | None = None) -> list[Path]:
    """Move what `plan` lists, and write `writes` (game.yaml with the phase's
    fresh deadline), in one journalled step; returns the moved files' new places."""
    moves = plan(folder, target, phase_key)
    if not moves:
        raise GameFolderError(f"nothing to roll back: {label} has not been adjudicated", file=str(folder))
    phasecommit.commit(folder, writes or [], moves)
    return [destination for _, destination in moves]
