# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""The judge as a mail service on the open internet: each test sends real
mails through `ingest` (and, where the finding is about the servers, through
aiosmtpd or Dovecot on 127.0.0.1) as an attacker would.

Hashing is not under test here: the game's players get cheap argon2
parameters, as in the fuzz tests."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from argon2 import PasswordHasher
from click.testing import CliRunner
from mailservers import (  # noqa: F401
    Dovecot,
    SmtpInbox,
    dovecot,
    missing_server,
    smtp_inbox,
    strict_parse,
)
from test_ingest_corpus import fresh_copy
from test_mail import PASSWORDS, SLUG, address, make_game, read_eml

from adjudicator.cli.main import cli
from adjudicator.folder import players
from adjudicator.mail import guesses, imap, ingest_diplomacy, quarantine, replycap
from adjudicator.mail import results as results_mail
from adjudicator.mail.ingest import ingest, ingest_mails
from adjudicator.mail.smtp import Server, send_files

ROOT = Path(__file__).resolve().parent.parent
JUDGE = "judge@localhost"
NOW = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)      # the phase opened 2023-12-31 12:00


def mail(sender: str, body: str, mid: str, minute: int = 0, subject: str = "orders",
         extra: dict[str, str] | None = None, date: str | None = "default") -> bytes:
    msg = EmailMessage()
    for name, value in (extra or {}).items():
        msg[name] = value
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = subject
    if date == "default":
        msg["Date"] = format_datetime(datetime(2024, 1, 1, 10, tzinfo=timezone.utc) + timedelta(minutes=minute))
    elif date is not None:
        msg["Date"] = date
    msg["Message-ID"] = f"<{mid}@player.example>"
    msg.set_content(body)
    return bytes(msg)


