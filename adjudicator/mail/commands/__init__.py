"""Player commands by mail, one a line, case-insensitive, each answered in
the reply (docs/mail.md is the players' guide):

    orders                  the set the judge holds for you now, and what it lacks (commands.orders)
    status                  the phase, the deadline, who is in (commands.status)
    history [PHASE]         a past public report again, with its map (commands.history)
    press to France, Italy: ... endpress      press, as the game allows (commands.press)
    broadcast: ... endpress                   press to every power
    absence FROM TO         no deadline while you are away (commands.absence)
    resign                  leave the game (commands.resign)
    help                    what you may send

`wait`, `ready` and `clear` are the order set's (folder.orderset), `vote` the
game end's, `new password:` the password's. The GM, mailing from game.yaml's
`gm_contact` with the GM password, has the commands of commands.gm.

A mail is read for them before its orders: `read` takes the command lines
and press blocks out (quoted text and what follows a signature never count),
leaving the orders text with those lines blank, so line numbers hold. A line
that is nearly a command ('statsu') or a judge's word this one does not have
('list', 'signon') is not taken for an order: it gets one line saying what
may be sent. `game: NAME` lines are the host's (they route the mail) and are
taken out too."""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from importlib import import_module

from adjudicator.mail.commands.base import (
    Asked,
    Command,
    PressBlock,
    Refused,
    Said,
    allowed,
)
from adjudicator.mail.intake import Context, Rejected, Verdict
from adjudicator.mail.mailread import CUT_RE, Body, Letter, one_line

PRESS_HEAD = re.compile(r"^\s*press\s+to\s+(.+?)\s*:\s*(.*?)\s*$", re.IGNORECASE)
BROADCAST_HEAD = re.compile(r"^\s*broadcast\s*:\s*(.*?)\s*$", re.IGNORECASE)
END_PRESS = "endpress"
GAME_LINE = re.compile(r"^\s*game\s*:\s*\S.*$", re.IGNORECASE)
# word: (module, how many words may follow: (least, most))
PLAYER_COMMANDS: dict[str, tuple[str, tuple[int, int]]] = {
    "orders": ("orders", (0, 0)), "status": ("status", (0, 0)), "history": ("history", (0, 4)),
    "absence": ("absence", (0, 4)), "resign": ("resign", (0, 0)), "help": ("", (0, 0)),
    "join": ("", (1, 1)),
}
GM_COMMANDS: dict[str, tuple[str, tuple[int, int]]] = {
    "pause": ("gm", (0, 0)), "resume": ("gm", (0, 0)), "extend": ("gm", (0, 2)), "process": ("gm", (0, 0)),
    "approve": ("gm", (0, 2)), "refuse": ("gm", (0, 2)),
}
# Other judges' words, which a player may try: answered with what this judge has.
OTHER_WORDS = {"list", "signon", "signoff", "set", "get", "summary", "who", "whois", "create", "press",
               "broadcast", "unpause", "info"}
MAX_ITEMS = 10                     # commands and press blocks answered from one mail
MAX_PRESS_LINES = 200


def read(body: str, is_content: Callable[[str], bool]) -> Said:
    """The commands and press of a mail's body, and the body without them.
    `is_content` says when a line is the game's own (an order, a YAML line):
    such a line is never taken for a mistyped command."""
    lines = body.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out = list(lines)
    said = Said()
    cut = False
    number = 0
    while number < len(lines):
        line = lines[number]
        stripped = line.strip()
        number += 1
        if cut or not stripped or stripped.startswith(">"):
            continue
        if CUT_RE.match(line):
            cut = True
            continue
        head = PRESS_HEAD.match(line)
        broadcast = BROADCAST_HEAD.match(line) if head is None else None
        if head is not None or broadcast is not None:
            number = take_press(lines, out, number, head, broadcast, said)
            continue
        if GAME_LINE.match(line):
            out[number - 1] = ""
            continue
        words = stripped.split()
        word = words[0].lower()
        known = PLAYER_COMMANDS.get(word) or GM_COMMANDS.get(word)
        if known is not None and known[1][0] <= len(words) - 1 <= known[1][1]:
            said.items.append(Command(word, tuple(words[1:]), number))
            out[number - 1] = ""
        elif len(words) <= 3 and not is_content(stripped) and (word in OTHER_WORDS or near_command(word)):
            said.problems.append(f"line {number}: {one_line(stripped, 40)!r} is not a command here"
                                 + hint(word))
            out[number - 1] = ""
    said.rest = "\n".join(out)
    return said


def take_press(lines: list[str], out: list[str], number: int, head: re.Match[str] | None,
               broadcast: re.Match[str] | None, said: Said) -> int:
    """The press block that starts at line `number` (1-based); the line after it."""
    start = number
    first = (head.group(2) if head is not None else broadcast.group(1) if broadcast is not None else "").strip()
    text = [first] if first else []
    while number < len(lines) and lines[number].strip().lower() != END_PRESS:
        text.append(lines[number])
        number += 1
    for blank in range(start - 1, min(number + 1, len(lines))):
        out[blank] = ""
    if number >= len(lines):
        said.problems.append(f"line {start}: the press has no line '{END_PRESS}' after its text, so it was not "
                             f"sent (and the lines after it were not read as orders); end it with '{END_PRESS}'")
        return number
    to = tuple(n.strip() for n in re.split(r"[,;]|\band\b", head.group(1)) if n.strip()) if head else None
    said.items.append(PressBlock(to, "\n".join(text[:MAX_PRESS_LINES]).strip("\n"), start))
    return number + 1


