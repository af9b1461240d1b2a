"""A mailed line that is the game's own is never taken for a password: a key
of the game's choice (`action: pass`, Ambition's `secret: true`), a Diplomacy
order, a vote. A mail from which a password-like line was dropped is refused
whole, with a reply, and stores nothing. A secret Ambition alliance proposal
sent by mail stays secret end to end. Every test ingests real mails."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from test_ingest_corpus import fresh_copy
from test_ingest_turns import mail_to
from test_mail import PASSWORDS, SLUG, address, make_game, read_eml

from adjudicator.cards import driver
from adjudicator.folder import players
from adjudicator.mail import results
from adjudicator.mail.ingest import IngestResult, ingest
from adjudicator.mail.ingest_turns import is_yaml_line
from adjudicator.mail.mailread import is_password_like, split_lines
from adjudicator.mail.playerlines import is_choice_line
from adjudicator.store import storage

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["alice", "bob", "carol"]
WHEN = datetime(2099, 1, 1, 12, tzinfo=timezone.utc)          # after any phase opened


def take(folder: Path, tmp_path: Path, sender: str, body: str, mid: str) -> IngestResult:
    [result] = ingest(folder, mail_to(tmp_path, sender, body, mid))
    return result


def reply_of(result: IngestResult) -> str:
    return str(read_eml(result.reply).get_content())


def with_roster(folder: Path) -> Path:
    meta = storage.read_yaml(folder / "game.yaml")
    meta["players"] = [{"power": p, "name": p, "email": f"{p}@example.org",
                        "password_hash": players.hash_password(f"pw-{p}-1")} for p in SEATS]
    storage.write_yaml(folder / "game.yaml", meta)
    return folder


@pytest.fixture(scope="module")
def ambition_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample Ambition game (seed 53) up to Carol's Diplomacy phase of round 1, where she rolled 5-6."""
    folder = driver.new_game(tmp_path_factory.mktemp("amb") / "amb", "ambition", SEATS, 53)
    for turn in sorted((ROOT / "orders" / "ambition").glob("000[1-6]-*.yaml")):
        driver.adjudicate(folder, turn)
    return with_roster(folder)


