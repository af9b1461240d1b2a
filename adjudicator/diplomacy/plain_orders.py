"""The parser's fast path: the common plain line ('A par - bur', 'F nth C
A lon - nwy', 'A mun S A ber - sil') read with dictionary lookups alone,
giving exactly what the full reading (adjudicator.diplomacy.order_reader)
would give. Any doubt, and it gives the line up (None) to the full reading."""

from __future__ import annotations

from adjudicator.diplomacy.mapgraph import NameIndex
from adjudicator.diplomacy.order_types.reading import (
    COAST_STARTS,
    COAST_WORDS,
    CONVOY_WORDS,
    HOLD_WORDS,
    MOVE_WORDS,
    SUPPORT_WORDS,
    UNIT_WORDS,
)
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    SupportHold,
    SupportMove,
)

# The words the fast path accepts right after a location: anything else makes it give the line up.
PLAIN_AFTER_LOCATION = frozenset(HOLD_WORDS | MOVE_WORDS | SUPPORT_WORDS | CONVOY_WORDS)


class PlainOrders:
    """A map's plain lines, read by its name tables (MapGraph.names).
    `power_heads` are the first words of powers' names of several words: a
    plain line starting with one might be a heading ('A B' could be a
    power), so it takes the full reading."""

    def __init__(self, names: NameIndex, power_heads: set[str]) -> None:
        self.names = names
        self.power_heads = power_heads
        # One-word locations: names, ids and aliases, and coast ids ('spa/nc')
        # that read as that province and coast.
        self.plain: dict[str, str] = names.one_word
        self.plain_coasts: dict[str, str] = {}
        for coast in names.coast_ids:
            province, _, code = coast.partition("/")
            if self.plain.get(province) == province and COAST_WORDS.get(code) == code:
                self.plain_coasts[coast] = coast
        # The order words that may follow a location in a plain line and could
        # also go on with it: continue a name of several words, or start a
        # coast ('s c'). A location followed by one of these is read with
        # location()'s care; any other is read by its word alone.
        continuations = set(COAST_STARTS).union(*names.next_words.values())
        self.careful_after = frozenset(continuations & PLAIN_AFTER_LOCATION)

    def location(self, words: list[str], i: int) -> str | None:
        """words[i] as a location, if it is one word the full parser reads as
        exactly that: a one-word name, id or alias, or a coast id ('spa/nc').
        None if the next words could make it a longer name or add a coast.
        The fast path only accepts order words after a location, and after an
        order word a name never continues with the spaces taken out."""
        word = words[i]
        location = self.plain.get(word)
        if location is None:
            return self.plain_coasts.get(word)
        if i + 1 < len(words):
            nxt = words[i + 1]
            if nxt in self.names.next_words.get(word, ()):
                return None
            if nxt in COAST_STARTS and i + 2 < len(words) and f"{nxt} {words[i + 2]}" in COAST_WORDS:
                return None
        return location

    def hyphens(self, words: list[str]) -> list[str]:
        """'nth-pic' -> 'nth', '-', 'pic', as tokenise splits it; a hyphenated
        name stays whole. [] if a word holds anything but letters, digits and
        hyphens (tokenise would treat it otherwise)."""
        out: list[str] = []
        for raw in words:
            if raw == "-" or "-" not in raw or raw in MOVE_WORDS:
                out.append(raw)
            elif not (raw.isascii() and raw.replace("-", "").isalnum()):
                return []
            elif self.names.normalise(raw) in self.names.word_prefixes:
                out.append(raw)
            else:
                for i, part in enumerate(raw.split("-")):
                    if i:
                        out.append("-")
                    if part:
                        out.append(part)
        return out

    def read(self, text: str, power: str) -> AnyOrder | None:
        """The common plain line, read with dictionary lookups alone: 'A par',
        'A par H', 'A par - bur', 'A mun S A ber', 'A mun S A ber - sil',
        'F nth C A lon - nwy'. Each word is read exactly as the full parser
        reads it; anything else (and any doubt, such as a line that could be
        a power's name) returns None, and the full parser reads the line."""
        words = text.lower().split()
        if "-" in text and text.count("-") != words.count("-"):
            # Some hyphen is inside a word ('nth-pic', '->'); each one standing
            # alone as '-' would leave the words as they are.
            words = self.hyphens(words)
            if not words:
                return None
        n = len(words)
        if n < 2 or n > 7:
            return None
        unit_type = UNIT_WORDS.get(words[0])
        if unit_type is None or words[0] in self.power_heads:
            return None
        plain, plain_coasts, careful = self.plain, self.plain_coasts, self.careful_after
        # A location is its word alone when it ends the line or no order word
        # that could go on with it follows (the common case, without a call).
        location = plain.get(words[1]) if n == 2 or words[2] not in careful else None
        if location is None:
            location = self.location(words, 1)
            if location is None:
                return None
        if n == 2:
            return Hold(power, unit_type, location)
        word = words[2]
        if word in HOLD_WORDS:
            return Hold(power, unit_type, location) if n == 3 else None
        if word in MOVE_WORDS:
            if n != 4:
                return None
            dest = plain.get(words[3]) or plain_coasts.get(words[3])
            return Move(power, unit_type, location, dest) if dest is not None else None
        support = word in SUPPORT_WORDS
        if not support and word not in CONVOY_WORDS or n < 4:
            return None
        i = 4 if words[3] in UNIT_WORDS else 3
        if i >= n:
            return None
        target = plain.get(words[i]) if n == i + 1 or words[i + 1] not in careful else None
        if target is None:
            target = self.location(words, i)
            if target is None:
                return None
        if support and (n == i + 1 or (n == i + 2 and words[i + 1] in HOLD_WORDS)):
            return SupportHold(power, unit_type, location, UNIT_WORDS[words[3]] if i == 4 else None, target)
        if n != i + 3 or words[i + 1] not in MOVE_WORDS:
            return None
        dest = plain.get(words[i + 2]) or plain_coasts.get(words[i + 2])
        if dest is None:
            return None
        if support:
            return SupportMove(power, unit_type, location, UNIT_WORDS[words[3]] if i == 4 else None, target, dest)
        return Convoy(power, unit_type, location, target, dest)
