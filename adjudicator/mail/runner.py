"""`adjudicator run GAME`: one step of a running game, safe to run from cron.

Each run, under the game's lock:
  1. fetches new mail, ingests it and sends the replies (if a mail source is set);
  2. adjudicates when every power (or player) with something to do has its
     orders in, or when the deadline plus grace has passed (the missing are
     NMR and the report says so); then mails the results and sets the next
     deadline from the schedule in game.yaml;
  3. otherwise sends the reminders that are due, once each.
A run with nothing new does nothing and says so. The clock is a parameter,
so tests (and a GM replaying a day) can run it at any time.

Mail goes through a `Mailer`; `adjudicator.mail.mailer` has the real one (IMAP or
a mailbox file in, SMTP out), and a run without mail settings only adjudicates."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Protocol

from adjudicator.folder import schedule
from adjudicator.folder.endreport import END_REPORT
from adjudicator.folder.folders import Standing, game_meta, open_game
from adjudicator.store import phasecommit, storage
from adjudicator.store.gamemeta import check_meta

REMINDERS = Path("mail") / "reminders.yaml"      # which reminders were sent, per phase
ENDED_MAILED = Path("mail") / "end-mailed.txt"   # when the end-of-game report was mailed


class Mailer(Protocol):
    def fetch(self, folder: Path, now: datetime.datetime) -> list[str]:
        """Ingest new mail and send the replies; lines for the GM."""

    def send_results(self, folder: Path, now: datetime.datetime) -> list[str]:
        """Mail the newest phase's results (or opening reports) to every player."""

    def send_reminder(self, folder: Path, seats: list[str], text: str, now: datetime.datetime) -> list[str]:
        """Mail `text` to the players of `seats`."""

    def send_end(self, folder: Path, text: str, now: datetime.datetime) -> list[str]:
        """Mail the end-of-game report to every player."""


def set_deadline(folder: Path, when: datetime.datetime | None) -> None:
    path = folder / "game.yaml"
    meta = check_meta(storage.read_yaml(path), str(path))
    meta["deadline"] = schedule.format_time(when) if when else None
    phasecommit.commit(folder, [(path, storage.dump_yaml(meta))])


def due_reminders(folder: Path, meta: dict[str, Any], stand: Standing,
                  deadline: datetime.datetime, now: datetime.datetime) -> list[str]:
    """The reminder offsets (as written in the schedule) due now and not yet sent this phase."""
    sent = storage.read_yaml(folder / REMINDERS) if (folder / REMINDERS).exists() else {}
    done = set((sent or {}).get(stand.phase) or [])
    return [r for r in schedule.schedule(meta)["reminders"] or []
            if str(r) not in done and now >= deadline - schedule.parse_duration(r)]


def record_reminders(folder: Path, phase: str, offsets: list[str]) -> None:
    path = folder / REMINDERS
    sent = dict(storage.read_yaml(path) or {}) if path.exists() else {}
    sent[phase] = sorted({*(sent.get(phase) or []), *map(str, offsets)})
    phasecommit.commit(folder, [(path, storage.dump_yaml(sent))])


def end_of_game(folder: Path, now: datetime.datetime, mailer: Mailer | None) -> list[str]:
    """Mail reports/end.txt once, however the game ended (a victory, a vote, `end`)."""
    report = folder / END_REPORT
    mailed = folder / ENDED_MAILED
    if mailer is None or not report.exists() or mailed.exists():
        return ["the game is over; nothing to do"]
    log = mailer.send_end(folder, report.read_text(encoding="utf-8"), now)
    phasecommit.commit(folder, [(mailed, schedule.format_time(now) + "\n")])
    return log + ["the game is over; the end-of-game report was mailed"]


def run_once(folder: Path, now: datetime.datetime, mailer: Mailer | None) -> list[str]:
    """One step of the game (see the module docstring); lines for the GM's log."""
    log: list[str] = []
    game = open_game(folder)
    if mailer is not None and not game.standing().over:      # a finished game takes no more mail
        log += mailer.fetch(folder, now)
    meta = game_meta(folder)
    stand = game.standing()
    if stand.over:
        return log + end_of_game(folder, now, mailer)
    deadline = schedule.deadline_of(meta)
    grace = schedule.parse_duration(schedule.schedule(meta)["grace"])
    late = deadline is not None and now >= deadline + grace
    if not stand.waiting or late:
        why = "every order is in" if not stand.waiting else \
            f"the deadline has passed; NMR: {stand.names(stand.waiting)}"
        written = game.adjudicate(None, nmr=True)
        log.append(f"adjudicated {stand.phase} ({why}); {len(written.paths)} files written")
        if not game.standing().over:
            opens = schedule.next_deadline(game_meta(folder), game.opening_kind(), now)
            set_deadline(folder, opens)
            log.append(f"next deadline: {schedule.format_time(opens)}")
        else:
            set_deadline(folder, None)
        if mailer is not None:
            log += mailer.send_results(folder, now)
        if game.standing().over:
            log += end_of_game(folder, now, mailer)
        return log
    if deadline is not None:
        offsets = due_reminders(folder, meta, stand, deadline, now)
        if offsets and mailer is not None:
            text = (f"Reminder: orders for {stand.phase} are due by {schedule.format_time(deadline)}. "
                    "We have not received yours yet.")
            log += mailer.send_reminder(folder, stand.waiting, text, now)
            record_reminders(folder, stand.phase, offsets)
            log.append(f"reminded {stand.names(stand.waiting)}")
            return log
    until = f" until {schedule.format_time(deadline + grace)}" if deadline else " (no deadline set)"
    return log + [f"nothing to do: waiting for {stand.names(stand.waiting)}{until}"]
