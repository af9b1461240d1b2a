"""Order intake by email. Read the mails from a mailbox (an mbox file, a Maildir,
one .eml file, a plain folder of .eml files, or an IMAP folder through
adjudicator.mail.imap) and handle each one, oldest Date first, so a later message
replaces an earlier one. Every mail ends one of three ways:

  * stored: orders/<phase>/<power>.txt (Diplomacy) or
    orders/<NNNN-phase>/<player>.yaml (turn-file games), with a reply;
  * refused: nothing stored, a reply to the sender says why;
  * quarantined: the mail cannot be read safely (no usable From address, an
    unknown charset, a body that is not valid text in its charset, over
    MAX_MESSAGE_BYTES, or any other decoding fault). Its raw bytes go to
    mail/quarantine/<sha256>.eml with the one-line reason beside it in
    <sha256>.txt; `ingest` prints the reason for the GM. No reply is sent:
    there is no trustworthy address to send it to.

Every handled mail goes in the ledger (mail/ingested.txt, by Message-ID, or a
hash of the raw mail if it has none), so a growing mailbox can be ingested
again: mails already in the ledger are skipped without a reply, and a
Message-ID that occurs twice in one mailbox is taken once (the first).

A mail is refused, with a reply, if:
  * its sender is not on the roster in game.yaml;
  * its Date header is present but cannot be read, or is before the current
    phase opened (`phase_opened`: the time its history file was written). The
    reply names the current phase. The Subject is not used to tell the phase:
    players reply to the results mail, whose subject names the previous phase;
  * it has a 'phase: ...' line naming another phase than the current one (a
    phase already adjudicated, or one not reached); the reply names the
    current phase;
  * a body line is longer than MAX_LINE_CHARS;
  * it has no correctly spelt 'password: ...' line, or the password is wrong;
  * Diplomacy: a line orders for another power (a heading or prefix naming it,
    or an order for a unit that is not the sender's), or there are no orders;
  * turn-file games (adjudicator.mail.ingest_turns): the choice is not YAML, names
    another player, or fails the game's check.

Header text never reaches an orders file: the stored file starts with
'# from <address>, <Date as ISO UTC or "no date">', and its lines come from
the body split on line feeds only, with every line holding another control
character or line separator dropped (and reported). Lines that are plainly
not orders (greetings, sign-offs and what follows them, 'On ... wrote:',
quoted text, signatures after '-- ', forwarded-message markers) are ignored and
listed as ignored (adjudicator.mail.mailread). Password lines, and lines that look
like a misspelt one ('pasword:', 'pwd:', 'Password = ...'), are never echoed
or stored; only a 'password:' line logs in, and a mail that lost a line as a
misspelt password is refused whole. A line that is the game's own (an order,
a vote, a key of the game's choice) is never taken for a password
(adjudicator.mail.playerlines). A good login upgrades an old
scrypt or PBKDF2 hash to argon2id.

Replies are written to mail/replies/<n>-<power>.eml, threaded to the player's
mail (In-Reply-To and References); `adjudicator.mail.smtp.send_files` sends them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.folder import votes
from adjudicator.folder.gamefolder import read_game
from adjudicator.folder.players import (
    MIN_CHOSEN_PASSWORD,
    needs_rehash,
    roster,
    set_password,
    upgrade_hash,
    verify,
)
from adjudicator.folder.schedule import due_line
from adjudicator.mail import commands, ledger, quarantine
from adjudicator.mail.gate import Gate, Settled
from adjudicator.mail.gmmail import gm_entry
from adjudicator.mail.ingest_diplomacy import diplomacy_context, split_body
from adjudicator.mail.intake import Context, Rejected, Verdict, phase_opened
from adjudicator.mail.ledger import LEDGER
from adjudicator.mail.mailread import (
    MAX_LINE_CHARS,
    MAX_MESSAGE_BYTES,
    Body,
    Letter,
    Quarantined,
    decode,
    message_key,
    one_line,
    read_mailbox,
)
from adjudicator.mail.playerlines import refuse_dropped_lines
from adjudicator.mail.quarantine import Oversize
from adjudicator.mail.results import (
    gm_address,
    judge_from,
    message_domain,
    reply_subject,
)
from adjudicator.store import phasecommit, storage
from adjudicator.store.names import inside

__all__ = ["LEDGER", "MAX_LINE_CHARS", "MAX_MESSAGE_BYTES", "IngestResult", "Rejected", "ingest", "ingest_mails",
           "message_key", "one_line", "phase_opened", "split_body"]

MAX_NEW_PASSWORD = 200             # a password a player chooses by mail: as long as a GM's choice, at most this


@dataclass
class IngestResult:
    number: int                      # position in Date order, 1-based
    sender: str
    power: str | None
    accepted: bool
    reason: str | None = None        # why it was refused or quarantined (one line for quarantine)
    stored: Path | None = None
    reply: Path | None = None
    errors: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    quarantined: Path | None = None

    @property
    def status(self) -> str:
        return "stored" if self.accepted else "quarantined" if self.quarantined else "refused"


def check_phase_line(ctx: Context, body: Body) -> None:
    """A 'phase:' line is the player's word for which phase the mail is for."""
    if body.phase is None:
        return
    named = ctx.phase_named(body.phase)
    if named == ctx.slug and body.phase_lines == 1:
        return
    if body.phase_lines > 1:
        raise Rejected(f"the mail has {body.phase_lines} 'phase:' lines; give one, 'phase: {ctx.slug}'")
    if named is not None and ctx.done(named):
        raise Rejected(f"the mail is for phase {body.phase}, which has already been adjudicated. "
                       f"The game is now at {ctx.phase}: send orders for it (phase: {ctx.slug})")
    raise Rejected(f"the mail says 'phase: {body.phase}', but the game is at {ctx.phase} (phase: {ctx.slug})")


