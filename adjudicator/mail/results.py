"""Mail out the results of a phase: one RFC 5322 message per player, written to
mail/<phase>/<power>.eml and sent by adjudicator.mail.smtp.

A Diplomacy player's mail holds their private report as the text (it contains
the public report, so a power's Diplomacy Point allocations only ever reach
that power), the map as a palette PNG (and as SVG when game.yaml says
`mail: {svg: true}`, or when no PNG could be drawn), and the state file that
`adjudicator check --state` reads (history/<next phase>.yaml, sealed). A turn-file game's
player gets their private report and their own picture of the table as a PNG
(private/<player>/<phase>.svg: the table and their hand; the public
maps/<phase>.svg where they have none), never the state (it holds every
hand); `new` writes the opening ones, 0000-setup. Every mail ends with the
judge's version.

The envelope is what a mail client expects: Date is when the mail is written
(the clock is a parameter), each Message-ID is unique, and every mail of a game
carries References to one root id per game, so a player's mails thread
together. The report and attachments decide the mail's content; a mail already
written with the same content is kept as it is (same Message-ID, same bytes),
so `mail` then `mail --send` sends what was written. A phase adjudicated again
after a rollback (or with --force) gets a new mail that says "Corrected" in the
Subject and the text and points with In-Reply-To to the mail it replaces.

game.yaml may have been edited by hand, so the roster is not trusted here: a
player's name is cleaned for the To header (control characters and line breaks
become spaces), an address that is not one plain addr-spec is an error that
names the power, and a power id must be a safe name before it becomes a file
name or a header."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, formataddr, parseaddr
from pathlib import Path
from typing import Any

from adjudicator import __version__
from adjudicator.diplomacy.model import Phase
from adjudicator.errors import AdjudicatorError, GameFolderError
from adjudicator.folder.gamefolder import history_files, read_game
from adjudicator.folder.players import is_address, roster
from adjudicator.store import storage
from adjudicator.store.names import check_name, inside

DEFAULT_GM = "judge@localhost"
DEFAULT_JUDGE_NAME = "Judge"
CONTENT_HEADER = "X-Adjudicator-Content"     # a hash of the report and attachments
SUPERSEDED = Path("history") / "superseded"


def gm_address(meta: dict[str, Any]) -> str:
    """The judge's address alone: gm_email may be written 'Judge <judge@example.org>',
    and the name in the From header is judge_name's."""
    return parseaddr(str(meta.get("gm_email") or DEFAULT_GM))[1] or DEFAULT_GM


def judge_from(meta: dict[str, Any]) -> str:
    """The From header of every mail the judge sends: its name (game.yaml's
    `judge_name`) and its address (`gm_email`)."""
    name = header_name(str(meta.get("judge_name") or "")) or DEFAULT_JUDGE_NAME
    return formataddr((name, gm_address(meta)))


def game_subject(game: str, text: str) -> str:
    """A Subject that names the game first, `[pbem] Spring 1901 Movement results`,
    as every mail of the judge's does (so a player's filter, and a judge of many
    games, can tell its games apart)."""
    return f"[{header_name(game, 40)}] {text}"


def reply_subject(game: str, subject: str) -> str:
    """`[pbem] Re: orders`: the Subject of a reply to a player's mail, its game
    tag once (a reply to a judge's mail already has it, or the `pbem: ` its
    mails had before)."""
    rest = subject.strip()
    for head in (f"[{header_name(game, 40)}]", f"{game}:"):
        rest = rest[len(head):].strip() if rest.startswith(head) else rest
    return game_subject(game, "Re: " + (rest or "orders"))


def stable_id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def message_domain(meta: dict[str, Any]) -> str:
    return gm_address(meta).rsplit("@", 1)[-1] or "localhost"


def thread_root(meta: dict[str, Any], game: str) -> str:
    """The id every mail of the game refers to, so that a mail client threads them."""
    return f"<game-{stable_id(game, 'thread')}@{message_domain(meta)}>"


def is_turn_file(meta: dict[str, Any]) -> bool:
    return meta.get("kind") == "turn-file"


def turn_index(slug: str) -> int | None:
    """The number of a turn-file game's phase tag, `0003-age1-turn2` -> 3."""
    head, dash, _ = slug.partition("-")
    return int(head) if dash and len(head) == 4 and head.isdigit() else None


