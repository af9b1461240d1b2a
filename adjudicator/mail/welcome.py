"""The welcome mail: the first mail a player gets from the judge, once for
each player who takes a seat (at the start, or after `player replace`).

It says which game and variant it is, the player's power (or seat), the
deadline, the house rules (game.yaml's `house_rules:`), how to write orders
with an example made for the player's own units (each line checked against
the game first), and how to check orders offline with the state file it
carries. A player who joins a game under way also gets the latest results
(their private report, the map, the state file) and the supply-centre
counts year by year; a card game's player gets their hand the same way.

Passwords: a GM who did not choose one at `player add` has the judge
make it (`players.generate_password`, 19 characters). It waits, the
only place it is kept in clear, in mail/welcome/pending/<seat>.yaml until the
welcome that carries it is sent; then that file goes and the password is
masked in the kept copy of the welcome. No other mail ever carries it.

A welcome is mail/welcome/<seat>-<key>.eml, where the key names the game,
the seat, the address and how many players held the seat before: a welcome
is written once for each, so `run` and `mail` can ask for them every time."""

from __future__ import annotations

import hashlib
import textwrap
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from pathlib import Path
from typing import Any

from adjudicator.errors import GameFolderError
from adjudicator.folder.gamefolder import read_game
from adjudicator.folder.players import MIN_CHOSEN_PASSWORD, is_address, roster, verify
from adjudicator.folder.schedule import due_line, parse_duration, schedule
from adjudicator.mail import results as mail
from adjudicator.store import storage
from adjudicator.store.names import check_name, inside

WELCOME_DIR = Path("mail") / "welcome"
PENDING_DIR = WELCOME_DIR / "pending"
RESULTS_HEADER = "X-Adjudicator-Results"       # the phase whose results a welcome carries
MASK = "(sent once in this mail; not kept)"


def keep_password(folder: Path, seat: str, email: str, password: str) -> None:
    """Keep a generated password for the seat's welcome (0600, as all of mail/)."""
    path = inside(folder, folder / PENDING_DIR / f"{check_name(seat, 'power')}.yaml")
    storage.atomic_write(path, storage.dump_yaml({"email": email, "password": password}))


def supersede(folder: Path, seat: str, email: str) -> None:
    """A password made for a player who already had their welcome: that
    welcome is moved aside (mail/welcome/superseded/), so the next one, which
    carries the new password, is owed."""
    meta = read_game(folder)
    game = str(meta.get("name") or folder.name)
    for entry in roster(folder):
        if entry["power"] == seat and str(entry.get("email") or "").lower() == email.lower():
            path = welcome_path(folder, game, entry)
            if path.is_file():
                keep = folder / WELCOME_DIR / "superseded"
                keep.mkdir(parents=True, exist_ok=True)
                number = len(list(keep.glob(f"{path.stem}.*"))) + 1
                path.rename(keep / f"{path.stem}.{number}.eml")


def forget_password(folder: Path, seat: str) -> None:
    (folder / PENDING_DIR / f"{check_name(seat, 'power')}.yaml").unlink(missing_ok=True)


def pending_password(folder: Path, entry: dict[str, Any]) -> str | None:
    """The generated password waiting for this player's welcome, if it is still theirs."""
    path = folder / PENDING_DIR / f"{entry['power']}.yaml"
    if not path.is_file():
        return None
    kept = storage.read_yaml(path)
    if not isinstance(kept, dict) or str(kept.get("email") or "").lower() != str(entry.get("email")).lower():
        return None
    password = str(kept.get("password") or "")
    return password if password and verify(entry, password) else None


def welcome_key(game: str, entry: dict[str, Any]) -> str:
    return mail.stable_id(game, str(entry["power"]), str(entry.get("email") or "").lower(),
                          str(len(entry.get("previous") or [])))


def welcome_path(folder: Path, game: str, entry: dict[str, Any]) -> Path:
    seat = check_name(str(entry["power"]), "power")
    return inside(folder, folder / WELCOME_DIR / f"{seat}-{welcome_key(game, entry)[:16]}.eml")


