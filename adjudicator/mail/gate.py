"""The gate every mail passes before `ingest` reads it, called early from
ingest.handle. It decides, as cheaply as it can and in this order:

  1. a mail over the size limit is quarantined without being read whole
     (mail.quarantine);
  2. the judge's own mail come back is dropped, unanswered (mail.manners);
  3. a bounce of the judge's mail flags the address (mail.bounces), unanswered;
  4. after the mail is decoded, its date is settled (mail.dates);
  5. a mail from an address on no roster gets no reply at all;
  6. a player locked out after wrong passwords is not read (mail.guesses);
  7. `ping` is answered (mail.ping);
  8. the password is found and checked before the rest of the body is read
     (for a plain single-part mail, before the mail is even parsed): a forged
     mail with a wrong password costs one header parse, one line scan and one
     hash, however long it is; wrong passwords are counted;
  9. only then does `ingest.judge` read the whole mail.
Whether an answer goes out is the gate's word too: never to automatic, bulk
or list mail or the null sender (mail.manners), and at most
replycap.MAX_PER_DAY a day to one address (mail.replycap)."""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from adjudicator.folder.players import verify
from adjudicator.mail import alerts, bounces, dates, joining, manners, ping
from adjudicator.mail.guesses import MAX_FAILURES, Guesses, address_key, player_key
from adjudicator.mail.intake import Context, Verdict
from adjudicator.mail.ledger import header_block, split_head
from adjudicator.mail.mailread import (
    CUT_RE,
    NEW_PASSWORD_RE,
    PASSWORD_RE,
    Letter,
    decode,
    is_password_like,
    message_key,
)
from adjudicator.mail.replycap import ReplyCap
from adjudicator.mail.smtp import sent_ids

# A longer mail with no password line is refused before it is read (a short one is read,
# so the reply can point at a misspelt password line).
EARLY_REFUSAL_CHARS = 64 * 1024
LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass
class Settled:
    """A mail the gate has dealt with: no reply; `held` leaves it out of the ledger (read later)."""
    sender: str
    reason: str
    held: bool = False


def headers_of(raw: bytes) -> dict[str, list[str]]:
    """The header block only, lower-case names to unfolded raw values."""
    block = header_block(raw) + b"\n\n"
    msg = BytesParser(policy=policy.compat32).parsebytes(block, headersonly=True)
    found: dict[str, list[str]] = {}
    for name, value in msg.items():
        found.setdefault(name.lower(), []).append(" ".join(str(value).split()))
    return found


def first_password(body: str) -> str | None:
    """The password the body's lines give, found as `mailread.split_lines`
    finds it (not in quoted text or after a signature), without reading the rest."""
    cut = False
    for line in lines_of(body.removeprefix("\ufeff")):
        line = "".join(" " if c == "\t" or unicodedata.category(c) == "Zs" else c for c in line)
        if not line.strip() or not line.isprintable():
            continue
        if cut or line.lstrip().startswith(">") or CUT_RE.match(line):
            cut = cut or CUT_RE.match(line) is not None
            continue
        match = PASSWORD_RE.match(line)
        if match is not None:
            return match.group(1)
    return None


def lines_of(text: str) -> Iterator[str]:
    """The lines (split on CR LF, CR or LF, as split_lines splits them), one at a time."""
    start = 0
    for match in LINE_END.finditer(text):
        yield text[start:match.start()]
        start = match.end()
    yield text[start:]


