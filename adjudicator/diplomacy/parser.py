"""Orders text -> order records, line by line.

Accepts full names, ids and aliases in any case; `-`, `->`, `to`, `m` for
moves; `S`/`supports`, `C`/`convoys`, `H`/`holds`; `via convoy`; coasts as
`spa/nc`, `Spain (nc)`, `spa nc`, `Spain north coast`; retreats, disbands,
builds and waives; per-power headings (`France:`) or a power prefix on each
line. `#` starts a comment.

Each order type's own form (what follows '-', 'S', 'C', 'R'..., or a line
that starts with 'build', 'disband' or 'waive') is in its module under
adjudicator.diplomacy.order_types; this module tokenises, reads names and
coasts, and picks the form by its order word (LEADING, TAILS).

Plain lines ('A par - bur', 'F nth C A lon - nwy') are read by a fast path
of dictionary lookups that gives exactly what the full parser would; every
other line goes through the tokens. The name tables belong to the map
(MapGraph.names) and the power names to the variant, so they are built once.

Every bad line is reported with its number, the reason and, for a near-miss
name, a suggestion. Errors are of three kinds: OrderSyntaxError (cannot read),
AmbiguousOrderError (cannot tell) here, and IllegalOrderError (cannot do) in
validation."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from adjudicator.diplomacy.lines import LineExtension, LineTag, ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph, NameIndex
from adjudicator.diplomacy.model import UnitType
from adjudicator.diplomacy.order_types.build import read_build, read_build_first
from adjudicator.diplomacy.order_types.convoy import read_convoy
from adjudicator.diplomacy.order_types.disband import read_disband, read_disband_first
from adjudicator.diplomacy.order_types.hold import read_hold
from adjudicator.diplomacy.order_types.move import read_move
from adjudicator.diplomacy.order_types.reading import (
    BUILD_WORDS,
    CONVOY_WORDS,
    DISBAND_WORDS,
    HOLD_WORDS,
    MOVE_WORDS,
    RETREAT_WORDS,
    SUPPORT_WORDS,
    UNIT_WORDS,
    WAIVE_WORDS,
    Reader,
    Tokens,
)
from adjudicator.diplomacy.order_types.retreat import read_retreat
from adjudicator.diplomacy.order_types.support import read_support
from adjudicator.diplomacy.order_types.waive import read_waive
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    OrderError,
    OrderSyntaxError,
)

COAST_WORDS = {
    "nc": "nc", "n c": "nc", "north": "nc", "north coast": "nc", "northern coast": "nc",
    "sc": "sc", "s c": "sc", "south": "sc", "south coast": "sc", "southern coast": "sc",
    "ec": "ec", "e c": "ec", "east": "ec", "east coast": "ec", "eastern coast": "ec",
    "wc": "wc", "w c": "wc", "west": "wc", "west coast": "wc", "western coast": "wc",
}
SHORT_COASTS = {"n": "nc", "s": "sc", "e": "ec", "w": "wc"}
ORDER_WORDS = (MOVE_WORDS | SUPPORT_WORDS | CONVOY_WORDS | HOLD_WORDS | RETREAT_WORDS | DISBAND_WORDS
               | BUILD_WORDS | WAIVE_WORDS | set(UNIT_WORDS) | {"via", "by", "vc"})

# The order types' parsing forms (adjudicator.diplomacy.order_types), by the
# word that starts them. LEADING forms start a line ('build A par', 'disband
# F tri', 'waive'); a None from one means the line is not that form. TAILS
# follow the unit ('A par - bur', 'A mun S A ber', 'A ser R alb').
LeadingForm = Callable[[Reader, Tokens, str], AnyOrder | None]
TailForm = Callable[[Reader, Tokens, str, UnitType | None, str], AnyOrder]
LEADING: dict[str, LeadingForm] = {
    **dict.fromkeys(WAIVE_WORDS, read_waive),
    **dict.fromkeys(BUILD_WORDS, read_build_first),
    **dict.fromkeys(DISBAND_WORDS, read_disband_first),
}
TAILS: dict[str, TailForm] = {
    **dict.fromkeys(HOLD_WORDS, read_hold),
    **dict.fromkeys(MOVE_WORDS, read_move),
    **dict.fromkeys(RETREAT_WORDS, read_retreat),
    **dict.fromkeys(SUPPORT_WORDS, read_support),
    **dict.fromkeys(CONVOY_WORDS, read_convoy),
    **dict.fromkeys(DISBAND_WORDS, read_disband),
    **dict.fromkeys(BUILD_WORDS, read_build),
}

# Bounds on what one orders text may cost (issue 16). A line past the length
# is an error without being parsed; a text past the line or size cap is one
# error. "Did you mean" suggestions look only at tokens of a sane length.
MAX_LINE_CHARS = 500
MAX_LINES = 2000
MAX_TEXT_CHARS = 200_000
MAX_SUGGEST_CHARS = 40
MAX_SUGGESTIONS = 25               # per text: a page of junk gets hints on its first lines only
PREFIX_MIN = 3                     # a unique prefix this long names a province ('Burgund')
BOM = "\ufeff"


def split_lines(text: str) -> list[str]:
    """Orders text -> lines, split at '\\n' and '\\r\\n' only. Not
    str.splitlines(), which also breaks at \\x0b, \\x0c, \\x1c-\\x1e, \\x85,
    U+2028 and U+2029: a forged line such as 'soon\\x0bGermany:' must stay one
    line (and be refused for its control character). A UTF-8 BOM at the
    start is dropped."""
    lines = text.removeprefix(BOM).split("\n")
    if "\r" not in text:
        return lines            # the common case: no line to mend
    return [line.removesuffix("\r") for line in lines]


def control_character(line: str) -> str | None:
    """The first control or line-separator character in a line ('U+000B'), tab excepted."""
    if line.isprintable():          # Cc, Zl and Zp are never printable: the common case, in C
        return None
    for char in line:
        if char != "\t" and unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


ARROWS = re.compile(r"(->|=>|—|–)")
PUNCTUATION = re.compile(r"([()/,])")
POWER_PREFIX = re.compile(r"^\s*([^:]+):\s*(.*)$")
SEPARATORS = frozenset(("-", "/", "(", ")"))
COAST_STARTS = frozenset(phrase.split()[0] for phrase in COAST_WORDS if " " in phrase)
# The words the fast path accepts right after a location: anything else makes it give the line up.
PLAIN_AFTER_LOCATION = frozenset(HOLD_WORDS | MOVE_WORDS | SUPPORT_WORDS | CONVOY_WORDS)


def lookup_province(names: NameIndex, key: str) -> str | None:
    """A normalised name -> province id, exact or with the spaces taken out.
    Words joined that way are never order words: 'ruh r' is not 'Ruhr',
    'mid atlantic' is 'MidAtlantic'. A unique prefix of at least PREFIX_MIN
    letters also names a province ('Burgund'); one that fits two is
    ambiguous ('Gulf': Bothnia or Lyon), and so is 'Liv' (Liverpool,
    Livonia), which the standard map lists as Livonia's alias."""
    pid = names.exact.get(key)
    if pid is not None or (" " in key and any(w in ORDER_WORDS or len(w) < PREFIX_MIN for w in key.split())):
        return pid
    return names.compact.get(key.replace(" ", ""))


