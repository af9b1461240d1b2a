"""The players roster in game.yaml: who plays which power, their email address
and a salted password hash. Passwords are never stored in clear.

New hashes are argon2id with OWASP's parameters (m=19456 KiB, t=2, p=1), in
argon2's own "$argon2id$v=19$m=..,t=..,p=..$<salt>$<hash>" form. `verify` still
accepts the older "scrypt$n=..,r=..,p=..$<salt hex>$<hash hex>" and
"pbkdf2_sha256$i=..$<salt hex>$<hash hex>" records; `needs_rehash` says when a
record should be replaced, and `ingest` does that on the player's next good
login (`upgrade_hash`).

Names and addresses are checked when a player is added, because both reach
mail headers: a display name is 1-60 letters, digits, spaces and `.'-`, and
must not look like another player's (the same UTS #39 skeleton, see
store.names); an address is one plain ASCII addr-spec, no control characters.

A password a person chooses has at least MIN_CHOSEN_PASSWORD characters
(`check_chosen_password`, for `player add`, `passwd` and `replace`); one the
judge makes (`generate_password`, the one generator for every command and
mail that hands out a password) has GENERATED_GROUPS groups of four letters
and digits that cannot be mistaken for each other, about 78 bits."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.store import storage
from adjudicator.store.names import (
    ADDRESS_RE,
    MAX_ADDRESS,
    is_address,
    refuse_confusable,
)

# OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane.
ARGON2_TIME_COST, ARGON2_MEMORY_KIB, ARGON2_PARALLELISM = 2, 19456, 1
HASHER = PasswordHasher(time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB,
                        parallelism=ARGON2_PARALLELISM, hash_len=32, salt_len=16, type=Type.ID)

# Letters and digits of any script, spaces and .'- inside; no control characters.
DISPLAY_NAME_RE = re.compile(r"[^\W_](?:[^\W_]|[ .'\-]){0,59}")
DISPLAY_NAME_RULE = "1-60 letters, digits, spaces, '.', \"'\" or '-', starting with a letter or digit"
__all__ = ["ADDRESS_RE", "MAX_ADDRESS", "is_address"]   # re-exported: they moved to store.names

MIN_CHOSEN_PASSWORD = 10
# No 0/O, 1/l/I, 5/S, 2/Z: a password read from a mail and typed again.
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz346789"
GENERATED_GROUPS = 4


def hash_password(password: str) -> str:
    if not password:
        raise AdjudicatorError("the password is empty", hint="choose a non-empty password")
    return HASHER.hash(password)


def generate_password() -> str:
    """A new random password, e.g. 'k7pm-x3qa-9vtd-ewn4' (19 characters)."""
    return "-".join("".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(4)) for _ in range(GENERATED_GROUPS))


def check_chosen_password(password: str) -> str:
    """A password a person chose, if it is long enough; else one clear error.
    Length is what resists guessing; no other rule is imposed."""
    if len(password) < MIN_CHOSEN_PASSWORD:
        raise AdjudicatorError(f"the password has {len(password)} characters; at least {MIN_CHOSEN_PASSWORD} "
                               "are needed", hint="choose a longer one, or leave --password out and add "
                                                  "--generate-password to have the judge make one")
    return password


def _stored(record: dict[str, Any] | str | None) -> str:
    stored = record.get("password_hash") if isinstance(record, dict) else record
    return str(stored) if stored else ""


def verify(record: dict[str, Any] | str | None, password: str | None) -> bool:
    """True if password matches the stored hash. record is a player entry or the hash itself."""
    stored = _stored(record)
    if not stored or password is None:
        return False
    # One mail's password is looked at up to three times in a run (the mail gate before the body
    # is read, at its door, the intake): a match is remembered for the process, by the hash and a
    # digest of the password, so argon2 runs once a mail. A wrong password is never remembered:
    # every guess costs the guesser the whole hash, and is counted.
    seen = (stored, hashlib.sha256(password.encode("utf-8", "surrogatepass")).digest())
    if seen in _MATCHED:
        return True
    if stored.startswith("$argon2"):
        try:
            matched: bool = HASHER.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
    else:
        matched = _verify_legacy(stored, password)
    if matched:
        if len(_MATCHED) >= MAX_MATCHED:
            _MATCHED.clear()
        _MATCHED.add(seen)
    return matched


_MATCHED: set[tuple[str, bytes]] = set()
MAX_MATCHED = 4096


def _verify_legacy(stored: str, password: str) -> bool:
    try:
        scheme, params, salt_hex, hash_hex = stored.split("$")
        salt, expected = bytes.fromhex(salt_hex), bytes.fromhex(hash_hex)
        opts = dict(kv.split("=") for kv in params.split(","))
        if scheme == "scrypt":
            digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=int(opts["n"]), r=int(opts["r"]),
                                    p=int(opts["p"]), dklen=len(expected), maxmem=2 ** 28)
        elif scheme == "pbkdf2_sha256":
            digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, int(opts["i"]),
                                         dklen=len(expected))
        else:
            return False
    except (ValueError, KeyError, OverflowError, MemoryError):
        return False
    return hmac.compare_digest(digest, expected)


def needs_rehash(record: dict[str, Any] | str | None) -> bool:
    """True if the record is not argon2id with today's parameters (call only after a good verify)."""
    stored = _stored(record)
    if not stored.startswith("$argon2id$"):
        return True
    try:
        return HASHER.check_needs_rehash(stored)
    except (InvalidHashError, ValueError):
        return True