class Gate:
    def __init__(self, folder: Path, meta: dict[str, Any], ctx: Context, now: datetime) -> None:
        self.folder, self.meta, self.ctx, self.now = folder, meta, ctx, now
        self.judge = alerts.judge_address(meta)
        self.sent = sent_ids(folder)
        self.guesses = Guesses.load(folder)
        self.cap = ReplyCap.load(folder, now)
        self.silent: dict[int, str] = {}          # manners_key -> why the mail gets no answer
        self.notes: dict[int, str] = {}           # manners_key -> a line for the reply
        self.judged: dict[int, Settled | Verdict] = {}    # manners_key -> what `early` decided
        ctx.opened = dates.to_the_second(ctx.opened)     # a Date has whole seconds

    # --- before the mail is decoded -----------------------------------------------
    def before_reading(self, raw: bytes) -> Settled | Letter | None:
        """Settled (no reply), a Letter already judged from its headers and the
        password line (see `early`), or None: decode and judge it whole."""
        headers = headers_of(raw)
        sender = manners.address_of(headers.get("from", []))
        if manners.is_own(headers, self.judge, self.sent):
            return Settled(sender, "the judge's own mail came back; ignored, no reply")
        if bounces.is_report(headers):
            return self.bounce(raw, sender)
        why = manners.why_no_answer(headers, self.judge, self.sent)
        if why is not None:
            self.silent[manners_key(raw)] = why
        return self.early(raw)

    def early(self, raw: bytes) -> Settled | Letter | None:
        """Sender, lock and password from the headers and the first password
        line of a plain single-part mail, before the body is parsed: a forged
        mail costs a header parse, a line scan and one hash, however long it is."""
        try:
            letter = decode(header_block(raw) + b"\n\n", message_key(raw))
        except Exception:  # noqa: BLE001 - the whole decode says what is wrong with it
            return None
        letter.raw, letter.body = raw, None
        player = self.ctx.players.get(letter.sender.lower())
        if player is None:
            if joining.takes_joins(self.meta):
                return None                # a stranger's `join` is read whole (door)
            return Settled(letter.sender, f"{letter.sender} is not a player in {self.ctx.game}; no reply is sent")
        text = plain_body(raw)
        if text is None or letter.date_problem or ping.is_ping_text(letter.subject, text):
            return None
        self.settle_date(letter)
        letter.subject = safe_subject(letter.subject, text)
        verdict = self.check_password(letter, player, text)
        if verdict is None:
            return None
        self.judged[manners_key(raw)] = verdict
        return letter

    def bounce(self, raw: bytes, sender: str) -> Settled:
        found, why = bounces.failures(raw, self.sent, self.judge)
        if why is not None:
            return Settled(sender, f"a delivery report that does not count: {why}; no reply")
        new = bounces.record(self.folder, found)
        names = {str(p.get("email") or "").lower(): str(p.get("power")) for p in self.ctx.players.values()}
        if new:
            lines = [f"  {f.address} ({names.get(f.address, 'not a player')}): {f.status} {f.diagnostic}".rstrip()
                     for f in new]
            alerts.to_gm(self.folder, self.meta, "mail to a player bounced",
                         f"The judge's mail bounced for {self.ctx.phase}:\n" + "\n".join(lines) +
                         "\n\nNothing more is sent to these addresses until the next phase. Check the address "
                         "with the player (adjudicator player add/replace sets a new one).", self.now)
        return Settled(sender, "a bounce: " + ", ".join(f.address for f in found) + " flagged for this phase; no reply")

    # --- after it is decoded --------------------------------------------------------
    def settle_date(self, letter: Letter) -> None:
        if letter.date_problem:
            return                         # ingest.judge refuses it, saying why
        when, note = dates.written_at(letter.date, letter.raw, self.now)
        letter.date = when
        if note:
            self.notes[manners_key(letter.raw)] = note

    def door(self, letter: Letter) -> Settled | Verdict | None:
        """What happens to a decoded mail before `judge` reads it: Settled (no
        reply), a Verdict (answered here), or None (judge reads it)."""
        if (early := self.judged.get(manners_key(letter.raw))) is not None:
            return early
        player = self.ctx.players.get(letter.sender.lower())
        if player is None:
            letter.subject = safe_subject(letter.subject, letter.body)
            joined = joining.door(self.ctx, letter)         # sign-up: the one stranger's mail answered
            if joined is not None:
                return joined
            return Settled(letter.sender, f"{letter.sender} is not a player in {self.ctx.game}; no reply is sent")
        letter.subject = safe_subject(letter.subject, letter.body)
        if ping.is_ping(letter):
            return Verdict(self.ctx.seat(player), ping.answer(self.ctx.game, self.ctx.phase, self.meta),
                           reason="ping: answered, nothing stored")
        if letter.body is None or letter.date_problem:
            return None
        return self.check_password(letter, player, letter.body)

    def check_password(self, letter: Letter, player: dict[str, Any], body: str) -> Settled | Verdict | None:
        """A lock in force, or a wrong password (counted): the mail ends here; else None."""
        power = self.ctx.seat(player)
        keys = [player_key(power), address_key(sending_address(letter.raw, letter.sender))]
        until = self.guesses.locked_until(keys, self.now)
        if until is not None:
            return Settled(letter.sender, f"held unread until {until:%Y-%m-%d %H:%M} UTC: too many wrong "
                                          "passwords (the lock is counted per player and per sending address)",
                           held=True)
        password = first_password(body)
        if password is None:
            if len(body) <= EARLY_REFUSAL_CHARS:
                return None                # judge refuses it, listing any misspelt password line
            return refusal(self.ctx, power, "no password line; put a line 'password: <your password>' in your "
                                            "message")
        if verify(player, password):
            self.guesses.succeeded(power)
            self.guesses.save()
            return None
        for lock in self.guesses.failed(keys, self.now):
            self.locked(lock.key, power, player, lock.until)
        self.guesses.save()
        return refusal(self.ctx, power, "wrong password; nothing was stored (ask the GM if you have lost it)")

    def locked(self, key: str, power: str, player: dict[str, Any], until: datetime) -> None:
        what = "your power" if key.startswith("player:") else f"mail from {key.split(':', 1)[1]}"
        address = str(player.get("email") or "")
        if key.startswith("player:") and address:
            alerts.write(self.folder, self.meta, address, power, "wrong passwords: mail held",
                         f"Several mails for {power} in {self.ctx.game} gave a wrong password. Until "
                         f"{until:%Y-%m-%d %H:%M} UTC, mails for {what} are held unread; they are read "
                         "after that. If these were not yours, someone is guessing your password: tell the "
                         "GM. This is the only notice for this lock.", self.now)
        alerts.to_gm(self.folder, self.meta, f"password guessing: {key} locked",
                     f"{key} gave {MAX_FAILURES} wrong passwords within an hour in "
                     f"{self.ctx.game}; its mails are held unread until {until:%Y-%m-%d %H:%M} UTC. "
                     f"'adjudicator unlock GAME {key.split(':', 1)[1]}' ends the lock.", self.now)

    def may_answer(self, letter: Letter) -> tuple[bool, str | None]:
        """(may the reply go, why not); counts the reply against the day's cap."""
        why = self.silent.get(manners_key(letter.raw))
        if why is not None:
            return False, f"not answered: {why}"
        allowed, at_cap = self.cap.take(letter.sender)
        if at_cap:
            alerts.to_gm(self.folder, self.meta, f"replies to {letter.sender} capped for today",
                         f"{letter.sender} has had {self.cap.counts[letter.sender.lower()]} replies today from "
                         f"{self.ctx.game}; further mails from that address are read but not answered until "
                         "tomorrow (UTC). Many mails in a day may mean someone forges that address.", self.now)
        return allowed, None if allowed else "not answered: the day's replies to this address are used up"

    def note(self, letter: Letter) -> str | None:
        return self.notes.get(manners_key(letter.raw))


