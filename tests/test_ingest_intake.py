"""ingest: mailbox formats, replays and late mails, password lines however
misspelt, the hash upgrade on login, and lines that are plainly not orders."""

from __future__ import annotations

import hashlib
import mailbox
import os
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from test_ingest_corpus import check_invariants, fresh_copy
from test_mail import (
    OPENED,
    PASSWORDS,
    SLUG,
    address,
    letter,
    make_game,
    open_phase_at,
    read_eml,
)

from adjudicator.folder import players
from adjudicator.mail import ingest as ingest_module
from adjudicator.mail import ingest_diplomacy
from adjudicator.mail.ingest import ingest, phase_opened, split_body
from adjudicator.rules import load_variant
from adjudicator.store import storage

ITALY = f"password: {PASSWORDS['italy']}\nA ven - pie\nA rom - apu\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven players hashed once for the module: argon2 is slow on purpose."""
    return make_game(tmp_path_factory.mktemp("template") / "game")


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return fresh_copy(template, tmp_path / "game")


def stored(game: Path, power: str = "italy") -> str:
    return (game / "orders" / SLUG / f"{power}.txt").read_text(encoding="utf-8")


def orders_of(game: Path, power: str = "italy") -> list[str]:
    return [line for line in stored(game, power).splitlines() if not line.startswith("#")]


# --- mailbox formats ------------------------------------------------------------------
def write_mbox(path: Path, msgs: list[EmailMessage]) -> Path:
    box = mailbox.mbox(str(path))
    for msg in msgs:
        box.add(msg)
    box.close()
    return path


def write_maildir(path: Path, msgs: list[EmailMessage]) -> Path:
    box = mailbox.Maildir(str(path))
    for msg in msgs:
        box.add(msg)
    box.close()
    return path


def write_eml_folder(path: Path, msgs: list[EmailMessage]) -> Path:
    path.mkdir()
    for n, msg in enumerate(msgs):
        (path / f"{n:03d}.eml").write_bytes(bytes(msg))
    return path


def write_one_eml(path: Path, msgs: list[EmailMessage]) -> Path:
    assert len(msgs) == 1
    path = path.with_suffix(".eml")
    path.write_bytes(bytes(msgs[0]))
    return path


@pytest.mark.parametrize("writer", [write_mbox, write_maildir, write_eml_folder, write_one_eml],
                         ids=["mbox", "maildir", "eml-folder", "one-eml"])
def test_every_mailbox_format_is_read(game: Path, tmp_path: Path, writer: object) -> None:
    msg = letter(address("italy"), ITALY, 5, "fmt-1")
    assert callable(writer)
    box = writer(tmp_path / "box", [msg])
    results = ingest(game, box)
    check_invariants(game, results)
    assert [r.status for r in results] == ["stored"]
    assert orders_of(game) == ["A ven - pie", "A rom - apu"]


def test_an_empty_file_and_an_empty_folder_have_no_messages(game: Path, tmp_path: Path) -> None:
    (tmp_path / "empty.mbox").write_bytes(b"")
    (tmp_path / "nothing").mkdir()
    assert ingest(game, tmp_path / "empty.mbox") == []
    assert ingest(game, tmp_path / "nothing") == []


# --- replays, duplicates and late mails ------------------------------------------------
def test_a_message_id_already_in_the_ledger_is_not_taken_again(game: Path, tmp_path: Path) -> None:
    ingest(game, write_one_eml(tmp_path / "first", [letter(address("italy"), ITALY, 5, "same-id")]))
    before = stored(game)
    replay = letter(address("italy"), ITALY, 30, "same-id")       # the same mail again, re-dated
    assert ingest(game, write_one_eml(tmp_path / "replay", [replay])) == []
    assert stored(game) == before


def test_a_duplicate_message_id_in_one_mailbox_is_taken_once(game: Path, tmp_path: Path) -> None:
    first = letter(address("italy"), ITALY, 5, "twice")
    second = letter(address("italy"), ITALY, 30, "twice")          # delivered twice
    results = ingest(game, write_mbox(tmp_path / "box", [first, second]))
    check_invariants(game, results)
    assert len(results) == 1 and orders_of(game) == ["A ven - pie", "A rom - apu"]
    assert len(list((game / "mail" / "replies").glob("*.eml"))) == 1


