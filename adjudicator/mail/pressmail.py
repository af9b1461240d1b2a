"""Press goes out from the judge: one mail to each recipient, From the
judge, To that recipient alone, so no player ever sees another's address,
and (grey press, or an anonymous game) nothing but what the game allows says
who sent it: the power's name in white press, nothing in grey. Message-IDs
are made from the ledger key of the sender's mail (its Message-ID and a hash
of its body, which no recipient knows), so nothing in a header can be traced
back to the sender, and a run that stops half-way writes the same mails
again (send_files sends one Message-ID once).

Every press is logged for the GM in gm/press/<NNNN>.yaml (sender, recipients,
kind, phase, time, text, and each recipient's Message-ID), and
gm/press/index.yaml maps those Message-IDs back to it, so a player who
replies to a press mail sends press back to the same recipients. The mails
are written beside the replies (mail/replies/<n>-press-<seat>.eml), so
whatever sends the replies sends them, once each (smtp.send_files: the
judge's headers, DKIM, bounces held)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

from adjudicator.mail import results as mail
from adjudicator.store import phasecommit, storage
from adjudicator.store.names import check_name, inside

LOG = Path("gm") / "press"
INDEX = LOG / "index.yaml"
COUNTS = LOG / "counts.yaml"
REPLIES = Path("mail") / "replies"
GM_SEAT = "gm"


@dataclass
class Recipient:
    seat: str                        # a power, a card game's player, or 'gm'
    label: str                       # as the other players read it: 'France', 'the GM'
    name: str                        # their display name, for their own To header
    address: str


@dataclass
class Press:
    sender: str                      # the seat, or 'gm'
    sender_label: str                # 'France', 'the GM'
    to: list[Recipient]
    broadcast: bool
    grey: bool                       # the sender is not named
    text: str
    phase: str                       # as players read it
    key: str                         # the ledger key of the mail it came in: each recipient's Message-ID
    reply_of: int | None = None
    shown_to: str | None = None      # what the recipients read as its recipients, if not their names


def read_index(folder: Path) -> dict[str, int]:
    path = folder / INDEX
    data = storage.read_yaml(path) if path.exists() else {}
    return {str(k): int(v) for k, v in data.items()} if isinstance(data, dict) else {}


def read_record(folder: Path, number: int) -> dict[str, Any] | None:
    path = folder / LOG / f"{number:04d}.yaml"
    data = storage.read_yaml(path) if path.is_file() else None
    return data if isinstance(data, dict) else None


def sent_today(folder: Path, seat: str, now: datetime) -> int:
    path = folder / COUNTS
    data = storage.read_yaml(path) if path.exists() else {}
    day = data.get(now.strftime("%Y-%m-%d")) if isinstance(data, dict) else None
    return int((day or {}).get(seat, 0)) if isinstance(day, dict) else 0


def heading(press: Press) -> tuple[str, str]:
    """(the Subject's words, the body's first line) as every recipient reads them."""
    names = press.shown_to or ("every power" if press.broadcast else ", ".join(r.label for r in press.to))
    kind = "Broadcast" if press.broadcast else "Press"
    if press.grey:
        return kind, (f"{'A broadcast' if press.broadcast else 'Grey press'} (its sender is not named) to {names}, " \
                     f"at {press.phase}:")
    return f"{kind} from {press.sender_label}", f"{kind} from {press.sender_label} to {names}, at {press.phase}:"


def footer(press: Press) -> str:
    back = "every power" if press.broadcast else "the same powers, its sender too"
    return ("-- \nTo answer, reply to this mail with your password line and your text: the judge sends it to "
            f"{back}. The lines of such a reply are press, never orders.\n")


def press_id(meta: dict[str, Any], press: Press, seat: str) -> str:
    return f"<press-{mail.stable_id(press.key, seat, 'press')}@{mail.message_domain(meta)}>"


def message(meta: dict[str, Any], game: str, press: Press, to: Recipient, now: datetime,
            replied: str | None) -> EmailMessage:
    subject, first = heading(press)
    msg = EmailMessage()
    msg["From"] = mail.judge_from(meta)
    msg["To"] = formataddr((mail.header_name(to.name), to.address))
    msg["Subject"] = mail.game_subject(game, subject)
    msg["Date"] = format_datetime(now.astimezone(timezone.utc))
    msg["Message-ID"] = press_id(meta, press, to.seat)
    root = mail.thread_root(meta, game)
    if replied:
        msg["In-Reply-To"] = replied
    msg["References"] = " ".join([root, *([replied] if replied else [])])
    msg["X-Adjudicator-Power"] = to.seat
    msg.set_content(f"{first}\n\n{press.text.rstrip()}\n\n{footer(press)}", cte="quoted-printable")
    return msg


def send(folder: Path, meta: dict[str, Any], game: str, press: Press, now: datetime) -> int:
    """Write one mail to each recipient beside the replies, then the log; the
    press's number. A press logged already (a run that stopped) is not again."""
    index = read_index(folder)
    if press.to and press_id(meta, press, press.to[0].seat) in index:
        return index[press_id(meta, press, press.to[0].seat)]
    numbers = [int(p.stem) for p in (folder / LOG).glob("[0-9][0-9][0-9][0-9].yaml")] if (folder / LOG).is_dir() \
        else []
    number = max(numbers, default=0) + 1
    before = read_record(folder, press.reply_of) if press.reply_of is not None else None
    earlier = {str(k): str(v) for k, v in (before or {}).get("mails", {}).items()}
    replies = folder / REPLIES
    taken = [int(p.name.split("-", 1)[0]) for p in replies.glob("*.eml") if p.name.split("-", 1)[0].isdigit()]
    next_file = max(taken, default=0) + 1
    ids: dict[str, str] = {}
    for to in press.to:
        msg = message(meta, game, press, to, now, earlier.get(to.seat))
        path = inside(folder, replies / f"{next_file:04d}-press-{check_name(to.seat, 'power')}.eml")
        storage.atomic_write(path, mail.message_bytes(msg))
        next_file += 1
        ids[to.seat] = str(msg["Message-ID"])
    record = {"number": number, "phase": press.phase, "date": now.isoformat(timespec="seconds"),
              "from": press.sender, "to": [r.seat for r in press.to], "broadcast": press.broadcast,
              "grey": press.grey, "reply_of": press.reply_of, "text": press.text, "mails": ids}
    day = now.strftime("%Y-%m-%d")
    counts = {day: {press.sender: sent_today(folder, press.sender, now) + 1}}
    if (folder / COUNTS).exists():
        kept = storage.read_yaml(folder / COUNTS)
        if isinstance(kept, dict) and isinstance(kept.get(day), dict):
            counts[day] = {**kept[day], press.sender: counts[day][press.sender]}
    index.update({mid: number for mid in ids.values()})
    phasecommit.commit(folder, [(folder / LOG / f"{number:04d}.yaml", storage.dump_yaml(record)),
                                (folder / INDEX, storage.dump_yaml(index)),
                                (folder / COUNTS, storage.dump_yaml(counts))])
    return number
