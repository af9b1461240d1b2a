"""End to end by mail: players with passwords, orders by mbox (with rejected
mails), adjudication, result mails written and sent to a local SMTP server."""

from __future__ import annotations

import mailbox
import os
import socket
import time
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from adjudicator import __version__
from adjudicator.folder import gamefolder, players
from adjudicator.mail import results as mail
from adjudicator.mail.ingest import ingest

SLUG = "1901-spring-movement"
PASSWORDS = {p: f"secret-{p}-42" for p in ("austria", "england", "france", "germany", "italy", "russia", "turkey")}
ORDERS = {
    "austria": "A vie - gal\nF tri - alb\nA bud - ser",
    "england": "F lon - nth\nF edi - nwg\nA lvp - yor",
    "france": "A par - bur\nF bre - mao\nA mar - spa",
    "germany": "A ber - kie\nF kie - den\nA mun - ruh",
    "italy": "A ven - pie\nF nap - ion\nA rom - apu",
    "russia": "A mos - ukr\nF sev - bla\nA war - gal\nF stp/sc - bot",
    "turkey": "F ank - bla\nA con - bul\nA smy - con",
}


def address(power: str) -> str:
    return f"{power}@localhost"


def letter(sender: str, body: str, minute: int, mid: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@localhost"
    msg["Subject"] = "orders"
    msg["Date"] = f"Mon, 01 Jan 2024 10:{minute:02d}:00 +0000"
    msg["Message-ID"] = f"<{mid}@localhost>"
    msg.set_content(body)
    return msg


def read_eml(path: Path | None) -> Any:
    assert path is not None
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Collector:
    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        return "250 OK"


# The mails below are dated 1 January 2024; the game's phase opened the day before.
OPENED = datetime(2023, 12, 31, 12, 0, tzinfo=timezone.utc).timestamp()


def open_phase_at(folder: Path, when: float) -> None:
    """Set when the current phase opened: ingest reads it from history/'s newest mtime."""
    for path in (folder / "history").glob("*.yaml"):
        os.utime(path, (when, when))


def make_game(folder: Path) -> Path:
    gamefolder.new_game(folder, "standard")
    for power, password in PASSWORDS.items():
        players.add_player(folder, power, power.title() + " Player", address(power), password)
    open_phase_at(folder, OPENED)
    return folder


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path / "game")


def test_passwords_are_hashed_not_stored(game: Path) -> None:
    text = (game / "game.yaml").read_text(encoding="utf-8")
    for password in PASSWORDS.values():
        assert password not in text
    roster = yaml.safe_load(text)["players"]
    assert all(p["password_hash"].startswith("$argon2id$v=19$m=19456,t=2,p=1$") for p in roster)
    assert len({p["password_hash"] for p in roster}) == 7          # salted: no two alike
    france = next(p for p in roster if p["power"] == "france")
    assert players.verify(france, PASSWORDS["france"])
    assert not players.verify(france, PASSWORDS["england"])
    players.set_password(game, "France", "new one")
    france = players.find_by_email(game, "France Player <FRANCE@localhost>")
    assert france is not None and players.verify(france, "new one")
    assert not players.verify(france, PASSWORDS["france"])


