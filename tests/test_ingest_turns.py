"""Mailed choices for turn-file games, and 'phase:' lines for every game: a
choice is checked like `check --player`, stored as exactly {player: choice},
echoed normalised; another player's name, a bad choice or another phase is
refused with a reply that says why."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from test_ingest_corpus import fresh_copy
from test_mail import PASSWORDS, SLUG, address, make_game, read_eml

from adjudicator.cards import driver
from adjudicator.folder import gamefolder, players
from adjudicator.mail.ingest import IngestResult, ingest
from adjudicator.store import storage

SEATS = ("alice", "bob", "carol")
WHEN = datetime(2099, 1, 1, 12, tzinfo=timezone.utc)       # after any phase opened


def mail_to(tmp_path: Path, sender: str, body: str, mid: str) -> Path:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "judge@localhost"
    msg["Subject"] = "my move"
    msg["Date"] = format_datetime(WHEN)
    msg["Message-ID"] = f"<{mid}@example.org>"
    msg.set_content(body)
    path = tmp_path / f"{mid}.eml"
    path.write_bytes(bytes(msg))
    return path


@pytest.fixture(scope="module")
def sw_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sw") / "sw"
    driver.new_game(folder, "seven-wonders", list(SEATS), 1)
    meta = storage.read_yaml(folder / "game.yaml")
    meta["players"] = [{"power": p, "name": p, "email": f"{p}@example.org",
                        "password_hash": players.hash_password(f"pw-{p}")} for p in SEATS]
    storage.write_yaml(folder / "game.yaml", meta)
    return folder


@pytest.fixture
def sw(sw_template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "sw"
    shutil.copytree(sw_template, target)
    return target


def hand(folder: Path, seat: str) -> list[str]:
    state = driver.current(folder).state
    return list(state["cities"][seat]["hand"])


def take(folder: Path, tmp_path: Path, seat: str, body: str, mid: str) -> IngestResult:
    [result] = ingest(folder, mail_to(tmp_path, f"{seat}@example.org", body, mid))
    return result


def stored_choice(folder: Path, seat: str) -> object:
    return storage.read_yaml(folder / "orders" / "0001-age1-turn1" / f"{seat}.yaml")


@pytest.mark.parametrize("form", ["mapping", "named", "named-indented-with-chatter"])
def test_a_choice_is_stored_as_exactly_the_player_and_echoed(sw: Path, tmp_path: Path, form: str) -> None:
    card = hand(sw, "alice")[0]
    body = {"mapping": f"password: pw-alice\naction: sell\ncard: {card}\n",
            "named": f"password: pw-alice\nalice: {{action: sell, card: {card}}}\n",
            "named-indented-with-chatter": f"Hi GM,\npassword: pw-alice\nalice:\n  action: sell\n  card: {card}\n"
                                           "Cheers\nAl\n> bob: {action: wonder}\n"}[form]
    result = take(sw, tmp_path, "alice", body, f"c-{form}")
    assert result.status == "stored", result.reason
    text = (sw / "orders" / "0001-age1-turn1" / "alice.yaml").read_text(encoding="utf-8")
    assert text == storage.dump_yaml({"alice": {"action": "sell", "card": card}})
    reply = read_eml(result.reply).get_content()
    assert "Choice received for alice" in reply and text in reply and "pw-alice" not in reply
    # The judge takes it at adjudication.
    driver.adjudicate(sw, None, nmr=True)
    applied = storage.read_yaml(sw / "orders" / "0001-age1-turn1.yaml")
    assert applied["alice"] == {"action": "sell", "card": card}


@pytest.mark.parametrize("body", ["bob: {action: sell, card: X}", "alice: {action: sell}\nbob: {action: sell}",
                                  "action: sell\ncard: X\nBOB:\n  action: wonder"])
def test_a_mail_naming_another_player_is_refused(sw: Path, tmp_path: Path, body: str) -> None:
    result = take(sw, tmp_path, "alice", f"password: pw-alice\n{body}", "other")
    assert result.status == "refused" and "names bob" in (result.reason or "")
    assert not (sw / "orders" / "0001-age1-turn1").exists()


def test_a_bad_choice_is_refused_with_each_error(sw: Path, tmp_path: Path) -> None:
    result = take(sw, tmp_path, "alice", "password: pw-alice\naction: fly\ncard: Nowhere", "bad")
    assert result.status == "refused"
    reply = read_eml(result.reply).get_content()
    assert "action: must be one of build, wonder, sell" in reply and "Nothing was stored" in reply


@pytest.mark.parametrize("body, message", [
    ("password: pw-alice\naction: [sell\n", "malformed YAML"),
    ("password: pw-alice\n", "no choice"),
    ("password: nope-9\naction: sell", "wrong password"),
    ("password: pw-alice\nphase: age1-turn2\naction: sell", "the game is at Age I, turn 1 (age1-turn1)"),
])
def test_refusals(sw: Path, tmp_path: Path, body: str, message: str) -> None:
    result = take(sw, tmp_path, "alice", body, "refusal")
    assert result.status == "refused" and message in (result.reason or "")


def test_a_mail_for_a_turn_already_adjudicated_names_the_current_one(sw: Path, tmp_path: Path) -> None:
    driver.adjudicate(sw, None, nmr=True)
    card = hand(sw, "bob")[0]
    result = take(sw, tmp_path, "bob", f"password: pw-bob\nphase: 0001-age1-turn1\naction: sell\ncard: {card}", "old")
    assert result.status == "refused"
    assert "age1-turn1, which has already been adjudicated" in (result.reason or "")
    assert "now at Age I, turn 2 (age1-turn2)" in (result.reason or "")
    good = take(sw, tmp_path, "bob", f"password: pw-bob\nphase: age1-turn2\naction: sell\ncard: {card}", "new")
    assert good.status == "stored"


# --- Diplomacy: the phase line ----------------------------------------------------------
@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path_factory.mktemp("template") / "game")


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return fresh_copy(template, tmp_path / "game")


@pytest.mark.parametrize("line", [f"phase: {SLUG}", "Phase: Spring 1901 Movement", "phase: spring 1901"])
def test_a_phase_line_for_the_current_phase_is_taken_and_not_an_order(game: Path, tmp_path: Path,
                                                                      line: str) -> None:
    body = f"password: {PASSWORDS['italy']}\n{line}\nA ven - pie\n"
    [result] = ingest(game, mail_to(tmp_path, address("italy"), body, "ph"))
    assert result.status == "stored" and result.errors == []


def test_a_phase_line_for_an_adjudicated_phase_is_refused_naming_the_current(game: Path, tmp_path: Path) -> None:
    gamefolder.adjudicate(game, None, nmr=True)
    body = f"password: {PASSWORDS['italy']}\nphase: {SLUG}\nA ven - pie\n"
    [result] = ingest(game, mail_to(tmp_path, address("italy"), body, "late"))
    assert result.status == "refused"
    reply = read_eml(result.reply).get_content()
    assert f"phase {SLUG}, which has already been adjudicated" in reply
    assert "The game is now at Fall 1901 Movement" in reply and "phase: 1901-fall-movement" in reply
    assert not (game / "orders" / "1901-fall-movement").exists()


@pytest.mark.parametrize("line, message", [("phase: 1902 spring movement", "but the game is at"),
                                           ("phase: soon", "but the game is at"),
                                           (f"phase: {SLUG}\nphase: {SLUG}", "2 'phase:' lines")])
def test_other_phase_lines_are_refused(game: Path, tmp_path: Path, line: str, message: str) -> None:
    body = f"password: {PASSWORDS['italy']}\n{line}\nA ven - pie\n"
    [result] = ingest(game, mail_to(tmp_path, address("italy"), body, "odd"))
    assert result.status == "refused" and message in (result.reason or "")


def test_a_report_asked_for_again_comes_with_the_public_picture_of_the_table(sw: Path, tmp_path: Path) -> None:
    from adjudicator.output.png import svg_to_png
    result = take(sw, tmp_path, "alice", "password: pw-alice\nhistory setup\n", "h1")
    reply = read_eml(result.reply)
    text = reply.get_body(("plain",)).get_content()
    assert "HISTORY OF" in text and "(its picture of the table is attached)" in text, text
    pictures = [p for p in reply.iter_attachments() if p.get_content_type() == "image/png"]
    public = svg_to_png((sw / "maps" / "0000-setup.svg").read_text(encoding="utf-8"))
    assert len(pictures) == 1 and pictures[0].get_content() == public       # the public one, not alice's own
    assert public != svg_to_png((sw / "private" / "alice" / "0000-setup.svg").read_text(encoding="utf-8"))
