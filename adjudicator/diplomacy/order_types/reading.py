"""What the order types' parsing forms share: the order words, the token
stream, and the few readings an order parser lends them (a unit type, a
location, the map). The parser (adjudicator.diplomacy.parser) tokenises a
line, reads the unit, then hands the rest to the form for the order word
that follows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from adjudicator.diplomacy.model import UnitType

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph

MOVE_WORDS = {"-", "->", "=>", "to", "m", "move", "moves", "mv", "attack", "attacks"}
SUPPORT_WORDS = {"s", "support", "supports", "sup"}
CONVOY_WORDS = {"c", "convoy", "convoys", "con"}
HOLD_WORDS = {"h", "hold", "holds", "stand", "stands"}
RETREAT_WORDS = {"r", "retreat", "retreats"}
DISBAND_WORDS = {"d", "disband", "disbands", "remove", "removes", "destroy"}
BUILD_WORDS = {"b", "build", "builds"}
WAIVE_WORDS = {"waive", "waives", "w", "pass"}
UNIT_WORDS = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET, "fleet": UnitType.FLEET}
ORDER_WORDS = (MOVE_WORDS | SUPPORT_WORDS | CONVOY_WORDS | HOLD_WORDS | RETREAT_WORDS | DISBAND_WORDS
               | BUILD_WORDS | WAIVE_WORDS | set(UNIT_WORDS) | {"via", "by", "vc"})
COAST_WORDS = {
    "nc": "nc", "n c": "nc", "north": "nc", "north coast": "nc", "northern coast": "nc",
    "sc": "sc", "s c": "sc", "south": "sc", "south coast": "sc", "southern coast": "sc",
    "ec": "ec", "e c": "ec", "east": "ec", "east coast": "ec", "eastern coast": "ec",
    "wc": "wc", "w c": "wc", "west": "wc", "west coast": "wc", "western coast": "wc",
}
SHORT_COASTS = {"n": "nc", "s": "sc", "e": "ec", "w": "wc"}
# The first words of the coast phrases of several words ('north' of 'north coast').
COAST_STARTS = frozenset(phrase.split()[0] for phrase in COAST_WORDS if " " in phrase)


# The move words that are words, not arrows: 'move to bur' reads as '- bur'.
MOVE_VERBS = MOVE_WORDS - {"-", "->", "=>", "to"}


class Tokens:
    """The words of one order, read from left to right."""

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

    def skip_to_after_verb(self) -> None:
        """After a move word that is a verb ('move', 'moves', 'attacks'), a 'to' belongs to it."""
        if self.pos and self.words[self.pos - 1] in MOVE_VERBS and self.peek() == "to":
            self.pos += 1


class Reader(Protocol):
    """What an order type's parsing form may ask of the parser."""

    @property
    def graph(self) -> MapGraph: ...

    def read_unit_type(self, tokens: Tokens) -> UnitType | None:
        """An optional unit word ('A', 'fleet')."""

    def read_location(self, tokens: Tokens) -> str:
        """A province, with a coast if one is written."""