def manners_key(raw: bytes) -> int:
    """A mail's raw bytes are one object from the mailbox to its Letter: its identity keys the notes."""
    return id(raw)


def plain_body(raw: bytes) -> str | None:
    """The text of a single-part text/plain mail, decoded without the MIME
    parser (which walks every line); None for anything else."""
    msg = BytesParser(policy=policy.compat32).parsebytes(header_block(raw) + b"\n\n", headersonly=True)
    if msg.get_content_type() != "text/plain" or msg.is_multipart():
        return None
    data = split_head(raw)[1]
    encoding = str(msg.get("Content-Transfer-Encoding") or "7bit").strip().lower()
    try:
        if encoding == "base64":
            data = base64.b64decode(data)
        elif encoding == "quoted-printable":
            data = binascii.a2b_qp(data)
        elif encoding not in ("7bit", "8bit", "binary"):
            return None
        return data.decode(str(msg.get_content_charset("utf-8")))
    except (ValueError, LookupError, binascii.Error):
        return None


def sending_address(raw: bytes, sender: str) -> str:
    """The envelope sender (Return-Path) where the mail has one, else From."""
    found = manners.address_of(headers_of(raw).get("return-path", []))
    return found or sender


def safe_subject(subject: str, body: str | None) -> str:
    """The Subject for the reply, or "" when it holds a password (never echoed)."""
    password = first_password(body) if body else None
    if is_password_like(subject) or PASSWORD_RE.match(subject) or (password and len(password) >= 3
                                                                    and password in subject):
        return ""
    # A password being changed by mail is as secret as the one that logs in.
    chosen = [m.group(1) for line in lines_of(body or "") if (m := NEW_PASSWORD_RE.match(line))]
    return "" if any(len(new) >= 3 and new in subject for new in chosen) else subject


def refusal(ctx: Context, power: str, why: str) -> Verdict:
    return Verdict(power, f"Your message was not accepted for {ctx.game}, {ctx.phase}: {why}\n\nNothing was "
                          "stored.\n", reason=why)
