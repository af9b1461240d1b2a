"""What the judge owes its players by mail, written as .eml files for
`run` (and `mail`) to send, each once:

  * the welcome of every player who has none (adjudicator.mail.welcome);
  * the newest phase's results, to every player who has not had them (a
    results mail, or a welcome that carried them);
  * the notices of the newest phase, and of the phase now open (what was
    done for a player by default; a power at the missed limit, to the GM);
  * the end-of-game mail, once the game is over.

Every mail here has a Message-ID that its content decides, and is written
once: a file that exists is not written again, and mail/sent.txt says what
went, so asking again (every run) sends nothing twice. Without an SMTP server
the files wait in mail/ for `mail --send`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

from adjudicator.diplomacy.model import Phase
from adjudicator.errors import GameFolderError
from adjudicator.folder.endreport import END_REPORT
from adjudicator.folder.gamefolder import read_game
from adjudicator.folder.players import is_address, roster
from adjudicator.folder.schedule import due_line
from adjudicator.mail import results as mail
from adjudicator.mail.smtp import sent_ids
from adjudicator.mail.welcome import WELCOME_DIR, results_welcomed
from adjudicator.store import storage
from adjudicator.store.names import check_name, inside
from adjudicator.store.owed import NOTICES

NOTICE_DIR = Path("mail") / "notices"      # notices, reminders and end-of-game mails (.eml)


def game_name(meta: dict[str, Any], folder: Path) -> str:
    return str(meta.get("name") or folder.name)


def phase_label(meta: dict[str, Any], slug: str) -> str:
    """A phase as players read it: 'Spring 1901 Movement', or a card game's 'age1-turn2'."""
    if mail.is_turn_file(meta):
        return slug.split("-", 1)[1] if mail.turn_index(slug) is not None else slug
    try:
        return str(Phase.from_slug(slug))
    except ValueError:
        return slug


def unsent(folder: Path, paths: Iterable[Path], sending: bool, new: Iterable[Path] = ()) -> list[Path]:
    """What is still to go: with a server, every mail that mail/sent.txt does
    not list; without one, the mails written just now."""
    if not sending:
        return list(new)
    done = sent_ids(folder)
    return [path for path in paths if str(mail.read_headers(path).get("Message-ID") or "").strip() not in done]


# --- plain mails: notices, reminders, the end ---------------------------------------------
def plain_message(meta: dict[str, Any], game: str, to: tuple[str, str], subject: str, text: str,
                  now: datetime, key: str, seat: str) -> EmailMessage:
    """A plain-text mail from the judge, threaded with the game's mails."""
    message = EmailMessage()
    message["From"] = mail.judge_from(meta)
    message["To"] = formataddr((mail.header_name(to[0]), to[1]))
    message["Subject"] = mail.game_subject(game, subject)
    message["Date"] = format_datetime(now)
    message["Message-ID"] = f"<notice-{key}@{mail.message_domain(meta)}>"
    message["References"] = mail.thread_root(meta, game)
    message["X-Adjudicator-Power"] = seat
    message.set_content(text if text.endswith("\n") else text + "\n", cte="quoted-printable")
    return message


def write_plain(folder: Path, message: EmailMessage, key: str, seat: str) -> tuple[Path, bool]:
    """The mail's file, and whether it was written now (an existing one is kept as it is)."""
    path = inside(folder, folder / NOTICE_DIR / f"{key[:16]}-{check_name(seat, 'power')}.eml")
    if path.exists():
        return path, False
    storage.atomic_write(path, mail.message_bytes(message))
    return path, True


def players_of(folder: Path, seats: Iterable[str] | None = None) -> list[dict[str, Any]]:
    wanted = set(seats) if seats is not None else None
    return [entry for entry in roster(folder)
            if entry.get("email") and (wanted is None or entry["power"] in wanted)]


def to_players(folder: Path, meta: dict[str, Any], texts: dict[str, str], subject: str, now: datetime,
               stamp: str) -> tuple[list[Path], list[Path]]:
    """Each seat's text to its player; (every path, the paths written now). The
    key is made of `stamp` and the text, so the same mail is written once."""
    game = game_name(meta, folder)
    paths, new = [], []
    for entry in players_of(folder, texts):
        seat, address = str(entry["power"]), str(entry["email"])
        if not is_address(address):
            continue
        key = mail.stable_id(game, seat, address.lower(), subject, stamp, texts[seat])
        message = plain_message(meta, game, (str(entry.get("name") or seat), address), subject, texts[seat],
                                now, key, seat)
        path, written = write_plain(folder, message, key, seat)
        paths.append(path)
        if written:
            new.append(path)
    return paths, new


