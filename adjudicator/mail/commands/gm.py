"""The GM's commands by mail, from game.yaml's `gm_contact` with the GM's
password (`adjudicator gm-password GAME` sets it):

    pause              no phase is processed and no reminder sent until `resume`
    resume             the deadline moves on by the time the game stood still
    extend +2d         the deadline moves (or `extend 2030-03-10T18:00+00:00`)
    process            the phase now open is processed at once (the silent are NMR)
    approve ADDRESS    a joiner counts (a game open for sign-up with approve: true)
    refuse ADDRESS     a joiner is taken off the list

Each is written to gm/commands.log with the time and the mail's Message-ID,
and announced to every player (approve and refuse only to the GM: the list
is the GM's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.folder import gmcontrol, schedule
from adjudicator.mail.announce import announce
from adjudicator.mail.commands.base import (
    Asked,
    Command,
    Refused,
    change_meta,
    current_slug,
)
from adjudicator.store import storage

LOG = "gm/commands.log"


def run(asked: Asked, command: Command) -> str:
    word = command.word
    if word in ("approve", "refuse"):
        return decide_joiner(asked, command)
    if word == "pause":
        if gmcontrol.paused_since(asked.meta) is not None:
            raise Refused("the game is paused already")
        return act(asked, command, lambda meta: gmcontrol.paused(meta, asked.now),
                   "The GM has paused the game: no phase is processed and no reminder sent until the GM "
                   "resumes it. Orders are still taken.")
    if word == "resume":
        if gmcontrol.paused_since(asked.meta) is None:
            raise Refused("the game is not paused")
        return act(asked, command, lambda meta: gmcontrol.resumed(meta, asked.now),
                   lambda meta: "The GM has resumed the game; the deadline moved on by the time it stood still"
                   + (f": {asked.ctx.phase} is due by {meta['deadline']}." if meta.get("deadline") else "."),
                   "the deadline moves on by the time the game stood still")
    if word == "extend":
        if len(command.args) != 1:
            raise Refused("write 'extend +2d' (or 'extend 12h', or a time with its zone)")
        change = command.args[0] if command.args[0][:1].isdigit() and "T" in command.args[0] else \
            "+" + command.args[0].lstrip("+")
        extended(asked.meta, change, asked.now)       # checked now; set from game.yaml as it is then
        return act(asked, command, lambda meta: {**meta, "deadline": schedule.format_time(
                       extended(meta, change, asked.now))},
                   lambda meta: f"The GM has moved the deadline for {asked.ctx.phase} to {meta['deadline']}.",
                   f"the deadline moves {change[1:]} later" if change.startswith("+") else
                   f"the deadline moves to {change}")
    if word == "process":
        slug = current_slug(asked.ctx)
        return act(asked, command, lambda meta: gmcontrol.ask_process(meta, slug),
                   f"The GM has asked for {asked.ctx.phase} to be processed now; powers whose orders are not "
                   "in are NMR.")
    raise Refused(f"'{word}' is not a GM command")


def extended(meta: dict[str, Any], change: str, now: Any) -> Any:
    try:
        when = schedule.extend(meta, change, now)
    except AdjudicatorError as exc:
        raise Refused(exc.message + (f" ({exc.hint})" if exc.hint else "")) from None
    if when <= now:
        raise Refused(f"{schedule.format_time(when)} has passed")
    return when


def act(asked: Asked, command: Command, change: Callable[[dict[str, Any]], dict[str, Any]],
        text: str | Callable[[dict[str, Any]], str], said: str | None = None) -> str:
    """Change game.yaml once the mail is taken, log it and announce it (`text`,
    or made from game.yaml as changed)."""
    def effect() -> None:
        changed = change_meta(asked, change)
        log(asked, command)
        told = text(changed) if callable(text) else text
        announce(asked.folder, current_slug(asked.ctx), told, stamp=f"gm {command.word} {asked.letter.key}")
    asked.verdict.effects.append(effect)
    if said is not None or callable(text):
        return f"{command.word}: done ({said or 'see the announcement'}), and announced to every player."
    return f"{command.word}: done, and announced to every player: {text}"


def log(asked: Asked, command: Command) -> None:
    path = asked.folder / LOG
    before = path.read_text(encoding="utf-8") if path.is_file() else ""
    line = f"{asked.now.isoformat(timespec='seconds')} {asked.letter.key} {command.word} {' '.join(command.args)}"
    storage.atomic_write(path, before + line.rstrip() + "\n")


def decide_joiner(asked: Asked, command: Command) -> str:
    from adjudicator.folder import signup
    if len(command.args) != 1:
        raise Refused(f"write '{command.word} ADDRESS'")
    variant = getattr(asked.ctx, "variant", None)
    if signup.settings(asked.meta) is None or variant is None:
        raise Refused("this game takes no sign-up")
    address = command.args[0].strip("<>")
    approve = command.word == "approve"

    def effect() -> None:
        try:
            done = signup.decide(asked.folder, asked.meta, variant, address, approve)
        except signup.SignupRefused:
            return
        log(asked, command)
        if done.filled:
            from adjudicator.folder.folders import game_meta
            asked.ctx.meta = game_meta(asked.folder)
    try:                                # said now, in the reply; done once the mail is taken
        listed = [e for e in signup.read_list(asked.folder) if str(e.get("email", "")).lower() == address.lower()]
        if not listed:
            raise signup.SignupRefused(f"{address} has not joined")
    except signup.SignupRefused as exc:
        raise Refused(str(exc)) from None
    asked.verdict.effects.append(effect)
    return f"{command.word}: {address} {'approved' if approve else 'refused'}."
