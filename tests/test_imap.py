# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""ingest from a real IMAP server (Dovecot on 127.0.0.1, see mailservers.py):
plain, STARTTLS and IMAPS; what was taken is marked \\Seen and never taken
twice; replies go out over SMTP (aiosmtpd) threaded to the player's mail, once."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailservers import Dovecot, SmtpInbox, dovecot, smtp_inbox, strict_parse  # noqa: F401
from test_ingest_corpus import fresh_copy
from test_mail import PASSWORDS, SLUG, address, make_game

from adjudicator.errors import AdjudicatorError
from adjudicator.mail import imap
from adjudicator.mail.smtp import Server, send_files

JUDGE = "judge@localhost"
NOW = datetime(2024, 1, 2, 9, 0, tzinfo=timezone.utc)     # after the game's phase opened (2023-12-31)


def player_mail(power: str, body: str, mid: str, minutes: int = 0, refs: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = address(power)
    msg["To"] = JUDGE
    msg["Subject"] = "Re: game: orders"
    msg["Date"] = format_datetime(datetime(2024, 1, 1, 10, tzinfo=timezone.utc) + timedelta(minutes=minutes))
    msg["Message-ID"] = f"<{mid}@player.example>"
    if refs:
        msg["In-Reply-To"] = refs.split()[-1]
        msg["References"] = refs
    msg.set_content(body)
    return bytes(msg)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path_factory.mktemp("template") / "game")


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return fresh_copy(template, tmp_path / "game")


def test_imap_ingest_marks_taken_mail_seen_and_takes_it_once(game: Path, dovecot: Dovecot) -> None:
    dovecot.append(JUDGE, [
        player_mail("italy", f"password: {PASSWORDS['italy']}\nA ven - pie\nA rom - apu", "it-1", 1,
                    refs="<game-root@localhost> <results-1@localhost>"),
        player_mail("germany", "password: wrong\nA mun - ruh", "de-1", 2),
    ])
    box = imap.parse_url(dovecot.url(JUDGE))
    fetched = imap.ingest_imap(game, box, "imap-secret-1", now=NOW)
    assert [r.status for r in fetched.results] == ["stored", "refused"] and fetched.taken == 2
    assert all(b"\\Seen" in flags for flags in dovecot.flags(JUDGE).values())
    assert (game / "orders" / SLUG / "italy.txt").read_text(encoding="utf-8").splitlines()[1:] == \
        ["A ven - pie", "A rom - apu"]
    # The ledger, not the flag, says what is new: a mail marked unread again is not taken twice,
    # and a new one is.
    client = dovecot.client(JUDGE)
    client.select_folder("INBOX")
    client.remove_flags(client.search(["ALL"]), [b"\\Seen"])
    client.logout()
    dovecot.append(JUDGE, [player_mail("france", f"password: {PASSWORDS['france']}\nA par - bur", "fr-1", 3)])
    again = imap.ingest_imap(game, box, "imap-secret-1", now=NOW)
    assert [(r.power, r.status) for r in again.results] == [("france", "stored")]
    reply = strict_parse(fetched.results[0].reply.read_bytes())   # type: ignore[union-attr]
    assert reply["In-Reply-To"] == "<it-1@player.example>"
    assert reply["References"].split() == ["<game-root@localhost>", "<results-1@localhost>",
                                           "<it-1@player.example>"]
    assert reply["Date"].datetime == NOW


def test_imap_ingest_takes_at_most_the_limit(game: Path, dovecot: Dovecot) -> None:
    dovecot.append(JUDGE, [player_mail("italy", f"password: {PASSWORDS['italy']}\nA ven H", f"n-{i}", i)
                           for i in range(3)])
    box = imap.parse_url(dovecot.url(JUDGE))
    first = imap.ingest_imap(game, box, "imap-secret-1", now=NOW, limit=2)
    assert (first.taken, first.left) == (2, 1)
    second = imap.ingest_imap(game, box, "imap-secret-1", now=NOW, limit=2)
    assert (second.taken, second.left) == (1, 0)


