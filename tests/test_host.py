"""A host of games behind one judge address (adjudicator/mail/host.py,
routing.py): which game a mail goes to (tests/cases/host/routing.yaml), that
an idle game is not read at all in a tick, that a game with mail, a moment
due or changed files takes its step, that a sender in several games who names
none is answered once, and that one game's failure does not stop the others.
The mailbox is an mbox file and no SMTP server is set (the mails wait in
mail/); tests/test_host_by_mail.py runs a whole host over Dovecot and aiosmtpd."""

from __future__ import annotations

import builtins
import io
import json
import mailbox
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.mail import host as hosting
from adjudicator.mail.routing import GameEntry, Router

ROUTES = yaml.safe_load((Path(__file__).parent / "cases" / "host" / "routing.yaml").read_text(encoding="utf-8"))
T0 = datetime(2030, 3, 1, 9, 0, tzinfo=timezone.utc)
JUDGE = "judge@localhost"


def raw_mail(sender: str, subject: str, body: str = "password: x\n", headers: dict[str, str] | None = None,
             tag: str = "m", when: datetime = T0) -> bytes:
    msg = EmailMessage()
    for name, value in (headers or {}).items():
        msg[name] = value
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{tag}@sender.example>"
    msg.set_content(body)
    return bytes(msg)


@pytest.mark.parametrize("case", ROUTES, ids=[c["id"] for c in ROUTES])
def test_a_mail_is_routed_to_its_game(case: dict[str, Any]) -> None:
    games = [GameEntry("alpha", "alpha", frozenset({"ann@x", "bob@x", "gm@x"}), False),
             GameEntry("beta", "beta", frozenset({"ann@x", "cy@x"}), False),
             GameEntry("open", "open", frozenset(), True)]
    router = Router(games, "judge@x", set())
    route = router.route(raw_mail(case["from"], case["subject"], case.get("body", "password: x\n"),
                                  case.get("headers")))
    wanted = case["route"]
    assert (route.game, route.how) == (wanted["game"], wanted["how"])
    assert route.games == wanted.get("games", [])


def test_a_bounce_goes_to_the_game_whose_mail_came_back() -> None:
    from email.mime.message import MIMEMessage
    from email.mime.multipart import MIMEMultipart
    from email.mime.text import MIMEText
    report = MIMEMultipart("report", report_type="delivery-status")
    report["From"] = "MAILER-DAEMON@mx.example"
    report["To"] = JUDGE
    report["Subject"] = "Undelivered Mail Returned to Sender"
    report["Message-ID"] = "<dsn1@mx.example>"
    report.attach(MIMEText("Your mail could not be delivered."))
    status = EmailMessage()
    status.set_content("Reporting-MTA: dns; mx.example")
    report.attach(MIMEMessage(status, "delivery-status"))
    returned = EmailMessage()
    returned["From"] = JUDGE
    returned["Subject"] = "[beta] Spring 1901 Movement results"
    returned.set_content("...")
    report.attach(MIMEMessage(returned, "rfc822"))
    games = [GameEntry("alpha", "alpha", frozenset({"ann@x"}), False),
             GameEntry("beta", "beta", frozenset({"cy@x"}), False)]
    route = Router(games, JUDGE, set()).route(report.as_bytes())
    assert (route.game, route.how) == ("beta", "bounce")