# --- one mail -----------------------------------------------------------------------
def judge(ctx: Context, letter: Letter) -> Verdict:
    """What to do with one decoded mail. Reads only; `apply` does the writing."""
    verdict = Verdict(None, "")
    body: Body | None = None
    try:
        player = ctx.players.get(letter.sender.lower())
        if player is None:
            raise Rejected(f"{letter.sender} is not a player in {ctx.game}; "
                           "send your orders from the address the GM has on file")
        verdict.power = power = ctx.seat(player)
        if letter.date_problem:
            raise Rejected(letter.date_problem + "; send your orders again from an ordinary mail program")
        if letter.date is not None and ctx.opened is not None and letter.date < ctx.opened:
            raise Rejected(f"this message is dated {letter.date:%Y-%m-%d %H:%M} UTC, before {ctx.phase} opened "
                           f"({ctx.opened:%Y-%m-%d %H:%M} UTC); orders for an earlier phase are not taken. "
                           f"The game is now at {ctx.phase}: send orders for {ctx.phase}")
        if letter.body is None:
            raise Rejected("the message has no plain-text part; send your orders as plain text")
        said = commands.read_mail(ctx, letter.body)        # commands and press first: never orders
        body = ctx.split(said.rest)
        verdict.ignored = body.ignored
        if body.too_long is not None:
            raise Rejected(f"line {body.too_long} is longer than {MAX_LINE_CHARS} characters")
        if body.password is None:
            raise Rejected("no password line; put a line 'password: <your password>' in your message")
        if not verify(player, body.password):
            raise Rejected("wrong password; nothing was stored (ask the GM if you have lost it)")
        if needs_rehash(player):
            verdict.login = body.password
        check_phase_line(ctx, body)
        refuse_dropped_lines(body)
        verdict.new_password = checked_new_password(body)
        if commands.wanted(ctx, letter, power, said):        # answered in the reply (mail/commands)
            commands.answer(ctx, letter, power, said, body, verdict)
        elif verdict.new_password is None or body.text.strip():
            ctx.decide(letter, power, body, verdict)
        if verdict.new_password is not None:
            verdict.body = PASSWORD_CHANGED + verdict.body
    except Rejected as exc:
        verdict.reason = str(exc)
        verdict.stored = verdict.target = verdict.new_password = None
        verdict.effects, verdict.attachments, verdict.answered = [], [], False
        verdict.body = f"Your message was not accepted for {ctx.game}, {ctx.phase}: {exc}\n\nNothing was stored.\n"
        if body is not None and body.problems:
            verdict.body += "\n" + "\n".join(body.problems) + "\n"
    if verdict.ignored:
        verdict.body += "\nIgnored (not orders):\n" + "\n".join("  " + i for i in verdict.ignored) + "\n"
    for secret in (body.password, body.new_password) if body is not None else ():
        if secret and len(secret) >= 4:      # never echo or store a password, wherever it turns up
            verdict.body = verdict.body.replace(secret, "********")
            verdict.stored = verdict.stored.replace(secret, "********") if verdict.stored else None
            verdict.reason = verdict.reason.replace(secret, "********") if verdict.reason else None
    return verdict


PASSWORD_CHANGED = "Your password is changed: put the new one in your mails from now on.\n\n"


