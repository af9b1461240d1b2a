# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""Whole games by mail against real servers (mailservers.py): players' mails
are APPENDed to the judge's Dovecot INBOX, the judge ingests them over IMAP,
replies over SMTP, adjudicates and mails the results over SMTP to aiosmtpd,
which keeps them per recipient. Six Standard phases (1901 Spring to the 1902
adjustments) and a 7 Wonders game from its opening through three turns.

Every mail a player receives is parsed strictly (email.policy.default with
raise_on_defect=True) and checked: the right content, no one else's private
report or hand, threading headers, real dates, the attachments."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from test_mail import PASSWORDS, address, make_game

from adjudicator import __version__
from adjudicator.cards import driver
from adjudicator.diplomacy.model import Phase
from adjudicator.folder import gamefolder, players
from adjudicator.mail import imap
from adjudicator.mail import results as mail
from adjudicator.mail.smtp import Server, send_files
from adjudicator.output import png as pictures_png
from adjudicator.store import storage

JUDGE = "judge@localhost"
STANDARD = [
    {"austria": "A vie - gal\nF tri - alb\nA bud - ser", "england": "F lon - nth\nF edi - nwg\nA lvp - yor",
     "france": "A par - bur\nF bre - mao\nA mar - spa", "germany": "A ber - kie\nF kie - den\nA mun - ruh",
     "italy": "A ven - pie\nF nap - ion\nA rom - apu",
     "russia": "A mos - ukr\nF sev - bla\nA war - gal\nF stp/sc - bot", "turkey": "F ank - bla\nA con - bul\nA smy - con"},
    {"austria": "A vie H\nF alb - gre\nA ser H", "england": "F nwg - nwy\nF nth - bel\nA yor H",
     "france": "A bur H\nF mao - por\nA spa H", "germany": "F den H\nA kie - hol\nA ruh H",
     "italy": "A pie H\nF ion - tun\nA apu H", "russia": "A ukr - rum\nF sev H\nA war H\nF bot - swe",
     "turkey": "F ank H\nA bul H\nA con H"},
    {"austria": "build A bud\nbuild F tri", "england": "build F lon\nbuild F edi", "france": "build A par\nbuild F bre",
     "germany": "build A ber\nbuild F kie", "italy": "build F nap", "russia": "build A mos\nbuild F stp/nc",
     "turkey": "build A smy"},
    {"austria": "A bud - gal", "england": "F lon - eng", "france": "A par - pic", "germany": "A ber - pru",
     "italy": "A pie - tyr", "russia": "A mos - lvn", "turkey": "A smy - arm"},
    {"austria": "A gal H", "england": "F eng H", "france": "A pic H", "germany": "A pru H", "italy": "A tyr H",
     "russia": "A rum - bud", "turkey": "A arm H"},
    {"austria": "disband A gal", "russia": "build A mos"},
]
NAMES = {p: p.title() for p in PASSWORDS}