class OrderParser:
    def __init__(self, variant: Variant, extensions: list[LineExtension] | None = None) -> None:
        self.variant = variant
        self.graph: MapGraph = variant.map
        self.extensions = extensions or []
        self.names: NameIndex = self.graph.names
        # The fast path's one-word locations: names, ids and aliases, and
        # coast ids ('spa/nc') that read as that province and coast.
        self.plain: dict[str, str] = self.names.one_word
        self.plain_coasts: dict[str, str] = {}
        for coast in self.names.coast_ids:
            province, _, code = coast.partition("/")
            if self.plain.get(province) == province and COAST_WORDS.get(code) == code:
                self.plain_coasts[coast] = coast
        # First words of powers' names of several words: a plain line starting
        # with one might be a heading ('A B' could be a power), so it takes the full path.
        self.power_heads = {key.split()[0] for key in variant.power_table() if " " in key}
        # The order words that may follow a location in a plain line and could
        # also go on with it: continue a name of several words, or start a
        # coast ('s c'). A location followed by one of these is read with
        # _plain_location's care; any other is read by its word alone.
        continuations = set(COAST_STARTS).union(*self.names.next_words.values())
        self.careful_after = frozenset(continuations & PLAIN_AFTER_LOCATION)
        self._suggestions_left = MAX_SUGGESTIONS

    # --- tokenising -----------------------------------------------------------
    def tokenise(self, text: str) -> list[str]:
        text = text.lower()
        if ">" in text or "—" in text or "–" in text:
            text = ARROWS.sub(" - ", text)
        if "(" in text or ")" in text or "/" in text or "," in text:
            text = PUNCTUATION.sub(r" \1 ", text)
        words: list[str] = []
        for raw in text.split():
            if raw == "-" or "-" not in raw:
                words.append(raw)
            elif self.names.normalise(raw) in self.names.word_prefixes:
                words.append(raw)          # a hyphenated name such as mid-atlantic
            else:
                parts = raw.split("-")
                for i, part in enumerate(parts):
                    if i:
                        words.append("-")
                    if part:
                        words.append(part)
        return [w for w in words if w != ","]

    # --- pieces ---------------------------------------------------------------
    def _province(self, tokens: Tokens) -> str:
        """Longest run of words that names a province."""
        names = self.names
        words, start = tokens.words, tokens.pos
        best: tuple[int, str] | None = None
        for length in range(1, 6):
            end = start + length
            if end > len(words) or words[end - 1] in SEPARATORS:
                break
            key = names.normalise(" ".join(words[start:end]))
            pid = lookup_province(names, key)
            if pid is not None:
                best = (length, pid)
            if not names.may_grow(key):
                break          # no name starts with these words: a longer run names nothing
        if best is None:
            word = tokens.peek()
            if word is None:
                raise OrderSyntaxError("the order stops where a province name should be")
            found = names.prefix(names.normalise(word), PREFIX_MIN)
            if len(found) == 1:
                tokens.pos += 1
                return found[0]
            if found:
                full = sorted(self.graph.provinces[p].name for p in found)
                raise AmbiguousOrderError(f"'{word}': which province?",
                                          hint=", ".join(full[:-1]) + " or " + full[-1])
            hint = None
            if self._suggestions_left > 0:
                self._suggestions_left -= 1
                for length in (3, 2, 1):
                    hint = self._suggest(" ".join(tokens.words[tokens.pos:tokens.pos + length]))
                    if hint:
                        break
            raise OrderSyntaxError(f"'{word}': no such province",
                                   hint=f"did you mean {hint}?" if hint else None)
        tokens.pos += best[0]
        return best[1]

    def _suggest(self, text: str) -> str | None:
        if len(text) > MAX_SUGGEST_CHARS:
            return None
        return self.graph.suggest(text)

    def _coast(self, tokens: Tokens, province: str) -> str | None:
        """An optional coast after a province: /nc, (nc), (north coast), nc, north coast."""
        coasts = self.graph.provinces[province].coasts
        start = tokens.pos
        word = tokens.peek()
        bracket = word in ("/", "(")
        if bracket:
            tokens.take()
        # Longest coast phrase first ("north coast" before "north").
        for length in (2, 1):
            if any(w in SEPARATORS for w in tokens.words[tokens.pos:tokens.pos + length]):
                continue
            phrase = self.names.normalise(" ".join(tokens.words[tokens.pos:tokens.pos + length]))
            code = COAST_WORDS.get(phrase) or (SHORT_COASTS.get(phrase) if bracket else None)
            if code and (bracket or phrase not in ("north", "south", "east", "west") or length == 2):
                tokens.pos += length
                if bracket and word == "(" and tokens.peek() == ")":
                    tokens.take()
                location = f"{province}/{code}"
                if location not in coasts:
                    if not coasts:
                        return None        # armies' and single-coast provinces ignore a coast
                    raise IllegalOrderError(
                        f"{self.graph.provinces[province].name} has no {code} coast",
                        hint=f"its coasts are {', '.join(c.split('/')[1] for c in sorted(coasts))}")
                return location
        tokens.pos = start
        return None

    def read_location(self, tokens: Tokens) -> str:
        province = self._province(tokens)
        coast = self._coast(tokens, province)
        return coast or province

    def read_unit_type(self, tokens: Tokens) -> UnitType | None:
        word = tokens.peek()
        if word in UNIT_WORDS:
            # 'a' could start a name; only a unit word if a province follows
            tokens.take()
            return UNIT_WORDS[word]
        return None

    # --- the fast path ------------------------------------------------------------
    def _plain_location(self, words: list[str], i: int) -> str | None:
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

    def _plain_hyphens(self, words: list[str]) -> list[str]:
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

    def _plain(self, text: str, power: str) -> AnyOrder | None:
        """The common plain line, read with dictionary lookups alone: 'A par',
        'A par H', 'A par - bur', 'A mun S A ber', 'A mun S A ber - sil',
        'F nth C A lon - nwy'. Each word is read exactly as the full parser
        reads it; anything else (and any doubt, such as a line that could be
        a power's name) returns None, and the full parser reads the line."""
        words = text.lower().split()
        if "-" in text and text.count("-") != words.count("-"):
            # Some hyphen is inside a word ('nth-pic', '->'); each one standing
            # alone as '-' would leave the words as they are.
            words = self._plain_hyphens(words)
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
            location = self._plain_location(words, 1)
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
            target = self._plain_location(words, i)
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

    # --- one order --------------------------------------------------------------
    def parse_order(self, text: str, power: str) -> AnyOrder:
        return self._plain(text, power) or self._parse_tokens(text, power)

    def _parse_tokens(self, text: str, power: str) -> AnyOrder:
        """The full parser: tokens, longest names, coasts, every order form.
        The forms are the order types': one that starts the line, or the
        unit and then the form its order word begins."""
        tokens = Tokens(self.tokenise(text))
        first = tokens.peek()
        if first is None:
            raise OrderSyntaxError("empty order")
        leading = LEADING.get(first)
        if leading is not None:
            order = leading(self, tokens, power)
            if order is not None:
                return self._finish(tokens, order)
        unit_type = self.read_unit_type(tokens)
        location = self.read_location(tokens)
        word = tokens.peek()
        if word is None:
            return Hold(power, unit_type, location)
        tail = TAILS.get(word)
        if tail is None:
            raise OrderSyntaxError(f"'{word}': expected -, S, C, H, R or disband after the unit")
        tokens.take()
        return self._finish(tokens, tail(self, tokens, power, unit_type, location))

    def _finish(self, tokens: Tokens, order: AnyOrder) -> AnyOrder:
        if not tokens.done():
            raise OrderSyntaxError(f"unexpected '{tokens.rest()}' at the end of the order")
        return order

    # --- a whole text ---------------------------------------------------------
    def _power_prefix(self, text: str) -> tuple[str | None, str]:
        """'France: A par - bur' -> ('france', 'A par - bur'); a heading alone -> (power, '')."""
        match = POWER_PREFIX.match(text) if ":" in text else None
        if match:
            power = self.power_lookup(match.group(1))
            if power is None:
                raise OrderSyntaxError(f"'{match.group(1).strip()}': no such power",
                                       hint=self.variant.power_suggestion(match.group(1)))
            return power, match.group(2)
        bare = self.power_lookup(text.strip())
        if bare is not None and text.strip():
            return bare, ""
        return None, text

    def power_lookup(self, text: str) -> str | None:
        """variant.power_lookup, with the name normalised through the map's
        cache (a heading such as 'France:' comes in every text)."""
        return self.variant.power_table().get(self.names.normalise(text))

    def parse_text(self, text: str, default_power: str | None = None) -> list[ParsedLine]:
        """Every order line of a text, parsed, with its error if any. A text
        past MAX_LINES lines or MAX_TEXT_CHARS characters is one error and
        nothing else is read; see split_lines for where lines break."""
        raw_lines = split_lines(text)
        if len(raw_lines) > MAX_LINES or len(text) > MAX_TEXT_CHARS:
            return [too_long_text(text, len(raw_lines), default_power)]
        self._suggestions_left = MAX_SUGGESTIONS
        lines: list[ParsedLine] = []
        power = default_power
        for number, raw in enumerate(raw_lines, start=1):
            if len(raw) > MAX_LINE_CHARS or not raw.isprintable() and control_character(raw) is not None:
                lines.append(refused_line(number, raw, power))
                continue
            text = raw.strip()
            content = text if "#" not in text else text.split("#", 1)[0].rstrip()
            if not content:
                continue
            if content[-1] == ":" and content.count(":") == 1:
                # A heading alone ('Germany:'), as _read_line would read it,
                # without the prefix pattern and before any line record: every
                # text has several. A heading is a heading, whatever a
                # variant's line extensions would make of it.
                heading = self.power_lookup(content[:-1])
                if heading is not None:
                    power = heading
                    continue
            line_power, order, error, tag = power, None, None, None
            try:
                body = content
                if self.extensions:
                    body, tag = self._extend(body)
                if tag is None and power is not None and ":" not in body:
                    # The fast path: no heading, no prefix, nothing for an extension.
                    order = self._plain(body, power)
                if order is None:
                    # The full reading: a power's heading ('France:') or its
                    # prefix ('France: A par - bur'), then the order.
                    prefixed, body = self._power_prefix(body)
                    if prefixed is not None:
                        if not body and tag is None:
                            power = prefixed        # a heading
                            continue
                        line_power = prefixed
                    if line_power is None:
                        raise OrderSyntaxError("no power given for this order",
                                               hint="put a heading such as 'France:' above it, or use --power")
                    if self.extensions:
                        # The DP prefix may come before or after the power name.
                        body, after = self._extend(body)
                        tag = after or tag
                    order = self.parse_order(body, line_power)
            except OrderError as exc:
                exc.line = number
                error = exc
            lines.append(ParsedLine(number, text, line_power, order, error, tag))
        return lines

    def _extend(self, content: str) -> tuple[str, LineTag | None]:
        """The line with every extension's prefix taken off, and the tag of
        the last that took one (None if none did)."""
        tag = None
        for extension in self.extensions:
            hit = extension(content)
            if hit is not None:
                content, tag = hit
        return content, tag