def latest_reported_slug(folder: Path, meta: dict[str, Any] | None = None) -> str:
    """The newest phase that has a public report (a turn-file game's 0000-setup
    counts); `meta` is game.yaml, if it was read already."""
    slugs = reported_slugs(folder, meta if meta is not None else read_game(folder))
    if not slugs:
        raise GameFolderError("no phase has been adjudicated yet", file=str(folder / "reports"),
                              hint="run 'adjudicator adjudicate' first")
    return slugs[-1]


def reported_slugs(folder: Path, meta: dict[str, Any]) -> list[str]:
    """Every phase with a public report, oldest first (the end report is none)."""
    stems = [path.stem for path in (folder / "reports").glob("*.txt")]
    if is_turn_file(meta):
        return [s for _, s in sorted((turn_index(s), s) for s in stems if turn_index(s) is not None)]
    phases = []
    for stem in stems:
        try:
            phases.append(Phase.from_slug(stem))
        except ValueError:
            continue
    return [p.slug for p in sorted(phases, key=lambda p: p.sort_key)]


def header_name(name: str, limit: int = 60) -> str:
    """A display name safe for a header: every control character or line break
    becomes a space, runs of spaces become one, at most `limit` characters."""
    cleaned = "".join(" " if not c.isprintable() else c for c in name)
    return " ".join(cleaned.split())[:limit]


# --- what a phase's mail holds ----------------------------------------------------------
@dataclass
class Attachment:
    data: bytes
    maintype: str
    subtype: str
    filename: str


@dataclass
class PhaseMail:
    """What every player's mail for one phase shares. The PNG map is drawn
    from the SVG when the first mail is built (half a second), and each
    attachment is encoded once for all the players' mails."""
    slug: str
    title: str                        # for the Subject: "Spring 1901 Movement" or "age1-turn2"
    attachments: list[Attachment]     # the state file; the maps are not among them
    svg: bytes | None = None          # the map the PNG is drawn from (a card game's public picture)
    with_svg: bool = False            # attach the SVG as well (game.yaml: mail: {svg: true})
    own_svgs: dict[str, bytes] = field(default_factory=dict)   # a card game's: each player's own picture
    picture: str = "map"              # what the image is, for the note when there is no PNG
    _drawn: dict[str | None, tuple[list[EmailMessage], str]] = field(default_factory=dict, init=False, repr=False)

    def svg_for(self, power: str | None) -> bytes | None:
        """The picture `power`'s mail carries: their own, or the shared one."""
        return self.own_svgs.get(power, self.svg) if power is not None else self.svg

    def parts(self, power: str | None = None) -> tuple[list[EmailMessage], str]:
        """The attachments as MIME parts, the map first (PNG, then SVG if asked
        for or if no PNG could be drawn), and the note for the text (e.g. why
        there is no PNG). A card game's player gets their own picture."""
        key = power if power in self.own_svgs else None
        if key not in self._drawn:
            maps, note = [], ""
            svg = self.svg_for(key)
            if svg is not None:
                png, note = map_png(svg, self.picture)
                if png is not None:
                    maps.append(Attachment(png, "image", "png", f"{self.slug}.png"))
                if png is None or self.with_svg:
                    maps.append(Attachment(svg, "image", "svg+xml", f"{self.slug}.svg"))
            self._drawn[key] = ([attachment_part(item) for item in [*maps, *self.attachments]], note)
        return self._drawn[key]


def attachment_part(item: Attachment) -> EmailMessage:
    """The part EmailMessage.add_attachment would make: one part serves every
    player's mail (a part is not changed by being attached or written)."""
    part = EmailMessage(policy=policy.default)
    part.set_content(item.data, maintype=item.maintype, subtype=item.subtype, filename=item.filename)
    return part