def good(power: str, mid: str, minute: int = 0, orders: str = "", **kw: Any) -> bytes:
    return mail(address(power), f"password: {PASSWORDS[power]}\n{orders or 'A ven - pie'}\n", mid, minute, **kw)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(players, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        folder = make_game(tmp_path_factory.mktemp("svc") / "game")
        meta = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
        meta["gm_email"] = JUDGE
        (folder / "game.yaml").write_text(yaml.safe_dump(meta, sort_keys=False), encoding="utf-8")
        os.utime(folder / "game.yaml")
        return folder


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return fresh_copy(template, tmp_path / "game")


def replies(game: Path) -> list[EmailMessage]:
    return [read_eml(p) for p in sorted((game / "mail" / "replies").glob("*.eml"))]


def to(messages: list[EmailMessage], who: str) -> list[EmailMessage]:
    return [m for m in messages if m["To"].addresses[0].addr_spec == who]


def send_replies(game: Path, inbox: SmtpInbox) -> Any:
    return send_files(game, sorted((game / "mail" / "replies").glob("*.eml")), Server(inbox.host, inbox.port))


# --- N2: no backscatter, no loops ----------------------------------------------------------
NO_ANSWER = {
    "null sender": {"Return-Path": "<>"},
    "auto-replied": {"Auto-Submitted": "auto-replied"},
    "auto-generated": {"Auto-Submitted": "auto-generated"},
    "vacation": {"X-Autoreply": "yes"},
    "bulk": {"Precedence": "bulk"},
    "list": {"Precedence": "list"},
    "junk": {"Precedence": "junk"},
    "mailing list": {"List-Id": "<diplomacy.lists.example>"},
    "own loop header": {"X-Loop": JUDGE},
}


@pytest.mark.parametrize("case", sorted(NO_ANSWER))
def test_no_answer_to_automatic_bulk_list_or_looping_mail(game: Path, case: str, smtp_inbox: SmtpInbox) -> None:
    results = ingest_mails(game, [good("italy", f"auto-{case.replace(' ', '-')}", extra=NO_ANSWER[case])], now=NOW)
    assert len(results) == 1 and results[0].reply is None
    assert "not answered" in (results[0].reason or "") or "no reply" in (results[0].reason or "")
    assert not (game / "mail" / "replies").exists() or not list((game / "mail" / "replies").glob("*.eml"))
    send_replies(game, smtp_inbox)
    assert smtp_inbox.count() == 0


def test_an_auto_responder_cannot_loop_with_the_judge(game: Path, smtp_inbox: SmtpInbox) -> None:
    """The judge's reply reaches a vacation responder, whose answer comes back: it is not answered."""
    ingest_mails(game, [mail(address("italy"), "password: wrong\nA ven H\n", "loop-1")], now=NOW)
    send_replies(game, smtp_inbox)
    first = strict_parse(smtp_inbox.mails[address("italy")][0])
    assert first["Auto-Submitted"] == "auto-replied" and first["X-Loop"] == JUDGE
    # A responder that ignores Auto-Submitted and answers anyway, quoting the headers it got.
    bounce_back = mail(address("italy"), "I am away until Monday.", "vacation-1", 5,
                       extra={"In-Reply-To": str(first["Message-ID"]), "X-Loop": JUDGE})
    results = ingest_mails(game, [bounce_back], now=NOW)
    assert results[0].reply is None
    # And the judge's own mail, come back with its Message-ID, is dropped unanswered.
    own = bytes(first).replace(b"To: italy@localhost", b"To: judge@localhost")
    assert ingest_mails(game, [own], now=NOW)[0].reply is None
    send_replies(game, smtp_inbox)
    assert smtp_inbox.count() == 1


def test_a_stranger_gets_no_reply_at_all(game: Path, smtp_inbox: SmtpInbox) -> None:
    """A forged From of a third party makes the judge mail no one."""
    forged = [mail("victim@example.org", "password: x\nA ven - pie\n", f"s{n}", n) for n in range(5)]
    forged.append(mail("MAILER-DAEMON@example.org", "Delivery failed", "md"))
    results = ingest_mails(game, forged, now=NOW)
    assert all(r.reply is None and "no reply" in (r.reason or "") for r in results)
    send_replies(game, smtp_inbox)
    assert smtp_inbox.count() == 0


def test_every_mail_the_judge_sends_says_it_is_automatic(game: Path, smtp_inbox: SmtpInbox) -> None:
    ingest_mails(game, [good("italy", "ok-1")], now=NOW)
    send_replies(game, smtp_inbox)
    reply = strict_parse(smtp_inbox.mails[address("italy")][0])
    assert reply["Auto-Submitted"] == "auto-replied" and reply["X-Loop"] == JUDGE
    assert CliRunner().invoke(cli, ["adjudicate", str(game), "--nmr"]).exit_code == 0
    paths = results_mail.write_messages(game, SLUG)
    send_files(game, paths, Server(smtp_inbox.host, smtp_inbox.port))
    result = strict_parse(smtp_inbox.mails[address("france")][0])
    assert result["Auto-Submitted"] == "auto-generated" and result["X-Loop"] == JUDGE


def test_replies_to_one_address_are_capped_with_one_mail_to_the_gm(game: Path, smtp_inbox: SmtpInbox) -> None:
    # Orders sent again and again (a good password, so no lock): the 21st and later are not answered.
    burst = [good("italy", f"again-{n}", n % 50) for n in range(replycap.MAX_PER_DAY + 6)]
    results = ingest_mails(game, burst, now=NOW)
    assert sum(r.reply is not None for r in results) == replycap.MAX_PER_DAY
    assert all("used up" in (r.reason or "") for r in results if r.reply is None)
    send_replies(game, smtp_inbox)
    assert len(smtp_inbox.mails[address("italy")]) == replycap.MAX_PER_DAY
    gm = smtp_inbox.of(JUDGE)
    assert len(gm) == 1 and "capped" in str(gm[0]["Subject"])
    # The next day the player is answered again.
    later = ingest_mails(game, [good("italy", "next-day")], now=NOW + timedelta(days=1))
    assert later[0].reply is not None


# --- N1: password guessing ------------------------------------------------------------------
def test_password_guessing_is_stopped_after_five_with_one_notice(game: Path, smtp_inbox: SmtpInbox,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    verified: list[str] = []
    real = players.verify
    monkeypatch.setattr("adjudicator.mail.gate.verify", lambda rec, pw: verified.append(str(pw)) or real(rec, pw))
    guesses_ = [mail(address("italy"), f"password: guess-{n}\nA ven - tyr\n", f"g{n}", n % 60,
                     extra={"Return-Path": "<attacker@evil.example>"}) for n in range(200)]
    results = ingest_mails(game, guesses_, now=NOW)
    assert len(verified) == guesses.MAX_FAILURES              # five guesses tried, 195 not read
    assert sum((r.reason or "").startswith("wrong password") for r in results) == guesses.MAX_FAILURES
    assert sum("held unread" in (r.reason or "") for r in results) == 200 - guesses.MAX_FAILURES
    assert not (game / "orders" / SLUG / "italy.txt").exists()
    send_replies(game, smtp_inbox)
    italy = smtp_inbox.of(address("italy"))
    notices = [m for m in italy if "wrong passwords" in str(m["Subject"])]
    assert len(italy) == guesses.MAX_FAILURES + 1 and len(notices) == 1      # not 199 "wrong password" mails
    gm = smtp_inbox.of(JUDGE)
    assert {str(m["Subject"]).split("guessing: ")[1].split(" ")[0] for m in gm} == \
        {"player:italy", "address:attacker@evil.example"}
    # What `status` prints, at its own clock.
    from adjudicator.mail.servicestatus import service_lines
    assert any(line.startswith("Locked after wrong passwords: player:italy until 2024-01-01 13:00 UTC")
               for line in service_lines(game, NOW + timedelta(minutes=1)))
    # The real player's mail, sent during the lock, is read once the lock ends (the held guesses
    # are read too: five more, and a longer lock).
    real_mail = good("italy", "real", 30)
    held = ingest_mails(game, [real_mail], now=NOW + timedelta(minutes=30))
    assert "held unread" in (held[0].reason or "")
    after = ingest_mails(game, guesses_ + [real_mail], now=NOW + timedelta(minutes=61))
    assert len(verified) == 2 * guesses.MAX_FAILURES
    state = yaml.safe_load((game / guesses.STATE).read_text(encoding="utf-8"))
    assert state["player:italy"]["locks"] == 2
    assert datetime.fromisoformat(state["player:italy"]["locked_until"]) == \
        NOW + timedelta(minutes=61) + timedelta(hours=2)
    assert len(after) == 196
    # Unlocked by the GM, the real mail is taken.
    assert CliRunner().invoke(cli, ["unlock", str(game), "italy"]).exit_code == 0
    again = ingest_mails(game, [real_mail], now=NOW + timedelta(minutes=62))
    assert any(r.accepted for r in again)


# --- N3: the password before the body ----------------------------------------------------------
def test_a_forged_1mb_mail_is_refused_before_its_body_is_read(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[int] = []
    real = ingest_diplomacy.split_body
    monkeypatch.setattr(ingest_diplomacy, "split_body",
                        lambda body, variant: read.append(len(body)) or real(body, variant))
    body = "password: not-the-one\n" + "A ven - pie # padding padding padding\n" * 26_000
    forged = mail(address("italy"), body, "big-forged")
    assert 900_000 < len(forged) < quarantine.MAX_MESSAGE_BYTES
    results = ingest_mails(game, [forged], now=NOW)
    assert "wrong password" in (results[0].reason or "") and read == []
    ingest_mails(game, [good("italy", "fine")], now=NOW)
    assert len(read) == 1                                       # a good mail is read as before


# --- N4: size limits, over IMAP and in the quarantine ----------------------------------------------
def test_an_oversize_mail_is_never_fetched_whole_over_imap(game: Path, dovecot: Dovecot,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    big = mail(address("italy"), "password: x\n" + ("y" * 76 + "\n") * 130_000, "ten-mb")   # 10 MB
    dovecot.append(JUDGE, [big, good("germany", "small", orders="A mun - ruh")])
    asked: list[tuple[list[int], list[bytes]]] = []
    from imapclient import IMAPClient
    real_fetch = IMAPClient.fetch

    def spy(self: Any, messages: Any, data: Any, modifiers: Any = None) -> Any:
        asked.append((list(messages), [bytes(d) if isinstance(d, bytes) else str(d).encode() for d in data]))
        return real_fetch(self, messages, data, modifiers)
    monkeypatch.setattr(IMAPClient, "fetch", spy)
    box = imap.parse_url(dovecot.url(JUDGE))
    fetched = imap.ingest_imap(game, box, "imap-secret-1", now=NOW)
    statuses = sorted(r.status for r in fetched.results)
    assert statuses == ["quarantined", "stored"] and fetched.taken == 2
    whole = [uids for uids, data in asked if b"BODY.PEEK[]" in data]
    assert whole and all(1 not in uids for uids in whole)          # uid 1, the big one, never whole
    assert any(b"RFC822.SIZE" in data for _, data in asked)
    kept = next(r.quarantined for r in fetched.results if r.quarantined)
    assert kept is not None and kept.stat().st_size <= quarantine.KEEP_BYTES
    assert kept.read_bytes().replace(b"\r\n", b"\n").startswith(big[:200])
    note = kept.with_suffix(".txt").read_text(encoding="utf-8")
    assert "size: 10" in note and "sha256 of its first 65536 bytes" in note      # ten million bytes and more
    assert "Message-ID: <ten-mb@player.example>" in note
    again = imap.ingest_imap(game, box, "imap-secret-1", now=NOW)
    assert again.results == [] and again.taken == 0


def test_the_quarantine_is_capped_per_game(game: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(quarantine, "CAP_BYTES", 2 * quarantine.KEEP_BYTES)
    box = tmp_path / "box"
    box.mkdir()
    for n in range(4):       # four 3 MB mails, each its own
        (box / f"{n}.eml").write_bytes(mail(address("italy"), f"{n}\n" + "z" * 3_000_000, f"huge-{n}"))
    results = ingest(game, box, now=NOW)
    assert [r.status for r in results] == ["quarantined"] * 4
    kept = list((game / "mail" / "quarantine").glob("*.eml"))
    assert len(kept) == 2 and sum(p.stat().st_size for p in kept) <= 2 * quarantine.KEEP_BYTES
    assert len(list((game / "mail" / "quarantine").glob("*.txt"))) == 4


# --- N5, N6, N7 --------------------------------------------------------------------------------
def test_the_password_is_never_echoed_in_the_subject(game: Path) -> None:
    for n, subject in enumerate([f"password: {PASSWORDS['italy']}", f"my orders ({PASSWORDS['italy']})",
                                 "pasword: anything-else"]):
        ingest_mails(game, [good("italy", f"subj-{n}", n, subject=subject)], now=NOW)
    for reply in replies(game):
        assert PASSWORDS["italy"] not in str(reply["Subject"]) and "anything-else" not in str(reply["Subject"])
        assert PASSWORDS["italy"] not in reply.get_content()


@pytest.mark.parametrize("date", [None, "Sat, 01 Jan 2033 10:00:00 +0000"])
def test_a_missing_or_future_date_takes_the_servers_receipt_time(game: Path, date: str | None) -> None:
    received = {"Received": "from mx.player.example by mail.localhost; Sat, 30 Dec 2023 09:00:00 +0000"}
    results = ingest_mails(game, [good("italy", "undated", extra=received, date=date)], now=NOW)
    assert not results[0].accepted and "before Spring 1901 Movement opened" in (results[0].reason or "")
    text = read_eml(results[0].reply).get_content()
    assert "the time your mail server received it (2023-12-30 09:00 UTC) was used" in text
    fresh = {"Received": "from mx.player.example by mail.localhost; Mon, 01 Jan 2024 09:00:00 +0000"}
    assert ingest_mails(game, [good("italy", "undated-2", extra=fresh, date=date)], now=NOW)[0].accepted


def test_a_mail_dated_in_the_second_the_phase_opened_is_taken(game: Path) -> None:
    opened = datetime(2024, 1, 1, 9, 30, 0, 700_000, tzinfo=timezone.utc).timestamp()
    for path in (game / "history").glob("*.yaml"):
        os.utime(path, (opened, opened))
    results = ingest_mails(game, [good("italy", "same-second", date="Mon, 01 Jan 2024 09:30:00 +0000")], now=NOW)
    assert results[0].accepted, results[0].reason
    late = ingest_mails(game, [good("italy", "second-before", date="Mon, 01 Jan 2024 09:29:59 +0000")], now=NOW)
    assert not late[0].accepted


def test_a_strangers_mail_with_a_players_future_message_id_does_not_hide_the_real_one(game: Path) -> None:
    first = mail("stranger@example.org", "hello", "future-id", 1)
    forged = mail(address("italy"), "password: guess\nA ven H\n", "future-id", 2)
    assert ingest_mails(game, [first, forged], now=NOW)[0].reply is None
    real = good("italy", "future-id", 3, orders="A ven - tyr")
    results = ingest_mails(game, [real], now=NOW)
    assert len(results) == 1 and results[0].accepted
    assert ingest_mails(game, [real], now=NOW) == []              # the same mail again: taken once


# --- N12: a full disk does not answer one mail twice ---------------------------------------------
def test_a_full_disk_does_not_answer_one_mail_twice(game: Path, smtp_inbox: SmtpInbox,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.errors import DataFileError
    from adjudicator.store import storage
    real_write = storage.atomic_write

    def full(path: Any, content: Any) -> None:
        if str(path).endswith("ingested.txt"):
            raise DataFileError("cannot write: No space left on device", file=str(path))
        real_write(path, content)
    monkeypatch.setattr(storage, "atomic_write", full)
    with pytest.raises(DataFileError):
        ingest_mails(game, [good("italy", "disk")], now=NOW)
    monkeypatch.setattr(storage, "atomic_write", real_write)
    ingest_mails(game, [good("italy", "disk")], now=NOW)           # the disk has room again
    send_replies(game, smtp_inbox)
    assert len(smtp_inbox.mails[address("italy")]) == 1


# --- bounces (RFC 3464) ---------------------------------------------------------------------------
def dsn(returned_mid: str, recipient: str, mid: str = "dsn-1") -> bytes:
    return (f"From: MAILER-DAEMON@mx.example.org\nTo: {JUDGE}\nSubject: Undelivered Mail Returned to Sender\n"
            f"Date: Mon, 01 Jan 2024 11:00:00 +0000\nMessage-ID: <{mid}@mx.example.org>\nReturn-Path: <>\n"
            "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\n\n"
            "--B\nContent-Type: text/plain\n\nThis is the mail system. Your message could not be delivered.\n\n"
            "--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n\n"
            f"Final-Recipient: rfc822; {recipient}\nOriginal-Recipient: rfc822;{recipient}\nAction: failed\n"
            "Status: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\n\n"
            "--B\nContent-Type: text/rfc822-headers\n\n"
            f"From: {JUDGE}\nTo: {recipient}\nSubject: game: results\nMessage-ID: {returned_mid}\n\n--B--\n"
            ).encode("ascii")


def test_a_bounce_flags_the_player_and_nothing_is_retried_this_phase(game: Path, smtp_inbox: SmtpInbox) -> None:
    ingest_mails(game, [good("italy", "i1"), good("france", "f1", orders="A par - bur")], now=NOW)
    france_reply = next(p for p in sorted((game / "mail" / "replies").glob("*.eml")) if "france" in p.name)
    sent_mid = str(read_eml(france_reply)["Message-ID"])
    send_replies(game, smtp_inbox)
    assert smtp_inbox.count() == 2
    # A forged bounce (for a mail the judge never sent) counts for nothing.
    forged = ingest_mails(game, [dsn("<never-sent@localhost>", address("germany"), "forged")], now=NOW)
    assert "does not count" in (forged[0].reason or "") and forged[0].reply is None
    results = ingest_mails(game, [dsn(sent_mid, address("france"))], now=NOW)
    assert results[0].reply is None and "flagged" in (results[0].reason or "")
    status = CliRunner().invoke(cli, ["status", str(game)]).output
    assert f"Mail to france <{address('france')}> bounced this phase (5.1.1" in status
    assert "germany" not in status.split("bounced")[0].split("\n")[-1]
    # The GM is told; France's next mails are held, Italy's go.
    ingest_mails(game, [good("france", "f2", 5, orders="A par - pic"), good("italy", "i2", 5)], now=NOW)
    report = send_replies(game, smtp_inbox)
    assert address("france") in report.held
    assert len(smtp_inbox.mails[address("france")]) == 1 and len(smtp_inbox.mails[address("italy")]) == 2
    gm = smtp_inbox.of(JUDGE)
    assert len(gm) == 1 and "bounced" in str(gm[0]["Subject"]) and address("france") in gm[0].get_content()
    assert send_replies(game, smtp_inbox).held                 # not retried on the next run either
    assert len(smtp_inbox.mails[address("france")]) == 1
    # The next phase: France is mailed again.
    assert CliRunner().invoke(cli, ["adjudicate", str(game), "--nmr"]).exit_code == 0
    paths = results_mail.write_messages(game, SLUG)
    send_files(game, paths, Server(smtp_inbox.host, smtp_inbox.port))
    assert len(smtp_inbox.mails[address("france")]) == 2


# --- ping ------------------------------------------------------------------------------------------
def test_ping_gets_a_short_reply_without_a_password(game: Path) -> None:
    results = ingest_mails(game, [mail(address("italy"), "ping\n", "p1", subject="are you there"),
                                  mail(address("germany"), "hello?", "p2", subject="ping"),
                                  mail("stranger@example.org", "ping", "p3")], now=NOW)
    texts = {r.sender: read_eml(r.reply).get_content() if r.reply else None for r in results}
    assert texts[address("italy")].startswith("pong: the judge for game is up. The game is at Spring 1901")
    assert texts[address("germany")].startswith("pong")
    assert texts["stranger@example.org"] is None


# --- DKIM --------------------------------------------------------------------------------------------
def test_results_mail_is_dkim_signed_and_verifies(game: Path, smtp_inbox: SmtpInbox, tmp_path: Path) -> None:
    import dkim
    if shutil.which("openssl") is None:
        missing_server("openssl is not installed (it makes the test's DKIM key)")
    key = game / "gm" / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True, capture_output=True, timeout=60)
    public = subprocess.run(["openssl", "rsa", "-in", str(key), "-pubout", "-outform", "DER"], check=True,
                            capture_output=True, timeout=60).stdout
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    meta["mail"] = {"dkim": {"key": "gm/dkim.pem", "selector": "judge2024", "domain": "localhost"}}
    (game / "game.yaml").write_text(yaml.safe_dump(meta, sort_keys=False), encoding="utf-8")
    assert CliRunner().invoke(cli, ["adjudicate", str(game), "--nmr"]).exit_code == 0
    paths = results_mail.write_messages(game, SLUG)
    send_files(game, paths, Server(smtp_inbox.host, smtp_inbox.port))
    raw = smtp_inbox.mails[address("france")][0]
    record = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
    looked_up: list[bytes] = []

    def dns(name: bytes, timeout: int = 5) -> bytes:
        looked_up.append(name)
        return record if name == b"judge2024._domainkey.localhost." else b""
    assert raw.startswith(b"DKIM-Signature:")
    assert dkim.verify(raw, dnsfunc=dns) and looked_up == [b"judge2024._domainkey.localhost."]
    assert not dkim.verify(raw.replace(b"Spring 1901", b"Spring 1902", 1), dnsfunc=dns)   # tampered: fails


# --- N11: the fuzzer's example count ------------------------------------------------------------
def test_the_ingest_fuzzer_reads_its_example_count_from_the_environment() -> None:
    code = ("import sys; sys.path.insert(0, 'tests'); import test_ingest_fuzz as f; "
            "print(f.test_hostile_mailboxes_never_break_ingest.hypothesis._given_kwargs and "
            "f.test_hostile_mailboxes_never_break_ingest._hypothesis_internal_use_settings.max_examples)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "ADJUDICATOR_FUZZ_EXAMPLES": "7"}, check=False)
    assert out.stdout.strip() == "7", out.stderr[-2000:]
