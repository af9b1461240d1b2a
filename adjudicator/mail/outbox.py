"""What the judge owes its players by mail, written as .eml files for
`run` (and `mail`) to send, each once:

  * the welcome of every player who has none (adjudicator.mail.welcome);
  * the newest phase's results, to every player who has not had them (a
    results mail, or a welcome that carried them);
  * the notices of the newest phase, and of the phase now open (what was
    done for a player by default; a power at the missed limit, to the GM);
  * the end-of-game mail, once the game is over (a Diplomacy game's carries
    the chart of each power's supply centres by year, centres.png).

Every mail here has a Message-ID that its content decides, and is written
once: a file that exists is not written again, and mail/sent.txt says what
went, so asking again (every run) sends nothing twice. Without an SMTP server
the files wait in mail/ for `mail --send`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

from adjudicator.diplomacy.model import Phase
from adjudicator.errors import GameFolderError
from adjudicator.folder.endreport import END_REPORT
from adjudicator.folder.gamefolder import read_game
from adjudicator.folder.players import is_address, roster, seat_of
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
                  now: datetime, key: str, seat: str, parts: Iterable[EmailMessage] = ()) -> EmailMessage:
    """A plain-text mail from the judge, threaded with the game's mails, with
    `parts` attached (each made by results.attachment_part)."""
    message = EmailMessage()
    message["From"] = mail.judge_from(meta)
    message["To"] = formataddr((mail.header_name(to[0]), to[1]))
    message["Subject"] = mail.game_subject(game, subject)
    message["Date"] = format_datetime(now)
    message["Message-ID"] = f"<notice-{key}@{mail.message_domain(meta)}>"
    message["References"] = mail.thread_root(meta, game)
    message["X-Adjudicator-Power"] = seat
    message.set_content(text if text.endswith("\n") else text + "\n", cte="quoted-printable")
    attached = list(parts)
    if attached:
        message.make_mixed()
    for part in attached:
        message.attach(part)
    return message


def plain_path(folder: Path, key: str, seat: str) -> Path:
    return inside(folder, folder / NOTICE_DIR / f"{key[:16]}-{check_name(seat, 'power')}.eml")


def write_plain(folder: Path, message: EmailMessage, key: str, seat: str) -> tuple[Path, bool]:
    """The mail's file, and whether it was written now (an existing one is kept as it is)."""
    path = plain_path(folder, key, seat)
    if path.exists():
        return path, False
    storage.atomic_write(path, mail.message_bytes(message))
    return path, True


def players_of(folder: Path, seats: Iterable[str] | None = None) -> list[dict[str, Any]]:
    wanted = set(seats) if seats is not None else None
    return [entry for entry in roster(folder)
            if entry.get("email") and (wanted is None or entry["power"] in wanted)]


@dataclass
class Post:
    """What one pass over the owed mails reads, read once: game.yaml, the
    players with an address, the newest reported phase."""
    folder: Path
    meta: dict[str, Any]
    players: list[dict[str, Any]]
    latest: str | None
    sending: bool

    @property
    def game(self) -> str:
        return game_name(self.meta, self.folder)


def look(folder: Path, sending: bool) -> Post:
    meta = read_game(folder)
    players = [{**entry, "power": seat_of(entry)} for entry in meta.get("players") or []
               if isinstance(entry, dict) and entry.get("email")]
    return Post(folder, meta, players, latest_slug(folder, meta), sending)


def to_players(post: Post, texts: dict[str, str], subject: str, now: datetime, stamp: str,
               parts: Callable[[], list[EmailMessage]] | None = None) -> tuple[list[Path], list[Path]]:
    """Each seat's text to its player, with the attachments `parts` makes
    (asked for once, and only if a mail is to be written); (every path, the
    paths written now). The key is made of `stamp` and the text, so the same
    mail is written once."""
    attached: list[EmailMessage] | None = None
    folder, meta, game = post.folder, post.meta, post.game
    paths, new = [], []
    for entry in post.players:
        seat, address = str(entry["power"]), str(entry["email"])
        if seat not in texts or not is_address(address):
            continue
        key = mail.stable_id(game, seat, address.lower(), subject, stamp, texts[seat])
        path = plain_path(folder, key, seat)
        if not path.exists():             # written once: a mail not yet sent is sent as it was written
            if attached is None:
                attached = parts() if parts is not None else []
            message = plain_message(meta, game, (str(entry.get("name") or seat), address), subject,
                                    texts[seat], now, key, seat, attached)
            write_plain(folder, message, key, seat)
            new.append(path)
        paths.append(path)
    return paths, new


# --- what is owed ---------------------------------------------------------------------------
def welcomes(post: Post, now: datetime) -> list[Path]:
    from adjudicator.mail.welcome_mails import write_welcomes
    new = write_welcomes(post.folder, now, post.meta, post.players)
    return unsent(post.folder, sorted((post.folder / WELCOME_DIR).glob("*.eml")), post.sending, new)


def latest_slug(folder: Path, meta: dict[str, Any] | None = None) -> str | None:
    try:
        return mail.latest_reported_slug(folder, meta)
    except GameFolderError:
        return None


