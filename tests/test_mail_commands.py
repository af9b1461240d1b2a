"""Player and GM commands by mail (adjudicator/mail/commands): each answered
in the reply, taken through the real intake (`ingest_mails`: the gate,
the password, the reply file) on a Standard game folder. The one-mail cases
are data (tests/cases/commands/replies.yaml); the flows that span mails,
files and other players are here: press to each recipient alone, grey press
and replies to press, history with its map, absences that move a deadline,
resignation, the GM's pause/resume/extend/process, and sign-up."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_mail import OPENED, PASSWORDS, address, open_phase_at

from adjudicator.folder import gamefolder, players
from adjudicator.folder.folders import game_meta
from adjudicator.mail.ingest import IngestResult, ingest_mails
from adjudicator.mail.runner import run_once
from adjudicator.store import storage

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "commands" / "replies.yaml").read_text(encoding="utf-8"))
NOW = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)
DEADLINE = "2024-01-05T12:00+00:00"
GM = "gm@localhost"
GM_PASSWORD = "gm-password-long"
_game_template: dict[str, Path] = {}


def set_meta(folder: Path, **changes: Any) -> None:
    meta = storage.read_yaml(folder / "game.yaml")
    meta.update(changes)
    storage.write_yaml(folder / "game.yaml", meta)


def make_game(folder: Path, tmp_root: Path) -> Path:
    """A Standard game of seven players, copied from one made once (argon2 is slow on purpose)."""
    import shutil
    template = _game_template.get("standard")
    if template is None or not template.exists():
        template = tmp_root / "template-game"
        gamefolder.new_game(template, "standard")
        for power, password in PASSWORDS.items():
            players.add_player(template, power, power.title() + " Player", address(power), password)
        set_meta(template, deadline=DEADLINE, opened="2023-12-31T12:00+00:00", name="game", gm_contact=GM,
                 gm_password_hash=players.hash_password(GM_PASSWORD), gm_email="judge@localhost")
        _game_template["standard"] = template
    shutil.copytree(template, folder)
    open_phase_at(folder, OPENED)
    return folder


@pytest.fixture
def game(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path / "game", tmp_path_factory.getbasetemp())


def letter(sender: str, body: str, tag: str, when: datetime = NOW - timedelta(hours=1), subject: str = "orders",
           replying: EmailMessage | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@localhost"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{tag}@sender.example>"
    if replying is not None:
        msg["In-Reply-To"] = str(replying["Message-ID"])
        msg["References"] = f"{replying['References']} {replying['Message-ID']}"
    msg.set_content(body)
    return bytes(msg)


def from_power(power: str, body: str, tag: str, **kw: Any) -> bytes:
    return letter(address(power), f"password: {PASSWORDS[power]}\n{body}\n", tag, **kw)


def take(game: Path, *raws: bytes, now: datetime = NOW) -> list[IngestResult]:
    return ingest_mails(game, list(raws), now=now)


def read(path: Path | None) -> EmailMessage:
    assert path is not None
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(path: Path | None) -> str:
    part = read(path).get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def press_files(game: Path, seat: str | None = None) -> list[Path]:
    return sorted((game / "mail" / "replies").glob(f"*-press-{seat or '*'}.eml"))


# --- the one-mail cases --------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_command_is_answered_in_the_reply(game: Path, case: dict[str, Any]) -> None:
    settings = dict(case.get("settings") or {})
    for power in settings.pop("players_without", []):
        players.remove_player(game, power)
    if settings:
        set_meta(game, **settings)
    for number, before in enumerate(case.get("before") or []):
        take(game, from_power(before["from"], before["body"], f"before-{number}"))
    mail = case["mail"]
    result, = take(game, from_power(mail["from"], mail["body"], "case"))
    reply = text_of(result.reply)
    for wanted in case.get("has") or []:
        assert wanted in " ".join(reply.split()), f"{wanted!r} not in:\n{reply}"
    for unwanted in case.get("lacks") or []:
        assert unwanted not in reply, f"{unwanted!r} in:\n{reply}"
    if "stored" in case:
        assert (game / "orders" / "1901-spring-movement" / f"{mail['from']}.txt").exists() == case["stored"]
    assert PASSWORDS[mail["from"]] not in reply


# --- press ----------------------------------------------------------------------------------
def test_press_goes_to_each_recipient_alone_from_the_judge(game: Path) -> None:
    result, = take(game, from_power("france", f"press to Germany, Italy:\nShall we split Austria?\n"
                                              f"My password is {PASSWORDS['france']}.\nendpress", "p1"))
    assert "Your press goes to Germany, Italy, signed France." in text_of(result.reply)
    files = press_files(game)
    assert [f.name.split("-", 2)[2] for f in files] == ["germany.eml", "italy.eml"]
    for path, seat in zip(files, ("germany", "italy")):
        msg = read(path)
        assert msg["To"].addresses[0].addr_spec == address(seat) and len(msg["To"].addresses) == 1
        assert msg["From"].addresses[0].addr_spec == "judge@localhost"
        assert msg["Subject"] == "[game] Press from France"
        body = text_of(path)
        assert body.startswith("Press from France to Germany, Italy, at Spring 1901 Movement:")
        assert "Shall we split Austria?" in body
        assert PASSWORDS["france"] not in path.read_text(encoding="utf-8")      # the password never goes on
        assert address("france") not in path.read_text(encoding="utf-8")
    logged = storage.read_yaml(game / "gm" / "press" / "0001.yaml")
    assert logged["from"] == "france" and logged["to"] == ["germany", "italy"] and logged["grey"] is False
    assert set(logged["mails"].values()) == {str(read(f)["Message-ID"]) for f in files}
    # The same mail again (the ledger) sends nothing more.
    take(game, from_power("france", "press to Germany, Italy:\nShall we split Austria?\nendpress", "p1"))
    assert len(press_files(game)) == 2


def test_grey_press_goes_without_its_sender_and_a_reply_goes_back_to_the_same_powers(game: Path) -> None:
    set_meta(game, press="grey")
    take(game, from_power("france", "press to Germany, Italy:\nWho wants Munich?\nendpress", "g1"))
    to_italy = read(press_files(game, "italy")[0])
    for path in press_files(game):
        raw = path.read_text(encoding="utf-8")
        assert "France" not in raw and "france" not in raw.split("X-Adjudicator-Power")[0]
        assert read(path)["Subject"] == "[game] Press"
        assert text_of(path).startswith("Grey press (its sender is not named) to Germany, Italy")
    assert storage.read_yaml(game / "gm" / "press" / "0001.yaml")["from"] == "france"   # the GM knows
    # Italy replies to the press it had: its text goes to France (the sender) and Germany, still grey,
    # without naming the recipients (that would name the first press's sender).
    reply = letter(address("italy"), f"Hi,\npassword: {PASSWORDS['italy']}\nI do. Tyrolia first.\n\n"
                                     "On Monday someone wrote:\n> Who wants Munich?\n",
                   "g2", subject=f"Re: {to_italy['Subject']}", replying=to_italy)
    result, = take(game, reply)
    assert "Your press goes to everyone who had the press it answers, and its sender" in text_of(result.reply)
    answers = [p for p in press_files(game) if p not in press_files(game)[:2]]
    assert sorted(p.name.split("-", 2)[2] for p in answers) == ["france.eml", "germany.eml"]
    for path in answers:
        body = text_of(path)
        assert "I do. Tyrolia first." in body and "Who wants Munich?" not in body
        assert "Italy" not in body and "France" not in body and PASSWORDS["italy"] not in body
    to_germany = read(next(p for p in answers if p.name.endswith("germany.eml")))
    first_to_germany = read(press_files(game, "germany")[0])
    assert to_germany["In-Reply-To"] == first_to_germany["Message-ID"]      # threaded for the one who had it
    assert not (game / "orders" / "1901-spring-movement" / "italy.txt").exists()   # a reply to press is not orders


# --- history ----------------------------------------------------------------------------------
def test_history_mails_a_public_report_again_with_its_map_and_nothing_private(game: Path, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("France:\nA par - bur\nItaly:\nA ven - tyr\n", encoding="utf-8")
    gamefolder.adjudicate(game, orders, nmr=True)
    private = game / "private" / "france" / "1901-spring-movement.txt"
    private.write_text(private.read_text(encoding="utf-8") + "SECRET-OF-FRANCE\n", encoding="utf-8")
    open_phase_at(game, OPENED)
    result, = take(game, from_power("germany", "history spring 1901", "h1"))
    msg = read(result.reply)
    text = text_of(result.reply)
    public = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert "HISTORY OF SPRING 1901 MOVEMENT (its map is attached)" in text and public.strip() in text
    assert result.reply is not None and "SECRET-OF-FRANCE" not in result.reply.read_text(encoding="utf-8")
    pictures = [p for p in msg.iter_attachments() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_content().startswith(b"\x89PNG")
    result, = take(game, from_power("germany", "history\nhistory 1901 fall\nhistory", "h2"))
    text = text_of(result.reply)
    assert "Phases with a report: Spring 1901 Movement." in text
    assert "no report for '1901 fall'" in text and "at most 2 reports a mail" in text


# --- absences ---------------------------------------------------------------------------------
def test_an_absence_moves_the_deadline_past_it_and_is_announced(game: Path) -> None:
    result, = take(game, from_power("england", "absence 2024-01-04 2024-01-06", "a1"))
    text = " ".join(text_of(result.reply).split())
    assert "The deadline for Spring 1901 Movement moves from 2024-01-05T12:00+00:00 to 2024-01-07T12:00+00:00." in text
    assert text.endswith("are due by 2024-01-07T12:00+00:00.")
    meta = game_meta(game)
    assert meta["deadline"] == "2024-01-07T12:00+00:00"
    assert meta["absences"] == [{"power": "england", "from": "2024-01-04", "to": "2024-01-06"}]
    told = storage.read_yaml(next((game / "mail" / "notices" / "1901-spring-movement").glob("announce-*.yaml")))
    assert sorted(told["players"]) == sorted(PASSWORDS)
    assert "England will be away from 2024-01-04 to 2024-01-06" in told["players"]["france"][0]
    # The next phase's deadline, from the schedule, keeps clear of it too.
    from adjudicator.folder import schedule
    assert schedule.next_deadline(meta, "movement", datetime(2024, 1, 2, 9, 0, tzinfo=timezone.utc)) == \
        datetime(2024, 1, 7, 9, 0, tzinfo=timezone.utc)
    take(game, from_power("england", "absence 2024-02-01 2024-02-02", "a2"))
    result, = take(game, from_power("england", "absence 2024-03-01 2024-03-02", "a3"))
    assert "you have had 2 absences in 2024, as many as this game allows a year" in text_of(result.reply)
    result, = take(game, from_power("england", "absence 2024-01-05 2024-01-05", "a4"))
    assert "it overlaps an absence you announced before" in text_of(result.reply)


# --- resignation ------------------------------------------------------------------------------
def test_a_player_who_resigns_leaves_the_roster_and_the_gm_is_told(game: Path) -> None:
    take(game, from_power("italy", "resign", "r1"))
    italy = next(p for p in players.roster(game) if p["power"] == "italy")
    assert italy["email"] == "" and italy["password_hash"] is None
    told = storage.read_yaml(next((game / "mail" / "notices" / "1901-spring-movement").glob("gm-*.yaml")))
    assert told["players"] == {} and "Italy Player <italy@localhost> resigned Italy" in told["gm"][0]
    result, = take(game, from_power("italy", "status", "r2"))
    assert result.reply is None and "not a player" in (result.reason or "")      # a stranger now: no reply


# --- the GM by mail ---------------------------------------------------------------------------
def from_gm(body: str, tag: str, password: str = GM_PASSWORD, **kw: Any) -> bytes:
    return letter(GM, f"password: {password}\n{body}\n", tag, subject="[game] control", **kw)


def test_the_gm_pauses_resumes_extends_and_processes_by_mail(game: Path) -> None:
    result, = take(game, from_gm("pause", "gm1"))
    assert "pause: done, and announced to every player" in text_of(result.reply)
    assert game_meta(game)["paused"] == "2024-01-01T12:00+00:00"
    run = run_once(game, NOW + timedelta(days=10), None)          # past the deadline: still nothing
    assert run == ["nothing to do: the GM paused the game at 2024-01-01T12:00+00:00"]
    assert not (game / "reports").exists()
    # Two days later: resume moves the deadline on by the pause; extend then adds a day.
    result, = take(game, from_gm("resume\nextend +1d", "gm2"), now=NOW + timedelta(days=2))
    text = " ".join(text_of(result.reply).split())
    assert "resume: done" in text and "extend: done (the deadline moves 1d later)" in text
    assert text.endswith("are due by 2024-01-08T12:00+00:00.")
    meta = game_meta(game)
    assert "paused" not in meta and meta["deadline"] == "2024-01-08T12:00+00:00"
    log = (game / "gm" / "commands.log").read_text(encoding="utf-8").splitlines()
    assert [line.split()[2] for line in log] == ["pause", "resume", "extend"]
    announced = sorted((game / "mail" / "notices" / "1901-spring-movement").glob("announce-*.yaml"))
    assert len(announced) == 3
    texts = [storage.read_yaml(p)["players"]["france"][0] for p in announced]
    assert any("The GM has moved the deadline for Spring 1901 Movement to 2024-01-08T12:00+00:00." in t for t in texts)
    # process: the next run adjudicates at once, the silent NMR.
    take(game, from_power("france", "A par - bur", "o1"), from_gm("process", "gm3"), now=NOW + timedelta(days=2))
    lines = run_once(game, NOW + timedelta(days=2, minutes=5), None)
    assert lines[0].startswith("adjudicated 1901-spring-movement (the GM asked for it; NMR: Austria, England")
    assert (game / "reports" / "1901-spring-movement.txt").exists()
    assert "nothing to do" in run_once(game, NOW + timedelta(days=2, minutes=10), None)[-1]   # not the next phase


def test_the_gms_mail_needs_the_gm_password_and_a_players_is_not_the_gms(game: Path) -> None:
    result, = take(game, from_gm("pause", "w1", password="wrong-guess-here"))
    assert "wrong password" in text_of(result.reply) and "paused" not in game_meta(game)
    guesses = storage.read_yaml(game / "mail" / "guesses.yaml")
    assert "player:gm" in str(guesses)                       # counted like any wrong password
    result, = take(game, from_gm("pause\nA par - bur\nnew password: another-long-one", "w2"))
    text = text_of(result.reply)
    assert "'A par - bur' is not a GM command" in text and "not by mail" in text
    assert players.verify(game_meta(game)["gm_password_hash"], GM_PASSWORD)
    set_meta(game, gm_password_hash=None)
    result, = take(game, from_gm("resume", "w3"))
    assert result.reply is None                               # no GM password set: a stranger's mail


# --- sign-up ----------------------------------------------------------------------------------
def signup_game(tmp_path: Path, seats: int, **settings: Any) -> Path:
    from adjudicator.folder import signup
    game = gamefolder.new_game(tmp_path / "open", "standard")
    meta, variant, _, _ = gamefolder.load_current(game)
    meta = signup.opened(meta, variant, seats, settings.pop("assign", "preference"), settings.pop("approve", False))
    meta.update(name="open", gm_contact=GM, gm_password_hash=players.hash_password(GM_PASSWORD),
                gm_email="judge@localhost", **settings)
    storage.write_yaml(game / "game.yaml", meta)
    open_phase_at(game, OPENED)
    return game


def join(who: str, body: str, tag: str) -> bytes:
    return letter(f"{who}@localhost", f"join open\npassword: {who}-password-long\n{body}\n", tag)


def test_a_signup_game_fills_by_preference_and_starts(tmp_path: Path) -> None:
    game = signup_game(tmp_path, 3)
    assert run_once(game, NOW, None) == ["nothing to do: the game waits for its players to sign up"]
    results = take(game, join("ann", "name: Ann Lee\npreference: France, Italy", "j1"),
                   letter("nobody@localhost", "password: whatever\nA par - bur", "stranger"),
                   join("bob", "preference: France, England", "j2"))
    assert [r.reply is not None for r in results] == [True, False, True]
    assert "1 of 3 players have joined so far." in text_of(results[0].reply)
    assert results[0].reply is not None and "ann-password-long" not in results[0].reply.read_text(encoding="utf-8")
    assert "players" not in str(game_meta(game).get("signup"))
    result, = take(game, join("cy", "name: Cy\npreference: Turkey", "j3"))
    assert "The game is full and starts now" in text_of(result.reply)
    seated = {p["power"]: p for p in players.roster(game) if p.get("email")}
    assert {p["email"] for p in seated.values()} == {"ann@localhost", "bob@localhost", "cy@localhost"}
    assert seated["turkey"]["email"] == "cy@localhost"
    # Ann and Bob both want France: one has it, the other their second choice.
    assert seated["france"]["email"] in ("ann@localhost", "bob@localhost")
    other = "bob@localhost" if seated["france"]["email"] == "ann@localhost" else "ann@localhost"
    second = "italy" if other == "ann@localhost" else "england"
    assert seated[second]["email"] == other
    assert players.verify(seated["turkey"], "cy-password-long")
    assert game_meta(game)["signup"]["filled"] is True
    lines = run_once(game, NOW + timedelta(minutes=5), None)
    assert lines[0].startswith("Spring 1901 Movement opens now; deadline:")
    result, = take(game, join("dee", "", "j4"), now=NOW + timedelta(minutes=6))
    assert "not open for sign-up: it is full or under way" in text_of(result.reply)
    result, = take(game, from_power_of(seated["turkey"], "cy-password-long", "status", "s1"),
                   now=NOW + timedelta(minutes=7))
    assert "Status of open" in text_of(result.reply)


def from_power_of(entry: dict[str, Any], password: str, body: str, tag: str) -> bytes:
    return letter(str(entry["email"]), f"password: {password}\n{body}\n", tag, when=NOW + timedelta(minutes=6))


def test_the_gm_approves_or_refuses_joiners(tmp_path: Path) -> None:
    game = signup_game(tmp_path, 2, approve=True)
    take(game, join("ann", "", "j1"), join("bob", "", "j2"), join("cy", "", "j3"))
    assert all(p.get("email") == "" for p in players.roster(game))
    result, = take(game, letter(GM, f"password: {GM_PASSWORD}\nrefuse bob@localhost\napprove ann@localhost",
                                "gm1"))
    assert "refuse: bob@localhost refused." in text_of(result.reply)
    assert all(p.get("email") == "" for p in players.roster(game))        # one approved of two
    result, = take(game, join("bob", "", "j4"))
    assert "the GM did not take your sign-up" in text_of(result.reply)
    take(game, letter(GM, f"password: {GM_PASSWORD}\napprove cy@localhost", "gm2"))
    assert sorted(p["email"] for p in players.roster(game) if p.get("email")) == ["ann@localhost", "cy@localhost"]
    told = [storage.read_yaml(p)["gm"] for p in (game / "mail" / "notices" / "1901-spring-movement").glob("gm-*")]
    assert any("Mail 'approve bob@localhost' or 'refuse bob@localhost'" in " ".join(lines) for lines in told)


def test_join_answers_are_capped_per_address(tmp_path: Path) -> None:
    game = signup_game(tmp_path, 3)
    results = take(game, *[join("ann", "", f"j{n}") for n in range(5)])
    assert [r.reply is not None for r in results] == [True, True, True, False, False]


def test_press_is_capped_per_player_a_day(game: Path) -> None:
    storage.write_yaml(game / "gm" / "press" / "counts.yaml", {"2024-01-01": {"france": 30, "italy": 2}})
    result, = take(game, from_power("france", "broadcast:\nOnce more.\nendpress", "c1"))
    assert "you have sent 30 press today, as many as a day allows; nothing was sent" in text_of(result.reply)
    assert press_files(game) == []
    result, = take(game, from_power("italy", "broadcast:\nHello.\nendpress", "c2"))
    assert "Your press goes to every power" in text_of(result.reply) and len(press_files(game)) == 6
    assert storage.read_yaml(game / "gm" / "press" / "counts.yaml") == {"2024-01-01": {"france": 30, "italy": 3}}


def test_the_guide_has_an_example_of_every_command_the_judge_reads() -> None:
    from adjudicator.mail import commands
    guide = (Path(__file__).parent.parent / "docs" / "mail.md").read_text(encoding="utf-8")
    examples = {line.strip().split()[0].lower() for line in guide.splitlines()
                if line.startswith("    ") and line.strip()}
    for word in [*commands.PLAYER_COMMANDS, *commands.GM_COMMANDS]:
        assert word in examples or f"`{word}" in guide, word
    for example in ("press to Germany, Italy:", "broadcast:", "absence 2026-07-20 2026-07-26", "history fall 1901",
                    "join spring26", "game: spring26", "[spring26]"):
        assert example in guide, example


@pytest.mark.parametrize("reveal", [False, True])
def test_the_end_report_names_who_played_only_where_the_gm_reveals_it(game: Path, reveal: bool) -> None:
    set_meta(game, anonymous=True, reveal_at_end=reveal)
    gamefolder.end_game(game, {"draw": ["france", "italy"], "phase": "Spring 1901 Movement"})
    report = (game / "reports" / "end.txt").read_text(encoding="utf-8")
    assert ("WHO PLAYED" in report) == reveal
    assert ("France Player" in report) == reveal and ("Italy Player" in report) == reveal
    assert "@localhost" not in report                     # never an address


def test_a_gm_address_that_is_also_a_players_stays_the_players(game: Path) -> None:
    set_meta(game, gm_contact=address("france"))
    result, = take(game, letter(address("france"), f"password: {GM_PASSWORD}\npause\n", "x1"))
    assert "wrong password" in text_of(result.reply) and "paused" not in game_meta(game)
    result, = take(game, from_power("france", "A par - bur", "x2"))
    assert "Orders received for France" in text_of(result.reply)
