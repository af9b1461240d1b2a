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

Mail goes through a `Mailer`; `adjudicator.mailer` has the real one (IMAP or
a mailbox file in, SMTP out), and a run without mail settings only adjudicates."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from adjudicator import phasecommit, schedule, storage
from adjudicator.gamemeta import check_meta

REMINDERS = Path("mail") / "reminders.yaml"      # which reminders were sent, per phase


class Mailer(Protocol):
    def fetch(self, folder: Path, now: datetime.datetime) -> list[str]:
        """Ingest new mail and send the replies; lines for the GM."""

    def send_results(self, folder: Path, now: datetime.datetime) -> list[str]:
        """Mail the newest phase's results (or opening reports) to every player."""

    def send_reminder(self, folder: Path, seats: list[str], text: str, now: datetime.datetime) -> list[str]:
        """Mail `text` to the players of `seats`."""


@dataclass
class Waiting:
    """Where the game stands: the phase, who must still order, and by when."""

    phase: str
    waiting: list[str]
    received: list[str]
    over: bool = False
    labels: dict[str, str] = field(default_factory=dict)

    def names(self, seats: list[str]) -> str:
        return ", ".join(self.labels.get(s, s) for s in seats) or "nobody"


def standing(folder: Path, meta: dict[str, Any]) -> Waiting:
    if meta.get("kind") == "turn-file":
        return turn_file_standing(folder)
    from adjudicator.gamefolder import collected_files, load_current
    _, variant, state, _ = load_current(folder)
    if state.result:
        return Waiting(state.phase.slug, [], [], over=True)
    have = {p.stem for p in collected_files(folder, state.phase)}
    expected = schedule.must_order(variant, state)
    labels = {p: variant.power_name(p) for p in variant.powers}
    return Waiting(state.phase.slug, [p for p in expected if p not in have],
                   [p for p in expected if p in have], labels=labels)


def turn_file_standing(folder: Path) -> Waiting:
    from adjudicator.cards import driver
    game, state, index, _ = driver.current(folder)
    info = game.phase(state)
    if info is None:
        return Waiting("the end", [], [], over=True)
    have = sorted(p.stem for p in driver.collected_dir(folder, index, info).glob("*.yaml"))
    return Waiting(f"{index:04d}-{info.name}", [p for p in info.waiting_for if p not in have], have)


def adjudicate_now(folder: Path, meta: dict[str, Any]) -> list[Path]:
    """Adjudicate with what was collected; the missing are NMR."""
    if meta.get("kind") == "turn-file":
        from adjudicator.cards import driver
        return driver.adjudicate(folder, None, nmr=True)
    from adjudicator import gamefolder
    from adjudicator.cli import diplomacy_folders
    diplomacy_folders()                   # the map output hook
    return gamefolder.adjudicate(folder, None, nmr=True).written


def next_kind(folder: Path, meta: dict[str, Any]) -> str:
    """The kind of the phase now open, for its length in the schedule."""
    if meta.get("kind") == "turn-file":
        return "movement"                 # one length for every turn of a card game
    from adjudicator.gamefolder import load_current
    return load_current(folder)[2].phase.kind


def set_deadline(folder: Path, when: datetime.datetime | None) -> None:
    path = folder / "game.yaml"
    meta = check_meta(storage.read_yaml(path), str(path))
    meta["deadline"] = schedule.format_time(when) if when else None
    phasecommit.commit(folder, [(path, storage.dump_yaml(meta))])


def due_reminders(folder: Path, meta: dict[str, Any], stand: Waiting,
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


def run_once(folder: Path, now: datetime.datetime, mailer: Mailer | None) -> list[str]:
    """One step of the game (see the module docstring); lines for the GM's log."""
    log: list[str] = []
    if mailer is not None:
        log += mailer.fetch(folder, now)
    meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    stand = standing(folder, meta)
    if stand.over:
        return log + ["the game is over; nothing to do"]
    deadline = schedule.deadline_of(meta)
    grace = schedule.parse_duration(schedule.schedule(meta)["grace"])
    late = deadline is not None and now >= deadline + grace
    if not stand.waiting or late:
        why = "every order is in" if not stand.waiting else \
            f"the deadline has passed; NMR: {stand.names(stand.waiting)}"
        written = adjudicate_now(folder, meta)
        log.append(f"adjudicated {stand.phase} ({why}); {len(written)} files written")
        new_meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
        if not standing(folder, new_meta).over:
            opens = schedule.next_deadline(new_meta, next_kind(folder, new_meta), now)
            set_deadline(folder, opens)
            log.append(f"next deadline: {schedule.format_time(opens)}")
        else:
            set_deadline(folder, None)
        if mailer is not None:
            log += mailer.send_results(folder, now)
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
