"""Sign-up: a game opened with `adjudicator new GAME --open N` waits for N
players to join by mail before its first phase opens.

game.yaml says how:

    signup: {seats: 7, assign: preference, approve: false, filled: false}

and gm/signup.yaml (the GM's only) holds the list: each joiner's address,
name, password hash, preference list and whether the GM approved them.

  * `assign: preference` (as the judges do it): the joiners who gave a
    preference list, in a random order, each take the first power on their
    list still free; the others get the powers left, at random.
    `assign: random` ignores the lists.
  * `approve: true`: a joiner counts only once the GM approves them (by mail,
    `approve ADDRESS`, or `adjudicator signup GAME --approve ADDRESS`);
    otherwise every joiner counts at once, and the GM may still refuse one
    before the game fills.
  * When N count, the powers are assigned and the players are seated in
    game.yaml in one step (`filled: true`); the next `run` opens the first
    phase and mails the welcomes.

The random order comes from the game's name and the joiners' addresses, so
the GM can repeat it; the players never see the list. Sign-up is for
Diplomacy games: a card game deals its hands to named players at `new`."""

from __future__ import annotations

import datetime
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.folder import players
from adjudicator.store import phasecommit, storage
from adjudicator.store.names import refuse_confusable

KEY = "signup"
LIST = Path("gm") / "signup.yaml"
ASSIGN = ("preference", "random")
MAX_JOINERS = 200                 # on one game's list, refused included
MAX_PREFERENCES = 20


class SignupRefused(Exception):
    """A join the game cannot take; the text says why, for the reply."""


@dataclass
class Joined:
    entry: dict[str, Any]
    counted: int                  # joiners who count now
    seats: int
    again: bool                   # the address had joined before (this updated it)
    filled: bool                  # this join filled the game


def settings(meta: dict[str, Any], source: str = "game.yaml") -> dict[str, Any] | None:
    value = meta.get(KEY)
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("seats"), int) or isinstance(value.get("seats"), bool):
        raise DataFileError("'signup' must be a mapping with seats (a number)", file=source,
                            hint="e.g. signup: {seats: 7, assign: preference, approve: false}")
    if value.get("assign", "preference") not in ASSIGN or not isinstance(value.get("approve", False), bool):
        raise DataFileError(f"signup: assign must be {' or '.join(ASSIGN)} and approve true or false", file=source)
    return {"assign": "preference", "approve": False, "filled": False, **value}


def is_open(meta: dict[str, Any]) -> bool:
    found = settings(meta)
    return found is not None and not found.get("filled")


def opened(meta: dict[str, Any], variant: Variant, seats: int, assign: str, approve: bool) -> dict[str, Any]:
    """game.yaml's settings for a game open for sign-up (at `new --open N`)."""
    if not 2 <= seats <= len(variant.powers):
        raise AdjudicatorError(f"--open {seats}: {variant.name} has {len(variant.powers)} powers",
                               hint=f"open 2 to {len(variant.powers)} seats")
    if assign not in ASSIGN:
        raise AdjudicatorError(f"--assign {assign!r}", hint=f"use {' or '.join(ASSIGN)}")
    return {**meta, KEY: {"seats": seats, "assign": assign, "approve": approve, "filled": False}}


def read_list(folder: Path) -> list[dict[str, Any]]:
    path = folder / LIST
    data = storage.read_yaml(path) if path.exists() else []
    if not isinstance(data, list):
        raise DataFileError("the sign-up list must be a list", file=str(path))
    return [dict(entry) for entry in data if isinstance(entry, dict)]


def counts(entry: dict[str, Any], approving: bool) -> bool:
    state = entry.get("state")
    return state == "approved" or (not approving and state == "waiting")


def preference_list(variant: Variant, text: str) -> list[str]:
    """Power ids from 'France, Germany, England'; SignupRefused naming a word that is none."""
    found: list[str] = []
    for word in [w.strip() for w in text.replace(";", ",").split(",") if w.strip()][:MAX_PREFERENCES]:
        power = variant.power_lookup(word)
        if power is None:
            raise SignupRefused(f"'{word[:30]}' in your preference list is not a power of {variant.name} "
                                f"({', '.join(variant.power_name(p) for p in variant.powers)})")
        if power not in found:
            found.append(power)
    return found