def checked_new_password(body: Body) -> str | None:
    """The new password of a 'new password: ...' line, once the old one has
    logged in; a mail with an unusable one is refused whole."""
    new = body.new_password
    if new is None:
        return None
    if len(new) < MIN_CHOSEN_PASSWORD or len(new) > MAX_NEW_PASSWORD:
        raise Rejected(f"a new password needs {MIN_CHOSEN_PASSWORD} to {MAX_NEW_PASSWORD} characters; "
                       "your password was not changed")
    if new == body.password:
        raise Rejected("the new password is the old one; your password was not changed")
    return new


# --- replies ----------------------------------------------------------------------
def reply_bytes(meta: dict[str, Any], letter: Letter, game: str, body: str, now: datetime,
                attachments: Sequence[EmailMessage] = ()) -> bytes:
    """The reply as bytes. The email package still has corners where a header it
    was given cannot be written out; then the subject falls back to the game's."""
    for subject in (letter.subject, ""):
        try:
            reply = reply_message(meta, letter, game, body, subject, now)
            if attachments:
                reply.make_mixed()
                for part in attachments:
                    reply.attach(part)
            return reply.as_bytes(policy=policy.default)
        except (ValueError, LookupError, UnicodeError, IndexError):
            if not subject:
                raise
    raise AssertionError("unreachable")


def reply_message(meta: dict[str, Any], letter: Letter, game: str, body: str, subject: str,
                  now: datetime) -> EmailMessage:
    """The reply: to the sender only, dated now, threaded to the mail it answers."""
    reply = EmailMessage()
    reply["From"] = judge_from(meta)
    reply["To"] = letter.sender
    reply["Subject"] = reply_subject(game, subject)
    reply["Date"] = format_datetime(now.astimezone(timezone.utc))
    # One reply per mail (the ledger sees to that), so an id made from the mail is unique; two
    # mails with one Message-ID (a stranger's forgery first) get two.
    reply["Message-ID"] = "<reply-" + hashlib.sha256(letter.key.encode() + b"\0" + letter.raw).hexdigest()[:32] + \
                          "@" + message_domain(meta) + ">"
    if not letter.key.startswith("<sha256:"):
        reply["In-Reply-To"] = letter.key
        reply["References"] = " ".join([*letter.references, letter.key])
    elif letter.references:
        reply["References"] = " ".join(letter.references)
    reply.set_content(body, cte="quoted-printable")
    return reply


def next_reply_number(replies: Path) -> int:
    numbers = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    return max(numbers, default=0) + 1


# --- the whole run ------------------------------------------------------------------
def make_context(folder: Path) -> tuple[dict[str, Any], Context]:
    meta = read_game(folder)
    game = one_line(str(meta.get("name") or folder.name), 80)
    gm_address(meta)                  # a bad gm_email is the GM's error, before any mail is touched
    # The roster is read once, before any mail: a broken game.yaml is the GM's error, not a mail's.
    entries = {str(p.get("email") or "").lower(): p for p in roster(folder) if p.get("email")}
    entries.update(gm_entry(meta, entries))       # the GM's commands by mail (mail.gmmail)
    if meta.get("kind") == "turn-file":
        from adjudicator.mail.ingest_turns import turn_context
        return meta, turn_context(folder, game, entries)
    return meta, diplomacy_context(folder, game, entries)


def ingest(folder: Path, mailbox_path: Path, *, now: datetime | None = None) -> list[IngestResult]:
    """Take the orders in a mailbox file or folder into the game."""
    meta, ctx = make_context(folder)  # the game's own faults first, before the mailbox is read
    return handle(meta, ctx, read_mailbox(mailbox_path), now or datetime.now(timezone.utc))


def ingest_mails(folder: Path, raws: list[bytes], *, now: datetime | None = None) -> list[IngestResult]:
    """Handle raw mails (from any mailbox); replies are dated `now` (default: the clock)."""
    meta, ctx = make_context(folder)
    return handle(meta, ctx, raws, now or datetime.now(timezone.utc))


