"""A table of players at a game run by `adjudicator run` over real servers:
the judge reads its mail from Dovecot (IMAPS on 127.0.0.1), sends through
aiosmtpd, and runs with an injected clock. Players are scripted: each reads
only the mails the judge sent them (every one parsed strictly by
mailservers.SmtpInbox) and mails its answer back into the judge's INBOX.

`Table.tick` runs the judge once and keeps what it set (the deadline before
and after, when the phase opened) and every mail it sent in that run, so a
test can check each mail against what `run` did; `check_every_mail` is that
check, shared by the Standard and the card games' tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Protocol

import pytest
import yaml
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of
from runbymail import GM, JUDGE, JUDGE_NAME, address, cli_ok, named_deadline, run

from adjudicator.folder.schedule import format_time, parse_duration, parse_time

PASSWORD_RE = re.compile(r"Your password is (\S+?)\.?\n")


@dataclass
class Tick:
    now: datetime
    before: str | None             # the deadline when the run began (a reply names it)
    after: str | None              # the deadline run left (every other mail names it)
    opened: datetime | None        # when the phase open at the end of the run opened
    out: str                       # what run printed
    mails: list[tuple[str, EmailMessage]]


@dataclass
class Player:
    """A player: the seat they play, their address, the password they know,
    and the mails they have read."""
    name: str
    seat: str
    email: str
    password: str | None
    read: int = 0
    mails: list[EmailMessage] = field(default_factory=list)
    known: set[str] = field(default_factory=set)      # every password the player has had
    # A card game's player: the newest report they were mailed (a welcome's or a
    # results mail's), whether their choice for it is stored, whether they await
    # the judge's reply, and the refusals their choices for it drew.
    report: str | None = None
    answered: bool = False
    awaiting: bool = False
    refusals: list[str] = field(default_factory=list)

    def learn(self, password: str) -> None:
        self.password = password
        self.known.add(password)

    def take(self, inbox: SmtpInbox) -> list[EmailMessage]:
        """The mails that came since the player last looked; a welcome's
        password is learnt from it, as a player would."""
        got = inbox.of(self.email)
        new = got[self.read:]
        self.read = len(got)
        self.mails += new
        for msg in new:
            text = body_of(msg)
            if kind(msg) == "Welcome":
                found = PASSWORD_RE.search(text)
                if found and "the one your GM gave you" not in found.group(0):
                    self.learn(found.group(1))
            if kind(msg) in ("Welcome", "results"):
                self.report, self.answered, self.awaiting, self.refusals = text, False, False, []
            elif kind(msg) == "Re":
                self.awaiting = False
                if "Choice received for" in text:
                    self.answered = True
                else:
                    self.refusals.append(text)
            elif kind(msg) == "The":
                self.report = None
        return new


class Table:
    def __init__(self, game: Path, dovecot: Dovecot, inbox: SmtpInbox) -> None:
        self.game, self.dovecot, self.inbox = game, dovecot, inbox
        self.seen: dict[str, int] = {}
        self.ticks: list[Tick] = []
        self.players: dict[str, Player] = {}
        self.sent = 0

    def meta(self) -> dict:
        return dict(yaml.safe_load((self.game / "game.yaml").read_text(encoding="utf-8")))

    def sit(self, name: str, password: str | None, seat: str | None = None) -> Player:
        """A player named `name` (their address is name@localhost) at `seat` (default: their name)."""
        player = Player(name, seat or name, address(name), None)
        if password:
            player.learn(password)
        self.players[name] = player
        return player

    def mail(self, name: str, body: str, when: datetime, subject: str = "orders",
             password: str | None = None, replying: EmailMessage | None = None) -> None:
        """A player's plain-text mail into the judge's INBOX, dated `when`. As
        a reply (`replying`), it is what a mail client writes: threaded, the
        judge's mail quoted below the answer, and an HTML part beside the text."""
        player = self.players[name]
        self.sent += 1
        msg = EmailMessage()
        msg["From"] = f"{name.title()} <{player.email}>"
        msg["To"] = JUDGE
        msg["Subject"] = subject if replying is None else f"Re: {replying['Subject']}"
        msg["Date"] = format_datetime(when)
        msg["Message-ID"] = f"<m{self.sent}-{name}@players.example>"
        secret = password if password is not None else player.password
        text = f"Hello,\npassword: {secret}\n{body}\n\nRegards\n"
        if replying is not None:
            msg["In-Reply-To"] = replying["Message-ID"]
            msg["References"] = f"{replying['References'] or ''} {replying['Message-ID']}".strip()
            quoted = "\n".join(f"> {line}" for line in body_of(replying).splitlines())
            text += f"\nOn {replying['Date']}, {replying['From']} wrote:\n{quoted}\n"
        msg.set_content(text)
        if replying is not None:
            lines = "<br>".join(text.splitlines())
            msg.add_alternative(f"<html><body><div>{lines}</div></body></html>", subtype="html")
        self.dovecot.append(JUDGE, [bytes(msg)])

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
        self.ticks.append(Tick(when, before, meta.get("deadline"), opened, out, new))
        return out

    def last(self) -> list[tuple[str, EmailMessage]]:
        return self.ticks[-1].mails

    def kinds(self) -> list[str]:
        return sorted(kind(msg) for _, msg in self.last())

    def latest(self, name: str) -> str:
        """The body of the newest mail the judge sent the player in the last run."""
        mails = [msg for who, msg in self.last() if who == self.players[name].email]
        assert mails, f"no mail to {name}"
        return body_of(mails[-1])

    def reply_of(self, name: str) -> str:
        """The body of the one reply the player had in the last run."""
        mails = [msg for who, msg in self.last() if who == self.players[name].email and kind(msg) == "Re"]
        assert len(mails) == 1, (name, [m["Subject"] for _, m in self.last()])
        return body_of(mails[0])

    def read_all(self) -> None:
        for player in self.players.values():
            player.take(self.inbox)


