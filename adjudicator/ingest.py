"""Order intake by email. Read an mbox file or a Maildir folder, and for each
message (oldest Date first, so a later message replaces an earlier one):

  * recognise the sender's From address from the roster in game.yaml;
  * require a 'password: ...' line that matches the stored hash;
  * reject the whole message if any line is for another power (a heading or
    prefix naming it, or an order for a unit that is not the sender's);
  * otherwise check the orders against the current phase and store them as
    orders/<phase>/<power>.txt (bad lines kept as comments, so the unit holds
    and adjudication is not blocked).

Nothing is stored for a rejected message. Every message gets a reply in
mail/replies/<n>-<power or unknown>.eml, sent to its sender only: it echoes the
normalised orders (Diplomacy Point lines included: only the sender sees them)
and every error with its suggestion, or the reason for the rejection. Messages
already ingested (by Message-ID) are skipped, so a growing mailbox can be
ingested again."""

from __future__ import annotations

import hashlib
import mailbox
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import Any

from adjudicator import storage
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.checking import check_lines
from adjudicator.gamefolder import load_current
from adjudicator.mail import gm_address, message_domain
from adjudicator.orders import Build, Order, Waive
from adjudicator.parser import ParsedLine
from adjudicator.players import find_by_email, verify
from adjudicator.state import GameState
from adjudicator.turn import parser_for
from adjudicator.validation import bind_unit
from adjudicator.variant import Variant

PASSWORD_RE = re.compile(r"^\s*password\s*:\s*(.*?)\s*$", re.IGNORECASE)
LEDGER = "ingested.txt"      # Message-IDs already handled, one a line


@dataclass
class IngestResult:
    number: int                      # position in Date order, 1-based
    sender: str
    power: str | None
    accepted: bool
    reason: str | None = None        # why it was rejected
    stored: Path | None = None
    reply: Path | None = None
    errors: list[str] = field(default_factory=list)


class Rejected(Exception):
    """A message that must not store anything; the text goes in the reply."""


# --- reading the mailbox --------------------------------------------------------
def read_mailbox(path: Path) -> list[EmailMessage]:
    if not path.exists():
        raise AdjudicatorError("mailbox not found", file=str(path), hint="give an mbox file or a Maildir folder")
    box: mailbox.Mailbox[Any] = mailbox.Maildir(str(path), factory=None, create=False) if path.is_dir() \
        else mailbox.mbox(str(path), create=False)
    parser = BytesParser(policy=policy.default)
    messages: list[EmailMessage] = []
    try:
        for key in sorted(box.keys()) if path.is_dir() else box.keys():
            messages.append(parser.parsebytes(box.get_bytes(key)))  # type: ignore[arg-type]
    finally:
        box.close()
    return messages


def message_date(msg: EmailMessage) -> datetime:
    try:
        when = parsedate_to_datetime(str(msg["Date"]))
    except (TypeError, ValueError, IndexError):
        return datetime.min.replace(tzinfo=timezone.utc)   # undated mail goes first: any dated one wins
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def message_key(msg: EmailMessage) -> str:
    mid = str(msg.get("Message-ID") or "").strip()
    if mid:
        return mid
    # No Message-ID: a hash of the raw message stands in for one.
    return "<sha256:" + hashlib.sha256(msg.as_bytes(policy=policy.default)).hexdigest() + ">"


def body_text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        raise Rejected("the message has no plain-text part; send your orders as plain text")
    content = part.get_content()  # type: ignore[attr-defined]
    return str(content)


def split_body(body: str) -> tuple[str | None, str]:
    """(password, orders text). Removed lines become blank so line numbers
    still match the message: the password, quoted text ('>'), and everything
    after a signature marker ('-- ')."""
    password = None
    out: list[str] = []
    in_signature = False
    for raw in body.splitlines():
        line = raw.rstrip("\r")
        if line in ("-- ", "--"):
            in_signature = True
        match = PASSWORD_RE.match(line)
        if in_signature or line.lstrip().startswith(">"):
            out.append("")
        elif match:
            if password is None:
                password = match.group(1)
            out.append("")
        else:
            out.append(line)
    return password, "\n".join(out)


# --- checking ---------------------------------------------------------------------
def unit_owner(state: GameState, order: Order) -> str | None:
    """Who owns the unit an order is for (None: no such unit, or not unit-bound)."""
    if isinstance(order, (Build, Waive)):
        return None
    pool = {p: d.unit for p, d in state.dislodged.items()} if state.phase.kind == "retreat" else state.units
    unit = pool.get(order.province)
    return unit.power if unit is not None else None


