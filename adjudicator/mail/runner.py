"""`adjudicator run GAME`: one step of a running game, safe to run from cron.

Each run, under the game's lock:
  1. fetches new mail, ingests it and sends the replies (if a mail source is set);
  2. opens the first phase if no deadline is set yet: the deadline is the
     phase's length from the schedule, from now;
  3. adjudicates when every power (or player) with something to do has its
     orders in, or when the deadline plus grace has passed (the missing are
     NMR and the report says so). The next phase opens now: its deadline
     comes from the schedule, and the reports name it, so every results mail
     asks for orders by the deadline that holds (it lands in game.yaml with
     the phase, in one step);
  4. mails what is owed (adjudicator.mail.outbox): welcomes, the newest
     results, notices, the end-of-game mail; each once;
  5. otherwise sends the reminders that are due, once each. A reminder whose
     moment falls before the phase opened (a 24-hour reminder in a one-day
     phase) is skipped, never sent late, and none is sent once the deadline
     has passed.
While the GM has paused the game, or it waits for its players to sign up
(folder.gmcontrol.held), mail is taken and what is owed is mailed, but no
phase opens or is processed and no reminder goes; a `process` the GM asked
for (by mail) processes the phase now open at once.
A run with nothing new does nothing and says so. The clock is a parameter,
so tests (and a GM replaying a day) can run it at any time.

Mail goes through a `Mailer`; `adjudicator.mail.mailer` has the real one (IMAP or
a mailbox file in, SMTP out), and a run without mail settings only adjudicates."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from adjudicator.folder import gmcontrol as holds
from adjudicator.folder import schedule
from adjudicator.folder.folders import GameFolder, Standing, game_meta, open_game
from adjudicator.mail import outbox
from adjudicator.store import phasecommit, storage

REMINDERS = Path("mail") / "reminders.yaml"      # which reminders were sent, per phase


class Mailer(Protocol):
    @property
    def sends(self) -> bool:
        """True if `deliver` sends (an SMTP server is set); else mails wait in mail/."""

    def fetch(self, folder: Path, now: datetime.datetime) -> list[str]:
        """Ingest new mail and send the replies; lines for the GM."""

    def deliver(self, folder: Path, paths: list[Path], what: str) -> tuple[list[str], list[Path]]:
        """Send the written mails; (lines for the GM, the mails sent)."""


def set_deadline(folder: Path, when: datetime.datetime | None, opened: datetime.datetime | None) -> None:
    meta = game_meta(folder)
    phasecommit.commit(folder, [(folder / "game.yaml", storage.dump_yaml(schedule.with_deadline(meta, when, opened)))])


def reminder_record(folder: Path) -> dict[str, Any]:
    path = folder / REMINDERS
    sent = storage.read_yaml(path) if path.exists() else {}
    return dict(sent) if isinstance(sent, dict) else {}


def due_reminders(folder: Path, meta: dict[str, Any], stand: Standing,
                  deadline: datetime.datetime, now: datetime.datetime) -> tuple[list[str], list[str]]:
    """(the reminder offsets due now, those skipped because their moment fell
    before the phase opened), of the ones not yet handled this phase."""
    done = set(reminder_record(folder).get(phase_key(meta, stand)) or [])
    opened = schedule.opened_of(meta)
    due: list[str] = []
    skipped: list[str] = []
    for offset in schedule.schedule(meta)["reminders"] or []:
        moment = deadline - schedule.parse_duration(offset)
        if str(offset) in done or now < moment:
            continue
        (skipped if opened is not None and moment <= opened else due).append(str(offset))
    return due, skipped


def phase_key(meta: dict[str, Any], stand: Standing) -> str:
    """The reminders' record is per phase and per opening: a phase opened
    again by a rollback gets its reminders again."""
    opened = meta.get("opened")
    return f"{stand.phase} {opened}" if opened else stand.phase


def record_reminders(folder: Path, key: str, offsets: list[str]) -> None:
    sent = reminder_record(folder)
    sent[key] = sorted({*(sent.get(key) or []), *offsets})
    phasecommit.commit(folder, [(folder / REMINDERS, storage.dump_yaml(sent))])


def deliver_owed(folder: Path, now: datetime.datetime, mailer: Mailer, stand: Standing) -> tuple[list[str], bool]:
    """Write and send everything the players are owed, in the order they
    would read it: welcomes, results, notices, the end of the game; (lines
    for the GM, whether end-of-game mails were written or sent now)."""
    from adjudicator.mail.welcome import sent as welcomes_sent
    log: list[str] = []
    post = outbox.look(folder, mailer.sends)
    if not stand.over:                   # a newcomer to a finished game has nothing to play
        lines, went = mailer.deliver(folder, outbox.welcomes(post, now), "welcomes")
        welcomes_sent(folder, went)
        log += lines
    slug, paths = outbox.results(post, now)
    log += mailer.deliver(folder, paths, f"results of {slug}")[0]
    log += mailer.deliver(folder, outbox.notices(post, now, stand.phase), "notices")[0]
    ended = outbox.end_mails(post, now) if stand.over else []
    log += mailer.deliver(folder, ended, "end-of-game mails")[0]
    return log, bool(ended)


def remind(folder: Path, meta: dict[str, Any], stand: Standing, deadline: datetime.datetime,
           now: datetime.datetime, mailer: Mailer | None) -> list[str]:
    due, skipped = due_reminders(folder, meta, stand, deadline, now)
    log = []
    if skipped:
        record_reminders(folder, phase_key(meta, stand), skipped)
        log.append(f"skipped the {', '.join(skipped)} reminder: its moment fell before "
                   f"{outbox.phase_label(meta, stand.phase)} opened")
    if not due or mailer is None or now >= deadline:
        if due:
            record_reminders(folder, phase_key(meta, stand), due)
        return log
    label = outbox.phase_label(meta, stand.phase)
    text = schedule.due_line(meta, label, now, "Choices" if meta.get("kind") == "turn-file" else "Orders")
    texts = {seat: f"Reminder: {text} {why}\n" for seat in stand.waiting if (why := reminder_reason(stand, seat))}
    paths, new = outbox.to_players(outbox.look(folder, mailer.sends), texts, f"Reminder: {label}", now,
                                   f"reminder {phase_key(meta, stand)} {' '.join(due)}")
    log += mailer.deliver(folder, outbox.unsent(folder, paths, mailer.sends, new), "reminders")[0]
    record_reminders(folder, phase_key(meta, stand), due)
    return log + ([f"reminded {stand.names(list(texts))}"] if texts else [])


def reminder_reason(stand: Standing, seat: str) -> str:
    """Why a seat that is not in is reminded; empty if it is not: a power
    whose set is whole but which said 'wait' has sent its orders."""
    lacking = stand.lacking.get(seat) or []
    if seat not in stand.received:
        return "We have not received yours yet."
    if seat in stand.holding and not lacking:
        return ""
    if lacking:
        return f"Yours are not complete yet: {'; '.join(lacking)} (send 'ready' to be counted in as you are)."
    return "Yours are not in yet."


def adjudicate(game: GameFolder, meta: dict[str, Any], stand: Standing, now: datetime.datetime) -> list[str]:
    folder = game.path
    # Not in at the deadline: a power that sent nothing is NMR; one whose set
    # lacks orders is taken as it stands; one that said 'wait' with a whole set is simply in.
    silent = [seat for seat in stand.waiting if seat not in stand.received]
    short = [seat for seat in stand.waiting if seat in stand.received and stand.lacking.get(seat)]
    said = ([f"NMR: {stand.names(silent)}"] if silent else []) + \
        ([f"as they stand: {stand.names(short)}"] if short else [])
    cause = "the GM asked for it" if holds.process_asked(meta, stand.phase) else "the deadline has passed"
    why = "every order is in" if not stand.waiting else "; ".join([cause, *said])
    written = game.adjudicate(None, nmr=True, opens=now, deadline=schedule.from_schedule(meta, now))
    log = [f"adjudicated {stand.phase} ({why}); {len(written.paths)} files written"]
    deadline = schedule.deadline_of(game_meta(folder))
    if deadline is not None:
        log.append(f"next deadline: {schedule.format_time(deadline)}")
    return log


def run_once(folder: Path, now: datetime.datetime, mailer: Mailer | None) -> list[str]:
    """One step of the game (see the module docstring); lines for the GM's log."""
    return step(folder, now, mailer).lines


