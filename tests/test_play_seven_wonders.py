# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""A 7 Wonders game by mail, from the opening hands to the end-of-game mail,
by `adjudicator run` alone over Dovecot and aiosmtpd with an injected clock.

The GM sets it up as docs/mail.md says. Three scripted players decide only
from the mails they get: each reads the hand in their own report (what each
card would cost them now, and the purchase to paste), and mails a wonder
stage, a card to build, or a card to sell. Bob holds Halicarnassus (side B:
every stage builds from the discard pile): his first pick from the pile he
passes (`action: pass`, by mail), the later ones he builds. Carol misses one
turn: the default is played for her and she is told.

Checked: every mail as in tableplay.check_every_mail; each player's mails
show their own hand and never another's; the end of the game comes once."""

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
    kind,
    play_by_mail,
    seat_card_game,
)

SEATS = ("alice", "bob", "carol")
SEED = 3                                   # bob is dealt Halicarnassus
PASSWORDS = {seat: f"{seat}-plays-wonders" for seat in SEATS}
CARD_RE = re.compile(r"^  - (.+?) \[\w+\] cost ")
BUY_RE = re.compile(r"\(buy: (\{.*\})\)")


@pytest.fixture
def table(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    return seat_card_game(tmp_path / "wonders", ["--variant", "seven-wonders", "--seed", str(SEED), "--option", "side=B"], PASSWORDS,
                          ["--movement", "1d"], dovecot, smtp_inbox, monkeypatch)


def own_part(report: str) -> str:
    """The newest report in a mail (a welcome quotes the latest results after its own text)."""
    return report.rsplit("YOUR SECRETS", 1)[-1]


def hand(report: str) -> list[tuple[str, str]]:
    """(card, 'build now?' verdict) for each card of the player's hand."""
    cards: list[tuple[str, str]] = []
    name = None
    for line in own_part(report).splitlines():
        found = CARD_RE.match(line)
        if found:
            name = found.group(1)
        elif line.startswith("      build now? ") and name is not None:
            cards.append((name, line.removeprefix("      build now? ")))
            name = None
    return cards


def with_purchase(lines: list[str], verdict: str) -> str:
    bought = BUY_RE.search(verdict)
    return "\n".join(lines + ([f"buy: {bought.group(1)}"] if bought else []))


class Wonders:
    """Wonder stages first, then the first card it can build, else sell;
    from the discard pile: pass the first time, then build the first card."""

    def __init__(self) -> None:
        self.picks: dict[str, int] = {}
        self.chose: list[tuple[str, str]] = []

    def wants(self, seat: str, report: str) -> bool:
        nexts = [line for line in report.splitlines() if line.startswith("NEXT: ")]
        return bool(nexts) and nexts[-1].endswith("send your choice, e.g.")

    def decide(self, seat: str, report: str, refusals: list[str]) -> str:
        mine = own_part(report)
        if "You may build one card from the discard pile" in mine:
            pile = mine.split("for free (or pass):\n", 1)[1].splitlines()[0].strip()
            self.picks[seat] = self.picks.get(seat, 0) + 1
            if self.picks[seat] == 1 or refusals or pile == "(nothing you may build)":
                return self.said(seat, "action: pass")
            return self.said(seat, f"action: build\ncard: {pile.split(', ')[0]}")
        cards = hand(report)
        assert cards, mine
        if refusals:
            return self.said(seat, f"action: sell\ncard: {cards[0][0]}")
        stage = re.search(r"build now \(tucking any card from your hand\)\? (.*)", mine)
        if stage and stage.group(1).startswith("yes"):
            return self.said(seat, with_purchase(["action: wonder", f"card: {cards[-1][0]}"], stage.group(1)))
        for card, verdict in cards:
            if verdict.startswith("yes"):
                return self.said(seat, with_purchase(["action: build", f"card: {card}"], verdict))
        return self.said(seat, f"action: sell\ncard: {cards[0][0]}")

    def said(self, seat: str, choice: str) -> str:
        self.chose.append((seat, choice))
        return choice


def test_a_seven_wonders_game_by_mail_from_the_opening_hands_to_the_end(table: Table) -> None:
    game = table.game
    out = table.tick(T0)
    assert "age1-turn1 opens now" in out, out
    assert table.kinds() == ["Welcome"] * 3
    table.read_all()
    for seat, player in table.players.items():
        opening = body_of(player.mails[0])
        own = (game / "private" / seat / "0000-setup.txt").read_text(encoding="utf-8")
        assert own.strip() in opening and len(hand(opening)) == 7

    players = Wonders()

    def carol_misses_once(seat: str, report: str) -> bool:
        return seat == "carol" and "NEXT: Age II, turn 3 (phase age2-turn3)" in report

    end = play_by_mail(table, players, T0 + timedelta(minutes=10), timedelta(minutes=10), 60,
                       silent=carol_misses_once)
    assert (game / "reports" / "0021-age3-turn6.txt").exists()
    # Bob passed his first pick from the discard pile, by mail, and built from it later.
    bob = [choice for seat, choice in players.chose if seat == "bob"]
    assert "action: pass" in bob and any(choice.startswith("action: build") for choice in
                                         bob[bob.index("action: pass") + 1:]), bob
    passed = [msg for msg in table.players["bob"].mails if kind(msg) == "Re" and "action: pass" in body_of(msg)]
    assert passed and "Choice received for bob" in body_of(passed[0])
    picks = sorted(p.name for p in (game / "reports").iterdir() if p.name.endswith("-discard.txt"))
    assert len(picks) >= 2 and "bob builds nothing from the discard pile" in \
        (game / "reports" / picks[0]).read_text(encoding="utf-8")
    # Carol's missed turn: the default was played, she was told, the others were not.
    notices = [msg for msg in table.players["carol"].mails if kind(msg) == "Notice"]
    assert len(notices) == 1, [m["Subject"] for m in table.players["carol"].mails]
    assert "No choice came from you for Age II, turn 3 (age2-turn3) in wonders; the default was played" in \
        body_of(notices[0])
    assert not any(kind(msg) == "Notice" for seat in ("alice", "bob") for msg in table.players[seat].mails)
    # The end: one mail each, with the score sheet; nothing more after it.
    for player in table.players.values():
        ends = [msg for msg in player.mails if kind(msg) == "The"]
        assert len(ends) == 1 and "SCORE" in body_of(ends[0]).upper(), player.seat
    assert "the game is over; nothing to do" in table.tick(end + timedelta(days=2))
    assert table.last() == []
    assert check_every_mail(table, ("24h",)) > 3 * 18
    # Hands are secret: no mail carries another player's hand, and nobody's password but its owner's welcome.
    for tick in table.ticks:
        for who, msg in tick.mails:
            text = every_text(msg)
            for seat in SEATS:
                if address(seat) != who:
                    assert f"({seat} only)" not in text and f"private report for {seat}" not in text, (who, seat)
                    assert PASSWORDS[seat] not in text
