# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""A Standard game as a real group plays it, by `adjudicator run` alone.

The GM sets it up as the README and docs/mail.md say (`new --house-rules`,
`player add` for each power, three of them with a password the judge makes,
`schedule`, `mailbox` with Dovecot's IMAPS address and aiosmtpd); cron is a
clock injected with `run --now`. Seven scripted players read only the mails
the judge sends them (a made password from the welcome, their units from the
state file attached to their results) and mail orders, corrections, `wait`,
`ready` and votes. On the way: an incomplete set and a set with an error
that do not make the phase go early, per-unit corrections kept, a password
changed by mail, reminders, an NMR with its notice, a rollback with a fresh
deadline and corrected results, a replacement welcomed with the latest
results, a power silent from Spring 1902 on (its dislodged army disbanded in
the retreat phase, the GM told once at the missed limit), and a draw by vote.

Every mail the judge sent is then checked (tableplay.check_every_mail): the
deadline it names is the one `run` set and lies after its Date, no reminder
came before its phase opened, every mail says Auto-Submitted and carries the
[game] tag; and no password is anywhere but in its owner's welcome."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from runbymail import (
    GM,
    JUDGE,
    JUDGE_NAME,
    PASSWORDS,
    POWERS,
    T0,
    address,
    named_deadline,
)
from tableplay import Table, check_every_mail, every_text, gm, kind
from test_mail_game import STANDARD

from adjudicator.folder.schedule import format_time, parse_time

SEATED = ("austria", "england", "france", "germany", "nina", "russia", "turkey")
MADE = ("france", "italy", "turkey")          # the judge makes these players' passwords
REMINDERS = ("24h", "1h")


