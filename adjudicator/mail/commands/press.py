"""Press by mail, as the game's `press:` setting allows (folder.gameoptions):

    press to France, Italy:          to those powers (a card game: those players); 'gm' is the GM
    Shall we talk about Burgundy?
    endpress

    broadcast:                       to every power
    ...
    endpress

white press names the sending power; grey press goes out without it;
broadcast-only takes only `broadcast:`; none takes none. Press to the GM
alone is always allowed, and the GM's own press is signed "the GM". A player
who replies to a press mail they got (or sent) sends press back to the same
recipients: the reply's own lines, without quoted text, signature or
password, are the press. At most MAX_PRESS_CHARS a press and MAX_PER_DAY a
sender a day (UTC). The mails go out from the judge (mail.pressmail)."""

from __future__ import annotations

from adjudicator.folder.gameoptions import is_anonymous, press_mode
from adjudicator.folder.players import is_address
from adjudicator.mail import pressmail
from adjudicator.mail.commands.base import Asked, PressBlock, Refused, seat_label
from adjudicator.mail.intake import Context
from adjudicator.mail.mailread import (
    CUT_RE,
    NEW_PASSWORD_RE,
    PASSWORD_RE,
    PHASE_RE,
    WROTE_RE,
    Letter,
    is_password_like,
)

MAX_PRESS_CHARS = 10_000
MAX_PER_DAY = 30
EVERYONE = {"all", "everyone", "everybody", "every power", "all powers"}
GM_WORDS = {"gm", "the gm", "master", "the master"}


def recipients_of(ctx: Context, sender: str) -> dict[str, pressmail.Recipient]:
    """Everyone press may reach in this game (players with an address, and the
    GM's own address), by seat, the sender left out."""
    found = {}
    for entry in ctx.players.values():
        seat = str(entry.get("power") or "")
        address = str(entry.get("email") or "")
        if not seat or seat == sender or not is_address(address):
            continue
        if entry.get("gm"):
            found[pressmail.GM_SEAT] = pressmail.Recipient(pressmail.GM_SEAT, "the GM", "GM", address)
        else:
            name = str(entry.get("name") or seat)
            found[seat] = pressmail.Recipient(seat, seat_label(ctx, seat), name, address)
    contact = str(ctx.meta.get("gm_contact") or "")
    if pressmail.GM_SEAT not in found and sender != pressmail.GM_SEAT and is_address(contact):
        found[pressmail.GM_SEAT] = pressmail.Recipient(pressmail.GM_SEAT, "the GM", "GM", contact)
    return found


def seat_named(ctx: Context, name: str) -> str | None:
    text = name.strip().lower()
    if text in GM_WORDS:
        return pressmail.GM_SEAT
    variant = getattr(ctx, "variant", None)
    if variant is not None:
        power = variant.power_lookup(text)
        return str(power) if power is not None else None
    seats = {str(e.get("power") or "").lower(): str(e.get("power")) for e in ctx.players.values()}
    return seats.get(text)


def send_press(asked: Asked, block: PressBlock, gm: bool) -> str:
    ctx = asked.ctx
    mode = press_mode(ctx.meta)
    reach = recipients_of(ctx, asked.seat)
    broadcast = block.to is None or any(n.strip().lower() in EVERYONE for n in block.to)
    if broadcast:
        wanted = [seat for seat in reach if seat != pressmail.GM_SEAT]
    else:
        wanted = []
        for name in block.to or ():
            seat = seat_named(ctx, name)
            if seat is None:
                raise Refused(f"{name[:30]!r} is not a power of this game; write their names, e.g. "
                              f"'press to {', '.join(seat_label(ctx, s) for s in list(reach)[:2])}:'")
            if seat == asked.seat:
                continue
            if seat not in reach:
                raise Refused(f"{seat_label(ctx, seat)} has no player to read it; nothing was sent")
            if seat not in wanted:
                wanted.append(seat)
    only_gm = wanted == [pressmail.GM_SEAT]
    if not gm and not only_gm:
        if mode == "none":
            raise Refused("this game allows no press (press to the GM only: 'press to gm:')")
        if mode == "broadcast-only" and not broadcast:
            raise Refused("this game allows only broadcast press ('broadcast:' ... 'endpress'), or press to the GM")
    if not wanted:
        raise Refused("there is nobody to send it to")
    text = asked.masked(block.text).strip("\n")
    if not text.strip():
        raise Refused("the press has no text")
    if len(text) > MAX_PRESS_CHARS:
        raise Refused(f"the press is {len(text)} characters; at most {MAX_PRESS_CHARS}")
    if pressmail.sent_today(ctx.folder, asked.seat, ctx.now) >= MAX_PER_DAY:
        raise Refused(f"you have sent {MAX_PER_DAY} press today, as many as a day allows; nothing was sent")
    grey = not gm and not only_gm and mode == "grey"
    # An answer to grey press goes to its sender too: naming its recipients would name that sender.
    shown = "everyone who had the press it answers, and its sender" if grey and block.reply_of is not None \
        and not broadcast else None
    press = pressmail.Press(asked.seat, "the GM" if gm else seat_label(ctx, asked.seat),
                            [reach[seat] for seat in wanted], broadcast, grey, text, ctx.phase,
                            f"{asked.letter.key}\0{block.line}", block.reply_of, shown)
    asked.verdict.effects.append(lambda: sent(asked, press))
    to = shown or ("every power" if broadcast else ", ".join(r.label for r in press.to))
    how = " without your power's name (grey press)" if grey else \
        "" if gm else f", signed {press.sender_label}" + (" (your name and address are never shown)"
                                                          if is_anonymous(ctx.meta) else "")
    return f"Your press goes to {to}{how}."


def sent(asked: Asked, press: pressmail.Press) -> None:
    ctx = asked.ctx
    pressmail.send(ctx.folder, ctx.meta, ctx.game, press, ctx.now)


def reply_press(ctx: Context, letter: Letter, seat: str) -> PressBlock | None:
    """A mail that replies to a press mail its sender got (or sent), and says
    nothing else the judge reads: its text is press to the same recipients."""
    if not letter.references or letter.body is None or press_mode(ctx.meta) == "none" and seat != "gm":
        return None
    index = pressmail.read_index(ctx.folder)
    number = next((index[i] for i in reversed(letter.references) if i in index), None)
    record = pressmail.read_record(ctx.folder, number) if number is not None else None
    if record is None:
        return None
    others = [str(s) for s in [record.get("from"), *(record.get("to") or [])]]
    if seat not in others:
        return None
    text = reply_text(letter.body)
    if not text:
        return None
    to: tuple[str, ...] | None = None if record.get("broadcast") else tuple(s for s in others if s != seat)
    return PressBlock(to, text, 0, number)


def reply_text(body: str) -> str:
    """The reply's own lines: no quoted text, 'On ... wrote:', password or
    phase lines, nor anything after a signature."""
    kept: list[str] = []
    for line in body.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if CUT_RE.match(line):
            break
        if line.lstrip().startswith(">") or WROTE_RE.match(line) or PASSWORD_RE.match(line) \
                or NEW_PASSWORD_RE.match(line) or PHASE_RE.match(line) or is_password_like(line) \
                or not line.isprintable():
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")

