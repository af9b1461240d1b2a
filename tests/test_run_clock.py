# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""`adjudicator run` tick by tick over real servers (players' mails APPENDed
to Dovecot, read over IMAP; the judge's mails caught by aiosmtpd), with an
injected clock, as cron would run it. After every tick, each new mail is
checked against what `run` set: the deadline a mail names is the one of the
phase it asks orders for (a reply: the phase the player wrote for; every
other mail: the phase open when it was sent), and it lies after the mail's
Date; no reminder is sent before its phase opened, or for a moment that fell
before it. On the way: welcomes, replies, a reminder, an NMR with its notice,
a phase gone at once when all are in, a reminder skipped, a whole phase NMR,
a rollback with a fresh deadline and a corrected results mail, and a
replacement player's welcome."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
import yaml
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from runbymail import JUDGE, PASSWORDS, T0, address, cli_ok, named_deadline, run

from adjudicator.folder.schedule import parse_duration, parse_time

SPRING = {"austria": "A vie - gal\nF tri - alb\nA bud - ser", "england": "F lon - nth\nF edi - nwg\nA lvp - yor",
          "france": "A par - bur\nF bre - mao\nA mar - spa", "germany": "A ber - kie\nF kie - den\nA mun - ruh",
          "italy": "A ven - pie\nF nap - ion\nA rom - apu",
          "russia": "A mos - ukr\nF sev - bla\nA war - gal\nF stp/sc - bot"}
FALL = {"austria": "A vie H\nF alb - gre\nA ser H", "england": "F nwg - nwy\nF nth - bel\nA yor H",
        "france": "A bur H\nF mao - por\nA spa H", "germany": "F den H\nA kie - hol\nA ruh H",
        "italy": "A pie H\nF ion - tun\nA apu H", "russia": "A ukr - rum\nF bla H\nA war H\nF bot - swe",
        "turkey": "F ank H\nA con H\nA smy H"}
REMINDERS = ("24h", "1h")


@dataclass
class Tick:
    now: datetime
    before: str | None             # the deadline when the run began (replies name it)
    after: str | None              # the deadline when it ended (every other mail names it)
    opened: datetime | None        # when the phase open at the end opened
    mails: list[tuple[str, EmailMessage]]


class Clock:
    """Runs the game and keeps, for every tick, what it set and what it sent."""

    def __init__(self, game: Path, dovecot: Dovecot, inbox: SmtpInbox) -> None:
        self.game, self.dovecot, self.inbox = game, dovecot, inbox
        self.seen: dict[str, int] = {}
        self.ticks: list[Tick] = []

    def meta(self) -> dict:
        return dict(yaml.safe_load((self.game / "game.yaml").read_text(encoding="utf-8")))

    def post(self, orders: dict[str, str], when: datetime, tag: str) -> None:
        raws = []
        for seat, body in orders.items():
            msg = EmailMessage()
            msg["From"] = address(seat)
            msg["To"] = JUDGE
            msg["Subject"] = "orders"
            msg["Date"] = format_datetime(when)
            msg["Message-ID"] = f"<{tag}-{seat}@{seat}.example>"
            msg.set_content(f"password: {PASSWORDS[seat]}\n{body}\n")
            raws.append(bytes(msg))
        self.dovecot.append(JUDGE, raws)

    def tick(self, when: datetime) -> str:
        before = self.meta().get("deadline")
        out = run(self.game, when)
        meta = self.meta()
        new = []
        for who in sorted(self.inbox.mails):
            got = self.inbox.of(who)
            new += [(who, msg) for msg in got[self.seen.get(who, 0):]]
            self.seen[who] = len(got)
        opened = parse_time(meta["opened"]) if meta.get("opened") else None
        self.ticks.append(Tick(when, before, meta.get("deadline"), opened, new))
        return out