def join(folder: Path, meta: dict[str, Any], variant: Variant, email: str, name: str, password: str,
         preferences: list[str], now: datetime.datetime) -> Joined:
    """Put the sender on the list (or update their entry); fill the game if
    this join makes N. Writes the list, and game.yaml when it fills."""
    config = settings(meta)
    if config is None or config.get("filled"):
        raise SignupRefused("the game is not open for sign-up: it is full or under way")
    try:
        name = players.check_display_name(name)
        players.check_chosen_password(password)
    except AdjudicatorError as exc:
        raise SignupRefused(exc.message + (f" ({exc.hint})" if exc.hint else "")) from None
    listed = read_list(folder)
    mine = next((e for e in listed if str(e.get("email", "")).lower() == email.lower()), None)
    if mine is not None and mine.get("state") == "refused":
        raise SignupRefused("the GM did not take your sign-up for this game")
    if mine is None and len(listed) >= MAX_JOINERS:
        raise SignupRefused("the sign-up list is full")
    others = [str(e.get("name") or "") for e in listed if e is not mine and e.get("state") != "refused"]
    try:
        refuse_confusable(name, others, "player name")
    except AdjudicatorError as exc:
        raise SignupRefused(f"{exc.message}; choose another with a line 'name: ...'") from None
    entry: dict[str, Any] = mine if mine is not None else {"email": email, "state": "waiting",
                                                           "joined": now.isoformat(timespec="seconds")}
    entry.update(name=name, password_hash=players.hash_password(password), preferences=preferences)
    if mine is None:
        listed.append(entry)
    return settle(folder, meta, variant, listed, entry, again=mine is not None)


def decide(folder: Path, meta: dict[str, Any], variant: Variant, email: str, approve: bool) -> Joined:
    """The GM approves or refuses a joiner (before the game fills)."""
    config = settings(meta)
    if config is None or config.get("filled"):
        raise SignupRefused("the game is not open for sign-up")
    listed = read_list(folder)
    entry = next((e for e in listed if str(e.get("email", "")).lower() == email.lower()), None)
    if entry is None:
        raise SignupRefused(f"{email} has not joined")
    entry["state"] = "approved" if approve else "refused"
    return settle(folder, meta, variant, listed, entry, again=True)


def settle(folder: Path, meta: dict[str, Any], variant: Variant, listed: list[dict[str, Any]],
           entry: dict[str, Any], again: bool) -> Joined:
    config = settings(meta) or {}
    approving = bool(config.get("approve"))
    counted = [e for e in listed if counts(e, approving)]
    writes: list[tuple[Path, str | bytes]] = [(folder / LIST, storage.dump_yaml(listed))]
    filled = len(counted) >= int(config["seats"])
    if filled:
        seated = assign(variant, meta, counted[:int(config["seats"])])
        writes.append((folder / "game.yaml", storage.dump_yaml(seated_meta(meta, seated))))
    phasecommit.commit(folder, writes)
    return Joined(entry, min(len(counted), int(config["seats"])), int(config["seats"]), again, filled)


def assign(variant: Variant, meta: dict[str, Any], joiners: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each joiner's power (see the module docstring)."""
    seed = hashlib.sha256("\0".join([str(meta.get("name") or ""),
                                     *sorted(str(e["email"]).lower() for e in joiners)]).encode()).digest()
    rng = random.Random(seed)
    free = list(variant.powers)
    order = sorted(joiners, key=lambda e: str(e["email"]).lower())
    rng.shuffle(order)
    by_preference = (settings(meta) or {}).get("assign") == "preference"
    first = [e for e in order if by_preference and e.get("preferences")]
    rest = [e for e in order if e not in first]
    seated: dict[str, dict[str, Any]] = {}
    for entry in first:
        power = next((p for p in entry["preferences"] if p in free), None)
        if power is not None:
            seated[power] = entry
            free.remove(power)
        else:
            rest.append(entry)
    for entry in rest:
        power = rng.choice(free)
        seated[power] = entry
        free.remove(power)
    return seated


def seated_meta(meta: dict[str, Any], seated: dict[str, dict[str, Any]]) -> dict[str, Any]:
    changed = dict(meta)
    roster = [dict(p) for p in meta.get("players") or [] if isinstance(p, dict)]
    for power, entry in seated.items():
        found = next((p for p in roster if players.seat_of(p) == power), None)
        if found is None:
            found = {"power": power}
            roster.append(found)
        found.update(name=entry["name"], email=entry["email"], password_hash=entry["password_hash"])
    changed["players"] = roster
    changed[KEY] = {**(settings(meta) or {}), "filled": True}
    return changed

