"""Orders text -> one ParsedLine per order line.

One order per line, under a power's heading (`France:`) or with the power
before it on the line (`France: A par - bur`); `#` starts a comment. A
variant's line extensions read their prefixes first (A&E: `2 DP: ...`). Each
order is read by the parser's OrderReader (adjudicator.diplomacy.order_reader),
plain lines by its fast path (adjudicator.diplomacy.plain_orders).

Every bad line is reported with its number, the reason and, for a near-miss
name, a suggestion. Errors are of three kinds: OrderSyntaxError (cannot read),
AmbiguousOrderError (cannot tell) here, and IllegalOrderError (cannot do) in
validation. A text may cost only so much: lines past a length, texts past a
number of lines or characters, are refused unread."""

from __future__ import annotations

import unicodedata

from adjudicator.diplomacy.lines import LineExtension, LineTag, ParsedLine
from adjudicator.diplomacy.order_reader import MAX_SUGGESTIONS, OrderReader
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import OrderError, OrderSyntaxError

# Bounds on what one orders text may cost, since a stranger's mail can be
# anything: a line past the length is an error without being parsed; a text
# past the line or size cap is one error.
MAX_LINE_CHARS = 500
MAX_LINES = 2000
MAX_TEXT_CHARS = 200_000
BOM = "\ufeff"
POWER_CACHE = 1024                 # powers' names as written, kept before the cache starts over


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


class OrderParser(OrderReader):
    """A variant's orders parser: a whole text, line by line, each order
    read by the OrderReader it is; a variant's line extensions read their
    prefixes off the lines first."""

    def __init__(self, variant: Variant, extensions: list[LineExtension] | None = None) -> None:
        super().__init__(variant)
        self.extensions = extensions or []
        self._powers: dict[str, str | None] = {}     # text as written -> the power it names, if any

    # --- a whole text ---------------------------------------------------------
    def power_prefix(self, text: str) -> tuple[str | None, str]:
        """'France: A par - bur' -> ('france', 'A par - bur'); a heading alone -> (power, '').
        The prefix is everything before the first colon, if that is not empty."""
        head, colon, rest = text.partition(":")
        if colon and head:
            power = self.power_lookup(head)
            if power is None:
                raise OrderSyntaxError(f"'{head.strip()}': no such power",
                                       hint=self.variant.power_suggestion(head))
            return power, rest.lstrip()
        bare = self.power_lookup(text.strip())
        if bare is not None and text.strip():
            return bare, ""
        return None, text

    def power_lookup(self, text: str) -> str | None:
        """variant.power_lookup, remembered by the text as written (a
        heading such as 'France:' or a prefix such as 'France: ' comes on
        many lines of every text)."""
        found = self._powers.get(text, "")
        if found == "":
            if len(self._powers) >= POWER_CACHE:
                self._powers.clear()
            found = self._powers[text] = self.variant.power_table().get(self.names.normalise(text))
        return found

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
                    order = self.plain_orders.read(body, power)
                if order is None:
                    # The full reading: a power's heading ('France:') or its
                    # prefix ('France: A par - bur'), then the order.
                    prefixed, body = self.power_prefix(body)
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
                    order = self.plain_orders.read(body, line_power) or self.parse_tokens(body, line_power)
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
