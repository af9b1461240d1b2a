"""Hypothesis builds hostile mailboxes (random From, Subject and Date headers,
encoded words with control characters, random charsets and transfer
encodings, random or half-right bodies with stray line separators, mails over
the size limit, repeated Message-IDs) and `ingest` must hold:

  * no exception escapes;
  * each distinct mail ends stored, refused with a reply, or quarantined, once;
  * nothing is stored for a refused mail, and a stored file is clean
    (`check_invariants`);
  * orders are stored for a power only if a mail from its address had its password.

Hashing is not under test here, so the game's players get cheap argon2
parameters (the verify cost otherwise dominates)."""

from __future__ import annotations

import base64
import hashlib
import os
import quopri
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_ingest_corpus import check_invariants
from test_mail import PASSWORDS, address, make_game

from adjudicator.folder import players
from adjudicator.mail import ingest as ingest_module
from adjudicator.mail.ingest import ingest
from adjudicator.mail.ledger import mail_key

POWERS = ["italy", "germany"]
SEPARATORS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x00", "\t"]
CHARSETS = ["utf-8", "us-ascii", "latin-1", "utf-16", "utf-7", "x-unknown-zz", "base64", "rot13", "idna", "zlib",
            "", "utf-8\x00", "cp1252"]
ENCODINGS = ["", "7bit", "8bit", "base64", "quoted-printable", "x-bogus"]
# A long run before a release raises it, as for every fuzz test (docs/security.md).
EXAMPLES = int(os.environ.get("ADJUDICATOR_FUZZ_EXAMPLES", "200"))


@dataclass
class Sent:
    power: str | None                # whose address it came from, if a player's
    good_password: bool              # a 'password:' line with that power's password
    # A line break drawn into a header ends the header block early: what
    # follows (the Date, say) is read as body, so whether the mail may be
    # stored is not known here. The invariants are still checked.
    headers_cut: bool = False


@pytest.fixture(scope="module")
def cheap_template() -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(players, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        folder = Path(tempfile.mkdtemp()) / "game"
        make_game(folder)
        yield folder
    shutil.rmtree(folder.parent)


def encoded_word(data: bytes, charset: str, kind: str) -> str:
    payload = base64.b64encode(data).decode() if kind == "b" else quopri.encodestring(data, header=True).decode()
    return f"=?{charset}?{kind}?{payload}?="


header_text = st.one_of(
    st.text(max_size=30),
    st.builds(encoded_word, st.binary(max_size=20), st.sampled_from(CHARSETS), st.sampled_from(["q", "b"])),
    st.lists(st.sampled_from(SEPARATORS + ["Germany:", "A mun - tyr", " ", "x"]), max_size=8).map("".join),
)


@st.composite
def sender(draw: st.DrawFn) -> tuple[str | None, str | None]:
    """(From header value or None to leave it out, the power whose address it carries)."""
    power = draw(st.sampled_from(POWERS + [None]))
    addr = address(power) if power else draw(st.sampled_from(["stranger@localhost", "x", "", "a@b, c@d"]))
    form = draw(st.sampled_from(["plain", "named", "omitted", "garbage"]))
    if form == "omitted":
        return None, None
    if form == "garbage":
        return draw(header_text), None
    if form == "named":
        return f"{draw(header_text)} <{addr}>", power
    return addr, power


@st.composite
def body(draw: st.DrawFn, power: str | None) -> tuple[str | bytes, bool]:
    if draw(st.booleans()):
        return draw(st.binary(max_size=200)), False
    good = power is not None and draw(st.booleans())
    password = PASSWORDS[power] if good and power else draw(st.sampled_from(["wrong", PASSWORDS["france"], ""]))
    lines = draw(st.lists(st.one_of(
        st.sampled_from(["A ven - pie", "A rom - apu", "F nap - ion", "A mun - tyr", "Germany:", "Italy:",
                         "Hi GM,", "Thanks", "> quoted", "-- ", "pasword: x", "A ven - xyz", "On x wrote:"]),
        st.text(max_size=20)), max_size=6))
    password_line = draw(st.sampled_from(["password: ", "Password : ", "pwd: ", "password "])) + password
    lines.insert(draw(st.integers(0, len(lines))), password_line)
    separators = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(lines), max_size=len(lines)))
    text = "".join(line + sep for line, sep in zip(lines, separators))
    return text, good and password_line.startswith(("password: ", "Password : "))


