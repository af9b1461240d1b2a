# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""An Age of Ambition game by mail, from the opening report to the
end-of-game mail, by `adjudicator run` alone over Dovecot and aiosmtpd with
an injected clock, set up as docs/mail.md says.

Two scripted players decide only from their own reports: from the economy
board (each guild's open spaces and unemployed agents) and their position
(wealth, what they can still borrow), each turn they borrow when they are
broke and hire from the guild with the most unemployed agents, until a hire
takes the last unemployed agent and the end comes. A turn with nothing to do
is `actions: []`. Bob forgets one turn: he is reminded, the default is
played and he is told. Every mail is checked as in tableplay.check_every_mail."""

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

SEATS = ("alice", "bob")
PASSWORDS = {seat: f"{seat}-has-ambition" for seat in SEATS}
ROW_RE = re.compile(r"^  (\w+)' Guild +([WB.]+)  wealth \d+, next hire \S+, unemployed (\d+), in city \d+$",
                    re.MULTILINE)
WEALTH_RE = re.compile(r"^  Wealth (\d+), flags left \d+, debt \d+\.$", re.MULTILINE)
BORROW_RE = re.compile(r"^  Can still borrow: (.*)$", re.MULTILINE)


@pytest.fixture
def table(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    return seat_card_game(tmp_path / "ambition", ["--variant", "age-of-ambition", "--seed", "5"], PASSWORDS,
                          ["--movement", "2d", "--reminders", "12h"], dovecot, smtp_inbox, monkeypatch)


def newest(report: str) -> str:
    """The newest report in a mail (a welcome quotes the latest results after its own text)."""
    return report.rsplit("ECONOMY BOARD", 1)[-1]


class Hirers:
    """Borrow when broke, hire from the guild with the most unemployed agents."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, list[str]]] = []

    def wants(self, seat: str, report: str) -> bool:
        return "IT IS YOUR TURN: send a turn file for phase" in newest(report)

    def decide(self, seat: str, report: str, refusals: list[str]) -> str:
        mine = newest(report)
        allowed = 1 if "with up to 1 action" in mine else 2
        wealth = int(WEALTH_RE.findall(mine)[-1])
        borrow = BORROW_RE.findall(mine)[-1]
        room = {} if borrow.startswith("nothing") else \
            {g: int(n) for g, n in (part.split() for part in borrow.split(", "))}
        rows = {name.lower(): [row, int(idle)] for name, row, idle in ROW_RE.findall(mine)}
        assert len(rows) == 6, mine
        actions: list[str] = []
        while len(actions) < allowed and not refusals:
            hireable = [g for g, (row, idle) in rows.items() if idle > 0 and "." in row]
            if not hireable:
                break
            if wealth == 0:
                if not room or len(actions) + 1 >= allowed:
                    break
                guild, most = max(room.items(), key=lambda item: item[1])
                amount = min(most, 3)
                actions.append(f"  - {{action: borrow, from: {{{guild}: {amount}}}}}")
                wealth, room = wealth + amount, {}
                continue
            guild = max(hireable, key=lambda g: rows[g][1])
            row, idle = rows[guild]
            values = [3, 3, 2, 2, 1, 1]
            rows[guild] = [row.replace(".", "W", 1), idle - min(values[row.index(".")], idle)]
            wealth -= 1
            actions.append(f"  - {{action: hire, guild: {guild}}}")
        self.turns.append((seat, actions))
        return "actions: []" if not actions else "actions:\n" + "\n".join(actions)


def test_an_age_of_ambition_game_by_mail_from_the_opening_to_the_end(table: Table) -> None:
    game = table.game
    out = table.tick(T0)
    assert "opens now" in out, out
    assert table.kinds() == ["Welcome"] * 2
    players = Hirers()

    def bob_forgets_turn_4(seat: str, report: str) -> bool:
        return "send a turn file for phase turn-04-bob" in report

    end = play_by_mail(table, players, T0 + timedelta(minutes=10), timedelta(minutes=10), 80,
                       silent=bob_forgets_turn_4)
    # Bob forgot his turn 4: reminded 12 hours before its deadline, then the default (no
    # action) was played for him and he was told.
    bob = table.players["bob"]
    reminders = [body_of(msg) for msg in bob.mails if kind(msg) == "Reminder"]
    assert len(reminders) == 1 and "We have not received yours yet." in reminders[0], reminders
    notices = [body_of(msg) for msg in bob.mails if kind(msg) == "Notice"]
    assert len(notices) == 1 and "No choice came from you for" in notices[0], notices
    assert not any(kind(msg) in ("Reminder", "Notice") for msg in table.players["alice"].mails)
    assert {seat for seat, _ in players.turns} == set(SEATS)
    assert any("borrow" in line for _, actions in players.turns for line in actions), players.turns
    assert ("bob", []) in players.turns                 # a turn with nothing to do, by mail
    [final] = sorted((game / "reports").glob("*-final-*.txt"))
    assert "hired the last unemployed agent" in final.read_text(encoding="utf-8")
    for player in table.players.values():
        ends = [msg for msg in player.mails if kind(msg) == "The"]
        assert len(ends) == 1 and "FINAL SCORES" in body_of(ends[0]), player.seat
        refused = [msg for msg in player.mails if kind(msg) == "Re" and "Choice received" not in body_of(msg)]
        assert refused == [], body_of(refused[0])
    assert "the game is over; nothing to do" in table.tick(end + timedelta(days=3))
    assert check_every_mail(table, ("12h",)) > 2 * len(players.turns)
    for tick in table.ticks:
        for who, msg in tick.mails:
            text = every_text(msg)
            for seat in SEATS:
                if who != address(seat):
                    assert PASSWORDS[seat] not in text
