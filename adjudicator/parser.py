"""Orders text -> order records, line by line.

Accepts full names, ids and aliases in any case; `-`, `->`, `to`, `m` for
moves; `S`/`supports`, `C`/`convoys`, `H`/`holds`; `via convoy`; coasts as
`spa/nc`, `Spain (nc)`, `spa nc`, `Spain north coast`; retreats, disbands,
builds and waives; per-power headings (`France:`) or a power prefix on each
line. `#` starts a comment.

Every bad line is reported with its number, the reason and, for a near-miss
name, a suggestion. Errors are of three kinds: OrderSyntaxError (cannot read),
AmbiguousOrderError (cannot tell) here, and IllegalOrderError (cannot do) in
validation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from adjudicator.errors import IllegalOrderError, OrderError, OrderSyntaxError
from adjudicator.mapgraph import MapGraph, normalise_name
from adjudicator.model import UnitType
from adjudicator.orders import (AnyOrder, Build, Convoy, Disband, Hold, Move, Retreat,
                                SupportHold, SupportMove, Waive)
from adjudicator.variant import Variant

MOVE_WORDS = {"-", "->", "=>", "to", "m", "move", "moves", "mv", "attack", "attacks"}
SUPPORT_WORDS = {"s", "support", "supports", "sup"}
CONVOY_WORDS = {"c", "convoy", "convoys", "con"}
HOLD_WORDS = {"h", "hold", "holds", "stand", "stands"}
RETREAT_WORDS = {"r", "retreat", "retreats"}
DISBAND_WORDS = {"d", "disband", "disbands", "remove", "removes", "destroy"}
BUILD_WORDS = {"b", "build", "builds"}
WAIVE_WORDS = {"waive", "waives", "w", "pass"}
UNIT_WORDS = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET, "fleet": UnitType.FLEET}
COAST_WORDS = {
    "nc": "nc", "n c": "nc", "north": "nc", "north coast": "nc", "northern coast": "nc",
    "sc": "sc", "s c": "sc", "south": "sc", "south coast": "sc", "southern coast": "sc",
    "ec": "ec", "e c": "ec", "east": "ec", "east coast": "ec", "eastern coast": "ec",
    "wc": "wc", "w c": "wc", "west": "wc", "west coast": "wc", "western coast": "wc",
}
SHORT_COASTS = {"n": "nc", "s": "sc", "e": "ec", "w": "wc"}


@dataclass
class ParsedLine:
    number: int
    text: str
    power: str | None
    order: AnyOrder | None = None
    error: OrderError | None = None
    extra: dict[str, object] = field(default_factory=dict)   # variant data, e.g. DP allocation


# A line extension sees the stripped text and returns the rest of the line to
# parse plus data to attach (A&E: '2 DP: A swi S ...' -> ('A swi S ...', {'dp': 2})).
LineExtension = Callable[[str], "tuple[str, dict[str, object]] | None"]


class _Tokens:
    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.pos = 0

    def peek(self, offset: int = 0) -> str | None:
        i = self.pos + offset
        return self.words[i] if i < len(self.words) else None

    def take(self) -> str:
        word = self.words[self.pos]
        self.pos += 1
        return word

    def done(self) -> bool:
        return self.pos >= len(self.words)

    def rest(self) -> str:
        return " ".join(self.words[self.pos:])


class OrderParser:
    def __init__(self, variant: Variant, extensions: list[LineExtension] | None = None) -> None:
        self.variant = variant
        self.graph: MapGraph = variant.map
        self.extensions = extensions or []
        self._name_prefixes = set()
        for key in self.graph._names:
            parts = key.split()
            for n in range(1, len(parts) + 1):
                self._name_prefixes.add(" ".join(parts[:n]))

    # --- tokenising -----------------------------------------------------------
    def tokenise(self, text: str) -> list[str]:
        text = text.lower()
        text = re.sub(r"(->|=>|—|–)", " - ", text)
        text = re.sub(r"([()/,])", r" \1 ", text)
        words: list[str] = []
        for raw in text.split():
            if raw == "-" or "-" not in raw:
                words.append(raw)
            elif normalise_name(raw) in self._name_prefixes:
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
    def _province(self, tokens: _Tokens) -> str:
        """Longest run of words that names a province."""
        best: tuple[int, str] | None = None
        for length in range(1, 6):
            if tokens.pos + length > len(tokens.words):
                break
            if tokens.words[tokens.pos + length - 1] in ("-", "/", "(", ")"):
                break
            key = normalise_name(" ".join(tokens.words[tokens.pos:tokens.pos + length]))
            if key in self.graph._names:
                best = (length, self.graph._names[key])
        if best is None:
            word = tokens.peek()
            if word is None:
                raise OrderSyntaxError("the order stops where a province name should be")
            hint = None
            for length in (3, 2, 1):
                hint = self.graph.suggest(" ".join(tokens.words[tokens.pos:tokens.pos + length]))
                if hint:
                    break
            raise OrderSyntaxError(f"'{word}': no such province",
                                   hint=f"did you mean {hint}?" if hint else None)
        tokens.pos += best[0]
        return best[1]

    def _coast(self, tokens: _Tokens, province: str) -> str | None:
        """An optional coast after a province: /nc, (nc), (north coast), nc, north coast."""
        coasts = self.graph.provinces[province].coasts
        start = tokens.pos
        word = tokens.peek()
        bracket = word in ("/", "(")
        if bracket:
            tokens.take()
        # Longest coast phrase first ("north coast" before "north").
        for length in (2, 1):
            if any(w in ("-", "/", "(", ")") for w in tokens.words[tokens.pos:tokens.pos + length]):
                continue
            phrase = normalise_name(" ".join(tokens.words[tokens.pos:tokens.pos + length]))
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

    def _location(self, tokens: _Tokens) -> str:
        province = self._province(tokens)
        coast = self._coast(tokens, province)
        return coast or province

    def _unit_type(self, tokens: _Tokens) -> UnitType | None:
        word = tokens.peek()
        if word in UNIT_WORDS:
            # 'a' could start a name; only a unit word if a province follows
            tokens.take()
            return UNIT_WORDS[word]
        return None

    def _via_convoy(self, tokens: _Tokens) -> bool:
        rest = tokens.words[tokens.pos:]
        if rest[:2] in (["via", "convoy"], ["by", "convoy"]) :
            tokens.pos += 2
            return True
        if rest[:1] in (["vc"], ["via"]):
            tokens.pos += 1
            return True
        return False

    # --- one order --------------------------------------------------------------
    def parse_order(self, text: str, power: str) -> AnyOrder:
        tokens = _Tokens(self.tokenise(text))
        if tokens.done():
            raise OrderSyntaxError("empty order")
        first = tokens.peek()
        if first in WAIVE_WORDS and tokens.peek(1) is None:
            return Waive(power)
        if first in BUILD_WORDS:
            tokens.take()
            unit_type = self._unit_type(tokens)
            if unit_type is None:
                raise OrderSyntaxError("a build names the unit type", hint="e.g. 'build A par' or 'build F stp/nc'")
            order: AnyOrder = Build(power, unit_type, self._location(tokens))
            return self._finish(tokens, order)
        if first in DISBAND_WORDS:
            tokens.take()
            unit_type = self._unit_type(tokens)
            return self._finish(tokens, Disband(power, unit_type, self._location(tokens)))
        unit_type = self._unit_type(tokens)
        location = self._location(tokens)
        word = tokens.peek()
        if word is None or word in HOLD_WORDS:
            if word:
                tokens.take()
            return self._finish(tokens, Hold(power, unit_type, location))
        tokens.take()
        if word in MOVE_WORDS or word in RETREAT_WORDS:
            if word in RETREAT_WORDS and tokens.peek() in MOVE_WORDS:
                tokens.take()
            if word in RETREAT_WORDS and tokens.peek() in DISBAND_WORDS:
                tokens.take()
                return self._finish(tokens, Disband(power, unit_type, location))
            dest = self._location(tokens)
            if word in RETREAT_WORDS:
                return self._finish(tokens, Retreat(power, unit_type, location, dest))
            return self._finish(tokens, Move(power, unit_type, location, dest, self._via_convoy(tokens)))
        if word in SUPPORT_WORDS:
            target_type = self._unit_type(tokens)
            target = self._location(tokens)
            nxt = tokens.peek()
            if nxt is None or nxt in HOLD_WORDS:
                if nxt:
                    tokens.take()
                return self._finish(tokens, SupportHold(power, unit_type, location, target_type, target))
            if nxt not in MOVE_WORDS:
                raise OrderSyntaxError(f"'{nxt}': expected '-' and a destination, or nothing, after the supported unit")
            tokens.take()
            return self._finish(tokens, SupportMove(power, unit_type, location, target_type, target,
                                                    self._location(tokens)))
        if word in CONVOY_WORDS:
            if tokens.peek() in UNIT_WORDS:
                tokens.take()
            origin = self._location(tokens)
            if tokens.peek() not in MOVE_WORDS:
                raise OrderSyntaxError("a convoy names the army's move", hint="e.g. 'F nth C A lon - nwy'")
            tokens.take()
            return self._finish(tokens, Convoy(power, unit_type, location, origin, self._location(tokens)))
        if word in DISBAND_WORDS:
            return self._finish(tokens, Disband(power, unit_type, location))
        if word in BUILD_WORDS:
            if unit_type is None:
                raise OrderSyntaxError("a build names the unit type", hint="e.g. 'build A par'")
            return self._finish(tokens, Build(power, unit_type, location))
        raise OrderSyntaxError(f"'{word}': expected -, S, C, H, R or disband after the unit")

    def _finish(self, tokens: _Tokens, order: AnyOrder) -> AnyOrder:
        if not tokens.done():
            raise OrderSyntaxError(f"unexpected '{tokens.rest()}' at the end of the order")
        return order

    # --- a whole text ---------------------------------------------------------
    def _power_prefix(self, text: str) -> tuple[str | None, str]:
        """'France: A par - bur' -> ('france', 'A par - bur'); a heading alone -> (power, '')."""
        match = re.match(r"^\s*([^:]+):\s*(.*)$", text)
        if match:
            power = self.variant.power_lookup(match.group(1))
            if power is None:
                raise OrderSyntaxError(f"'{match.group(1).strip()}': no such power",
                                       hint=self.variant.power_suggestion(match.group(1)))
            return power, match.group(2)
        bare = self.variant.power_lookup(text.strip())
        if bare is not None and text.strip():
            return bare, ""
        return None, text

    def parse_text(self, text: str, default_power: str | None = None) -> list[ParsedLine]:
        lines: list[ParsedLine] = []
        power = default_power
        for number, raw in enumerate(text.splitlines(), start=1):
            content = raw.split("#", 1)[0].strip()
            if not content:
                continue
            parsed = ParsedLine(number, raw.strip(), power)
            lines.append(parsed)
            try:
                for extension in self.extensions:
                    hit = extension(content)
                    if hit is not None:
                        content, data = hit
                        parsed.extra.update(data)
                line_power, content = self._power_prefix(content)
                if line_power is not None:
                    if not content and not parsed.extra:
                        power = line_power       # a heading
                        lines.pop()
                        continue
                    parsed.power = line_power
                if parsed.power is None:
                    raise OrderSyntaxError("no power given for this order",
                                           hint="put a heading such as 'France:' above it, or use --power")
                # The DP prefix may come before or after the power name.
                for extension in self.extensions:
                    hit = extension(content)
                    if hit is not None:
                        content, data = hit
                        parsed.extra.update(data)
                parsed.order = self.parse_order(content, parsed.power)
            except OrderError as exc:
                exc.line = number
                parsed.error = exc
        return lines