def handle(meta: dict[str, Any], ctx: Context, raws: Sequence[bytes | Oversize], now: datetime) -> list[IngestResult]:
    folder = ctx.folder
    ctx.meta, ctx.now = meta, now             # for the mails' commands (mail/commands)
    gate = Gate(folder, meta, ctx, now)       # what is settled before a mail is read (mail.gate)
    seen = ledger.read(folder)
    fresh: dict[str, bytes | Oversize] = {}
    for raw in raws:
        key = raw.key if isinstance(raw, Oversize) else ledger.mail_key(raw)
        if not ledger.is_seen(key, seen) and key not in fresh:
            fresh[key] = raw          # the same mail twice in one mailbox: the first is taken
    decoded: list[tuple[datetime, str, Letter | Settled | str]] = []
    for key, raw in fresh.items():
        item: Letter | Settled | str
        if isinstance(raw, Oversize):
            item = raw.reason()
        elif (early := gate.before_reading(raw)) is not None:
            item = early
        else:
            try:
                item = decode(raw, message_key(raw))
                gate.settle_date(item)
            except Quarantined as exc:
                item = str(exc)
            except Exception as exc:  # noqa: BLE001 - any decoding fault sets the mail aside, never a traceback
                item = f"cannot decode the message ({type(exc).__name__})"
        when = item.date if isinstance(item, Letter) and item.date else datetime.min.replace(tzinfo=timezone.utc)
        decoded.append((when, key, item))
    decoded.sort(key=lambda entry: entry[0])   # stable: equal dates keep mailbox order
    replies = folder / "mail" / "replies"
    results: list[IngestResult] = []
    for number, (_, key, item) in enumerate(decoded, start=1):
        door = gate.door(item) if isinstance(item, Letter) else None
        if isinstance(door, Settled):
            item = door
        if isinstance(item, Settled):
            results.append(IngestResult(number, item.sender, None, False, reason=item.reason))
            if item.held:
                continue              # not in the ledger: read once the lock ends
        elif isinstance(item, Letter):
            try:
                verdict: Verdict | str = door if isinstance(door, Verdict) else judge(ctx, item)
            except AdjudicatorError as exc:
                verdict = f"cannot check the message: {exc}"
            except Exception as exc:  # noqa: BLE001 - a fault in one mail must not stop the others
                verdict = f"cannot check the message ({type(exc).__name__})"
            if isinstance(verdict, str):
                results.append(quarantined(folder, number, item.sender, fresh[key], verdict))
            else:
                if (note := gate.note(item)) is not None:
                    verdict.body = note + "\n\n" + verdict.body
                answer, silent = gate.may_answer(item)
                results.append(apply(ctx, meta, item, verdict, number, replies, now, answer=answer))
                if silent is not None:
                    results[-1].reason = f"{results[-1].reason}; {silent}" if results[-1].reason else silent
        else:
            results.append(quarantined(folder, number, "", fresh[key], item))
        seen.add(key)
        # Ledger after each message: an interrupted run does not handle a message twice.
        ledger.write(folder, seen)
    return results


def quarantined(folder: Path, number: int, sender: str, raw: bytes | Oversize, reason: str) -> IngestResult:
    result = IngestResult(number, sender, None, False, reason=one_line(reason))
    result.quarantined = quarantine.keep(folder, raw, reason)
    return result


def apply(ctx: Context, meta: dict[str, Any], letter: Letter, verdict: Verdict, number: int,
          replies: Path, now: datetime, answer: bool = True) -> IngestResult:
    """Write what `judge` decided: the stored file, a hash upgrade, the reply (if `answer`)."""
    result = IngestResult(number, letter.sender, verdict.power,
                          verdict.stored is not None or verdict.votes is not None or verdict.answered,
                          reason=verdict.reason, errors=verdict.errors, ignored=verdict.ignored)
    if verdict.stored is not None and verdict.target is not None:
        target = inside(ctx.folder, verdict.target)
        storage.atomic_write(target, verdict.stored)
        result.stored = target
    if verdict.login is not None and verdict.power is not None:     # a good login, stored or not
        upgrade_hash(ctx.folder, verdict.power, verdict.login)
    if verdict.new_password is not None and verdict.power is not None:
        set_password(ctx.folder, verdict.power, verdict.new_password)
    if verdict.votes is not None:
        phasecommit.commit(ctx.folder, [(ctx.folder / votes.VOTES, storage.dump_yaml(verdict.votes))])
    if verdict.ended is not None:
        from adjudicator.folder.gamefolder import end_game
        end_game(ctx.folder, verdict.ended)
    for effect in verdict.effects:           # the commands' writes, after what was stored
        effect()
    if not answer:
        return result
    # game.yaml as the mail's commands left it (a GM's extension, an absence): the deadline that holds now
    due = "" if verdict.ended is not None else due_line(ctx.meta or meta, ctx.phase, now, ctx.asks_for)
    reply = reply_bytes(meta, letter, ctx.game, verdict.body + (f"\n{due}\n" if due else ""), now,
                        verdict.attachments)
    path = inside(ctx.folder, replies / f"{next_reply_number(replies):04d}-{verdict.power or 'unknown'}.eml")
    storage.atomic_write(path, reply)
    result.reply = path
    return result
