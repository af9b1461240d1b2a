"""Announcements to every player of a game (an absence, the GM's pause,
resume, extension or processing, a resignation): written as a notice of the
phase now open, mail/notices/<phase>/announce-<key>.yaml, so `run` mails it
once to each player (adjudicator.mail.outbox.notices), through the one door
every mail passes, with the deadline that holds. `gm` lines go to the GM's
own address (game.yaml's gm_contact) only."""

from __future__ import annotations

import hashlib
from pathlib import Path

from adjudicator.folder.players import roster
from adjudicator.store import phasecommit, storage
from adjudicator.store.owed import notices_path


def announce(folder: Path, slug: str, text: str, gm: list[str] | None = None, stamp: str = "") -> Path:
    """Tell every player (with an address) `text`; the GM `gm` as well."""
    told = {"players": {str(e["power"]): [text] for e in roster(folder) if e.get("email")}}
    if gm:
        told["gm"] = list(gm)       # type: ignore[assignment]
    key = hashlib.sha256(f"{slug}\0{text}\0{stamp}".encode()).hexdigest()[:16]
    path = notices_path(folder, slug, f"announce-{key}.yaml")
    phasecommit.commit(folder, [(path, storage.dump_yaml(told))])
    return path


def tell_gm(folder: Path, slug: str, lines: list[str], stamp: str = "") -> Path:
    """A notice for the GM alone (no player gets it)."""
    key = hashlib.sha256(f"{slug}\0{stamp}\0".encode() + "\n".join(lines).encode()).hexdigest()[:16]
    path = notices_path(folder, slug, f"gm-{key}.yaml")
    phasecommit.commit(folder, [(path, storage.dump_yaml({"players": {}, "gm": list(lines)}))])
    return path