def foreign_lines(variant: Variant, state: GameState, lines: list[ParsedLine], power: str) -> list[str]:
    """Lines that order for another power: reasons to reject the whole message."""
    problems = []
    for line in lines:
        if line.power is not None and line.power != power:
            problems.append(f"line {line.number}: {line.text}: this is for {variant.power_name(line.power)}, "
                            f"not {variant.power_name(power)}")
            continue
        order = line.order
        if line.error is not None or not isinstance(order, Order) or "dp" in line.extra:
            continue   # DP lines order minor powers' units by design
        owner = unit_owner(state, order)
        if owner is not None and owner != power:
            try:
                bind_unit(state, order, dislodged=state.phase.kind == "retreat")
                why = f"the unit in {order.province} belongs to {variant.power_name(owner)}"
            except OrderError as exc:
                why = exc.message
            problems.append(f"line {line.number}: {line.text}: {why}")
    return problems


def stored_text(text: str, bad: set[int], sender: str, date: str) -> str:
    out = [f"# from {sender}, {date}"]
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        out.append(f"# not accepted: {line.strip()}" if number in bad else line.rstrip())
    return "\n".join(out) + "\n"


# --- replies ----------------------------------------------------------------------
def reply_message(meta: dict[str, Any], original: EmailMessage, to: str, subject: str, body: str) -> EmailMessage:
    reply = EmailMessage()
    reply["From"] = gm_address(meta)
    reply["To"] = to or "unknown@invalid"
    reply["Subject"] = subject
    reply["Date"] = format_datetime(datetime.now(timezone.utc))
    original_id = str(original.get("Message-ID") or "").strip()
    reply["Message-ID"] = "<reply-" + hashlib.sha256(message_key(original).encode()).hexdigest()[:32] + \
                          "@" + message_domain(meta) + ">"
    if original_id:
        reply["In-Reply-To"] = original_id
        reply["References"] = original_id
    reply.set_content(body, cte="quoted-printable")
    return reply


def next_reply_number(replies: Path) -> int:
    numbers = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    return max(numbers, default=0) + 1


# --- the whole run ------------------------------------------------------------------
def ingest(folder: Path, mailbox_path: Path) -> list[IngestResult]:
    meta, variant, state, _ = load_current(folder)
    if state.result:
        raise AdjudicatorError("the game is over; no orders are taken", file=str(folder))
    phase = state.phase
    game = str(meta.get("name") or folder.name)
    ledger_path = folder / "mail" / LEDGER
    seen = set(ledger_path.read_text(encoding="utf-8").split()) if ledger_path.exists() else set()
    messages = [m for m in read_mailbox(mailbox_path) if message_key(m) not in seen]
    # Stable sort: equal dates keep mailbox order.
    messages.sort(key=message_date)
    replies = folder / "mail" / "replies"
    results: list[IngestResult] = []
    for number, msg in enumerate(messages, start=1):
        sender = parseaddr(str(msg.get("From") or ""))[1]
        subject = "Re: " + str(msg.get("Subject") or f"{game}: orders")
        result = IngestResult(number, sender, None, False)
        try:
            player = find_by_email(folder, sender) if sender else None
            if player is None:
                raise Rejected(f"{sender or 'your address'} is not a player in {game}; "
                               "send your orders from the address the GM has on file")
            power = str(player["power"])
            result.power = power
            password, text = split_body(body_text(msg))
            if password is None:
                raise Rejected("no password line; put a line 'password: <your password>' in your message")
            if not verify(player, password):
                raise Rejected("wrong password; nothing was stored (ask the GM if you have lost it)")
            parsed = parser_for(variant).parse_text(text, power)
            foreign = foreign_lines(variant, state, parsed, power)
            if foreign:
                raise Rejected("these lines order for another power, so none of your orders were stored:\n  "
                               + "\n  ".join(foreign))
            if not parsed:
                raise Rejected("the message has no orders")
            echo, errors, bad = check_lines(variant, state, text, power)
            target = folder / "orders" / phase.slug / f"{power}.txt"
            storage.atomic_write(target, stored_text(text, bad, sender, str(msg.get("Date") or "no date")))
            result.accepted, result.stored, result.errors = True, target, errors
            heading = (f"Orders received for {variant.power_name(power)}, {phase}. They replace any "
                       f"orders you sent before.")
            if errors:
                heading += (f"\n{len(errors)} line(s) have problems; lines marked 'error' were not stored "
                            "(that unit holds unless you send corrected orders).")
            body = heading + "\n\n" + "\n".join(echo) + "\n"
        except Rejected as exc:
            result.reason = str(exc)
            body = f"Your message was not accepted for {game}, {phase}: {exc}\n\nNothing was stored.\n"
        reply = reply_message(meta, msg, sender, subject, body)
        path = replies / f"{next_reply_number(replies):04d}-{result.power or 'unknown'}.eml"
        storage.atomic_write(path, reply.as_bytes(policy=policy.default))
        result.reply = path
        seen.add(message_key(msg))
        # Ledger after each message: an interrupted run does not handle a message twice.
        storage.atomic_write(ledger_path, "\n".join(sorted(seen)) + "\n")
        results.append(result)
    return results
