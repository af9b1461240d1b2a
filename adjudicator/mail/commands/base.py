"""What every mail command shares: a command line as read (`Command`), a
press block (`PressBlock`), everything a mail says besides orders (`Said`),
the mail it came in (`Asked`), a refusal (`Refused`), and the list of what a
sender may use in this game (`allowed`, for the one line a forbidden or
unknown command gets)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.mail.intake import Context, Verdict
from adjudicator.mail.mailread import Letter


class Refused(Exception):
    """A command that cannot be done; the text (one line) says why, for the reply."""


@dataclass(frozen=True)
class Command:
    word: str                        # lower-case: 'status', 'history', 'absence', 'pause', ...
    args: tuple[str, ...]
    line: int                        # 1-based, in the mail's body


@dataclass(frozen=True)
class PressBlock:
    to: tuple[str, ...] | None       # the names after 'press to', or None for 'broadcast:'
    text: str
    line: int
    reply_of: int | None = None      # the press (its number in gm/press/) this one answers


@dataclass
class Said:
    """What a mail says besides orders: commands and press, in the order they came."""
    items: list[Command | PressBlock] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # lines that looked like commands and are not
    rest: str = ""                   # the body with those lines blanked (line numbers hold)
    reply_press: PressBlock | None = None   # a reply to a press mail: its text goes back (see commands.press)

    def __bool__(self) -> bool:
        return bool(self.items or self.problems or self.reply_press)


@dataclass
class Asked:
    """One mail's commands being answered."""
    ctx: Context
    letter: Letter
    seat: str                        # the sender's power (or a card game's player); 'gm' for the GM
    verdict: Verdict
    secrets: tuple[str, ...] = ()    # the mail's password and new password: never passed on
    done: dict[str, int] = field(default_factory=dict)   # how often each command ran in this mail

    def count(self, word: str) -> int:
        """How often `word` ran in this mail before, counting this time."""
        self.done[word] = self.done.get(word, 0) + 1
        return self.done[word] - 1

    @property
    def folder(self) -> Path:
        return self.ctx.folder

    @property
    def meta(self) -> dict[str, Any]:
        return self.ctx.meta

    @property
    def now(self) -> datetime:
        return self.ctx.now

    def masked(self, text: str) -> str:
        for secret in self.secrets:
            if secret and len(secret) >= 4:
                text = text.replace(secret, "********")
        return text


def is_card_game(ctx: Context) -> bool:
    return ctx.meta.get("kind") == "turn-file"


def current_slug(ctx: Context) -> str:
    """The phase now open as its files are named: '1901-spring-movement', '0003-age1-turn2'."""
    index = getattr(ctx, "index", None)
    return f"{index:04d}-{ctx.slug}" if isinstance(index, int) else ctx.slug


def seat_label(ctx: Context, seat: str) -> str:
    variant = getattr(ctx, "variant", None)
    return str(variant.power_name(seat)) if variant is not None and seat in variant.powers else seat


def allowed(ctx: Context, gm: bool) -> str:
    """What this sender may send in this game, for a forbidden or unknown command's line."""
    from adjudicator.folder.gameoptions import absence_limits, press_mode
    if gm:
        return ("the GM's commands are: pause, resume, extend +2d (or a time), process, status, "
                "approve ADDRESS, refuse ADDRESS")
    words = ["orders", "status", "history [PHASE]"]
    mode = press_mode(ctx.meta)
    if mode in ("white", "grey"):
        words.append("press to POWER, POWER: ... endpress")
    if mode != "none":
        words.append("broadcast: ... endpress")
    if absence_limits(ctx.meta) is not None:
        words.append("absence FROM TO")
    if not is_card_game(ctx):
        words += ["wait", "ready", "clear", "vote ..."]
    words += ["resign", "new password: ...", "help"]
    return "the commands are: " + ", ".join(words)


def change_meta(asked: Asked, change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """game.yaml as it is on disk now, changed and written in one step; the
    mail's context sees the new one (so the next mail of the run does too)."""
    from adjudicator.folder.folders import game_meta
    from adjudicator.store import phasecommit, storage
    folder = asked.folder
    changed = change(game_meta(folder))
    phasecommit.commit(folder, [(folder / "game.yaml", storage.dump_yaml(changed))])
    asked.ctx.meta = changed
    return changed
