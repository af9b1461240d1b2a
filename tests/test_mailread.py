"""Reading one mail and one mailbox (mail/mailread), without a game: the
cases in tests/cases/mail/letters.yaml (what `decode` makes of a raw mail,
field by field) and body-lines.yaml (how `split_lines` sorts a body's lines),
and the mailbox formats `read_mailbox` reads, each in its own order."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.errors import AdjudicatorError
from adjudicator.mail.mailread import (
    MAX_MESSAGE_BYTES,
    Quarantined,
    decode,
    message_key,
    one_line,
    read_mailbox,
    split_lines,
)

CASES = Path(__file__).parent / "cases" / "mail"
LETTERS: dict[str, dict[str, Any]] = yaml.safe_load((CASES / "letters.yaml").read_text(encoding="utf-8"))
BODIES: dict[str, dict[str, Any]] = yaml.safe_load((CASES / "body-lines.yaml").read_text(encoding="utf-8"))
ORDER = re.compile(r"^\s*[AF] [a-z]{3}\b")


def raw_of(case: dict[str, Any]) -> bytes:
    text: str = case["raw"]
    return (text.replace("\n", "\r\n") if case.get("crlf") else text).encode("ascii")


@pytest.mark.parametrize("name", sorted(LETTERS))
def test_letter(name: str) -> None:
    case = LETTERS[name]
    raw = raw_of(case)
    if "quarantined" in case:
        with pytest.raises(Quarantined) as caught:
            decode(raw, message_key(raw))
        assert str(caught.value) == case["quarantined"]
        return
    letter = decode(raw, message_key(raw))
    expected_key = case.get("key")
    if expected_key == "<sha256:HASH>":              # the hash of the whole raw mail
        expected_key = f"<sha256:{hashlib.sha256(raw).hexdigest()}>"
    found = {"key": letter.key, "sender": letter.sender,
             "date": letter.date.isoformat() if letter.date else None, "date_problem": letter.date_problem,
             "subject": letter.subject, "body": letter.body, "references": letter.references}
    expected = {**case, "key": expected_key} if "key" in case else case
    assert {k: found[k] for k in found if k in expected} == {k: expected[k] for k in found if k in expected}
    assert letter.raw == raw


@pytest.mark.parametrize("name", sorted(BODIES))
def test_body_lines(name: str) -> None:
    case = BODIES[name]
    own = re.compile(case.get("own", r"(?!)"))
    body = split_lines(case["body"], lambda line: ORDER.match(line) is not None,
                       lambda line: own.match(line) is not None)
    found = {"password": body.password, "new_password": body.new_password, "phase": body.phase,
             "phase_lines": body.phase_lines, "text": body.text, "ignored": body.ignored,
             "problems": body.problems, "too_long": body.too_long, "password_like": body.password_like}
    defaults = {"password": None, "new_password": None, "phase": None, "phase_lines": 0, "ignored": [],
                "problems": [], "too_long": None, "password_like": []}
    assert found == {**defaults, **{k: v for k, v in case.items() if k not in ("body", "own")}}


def test_a_mail_at_the_size_limit_is_read_and_one_byte_more_is_not() -> None:
    head = b"From: italy@example.org\n\n"
    at_limit = head + b"x" * (MAX_MESSAGE_BYTES - len(head))
    assert decode(at_limit, "k").body == "x" * (MAX_MESSAGE_BYTES - len(head))
    with pytest.raises(Quarantined) as caught:
        decode(at_limit + b"x", "k")
    assert str(caught.value) == f"the message is {MAX_MESSAGE_BYTES + 1} bytes, over the 1000000 byte limit"


def test_one_line_keeps_printable_text_within_its_limit() -> None:
    assert one_line("a\tb\r\nc\x00d  e") == "a b c d e"
    assert one_line("x" * 300) == "x" * 200
    assert one_line("abcdef", 3) == "abc"


# --- the mailbox formats ---------------------------------------------------------------
def mail(n: int) -> bytes:
    return f"From: p{n}@example.org\nSubject: mail {n}\n\nbody {n}\n".encode()


def subjects(mails: list[Any]) -> list[str]:
    return [bytes(m).split(b"\n")[1].decode() for m in mails]


def test_a_folder_of_eml_files_is_read_by_name_and_nothing_else_in_it(tmp_path: Path) -> None:
    for n, name in [(2, "b.eml"), (0, "0.eml"), (1, "a.eml"), (9, "notes.txt")]:
        (tmp_path / name).write_bytes(mail(n))
    (tmp_path / "folder.eml").mkdir()
    assert subjects(read_mailbox(tmp_path)) == ["Subject: mail 0", "Subject: mail 1", "Subject: mail 2"]


def test_a_maildir_is_read_by_name_across_new_and_cur(tmp_path: Path) -> None:
    for sub in ("new", "cur", "tmp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cur" / "1700000001.M1P1.host:2,S").write_bytes(mail(1))
    (tmp_path / "new" / "1700000000.M0P1.host").write_bytes(mail(0))
    (tmp_path / "new" / "1700000002.M2P1.host").write_bytes(mail(2))
    (tmp_path / "stray.eml").write_bytes(mail(9))           # a Maildir is read as one, not as .eml files
    assert subjects(read_mailbox(tmp_path)) == ["Subject: mail 0", "Subject: mail 1", "Subject: mail 2"]


@pytest.mark.parametrize("sub", ["new", "cur"])
def test_a_folder_with_only_new_or_cur_is_a_broken_maildir(tmp_path: Path, sub: str) -> None:
    """Not a folder of .eml files read as empty: the GM is told the Maildir cannot be read."""
    (tmp_path / sub).mkdir()
    (tmp_path / sub / "1700000000.M0P1.host").write_bytes(mail(0))
    (tmp_path / "stray.eml").write_bytes(mail(9))
    with pytest.raises(AdjudicatorError) as caught:
        read_mailbox(tmp_path)
    assert caught.value.message == "cannot read the mailbox: No such file or directory"


def test_an_mbox_is_read_in_its_own_order(tmp_path: Path) -> None:
    box = tmp_path / "box"
    box.write_bytes(b"".join(b"From p@example.org Mon Jan  1 10:00:00 2024\n" + mail(n) + b"\n" for n in (3, 1, 2)))
    assert subjects(read_mailbox(box)) == ["Subject: mail 3", "Subject: mail 1", "Subject: mail 2"]


def test_one_eml_file_and_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "one.eml").write_bytes(mail(4))
    assert read_mailbox(tmp_path / "one.eml") == [mail(4)]
    (tmp_path / "empty").write_bytes(b"")
    assert read_mailbox(tmp_path / "empty") == []
    (tmp_path / "short").write_bytes(b"From")             # shorter than an mbox's 'From ': one mail
    assert read_mailbox(tmp_path / "short") == [b"From"]


def test_a_missing_or_unreadable_mailbox_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(AdjudicatorError) as missing:
        read_mailbox(tmp_path / "nowhere")
    assert missing.value.message == "mailbox not found" and "imap://" in (missing.value.hint or "")
    (tmp_path / "cur").mkdir()
    (tmp_path / "cur" / "1700000000.M0P1.host").mkdir()     # a folder where a mail should be
    with pytest.raises(AdjudicatorError) as unreadable:
        read_mailbox(tmp_path)
    assert unreadable.value.message.startswith("cannot read the mailbox: ")


def test_the_first_line_over_1000_characters_is_named() -> None:
    body = split_lines("A ven - pie\n" + "x" * 1000 + "\n" + "y" * 1001 + "\n" + "z" * 1002 + "\n",
                       lambda line: False)
    assert body.too_long == 3


def test_without_the_games_own_test_a_password_like_line_is_dropped() -> None:
    body = split_lines("pasword: hunter2\nA ven - pie\n", lambda line: ORDER.match(line) is not None)
    assert body.password_like == [1] and body.text == "\nA ven - pie\n"