@pytest.mark.parametrize("tls", ["starttls", "imaps"])
def test_imap_over_tls(game: Path, dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch, tls: str) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(dovecot.cert))
    dovecot.append(JUDGE, [player_mail("italy", f"password: {PASSWORDS['italy']}\nA ven H", "tls-1")])
    box = imap.parse_url(dovecot.url(JUDGE, tls=tls == "imaps"))
    fetched = imap.ingest_imap(game, box, "imap-secret-1", starttls=tls == "starttls", now=NOW)
    assert [r.status for r in fetched.results] == ["stored"]


def test_an_untrusted_certificate_is_refused(game: Path, dovecot: Dovecot) -> None:
    box = imap.parse_url(dovecot.url(JUDGE, tls=True))
    with pytest.raises(AdjudicatorError, match="TLS"):
        imap.ingest_imap(game, box, "imap-secret-1", now=NOW)


def test_a_wrong_imap_password_is_one_clear_error(game: Path, dovecot: Dovecot) -> None:
    with pytest.raises(AdjudicatorError, match="refused the login"):
        imap.ingest_imap(game, imap.parse_url(dovecot.url(JUDGE)), "nope", now=NOW)


@pytest.mark.parametrize("url, message", [
    ("imap://judge:pw@localhost:143/INBOX", "holds a password"),
    ("imap://localhost/INBOX", "not an IMAP address"),
    ("imap://judge@localhost:99999/INBOX", "not an IMAP address"),
])
def test_bad_imap_addresses(url: str, message: str) -> None:
    with pytest.raises(AdjudicatorError, match=message):
        imap.parse_url(url)


def test_imap_addresses() -> None:
    box = imap.parse_url("imaps://judge@example.org@mail.example.org/Orders%20In")
    assert (box.secure, box.user, box.host, box.port, box.folder) == \
        (True, "judge@example.org", "mail.example.org", 993, "Orders In")
    assert imap.parse_url("imap://j@h").port == 143 and imap.parse_url("imap://j@h").folder == "INBOX"


def test_cli_ingest_from_imap_and_send_replies_once(game: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.cli.main import cli
    dovecot.append(JUDGE, [player_mail("italy", f"password: {PASSWORDS['italy']}\nA ven - pie", "cli-1"),
                           player_mail("germany", f"password: {PASSWORDS['germany']}\nA mun - xyz", "cli-2", 1)])
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", "imap-secret-1")
    smtp = f"{smtp_inbox.host}:{smtp_inbox.port}"
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", str(game), dovecot.url(JUDGE), "--send", "--smtp", smtp])
    assert out.exit_code == 0, out.output
    assert "sent 2 message(s)" in out.output
    smtp_inbox.wait_for(2)
    italy = smtp_inbox.of(address("italy"))
    germany = smtp_inbox.of(address("germany"))
    assert len(italy) == len(germany) == 1
    assert italy[0]["In-Reply-To"] == "<cli-1@player.example>"
    text = italy[0].get_content()
    assert "A Venice - Piedmont" in text and PASSWORDS["italy"] not in text
    problem = germany[0].get_content()
    assert "line 2: A mun - xyz" in problem and "error" in problem and PASSWORDS["germany"] not in problem
    # Again: nothing new to take, nothing to send again.
    out = runner.invoke(cli, ["ingest", str(game), dovecot.url(JUDGE), "--send", "--smtp", smtp])
    assert out.exit_code == 0, out.output
    assert "no new messages" in out.output and "sent 0 message(s)" in out.output and "2 sent before" in out.output
    assert smtp_inbox.count() == 2
    # A password on the command line is refused before anything is read.
    out = runner.invoke(cli, ["ingest", str(game), f"imap://{JUDGE}:imap-secret-1@127.0.0.1:{dovecot.port}/INBOX"])
    assert out.exit_code == 2 and "holds a password" in out.output


def test_replies_written_earlier_are_sent_later_once(game: Path, smtp_inbox: SmtpInbox, tmp_path: Path) -> None:
    from adjudicator.mail.ingest import ingest
    (tmp_path / "m.eml").write_bytes(player_mail("italy", f"password: {PASSWORDS['italy']}\nA ven H", "later"))
    ingest(game, tmp_path / "m.eml", now=NOW)
    replies = sorted((game / "mail" / "replies").glob("*.eml"))
    server = Server(smtp_inbox.host, smtp_inbox.port)
    assert len(send_files(game, replies, server).sent) == 1
    assert send_files(game, replies, server).skipped == replies
    smtp_inbox.wait_for(1)
    assert smtp_inbox.count() == 1
