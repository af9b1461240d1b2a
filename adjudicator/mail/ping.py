"""`ping`: a player who wants to know whether the judge is up mails "ping"
(as the Subject, or as the only line of the body) and gets a short answer
naming the game, the phase and the deadline. No password is needed (the
answer says nothing secret), and the answer counts against the reply cap."""

from __future__ import annotations

from typing import Any

from adjudicator.mail.mailread import Letter

WORD = "ping"


def is_ping(letter: Letter) -> bool:
    return is_ping_text(letter.subject, letter.body or "")


def is_ping_text(subject: str, body: str) -> bool:
    """The Subject is "ping", or the body's first line is, alone or before a signature.
    Only the first lines are looked at: a long body costs nothing here."""
    if subject.strip().lower() == WORD:
        return True
    lines = []
    for line in body.split("\n", 40)[:40]:
        if line.strip() and not line.lstrip().startswith(">"):
            lines.append(line.strip())
            if len(lines) == 2:
                break
    return bool(lines) and lines[0].lower() == WORD and (len(lines) == 1 or lines[1].startswith("--"))


def answer(game: str, phase: str, meta: dict[str, Any]) -> str:
    deadline = meta.get("deadline")
    due = f"Orders are due by {deadline}." if deadline else "No deadline is set."
    return f"pong: the judge for {game} is up. The game is at {phase}. {due}\n"