def player_mail(sender: str, body: str, mid: str, when: datetime, answers: EmailMessage | None) -> bytes:
    """A player's mail as a mail client writes it, replying to the last mail they had from the judge."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = f"Re: {answers['Subject']}" if answers is not None else "orders"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = mid
    if answers is not None:
        msg["In-Reply-To"] = answers["Message-ID"]
        msg["References"] = f"{answers['References']} {answers['Message-ID']}"
    msg.set_content(body)
    return bytes(msg)


def results_of(inbox: SmtpInbox, who: str) -> list[EmailMessage]:
    return [m for m in inbox.of(who) if m["X-Adjudicator-Power"] is not None]


def replies_of(inbox: SmtpInbox, who: str) -> list[EmailMessage]:
    return [m for m in inbox.of(who) if m["X-Adjudicator-Power"] is None]


def test_a_standard_game_by_mail(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox) -> None:
    folder = make_game(tmp_path / "game")
    box = imap.parse_url(dovecot.url(JUDGE))
    server = Server(smtp_inbox.host, smtp_inbox.port)
    started = datetime.now(timezone.utc) - timedelta(seconds=1)
    last: dict[str, EmailMessage] = {}            # the last results mail each player had
    sent_ids: dict[str, list[str]] = {p: [] for p in PASSWORDS}
    slugs = []
    for number, orders in enumerate(STANDARD):
        _, _, state, _ = gamefolder.load_current(folder)
        slug = state.phase.slug
        slugs.append(slug)
        when = datetime.now(timezone.utc) + timedelta(minutes=1)
        raws = []
        for power, text in orders.items():
            mid = f"<{slug}-{power}@{power}.example>"
            sent_ids[power].append(mid)
            body = f"Hi GM,\npassword: {PASSWORDS[power]}\nphase: {slug}\n{text}\nCheers,\n{NAMES[power]}\n"
            raws.append(player_mail(address(power), body, mid, when, last.get(power)))
        if number == 1:
            # Italy's Spring orders again, with the phase named: refused, naming the current phase.
            raws.append(player_mail(address("italy"), f"password: {PASSWORDS['italy']}\nphase: {slugs[0]}\n"
                                    "A ven - tyr", "<late-italy@italy.example>", when, last.get("italy")))
        dovecot.append(JUDGE, raws)
        fetched = imap.ingest_imap(folder, box, PASSWORD, now=datetime.now(timezone.utc))
        assert sorted((r.power, r.status) for r in fetched.results) == sorted(
            [(p, "stored") for p in orders] + ([("italy", "refused")] if number == 1 else []))
        send_files(folder, sorted((folder / "mail" / "replies").glob("*.eml")), server)
        gamefolder.adjudicate(folder, None, nmr=True)
        paths = mail.write_messages(folder, slug, now=datetime.now(timezone.utc))
        assert len(send_files(folder, paths, server).sent) == 7
        smtp_inbox.wait_for(sum(len(o) for o in STANDARD[:number + 1]) + (number >= 1) + 7 * (number + 1))
        for power in PASSWORDS:
            last[power] = results_of(smtp_inbox, address(power))[-1]
    _, _, state, _ = gamefolder.load_current(folder)
    assert state.phase.slug == "1903-spring-movement"
    assert "bud" in state.centres_of("russia") and "bud" not in state.centres_of("austria")
    finished = datetime.now(timezone.utc) + timedelta(seconds=1)

    roots = set()
    all_ids = set()
    for power in PASSWORDS:
        results = results_of(smtp_inbox, address(power))
        assert [m["Subject"] for m in results] == [f"[game] {Phase.from_slug(s)} results" for s in slugs]
        for slug, msg in zip(slugs, results):
            assert msg["X-Adjudicator-Power"] == power
            assert started <= msg["Date"].datetime <= finished          # the real time, not the game's year
            roots.add(msg["References"].split()[0])
            all_ids.add(msg["Message-ID"])
            text = body_of(msg)
            report = (folder / "private" / power / f"{slug}.txt").read_text(encoding="utf-8")
            assert text == report + f"-- \nAdjudicated by adjudicator {__version__}\n"
            for other in PASSWORDS:
                assert (f"private report for {NAMES[other]}" in text) == (other == power)
            parts = {p.get_content_type(): p for p in msg.iter_attachments()}
            assert parts["image/png"].get_content().startswith(b"\x89PNG")
            assert parts["image/png"].get_filename() == f"{slug}.png"
            assert "image/svg+xml" not in parts                          # only with mail: {svg: true}
            state_file = parts["application/x-yaml"]
            assert storage.unseal(state_file.get_content().decode("utf-8"), "mail")
            assert (folder / "history" / str(state_file.get_filename())).read_bytes() == state_file.get_content()
        # Replies: one per mail the player sent, threaded to it and to the results mail it answered.
        replies = replies_of(smtp_inbox, address(power))
        own = sent_ids[power] + (["<late-italy@italy.example>"] if power == "italy" else [])
        assert sorted(r["In-Reply-To"] for r in replies) == sorted(own)
        for reply in replies:
            assert started <= reply["Date"].datetime <= finished
            content = reply.get_content()
            assert PASSWORDS[power] not in content
            refs = reply["References"].split()
            assert refs[-1] == reply["In-Reply-To"]
            if reply["In-Reply-To"] != own[0]:
                assert refs[0] in roots                 # the player answered a results mail
            if reply["In-Reply-To"] == "<late-italy@italy.example>":
                assert "already been adjudicated" in content and "now at Fall 1901 Movement" in content
            else:
                assert "Orders received" in content
    assert len(roots) == 1 and len(all_ids) == 6 * 7
    assert "A Venice - Piedmont" in replies_of(smtp_inbox, address("italy"))[0].get_content()


def test_a_seven_wonders_game_by_mail(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox) -> None:
    seats = ["alice", "bob", "carol"]
    folder = driver.new_game(tmp_path / "wonders", "seven-wonders", seats, 7)
    meta = storage.read_yaml(folder / "game.yaml")
    meta["players"] = [{"power": s, "name": s, "email": f"{s}@localhost",
                        "password_hash": players.hash_password(f"pw-{s}-7")} for s in seats]
    storage.write_yaml(folder / "game.yaml", meta)
    box = imap.parse_url(dovecot.url(JUDGE))
    server = Server(smtp_inbox.host, smtp_inbox.port)
    started = datetime.now(timezone.utc) - timedelta(seconds=1)
    # The opening: each player's hand, right after `new`.
    assert len(send_files(folder, mail.write_messages(folder, mail.latest_reported_slug(folder)), server).sent) == 3
    smtp_inbox.wait_for(3)
    tags = ["0000-setup"]
    expected = 3
    for turn in range(3):
        game, state, index = driver.current(folder)[:3]
        info = game.phase(state)
        assert info is not None
        when = datetime.now(timezone.utc) + timedelta(minutes=1)
        choices = {s: {"action": "sell", "card": state["cities"][s]["hand"][0]} for s in seats}
        bodies = {
            "alice": f"password: pw-alice-7\naction: sell\ncard: {choices['alice']['card']}\n",
            "bob": f"Hello,\npassword: pw-bob-7\nbob:\n  action: sell\n  card: {choices['bob']['card']}\nThanks\n",
            "carol": f"password: pw-carol-7\nphase: {info.name}\n{{action: sell, card: {choices['carol']['card']}}}\n",
        }
        raws = [player_mail(f"{s}@localhost", bodies[s], f"<{info.name}-{s}@x.example>", when,
                            results_of(smtp_inbox, f"{s}@localhost")[-1]) for s in seats]
        if turn == 0:
            # Carol tries to choose for alice, earlier: refused whole.
            raws.append(player_mail("carol@localhost", "password: pw-carol-7\nalice: {action: wonder}\n",
                                    "<carol-for-alice@x.example>", when - timedelta(seconds=30), None))
        dovecot.append(JUDGE, raws)
        fetched = imap.ingest_imap(folder, box, PASSWORD, now=datetime.now(timezone.utc))
        assert sorted((r.power, r.status) for r in fetched.results) == sorted(
            [(s, "stored") for s in seats] + ([("carol", "refused")] if turn == 0 else []))
        for s in seats:
            stored = (driver.collected_dir(folder, index, info) / f"{s}.yaml").read_text(encoding="utf-8")
            assert stored == storage.dump_yaml({s: choices[s]})
        send_files(folder, sorted((folder / "mail" / "replies").glob("*.eml")), server)
        driver.adjudicate(folder, None)
        tag = f"{index:04d}-{info.name}"
        tags.append(tag)
        assert mail.latest_reported_slug(folder) == tag
        assert len(send_files(folder, mail.write_messages(folder, tag), server).sent) == 3
        expected += 3 + len(raws)
        smtp_inbox.wait_for(expected)
    finished = datetime.now(timezone.utc) + timedelta(seconds=1)

    for seat in seats:
        results = results_of(smtp_inbox, f"{seat}@localhost")
        assert len(results) == 4
        assert results[0]["Subject"] == "[wonders] the game begins"
        for tag, msg in zip(tags, results):
            assert started <= msg["Date"].datetime <= finished
            # No state (it holds every hand): the player's own picture of the table, as PNG.
            (picture,) = msg.iter_attachments()
            assert (picture.get_content_type(), picture.get_filename()) == ("image/png", f"{tag}.png")
            assert picture.get_content() == pictures_png.svg_to_png(
                (folder / "private" / seat / f"{tag}.svg").read_text(encoding="utf-8"))
            text = body_of(msg)
            report = (folder / "private" / seat / f"{tag}.txt").read_text(encoding="utf-8")
            assert text == report + f"-- \nAdjudicated by adjudicator {__version__}\n"
            for other in seats:
                assert (f"({other} only)" in text) == (other == seat)
                assert (f"private report for {other}" in text) == (other == seat)
        replies = replies_of(smtp_inbox, f"{seat}@localhost")
        assert len(replies) == 3 + (seat == "carol")
        for reply in replies:
            content = reply.get_content()
            assert f"pw-{seat}-7" not in content
            assert reply["References"].split()[-1] == reply["In-Reply-To"]
            if reply["In-Reply-To"] == "<carol-for-alice@x.example>":
                assert "names alice" in content and "Nothing was stored" in content
            else:
                assert f"Choice received for {seat}" in content and "action: sell" in content
                assert reply["References"].split()[0].startswith("<game-")