class CardPlayers(Protocol):
    """How a card game's scripted players decide, from their own report alone."""

    def wants(self, seat: str, report: str) -> bool:
        """Whether the report asks this seat for a choice now."""

    def decide(self, seat: str, report: str, refusals: list[str]) -> str:
        """The choice, as the YAML lines of a mail (after refusals: another legal one)."""


def play_by_mail(table: Table, players: CardPlayers, start: datetime, step: timedelta, limit: int,
                 silent: Callable[[str, str], bool] = lambda seat, report: False) -> datetime:
    """Each run: every player reads their new mail and, if their report asks
    them and their choice is not in, mails one; then the judge runs. When
    nobody had anything to send, the clock jumps to a minute before the
    deadline (the reminders go), and the next time past the deadline and
    its grace (the defaults are played). `silent(seat, report)` keeps a player
    quiet for that report. Bounded by `limit` runs; returns the clock at the end."""
    clock = start
    for _ in range(limit):
        table.read_all()
        sent = False
        for player in table.players.values():
            report = player.report
            if report is None or player.answered or player.awaiting or not players.wants(player.seat, report):
                continue
            if silent(player.seat, report):
                continue
            assert len(player.refusals) < 3, f"{player.seat} was refused three times:\n{player.refusals[-1]}"
            table.mail(player.name, players.decide(player.seat, report, player.refusals), clock)
            player.awaiting = sent = True
        due = table.meta().get("deadline")
        if not sent and due:
            # Nobody has anything to send: the clock goes to just before the deadline (the
            # reminders go), then past it and its grace (the defaults are played).
            last_call = parse_time(due) - timedelta(minutes=1)
            clock = last_call if clock < last_call else max(clock, parse_time(due) + timedelta(hours=2))
        out = table.tick(clock)
        if "the game is over" in out:
            table.read_all()
            return clock
        clock += step
    raise AssertionError(f"the game did not end within {limit} runs")