# --- what is owed ---------------------------------------------------------------------------
def welcomes(folder: Path, now: datetime, sending: bool) -> list[Path]:
    from adjudicator.mail.welcome_mails import write_welcomes
    new = write_welcomes(folder, now)
    return unsent(folder, sorted((folder / WELCOME_DIR).glob("*.eml")), sending, new)


def latest_slug(folder: Path) -> str | None:
    try:
        return mail.latest_reported_slug(folder)
    except GameFolderError:
        return None


def results(folder: Path, now: datetime, sending: bool) -> tuple[str | None, list[Path]]:
    """The newest phase's results mails for the players who have not had them."""
    slug = latest_slug(folder)
    if slug is None:
        return None, []
    meta = read_game(folder)
    game = game_name(meta, folder)
    done = sent_ids(folder) if sending else set()
    owed = False
    for entry in players_of(folder):
        path = folder / "mail" / slug / f"{entry['power']}.eml"
        if results_welcomed(folder, game, entry, slug):
            continue
        if not path.is_file() or (sending and str(mail.read_headers(path).get("Message-ID")).strip() not in done):
            owed = True
            break
    if not owed:
        return slug, []
    before = {p: p.stat().st_mtime_ns for p in (folder / "mail" / slug).glob("*.eml")} \
        if (folder / "mail" / slug).is_dir() else {}
    welcomed = {str(e["power"]) for e in players_of(folder) if results_welcomed(folder, game, e, slug)}
    messages = [m for m in mail.build_messages(folder, slug, now) if str(m["X-Adjudicator-Power"]) not in welcomed]
    paths = mail.write_messages(folder, slug, messages)
    new = [p for p in paths if before.get(p) != p.stat().st_mtime_ns]
    return slug, unsent(folder, paths, sending, new)


def notices(folder: Path, now: datetime, current: str, sending: bool) -> list[Path]:
    """The notices of the newest adjudicated phase and of the phase now open."""
    meta = read_game(folder)
    slugs = {s for s in (latest_slug(folder), current) if s}
    paths: list[Path] = []
    new: list[Path] = []
    for slug in sorted(slugs):
        for source in sorted((folder / NOTICES / slug).glob("*.yaml")):
            told = storage.read_yaml(source) or {}
            if not isinstance(told, dict):
                continue
            label = phase_label(meta, slug)
            stamp = source.relative_to(folder).as_posix()
            texts = {str(seat): notice_text(lines, meta, current, now)
                     for seat, lines in (told.get("players") or {}).items()}
            got, written = to_players(folder, meta, texts, f"Notice: {label}", now, stamp)
            paths += got
            new += written
            for_gm = [str(line) for line in told.get("gm") or []]
            contact = str(meta.get("gm_contact") or "")
            if for_gm and is_address(contact) and contact.lower() != mail.gm_address(meta).lower():
                game = game_name(meta, folder)
                text = "\n\n".join(for_gm) + "\n"
                key = mail.stable_id(game, "gm", contact.lower(), stamp, text)
                message = plain_message(meta, game, ("GM", contact), f"For the GM: {label}", text, now, key, "gm")
                path, written_now = write_plain(folder, message, key, "gm")
                paths.append(path)
                if written_now:
                    new.append(path)
    return unsent(folder, paths, sending, new)


def notice_text(lines: Any, meta: dict[str, Any], current: str, now: datetime) -> str:
    said = [str(line) for line in lines] if isinstance(lines, list) else [str(lines)]
    due = due_line(meta, phase_label(meta, current), now, "Choices" if mail.is_turn_file(meta) else "Orders")
    return "\n\n".join(said + ([due] if due else [])) + "\n"


def end_text(folder: Path) -> str | None:
    """The end-of-game report (Diplomacy), or a card game's last public report."""
    report = folder / END_REPORT
    if report.is_file():
        return report.read_text(encoding="utf-8")
    slug = latest_slug(folder)
    if slug is None or mail.turn_index(slug) is None:
        return None
    return "The game is over. Its last report:\n\n" + (folder / "reports" / f"{slug}.txt").read_text(encoding="utf-8")


def end_mails(folder: Path, now: datetime, sending: bool) -> list[Path]:
    text = end_text(folder)
    if text is None:
        return []
    meta = read_game(folder)
    texts = {str(entry["power"]): text for entry in players_of(folder)}
    paths, new = to_players(folder, meta, texts, "The game is over", now, "end")
    return unsent(folder, paths, sending, new)