def test_a_mail_dated_before_the_phase_opened_is_refused(game: Path, tmp_path: Path) -> None:
    # The phase opened at 10:30; one mail was sent at 10:20 (for the phase before), one at 10:40.
    open_phase_at(game, datetime(2024, 1, 1, 10, 30, tzinfo=timezone.utc).timestamp())
    late = letter(address("italy"), ITALY, 20, "before-open")
    fresh = letter(address("germany"), f"password: {PASSWORDS['germany']}\nA mun - ruh\n", 40, "after-open")
    results = ingest(game, write_mbox(tmp_path / "box", [late, fresh]))
    check_invariants(game, results)
    by_power = {r.power: r for r in results}
    assert by_power["italy"].status == "refused" and by_power["germany"].status == "stored"
    assert not (game / "orders" / SLUG / "italy.txt").exists()
    reply = read_eml(by_power["italy"].reply).get_content()
    assert "before Spring 1901 Movement opened" in reply and "The game is now at Spring 1901 Movement" in reply


def test_phase_opened_is_the_newest_history_mtime(game: Path) -> None:
    older = game / "history" / "1900-fall-adjustment.yaml"
    older.write_text("{}\n", encoding="utf-8")
    os.utime(older, (OPENED - 86400, OPENED - 86400))
    assert phase_opened(game) == datetime.fromtimestamp(OPENED, timezone.utc)
    newest = max((game / "history").glob("*.yaml"), key=lambda p: p.stat().st_mtime)
    os.utime(newest, (OPENED + 60, OPENED + 60))
    assert phase_opened(game) == datetime.fromtimestamp(OPENED + 60, timezone.utc)


def test_an_undated_mail_is_taken_at_its_receipt_time_and_says_so(game: Path, tmp_path: Path) -> None:
    msg = letter(address("italy"), ITALY, 5, "undated")
    del msg["Date"]
    now = datetime(2024, 1, 2, 9, 0, tzinfo=timezone.utc)
    results = ingest(game, write_one_eml(tmp_path / "m", [msg]), now=now)
    assert results[0].status == "stored"
    assert stored(game).splitlines()[0] == "# from italy@localhost, 2024-01-02T09:00:00Z"
    assert "Your mail has no Date; the time the judge read it (2024-01-02 09:00 UTC) was used" in \
        read_eml(results[0].reply).get_content()


def test_the_stored_stamp_holds_parsed_values_only(game: Path, tmp_path: Path) -> None:
    msg = letter("Italy (Rome) <ITALY@localhost>", ITALY, 5, "stamp")
    msg.replace_header("Date", "Mon, 01 Jan 2024 12:05:00 +0200 (CEST) Germany: A mun - tyr")
    ingest(game, write_one_eml(tmp_path / "m", [msg]))
    assert stored(game).splitlines()[0] == "# from ITALY@localhost, 2024-01-01T10:05:00Z"
    assert "Germany" not in stored(game) and "mun" not in stored(game)


# --- poison mails --------------------------------------------------------------------
def test_a_poison_mail_is_quarantined_once_and_the_others_go_on(game: Path, tmp_path: Path) -> None:
    poison = letter(address("germany"), "A mun - ruh", 1, "poison")
    poison.replace_header("Content-Type", "text/plain; charset=x-unknown-zz")
    box = write_mbox(tmp_path / "box", [poison, letter(address("italy"), ITALY, 5, "good")])
    results = ingest(game, box)
    check_invariants(game, results)
    assert sorted(r.status for r in results) == ["quarantined", "stored"]
    bad = next(r for r in results if r.status == "quarantined")
    assert bad.quarantined is not None and "unknown charset" in (bad.reason or "")
    assert bad.quarantined.with_suffix(".txt").read_text(encoding="utf-8").startswith("unknown charset")
    assert ingest(game, box) == []                     # in the ledger: not retried forever