def content_test(ctx: Context) -> Callable[[str], bool]:
    """When a line is the game's own (an order, a line of a YAML choice), never a mistyped command."""
    variant = getattr(ctx, "variant", None)
    if variant is None:
        return lambda line: ":" in line or line.startswith(" ")
    from adjudicator.mail.playerlines import is_order_line
    first = next(iter(variant.powers))
    return lambda line: is_order_line(line, variant, first)


def read_mail(ctx: Context, body: str) -> Said:
    return read(body, content_test(ctx))


def near_command(word: str) -> bool:
    words = [*PLAYER_COMMANDS, *GM_COMMANDS]
    return len(word) >= 4 and any(SequenceMatcher(None, word, w).ratio() >= 0.8 for w in words if w != word)


def hint(word: str) -> str:
    words = [*PLAYER_COMMANDS, *GM_COMMANDS]
    best = max(words, key=lambda w: SequenceMatcher(None, word, w).ratio())
    if SequenceMatcher(None, word, best).ratio() >= 0.8:
        return f" (did you mean '{best}'?)"
    return {"list": " (this judge has 'orders' and 'status')", "press": " (write 'press to POWER, POWER:')",
            "broadcast": " (write 'broadcast:' on a line of its own)", "unpause": " (the GM's word is 'resume')",
            "signon": " (mail from your own address with your password line)"}.get(word, "")


def is_gm(ctx: Context, letter: Letter) -> bool:
    return bool((ctx.players.get(letter.sender.lower()) or {}).get("gm"))


def wanted(ctx: Context, letter: Letter, seat: str, said: Said) -> bool:
    """True if the mail is the commands' to answer: it has commands or press,
    it is the GM's, or it replies to a press mail (then its text is press)."""
    if is_gm(ctx, letter) or said:
        return True
    from adjudicator.mail.commands.press import reply_press
    said.reply_press = reply_press(ctx, letter, seat)
    return said.reply_press is not None


def answer(ctx: Context, letter: Letter, seat: str, said: Said, body: Body, verdict: Verdict) -> None:
    """Answer each command and press block in the reply; a player's orders in
    the same mail are taken first (so `orders` and `status` see them)."""
    gm = is_gm(ctx, letter)
    asked = Asked(ctx, letter, seat, verdict, tuple(s for s in (body.password, body.new_password) if s))
    parts: list[str] = []
    if said.reply_press is not None:
        body.text = ""                 # a reply to press is press: its lines were never orders
        said.items.insert(0, said.reply_press)
    if gm:
        parts += gm_leftovers(body, verdict)
    elif body.text.strip():
        ctx.decide(letter, seat, body, verdict)
    parts += said.problems
    for item in said.items[:MAX_ITEMS]:
        parts.append(answer_one(asked, item, gm))
    if len(said.items) > MAX_ITEMS:
        parts.append(f"Only the first {MAX_ITEMS} commands of a mail are answered; send the rest again.")
    if said.problems:
        parts.append(sentence(allowed(ctx, gm)) + ".")
    verdict.body += ("\n" if verdict.body else "") + "\n\n".join(p.rstrip("\n") for p in parts) + "\n"
    verdict.answered = True


def answer_one(asked: Asked, item: Command | PressBlock, gm: bool) -> str:
    try:
        if isinstance(item, PressBlock):
            from adjudicator.mail.commands.press import send_press
            return send_press(asked, item, gm)
        if item.word in GM_COMMANDS and not gm:
            raise Refused(f"'{item.word}' is the GM's command; {allowed(asked.ctx, False)}")
        if item.word == "help":
            return sentence(allowed(asked.ctx, gm)) + ". docs/mail.md has an example of each."
        if item.word == "join":
            raise Refused("you already play in this game")
        module = (GM_COMMANDS if gm and item.word in GM_COMMANDS else PLAYER_COMMANDS)[item.word][0]
        if gm and item.word not in GM_COMMANDS and item.word not in ("status", "history"):
            raise Refused(f"'{item.word}' is a player's command; {allowed(asked.ctx, True)}")
        run: Callable[[Asked, Command], str] = import_module(f"adjudicator.mail.commands.{module}").run
        return run(asked, item)
    except Refused as exc:
        return f"line {item.line}: {item.word if isinstance(item, Command) else 'press'}: {exc}"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def gm_leftovers(body: Body, verdict: Verdict) -> list[str]:
    """A GM's mail holds commands only: any other line is said to be none, and
    the GM's password is not changed by mail."""
    parts = [f"line {number}: {one_line(line, 40)!r} is not a GM command"
             for number, line in enumerate(body.text.split("\n"), start=1) if line.strip()]
    if verdict.new_password is not None:
        verdict.new_password = None
        parts.append("The GM's password is changed with 'adjudicator gm-password GAME', not by mail.")
    return parts


__all__ = ["Asked", "Command", "PressBlock", "Refused", "Rejected", "Said", "answer", "read", "read_mail", "wanted"]