# --- a host on disk ---------------------------------------------------------------------------
def ok(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result.output


def make_host(tmp_path: Path, games: dict[str, dict[str, str]]) -> Path:
    """A host folder with Standard games; `games` maps a game to {power: address}. Passwords are set
    in game.yaml as hashes made once (argon2 is slow on purpose)."""
    from adjudicator.folder import players
    host = tmp_path / "host"
    host.mkdir()
    (host / "inbox.mbox").touch()
    ok("host", str(host), "--source", str(host / "inbox.mbox"), "--judge-address", JUDGE,
       "--judge-name", "Test Judge", "--gm-address", "gm@localhost")
    hashed = players.hash_password("pw-long-enough")
    for name, seats in games.items():
        ok("new", str(host / name))
        meta = yaml.safe_load((host / name / "game.yaml").read_text(encoding="utf-8"))
        for entry in meta["players"]:
            if entry["power"] in seats:
                entry.update(name=entry["power"].title(), email=seats[entry["power"]], password_hash=hashed)
        meta["schedule"] = {"movement": "2d", "grace": "1h", "reminders": ["12h"]}
        (host / name / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    return host


def post(host: Path, *raws: bytes) -> None:
    box = mailbox.mbox(str(host / "inbox.mbox"))
    try:
        for raw in raws:
            box.add(raw)
        box.flush()
    finally:
        box.close()


def tick(host: Path, when: datetime, code: int = 0) -> str:
    return ok("run", "--host", str(host), "--now", when.isoformat(), code=code)


@pytest.fixture
def host(tmp_path: Path) -> Path:
    return make_host(tmp_path, {"alpha": {"france": "ann@localhost", "germany": "bob@localhost"},
                                "beta": {"france": "ann@localhost", "italy": "cy@localhost"}})


def test_each_game_gets_the_hosts_judge_settings_and_no_mailbox_of_its_own(host: Path) -> None:
    out = tick(host, T0)
    assert "[alpha] Spring 1901 Movement opens now" in out and "[beta] Spring 1901 Movement opens now" in out
    for name in ("alpha", "beta"):
        meta = yaml.safe_load((host / name / "game.yaml").read_text(encoding="utf-8"))
        assert meta["gm_email"] == JUDGE and meta["judge_name"] == "Test Judge"
        assert meta["gm_contact"] == "gm@localhost" and "source" not in (meta.get("mail") or {})
        assert len(list((host / name / "mail" / "welcome").glob("*.eml"))) == 2


def test_an_idle_game_is_not_read_at_all(host: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tick(host, T0)
    opened: list[str] = []
    real_open, real_io_open = builtins.open, io.open

    def spy(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def io_spy(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_io_open(file, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(io, "open", io_spy)
    done = hosting.tick(host, T0 + timedelta(hours=1))
    assert done.stepped == [] and done.idle == 2 and done.lines == []
    read = [p for p in opened if "/alpha/" in p or "/beta/" in p or p.endswith(("/alpha", "/beta"))]
    assert read == [], read


def test_an_idle_tick_imports_no_game_code(host: Path) -> None:
    tick(host, T0)
    script = (f"import sys, datetime\nfrom pathlib import Path\nfrom adjudicator.mail import host\n"
              f"host.tick(Path({str(host)!r}), datetime.datetime.fromisoformat({(T0 + timedelta(hours=1)).isoformat()!r}))\n"
              "print(' '.join(sorted(m for m in sys.modules if m.startswith('adjudicator'))))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                            timeout=120).stdout.split()
    for heavy in ("adjudicator.diplomacy.parser", "adjudicator.folder.gamefolder", "adjudicator.mail.ingest",
                  "adjudicator.mail.runner", "adjudicator.output.report"):
        assert heavy not in loaded, loaded


def test_mail_a_moment_due_or_a_gms_change_wakes_its_game(host: Path) -> None:
    tick(host, T0)
    assert "0 game(s) stepped, 2 idle" in tick(host, T0 + timedelta(hours=1))
    # The GM seats a player by hand in beta: its files changed, so the next tick welcomes them.
    ok("player", "add", str(host / "beta"), "germany", "--name", "Dee", "--email", "dee@localhost",
       "--password", "pw-dee-long-enough")
    out = tick(host, T0 + timedelta(hours=2))
    assert "[beta] welcomes written: 1" in out and "[alpha]" not in out
    # Mail for alpha only.
    post(host, raw_mail("bob@localhost", "[alpha] orders", "password: pw-long-enough\nA ber - kie\n", tag="o1",
                        when=T0 + timedelta(hours=2)))
    out = tick(host, T0 + timedelta(hours=3))
    assert "[alpha] mail from bob@localhost (germany): stored" in out and "[beta]" not in out
    # The 12-hour reminder of both (deadline T0 + 2d).
    out = tick(host, T0 + timedelta(days=1, hours=13))
    assert "[alpha] reminded" in out and "[beta] reminded" in out
    assert "0 game(s) stepped" in tick(host, T0 + timedelta(days=1, hours=14))
    # Deadline plus grace: both adjudicate, the silent NMR.
    out = tick(host, T0 + timedelta(days=2, hours=1, minutes=5))
    assert "[alpha] adjudicated 1901-spring-movement" in out and "[beta] adjudicated 1901-spring-movement" in out
    index = json.loads((host / ".host" / "index.json").read_text(encoding="utf-8"))
    assert index["alpha"]["wake"].startswith("2030-03-04T")          # the next phase's reminder


def test_a_sender_in_two_games_who_names_none_is_answered_once(host: Path) -> None:
    tick(host, T0)
    post(host, raw_mail("ann@localhost", "my orders", "password: pw-long-enough\nA par - bur\n", tag="amb",
                        when=T0 + timedelta(minutes=5)))
    out = tick(host, T0 + timedelta(minutes=10))
    assert "host: a mail from ann@localhost names no game; the answer waits in mail/replies/0001-which-game.eml" in out
    answer = (host / "mail" / "replies" / "0001-which-game.eml").read_text(encoding="utf-8")
    assert "[alpha]" in answer and "[beta]" in answer and "pw-long-enough" not in answer
    assert "cy@localhost" not in answer and "bob@localhost" not in answer
    tick(host, T0 + timedelta(minutes=20))
    assert len(list((host / "mail" / "replies").glob("*.eml"))) == 1               # once
    assert not (host / "alpha" / "orders" / "1901-spring-movement").exists()
    # Automatic mail from a player is never answered, even when it names no game.
    post(host, raw_mail("ann@localhost", "Out of office", "I am away.", {"Auto-Submitted": "auto-replied"},
                        tag="away", when=T0 + timedelta(minutes=25)))
    out = tick(host, T0 + timedelta(minutes=30))
    assert "not answered: it is automatic mail" in out
    assert len(list((host / "mail" / "replies").glob("*.eml"))) == 1


def test_one_games_failure_does_not_stop_the_others(host: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tick(host, T0)
    post(host, raw_mail("bob@localhost", "[alpha] orders", "password: pw-long-enough\nA ber - kie\n", tag="o1",
                        when=T0 + timedelta(minutes=5)),
         raw_mail("cy@localhost", "[beta] orders", "password: pw-long-enough\nA ven - tyr\n", tag="o2",
                  when=T0 + timedelta(minutes=5)))
    monkeypatch.setenv("ADJUDICATOR_LOCK_WAIT", "0")
    import fcntl
    with open(host / "alpha" / ".lock", "a") as held:                   # the GM's command holds alpha
        fcntl.flock(held, fcntl.LOCK_EX)
        out = tick(host, T0 + timedelta(minutes=10), code=1)
        fcntl.flock(held, fcntl.LOCK_UN)
    assert "[alpha] error: " in out and "another run holds the game" in out
    assert "[beta] mail from cy@localhost (italy): stored" in out and "1 failed: alpha" in out
    out = tick(host, T0 + timedelta(minutes=15))                        # the mail waited; alpha takes it now
    assert "[alpha] mail from bob@localhost (germany): stored" in out and "[beta]" not in out


def test_a_single_game_still_runs_alone_and_run_needs_one_of_game_or_host(tmp_path: Path) -> None:
    ok("new", str(tmp_path / "solo"))
    assert "opens now" in ok("run", str(tmp_path / "solo"), "--now", T0.isoformat())
    out = ok("run", code=2)
    assert "give GAME or --host DIR" in out
    out = ok("run", "--host", str(tmp_path), code=2)
    assert "no host.yaml here" in out


def test_a_broken_game_yaml_is_one_line_and_the_other_games_go_on(host: Path) -> None:
    tick(host, T0)
    good = (host / "beta" / "game.yaml").read_text(encoding="utf-8")
    (host / "beta" / "game.yaml").write_text("variant: [1\n", encoding="utf-8")
    post(host, raw_mail("bob@localhost", "[alpha] orders", "password: pw-long-enough\nA ber - kie\n", tag="o1",
                        when=T0 + timedelta(minutes=5)),
         raw_mail("cy@localhost", "[beta] orders", "password: pw-long-enough\nA ven - tyr\n", tag="o2",
                  when=T0 + timedelta(minutes=5)))
    out = tick(host, T0 + timedelta(minutes=10), code=1)
    assert "[beta] error:" in out and "game.yaml" in out and "Traceback" not in out
    assert "[alpha] mail from bob@localhost (germany): stored" in out
    # Beta's mail waits for it (it is not taken for a stranger's): the GM mends game.yaml, beta takes it.
    (host / "beta" / "game.yaml").write_text(good, encoding="utf-8")
    out = tick(host, T0 + timedelta(minutes=15))
    assert "[beta] mail from cy@localhost (italy): stored" in out
    assert os.path.exists(host / ".host" / "index.json")