@pytest.fixture
def table(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    monkeypatch.setenv("SSL_CERT_FILE", str(dovecot.cert))
    rules = tmp_path / "rules.txt"
    rules.write_text("Press is allowed at any time.\nNo orders by telephone.\n", encoding="utf-8")
    game = tmp_path / "game"
    gm("new", str(game), "--variant", "standard", "--house-rules", str(rules))
    table = Table(game, dovecot, smtp_inbox)
    for seat in POWERS:
        given = None if seat in MADE else PASSWORDS[seat]
        gm("player", "add", str(game), seat.title(), "--name", f"{seat.title()} Player", "--email", address(seat),
           *(("--password", given) if given else ()))
        table.sit(seat, given)
    gm("schedule", str(game), "--movement", "2d", "--retreat", "1d", "--adjustment", "1d", "--grace", "1h",
       "--reminders", ",".join(REMINDERS), "--missed-limit", "2")
    gm("mailbox", str(game), "--source", dovecot.url(JUDGE, tls=True), "--smtp", f"{smtp_inbox.host}:{smtp_inbox.port}",
       "--judge-address", JUDGE, "--judge-name", JUDGE_NAME, "--gm-address", GM)
    return table


def state_of(table: Table, seat: str) -> dict:
    """The state file attached to the newest mail the seat had from the judge that carries one."""
    for msg in reversed(table.players[seat].mails):
        for part in msg.iter_attachments():
            if str(part.get_filename()).endswith(".yaml"):
                found = yaml.safe_load(part.get_content())
                assert isinstance(found, dict)
                return found
    raise AssertionError(f"{seat} has no state file")


def own_orders(table: Table, name: str, orders: str) -> str:
    """The player's orders, each for a unit the state file they were mailed gives them."""
    units = state_of(table, name)["units"][table.players[name].seat]
    for line in orders.splitlines():
        if line.startswith(("A ", "F ")):
            assert any(line.startswith(unit) for unit in units), (name, line, units)
    return orders


def test_a_standard_game_from_the_welcomes_to_a_draw(table: Table) -> None:
    game = table.game
    clock = T0
    out = table.tick(clock)
    assert "Spring 1901 Movement opens now; deadline: 2030-03-03T09:00+00:00" in out
    assert table.kinds() == ["Welcome"] * 7
    for seat, player in table.players.items():
        player.take(table.inbox)              # a made password is learnt from the welcome
        assert player.password, seat
        text = body_of(player.mails[0])
        assert "HOUSE RULES" in text and "No orders by telephone." in text
        assert f"you play {seat.title()}." in text

    # Spring 1901, an hour in: five powers send whole sets (Austria as a reply to its welcome,
    # quoting it); Germany orders two of its three units; France, answering its welcome, has
    # a typo in one line and changes the password the judge made.
    clock += timedelta(hours=1)
    for seat in ("england", "italy", "russia", "turkey"):
        table.mail(seat, STANDARD[0][seat], clock)
    # Austria answers its welcome from a mail client: quoted, threaded, with an HTML part.
    table.mail("austria", STANDARD[0]["austria"], clock, replying=table.players["austria"].mails[0])
    table.mail("germany", "A ber - kie\nF kie - den", clock)
    table.mail("france", "new password: france-chose-this-2030\nA par - bur\nF bre - mao\nA mar - spq", clock,
               replying=table.players["france"].mails[0])        # the welcome, quoted: it holds the made password
    out = table.tick(clock)
    assert out.rstrip().endswith("nothing to do: waiting for France, Germany until 2030-03-03T10:00+00:00"), out
    reply = table.latest("germany")
    assert "  A Berlin - Kiel\n  F Kiel - Denmark\nStill lacking: A Munich has no order." in reply
    assert "Not in yet: France, Germany." in reply
    assert "Your orders are complete: Austria is in." in table.reply_of("austria")
    assert "quoted text" in table.reply_of("austria")
    reply = table.latest("france")
    assert "Your password is changed" in reply and "error (cannot read): 'spq': no such province" in reply
    assert "Still lacking: A Marseilles has no order." in reply
    table.players["france"].learn("france-chose-this-2030")

    # Two hours in: each sends the one line that was missing or wrong. The other units keep
    # their orders; now every power is in and the phase goes at once, long before its deadline.
    clock += timedelta(hours=1)
    table.mail("france", "A mar - spa", clock)
    table.mail("germany", "A mun - ruh", clock)
    out = table.tick(clock)
    assert "adjudicated 1901-spring-movement (every order is in)" in out, out
    for seat, units in (("france", ("A Paris - Burgundy", "F Brest - Mid-Atlantic Ocean", "A Marseilles - Spain")),
                        ("germany", ("A Berlin - Kiel", "F Kiel - Denmark", "A Munich - Ruhr"))):
        held = table.reply_of(seat).split("as the judge holds them now:\n", 1)[1].split("\n\n", 1)[0]
        assert held.splitlines()[:3] == [f"  {unit}" for unit in units], held
    report = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert "A Marseilles - Spain" in report and "A Munich - Ruhr" in report
    assert "Orders are due by 2030-03-03T11:00+00:00." in report
    table.read_all()

    # Fall 1901 (due in two days): England orders but says 'wait'; Turkey is silent.
    clock += timedelta(hours=1)
    for seat in ("austria", "france", "germany", "italy", "russia"):
        table.mail(seat, own_orders(table, seat, STANDARD[1][seat]), clock)
    table.mail("england", own_orders(table, "england", STANDARD[1]["england"]) + "\nwait", clock)
    out = table.tick(clock)
    assert out.rstrip().endswith("nothing to do: waiting for England, Turkey until 2030-03-03T12:00+00:00"), out
    assert "England" in table.reply_of("england") and "wait" in table.reply_of("england")
    assert "You said 'wait'" in table.reply_of("england")
    fall_due = parse_time(table.ticks[-1].after or "")
    assert table.tick(fall_due - timedelta(hours=25)).rstrip().endswith("until 2030-03-03T12:00+00:00")
    assert table.last() == []
    # Reminders go to Turkey alone: England's orders are in, it only asked the judge to wait.
    assert "reminded Turkey\n" in table.tick(fall_due - timedelta(hours=23, minutes=55))     # 24h before
    assert table.kinds() == ["Reminder"] and table.last()[0][0] == address("turkey")
    assert "reminded Turkey\n" in table.tick(fall_due - timedelta(minutes=55))               # 1h before
    assert table.kinds() == ["Reminder"] and table.last()[0][0] == address("turkey")
    assert "adjudicated" not in table.tick(fall_due + timedelta(minutes=30))                 # in the grace
    out = table.tick(fall_due + timedelta(hours=1, minutes=1))
    assert "adjudicated 1901-fall-movement (the deadline has passed; NMR: Turkey)" in out, out
    assert table.kinds() == ["Notice"] + ["results"] * 7
    notice = next(msg for _, msg in table.last() if kind(msg) == "Notice")
    assert notice["To"].addresses[0].addr_spec == address("turkey")
    assert "No orders came from you for Fall 1901 Movement in game; your units held." in body_of(notice)
    table.read_all()
    winter_due = table.ticks[-1].after
    assert named_deadline(notice) == winter_due

    # Turkey's orders were lost on the way (Turkey says so to the GM). The GM rolls Fall back
    # with a fresh deadline; Turkey orders, England says 'ready', and Fall goes again at once:
    # "Corrected" results, naming the deadline of the Winter that opens now.
    clock = fall_due + timedelta(hours=2)
    fresh = format_time(clock + timedelta(days=2))
    assert f"deadline: {fresh}" in gm("rollback", str(game), "1901-fall-movement", "--deadline", fresh)
    assert "adjudicated" not in table.tick(clock + timedelta(minutes=5))
    clock += timedelta(minutes=30)
    table.mail("turkey", own_orders(table, "turkey", STANDARD[1]["turkey"]), clock)
    out = table.tick(clock)
    until = format_time(clock + timedelta(days=2, minutes=30))            # the fresh deadline and the grace
    assert out.rstrip().endswith(f"nothing to do: waiting for England until {until}"), out
    clock += timedelta(minutes=30)
    table.mail("england", "ready", clock)
    out = table.tick(clock)
    assert "adjudicated 1901-fall-movement (every order is in)" in out, out
    corrected = [msg for _, msg in table.last() if kind(msg) == "results"]
    assert len(corrected) == 7 and all(str(m["Subject"]).endswith("Fall 1901 Movement results (Corrected)")
                                       and m["In-Reply-To"] for m in corrected)
    winter_due = table.ticks[-1].after
    assert winter_due == format_time(clock + timedelta(days=1))
    assert "No orders were received" not in (game / "reports" / "1901-fall-movement.txt").read_text(encoding="utf-8")
    table.read_all()

    # The GM hands Italy to Nina. The next run welcomes her with the latest results; the
    # old player is no longer on the roster and gets no answer from the judge.
    assert "a password was made for them" in gm("player", "replace", str(game), "Italy", "--name", "Nina New",
                                                "--email", address("nina"))
    table.sit("nina", None, seat="italy")
    clock += timedelta(minutes=10)
    out = table.tick(clock)
    assert "skipped the 24h reminder" in out, out                    # Winter's day is shorter than 24h
    assert table.kinds() == ["Welcome"] and table.last()[0][0] == address("nina")
    table.read_all()
    nina = table.players["nina"]
    welcome = body_of(nina.mails[0])
    assert nina.password and "Nina New, you play Italy." in welcome
    assert "THE LATEST RESULTS (1901-fall-movement)" in welcome
    assert (game / "private" / "italy" / "1901-fall-movement.txt").read_text(encoding="utf-8").strip() in welcome
    assert "SUPPLY CENTRES YEAR BY YEAR" in welcome and named_deadline(nina.mails[0]) == winter_due
    assert {p.get_filename() for p in nina.mails[0].iter_attachments()} == \
        {"1901-fall-movement.png", "1901-winter-adjustment.yaml"}

    # Winter 1901: France builds one of its two; the others order all they owe; the old
    # Italian player still mails with the old password, and is not answered.
    clock += timedelta(minutes=20)
    for name in ("austria", "england", "germany", "russia", "turkey"):
        table.mail(name, STANDARD[2][name], clock)
    table.mail("france", "build A par", clock)
    table.mail("nina", STANDARD[2]["italy"], clock)
    table.mail("italy", "build A rom", clock)
    out = table.tick(clock)
    until = format_time(clock + timedelta(days=1, minutes=30))            # Winter's day and the grace
    assert out.rstrip().endswith(f"nothing to do: waiting for France until {until}"), out
    assert address("italy") not in [who for who, _ in table.last()]
    assert "Still lacking" in table.reply_of("france")
    winter_due = table.ticks[-1].after
    out = table.tick(parse_time(winter_due) - timedelta(minutes=55))     # the 1h reminder, to France alone
    assert "reminded France\n" in out, out
    assert table.kinds() == ["Reminder"]
    reminder = table.latest("france")
    assert "Yours are not complete yet: 1 more build or waive" in reminder, reminder
    clock = parse_time(winter_due) - timedelta(minutes=30)
    table.mail("france", "ready", clock)                 # the second build is waived
    out = table.tick(clock)
    assert "adjudicated 1901-winter-adjustment (every order is in)" in out, out
    assert sorted(who for who, msg in table.last() if kind(msg) == "results") == \
        sorted(address(name) for name in ("austria", "england", "france", "germany", "nina", "russia", "turkey"))
    table.read_all()
    spring_due = parse_time(table.ticks[-1].after or "")

    # Spring 1902: Russia falls silent. Austria attacks Rumania with support; the others
    # order one move each and 'ready' for the rest.
    clock += timedelta(minutes=30)
    for name in ("england", "france", "germany", "nina", "turkey"):
        seat = table.players[name].seat
        table.mail(name, own_orders(table, name, STANDARD[3][seat]) + "\nready", clock)
    table.mail("austria", own_orders(table, "austria", "A ser - rum\nA bud S A ser - rum") + "\nready", clock)
    assert "nothing to do: waiting for Russia" in table.tick(clock)
    assert "reminded Russia\n" in table.tick(spring_due - timedelta(hours=23, minutes=55))
    assert "We have not received yours yet." in table.latest("russia")
    assert "reminded Russia\n" in table.tick(spring_due - timedelta(minutes=55))
    out = table.tick(spring_due + timedelta(hours=1, minutes=1))
    assert "adjudicated 1902-spring-movement (the deadline has passed; NMR: Russia)" in out, out
    assert table.kinds() == ["Notice"] + ["results"] * 7
    assert "No orders came from you for Spring 1902 Movement in game; your units held." in table.latest("russia")
    table.read_all()
    assert "A Serbia - Rumania  [moved]" in body_of(table.players["austria"].mails[-1])

    # The Russian army in Rumania is dislodged: the retreat phase (a day) waits for Russia
    # alone, who is reminded an hour before, stays silent, and hears the army was disbanded.
    # It is Russia's second phase missed in a row: the GM hears of it, once.
    retreat_due = parse_time(table.ticks[-1].after or "")
    clock = spring_due + timedelta(hours=1, minutes=10)
    assert "skipped the 24h reminder" in table.tick(clock)
    assert "reminded Russia\n" in table.tick(retreat_due - timedelta(minutes=55))
    out = table.tick(retreat_due + timedelta(hours=1, minutes=1))
    assert "adjudicated 1902-spring-retreat (the deadline has passed; NMR: Russia)" in out, out
    assert "your dislodged A Rumania was disbanded" in table.latest("russia")
    to_gm = [msg for who, msg in table.last() if who == GM]
    assert len(to_gm) == 1 and "Russia (Russia Player <russia@localhost>) has missed 2 phases in a row" in \
        body_of(to_gm[0])
    table.read_all()

    # Fall 1902: everyone but Russia holds ('ready' alone); Russia is NMR again, and told.
    fall_due = parse_time(table.ticks[-1].after or "")
    clock = retreat_due + timedelta(hours=2)
    for name in ("austria", "england", "france", "germany", "nina", "turkey"):
        table.mail(name, "ready", clock)
    assert "nothing to do: waiting for Russia" in table.tick(clock)
    out = table.tick(fall_due + timedelta(hours=1, minutes=1))
    assert "adjudicated 1902-fall-movement (the deadline has passed; NMR: Russia)" in out, out
    assert "No orders came from you for Fall 1902 Movement" in table.latest("russia")
    assert GM not in [who for who, _ in table.last()]
    table.read_all()

    # Winter 1902: each power that owes builds or disbands reads what it owes from its
    # state file and orders them (Russia, silent still, is not told of to the GM again).
    clock = fall_due + timedelta(hours=2)
    owing = []
    for name in ("austria", "england", "france", "germany", "nina", "turkey"):
        seat = table.players[name].seat
        state = state_of(table, name)
        owed = len(state["centres"].get(seat, [])) - len(state["units"].get(seat, []))
        if owed:
            owing.append(name)
            lines = ["waive"] * owed if owed > 0 else [f"disband {unit}" for unit in state["units"][seat][:-owed]]
            table.mail(name, "\n".join(lines), clock)
    assert owing == ["austria", "france"], owing
    assert "adjudicated 1902-winter-adjustment (every order is in)" in table.tick(clock)
    table.read_all()

    # Spring 1903: six powers vote a draw by mail. Votes are secret until all agree: no
    # mail says who voted. Russia comes back and votes too; the game ends in a draw.
    clock += timedelta(hours=1)
    for name in ("austria", "england", "france", "germany", "nina", "turkey"):
        table.mail(name, "vote draw", clock)
    out = table.tick(clock)
    assert "the game is over" not in out and not (game / "reports" / "end.txt").exists(), out
    for _, msg in table.last():
        text = body_of(msg)
        assert not any(other in text for other in ("Austria voted", "England voted", "Turkey voted")), text
    assert "Your vote is recorded. Votes stay secret until every surviving power agrees." in \
        table.reply_of("austria")
    clock += timedelta(hours=1)
    table.mail("russia", "vote draw", clock)
    out = table.tick(clock)
    assert "the game is over; the end-of-game report was mailed" in out, out
    assert "Your vote made it unanimous: the game is over." in table.reply_of("russia")
    ends = [(who, msg) for who, msg in table.last() if kind(msg) == "The"]
    assert sorted(who for who, _ in ends) == sorted(table.players[name].email for name in SEATED)
    assert all("The game ended in a draw between Austria, England, France, Germany, Italy, Russia and Turkey"
               in body_of(msg) for _, msg in ends)
    assert "the game is over; nothing to do" in table.tick(clock + timedelta(days=3))
    assert table.last() == []

    # Every mail the judge sent, checked against what run set when it sent it.
    assert check_every_mail(table, REMINDERS, grace=timedelta(hours=1)) > 100
    assert [who for tick in table.ticks for who, _ in tick.mails].count(GM) == 1
    # No password anywhere but in its owner's welcome: neither the ones the GM gave, nor the
    # ones the judge made, nor France's own choice; in no Subject, body or attachment.
    secrets = {player.email: player.known for player in table.players.values()}
    assert all(len(words) == (2 if who == address("france") else 1) for who, words in secrets.items())
    for tick in table.ticks:
        for who, msg in tick.mails:
            text = every_text(msg)
            for owner, words in secrets.items():
                for word in words:
                    if word in text:
                        assert who == owner and kind(msg) == "Welcome", (who, msg["Subject"], owner)