def check_display_name(name: str) -> str:
    """The name, stripped, if it is safe in a mail header and a report; else one clear error."""
    clean = name.strip()
    if not DISPLAY_NAME_RE.fullmatch(clean):
        raise AdjudicatorError(f"player name {name!r} is not allowed", hint=f"use {DISPLAY_NAME_RULE}")
    return clean


def check_address(email: str) -> str:
    """The one plain address in `email` ('a@b' or 'Name <a@b>'); anything else is refused."""
    if any(ord(c) < 32 or ord(c) == 127 for c in email):
        raise AdjudicatorError(f"not an email address: {email!r} (control characters)",
                               hint="e.g. alice@example.org")
    found = [addr for _, addr in getaddresses([email]) if addr]
    # The address must stand in the text as given: getaddresses quietly drops spaces and comments.
    if len(found) != 1 or not is_address(found[0]) or found[0] not in email:
        raise AdjudicatorError(f"not one email address: {email!r}", hint="e.g. alice@example.org")
    return found[0]


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


def seat_of(entry: dict[str, Any]) -> str:
    """The seat an entry holds: a power id in Diplomacy, the player's name in
    a turn-file game (whose first entries had only `name`)."""
    return str(entry.get("power") or entry.get("name") or "")


def _power_id(meta: dict[str, Any], power: str, folder: Path) -> str:
    if meta.get("kind") == "turn-file":
        seats = [seat_of(p) for p in meta.get("players") or [] if isinstance(p, dict)]
        if power not in seats:
            raise AdjudicatorError(f"no such player {power!r} in this game", hint=f"players: {', '.join(seats)}")
        return power
    from adjudicator.folder.gamevariant import game_variant
    variant = game_variant(folder, meta)
    pid = variant.power_lookup(power)
    if pid is None:
        raise AdjudicatorError(f"no such power {power!r}", hint=variant.power_suggestion(power))
    return pid


def seat_id(folder: Path, power: str) -> str:
    """The seat a GM names ('France', 'fra', or a card game's player), as game.yaml keeps it."""
    meta, _ = _load(folder)
    return _power_id(meta, power, folder)


def _entry(players: list[dict[str, Any]], pid: str) -> dict[str, Any]:
    for entry in players:
        if isinstance(entry, dict) and seat_of(entry) == pid:
            entry.setdefault("power", pid)
            return entry
    entry = {"power": pid, "name": "", "email": "", "password_hash": None}
    players.append(entry)
    return entry


def roster(folder: Path) -> list[dict[str, Any]]:
    """The player entries of game.yaml (dicts with power, name, email,
    password_hash); `power` is the seat in every kind of game."""
    return [{**p, "power": seat_of(p)} for p in _load(folder)[1] if isinstance(p, dict)]


