"""One order's words -> an order record: the full reading of a line the
fast path (adjudicator.diplomacy.plain_orders) gave up.

Accepts full names, ids and aliases in any case; `-`, `->`, `to`, `m` for
moves; `S`/`supports`, `C`/`convoys`, `H`/`holds`; `via convoy`; coasts as
`spa/nc`, `Spain (nc)`, `spa nc`, `Spain north coast`; retreats, disbands,
builds and waives. Each order type's own form (what follows '-', 'S', 'C',
'R'..., or a line that starts with 'build', 'disband' or 'waive') is in its
module under adjudicator.diplomacy.order_types; this module tokenises, reads
names and coasts, and picks the form by its order word (LEADING, TAILS).
A name that is not one says so, with a suggestion for a near miss: an
OrderSyntaxError (cannot read) or an AmbiguousOrderError (cannot tell)."""

from __future__ import annotations

import re
from collections.abc import Callable

from adjudicator.diplomacy.mapgraph import MapGraph, NameIndex
from adjudicator.diplomacy.model import UnitType
from adjudicator.diplomacy.order_types.build import read_build, read_build_first
from adjudicator.diplomacy.order_types.convoy import read_convoy
from adjudicator.diplomacy.order_types.disband import read_disband, read_disband_first
from adjudicator.diplomacy.order_types.hold import read_hold
from adjudicator.diplomacy.order_types.move import read_move
from adjudicator.diplomacy.order_types.reading import (
    BUILD_WORDS,
    COAST_WORDS,
    CONVOY_WORDS,
    DISBAND_WORDS,
    HOLD_WORDS,
    MOVE_WORDS,
    ORDER_WORDS,
    RETREAT_WORDS,
    SHORT_COASTS,
    SUPPORT_WORDS,
    UNIT_WORDS,
    WAIVE_WORDS,
    Reader,
    Tokens,
)
from adjudicator.diplomacy.order_types.retreat import read_retreat
from adjudicator.diplomacy.order_types.support import read_support
from adjudicator.diplomacy.order_types.waive import read_waive
from adjudicator.diplomacy.orders import AnyOrder, Hold
from adjudicator.diplomacy.plain_orders import PlainOrders
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    OrderSyntaxError,
)

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

# "Did you mean" suggestions look only at tokens of a sane length, and a page
# of junk gets hints on its first lines only.
MAX_SUGGEST_CHARS = 40
MAX_SUGGESTIONS = 25               # per text: a page of junk gets hints on its first lines only
PREFIX_MIN = 3                     # a unique prefix this long names a province ('Burgund')
ARROWS = re.compile(r"(->|=>|—|–)")
PUNCTUATION = re.compile(r"([()/,])")
SEPARATORS = frozenset(("-", "/", "(", ")"))


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


class OrderReader:
    """A variant's reading of one order: its map's names, the powers' names
    for the fast path, and a budget of suggestions per text."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.graph: MapGraph = variant.map
        self.names: NameIndex = self.graph.names
        self.plain_orders = PlainOrders(self.names, {key.split()[0] for key in variant.power_table() if " " in key})
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

    # --- one order --------------------------------------------------------------
    def parse_order(self, text: str, power: str) -> AnyOrder:
        return self.plain_orders.read(text, power) or self.parse_tokens(text, power)

    def parse_tokens(self, text: str, power: str) -> AnyOrder:
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
