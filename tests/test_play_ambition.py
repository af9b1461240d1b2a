# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""An Ambition game by mail, from the opening hands to the end-of-game mail,
by `adjudicator run` alone over Dovecot and aiosmtpd with an injected clock,
set up as docs/mail.md says (a short game: `--option round_limit=3`).

Three scripted players decide only from their own reports: on a roll of 1-4
they declare an Elite from their hand at its true value (or draw when they
hold none); on 5-6 the first to roll it offers the next player a secret
Technology Trade (`secret: true` on its own line, by mail) and the others
pass (`action: pass`, by mail); nobody challenges; the partner accepts what
their report says was offered to them, the others decline; they draw in the
intrigue phase and keep what they draw; under a Disarmament Treaty they
discard the Nuclear Arms they hold.

The secret proposal stays secret: its type and its partner appear in the
proposer's and the partner's mails, and never in a public report, in the
site, or in the third player's mails. Every mail is checked as in
tableplay.check_every_mail."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from runbymail import T0, address
from tableplay import (
    Table,
    check_every_mail,
    every_text,
    gm,
    kind,
    play_by_mail,
    seat_card_game,
)

SEATS = ("alice", "bob", "carol")
SEED = 53
PASSWORDS = {seat: f"{seat}-is-ambitious" for seat in SEATS}
ELITE_RE = re.compile(r"^    ((?:aide|journalist|lobbyist|banker|general|magnate)-\d+): \w+ \((\d)\)$", re.MULTILINE)
ARMS_RE = re.compile(r"^    (nuclear-arms-\d+): ", re.MULTILINE)
OFFER = "technology-trade"


@pytest.fixture
def table(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    return seat_card_game(tmp_path / "ambition", ["--variant", "ambition", "--seed", str(SEED), "--option", "round_limit=3"], PASSWORDS,
                          ["--movement", "1d", "--reminders", "2h"], dovecot, smtp_inbox, monkeypatch)


def newest(report: str) -> str:
    """The newest report in a mail (a welcome quotes the latest results after its own text)."""
    return report.rsplit("Your hand:\n", 1)[-1]


def next_block(report: str) -> dict[str, str]:
    """The report's 'Next:' block: Waiting for, Turn file phase, Die roll, ..."""
    block = newest(report).split("\nNext: ", 1)[1]
    return {key.strip(): value.strip() for key, value in
            (line.split(":", 1) for line in block.splitlines()[1:] if line.startswith("  ") and ":" in line)}


class Players:
    def __init__(self) -> None:
        self.proposer: str | None = None
        self.partner: str | None = None
        self.chose: list[tuple[str, str, str]] = []         # (seat, phase, choice)

    def wants(self, seat: str, report: str) -> bool:
        if "\nNext: " not in newest(report):
            return False
        return seat in next_block(report)["Waiting for"].split(" (")[0].split(", ")

    def decide(self, seat: str, report: str, refusals: list[str]) -> str:
        nxt = next_block(report)
        phase = nxt["Turn file phase"]
        step = phase.rsplit("-", 1)[1]
        mine = newest(report)
        choice = self.choose(seat, step, nxt, mine, refusals)
        self.chose.append((seat, phase, choice))
        return choice

    def choose(self, seat: str, step: str, nxt: dict[str, str], mine: str, refusals: list[str]) -> str:
        if step == "diplomacy":
            roll = int(nxt["Die roll"].split()[0])
            elites = ELITE_RE.findall(mine.split("  Intrigue cards:", 1)[0])
            if refusals:
                return "action: pass"
            if roll >= 5:
                if self.proposer is None:
                    self.proposer = seat
                    self.partner = SEATS[(SEATS.index(seat) + 1) % len(SEATS)]
                    return f"action: propose\npartner: {self.partner}\nalliance: {OFFER}\nsecret: true"
                return "action: pass"
            if elites:
                card, value = elites[0]
                return f"action: declare\ncard: {card}\nvalue: {value}"
            return "action: draw"
        if step == "challenge":
            return "challenge: false"
        if step == "answer":
            offered = re.search(r"^  Proposal: (\w+) offers (\w+) ", mine, re.MULTILINE)
            return f"accept: {'true' if offered and offered.group(2) == seat else 'false'}"
        if step == "intrigue":
            return "action: draw"
        if step == "drawn":
            return "action: keep"
        if step == "comply":
            return f"discard: [{', '.join(ARMS_RE.findall(mine))}]"
        if step == "audit":
            return "challenge: []"
        if step == "defence":
            return "{}"
        raise AssertionError(f"{seat}: no rule for the {step} step:\n{mine}")


def test_an_ambition_game_by_mail_with_a_secret_proposal_that_stays_secret(table: Table, tmp_path: Path) -> None:
    game = table.game
    out = table.tick(T0)
    assert "r1-alice-diplomacy opens now" in out, out
    assert table.kinds() == ["Welcome"] * 3
    table.read_all()
    for seat, player in table.players.items():
        assert len(ELITE_RE.findall(body_of(player.mails[0]))) == 3, seat      # the opening hand, their own
    players = Players()
    end = play_by_mail(table, players, T0 + timedelta(minutes=10), timedelta(minutes=10), 120)
    chose = {(seat, choice) for seat, _, choice in players.chose}
    assert players.proposer and players.partner, chose
    third = next(seat for seat in SEATS if seat not in (players.proposer, players.partner))
    assert {seat for seat, choice in chose if choice == "action: pass"} >= {third}, chose
    assert (players.partner, "accept: true") in chose and (third, "accept: false") in chose
    # The proposal was taken as sent, secret, and echoed to its sender.
    proposer, partner = table.players[players.proposer], table.players[players.partner]
    echoed = [body_of(msg) for msg in proposer.mails
              if kind(msg) == "Re" and "alliance: technology-trade" in body_of(msg)]
    assert len(echoed) == 1 and "secret: true" in echoed[0], echoed
    # Only the proposer and the partner ever read what was offered, and to whom.
    words = ("Technology Trade", "technology-trade", f"offers {partner.seat}")
    assert any("Technology Trade" in every_text(msg) for msg in partner.mails)
    assert any("Technology Trade" in every_text(msg) for msg in proposer.mails)
    for msg in table.players[third].mails:
        assert not any(word in every_text(msg) for word in words), msg["Subject"]
    public = sorted((game / "reports").iterdir())
    assert any("makes a secret alliance proposal" in path.read_text(encoding="utf-8") for path in public)
    for path in public:
        assert not any(word in path.read_text(encoding="utf-8") for word in words), path.name
    site = tmp_path / "site"
    gm("site", str(game), str(site))
    pages = [path for path in site.rglob("*") if path.is_file()]
    assert pages
    for path in pages:
        assert not any(word in path.read_text(encoding="utf-8", errors="replace") for word in words), path
    # The end: one mail each with the final scores; the game takes nothing more.
    for player in table.players.values():
        ends = [msg for msg in player.mails if kind(msg) == "The"]
        assert len(ends) == 1 and "Final scores:" in body_of(ends[0]), player.seat
    assert "the game is over; nothing to do" in table.tick(end + timedelta(days=2))
    assert check_every_mail(table, ("2h",)) > 3 * 20
    for tick in table.ticks:
        for who, msg in tick.mails:
            text = every_text(msg)
            for seat in SEATS:
                if who != address(seat):
                    assert PASSWORDS[seat] not in text and f"private report for {seat}" not in text