def test_a_huge_mail_is_quarantined_unread(game: Path, tmp_path: Path) -> None:
    big = letter(address("italy"), ITALY + ("A ven H\n" * 140_000), 5, "huge")
    path = write_one_eml(tmp_path / "big", [big])
    assert path.stat().st_size > ingest_module.MAX_MESSAGE_BYTES
    results = ingest(game, path)
    check_invariants(game, results)
    assert results[0].status == "quarantined" and "byte limit" in (results[0].reason or "")
    kept = results[0].quarantined
    assert kept is not None and kept.read_bytes() == path.read_bytes()[:64 * 1024]   # headers first, 64 KB
    note = kept.with_suffix(".txt").read_text(encoding="utf-8")
    assert f"size: {path.stat().st_size} bytes" in note and kept.stem in note and "Message-ID: <huge@" in note


def test_a_fault_while_checking_one_mail_quarantines_it(game: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*args: object) -> None:
        raise IndexError("a parser bug")
    box = write_mbox(tmp_path / "box", [letter(address("germany"), f"password: {PASSWORDS['germany']}\nA mun - ruh",
                                               1, "boom"),
                                        letter(address("italy"), ITALY, 5, "fine")])
    real = ingest_diplomacy.split_body
    monkeypatch.setattr(ingest_diplomacy, "split_body",
                        lambda body, variant: explode() if "mun" in body else real(body, variant))
    results = ingest(game, box)
    assert sorted(r.status for r in results) == ["quarantined", "stored"]
    assert "IndexError" in (next(r for r in results if r.status == "quarantined").reason or "")


# --- passwords -------------------------------------------------------------------------
MISSPELT = ["pasword: {pw}", "passwd: {pw}", "pwd: {pw}", "pass: {pw}", "Password = {pw}", "password {pw}",
            "PASSWORD - {pw}", "pw: {pw}", "Passwort: {pw}", "passowrd: {pw}", "my password is {pw}",
            "Paswd {pw}", "  pass word: {pw}", "psasword: {pw}", "secret: {pw}"]


@pytest.mark.parametrize("spelling", MISSPELT)
def test_a_misspelt_password_line_is_never_used_echoed_or_stored(game: Path, tmp_path: Path,
                                                                 spelling: str) -> None:
    body = spelling.format(pw=PASSWORDS["italy"]) + "\nA ven - pie\nA rom - apu\n"
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "misspelt")]))
    check_invariants(game, results)
    assert results[0].status == "refused" and "no password line" in (results[0].reason or "")
    content = read_eml(results[0].reply).get_content()
    assert PASSWORDS["italy"] not in content and "not spelt 'password: ...'" in content


@pytest.mark.parametrize("spelling", MISSPELT)
def test_a_misspelt_password_line_beside_a_good_one_is_hidden_and_refuses_the_mail(game: Path, tmp_path: Path,
                                                                                 spelling: str) -> None:
    other = "Another-Secret-99"           # not the login password, so only the line rule can hide it
    body = f"password: {PASSWORDS['italy']}\n" + spelling.format(pw=other) + "\nA ven - pie\nA rom - apu\n"
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "beside")]))
    check_invariants(game, results)
    # Never stored in part: the dropped line might have been part of what the player meant.
    assert results[0].status == "refused" and "line 2 looked like a password" in (results[0].reason or "")
    assert not (game / "orders" / SLUG / "italy.txt").exists()
    assert other not in read_eml(results[0].reply).get_content()


def test_the_password_is_masked_wherever_else_it_appears(game: Path, tmp_path: Path) -> None:
    body = f"password: {PASSWORDS['italy']}\nA ven - pie {PASSWORDS['italy']}\nA rom - apu\n"
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "mask")]))
    assert results[0].status == "stored"
    assert PASSWORDS["italy"] not in stored(game)
    assert PASSWORDS["italy"] not in read_eml(results[0].reply).get_content()


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_no_order_line_or_place_name_looks_like_a_password(variant_name: str) -> None:
    variant = load_variant(variant_name)
    names = {n for prov in variant.map.provinces.values() for n in (prov.id, prov.name, *prov.aliases)}
    names |= {variant.power_name(p) for p in variant.powers}
    for name in sorted(names):
        body = f"A {name} - {name}\nF {name} S A {name}\n{name}: A {name} H\npass\nwaive"
        assert not split_body(body, variant).problems, name


def legacy_scrypt(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=32)
    return f"scrypt$n={2 ** 14},r=8,p=1${salt.hex()}${digest.hex()}"


