"""The parser's fast path: the common plain line read with dictionary
lookups alone, giving exactly what the full reading
(adjudicator.diplomacy.order_reader) would give: 'A par', 'A par H',
'A par - bur', 'F nth-pic', 'A mun S A ber', 'A mun S A ber - sil',
'F nth C A lon - nwy', and the same with full names of one word or several
in any case ('F North Sea C A London - Norway') and coasts as ids or in
brackets ('F spa/sc - wes', 'F Spain (South Coast) - Western
Mediterranean'). Any doubt, and it gives the line up (None) to the full
reading."""

from __future__ import annotations

from adjudicator.diplomacy.mapgraph import NameIndex
from adjudicator.diplomacy.order_types.reading import (
    COAST_STARTS,
    COAST_WORDS,
    CONVOY_WORDS,
    HOLD_WORDS,
    MOVE_WORDS,
    SHORT_COASTS,
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
# A coast in brackets after a name ('Spain (South Coast)'), as brackets() writes it.
BRACKETED_COASTS = {f"({code})": code for code in ("nc", "sc", "ec", "wc")}
MAX_WORDS = 16                  # a plain line's words at the most: three names of several words and the order's
SPLIT_CACHE = 8192              # words with a hyphen kept split before the cache starts over


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
        self.careful_after = frozenset(continuations & PLAIN_AFTER_LOCATION | set(BRACKETED_COASTS))
        self.coasts = frozenset(names.coast_ids)
        # Each word with a hyphen inside, as hyphens() splits it: most lines
        # repeat a few ('bud-gal').
        self._split: dict[str, tuple[str, ...] | None] = {}
        # Names of several words ('north sea', 'gulf of lyon', 'mid-atlantic
        # ocean'), by their words as a line's words give them, with the
        # name's normalised key: read when the words that follow cannot go on
        # with it.
        self.several: dict[str, tuple[str, str]] = {}
        for key, province in names.exact.items():
            if " " not in key:
                continue
            for spelling in {key, *(n.lower() for n in names.spellings.get(key, ()))}:
                words = self.hyphens(spelling.split())
                if words and names.normalise(" ".join(words)) == key:
                    self.several[" ".join(words)] = (province, key)
        self.longest = max((len(words.split()) for words in self.several), default=1)
        # Their first word -> the words that come second in one of them.
        self.second_words: dict[str, set[str]] = {}
        for spelled in self.several:
            first, _, rest = spelled.partition(" ")
            if rest:
                self.second_words.setdefault(first, set()).add(rest.split()[0])
        # The words that are a location by themselves and start no name of
        # several words: most words of most lines, read by one lookup when no
        # order word that could go on with a name follows. Any other is read
        # by place().
        single = {**self.plain, **self.plain_coasts,
                  **{spelled: found[0] for spelled, found in self.several.items() if " " not in spelled}}
        self.simple = {w: loc for w, loc in single.items() if w not in self.second_words}
        self.single = single

    def place(self, words: list[str], i: int) -> tuple[str | None, int]:
        """The location that starts at words[i], and the index after it, if
        the words there are one the full parser reads as exactly that: a
        name of several words, or one word (a name, id or alias, or a coast
        id such as 'spa/nc'); (None, 0) if there is none, or any doubt: the
        next words could make it a longer name or add a coast. The fast
        path only accepts order words after a location, and after an order
        word a name never continues with the spaces taken out."""
        n = len(words)
        if i >= n:
            return None, 0
        word = words[i]
        if i + 1 < n and words[i + 1] in self.second_words.get(word, ()):
            for k in range(min(self.longest, n - i), 1, -1):
                found = self.several.get(" ".join(words[i:i + k]))
                if found is not None:
                    province, key = found
                    end = i + k
                    if end < n:
                        if words[end] in self.names.next_words.get(key, ()) or self.coast_follows(words, end):
                            return None, 0
                        if words[end] in BRACKETED_COASTS:
                            return self.coast_of(province, words[end], end)
                    return province, end
        location = self.single.get(word)
        if location is None:
            return None, 0
        if i + 1 < n:
            nxt = words[i + 1]
            if nxt in self.names.next_words.get(word, ()):
                return None, 0
            if nxt in COAST_STARTS and i + 2 < n and f"{nxt} {words[i + 2]}" in COAST_WORDS:
                return None, 0
            if nxt in BRACKETED_COASTS:
                return self.coast_of(location, nxt, i + 1)
        return location, i + 1

    def coast_of(self, province: str, bracketed: str, i: int) -> tuple[str | None, int]:
        """A province and the coast in brackets after it (words[i]), if that
        coast is one of the province's; else (None, 0): the full parser says why."""
        location = f"{province}/{BRACKETED_COASTS[bracketed]}"
        return (location, i + 1) if location in self.coasts else (None, 0)

    def brackets(self, words: list[str]) -> list[str]:
        """The words with each coast in brackets ('(south', 'coast)', '(sc)')
        made one word ('(sc)'); [] if a bracket holds anything else, or
        any doubt: the full parser reads the line."""
        out: list[str] = []
        i, n = 0, len(words)
        while i < n:
            word = words[i]
            if "(" not in word and ")" not in word:
                out.append(word)
                i += 1
                continue
            end = i
            while not words[end].endswith(")"):
                end += 1
                if end >= n or end - i > 1:
                    return []
            inside = " ".join(words[i:end + 1])
            if not inside.startswith("(") or inside.count("(") != 1 or inside.count(")") != 1:
                return []
            phrase = self.names.normalise(inside[1:-1])
            code = COAST_WORDS.get(phrase) or SHORT_COASTS.get(phrase)
            if code is None:
                return []
            out.append(f"({code})")
            i = end + 1
        return out

    def coast_follows(self, words: list[str], i: int) -> bool:
        """Do words[i:] start with a coast phrase of two words ('s c', 'north coast')?"""
        return words[i] in COAST_STARTS and i + 1 < len(words) and f"{words[i]} {words[i + 1]}" in COAST_WORDS

    def hyphens(self, words: list[str]) -> list[str]:
        """'nth-pic' -> 'nth', '-', 'pic', as tokenise splits it; a hyphenated
        name stays whole. [] if a word holds anything but letters, digits and
        hyphens (tokenise would treat it otherwise)."""
        out: list[str] = []
        for raw in words:
            if raw == "-" or "-" not in raw or raw in MOVE_WORDS:
                out.append(raw)
                continue
            parts = self._split.get(raw, ())
            if parts == ():
                parts = self._split_word(raw)
            if parts is None:
                return []
            out.extend(parts)
        return out

    def _split_word(self, raw: str) -> tuple[str, ...] | None:
        """One word with a hyphen inside, split as tokenise splits it, remembered.
        A coast id stays one word, as the fast path reads it alone: 'por-spa/sc'
        -> 'por', '-', 'spa/sc' (tokenise: 'por', '-', 'spa', '/', 'sc')."""
        if len(self._split) >= SPLIT_CACHE:
            self._split.clear()
        parts: tuple[str, ...] | None = None
        if raw.isascii() and raw.replace("-", "").replace("/", "").isalnum():
            pieces: list[str] = []
            for i, chunk in enumerate(raw.split("/")):
                words = self._split_hyphens(chunk)
                if i:
                    # After a slash: the province before it and the coast after it make one coast id.
                    coast = f"{pieces.pop()}/{words[0]}" if pieces and words else ""
                    if coast not in self.plain_coasts:
                        pieces = []
                        break
                    words[0] = coast
                pieces.extend(words)
            parts = tuple(pieces) or None
        self._split[raw] = parts
        return parts

    def _split_hyphens(self, chunk: str) -> list[str]:
        """A word without '/' split at its hyphens, unless it is a hyphenated name ('mid-atlantic')."""
        if "-" not in chunk or self.names.normalise(chunk) in self.names.word_prefixes:
            return [chunk] if chunk else []
        pieces: list[str] = []
        for i, part in enumerate(chunk.split("-")):
            if i:
                pieces.append("-")
            if part:
                pieces.append(part)
        return pieces

    def read(self, text: str, power: str) -> AnyOrder | None:
        """A plain line's order, each word read as the full parser reads it;
        None for anything else, or any doubt (a line that could start with a power's name)."""
        words = text.lower().split()
        if "-" in text and text.count("-") != words.count("-"):
            words = self.hyphens(words)         # a hyphen inside a word: 'nth-pic', '->'
        if "(" in text and words:
            words = self.brackets(words)        # a coast in brackets: 'Spain (South Coast)'
        n = len(words)
        if n < 2 or n > MAX_WORDS:
            return None
        unit_type = UNIT_WORDS.get(words[0])
        if unit_type is None or words[0] in self.power_heads:
            return None
        # Each location: one lookup for a word that is one by itself and that
        # no word of a longer name follows (or that ends the line), else place().
        simple, careful = self.simple, self.careful_after
        location = simple.get(words[1])
        if location is not None and (n == 2 or words[2] not in careful):
            i = 2
        else:
            location, i = self.place(words, 1)
            if location is None:
                return None
        if i == n:
            return Hold(power, unit_type, location)
        word = words[i]
        if word in HOLD_WORDS:
            return Hold(power, unit_type, location) if i + 1 == n else None
        if word in MOVE_WORDS:
            dest = simple.get(words[i + 1]) if i + 2 == n else None
            if dest is None:
                dest, end = self.place(words, i + 1)
                if end != n:
                    return None
            return Move(power, unit_type, location, dest) if dest is not None else None
        support = word in SUPPORT_WORDS
        if not support and word not in CONVOY_WORDS or i + 2 > n:
            return None
        target_type = UNIT_WORDS.get(words[i + 1])
        i += 2 if target_type is not None else 1
        target = simple.get(words[i]) if i < n else None
        if target is not None and (i + 1 == n or words[i + 1] not in careful):
            i += 1
        else:
            target, i = self.place(words, i)
            if target is None:
                return None
        if support and (i == n or (i + 1 == n and words[i] in HOLD_WORDS)):
            return SupportHold(power, unit_type, location, target_type, target)
        if i + 1 >= n or words[i] not in MOVE_WORDS:
            return None
        dest = simple.get(words[i + 1]) if i + 2 == n else None
        if dest is None:
            dest, end = self.place(words, i + 1)
            if dest is None or end != n:
                return None
        if support:
            return SupportMove(power, unit_type, location, target_type, target, dest)
        return Convoy(power, unit_type, location, target, dest)
