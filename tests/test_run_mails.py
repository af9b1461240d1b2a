# ruff: noqa: F811  (the server fixture is imported from mailservers)
"""`adjudicator run` mails the right thing at the right time: each test is
one defect of a running game, played through the real path (a GM's
commands, players' mails in the judge's mbox, `run --now` with an injected
clock, every mail the judge sends caught by aiosmtpd and parsed strictly)."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
import yaml
from mailservers import SmtpInbox, body_of, smtp_inbox  # noqa: F401
from runbymail import (
    GM,
    JUDGE,
    JUDGE_NAME,
    PASSWORDS,
    T0,
    address,
    all_mails,
    cli_fails,
    cli_ok,
    game_deadline,
    mails_to,
    named_deadline,
    post,
    run,
    set_up,
)
from test_mail_game import STANDARD

from adjudicator.folder.checking import check_orders
from adjudicator.folder.schedule import parse_time

SPRING = STANDARD[0]


def order_all(game: Path, phase: int, when: datetime, skip: tuple[str, ...] = ()) -> None:
    """Each power's orders of the sample game's phase, 'ready' as they stand (units not named hold)."""
    for seat, orders in STANDARD[phase].items():
        if seat not in skip:
            post(game, seat, orders + "\nready", when, f"p{phase}")


def results_mails(inbox: SmtpInbox, seat: str) -> list:
    return [m for m in mails_to(inbox, seat) if str(m["Subject"]).endswith(("results", "(Corrected)"))]


# --- 1: every mail names the deadline of the phase it asks orders for -----------------------
def test_results_mails_name_the_next_phases_deadline_after_their_date(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "2d", "--grace", "1h"))
    run(game, T0)                                              # opens Spring 1901: deadline T0 + 2d
    spring_deadline = game_deadline(game)
    order_all(game, 0, T0 + timedelta(hours=1))
    out = run(game, T0 + timedelta(hours=1))
    assert "adjudicated 1901-spring-movement" in out, out
    fall_deadline = game_deadline(game)
    assert fall_deadline == "2030-03-03T10:00+00:00" and fall_deadline != spring_deadline
    for seat in PASSWORDS:
        result = results_mails(smtp_inbox, seat)[-1]
        assert named_deadline(result) == fall_deadline
        assert parse_time(fall_deadline) > parsedate_to_datetime(str(result["Date"]))
        reply = [m for m in mails_to(smtp_inbox, seat) if "Re: orders" in str(m["Subject"])][-1]
        assert named_deadline(reply) == spring_deadline         # the reply asked for Spring's orders
    report = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert f"Orders are due by {fall_deadline}." in report


def test_a_card_games_results_name_the_next_deadline(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    seats = ("alice", "bob", "carol")
    game = set_up(tmp_path, smtp_inbox, variant="seven-wonders", seats=seats, players="alice,bob,carol",
                  schedule=("--movement", "1d"), seed=7)
    run(game, T0)
    sample = yaml.safe_load((Path(__file__).parent.parent / "orders" / "seven-wonders"
                             / "01-age1-turn1.yaml").read_text(encoding="utf-8"))
    for seat in seats:
        post(game, seat, yaml.safe_dump(sample[seat]), T0 + timedelta(hours=2), "t1")
    assert "adjudicated 0001-age1-turn1" in run(game, T0 + timedelta(hours=2))
    due = game_deadline(game)
    assert due == "2030-03-02T11:00+00:00"
    for seat in seats:
        mail = [m for m in mails_to(smtp_inbox, seat) if "results" in str(m["Subject"])][-1]
        assert named_deadline(mail) == due and "Choices for age1-turn2 are due by" in body_of(mail)


# --- 5: no reminder straight after the results --------------------------------------------
def test_a_reminder_whose_moment_is_before_the_phase_opened_is_skipped(tmp_path: Path,
                                                                      smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "1d", "--reminders", "24h,2h"))
    run(game, T0)
    order_all(game, 0, T0 + timedelta(minutes=30))
    assert "adjudicated 1901-spring-movement" in run(game, T0 + timedelta(minutes=30))
    # Fall opens with the results; 20 minutes later the 24h reminder's moment (30 minutes
    # before Fall opened) has passed, but it is skipped, not sent late.
    order_all(game, 1, T0 + timedelta(minutes=40), skip=("turkey",))
    out = run(game, T0 + timedelta(minutes=50))
    assert "skipped the 24h reminder" in out and "reminded" not in out, out
    assert "reminded" not in run(game, T0 + timedelta(hours=12))
    assert not any("Reminder" in str(m["Subject"]) for m in mails_to(smtp_inbox, "turkey"))
    out = run(game, T0 + timedelta(hours=22, minutes=31))          # the 2h reminder is due
    assert "reminded Turkey" in out, out
    assert "reminded" not in run(game, T0 + timedelta(hours=22, minutes=40))
    reminders = [m for m in mails_to(smtp_inbox, "turkey") if "Reminder" in str(m["Subject"])]
    assert len(reminders) == 1 and named_deadline(reminders[0]) == game_deadline(game)
    assert reminders[0]["Subject"] == "[game] Reminder: Fall 1901 Movement"
    assert not any("Reminder" in str(m["Subject"]) for m in mails_to(smtp_inbox, "france"))


def test_a_reminder_goes_only_to_a_power_whose_orders_are_not_in_and_says_what_it_lacks(
        tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "2d", "--reminders", "24h", "--grace", "0m"))
    run(game, T0)
    for seat, orders in SPRING.items():
        if seat == "england":
            post(game, seat, orders + "\nwait", T0 + timedelta(hours=1), "s")   # all in, but holds the phase
        elif seat == "france":
            post(game, seat, "A par - bur", T0 + timedelta(hours=1), "s")        # two units unordered
        elif seat != "turkey":                                                    # Turkey sends nothing
            post(game, seat, orders, T0 + timedelta(hours=1), "s")
    assert "waiting for England, France, Turkey" in run(game, T0 + timedelta(hours=1))
    out = run(game, T0 + timedelta(days=1, minutes=1))
    assert "reminded France, Turkey" in out, out
    assert not any("Reminder" in str(m["Subject"]) for m in mails_to(smtp_inbox, "england"))
    [france] = [body_of(m) for m in mails_to(smtp_inbox, "france") if "Reminder" in str(m["Subject"])]
    assert "Yours are not complete yet: F Brest has no order; A Marseilles has no order" in france, france
    [turkey] = [body_of(m) for m in mails_to(smtp_inbox, "turkey") if "Reminder" in str(m["Subject"])]
    assert "We have not received yours yet." in turkey
    # At the deadline Turkey is NMR, France's set is taken as it stands, England is simply in.
    out = run(game, T0 + timedelta(days=2, minutes=1))
    assert "adjudicated 1901-spring-movement (the deadline has passed; NMR: Turkey; as they stand: France)" in out


# --- 6: a rollback opens the phase again with a fresh deadline -----------------------------
def test_rollback_sets_a_fresh_deadline_and_the_correction_names_the_next(tmp_path: Path,
                                                                         smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "2d", "--grace", "0m"))
    run(game, T0)
    order_all(game, 0, T0 + timedelta(hours=1))
    run(game, T0 + timedelta(hours=1))
    order_all(game, 1, T0 + timedelta(hours=2), skip=("italy",))
    late = T0 + timedelta(days=3)                                 # Fall's deadline has passed: Italy NMR
    assert "NMR: Italy" in run(game, late)
    # The GM rolls Fall back: it opens again with a fresh deadline, not the one already past.
    fresh = (late + timedelta(days=1, hours=7)).isoformat()
    out = cli_ok("rollback", str(game), "1901-fall-movement", "--deadline", fresh)
    assert game_deadline(game) == "2030-03-05T16:00+00:00" and "deadline: 2030-03-05T16:00+00:00" in out
    out = run(game, late + timedelta(minutes=5))
    assert "adjudicated" not in out, out
    post(game, "italy", STANDARD[1]["italy"], late + timedelta(minutes=10), "again")
    out = run(game, late + timedelta(minutes=10))
    assert "adjudicated 1901-fall-movement (every order is in)" in out, out
    corrected = [m for m in mails_to(smtp_inbox, "france") if "(Corrected)" in str(m["Subject"])]
    assert len(corrected) == 1 and corrected[0]["In-Reply-To"]
    assert named_deadline(corrected[0]) == game_deadline(game)
    assert parse_time(game_deadline(game) or "") > parsedate_to_datetime(str(corrected[0]["Date"]))


def test_rollback_without_a_deadline_option_takes_the_schedules_from_now(tmp_path: Path,
                                                                        smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "2d"))
    run(game, T0)
    order_all(game, 0, T0 + timedelta(hours=1))
    run(game, T0 + timedelta(hours=1))
    before = datetime.now().astimezone()
    cli_ok("rollback", str(game), "1901-spring-movement")
    fresh = parse_time(game_deadline(game) or "")
    assert before + timedelta(days=2) - timedelta(minutes=1) <= fresh <= before + timedelta(days=2, minutes=1)


# --- 7 and 8: welcomes, passwords -------------------------------------------------------------
def test_the_first_run_welcomes_each_player_once(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    (tmp_path / "rules.txt").write_text("No press between 01:00 and 07:00.\n", encoding="utf-8")
    game = set_up(tmp_path / "g", smtp_inbox, generated=("france",), schedule=("--movement", "3d"),
                  house_rules=tmp_path / "rules.txt")
    run(game, T0)
    run(game, T0 + timedelta(minutes=5))                   # idempotent: nothing twice
    for seat in PASSWORDS:
        welcomes = [m for m in mails_to(smtp_inbox, seat) if "Welcome" in str(m["Subject"])]
        assert len(welcomes) == 1, seat
        msg = welcomes[0]
        text = body_of(msg)
        name = seat.title()
        assert msg["Subject"] == f"[game] Welcome: you play {name}"
        assert msg["From"].addresses[0].display_name == JUDGE_NAME
        assert "a game of Diplomacy (Standard)" in text and f"you play {name}." in text
        assert named_deadline(msg) == game_deadline(game) == "2030-03-04T09:00+00:00"
        assert "HOUSE RULES" in text and "No press between 01:00 and 07:00." in text
        assert f"--power {name}" in text
        files = {p.get_filename(): p.get_content() for p in msg.iter_attachments()}
        assert set(files) == {"1901-spring-movement.png", "1901-spring-movement.yaml"}
        # The example orders are the player's own units, and the attached state accepts them.
        example = text.split("HOW TO ORDER", 1)[1].split("    password: <your password>\n", 1)[1].split("\n\n")[0]
        lines = [line.strip() for line in example.splitlines()]
        assert len(lines) == (4 if seat == "russia" else 3), lines
        state = tmp_path / f"{seat}-state.yaml"
        state.write_bytes(files["1901-spring-movement.yaml"])
        orders = tmp_path / f"{seat}-orders.txt"
        orders.write_text("\n".join(lines) + "\n", encoding="utf-8")
        echoed: list[str] = []
        assert check_orders(None, orders, seat, state, echoed.append), echoed
        if seat == "france":
            assert "It was made for you" in text
        else:
            assert "the one your GM gave you" in text and "Your password is" in text


@pytest.mark.parametrize(("variant", "schedule", "said"), [
    ("standard", ("--movement", "2d", "--reminders", "24h,1h"),
     "the judge reminds you 24h (in phases longer than 24h) and 1h before the deadline."),
    ("standard", ("--movement", "3d", "--retreat", "2d", "--adjustment", "2d", "--reminders", "24h"),
     "the judge reminds you 24h before the deadline."),
    ("standard", ("--movement", "1d", "--reminders", "24h"), None),
    ("seven-wonders", ("--movement", "1d", "--reminders", "24h,2h"), "the judge reminds you 2h before the deadline."),
    ("seven-wonders", ("--movement", "1d", "--reminders", "24h"), None),
])
def test_the_welcome_promises_only_reminders_that_can_come(tmp_path: Path, smtp_inbox: SmtpInbox, variant: str,
                                                           schedule: tuple[str, ...], said: str | None) -> None:
    seats = ("alice", "bob", "carol") if variant == "seven-wonders" else ("france",)
    game = set_up(tmp_path, smtp_inbox, variant=variant, seats=seats, schedule=schedule,
                  players=",".join(seats) if variant == "seven-wonders" else None)
    run(game, T0)
    text = " ".join(body_of(mails_to(smtp_inbox, seats[0])[0]).split())
    if said is None:
        assert "reminds you" not in text
    else:
        assert said in text, text


def test_a_generated_password_is_mailed_once_and_can_be_changed_by_mail(tmp_path: Path,
                                                                        smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, seats=("france", "england"), generated=("france",))
    pending = yaml.safe_load((game / "mail" / "welcome" / "pending" / "france.yaml").read_text(encoding="utf-8"))
    made = pending["password"]
    assert len(made) >= 12 and made not in (game / "game.yaml").read_text(encoding="utf-8")
    run(game, T0)
    welcome = mails_to(smtp_inbox, "france")[0]
    assert f"Your password is {made}" in body_of(welcome) and made not in str(welcome["Subject"])
    # Once sent, it is kept nowhere in clear.
    assert not (game / "mail" / "welcome" / "pending" / "france.yaml").exists()
    assert not any(made.encode() in p.read_bytes() for p in game.rglob("*") if p.is_file())
    # The player logs in with it and chooses their own; the old one stops working.
    post(game, "france", "new password: my-own-choice-2030\nA par - bur", T0 + timedelta(hours=1), "chg",
         password=made, subject="now my-own-choice-2030")
    run(game, T0 + timedelta(hours=1))
    reply = mails_to(smtp_inbox, "france")[-1]
    assert "Your password is changed" in body_of(reply) and "A Paris - Burgundy" in body_of(reply)
    assert "my-own-choice-2030" not in reply.as_string() and made not in reply.as_string()
    assert reply["Subject"] == "[game] Re: orders"
    post(game, "france", "A par - pic", T0 + timedelta(hours=2), "old", password=made)
    run(game, T0 + timedelta(hours=2))
    assert "wrong password" in body_of(mails_to(smtp_inbox, "france")[-1])
    post(game, "france", "A par - pic", T0 + timedelta(hours=3), "new", password="my-own-choice-2030")
    run(game, T0 + timedelta(hours=3))
    assert "A Paris - Picardy" in body_of(mails_to(smtp_inbox, "france")[-1])
    # A new password that is too short changes nothing and stores nothing.
    post(game, "france", "new password: short\nA par - gas", T0 + timedelta(hours=4), "short",
         password="my-own-choice-2030")
    run(game, T0 + timedelta(hours=4))
    assert "10 to 200 characters" in body_of(mails_to(smtp_inbox, "france")[-1])
    stored = (game / "orders" / "1901-spring-movement" / "france.txt").read_text(encoding="utf-8")
    assert "A par - pic" in stored and "gas" not in stored


def test_a_replacement_is_welcomed_with_the_current_results(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "2d"))
    run(game, T0)
    for phase in (0, 1):
        order_all(game, phase, T0 + timedelta(hours=1 + phase))
        assert "adjudicated" in run(game, T0 + timedelta(hours=1 + phase))
    out = cli_ok("player", "replace", str(game), "Italy", "--name", "Nina New", "--email", "nina@localhost")
    assert "a password was made for them" in out
    run(game, T0 + timedelta(hours=3))
    run(game, T0 + timedelta(hours=4))
    mails = mails_to(smtp_inbox, "nina@localhost")
    assert len(mails) == 1
    msg = mails[0]
    text = body_of(msg)
    assert msg["Subject"] == "[game] Welcome: you play Italy" and "Nina New, you play Italy." in text
    assert "THE LATEST RESULTS (1901-fall-movement)" in text
    assert (game / "private" / "italy" / "1901-fall-movement.txt").read_text(encoding="utf-8").strip() in text
    assert "SUPPLY CENTRES YEAR BY YEAR" in text and " 1901  now\n" in text and "\n  Italy      3    4\n" in text, \
        text[text.find("SUPPLY CENTRES"):][:500]
    assert named_deadline(msg) == game_deadline(game)
    files = {p.get_filename() for p in msg.iter_attachments()}
    assert {"1901-fall-movement.png", "1901-winter-adjustment.yaml"} <= files
    # `mail --send` after the run sends nothing more; after another replacement it sends that welcome.
    cli_ok("player", "replace", str(game), "Italy", "--name", "Olga", "--email", "olga@localhost")
    out = cli_ok("mail", str(game), "--send", "--smtp", f"{smtp_inbox.host}:{smtp_inbox.port}")
    assert "sent 1 message(s)" in out, out
    assert len(mails_to(smtp_inbox, "olga@localhost")) == 1
    assert len(mails_to(smtp_inbox, "nina@localhost")) == 1


# --- 9: card games: the opening hands and the end, from run ---------------------------------
def test_run_mails_a_card_games_opening_hands_and_its_end_once(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    seats = ("alice", "bob", "carol")
    game = set_up(tmp_path, smtp_inbox, variant="seven-wonders", seats=seats, players="alice,bob,carol",
                  schedule=("--movement", "1d"))
    run(game, T0)
    run(game, T0 + timedelta(minutes=5))
    for seat in seats:
        mails = mails_to(smtp_inbox, seat)
        assert len(mails) == 1
        text = body_of(mails[0])
        own = (game / "private" / seat / "0000-setup.txt").read_text(encoding="utf-8")
        assert own.strip() in text
        assert f"({seat} only)" in text
        for other in seats:
            if other != seat:
                assert f"({other} only)" not in text and f"private report for {other}" not in text
    # Nobody sends anything: each deadline passes and the defaults play the game to its end.
    clock = T0
    for _ in range(40):
        clock += timedelta(days=1, minutes=1)
        out = run(game, clock)
        if "the game is over" in out:
            break
    assert "the end-of-game report was mailed" in out, out
    assert "nothing to do" in run(game, clock + timedelta(days=1))
    for seat in seats:
        ends = [m for m in mails_to(smtp_inbox, seat) if m["Subject"] == "[game] The game is over"]
        assert len(ends) == 1 and "The game is over" in body_of(ends[0])


# --- 10: notices of what the judge did by default ---------------------------------------------
def test_an_nmr_player_is_told_and_the_gm_hears_at_the_missed_limit(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "1d", "--retreat", "1d", "--adjustment", "1d",
                                                   "--missed-limit", "2"))
    run(game, T0)
    order_all(game, 0, T0 + timedelta(hours=1))
    assert "adjudicated 1901-spring-movement" in run(game, T0 + timedelta(hours=1))
    # Fall: France (whose army stands in Spain) sends nothing.
    order_all(game, 1, T0 + timedelta(hours=2), skip=("france",))
    assert "NMR: France" in run(game, T0 + timedelta(days=1, hours=1))
    notices = [m for m in mails_to(smtp_inbox, "france") if "Notice" in str(m["Subject"])]
    assert len(notices) == 1
    assert notices[0]["Subject"] == "[game] Notice: Fall 1901 Movement"
    assert "No orders came from you for Fall 1901 Movement in game; your units held." in body_of(notices[0])
    assert named_deadline(notices[0]) == game_deadline(game)
    assert not any("Notice" in str(m["Subject"]) for m in mails_to(smtp_inbox, "italy"))
    assert mails_to(smtp_inbox, GM) == []
    # Winter: nobody orders. France's build (Spain) is waived, its second phase missed: the GM hears once.
    assert "NMR" in run(game, T0 + timedelta(days=2, hours=2))
    france = [body_of(m) for m in mails_to(smtp_inbox, "france") if "Notice: Winter 1901" in str(m["Subject"])]
    assert len(france) == 1 and ("No orders came from you for Winter 1901 Adjustment in game; your 1 build "
                                 "was waived.") in france[0], france
    to_gm = mails_to(smtp_inbox, GM)
    assert len(to_gm) == 1 and to_gm[0]["Subject"] == "[game] For the GM: Winter 1901 Adjustment"
    assert "France (France <france@localhost>) has missed 2 phases in a row" in body_of(to_gm[0])
    assert "player replace game france" in body_of(to_gm[0])
    # Spring 1902: nobody orders. France (3 in a row) is not told of twice; the powers that
    # reach 2 now (silent since Winter) are, in one mail.
    assert "NMR" in run(game, T0 + timedelta(days=3, hours=3))
    to_gm = mails_to(smtp_inbox, GM)
    assert len(to_gm) == 2 and "France" not in body_of(to_gm[1]) and "England" in body_of(to_gm[1])


def test_units_disbanded_by_default_are_notices_too(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, schedule=("--movement", "1d", "--adjustment", "1d"))
    run(game, T0)
    clock = T0
    for phase in range(5):                 # STANDARD's first two years; Winter 1902 has Austria disband
        clock += timedelta(hours=1)
        order_all(game, phase, clock)
        assert "adjudicated" in run(game, clock), phase
    clock += timedelta(days=1, minutes=1)
    out = run(game, clock)                 # Austria sends nothing in Winter 1902: the rules disband for it
    assert "NMR: Austria" in out, out
    notices = [body_of(m) for m in mails_to(smtp_inbox, "austria") if "Notice: Winter 1902" in str(m["Subject"])]
    assert len(notices) == 1 and "the rules disbanded your" in notices[0] and "(civil disorder)" in notices[0]


def test_the_gm_declaring_civil_disorder_tells_the_player(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    from adjudicator.rules import load_variant
    variant = load_variant("ambition-empire")
    seats = tuple(sorted(variant.powers))[:2]
    game = set_up(tmp_path, smtp_inbox, variant="ambition-empire", seats=seats)
    run(game, T0)
    cli_ok("civil-disorder", str(game), seats[0])
    run(game, T0 + timedelta(minutes=5))
    notices = [m for m in mails_to(smtp_inbox, seats[0]) if "Notice" in str(m["Subject"])]
    assert len(notices) == 1 and "in civil disorder" in body_of(notices[0])
    assert not any("Notice" in str(m["Subject"]) for m in mails_to(smtp_inbox, seats[1]))


# --- 14: the GM's settings by command ---------------------------------------------------------
def test_schedule_and_mailbox_commands_check_every_value(tmp_path: Path) -> None:
    game = tmp_path / "g"
    cli_ok("new", str(game))
    before = (game / "game.yaml").read_bytes()
    for args, said in [(("--movement", "3x"), "--movement '3x' is not a duration"),
                       (("--movement", "0d"), "is no time at all"),
                       (("--reminders", "24h,soon"), "--reminders 'soon' is not a duration"),
                       (("--missed-limit", "two"), "--missed-limit 'two' is not a whole number"),
                       (("--missed-limit", "0"), "is not a whole number from 1")]:
        assert said in cli_fails("schedule", str(game), *args)
    for args, said in [(("--smtp", "mail.example.org"), "should be HOST:PORT"),
                       (("--source", "imaps://judge:secret@example.org/INBOX"), "holds a password"),
                       (("--source", "https://example.org/inbox"), "only imap:// and imaps://"),
                       (("--source", str(tmp_path / "missing.mbox")), "no such mailbox"),
                       (("--judge-address", "not an address"), "--judge-address: not one email address"),
                       (("--judge-name", "Evil\nBcc: x@y"), "--judge-name"),
                       (("--judge-address", "j@localhost", "--gm-address", "J@localhost"), "judge's own address")]:
        assert said in cli_fails("mailbox", str(game), *args)
    assert (game / "game.yaml").read_bytes() == before           # nothing written by a refused command
    out = cli_ok("schedule", str(game), "--movement", "3d", "--grace", "2h", "--reminders", "24h,2h",
                 "--retreat", "1d", "--adjustment", "12h", "--missed-limit", "3")
    assert "note: the 24h reminder is not sent in a phase of 12h or less" in out
    cli_ok("mailbox", str(game), "--source", "imaps://judge@example.org@mail.example.org:993/INBOX",
           "--smtp", "mail.example.org:587", "--starttls", "--user", "judge@example.org",
           "--judge-address", "judge@example.org", "--judge-name", "The Judge", "--gm-address", "gm@example.org")
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    assert meta["schedule"] == {"movement": "3d", "grace": "2h", "reminders": ["24h", "2h"], "retreat": "1d",
                                "adjustment": "12h", "missed_limit": 3}
    assert meta["mail"] == {"source": "imaps://judge@example.org@mail.example.org:993/INBOX",
                            "smtp": "mail.example.org:587", "starttls": True, "user": "judge@example.org"}
    assert (meta["gm_email"], meta["judge_name"], meta["gm_contact"]) == \
        ("judge@example.org", "The Judge", "gm@example.org")
    cli_ok("schedule", str(game), "--grace", "0m", "--reminders", "none")    # the rest is kept
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    assert meta["schedule"]["movement"] == "3d" and meta["schedule"]["reminders"] == []


def test_new_keeps_house_rules_and_refuses_a_bad_file(tmp_path: Path) -> None:
    rules = tmp_path / "rules.txt"
    rules.write_text("Be nice.\r\nNo\x07bells.\n", encoding="utf-8")
    assert "control character in the house rules" in cli_fails("new", str(tmp_path / "a"), "--house-rules",
                                                               str(rules))
    assert not (tmp_path / "a").exists()
    rules.write_text("Be nice.\nPress is public.\n", encoding="utf-8")
    cli_ok("new", str(tmp_path / "b"), "--house-rules", str(rules))
    meta = yaml.safe_load((tmp_path / "b" / "game.yaml").read_text(encoding="utf-8"))
    assert meta["house_rules"] == "Be nice.\nPress is public.\n"


# --- 15: Subjects and From; and no password anywhere but its welcome ---------------------------
def test_replies_name_the_game_and_no_password_leaves_its_welcome(tmp_path: Path, smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, seats=("france", "england", "germany"), generated=("germany",))
    made = yaml.safe_load((game / "mail" / "welcome" / "pending" / "germany.yaml").read_text())["password"]
    run(game, T0)
    post(game, "france", "A par - bur\nF bre - mao\nA mar - spa", T0 + timedelta(hours=1), "x")
    post(game, "england", "F lon - nth", T0 + timedelta(hours=1), "bad", password="wrong-password-here")
    post(game, "germany", "A ber - kie", T0 + timedelta(hours=1), "g", password=made)
    run(game, T0 + timedelta(hours=1))
    reply = mails_to(smtp_inbox, "france")[-1]
    assert reply["Subject"] == "[game] Re: orders"
    assert reply["From"].addresses[0].display_name == JUDGE_NAME
    assert reply["From"].addresses[0].addr_spec == JUDGE
    secrets = {**{s: PASSWORDS[s] for s in ("france", "england")}, "germany": made}
    count = 0
    for who, msg in all_mails(smtp_inbox):
        count += 1
        subject = str(msg["Subject"])
        text = msg.as_string()
        for owner, secret in secrets.items():
            assert secret not in subject
            if secret in text:
                assert owner == "germany" and who == address("germany") and "Welcome" in subject, (who, subject)
    assert count >= 6


def test_adjudicate_by_hand_names_the_deadline_it_sets(tmp_path: Path) -> None:
    samples = Path(__file__).parent.parent / "orders" / "standard"
    game = tmp_path / "g"
    cli_ok("new", str(game))
    cli_ok("deadline", str(game), "2030-03-01T18:00Z")
    cli_ok("adjudicate", str(game), str(samples / "1901-spring.txt"), "--deadline", "2030-03-04T18:00Z")
    assert game_deadline(game) == "2030-03-04T18:00+00:00"
    report = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert "Orders are due by 2030-03-04T18:00+00:00." in report
    # With a schedule, the next deadline is its length from now; without, the old one is not kept.
    cli_ok("schedule", str(game), "--movement", "3d")
    before = datetime.now().astimezone()
    cli_ok("adjudicate", str(game), str(samples / "1901-fall.txt"))
    due = parse_time(game_deadline(game) or "")                     # Winter: the default 1d
    assert before + timedelta(days=1) - timedelta(minutes=1) <= due <= before + timedelta(days=1, minutes=1)
    assert f"Orders are due by {game_deadline(game)}." in \
        (game / "reports" / "1901-fall-movement.txt").read_text(encoding="utf-8")
    other = tmp_path / "h"
    cli_ok("new", str(other))
    cli_ok("deadline", str(other), "2030-03-01T18:00Z")
    cli_ok("adjudicate", str(other), str(samples / "1901-spring.txt"))
    assert game_deadline(other) is None
    assert "Orders are due by" not in (other / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")


def test_the_mail_guide_says_what_the_judge_does(tmp_path: Path) -> None:
    guide = (Path(__file__).parent.parent / "docs" / "mail.md").read_text(encoding="utf-8")
    for stale in ("the judge does not watch the clock", "nothing runs by itself", "comes with the roster work",
                  "Tell each player their password"):
        assert stale not in guide
    for said in ("adjudicator run", "adjudicator schedule", "adjudicator mailbox", "new password:",
                 "player add wonders alice", "[mygame] Re: orders", "missed_limit"):
        assert said in guide, said


def test_a_player_added_again_gets_the_new_password_in_a_new_welcome(tmp_path: Path,
                                                                      smtp_inbox: SmtpInbox) -> None:
    game = set_up(tmp_path, smtp_inbox, seats=("france",), generated=("france",))
    run(game, T0)
    cli_ok("player", "add", str(game), "France", "--name", "France", "--email", address("france"))
    made = yaml.safe_load((game / "mail" / "welcome" / "pending" / "france.yaml").read_text())["password"]
    run(game, T0 + timedelta(minutes=5))
    welcomes = [m for m in mails_to(smtp_inbox, "france") if "Welcome" in str(m["Subject"])]
    assert len(welcomes) == 2 and f"Your password is {made}" in body_of(welcomes[1])
    run(game, T0 + timedelta(minutes=10))
    assert len(mails_to(smtp_inbox, "france")) == 2
