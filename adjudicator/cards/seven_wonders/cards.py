"""Card and wonder-board data for 7 Wonders, read from variants/seven-wonders.yaml.

The state only ever stores card names; everything else is looked up here, so
a state file stays small and readable and the data file is the single source
of truth for costs and effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.errors import DataFileError

RAW = ("wood", "stone", "clay", "ore")
MANUFACTURED = ("glass", "loom", "papyrus")
RESOURCES = RAW + MANUFACTURED
COLOURS = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
SCIENCE = ("tablet", "compass", "gear")
AGE_NAMES = {1: "I", 2: "II", 3: "III"}


@dataclass(frozen=True)
class Card:
    name: str
    age: int
    colour: str
    cost: dict[str, int]
    chains_from: tuple[str, ...]
    players: tuple[int, ...]
    effect: dict[str, Any]

    @property
    def coin_cost(self) -> int:
        return int(self.cost.get("coin", 0))

    @property
    def resource_cost(self) -> dict[str, int]:
        return {r: int(n) for r, n in self.cost.items() if r != "coin"}


@dataclass(frozen=True)
class Stage:
    cost: dict[str, int]
    effect: dict[str, Any]
    text: str


@dataclass(frozen=True)
class Wonder:
    name: str
    city: str
    resource: str
    sides: dict[str, tuple[Stage, ...]]


@dataclass
class Catalog:
    """Every card and board, indexed by name, plus the accepted spellings."""

    cards: dict[str, Card] = field(default_factory=dict)
    by_age: dict[int, list[Card]] = field(default_factory=dict)
    wonders: dict[str, Wonder] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    resource_aliases: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def card(self, name: str) -> Card:
        return self.cards[name]

    def resolve(self, text: Any) -> str | None:
        """The canonical card name for what a player typed, or None.
        Case and apostrophes are ignored so 'craftsmen's guild' still works."""
        if not isinstance(text, str):
            return None
        key = _key(text)
        return self.aliases.get(key)

    def resolve_resource(self, text: Any) -> str | None:
        if not isinstance(text, str):
            return None
        word = text.strip().lower()
        word = self.resource_aliases.get(word, word)
        return word if word in RESOURCES else None

    def guilds(self) -> list[Card]:
        return [c for c in self.by_age.get(3, []) if c.colour == "purple"]


def _key(text: str) -> str:
    return " ".join(text.replace("'", "").replace("\u2019", "").lower().split())


def catalog(data: dict[str, Any]) -> Catalog:
    """The cards and wonders of the variant data (the engine keeps the last
    one read: SevenWonders.catalog_of)."""
    if not data or "cards" not in data or "wonders" not in data:
        raise DataFileError("seven-wonders data needs 'cards' and 'wonders'",
                            file="variants/seven-wonders.yaml")
    cat = Catalog(options=data.get("rules", {}) or {})
    for raw in data["cards"]:
        card = Card(name=str(raw["name"]), age=int(raw["age"]), colour=str(raw["colour"]),
                    cost=dict(raw.get("cost") or {}), chains_from=tuple(raw.get("chains_from") or ()),
                    players=tuple(int(p) for p in raw.get("players") or ()),
                    effect=dict(raw.get("effect") or {}))
        if card.colour not in COLOURS:
            raise DataFileError(f"card {card.name}: unknown colour {card.colour}")
        # Loom, Glassworks and Press appear in Ages I and II with the same
        # face; the name index keeps the first, the age lists keep both.
        cat.cards.setdefault(card.name, card)
        cat.by_age.setdefault(card.age, []).append(card)
        cat.aliases[_key(card.name)] = card.name
    for alias, name in (data.get("aliases") or {}).items():
        cat.aliases[_key(str(alias))] = str(name)
    cat.resource_aliases = {str(k).lower(): str(v) for k, v in (data.get("resource_aliases") or {}).items()}
    for raw in data["wonders"]:
        sides = {str(side): tuple(Stage(cost=dict(s.get("cost") or {}), effect=dict(s.get("effect") or {}),
                                        text=str(s.get("text", ""))) for s in stages)
                 for side, stages in raw["sides"].items()}
        wonder = Wonder(name=str(raw["name"]), city=str(raw["city"]), resource=str(raw["resource"]), sides=sides)
        cat.wonders[wonder.city] = wonder
    return cat


def deck_for_age(cat: Catalog, age: int, players: int, guilds: list[str]) -> list[str]:
    """The unshuffled deck: every copy whose minimum player count is met,
    plus the guilds drawn for this game in Age III."""
    deck: list[str] = []
    for card in cat.by_age.get(age, []):
        if card.colour == "purple":
            continue
        deck.extend(card.name for minimum in card.players if minimum <= players)
    if age == 3:
        deck.extend(guilds)
    return deck


def format_cost(cost: dict[str, int]) -> str:
    if not cost:
        return "free"
    parts = []
    for key, count in cost.items():
        parts.append(f"{count} coin" if key == "coin" else (key if count == 1 else f"{count} {key}"))
    return ", ".join(parts)
