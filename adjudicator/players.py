"""The players roster in game.yaml: who plays which power, their email address
and a salted password hash. Passwords are never stored in clear: only
"scrypt$n=..,r=..,p=..$<salt hex>$<hash hex>"."""

from __future__ import annotations

import hashlib
import hmac
import os
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from adjudicator import storage
from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.variant import load_variant

# scrypt with n=2**14 costs ~16 MiB and a few ms: cheap for a judge, dear for a cracker.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1


def hash_password(password: str) -> str:
    if not password:
        raise AdjudicatorError("the password is empty", hint="choose a non-empty password")
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                            dklen=32)
    return f"scrypt$n={SCRYPT_N},r={SCRYPT_R},p={SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify(record: dict[str, Any] | str | None, password: str | None) -> bool:
    """True if password matches the stored hash. record is a player entry or the hash itself."""
    stored = record.get("password_hash") if isinstance(record, dict) else record
    if not stored or password is None:
        return False
    try:
        scheme, params, salt_hex, hash_hex = str(stored).split("$")
        salt, expected = bytes.fromhex(salt_hex), bytes.fromhex(hash_hex)
        opts = dict(kv.split("=") for kv in params.split(","))
        if scheme == "scrypt":
            digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=int(opts["n"]), r=int(opts["r"]),
                                    p=int(opts["p"]), dklen=len(expected))
        elif scheme == "pbkdf2_sha256":
            digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, int(opts["i"]),
                                         dklen=len(expected))
        else:
            return False
    except (ValueError, KeyError):
        return False
    return hmac.compare_digest(digest, expected)


def _load(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    path = folder / "game.yaml"
    meta = storage.read_yaml(path)
    if not isinstance(meta, dict) or "variant" not in meta:
        raise DataFileError("game.yaml has no 'variant'", file=str(path),
                            hint="is this a game folder? create one with 'adjudicator new'")
    players = meta.get("players") or []
    if not isinstance(players, list):
        raise DataFileError("'players' is not a list", file=str(path))
    meta["players"] = players
    return meta, players


def _power_id(meta: dict[str, Any], power: str) -> str:
    variant = load_variant(str(meta["variant"]))
    pid = variant.power_lookup(power)
    if pid is None:
        raise AdjudicatorError(f"no such power {power!r}", hint=variant.power_suggestion(power))
    return pid


def _entry(players: list[dict[str, Any]], pid: str) -> dict[str, Any]:
    for entry in players:
        if isinstance(entry, dict) and entry.get("power") == pid:
            return entry
    entry = {"power": pid, "name": "", "email": "", "password_hash": None}
    players.append(entry)
    return entry


def roster(folder: Path) -> list[dict[str, Any]]:
    """The player entries of game.yaml (dicts with power, name, email, password_hash)."""
    return [p for p in _load(folder)[1] if isinstance(p, dict)]


def add_player(folder: Path, power: str, name: str, email: str, password: str) -> dict[str, Any]:
    meta, players = _load(folder)
    pid = _power_id(meta, power)
    address = parseaddr(email)[1]
    if not address or "@" not in address:
        raise AdjudicatorError(f"not an email address: {email!r}", hint="e.g. alice@example.org")
    for other in players:
        if isinstance(other, dict) and other.get("power") != pid and \
                str(other.get("email", "")).lower() == address.lower():
            # One address per power, or ingest could not tell whose orders a mail holds.
            raise AdjudicatorError(f"{address} already plays {other.get('power')}",
                                   hint="each power needs its own email address")
    entry = _entry(players, pid)
    entry.update(name=name, email=address, password_hash=hash_password(password))
    storage.write_yaml(folder / "game.yaml", meta)
    return entry


def set_password(folder: Path, power: str, password: str) -> None:
    meta, players = _load(folder)
    pid = _power_id(meta, power)
    entry = _entry(players, pid)
    entry["password_hash"] = hash_password(password)
    storage.write_yaml(folder / "game.yaml", meta)


def find_by_email(folder: Path, address: str) -> dict[str, Any] | None:
    address = parseaddr(address)[1].lower()
    if not address:
        return None
    for entry in roster(folder):
        if str(entry.get("email") or "").lower() == address:
            return entry
    return None
