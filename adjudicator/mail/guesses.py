"""Password guessing, stopped: wrong passwords are counted per player and per
sending address (the envelope sender where the mail has one, else From).
After MAX_FAILURES within WINDOW, that player's mails (and that address's)
are not read for LOCK_FIRST; each further lock of the same key lasts twice
as long as the one before, up to LOCK_MOST. A locked-out mail is left unread
(not in the ledger), so a real player's mail is read once the lock ends. When
a lock begins, the player gets one notice and the GM is told (see alerts).
A good password clears the player's count. The GM ends a lock with
`adjudicator unlock GAME WHO`.

So a stranger who forges a player's From address can try at most
MAX_FAILURES passwords in any hour: 25 in the first day (locks of 1, 2, 4, 8
and 16 hours), then MAX_FAILURES a day, against a password of at least 10
characters."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.store import storage

STATE = Path("mail") / "guesses.yaml"
MAX_FAILURES = 5
WINDOW = timedelta(hours=1)
LOCK_FIRST = timedelta(hours=1)
LOCK_MOST = timedelta(days=1)


def player_key(power: str) -> str:
    return f"player:{power}"


def address_key(address: str) -> str:
    return f"address:{address.lower()}"


def _time(text: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


@dataclass
class Lock:
    key: str
    until: datetime
    number: int                      # the how-many-th lock of this key


@dataclass
class Guesses:
    folder: Path
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: bool = False

    @classmethod
    def load(cls, folder: Path) -> Guesses:
        path = folder / STATE
        data = storage.read_yaml(path) if path.exists() else {}
        return cls(folder, {str(k): dict(v) for k, v in (data or {}).items() if isinstance(v, dict)})

    def locked_until(self, keys: list[str], now: datetime) -> datetime | None:
        """The end of the latest lock on any of `keys` still in force, or None."""
        ends = [until for key in keys if (until := _time(self.entries.get(key, {}).get("locked_until")))
                and until > now]
        return max(ends, default=None)

    def failed(self, keys: list[str], now: datetime) -> list[Lock]:
        """Count one wrong password against each key; the locks this begins."""
        begun = []
        for key in keys:
            entry = self.entries.setdefault(key, {})
            recent = [t for t in (_time(x) for x in entry.get("failures") or []) if t and now - t < WINDOW]
            recent.append(now)
            entry["failures"] = [t.isoformat() for t in recent]
            if len(recent) >= MAX_FAILURES:
                number = int(entry.get("locks") or 0) + 1
                until = now + min(LOCK_FIRST * 2 ** (number - 1), LOCK_MOST)
                entry.update(locks=number, locked_until=until.isoformat(), failures=[])
                begun.append(Lock(key, until, number))
        self.changed = True
        return begun

    def succeeded(self, power: str) -> None:
        entry = self.entries.get(player_key(power))
        if entry and entry.get("failures"):
            entry["failures"] = []
            self.changed = True

    def save(self) -> None:
        if self.changed:
            storage.write_yaml(self.folder / STATE, self.entries)
            self.changed = False


def unlock(folder: Path, who: str) -> str:
    """End the locks on a power, a player or an address (the GM's command)."""
    state = Guesses.load(folder)
    keys = [key for key in state.entries if key.split(":", 1)[1] == who.lower() or key.split(":", 1)[1] == who]
    if not keys:
        raise AdjudicatorError(f"no lock or wrong password recorded for {who!r}",
                               hint="give a power (as in game.yaml), a player or an address")
    for key in keys:
        state.entries[key].update(failures=[], locked_until=None)
    state.changed = True
    state.save()
    return f"unlocked {', '.join(sorted(keys))}"