def results(post: Post, now: datetime) -> tuple[str | None, list[Path]]:
    """The newest phase's results mails for the players who have not had them."""
    folder, slug = post.folder, post.latest
    if slug is None:
        return None, []
    done = sent_ids(folder) if post.sending else set()
    welcomed = {str(e["power"]) for e in post.players if results_welcomed(folder, post.game, e, slug)}
    owed = False
    for entry in post.players:
        path = folder / "mail" / slug / f"{entry['power']}.eml"
        if entry["power"] in welcomed:
            continue
        if not path.is_file() or (post.sending and str(mail.read_headers(path).get("Message-ID")).strip() not in done):
            owed = True
            break
    if not owed:
        return slug, []
    before = {p: p.stat().st_mtime_ns for p in (folder / "mail" / slug).glob("*.eml")} \
        if (folder / "mail" / slug).is_dir() else {}
    messages = [m for m in mail.build_messages(folder, slug, now) if str(m["X-Adjudicator-Power"]) not in welcomed]
    paths = mail.write_messages(folder, slug, messages)
    new = [p for p in paths if before.get(p) != p.stat().st_mtime_ns]
    return slug, unsent(folder, paths, post.sending, new)


def notices(post: Post, now: datetime, current: str) -> list[Path]:
    """The notices of the newest adjudicated phase and of the phase now open."""
    folder, meta = post.folder, post.meta
    paths: list[Path] = []
    new: list[Path] = []
    for slug in sorted({s for s in (post.latest, current) if s}):
        for source in sorted((folder / NOTICES / slug).glob("*.yaml")):
            told = storage.read_yaml(source) or {}
            if not isinstance(told, dict):
                continue
            label = phase_label(meta, slug)
            stamp = source.relative_to(folder).as_posix()
            texts = {str(seat): notice_text(lines, meta, current, now)
                     for seat, lines in (told.get("players") or {}).items()}
            got, written = to_players(post, texts, f"Notice: {label}", now, stamp)
            paths += got
            new += written
            for_gm = [str(line) for line in told.get("gm") or []]
            contact = str(meta.get("gm_contact") or "")
            if for_gm and is_address(contact) and contact.lower() != mail.gm_address(meta).lower():
                text = "\n\n".join(for_gm) + "\n"
                key = mail.stable_id(post.game, "gm", contact.lower(), stamp, text)
                message = plain_message(meta, post.game, ("GM", contact), f"For the GM: {label}", text, now, key,
                                        "gm")
                path, written_now = write_plain(folder, message, key, "gm")
                paths.append(path)
                if written_now:
                    new.append(path)
    return unsent(folder, paths, post.sending, new)


def notice_text(lines: Any, meta: dict[str, Any], current: str, now: datetime) -> str:
    said = [str(line) for line in lines] if isinstance(lines, list) else [str(lines)]
    due = due_line(meta, phase_label(meta, current), now, "Choices" if mail.is_turn_file(meta) else "Orders")
    return "\n\n".join(said + ([due] if due else [])) + "\n"


def end_text(post: Post) -> str | None:
    """The end-of-game report (Diplomacy), or a card game's last public report."""
    report = post.folder / END_REPORT
    if report.is_file():
        return report.read_text(encoding="utf-8")
    slug = post.latest
    if slug is None or not mail.is_turn_file(post.meta):
        return None
    last = (post.folder / "reports" / f"{slug}.txt").read_text(encoding="utf-8")
    return "The game is over. Its last report:\n\n" + last


CENTRE_CHART = "centres.png"        # the end-of-game mail's chart (the end report names it)


def centre_chart(post: Post) -> list[EmailMessage]:
    """A Diplomacy game's chart of each power's supply centres year by year,
    as the site draws it (PNG; SVG where no PNG can be drawn); none for a
    turn-file game. Drawn from the history, so the same every time."""
    if mail.is_turn_file(post.meta) or not (post.folder / END_REPORT).is_file():
        return []
    from adjudicator.folder.endreport import yearly_centres
    from adjudicator.folder.gamefolder import history_files, load_current
    from adjudicator.output.chart import centre_chart_svg
    _, variant, final, _ = load_current(post.folder)
    rows = yearly_centres(history_files(post.folder), variant, final)
    svg = centre_chart_svg(variant, rows, f"{post.game}: supply centres by year").encode("utf-8")
    png, _ = mail.map_png(svg)
    chart = mail.Attachment(png, "image", "png", CENTRE_CHART) if png is not None \
        else mail.Attachment(svg, "image", "svg+xml", CENTRE_CHART.replace(".png", ".svg"))
    return [mail.attachment_part(chart)]


def end_mails(post: Post, now: datetime) -> list[Path]:
    text = end_text(post)
    if text is None:
        return []
    texts = {str(entry["power"]): text for entry in post.players}
    paths, new = to_players(post, texts, "The game is over", now, "end", lambda: centre_chart(post))
    return unsent(post.folder, paths, post.sending, new)
