"""The keyed seal of a game's history: HMAC-SHA256 under a secret of the GM's.

A game folder has two seals, which protect different things:

  * the checksum line that ends every state file (`storage.seal`) is public:
    anyone can compute it again. It proves that a file is whole (not cut short,
    not damaged), and it is what a player's offline `check --state` reads. It
    does not prove who wrote the file: an edited file with its line computed
    again passes it.
  * the keyed seal: `gm/seal.key` holds 32 random bytes (made with the game's
    first history file, readable by the GM only), and `gm/seals.txt` holds,
    for every `history/<phase>.yaml`, HMAC-SHA256(key, file name, NUL, the
    file's bytes). A history file edited by hand (even with its checksum line
    computed again), renamed, copied from another game or added is refused by
    every command that reads it. Only someone who can read `gm/` can seal a
    file; `adjudicator seal GAME` seals the history as it stands after the
    GM's own deliberate repair.

A game made before the keyed seal has no key; its first phase written since
seals every history file it has then (trust on first use)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from adjudicator.errors import DataFileError

KEY = Path("gm") / "seal.key"
SEALS = Path("gm") / "seals.txt"


def is_history(relative: Path) -> bool:
    """A game's own history file (not a superseded copy)."""
    return len(relative.parts) == 2 and relative.parts[0] == "history" and relative.suffix == ".yaml"


def mac(key: bytes, name: str, data: bytes) -> str:
    return hmac.new(key, name.encode("utf-8") + b"\0" + data, hashlib.sha256).hexdigest()


def read_key(folder: Path) -> bytes | None:
    path = folder / KEY
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeError) as exc:
        raise DataFileError(f"cannot read the game's seal key: {exc}", file=str(path),
                            hint="gm/seal.key must stay as the judge wrote it") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise DataFileError("the game's seal key is damaged", file=str(path),
                            hint="restore gm/seal.key from a backup, or remove it and run 'adjudicator seal GAME'")
    return key


def read_seals(folder: Path) -> dict[str, str]:
    path = folder / SEALS
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    seals = {}
    for line in lines:
        digest, _, name = line.partition(" ")
        if name:
            seals[name] = digest
    return seals


def seals_text(seals: dict[str, str]) -> str:
    return "".join(f"{digest} {name}\n" for name, digest in sorted(seals.items()))


def sealing_writes(folder: Path, writes: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
    """What to add to a commit whose `writes` (paths relative to the folder)
    hold history files: the updated seals, and the key if the game has none."""
    history = [(relative, data) for relative, data in writes if is_history(relative)]
    if not history:
        return []
    key = read_key(folder)
    extra: list[tuple[Path, bytes]] = []
    seals = read_seals(folder)
    if key is None:
        key = secrets.token_bytes(32)
        extra.append((KEY, key.hex().encode("ascii") + b"\n"))
        seals = {}
        for path in sorted((folder / "history").glob("*.yaml")):    # a game older than the keyed seal
            if path.is_file() and not path.is_symlink():
                seals[path.name] = mac(key, path.name, path.read_bytes())
    for relative, data in history:
        seals[relative.name] = mac(key, relative.name, data)
    extra.append((SEALS, seals_text(seals).encode("utf-8")))
    return extra


def check_history(path: Path, text: str) -> None:
    """Refuse a game's history file that its keyed seal does not cover."""
    if path.parent.name != "history":
        return
    folder = path.parent.parent
    key = read_key(folder)
    if key is None:
        return
    expected = read_seals(folder).get(path.name)
    if expected is None or not hmac.compare_digest(expected, mac(key, path.name, text.encode("utf-8"))):
        raise DataFileError("this history file is not the one the judge wrote: it does not match the game's "
                            "keyed seal (edited, renamed, copied from elsewhere or added by hand)", file=str(path),
                            hint="restore it from a backup; if the GM changed it on purpose, "
                                 "'adjudicator seal GAME' seals the history as it is now")


def reseal(folder: Path) -> list[str]:
    """Seal every history file as it is now (the GM's command after a deliberate
    repair). Each must still be whole: its public checksum is checked first."""
    from adjudicator.store import phasecommit, storage
    files = sorted(p for p in (folder / "history").glob("*.yaml") if p.is_file())
    if not files:
        raise DataFileError("no history files to seal", file=str(folder / "history"))
    key = read_key(folder) or secrets.token_bytes(32)
    seals = {}
    for path in files:
        storage.unseal(storage.read_text(path, what="state file"), str(path))
        seals[path.name] = mac(key, path.name, path.read_bytes())
    phasecommit.commit(folder, [(folder / KEY, key.hex() + "\n"), (folder / SEALS, seals_text(seals))])
    return sorted(seals)