@pytest.fixture
def ambition(ambition_template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "amb"
    shutil.copytree(ambition_template, target)
    return target


def stored(folder: Path, seat: str) -> object:
    [path] = (folder / "orders").glob(f"*/{seat}.yaml")
    return storage.read_yaml(path)


SECRET_PROPOSAL = ("password: pw-carol-1\naction: propose\npartner: bob\nalliance: delay-tactic\n"
                   "secret: true\n")


# --- the classification -----------------------------------------------------------------------
def test_the_issue_reproduction_keeps_secret_true() -> None:
    keys = frozenset({"action", "partner", "alliance", "secret"})
    body = split_lines(SECRET_PROPOSAL.replace("pw-carol-1", "pw"), is_yaml_line,
                       lambda line: is_choice_line(line, keys, SEATS))
    assert "secret: true" in body.text and body.password_like == []


@pytest.mark.parametrize("line, own", [
    ("action: pass", True), ("secret: true", True), ("  secret: true", True), ("- action: pass", True),
    ("carol: {action: pass, secret: true}", True), ("card: Passage Grave", True),
    ("pasword: hunter2", False), ("pw: hunter2", False), ("Pwd = hunter2", False),
    ("my password is hunter2", False), ("secret: hunter2 and more", True), ("passwort: x", False)])
def test_a_line_is_the_games_by_its_keys(line: str, own: bool) -> None:
    assert is_choice_line(line, {"action", "secret", "card"}, SEATS) is own


def test_secret_is_a_password_word_where_the_game_has_no_such_key() -> None:
    assert not is_choice_line("secret: true", {"action", "card", "buy"}, SEATS)


# --- by mail: turn-file games --------------------------------------------------------------------
def test_action_pass_by_mail_is_stored(ambition: Path, tmp_path: Path) -> None:
    result = take(ambition, tmp_path, "carol@example.org", "password: pw-carol-1\naction: pass\n", "pass")
    assert result.status == "stored", result.reason
    assert stored(ambition, "carol") == {"carol": {"action": "pass"}}
    assert "action: pass" in reply_of(result)


def test_a_secret_proposal_by_mail_stays_secret_end_to_end(ambition: Path, tmp_path: Path) -> None:
    result = take(ambition, tmp_path, "carol@example.org", SECRET_PROPOSAL, "secret")
    assert result.status == "stored", result.reason
    assert stored(ambition, "carol") == {"carol": {"action": "propose", "partner": "bob",
                                                   "alliance": "delay-tactic", "secret": True}}
    driver.adjudicate(ambition, None)
    [tag] = [p.stem for p in (ambition / "reports").glob("0007-*.txt")]
    public = (ambition / "reports" / f"{tag}.txt").read_text(encoding="utf-8")
    assert "carol makes a secret alliance proposal" in public
    for word in ("Delay Tactic", "delay-tactic", "to bob"):
        assert word not in public
    assert "Delay Tactic" in (ambition / "private" / "bob" / f"{tag}.txt").read_text(encoding="utf-8")
    assert "Delay Tactic" in (ambition / "private" / "carol" / f"{tag}.txt").read_text(encoding="utf-8")
    assert "Delay Tactic" not in (ambition / "private" / "alice" / f"{tag}.txt").read_text(encoding="utf-8")
    # The mails: alice's says nothing of it; bob's and carol's do.
    for message in results.build_messages(ambition, tag, WHEN):
        text = message.as_string()
        seen = "Delay Tactic" in text or "delay-tactic" in text
        assert seen == (message["X-Adjudicator-Power"] in ("bob", "carol")), message["X-Adjudicator-Power"]


def test_a_mail_that_lost_a_password_like_line_is_refused_whole(ambition: Path, tmp_path: Path) -> None:
    body = "password: pw-carol-1\naction: propose\npartner: bob\nalliance: delay-tactic\npw: pw-carol-1\n"
    result = take(ambition, tmp_path, "carol@example.org", body, "lost")
    assert result.status == "refused"
    assert not list((ambition / "orders").glob("*/carol.yaml"))
    reply = reply_of(result)
    assert "line 5 looked like a password" in reply and "Nothing was stored" in reply
    assert "pw-carol-1" not in reply


def test_an_empty_age_of_ambition_choice_by_mail_is_refused(tmp_path: Path) -> None:
    folder = with_roster(driver.new_game(tmp_path / "aoa", "age-of-ambition", SEATS[:2], 1))
    waiting = driver.current(folder)
    [seat] = waiting.game.phase(waiting.state).waiting_for            # type: ignore[union-attr]
    result = take(folder, tmp_path, f"{seat}@example.org", f"password: pw-{seat}-1\n{seat}: {{}}\n", "empty")
    assert result.status == "refused"
    assert "actions: []" in reply_of(result)
    passed = take(folder, tmp_path, f"{seat}@example.org", f"password: pw-{seat}-1\nactions: []\n", "pass")
    assert passed.status == "stored", passed.reason


# --- by mail: Diplomacy -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def standard_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path_factory.mktemp("std") / "game")


def test_a_diplomacy_mail_with_a_password_like_line_stores_nothing(standard_template: Path, tmp_path: Path) -> None:
    game = fresh_copy(standard_template, tmp_path / "game")
    body = f"password: {PASSWORDS['france']}\nA par - bur\nA mar - spa\npasword {PASSWORDS['france']}\nF bre - mao\n"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address("france"), "judge@localhost", "orders"
    msg["Date"], msg["Message-ID"] = "Mon, 01 Jan 2024 10:00:00 +0000", "<fr@localhost>"
    msg.set_content(body)
    (tmp_path / "m.eml").write_bytes(bytes(msg))
    [result] = ingest(game, tmp_path / "m.eml")
    assert result.status == "refused"
    assert not (game / "orders" / SLUG / "france.txt").exists()
    reply = reply_of(result)
    assert "line 4 looked like a password" in reply and PASSWORDS["france"] not in reply


PASSWORD_LIKE = yaml.safe_load((ROOT / "tests" / "cases" / "mail" / "password-like-lines.yaml").read_text("utf-8"))


@pytest.mark.parametrize("line, expected", sorted(PASSWORD_LIKE.items()))
def test_password_like_lines(line: str, expected: bool) -> None:
    assert is_password_like(line) is expected
