"""The lines of a player's mail that are the game's own: a key of the game's
choice (`action: pass`, Ambition's `secret: true`), a Diplomacy order, a vote,
or one of the order-set words (`clear`, `replace`, `ready`, `wait`). Such a
line is never taken for a misspelt password, however it reads: only a line
that is none of these and looks like a password ('pasword: ...', 'pw = ...',
'my password is ...') is dropped, and a mail that lost a line that way is
refused whole (`refuse_dropped_lines`): storing the rest would store a part
of what the player meant, such as an open alliance where they asked for a
secret one.

For a YAML line only its keys count: the value is the player's data (`action:
pass`). A key that looks like a password word is still the game's when the
game's choices use it (TurnGame.choice_keys) or it names a player."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError
from adjudicator.folder.orderset import SET_WORDS
from adjudicator.mail.intake import Rejected
from adjudicator.mail.mailread import Body, is_password_like
from adjudicator.store import storage

MAX_KEYS = 50                     # values looked at on one line


def mapping_keys(data: object, limit: int = MAX_KEYS) -> set[str]:
    """Every mapping key in the data, lower-case, bounded."""
    keys: set[str] = set()
    todo = [data]
    looked = 0
    while todo and looked < limit:
        item = todo.pop()
        looked += 1
        if isinstance(item, dict):
            keys.update(str(k).lower() for k in item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return keys


def line_keys(line: str) -> set[str] | None:
    """The mapping keys of one line read as YAML ('key: value', '- key: value',
    'name: {key: value}'), lower-case; None if the line is not a mapping."""
    text = line.strip().removeprefix("- ")
    if ":" not in text:
        return None
    try:
        data = storage.parse_yaml(text, "the line")
    except (AdjudicatorError, ValueError, TypeError):
        return None
    return mapping_keys(data) if isinstance(data, dict) else None


def is_choice_line(line: str, choice_keys: Collection[str], seats: Collection[str]) -> bool:
    """A YAML line whose every key is the game's (a choice key, a player's
    name) or no password word; its values do not count."""
    keys = line_keys(line)
    if keys is None:
        return False
    own = {k.lower() for k in choice_keys} | {s.lower() for s in seats}
    return all(key in own or not is_password_like(f"{key}:") for key in keys)


def is_set_word(line: str) -> bool:
    return line.strip().lower() in SET_WORDS


def is_order_line(line: str, variant: Variant, power: str) -> bool:
    """An order that the parser reads without an error, a vote, or an order-set word."""
    from adjudicator.diplomacy.parser import parser_for
    words = line.split()
    if not words or is_set_word(line) or words[0].lower() == "vote":
        return bool(words)
    parsed = parser_for(variant).parse_text(line, power)
    return len(parsed) == 1 and parsed[0].order is not None and parsed[0].error is None


def refuse_dropped_lines(body: Body) -> None:
    """A mail from which a password-like line was dropped stores nothing."""
    if body.password_like:
        numbers = ", ".join(str(n) for n in body.password_like)
        raise Rejected(f"line{'s' if len(body.password_like) > 1 else ''} {numbers} looked like a password "
                       "written another way, so it was left out, not shown and not stored; rather than store "
                       "the rest of your message without it, nothing was stored. Put your password on one "
                       "line 'password: ...' and send the message again without the other line")