def too_long_text(text: str, line_count: int, power: str | None) -> ParsedLine:
    """The one error for a text past the line or size cap."""
    return ParsedLine(1, f"({line_count} lines, {len(text)} characters)", power, None, OrderSyntaxError(
        f"the orders text is too long: at most {MAX_LINES} lines and {MAX_TEXT_CHARS} characters",
        line=1, hint="nothing in it was read; send only the orders"))


def refused_line(number: int, raw: str, power: str | None) -> ParsedLine:
    """The error for a line that is not read at all: too long, or holding a
    control character (shown escaped)."""
    if len(raw) > MAX_LINE_CHARS:
        return ParsedLine(number, raw[:60].strip() + "...", power, None, OrderSyntaxError(
            f"the line is longer than {MAX_LINE_CHARS} characters", line=number, hint="one order per line"))
    shown = "".join(c if c == "\t" or unicodedata.category(c) not in ("Cc", "Zl", "Zp")
                    else f"\\u{ord(c):04x}" for c in raw.strip())
    return ParsedLine(number, shown, power, None, OrderSyntaxError(
        f"control character {control_character(raw)} in the line", line=number,
        hint="orders are plain text, one per line"))


def parser_for(variant: Variant) -> OrderParser:
    """This variant's order parser, with its rule set's line extensions:
    made once and kept with the variant."""
    kept = variant.derived.get("order_parser")
    if isinstance(kept, OrderParser):
        return kept
    parser = OrderParser(variant, list(variant.rules.parser_extensions))
    variant.derived["order_parser"] = parser
    return parser
