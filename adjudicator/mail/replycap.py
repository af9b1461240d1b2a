"""Replies to one address are capped: at most MAX_PER_DAY a day (UTC), so a
stranger who forges a player's From address cannot make the judge flood that
player. The mail that reaches the cap is the last answered that day; the GM
is told once, at the cap."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.store import storage

STATE = Path("mail") / "reply-counts.yaml"
MAX_PER_DAY = 20


@dataclass
class ReplyCap:
    folder: Path
    day: str
    counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path, now: datetime) -> ReplyCap:
        path = folder / STATE
        data: Any = storage.read_yaml(path) if path.exists() else {}
        day = now.strftime("%Y-%m-%d")
        kept = data.get(day) if isinstance(data, dict) else None
        counts = {str(k): int(v) for k, v in (kept or {}).items() if isinstance(v, int)}
        return cls(folder, day, counts)

    def take(self, address: str) -> tuple[bool, bool]:
        """(may this reply go, did it just reach the cap)."""
        key = address.lower()
        count = self.counts.get(key, 0)
        if count >= MAX_PER_DAY:
            return False, False
        self.counts[key] = count + 1
        storage.write_yaml(self.folder / STATE, {self.day: self.counts})     # only today's counts are kept
        return True, count + 1 == MAX_PER_DAY