@pytest.fixture
def clock(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Clock:
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    game = tmp_path / "game"
    cli_ok("new", str(game))
    for seat, password in PASSWORDS.items():
        cli_ok("player", "add", str(game), seat, "--name", seat.title(), "--email", address(seat),
               "--password", password)
    cli_ok("schedule", str(game), "--movement", "2d", "--retreat", "1d", "--adjustment", "1d", "--grace", "1h",
           "--reminders", ",".join(REMINDERS), "--missed-limit", "3")
    cli_ok("mailbox", str(game), "--source", dovecot.url(JUDGE), "--smtp", f"{smtp_inbox.host}:{smtp_inbox.port}",
           "--judge-address", JUDGE, "--judge-name", "Clock Judge")
    return Clock(game, dovecot, smtp_inbox)


def kinds(tick: Tick) -> list[str]:
    return [str(msg["Subject"]).split("] ", 1)[1].split(":")[0] for _, msg in tick.mails]


def test_every_mail_names_the_deadline_run_set_and_no_reminder_comes_early(clock: Clock) -> None:
    game = clock.game
    # Day 0: the first run opens Spring 1901 and welcomes the seven players.
    assert "Spring 1901 Movement opens now" in clock.tick(T0)
    assert kinds(clock.ticks[-1]) == ["Welcome"] * 7
    # Six powers order; Turkey is silent.
    clock.post(SPRING, T0 + timedelta(hours=2), "s01")
    assert "waiting for Turkey" in clock.tick(T0 + timedelta(hours=2))
    assert kinds(clock.ticks[-1]) == ["Re"] * 6
    clock.tick(T0 + timedelta(hours=20))                             # nothing due
    assert clock.ticks[-1].mails == []
    assert "reminded Turkey" in clock.tick(T0 + timedelta(days=1, minutes=5))       # 24h before
    assert "reminded Turkey" in clock.tick(T0 + timedelta(days=1, hours=23, minutes=5))   # 1h before
    # Deadline and grace pass: Turkey NMR, the results go with a notice to Turkey.
    out = clock.tick(T0 + timedelta(days=2, hours=1, minutes=1))
    assert "the deadline has passed; NMR: Turkey" in out, out
    assert sorted(kinds(clock.ticks[-1])) == ["Notice"] + ["Spring 1901 Movement results"] * 7
    fall_opened = T0 + timedelta(days=2, hours=1, minutes=1)
    # Fall: every power orders within the hour; the phase goes at once, and the Winter
    # adjustments (1 day) open: their 24h reminder falls before they open and is skipped.
    clock.post(FALL, fall_opened + timedelta(minutes=30), "f01")
    out = clock.tick(fall_opened + timedelta(minutes=30))
    assert "adjudicated 1901-fall-movement (every order is in)" in out, out
    out = clock.tick(fall_opened + timedelta(minutes=50))
    assert "skipped the 24h reminder" in out and "reminded" not in out, out
    # Nobody orders in Winter: at its deadline every power that had builds or disbands is NMR.
    winter_due = parse_time(clock.ticks[-1].after or "")
    assert "reminded" in clock.tick(winter_due - timedelta(minutes=30))       # the 1h reminder
    out = clock.tick(winter_due + timedelta(hours=1, minutes=1))
    assert "the deadline has passed; NMR:" in out, out
    assert "Notice" in kinds(clock.ticks[-1])
    # The GM rolls Fall back (a wrong order, say) with a fresh deadline: the collected Fall
    # orders are all in, so the next run adjudicates Fall again and mails "Corrected" results.
    now = winter_due + timedelta(hours=3)
    cli_ok("rollback", str(game), "1901-fall-movement", "--deadline", (now + timedelta(days=2)).isoformat())
    out = clock.tick(now)
    assert "adjudicated 1901-fall-movement (every order is in)" in out, out
    assert kinds(clock.ticks[-1]).count("Fall 1901 Movement results (Corrected)") == 7
    # A new player takes Italy: welcomed at the next run with the latest results.
    cli_ok("player", "replace", str(game), "Italy", "--name", "Nina", "--email", "nina@localhost",
           "--password", "nina-password-2030")
    clock.tick(now + timedelta(minutes=10))
    assert kinds(clock.ticks[-1]) == ["Welcome"]
    assert "THE LATEST RESULTS (1901-fall-movement)" in body_of(clock.ticks[-1].mails[0][1])
    clock.tick(now + timedelta(minutes=20))
    assert clock.ticks[-1].mails == []                       # nothing twice

    # Every mail of every tick.
    counted = 0
    for tick in clock.ticks:
        for who, msg in tick.mails:
            counted += 1
            subject = str(msg["Subject"])
            sent = msg["Date"].datetime
            assert sent == tick.now, subject
            due = named_deadline(msg)
            expected = tick.before if "] Re: " in subject else tick.after
            assert due is not None and due == expected, (who, subject, due, tick)
            assert parse_time(due) > sent, (who, subject)
            if "Reminder" in subject:
                assert tick.opened is not None and sent > tick.opened
                offsets = [parse_duration(r) for r in REMINDERS]
                assert any(tick.opened < parse_time(due) - o <= sent for o in offsets), subject
    assert counted >= 7 + 6 + 2 + 8 + 7 + 7 + 7 + 1