def phase_mail(folder: Path, meta: dict[str, Any], slug: str) -> PhaseMail:
    if is_turn_file(meta):
        if turn_index(slug) is None:
            raise AdjudicatorError(f"not a phase of this game: {slug!r}", hint="e.g. 0000-setup or 0002-age1-turn2")
        check_name(slug, "phase")
        name = slug.split("-", 1)[1]
        # No state: a turn-file game's state holds every player's hand. Its
        # picture of the table: each player's own (their hand in it), beside
        # their private report, or else the public one.
        public = folder / "maps" / f"{slug}.svg"
        own = {path.parent.name: path.read_bytes()
               for path in sorted((folder / "private").glob(f"*/{slug}.svg")) if path.is_file()}
        return PhaseMail(slug, "the game begins" if turn_index(slug) == 0 else name, [],
                         public.read_bytes() if public.is_file() else None, wants_svg(meta), own,
                         "picture of the table")
    try:
        phase = Phase.from_slug(slug)
    except ValueError:
        raise AdjudicatorError(f"not a phase: {slug!r}", hint="e.g. 1901-spring-movement") from None
    attachments: list[Attachment] = []
    svg = folder / "maps" / f"{phase.slug}.svg"
    svg_bytes = svg.read_bytes() if svg.exists() else None
    after = [path for p, path in history_files(folder) if p.sort_key > phase.sort_key]
    if after:
        attachments.append(Attachment(after[0].read_bytes(), "application", "x-yaml", after[0].name))
    return PhaseMail(phase.slug, str(phase), attachments, svg_bytes, wants_svg(meta))


def wants_svg(meta: dict[str, Any]) -> bool:
    """The SVG map doubles a mail's size and most mail programs show the PNG
    anyway, so it comes only when the game asks: `mail: {svg: true}`."""
    settings = meta.get("mail")
    return isinstance(settings, dict) and settings.get("svg") is True


def map_png(svg: bytes, picture: str = "map") -> tuple[bytes | None, str]:
    """The map (or a card game's `picture`) as PNG, or None and a note for the
    player saying why there is none."""
    try:
        from adjudicator.output.png import svg_to_png
        return svg_to_png(svg.decode("utf-8")), ""
    except ImportError:
        why = "this judge has no PNG renderer"
    except Exception as exc:  # noqa: BLE001 - a map that cannot be drawn must not stop the results
        why = f"the PNG could not be drawn ({type(exc).__name__})"
    return None, f"The {picture} is attached as SVG only: {why}. Open it with a web browser."


def content_hash(report: str, shared: PhaseMail, power: str | None = None) -> str:
    digest = hashlib.sha256(report.encode("utf-8"))
    # The map counts by its SVG, hashed as when it was always attached (so a
    # mail written before keeps its hash); the PNG is drawn from it.
    svg = shared.svg_for(power)
    maps = [Attachment(svg, "image", "svg+xml", f"{shared.slug}.svg")] if svg is not None else []
    for item in [*maps, *shared.attachments]:
        digest.update(b"\0" + item.filename.encode() + b"\0" + hashlib.sha256(item.data).digest())
    if shared.with_svg:
        digest.update(b"\0with svg")
    return digest.hexdigest()[:32]


HEADER_BYTES = 64 * 1024     # far more than the header block of any mail the judge writes


def read_headers(path: Path) -> EmailMessage:
    """The header block of a mail the judge wrote, read without its body
    (`run` looks at every owed mail's headers each tick; the maps are big)."""
    with path.open("rb") as handle:
        head = handle.read(HEADER_BYTES)
    ends = [at for at in (head.find(b"\n\n"), head.find(b"\r\n\r\n")) if at >= 0]
    msg = BytesParser(policy=policy.default).parsebytes(head[:min(ends)] + b"\n\n" if ends else head,
                                                        headersonly=True)
    assert isinstance(msg, EmailMessage)
    return msg


def earlier_mails(folder: Path, slug: str, power: str) -> tuple[bool, Path | None]:
    """(was this phase adjudicated before, the newest mail this player had for it then)."""
    keep = folder / SUPERSEDED
    if not keep.is_dir():
        return False, None
    redone = any(keep.glob(f"*/reports/{slug}.txt")) or any(keep.glob(f"{slug}.*.report.txt")) or \
        any(keep.glob(f"*/mail/{slug}/*.eml"))
    old = [p for p in keep.glob(f"*/mail/{slug}/{power}.eml") if p.parts[-4].isdigit()]
    return redone, max(old, key=lambda p: int(p.parts[-4]), default=None)