def encode_body(text: str | bytes, charset: str, cte: str) -> bytes:
    if isinstance(text, str):
        try:
            data = text.encode(charset or "utf-8", "replace")
        except (LookupError, ValueError, TypeError, UnicodeError):
            data = text.encode("utf-8", "surrogatepass")
    else:
        data = text
    if cte == "base64":
        return base64.encodebytes(data)
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    return data


@st.composite
def hostile_mail(draw: st.DrawFn, number: int) -> tuple[bytes, Sent]:
    from_value, power = draw(sender())
    text, good = draw(body(power))
    charset, cte = draw(st.sampled_from(CHARSETS)), draw(st.sampled_from(ENCODINGS))
    headers = []
    if from_value is not None:
        headers.append(f"From: {from_value}")
    headers.append(f"Subject: {draw(header_text)}")
    date = draw(st.sampled_from(["good", "before", "garbage", "omitted"]))
    if date == "good":
        headers.append(f"Date: Mon, 01 Jan 2024 10:{draw(st.integers(0, 59)):02d}:00 +0000")
    elif date == "before":
        headers.append("Date: Sat, 30 Dec 2023 10:00:00 +0000")
    elif date == "garbage":
        headers.append(f"Date: {draw(header_text)}")
    mid = draw(st.sampled_from(["unique", "shared", "omitted", "garbage"]))
    if mid != "omitted":
        headers.append("Message-ID: " + {"unique": f"<m{number}@fuzz>", "shared": "<shared@fuzz>"}.get(
            mid, draw(header_text)))
    if charset or draw(st.booleans()):
        headers.append(f"Content-Type: text/plain; charset={charset}")
    if cte:
        headers.append(f"Content-Transfer-Encoding: {cte}")
    raw = "\n".join(headers).encode("utf-8", "surrogateescape") + b"\n\n" + encode_body(text, charset, cte)
    if draw(st.integers(0, 19)) == 0:
        raw += b"x" * ingest_module.MAX_MESSAGE_BYTES                 # over the size limit
    # Only a readable, dated-in-phase mail with the right password line can be stored.
    cut = any(char in header for header in headers for char in "\r\n")
    return raw, Sent(power, good and date in ("good", "omitted"), cut)


def ledger_key(raw: bytes) -> str:
    """The key the ledger gives the mail: Message-ID with a hash of sender and body, or for a
    mail over the limit (never read whole) the hash of its bytes."""
    if len(raw) > ingest_module.MAX_MESSAGE_BYTES:
        return f"<oversize:{hashlib.sha256(raw).hexdigest()}>"
    return mail_key(raw)


@st.composite
def mailbox_of(draw: st.DrawFn) -> list[tuple[bytes, Sent]]:
    count = draw(st.integers(1, 4))
    return [draw(hostile_mail(n)) for n in range(count)]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(mails=mailbox_of())
# A player's own mail marked automatic (any Auto-Submitted but "no"): its orders are
# read and stored, and it is never answered.
@example(mails=[((b"From: italy@localhost\nSubject: \nMessage-ID: \nAUTO-SUBMITTED:0\n"
                  b"Content-Type: text/plain; charset=utf-8\n\npassword: secret-italy-42\nA ven - pie\n"),
                 Sent(power="italy", good_password=True, headers_cut=True))])
def test_hostile_mailboxes_never_break_ingest(cheap_template: Path, mails: list[tuple[bytes, Sent]]) -> None:
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(players, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        game = shutil.copytree(cheap_template, Path(tmp) / "game")
        box = Path(tmp) / "box"
        box.mkdir()
        for n, (raw, _) in enumerate(mails):
            (box / f"{n:02d}.eml").write_bytes(raw)
        results = ingest(game, box)
        check_invariants(game, results)
        assert len(results) == len({ledger_key(raw) for raw, _ in mails})
        for result in results:
            if result.status == "stored":
                assert any(sent.power == result.power and (sent.good_password or sent.headers_cut)
                           for _, sent in mails)
        assert ingest(game, box) == []
