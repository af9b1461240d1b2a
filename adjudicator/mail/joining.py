"""Sign-up by mail: a stranger's mail that says `join GAME` to a game open
for sign-up (folder.signup) is the one stranger's mail the judge answers:

    join mygame
    password: the-password-i-choose     (10 characters or more)
    name: Alice Smith                   (optional: how the judge greets you)
    preference: France, Italy, England  (optional: the powers you would like, best first)

The sender goes on the list (a second `join` updates their entry), and the
reply says how many have joined of how many; the GM is told of each joiner
(and, where the GM approves joiners, how to approve or refuse them). When
the list is full the powers are assigned and the next run welcomes everyone.

A forged From could make the judge answer someone who never wrote, so joins
are capped: at most MAX_PER_ADDRESS answers a day to one address and
MAX_PER_GAME joins a day to one game (past them the mail is dropped unread
and unanswered), on top of the reply cap every answer counts against."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from adjudicator.mail.intake import Context, Verdict
from adjudicator.mail.mailread import CUT_RE, PASSWORD_RE, Letter
from adjudicator.store import storage

JOIN_RE = re.compile(r"^\s*join\s+(\S+)\s*$", re.IGNORECASE)
NAME_RE = re.compile(r"^\s*name\s*:\s*(\S.*?)\s*$", re.IGNORECASE)
PREFERENCE_RE = re.compile(r"^\s*(?:preferences?|prefer)\s*:\s*(\S.*?)\s*$", re.IGNORECASE)
COUNTS = "gm/signup-counts.yaml"
MAX_PER_ADDRESS = 3
MAX_PER_GAME = 100
LINES_READ = 100


def takes_joins(meta: dict[str, Any]) -> bool:
    """The game answers join mails (it was opened for sign-up, full or not)."""
    return isinstance(meta.get("signup"), dict)


def join_name(body: str) -> str | None:
    """The game a `join NAME` line names, from the body's first lines (not quoted, not after a signature)."""
    for line in body.split("\n", LINES_READ)[:LINES_READ]:
        if CUT_RE.match(line):
            return None
        found = JOIN_RE.match(line) if not line.lstrip().startswith(">") else None
        if found is not None:
            return found.group(1).strip("[]").lower()
    return None


def lines_of(body: str) -> tuple[str | None, str | None, str | None]:
    """(password, name, preference list) from the body's first lines."""
    password = name = preference = None
    for line in body.split("\n", LINES_READ)[:LINES_READ]:
        if CUT_RE.match(line):
            break
        if line.lstrip().startswith(">"):
            continue
        if password is None and (m := PASSWORD_RE.match(line)):
            password = m.group(1)
        elif name is None and (m := NAME_RE.match(line)):
            name = m.group(1)
        elif preference is None and (m := PREFERENCE_RE.match(line)):
            preference = m.group(1)
    return password, name, preference


def counted(ctx: Context, address: str, now: datetime) -> bool:
    """Count one more join answer; False past the caps (then the mail goes unanswered)."""
    path = ctx.folder / COUNTS
    data = storage.read_yaml(path) if path.exists() else {}
    day = now.strftime("%Y-%m-%d")
    kept = data.get(day) if isinstance(data, dict) else None
    today: dict[str, int] = {str(k): int(v) for k, v in kept.items()} if isinstance(kept, dict) else {}
    key = address.lower()
    if int(today.get(key, 0)) >= MAX_PER_ADDRESS or sum(today.values()) >= MAX_PER_GAME:
        return False
    today[key] = int(today.get(key, 0)) + 1
    storage.write_yaml(path, {day: today})
    return True


def door(ctx: Context, letter: Letter) -> Verdict | None:
    """The answer to a stranger's join mail, or None (a stranger's mail: no reply)."""
    meta = ctx.meta
    if not takes_joins(meta) or letter.body is None:
        return None
    named = join_name(letter.body)
    if named is None or named != ctx.game.lower() or not counted(ctx, letter.sender, ctx.now):
        return None
    password, name, preference = lines_of(letter.body)
    verdict = Verdict(None, "", answered=True)
    if password is None:
        verdict.body = (f"To join {ctx.game}, put a line 'password: ...' in your mail with the password you "
                        "choose (10 characters or more); you will need it in every mail. Nothing was stored.\n")
        verdict.reason = "a join without a password line"
        return verdict
    verdict.effects.append(lambda: join(ctx, letter, verdict, password, name, preference))
    verdict.reason = None
    return verdict


def default_name(address: str) -> str:
    local = re.sub(r"[^A-Za-z0-9.' -]", " ", address.split("@", 1)[0]).strip(" .'-")
    return " ".join(local.split())[:40] or "Player"


def join(ctx: Context, letter: Letter, verdict: Verdict, password: str, name: str | None,
         preference: str | None) -> None:
    """Put the sender on the list; the reply says what came of it (written after this)."""
    from adjudicator.folder import signup
    from adjudicator.folder.gamefolder import load_current
    from adjudicator.mail.announce import tell_gm
    from adjudicator.mail.commands.base import current_slug
    _, variant, _, _ = load_current(ctx.folder)
    try:
        wanted = signup.preference_list(variant, preference) if preference else []
        done = signup.join(ctx.folder, ctx.meta, variant, letter.sender, name or default_name(letter.sender),
                           password, wanted, ctx.now)
    except signup.SignupRefused as exc:
        verdict.body = f"Your sign-up for {ctx.game} was not taken: {exc}. Nothing was stored.\n"
        verdict.reason = f"join refused: {exc}"
        return
    config = signup.settings(ctx.meta) or {}
    approving = bool(config.get("approve"))
    entry = done.entry
    prefs = ", ".join(variant.power_name(p) for p in entry.get("preferences") or []) or "none given"
    text = [(f"{'Your sign-up is updated' if done.again else 'You have joined'} {ctx.game}, as {entry['name']} "
            f"(preferences: {prefs})."), f"{done.counted} of {done.seats} players have joined so far."]
    if approving and entry.get("state") != "approved":
        text.append("The GM approves each player; you will hear when the game starts.")
    if done.filled:
        text.append("The game is full and starts now: your welcome, with your power, follows.")
        from adjudicator.folder.folders import game_meta
        from adjudicator.folder.players import roster
        ctx.meta = game_meta(ctx.folder)
        ctx.players.update({str(p["email"]).lower(): p for p in roster(ctx.folder) if p.get("email")})
    else:
        text.append("Keep your password: every mail you send to the judge needs it.")
    verdict.body = "\n".join(text) + "\n"
    gm = [(f"{entry['name']} <{letter.sender}> {'updated their sign-up for' if done.again else 'joined'} "
          f"{ctx.game} ({done.counted} of {done.seats}).")]
    if approving and entry.get("state") != "approved":
        gm.append(f"Mail 'approve {letter.sender}' or 'refuse {letter.sender}' (or run 'adjudicator signup "
                  f"{ctx.folder.name} --approve {letter.sender}').")
    if done.filled:
        gm.append("The game is full; the powers are assigned in game.yaml, and the next run opens the first phase.")
    tell_gm(ctx.folder, current_slug(ctx), gm, stamp=f"join {letter.key}")