# --- the messages -------------------------------------------------------------------------
def build_messages(folder: Path, phase_slug: str, now: datetime | None = None) -> list[EmailMessage]:
    """One message for every player with an email address, dated `now` (default:
    the clock); X-Adjudicator-Power names the power (or a turn-file game's player)."""
    meta = read_game(folder)
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    shared = phase_mail(folder, meta, phase_slug)
    game = str(meta.get("name") or folder.name)
    out: list[EmailMessage] = []
    for player in roster(folder):
        email_addr = str(player.get("email") or "").strip()
        power = str(player.get("power") or (player.get("name") if is_turn_file(meta) else "") or "")
        if not email_addr or not power:
            continue
        check_name(power, "power")
        if not is_address(email_addr):
            raise GameFolderError(f"{power}'s email address {email_addr!r} is not one plain address",
                                  file=str(folder / "game.yaml"),
                                  hint=f"set it again with 'adjudicator player add GAME {power} ...'")
        report = folder / "private" / power / f"{shared.slug}.txt"
        try:
            text = report.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameFolderError(f"no private report for {power} in {shared.title}", file=str(report),
                                  hint="adjudicate the phase first") from None
        out.append(player_message(folder, meta, game, player, power, email_addr, text, shared, now))
    return out


def player_message(folder: Path, meta: dict[str, Any], game: str, player: dict[str, Any], power: str,
                   address: str, report: str, shared: PhaseMail, now: datetime) -> EmailMessage:
    content = content_hash(report, shared, power)
    current = folder / "mail" / shared.slug / f"{power}.eml"
    redone, replaced = earlier_mails(folder, shared.slug, power)
    if current.is_file() and read_headers(current).get(CONTENT_HEADER) != content:
        redone, replaced = True, current          # adjudicated again over a mail already written
    root = thread_root(meta, game)
    msg = EmailMessage()
    msg["From"] = judge_from(meta)
    msg["To"] = formataddr((header_name(str(player.get("name") or "")), address))
    corrected = " (Corrected)" if redone else ""
    msg["Subject"] = game_subject(game, f"{shared.title} results{corrected}" if turn_index(shared.slug) != 0
                                  else shared.title)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = f"<{stable_id(game, shared.slug, power)}.{secrets.token_hex(8)}@{message_domain(meta)}>"
    old_id = str(read_headers(replaced).get("Message-ID") or "").strip() if replaced is not None else ""
    if old_id:
        msg["In-Reply-To"] = old_id
    msg["References"] = " ".join([root, *([old_id] if old_id else [])])
    msg["X-Adjudicator-Power"] = power
    msg[CONTENT_HEADER] = content
    head = ""
    if redone:
        head = (f"Corrected results for {shared.title}: the phase was adjudicated again, and this mail "
                f"replaces the one you had for it before. Use these results.\n\n")
    parts, note = shared.parts(power)
    if note:
        head += note + "\n\n"
    # quoted-printable keeps the .eml readable by the GM; base64 would not.
    msg.set_content(head + report + judge_signature(report), cte="quoted-printable")
    if parts:
        msg.make_mixed()              # as add_attachment does first
    for part in parts:
        msg.attach(part)
    return msg


def judge_signature(text: str) -> str:
    """The footer under the report: which judge, at which version, adjudicated,
    after the signature separator that mail clients recognise."""
    return ("" if text.endswith("\n") else "\n") + f"-- \nAdjudicated by adjudicator {__version__}\n"


def message_bytes(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=policy.default)


def write_messages(folder: Path, phase_slug: str, messages: list[EmailMessage] | None = None,
                   now: datetime | None = None) -> list[Path]:
    """mail/<phase>/<power>.eml for every message (built if not given). A file
    that already holds the same content is left as it is."""
    if messages is None:
        messages = build_messages(folder, phase_slug, now)
    written = []
    for msg in messages:
        power = check_name(str(msg["X-Adjudicator-Power"]), "power")
        path = inside(folder, folder / "mail" / check_name(phase_slug, "phase") / f"{power}.eml")
        if not (path.is_file() and read_headers(path).get(CONTENT_HEADER) == msg[CONTENT_HEADER]):
            storage.atomic_write(path, message_bytes(msg))
        written.append(path)
    return written


def send_messages(messages: list[EmailMessage], host: str, port: int,
                  starttls: bool = False, user: str | None = None, password: str | None = None,
                  timeout: float = 30.0) -> dict[str, str]:
    """Send every message over one SMTP connection (see adjudicator.mail.smtp)."""
    from adjudicator.mail.smtp import Server
    from adjudicator.mail.smtp import send_messages as send
    return send(messages, Server(host, port, starttls, user, password, timeout))
