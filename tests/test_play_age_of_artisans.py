# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""An Age of Artisans game by mail, from the opening hands to the
end-of-game mail, by `adjudicator run` alone over Dovecot and aiosmtpd with
an injected clock, set up as docs/mail.md says.

Two scripted players decide only from their own reports: their hand (each
card's cost and the skills it needs), their goods, apprentices, workers and
Cathedral stage, and where their workers stand. Each turn a player builds a
card of their hand they can pay for, or the next Cathedral stage; else sends
a worker for what the nearest of those lacks (clay or gold at the Mines,
stone, wood, marble at the Storehouse, a card at the Workhouse); with no
worker left they recall one. They draft the first apprentice offered, keep
the first card of a draw and discard the cards they cannot build. The game
ends when the Guildhall is full. Every mail is checked as in
tableplay.check_every_mail, and no mail shows a player's hand to another."""

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
PASSWORDS = {seat: f"{seat}-the-artisan" for seat in SEATS}
GOODS = ("clay", "wood", "stone", "gold", "marble")
CARD_RE = re.compile(r"^  #(\d+) (.+?): \d+ VP, cost (.+?)(?:, needs ([a-z/]+))?(?:, virtue [+-]\d+)?$", re.MULTILINE)
APPRENTICE_RE = re.compile(r"^      (\d)\. .+? #(\d+) \(([a-z/]+)\)", re.MULTILINE)
# Cards whose build needs a field of its own the players do not make (captures, an apprentice to lose).
AVOID = {"Armoury", "Fortress", "Graveyard", "Barracks"}


@pytest.fixture
def table(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    return seat_card_game(tmp_path / "artisans", ["--variant", "age-of-artisans", "--seed", "7"], PASSWORDS,
                          ["--movement", "1d", "--reminders", "2h"], dovecot, smtp_inbox, monkeypatch)


def newest(report: str) -> str:
    """The newest report in a mail (a welcome quotes the latest results after its own text)."""
    return "YOUR HAND" + report.rsplit("YOUR HAND", 1)[-1]


def goods(text: str) -> dict[str, int]:
    """'3 clay, 2 stone' -> {'clay': 3, 'stone': 2}."""
    return {name: int(count) for count, name in (part.split() for part in text.split(", ") if part != "nothing")}


class Me:
    """What a player reads about themselves in their report."""

    def __init__(self, seat: str, report: str) -> None:
        mine = newest(report)
        self.hand_text = mine.split("\n\n", 1)[0]
        self.hand = [(int(cid), name, goods(cost), skills.split("/") if skills else [])
                     for cid, name, cost, skills in CARD_RE.findall(self.hand_text)]
        players = mine.split("\nPLAYERS (turn order:", 1)[1]
        stats = re.search(r"virtue (\d+) \| silver (\d+) \| clay (\d+) wood (\d+) stone (\d+) gold (\d+) marble (\d+)",
                          players.split(f"\n  {seat}", 1)[1])
        assert stats, players
        self.virtue, self.silver = int(stats.group(1)), int(stats.group(2))
        self.goods = dict(zip(GOODS, map(int, stats.groups()[2:]), strict=True))
        own = players.split(f"\n  {seat}", 1)[1].split("Cathedral stage", 1)
        self.supply = int(re.search(r"workers: (\d+) in supply", own[0]).group(1))   # type: ignore[union-attr]
        hired = re.findall(r"#\d+ \(([a-z/]+)\)", own[0].split("apprentices: ", 1)[1].split("\n")[0])
        self.skills = {skill for group in hired for skill in group.split("/")}
        self.cathedral = int(own[1].split()[0])
        self.at: dict[str, int] = {}
        for line in mine.split("Workers on the open locations", 1)[1].split("  Guildhall", 1)[0].splitlines()[1:]:
            place, _, who = line.strip().partition(" ")
            found = re.search(rf"\b{seat} x(\d+)", who)
            if found:
                self.at[place] = int(found.group(1))
        self.offered = [(cid, skills, column) for column, cid, skills in
                        APPRENTICE_RE.findall(mine.split("Apprentices for hire", 1)[1])]

    def lacks(self, cost: dict[str, int]) -> dict[str, int]:
        return {good: n - self.goods.get(good, 0) for good, n in cost.items() if self.goods.get(good, 0) < n}


# Each Cathedral stage's cost (variants/age-of-artisans.yaml), as docs/games/age-of-artisans.md
# tells a player: 'stonewood' is any mix of stone and wood.
CATHEDRAL = {1: {"gold": 1}, 2: {"stonewood": 4}, 3: {"marble": 1}, 4: {"stonewood": 8}}


class Artisans:
    def __init__(self) -> None:
        self.turns: list[tuple[str, str]] = []

    def wants(self, seat: str, report: str) -> bool:
        nexts = [line for line in report.splitlines() if line.startswith("NEXT: ")]
        return bool(nexts) and "-- your move: send" in nexts[-1]

    def decide(self, seat: str, report: str, refusals: list[str]) -> str:
        phase = report.rsplit("for phase ", 1)[1].split()[0]
        me = Me(seat, report)
        choice = self.choose(seat, phase, me, report, refusals)
        self.turns.append((phase, choice))
        return choice

    def choose(self, seat: str, phase: str, me: Me, report: str, refusals: list[str]) -> str:
        mine = newest(report)
        if phase.startswith("draft-"):
            needed = {skill for card in me.hand for skill in card[3]}
            useful = [cid for cid, skills, _ in me.offered if needed & set(skills.split("/"))]
            return f"hire: {(useful or [me.offered[0][0]])[0]}"
        if phase.endswith("-keep"):
            offered = CARD_RE.findall(mine.split("YOU ARE CHOOSING", 1)[1])
            return f"keep: {offered[0][0]}"
        if phase.endswith("-discard"):
            count = int(re.search(r"YOU ARE CHOOSING: discard (\d+)", mine).group(1))  # type: ignore[union-attr]
            worst = sorted(me.hand, key=lambda card: sum(me.lacks(card[2]).values()), reverse=True)
            return f"discard: [{', '.join(str(card[0]) for card in worst[:count])}]"
        if refusals:
            return "place: silversmith"
        if me.supply == 0:
            return f"recall: {max(me.at, key=lambda place: me.at[place])}"
        buildable = [card for card in me.hand if card[1] not in AVOID and set(card[3]) <= me.skills]
        for cid, name, cost, _ in buildable:
            if not me.lacks(cost):
                extra = "\ntake: gold" if name in ("Treasury", "Clay Pit") else ""
                return f"place: guildhall\nbuild: {cid}{extra}"
        stage = me.cathedral + 1
        if stage in CATHEDRAL and me.hand and me.virtue >= 5:
            spare = max(me.hand, key=lambda card: sum(me.lacks(card[2]).values()))[0]
            need = CATHEDRAL[stage]
            if "stonewood" in need:
                stone = min(me.goods["stone"], need["stonewood"])
                if stone + me.goods["wood"] >= need["stonewood"]:
                    return (f"place: guildhall\ncathedral: true\ndiscard: {spare}\n"
                            f"pay: {{stone: {stone}, wood: {need['stonewood'] - stone}}}")
            elif not me.lacks(need):
                return f"place: guildhall\ncathedral: true\ndiscard: {spare}"
        if not buildable and not (stage in CATHEDRAL and me.hand):
            # Nothing this player can build: an apprentice with a skill a card of the hand
            # needs (column 1 of a row costs 4 silver), else more cards.
            needed = {skill for card in me.hand for skill in card[3]} - me.skills
            useful = [cid for cid, skills, column in me.offered
                      if column == "1" and needed & set(skills.split("/"))]
            if useful and me.silver >= 4:
                return f"place: workhouse\nhire: {useful[0]}"
            if useful:
                return "place: silversmith"
            return "place: workhouse\ndraw: true"
        wants = [me.lacks(card[2]) for card in buildable]
        if stage in CATHEDRAL:
            need = dict(CATHEDRAL[stage])
            if "stonewood" in need:
                need = {"stone": max(0, need.pop("stonewood") - me.goods["wood"])}
            wants.append(me.lacks(need))
        want = min((w for w in wants if w), key=lambda w: sum(w.values()), default={"clay": 1})
        good = min(want)
        if good == "marble":
            if me.goods["stone"] >= 3:
                return "place: storehouse\ntrades: [{get: marble, pay: {stone: 3}}]"
            good = "stone"
        if good == "gold":
            return "place: mines\ntake: gold" if me.at.get("mines", 0) >= 1 else "place: mines\ntake: clay"
        return {"clay": "place: mines\ntake: clay", "stone": "place: quarry", "wood": "place: forest"}.get(
            good, "place: silversmith")


def test_an_age_of_artisans_game_by_mail_from_the_opening_hands_to_the_end(table: Table) -> None:
    game = table.game
    out = table.tick(T0)
    assert "opens now" in out, out
    assert table.kinds() == ["Welcome"] * 2
    table.read_all()
    players = Artisans()
    end = play_by_mail(table, players, T0 + timedelta(hours=1), timedelta(hours=1), 150)
    turns = [choice for _, choice in players.turns]
    for kind_of_turn in ("cathedral: true", "build: ", "recall: ", "draw: true", "trades: "):
        assert any(kind_of_turn in choice for choice in turns), (kind_of_turn, turns)
    last = max((game / "reports").glob("*.txt")).read_text(encoding="utf-8")
    assert "Guildhall (12/12)" in last and "FINAL SCORES" in last
    for player in table.players.values():
        ends = [msg for msg in player.mails if kind(msg) == "The"]
        assert len(ends) == 1 and "FINAL SCORES" in body_of(ends[0]), player.seat
        refused = [msg for msg in player.mails if kind(msg) == "Re" and "Choice received" not in body_of(msg)]
        assert refused == [], body_of(refused[0])
    assert "the game is over; nothing to do" in table.tick(end + timedelta(days=2))
    assert check_every_mail(table, ("2h",)) > 2 * len(turns)
    # A hand is its owner's: no mail carries another player's private report, nor their password.
    for tick in table.ticks:
        for who, msg in tick.mails:
            text = every_text(msg)
            for seat in SEATS:
                if who != address(seat):
                    assert PASSWORDS[seat] not in text and f"private report for {seat}" not in text