def legacy_pbkdf2(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 1000, dklen=32)
    return f"pbkdf2_sha256$i=1000${salt.hex()}${digest.hex()}"


@pytest.mark.parametrize("make_hash", [legacy_scrypt, legacy_pbkdf2])
def test_a_good_login_upgrades_an_old_hash_to_argon2id(game: Path, tmp_path: Path, make_hash: object) -> None:
    assert callable(make_hash)
    meta = storage.read_yaml(game / "game.yaml")
    italy = next(p for p in meta["players"] if p["power"] == "italy")
    italy["password_hash"] = make_hash(PASSWORDS["italy"])
    storage.write_yaml(game / "game.yaml", meta)
    assert players.verify(italy, PASSWORDS["italy"]) and players.needs_rehash(italy)
    # A wrong password changes nothing.
    ingest(game, write_one_eml(tmp_path / "a", [letter(address("italy"), "password: nope\nA ven H", 4, "bad")]))
    assert yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))["players"] == meta["players"]
    results = ingest(game, write_one_eml(tmp_path / "b", [letter(address("italy"), ITALY, 5, "upgrade")]))
    assert results[0].status == "stored"
    after = next(p for p in yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))["players"]
                 if p["power"] == "italy")
    assert after["password_hash"].startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert players.verify(after, PASSWORDS["italy"]) and not players.needs_rehash(after)


# --- lines that are not orders, and subjects ---------------------------------------------
def test_greetings_sign_offs_and_quotes_are_ignored_not_errors(game: Path, tmp_path: Path) -> None:
    body = ("Hi GM,\nHello all\nDear GM,\n" + f"password: {PASSWORDS['italy']}\n"
            "A ven - pie\nA rom - apu\nCheers\nBest regards\nMario\n"
            "On Sun, 31 Dec 2023 at 12:00, GM <judge@localhost> wrote:\n> A ven - tyr\n> Germany: A mun - tyr\n"
            "-- \nMario Rossi, Rome\nA nap - apu")
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "chatter")]))
    check_invariants(game, results)
    assert results[0].status == "stored" and results[0].errors == []
    assert orders_of(game) == ["A ven - pie", "A rom - apu"]
    content = read_eml(results[0].reply).get_content()
    for shown in ("Hi GM,", "Hello all", "Dear GM,", "Cheers", "Best regards", "Mario", "wrote:"):
        assert shown in content.split("Ignored (not orders):")[1]
    assert "lines 11-15: quoted text or signature" in content


def test_an_order_that_cannot_be_read_is_still_an_error(game: Path, tmp_path: Path) -> None:
    body = f"Hi GM,\npassword: {PASSWORDS['italy']}\nA ven - pie\nA rom - xyzzy\nThanks,\nA nap - bogus\n"
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "still-bad")]))
    assert results[0].status == "stored"
    assert [e.split(":")[0] for e in results[0].errors] == ["line 4", "line 6"]
    assert "# not accepted: A rom - xyzzy" in stored(game)


@pytest.mark.parametrize("subject, reply", [("orders", "[game] Re: orders"), ("Re: Re: orders", "[game] Re: orders"),
                                            ("RE: Aw: Fwd: FW: orders", "[game] Re: orders"),
                                            ("", "[game] Re: orders"),
                                            ("Re: [game] Spring 1901 Movement results",
                                             "[game] Re: Spring 1901 Movement results")])
def test_reply_subjects_do_not_grow(game: Path, tmp_path: Path, subject: str, reply: str) -> None:
    msg = letter(address("italy"), ITALY, 5, "subject")
    msg.replace_header("Subject", subject)
    results = ingest(game, write_one_eml(tmp_path / "m", [msg]))
    assert read_eml(results[0].reply)["Subject"] == reply


def test_a_bom_and_unicode_spaces_are_not_control_characters(game: Path, tmp_path: Path) -> None:
    body = f"\ufeffpassword: {PASSWORDS['italy']}\nA ven -\xa0pie\nA rom\u2003-\tapu\n"
    results = ingest(game, write_one_eml(tmp_path / "m", [letter(address("italy"), body, 5, "spaces")]))
    check_invariants(game, results)
    assert results[0].status == "stored" and results[0].errors == []
    assert orders_of(game) == ["A ven - pie", "A rom - apu"]