@dataclass
class Step:
    lines: list[str]
    over: bool                       # the game is over: it takes no more mail


def step(folder: Path, now: datetime.datetime, mailer: Mailer | None) -> Step:
    """One step of the game, and whether it is over (for a host of games)."""
    log: list[str] = []
    game = open_game(folder)
    stand = game.standing()
    if mailer is not None and not stand.over:      # a finished game takes no more mail
        log += mailer.fetch(folder, now)
        stand = game.standing()                     # the mail may have brought orders, or a vote that ended it
    meta = game_meta(folder)
    held = holds.held(meta, stand.phase)             # sign-up not full, or the GM's pause: the clock stands
    if held is not None and not stand.over:
        if mailer is not None:
            log += deliver_owed(folder, now, mailer, stand)[0]
        return Step(log + [f"nothing to do: {held}"], False)
    acted = False
    if not stand.over and meta.get("deadline") is None:
        opens = schedule.next_deadline(meta, game.opening_kind(), now)
        set_deadline(folder, opens, now)
        log.append(f"{outbox.phase_label(meta, stand.phase)} opens now; deadline: {schedule.format_time(opens)}")
        meta = game_meta(folder)
    deadline = schedule.deadline_of(meta)
    grace = schedule.parse_duration(schedule.schedule(meta)["grace"])
    if not stand.over and (not stand.waiting or (deadline is not None and now >= deadline + grace)
                           or holds.process_asked(meta, stand.phase)):
        log += adjudicate(game, meta, stand, now)
        acted = True
        stand, meta = game.standing(), game_meta(folder)
    ended = False
    if mailer is not None:
        lines, ended = deliver_owed(folder, now, mailer, stand)
        log += lines
    if stand.over:
        return Step(log + ["the game is over; " + ("the end-of-game report was mailed" if ended else
                                                   "the results are out" if acted else "nothing to do")], True)
    if acted:
        return Step(log, False)
    if deadline is not None:
        reminded = remind(folder, meta, stand, deadline, now, mailer)
        if any(line.startswith("reminded") for line in reminded):
            return Step(log + reminded, False)
        log += reminded
    until = f" until {schedule.format_time(deadline + grace)}" if deadline else " (no deadline set)"
    return Step(log + [f"nothing to do: waiting for {stand.names(stand.waiting)}{until}"], False)
