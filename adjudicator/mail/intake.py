"""What every mail intake shares, whatever the game: the judgement of one
mail (`Verdict`), a refusal (`Rejected`), the game a mail is judged against
(`Context`, filled in per kind of game by ingest and ingest_turns), and when
the current phase opened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any, ClassVar

from adjudicator.mail.mailread import Body, Letter
from adjudicator.store.names import check_name


class Rejected(Exception):
    """A message that must not store anything; the text goes in the reply."""


@dataclass
class Verdict:
    power: str | None
    body: str                        # the reply text
    stored: str | None = None        # the file to store, if accepted
    target: Path | None = None       # where it goes
    reason: str | None = None
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    login: str | None = None         # the password, when its hash should be upgraded
    votes: dict[str, Any] | None = None   # the new secret tally, when the mail held a vote line
    ended: dict[str, Any] | None = None   # the result, when that vote made it unanimous
    new_password: str | None = None  # the player's new password, when the mail changes it
    # What the mail's commands do once it is taken (mail/commands): press sent on, an absence
    # recorded, a GM's pause; each runs after what is stored, and none for a refused mail.
    effects: list[Callable[[], None]] = field(default_factory=list)
    attachments: list[EmailMessage] = field(default_factory=list)   # for the reply (a `history` map)
    answered: bool = False           # the mail's commands were answered (nothing to store is no refusal)


# --- the game a mail is for ----------------------------------------------------------
@dataclass
class Context:
    """What every mail is judged against; read once, before any mail. A kind of
    game fills in `split` (the body's lines) and `decide` (what to store)."""
    folder: Path
    game: str
    opened: datetime | None
    players: dict[str, dict[str, Any]]    # lower-case address -> roster entry
    phase: str                            # the current phase, as players read it
    slug: str                             # ... and as a 'phase:' line names it
    asks_for: ClassVar[str] = "Orders"    # what players send: orders, or a card game's choices
    # game.yaml and the run's clock, for the mail's commands (set by ingest.handle).
    meta: dict[str, Any] = field(default_factory=dict, kw_only=True)
    now: datetime = field(default_factory=lambda: datetime.now(timezone.utc), kw_only=True)

    def seat(self, player: dict[str, Any]) -> str:
        return check_name(str(player.get("power") or ""), "power")

    def split(self, text: str) -> Body:
        raise NotImplementedError

    def phase_named(self, text: str) -> str | None:
        """The slug of the phase a 'phase:' line names, or None if it names none."""
        raise NotImplementedError

    def done(self, slug: str) -> bool:
        """True if that phase has already been adjudicated."""
        raise NotImplementedError

    def decide(self, letter: Letter, power: str, body: Body, verdict: Verdict) -> None:
        """Fill in what to store and the reply, or raise Rejected."""
        raise NotImplementedError


def phase_opened(folder: Path) -> datetime | None:
    """When the current phase opened: the newest mtime in history/ (its files are written once)."""
    times = [p.stat().st_mtime for p in (folder / "history").glob("*.yaml") if p.is_file()]
    return datetime.fromtimestamp(max(times), timezone.utc) if times else None
