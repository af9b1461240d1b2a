# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""A Standard game for two game years by `adjudicator run` alone, over real
servers (Dovecot IMAP in, aiosmtpd SMTP out, both on 127.0.0.1), with an
injected clock (`run --now`), as cron would run it (issue 11).

On the way: on-time orders, a power that is late but inside the grace, a
power that never orders (NMR), a reminder, a rollback and re-run (the
results mail says "Corrected"), and a draw voted by mail."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from test_mail import PASSWORDS, address, make_game
from test_mail_game import STANDARD

from adjudicator.cli.main import cli

JUDGE = "judge@localhost"
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def run(game: Path, when: datetime) -> str:
    result = CliRunner().invoke(cli, ["run", str(game), "--now", when.isoformat()])
    assert result.exit_code == 0, result.output
    return result.output


def gm(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def mail_from(power: str, body: str, when: datetime, tag: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = address(power)
    msg["To"] = JUDGE
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{tag}-{power}@{power}.example>"
    msg.set_content(f"Hi GM,\npassword: {PASSWORDS[power]}\n{body}\nThanks\n")
    return bytes(msg)


def subjects(inbox: SmtpInbox, power: str) -> list[str]:
    return [str(m["Subject"]) for m in inbox.of(address(power))]


@pytest.fixture
def game(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = make_game(tmp_path / "game")
    meta = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    meta["gm_email"] = JUDGE
    meta["mail"] = {"source": dovecot.url(JUDGE), "smtp": f"{smtp_inbox.host}:{smtp_inbox.port}"}
    meta["schedule"] = {"movement": "2d", "retreat": "1d", "adjustment": "1d", "grace": "1h",
                        "reminders": ["12h"]}
    (folder / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    gm("deadline", str(folder), (T0 + timedelta(days=2)).isoformat())
    return folder


def test_two_years_by_run_alone(game: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox) -> None:
    now = T0 + timedelta(hours=1)
    # Spring 1901: six powers order on time; Turkey is silent.
    dovecot.append(JUDGE, [mail_from(p, o, now, "s01") for p, o in STANDARD[0].items() if p != "turkey"])
    out = run(game, now)
    assert "nothing to do: waiting for Turkey until 2026-12-03T10:00+00:00" in out, out
    assert run(game, now + timedelta(minutes=5)).strip().endswith(
        "nothing to do: waiting for Turkey until 2026-12-03T10:00+00:00")       # idempotent
    # 12 hours before the deadline: one reminder, to Turkey only, once.
    out = run(game, T0 + timedelta(days=2, hours=-11))
    assert "reminded Turkey" in out, out
    assert "reminded" not in run(game, T0 + timedelta(days=2, hours=-10))
    assert subjects(smtp_inbox, "turkey")[-1] == "[game] Reminder: Spring 1901 Movement"
    assert not any("reminder" in s for s in subjects(smtp_inbox, "france"))
    # Turkey is late, but inside the hour of grace: taken, and the phase goes.
    late = T0 + timedelta(days=2, minutes=30)
    dovecot.append(JUDGE, [mail_from("turkey", STANDARD[0]["turkey"], late, "s01")])
    out = run(game, late)
    assert "adjudicated 1901-spring-movement (every order is in)" in out, out
    assert "next deadline: 2026-12-05T09:30+00:00" in out
    assert "[game] Spring 1901 Movement results" in subjects(smtp_inbox, "turkey")

    # Fall 1901: Italy never orders; at deadline + grace it is NMR.
    now = late + timedelta(hours=2)
    dovecot.append(JUDGE, [mail_from(p, o, now, "f01") for p, o in STANDARD[1].items() if p != "italy"])
    assert "waiting for Italy" in run(game, now)
    out = run(game, T0 + timedelta(days=4, hours=1, minutes=30))
    assert "the deadline has passed; NMR: Italy" in out, out
    report = (game / "reports" / "1901-fall-movement.txt").read_text(encoding="utf-8")
    assert "No orders were received from Italy" in report
    assert "Italy: " in gm("player", "list", str(game)) and "missed in a row: 1" in gm("player", "list", str(game))

    # Winter 1901 and on: every power mails, with 'ready' (some order only one of their units, or
    # fewer builds than they may make); the phases go as soon as all are in.
    clock = T0 + timedelta(days=4, hours=2)
    for number, orders in enumerate(STANDARD[2:5], start=2):
        clock += timedelta(hours=1)
        dovecot.append(JUDGE, [mail_from(p, o + "\nready", clock, f"p{number}") for p, o in orders.items()])
        out = run(game, clock)
        assert "adjudicated" in out, out
        if number == 3:
            # The GM finds a mistake in Spring 1902 and rolls it back; the next run
            # adjudicates it again from the same collected orders and mails a correction.
            gm("rollback", str(game), "1902-spring-movement")
            clock += timedelta(minutes=10)
            out = run(game, clock)
            assert "adjudicated 1902-spring-movement" in out, out
            corrected = [m for m in smtp_inbox.of(address("france")) if "Corrected" in str(m["Subject"])]
            assert len(corrected) == 1 and "Spring 1902" in str(corrected[0]["Subject"])
            assert corrected[0]["In-Reply-To"]
    # Fall 1902 done: the survivors vote a draw by mail; it ends the game when unanimous.
    status = gm("status", str(game))
    assert "1902" in status.splitlines()[0] or "1903" in status.splitlines()[0]
    clock += timedelta(hours=1)
    current = yaml.safe_load(max((game / "history").glob("*.yaml")).read_text(encoding="utf-8"))
    survivors = sorted(set(current["units"]) | set(current["centres"]))
    dovecot.append(JUDGE, [mail_from(p, "vote draw", clock, "vote") for p in survivors[:-1]])
    out = run(game, clock)
    assert "the game is over" not in out
    assert not (game / "reports" / "end.txt").exists()
    dovecot.append(JUDGE, [mail_from(survivors[-1], "vote draw", clock, "vote")])
    out = run(game, clock + timedelta(minutes=1))
    assert "the end-of-game report was mailed" in out, out
    end = (game / "reports" / "end.txt").read_text(encoding="utf-8")
    assert "The game ended in a draw between" in end
    for power in PASSWORDS:
        mails = smtp_inbox.of(address(power))
        assert mails[-1]["Subject"] == "[game] The game is over"
        assert "The game ended in a draw" in body_of(mails[-1])
        for msg in mails:                     # dated by the injected clock, never the game's year
            assert msg["Date"].datetime.year == 2026
            for secret in PASSWORDS.values():
                assert secret not in body_of(msg)
    assert "the game is over; nothing to do" in run(game, clock + timedelta(days=1))