def owed(folder: Path, game: str, players: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The roster entries with an address whose welcome has not been written
    (`players`: those entries, as read already)."""
    return [entry for entry in (players if players is not None else roster(folder))
            if entry.get("email") and not welcome_path(folder, game, entry).exists()]


def results_stamp(folder: Path, seat: str, slug: str) -> str:
    """Which results a welcome carries: the phase and its private report's digest
    (a phase adjudicated again after a rollback has another)."""
    report = folder / "private" / seat / f"{slug}.txt"
    digest = hashlib.sha256(report.read_bytes()).hexdigest()[:16] if report.is_file() else "none"
    return f"{slug} {digest}"


def results_welcomed(folder: Path, game: str, entry: dict[str, Any], slug: str) -> bool:
    """True if this player's welcome carried these very results of `slug` (so no separate results mail)."""
    path = welcome_path(folder, game, entry)
    return path.is_file() and \
        str(mail.read_headers(path).get(RESULTS_HEADER) or "") == results_stamp(folder, str(entry["power"]), slug)


# --- what the welcome says ---------------------------------------------------------------
@dataclass
class Seat:
    """What a welcome says about one player's place in the game."""
    power: str            # the seat id
    label: str            # "France", or the player's name in a card game
    player: str           # the player's display name
    address: str
    password: str | None  # generated for them, or None: the GM gave it


@dataclass
class GameView:
    """What every welcome of one game shares, read once."""
    game: str
    meta: dict[str, Any]
    title: str                       # "Standard Diplomacy", "7 Wonders"
    phase: str                       # the phase now, as players read it
    latest: str | None               # the newest reported phase (the results a newcomer gets)
    turn_file: bool


def password_section(seat: Seat, judge: str) -> list[str]:
    if seat.password is not None:
        head = [f"Your password is {seat.password}", "",
                ("It was made for you and is sent only in this mail. Put it in every mail you send to the "
                f"judge ({judge}), on a line of its own:"), f"    password: {seat.password}"]
    else:
        head = [("Your password is the one your GM gave you (or you chose when you joined). Put it in every "
                 "mail you send to the judge "
                f"({judge}), on a line of its own:"), "    password: <your password>"]
    return head + ["", f"To choose a new one ({MIN_CHOSEN_PASSWORD} characters or more), mail the judge:",
                   "    password: <your password>", "    new password: <the new one>", ""]


def house_rules(meta: dict[str, Any]) -> list[str]:
    text = str(meta.get("house_rules") or "").strip()
    if not text:
        return []
    return ["HOUSE RULES", *("    " + line if line.strip() else "" for line in text.splitlines()), ""]


def timing(view: GameView, now: datetime) -> list[str]:
    due = due_line(view.meta, view.phase, now, "Choices" if view.turn_file else "Orders")
    lines = [f"The game is at {view.phase}." + (f" {due}" if due else " The GM has not set a deadline yet.")]
    settings = schedule(view.meta)
    grace = parse_duration(settings["grace"])
    if grace:
        lines.append(f"Late {'choices' if view.turn_file else 'orders'} are taken for {settings['grace']} "
                     "after a deadline; after that, a player who sent nothing gets the default.")
    offsets = reminders_sent(settings, view.turn_file)
    if offsets:
        shown = offsets[0] if len(offsets) == 1 else ", ".join(offsets[:-1]) + " and " + offsets[-1]
        lines.append(f"If yours are not in, the judge reminds you {shown} before the deadline.")
    return lines + [""]


def reminders_sent(settings: dict[str, Any], turn_file: bool) -> list[str]:
    """The reminders a player can get, as the welcome names them. A reminder
    at least as long as a phase is never sent in it (its moment falls before
    the phase opens): one longer than every phase is left out, one longer
    than some says in which phases it comes. A card game's turns all have
    the movement length."""
    lengths = [parse_duration(settings[kind]) for kind in
               (("movement",) if turn_file else ("movement", "retreat", "adjustment"))]
    shown = []
    for offset in map(str, settings["reminders"] or []):
        before = parse_duration(offset)
        if before < min(lengths):
            shown.append(offset)
        elif before < max(lengths):
            shown.append(f"{offset} (in phases longer than {offset})")
    return shown


def wrapped(lines: list[str]) -> list[str]:
    """Long lines of prose folded at 76 characters; indented lines (examples) kept as they are."""
    return [part for line in lines
            for part in (textwrap.wrap(line, 76) if len(line) > 76 and not line.startswith(" ") else [line])]


def more_by_mail(view: GameView) -> list[str]:
    """The commands a player may mail besides orders (mail/commands; docs/mail.md has them all)."""
    from adjudicator.folder.gameoptions import absence_limits, is_anonymous, press_mode
    gunboat = [("This is a gunboat game: no player learns who plays another power, and nobody's name or address "
                "is shown to the others; your press goes out from the judge.")] if is_anonymous(view.meta) else []
    away = "'absence 2030-03-05 2030-03-09' (days you are away: no deadline falls in them), " \
        if absence_limits(view.meta) is not None else ""
    press = {"white": "'press to France, Italy:' (a line), your text, then 'endpress' sends press to those "
                      "powers, signed with your power; 'broadcast:' ... 'endpress' to every power. ",
             "grey": "'press to France, Italy:' (a line), your text, then 'endpress' sends press to those "
                     "powers without your power's name; 'broadcast:' ... 'endpress' to every power. ",
             "broadcast-only": "'broadcast:' (a line), your text, then 'endpress' sends press to every power. ",
             "none": ""}[press_mode(view.meta)]
    if view.turn_file:
        press = press.replace("France, Italy", "alice, bob").replace("powers", "players").replace(
            "power's name", "name").replace("your power", "your name").replace("every power", "everyone")
    return ["MORE BY MAIL",
            ("Each on a line of its own, with your password line: 'status' (the phase, the deadline, who is in), "
             f"'orders' (yours, as the judge holds them), 'history' (a past report again), {press}{away}"
             "'resign', and "
             "'help' (everything this game allows). If you play more than one game with this judge, keep "
             f"[{mail.header_name(view.game, 40)}] in the Subject (a reply does) or add a line "
             f"'game: {view.game}'."), *gunboat, ""]


def welcome_text(view: GameView, seat: Seat, body: list[str], now: datetime, results: str | None) -> str:
    judge = mail.gm_address(view.meta)
    intro = [f"Welcome to {view.game}, a game of {view.title} run by email.", "",
             f"{seat.player}, you play {'as ' if view.turn_file else ''}{seat.label}.", ""]
    text = wrapped(intro + password_section(seat, judge) + timing(view, now)) + house_rules(view.meta) + \
        wrapped(body + more_by_mail(view))
    if results is not None:
        text += ["", "=" * 70, f"THE LATEST RESULTS ({view.latest}), as you would have had them", "=" * 70, "",
                 results.rstrip("\n")]
    return "\n".join(text).rstrip("\n") + "\n"


def welcome_message(view: GameView, seat: Seat, text: str, now: datetime, key: str,
                    attachments: list[EmailMessage], results_slug: str | None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = mail.judge_from(view.meta)
    msg["To"] = formataddr((mail.header_name(seat.player), seat.address))
    msg["Subject"] = mail.game_subject(view.game, f"Welcome: you play {seat.label}")
    msg["Date"] = format_datetime(now)
    # The text is in the id: a player seated again gets a new welcome, not one taken for sent.
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    msg["Message-ID"] = f"<welcome-{key}.{digest}@{mail.message_domain(view.meta)}>"
    msg["References"] = mail.thread_root(view.meta, view.game)
    msg["X-Adjudicator-Power"] = seat.power
    if results_slug is not None:
        msg[RESULTS_HEADER] = results_slug
    msg.set_content(text, cte="quoted-printable")
    if attachments:
        msg.make_mixed()
    for part in attachments:
        msg.attach(part)
    return msg


def seat_of(folder: Path, entry: dict[str, Any], label: str) -> Seat:
    address = str(entry["email"])
    if not is_address(address):
        raise GameFolderError(f"{entry['power']}'s email address {address!r} is not one plain address",
                                   file=str(folder / "game.yaml"))
    return Seat(str(entry["power"]), label, str(entry.get("name") or label), address,
                pending_password(folder, entry))


def store(folder: Path, view: GameView, entry: dict[str, Any], msg: EmailMessage) -> Path:
    path = welcome_path(folder, view.game, entry)
    storage.atomic_write(path, mail.message_bytes(msg))
    return path


def latest_results(folder: Path, view: GameView, entry: dict[str, Any]) -> tuple[str | None, str | None]:
    """(the slug, the seat's private report) of the newest results, unless this very player had them."""
    slug = view.latest
    if slug is None:
        return None, None
    report = folder / "private" / str(entry["power"]) / f"{slug}.txt"
    if not report.is_file():
        return None, None
    had = folder / "mail" / slug / f"{entry['power']}.eml"
    if had.is_file() and str(entry["email"]).lower() in str(mail.read_headers(had).get("To") or "").lower():
        return None, None
    return slug, report.read_text(encoding="utf-8")


def sent(folder: Path, paths: list[Path]) -> None:
    """After the welcomes in `paths` were sent: the generated passwords they
    carried are masked in the kept copies, and their pending files go."""
    for path in paths:
        seat = check_name(str(mail.read_headers(path).get("X-Adjudicator-Power") or ""), "power")
        pending = folder / PENDING_DIR / f"{seat}.yaml"
        if not pending.is_file():
            continue
        kept = storage.read_yaml(pending)
        password = str(kept.get("password") or "") if isinstance(kept, dict) else ""
        raw = path.read_bytes()
        if password and password.encode() in raw:
            storage.atomic_write(path, raw.replace(password.encode(), MASK.encode()))
        pending.unlink()