def test_game_by_mail_end_to_end(game: Path, tmp_path: Path) -> None:
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    for n, (power, orders) in enumerate(ORDERS.items()):
        box.add(letter(address(power), f"Hi GM,\npassword: {PASSWORDS[power]}\n{orders}\n-- \n{power}",
                       10 + n, f"good-{power}"))
    # Dated before France's good mail but later in the file: Date order must win.
    box.add(letter(address("france"), f"Password: {PASSWORDS['france']}\nA par H\nF bre H\nA mar H", 1, "early-fr"))
    # Rejected mails, all dated after the good ones so they would replace them if stored.
    box.add(letter(address("england"), "password: guess\nF lon - eng\nF edi - nth\nA lvp - wal", 40, "bad-pw"))
    box.add(letter("stranger@localhost", f"password: {PASSWORDS['italy']}\nA ven - tyr", 41, "stranger"))
    box.add(letter(address("italy"), f"password: {PASSWORDS['italy']}\nA ven - tyr\nA mun - tyr", 42, "foreign-unit"))
    box.add(letter(address("turkey"), f"password: {PASSWORDS['turkey']}\nRussia:\nA war - sil", 43, "foreign-head"))
    box.add(letter(address("germany"), "A ber - pru\nF kie - hol", 44, "no-pw"))
    box.close()

    results = ingest(game, box_path)
    assert len(results) == 13
    accepted = [r for r in results if r.accepted]
    rejected = {r.sender: r for r in results if not r.accepted}
    assert sorted(r.power for r in accepted if r.power) == sorted(list(ORDERS) + ["france"])
    reasons = {r.sender: r.reason or "" for r in results if not r.accepted}
    assert "wrong password" in reasons[address("england")]
    assert "not a player" in reasons["stranger@localhost"]
    assert "belongs to Germany" in reasons[address("italy")]
    assert "for Russia" in reasons[address("turkey")]
    assert "no password" in reasons[address("germany")]
    assert len(rejected) == 5

    # What is stored is each power's good mail, nothing from a rejected one.
    stored = game / "orders" / SLUG
    assert sorted(p.stem for p in stored.glob("*.txt")) == sorted(ORDERS)
    for power, orders in ORDERS.items():
        text = (stored / f"{power}.txt").read_text(encoding="utf-8")
        body = [l for l in text.splitlines() if l and not l.startswith("#")]
        assert body == orders.splitlines(), power
        assert PASSWORDS[power] not in text
    # Every mail from a player got a reply to its sender; rejections say why and that nothing was
    # stored. The stranger got none: the judge answers only its players.
    replies = sorted((game / "mail" / "replies").glob("*.eml"))
    assert len(replies) == 12
    assert rejected["stranger@localhost"].reply is None
    for result in results:
        if result.sender == "stranger@localhost":
            continue
        assert result.reply is not None
        reply = read_eml(result.reply)
        assert reply["To"] == result.sender
        content = reply.get_content()
        if result.accepted:
            assert "Orders received" in content
        else:
            assert "Nothing was stored" in content and (result.reason or "").splitlines()[0] in content
        assert not any(pw in content for pw in PASSWORDS.values())
    france_reply = read_eml(next(r.reply for r in results if r.accepted and r.power == "france"
                                 and r.number == max(x.number for x in results if x.power == "france" and x.accepted)))
    assert "A Paris - Burgundy" in france_reply.get_content()

    # A second ingest of the same mailbox does nothing.
    assert ingest(game, box_path) == []

    gamefolder.adjudicate(game, None)
    state = yaml.safe_load((game / "history" / "1901-fall-movement.yaml").read_text(encoding="utf-8"))
    assert "bur" in str(state)
    # adjudicate draws the map once the renderer is registered (the CLI does
    # that); make sure one is there either way, to check the attachment.
    svg = game / "maps" / f"{SLUG}.svg"
    if not svg.exists():
        svg.parent.mkdir(exist_ok=True)
        svg.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")

    paths = mail.write_messages(game, SLUG)
    assert len(paths) == 7
    first = {p: p.read_bytes() for p in paths}
    assert mail.write_messages(game, SLUG) == paths
    assert all(p.read_bytes() == first[p] for p in paths)          # byte-identical re-run

    collector = Collector()
    port = free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        refused = mail.send_messages(mail.build_messages(game, SLUG), "127.0.0.1", port)
        deadline = time.monotonic() + 5
        while len(collector.envelopes) < 7 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        controller.stop()
    assert refused == {}
    assert len(collector.envelopes) == 7
    public = (game / "reports" / f"{SLUG}.txt").read_text(encoding="utf-8")
    for envelope in collector.envelopes:
        msg = BytesParser(policy=policy.default).parsebytes(envelope.original_content or envelope.content)
        power = msg["X-Adjudicator-Power"]
        assert envelope.rcpt_tos == [address(power)]
        assert msg["To"].addresses[0].addr_spec == address(power)
        assert msg["Subject"] == "[game] Spring 1901 Movement results"
        text = msg.get_body(preferencelist=("plain",)).get_content()
        private = (game / "private" / power / f"{SLUG}.txt").read_text(encoding="utf-8")
        assert text.replace("\r\n", "\n") == private + f"-- \nAdjudicated by adjudicator {__version__}\n"
        assert "Burgundy" in text and public.splitlines()[0] in text
        maps = [p.get_content_type() for p in msg.iter_attachments() if p.get_content_maintype() == "image"]
        assert maps == ["image/png"]          # the SVG only when game.yaml asks for it


def test_maildir_and_cli(game: Path, tmp_path: Path) -> None:
    from adjudicator.cli.mail import COMMANDS
    from adjudicator.cli.main import cli
    for command in COMMANDS:
        cli.add_command(command)
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    md.add(letter(address("france"), f"password: {PASSWORDS['france']}\nA par - pic\nA mar - xyzzy", 1, "md-1"))
    md.close()
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", str(game), str(tmp_path / "Maildir")])
    assert out.exit_code == 0, out.output
    assert "stored" in out.output and "1 problem" in out.output
    stored = (game / "orders" / SLUG / "france.txt").read_text(encoding="utf-8")
    assert "A par - pic" in stored and "# not accepted: A mar - xyzzy" in stored
    out = runner.invoke(cli, ["player", "add", str(game), "Frnce", "--name", "x", "--email", "x@localhost",
                              "--password", "p-long-enough"])
    assert out.exit_code == 2 and "did you mean France" in out.output
    # Before any phase: `mail` writes each player's welcome (their power, how to order, the state file).
    out = runner.invoke(cli, ["mail", str(game)])
    assert out.exit_code == 0 and out.output.count("mail/welcome/") == 7, out.output
    empty = tmp_path / "empty"
    gamefolder.new_game(empty, "standard")
    out = runner.invoke(cli, ["mail", str(empty)])
    assert out.exit_code == 2 and "no phase has been adjudicated" in out.output


def test_maildir_is_read_in_name_order_whatever_the_directory_lists(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A Maildir's mails come in the order of their names (delivery time
    first, as Maildir names them), across new/ and cur/, however the file
    system lists the folder: a re-run reads the same mails in the same order."""
    from adjudicator.mail.mailread import read_mailbox
    box = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    names = [f"17000000{n:02d}.M{n}P1.host" for n in range(12)]
    for n, name in enumerate(names):
        sub = "cur" if n % 3 == 0 else "new"
        suffix = ":2,S" if sub == "cur" else ""
        (box / sub / (name + suffix)).write_bytes(f"Subject: mail {n}\n\nbody {n}\n".encode())
    listdir = os.listdir
    monkeypatch.setattr(mailbox.os, "listdir", lambda path: sorted(listdir(path), reverse=True))
    read = read_mailbox(box)
    assert [bytes(m).split(b"\n", 1)[0] for m in read] == [f"Subject: mail {n}".encode() for n in range(12)]
