"""Which game of a host a mail is for (mail.host reads the mailbox once and
hands each game its own mails). In this order:

  1. the judge's own mail come back is dropped; a bounce goes to the game
     whose `[tag]` the returned mail's Subject carries;
  2. the game's tag in the Subject: every mail the judge sends says
     `[game]`, so a reply keeps it;
  3. a line `game: NAME` in the body (NAME the game's name or folder);
  4. a line `join NAME` for a game open for sign-up (mail.joining);
  5. the sender's only game, if they play (or GM) in exactly one.

A mail whose sender plays in several games and names none is `ambiguous`:
the host answers it once, listing that sender's games (and only theirs). A
mail from an address in no game, or naming a game its sender has no part in
(and not joining it), is a stranger's: no game reads it and nobody answers.
Only the header block is parsed, and the body's first lines only when the
Subject names no game; a mail over the size limit is routed by its headers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator.mail import bounces, manners
from adjudicator.mail.quarantine import Oversize

TAG_RE = re.compile(r"\[([^\[\]\r\n]{1,40})\]")
GAME_LINE_RE = re.compile(r"^\s*game\s*:\s*\[?([^\s\]]{1,60})\]?\s*$", re.IGNORECASE)
SCAN_BYTES = 64 * 1024             # of a bounce, for the returned mail's Subject
LINES_READ = 100


@dataclass
class Route:
    game: str | None                 # the game's folder name, or None: no game reads it
    how: str                         # subject, game line, join, only game, bounce, ambiguous, stranger, own
    sender: str = ""
    games: list[str] = field(default_factory=list)   # ambiguous: the sender's games, by name


@dataclass(frozen=True)
class GameEntry:
    folder: str
    name: str
    addresses: frozenset[str]        # its players' and its GM's, lower-case
    joins: bool                      # it answers `join` (opened for sign-up)

    @property
    def tag(self) -> str:
        return tag_of(self.name)


def tag_of(name: str) -> str:
    """The tag as the judge writes it in a Subject (results.game_subject), lower-case."""
    cleaned = "".join(" " if not c.isprintable() else c for c in name)
    return " ".join(cleaned.split())[:40].lower()


class Router:
    def __init__(self, games: list[GameEntry], judge: str, sent: set[str]) -> None:
        self.judge, self.sent = judge, sent
        self.by_name: dict[str, list[GameEntry]] = {}
        self.by_address: dict[str, list[GameEntry]] = {}
        for entry in games:
            for key in {entry.tag, entry.folder.lower()}:
                self.by_name.setdefault(key, []).append(entry)
            for address in entry.addresses:
                self.by_address.setdefault(address, []).append(entry)

    def named(self, text: str) -> GameEntry | None:
        found = self.by_name.get(text.strip().lower()) or []
        return found[0] if len(found) == 1 else None   # two games of one name: neither is named by it

    def route(self, raw: bytes | Oversize) -> Route:
        from adjudicator.mail.gate import headers_of
        head = raw.head if isinstance(raw, Oversize) else raw
        headers = headers_of(head)
        sender = manners.address_of(headers.get("from", []))
        if manners.is_own(headers, self.judge, self.sent):
            return Route(None, "own", sender)
        if bounces.is_report(headers):
            text = head[:SCAN_BYTES].decode("latin-1")
            for tag in re.findall(r"(?im)^subject:.*?\[([^\[\]\r\n]{1,40})\]", text):
                entry = self.named(tag)
                if entry is not None:
                    return Route(entry.folder, "bounce", sender)
            return Route(None, "stranger", sender)
        mine = self.by_address.get(sender, [])
        subject = " ".join(headers.get("subject", []))
        for tag in TAG_RE.findall(decoded(subject)):
            entry = self.named(tag)
            if entry is not None:
                return self.member(entry, sender, "subject", raw)
        body = None if isinstance(raw, Oversize) else body_lines(raw)
        for line in body or []:
            found = GAME_LINE_RE.match(line)
            if found is not None and (entry := self.named(found.group(1))) is not None:
                return self.member(entry, sender, "game line", raw)
        from adjudicator.mail.joining import join_name
        joined = join_name("\n".join(body)) if body else None
        if joined is not None and (entry := self.named(joined)) is not None and entry.joins:
            return Route(entry.folder, "join", sender)
        if len(mine) == 1:
            return Route(mine[0].folder, "only game", sender)
        if mine:
            return Route(None, "ambiguous", sender, sorted(e.name for e in mine))
        return Route(None, "stranger", sender)

    def member(self, entry: GameEntry, sender: str, how: str, raw: bytes | Oversize) -> Route:
        if sender in entry.addresses:
            return Route(entry.folder, how, sender)
        if entry.joins and not isinstance(raw, Oversize):
            return Route(entry.folder, "join", sender)     # the game's door decides (mail.joining)
        return Route(None, "stranger", sender)


def decoded(subject: str) -> str:
    from adjudicator.mail.mailread import subject_text
    return subject_text(subject)


def body_lines(raw: bytes) -> list[str] | None:
    """The body's first lines, for a plain single-part mail without parsing the
    MIME structure; else the plain part as the full reader finds it."""
    from adjudicator.mail.gate import plain_body
    text = plain_body(raw)
    if text is None:
        from adjudicator.mail.mailread import decode, message_key
        try:
            text = decode(raw, message_key(raw)).body
        except Exception:  # noqa: BLE001 - a mail that cannot be read routes by its headers alone
            return None
    if text is None:
        return None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", LINES_READ)[:LINES_READ]
    return [line for line in lines if not line.lstrip().startswith(">")]


def entry_of(folder: str, meta: dict[str, Any]) -> GameEntry:
    """A game's routing facts from its game.yaml."""
    addresses = {str(p.get("email") or "").lower() for p in meta.get("players") or []
                 if isinstance(p, dict) and p.get("email")}
    contact = str(meta.get("gm_contact") or "").lower()
    if contact:
        addresses.add(contact)
    return GameEntry(folder, str(meta.get("name") or folder), frozenset(addresses), isinstance(meta.get("signup"), dict))