def kind(msg: EmailMessage) -> str:
    """What a judge's mail is, from its Subject: 'Welcome', 'Re', 'Reminder', 'Notice', 'results', ..."""
    subject = re.sub(r"^\[[^]]+\] ", "", str(msg["Subject"]))
    if subject.endswith(("results", "(Corrected)")):
        return "results"
    return subject.split(":")[0].split(" ")[0]


def every_text(msg: EmailMessage) -> str:
    """The headers and every part decoded (attachments too), to search for secrets."""
    texts = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        texts.append(content.decode("latin-1") if isinstance(content, bytes) else str(content))
    return "\n".join(texts)


def check_every_mail(table: Table, reminders: tuple[str, ...], grace: timedelta = timedelta(0),
                     no_deadline: tuple[str, ...] = ("The", "For")) -> int:
    """Every mail of every tick: a [game] Subject, From the judge by name,
    Auto-Submitted and X-Loop, dated by the injected clock; the deadline it
    names is the one run set (a reply: the deadline of the phase the player
    wrote for, or inside the grace the end of the grace; every other mail:
    the one run left) and lies after its Date; a reminder comes after its
    phase opened, for a moment after the opening. The end of the game and
    the GM's mail name no deadline, nor may the reply to a mail that ended
    the game. Returns how many mails were checked."""
    counted = 0
    for tick in table.ticks:
        for who, msg in tick.mails:
            counted += 1
            subject = str(msg["Subject"])
            what = (who, subject, tick.now)
            assert subject.startswith(f"[{table.game.name}] "), what
            assert msg["Auto-Submitted"] in ("auto-replied", "auto-generated"), what
            assert msg["X-Loop"], what
            sender = msg["From"].addresses[0]
            assert (sender.display_name, sender.addr_spec) == (JUDGE_NAME, JUDGE), what
            sent = msg["Date"].datetime
            assert sent == tick.now, what
            due = named_deadline(msg)
            if kind(msg) in no_deadline:
                assert due is None, what
                continue
            if kind(msg) == "Re" and due is None:       # the mail that ended the game (a vote) asks for nothing
                assert "the game is over" in tick.out, what
                continue
            expected = tick.before if kind(msg) == "Re" else tick.after
            if kind(msg) == "Re" and expected and parse_time(expected) <= sent:
                expected = format_time(parse_time(expected) + grace)          # late, inside the grace
            if expected is None:                          # the game is over: the last results ask for nothing
                assert due is None and "the game is over" in tick.out, what
                continue
            assert due == expected, (what, due, expected)
            assert parse_time(due) > sent, what
            if kind(msg) == "Reminder":
                assert tick.opened is not None and sent > tick.opened, what
                moments = [parse_time(due) - parse_duration(r) for r in reminders]
                assert any(tick.opened < moment <= sent for moment in moments), what
    return counted


def gm(*args: str) -> str:
    return cli_ok(*args)


def seat_card_game(game: Path, new: list[str], passwords: dict[str, str], schedule: list[str],
                   dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    """A card game made as its GM would (`new` with NEW, a player added per
    seat of PASSWORDS, `schedule` with SCHEDULE, the judge's mailbox on the
    test servers), with a Table of its players sat down."""
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SSL_CERT_FILE", str(dovecot.cert))
    gm("new", str(game), *new, "--players", ",".join(passwords))
    table = Table(game, dovecot, smtp_inbox)
    for seat, password in passwords.items():
        gm("player", "add", str(game), seat, "--name", seat.title(), "--email", address(seat), "--password", password)
        table.sit(seat, password)
    gm("schedule", str(game), *schedule)
    gm("mailbox", str(game), "--source", dovecot.url(JUDGE, tls=True), "--smtp", f"{smtp_inbox.host}:{smtp_inbox.port}",
       "--judge-address", JUDGE, "--judge-name", JUDGE_NAME, "--gm-address", GM)
    return table