def add_player(folder: Path, power: str, name: str, email: str, password: str) -> dict[str, Any]:
    meta, players = _load(folder)
    pid = _power_id(meta, power, folder)
    refuse_if_not_playing(folder, meta, pid)
    entry = _seat_player(players, pid, name, email, password)
    storage.write_yaml(folder / "game.yaml", meta)
    return entry


def _seat_player(players: list[dict[str, Any]], pid: str, name: str, email: str,
                 password: str) -> dict[str, Any]:
    """Put a checked player in seat `pid` of the roster (in memory)."""
    name = check_display_name(name)
    address = check_address(email)
    refuse_confusable(name, [str(p.get("name") or "") for p in players
                             if isinstance(p, dict) and seat_of(p) != pid and p.get("name")],
                      "player name")
    for other in players:
        if isinstance(other, dict) and seat_of(other) != pid and \
                str(other.get("email", "")).lower() == address.lower():
            # One address per power, or ingest could not tell whose orders a mail holds.
            raise AdjudicatorError(f"{address} already plays {other.get('power')}",
                                   hint="each power needs its own email address")
    entry = _entry(players, pid)
    entry.update(name=name, email=address, password_hash=hash_password(password))
    return entry


def set_password(folder: Path, power: str, password: str) -> None:
    meta, players = _load(folder)
    pid = _power_id(meta, power, folder)
    entry = _entry(players, pid)
    entry["password_hash"] = hash_password(password)
    storage.write_yaml(folder / "game.yaml", meta)


def upgrade_hash(folder: Path, power: str, password: str) -> bool:
    """After a good login: replace an old-scheme hash with argon2id. False if
    the record changed meanwhile (then it is left alone)."""
    meta, players = _load(folder)
    for entry in players:
        if isinstance(entry, dict) and seat_of(entry) == power:
            if not verify(entry, password) or not needs_rehash(entry):
                return False
            entry["password_hash"] = hash_password(password)
            storage.write_yaml(folder / "game.yaml", meta)
            return True
    return False


def find_by_email(folder: Path, address: str) -> dict[str, Any] | None:
    address = parseaddr(address)[1].lower()
    if not address:
        return None
    for entry in roster(folder):
        if str(entry.get("email") or "").lower() == address:
            return entry
    return None


def refuse_if_not_playing(folder: Path, meta: dict[str, Any], seat: str) -> None:
    """A power the variant's rules have taken out of play (Ambition & Empire's
    civil disorder) takes no new player."""
    if meta.get("kind") == "turn-file":
        return
    from adjudicator.folder.gamefolder import load_current
    _, variant, state, _ = load_current(folder)
    if seat not in variant.rules.playing_powers(variant, state):
        raise AdjudicatorError(f"{variant.power_name(seat)} is out of play (civil disorder) and takes no player")


def remove_player(folder: Path, power: str) -> dict[str, Any]:
    """The seat stays in the game (its units are NMR until someone takes it);
    the player's name, address and password go."""
    meta, players = _load(folder)
    pid = _power_id(meta, power, folder)
    entry = _entry(players, pid)
    if not entry.get("email"):
        raise AdjudicatorError(f"{pid} has no player to remove")
    removed = dict(entry)
    entry.update(email="", password_hash=None)
    if meta.get("kind") != "turn-file":
        entry["name"] = ""
    storage.write_yaml(folder / "game.yaml", meta)
    return removed


def replace_player(folder: Path, power: str, name: str, email: str, password: str,
                   since: str) -> dict[str, Any]:
    """Hand a seat to a new player with a new password. The seat's history
    (its reports, orders and missed phases) stays; the earlier player is
    recorded under `previous` with the phase the change took effect."""
    meta, players = _load(folder)
    pid = _power_id(meta, power, folder)
    refuse_if_not_playing(folder, meta, pid)
    entry = _entry(players, pid)
    old = {"name": entry.get("display_name") or entry.get("name") or "", "email": entry.get("email") or "",
           "until": since}
    entry = _seat_player(players, pid, name, email, password)
    entry["previous"] = [*(entry.get("previous") or []), old]
    storage.write_yaml(folder / "game.yaml", meta)      # one write: the new player and the record together
    return entry
