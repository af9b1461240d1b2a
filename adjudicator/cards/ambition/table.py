"""The table: card catalogue look-ups, decks, currency and seating.

Everything here works on the plain-dict state; the catalogue is copied into
the state at setup so views and replays never need the variant file again."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.common import Event, State, rng


def key_of(card_id: str) -> str:
    """Card ids are `<key>-<n>`; the key finds the card in the catalogue."""
    return card_id.rsplit("-", 1)[0]


def setting(state: State, name: str) -> Any:
    return state["catalog"]["settings"][name]


def elite_value(state: State, card_id: str) -> int:
    return int(state["catalog"]["elites"][key_of(card_id)]["value"])


def intrigue_card(state: State, card_id: str) -> dict[str, Any]:
    card: dict[str, Any] = state["catalog"]["intrigue"][key_of(card_id)]
    return card


def effect_of(state: State, card_id: str) -> str:
    return str(intrigue_card(state, card_id)["effect"])


def card_name(state: State, card_id: str) -> str:
    key = key_of(card_id)
    for kind in ("elites", "intrigue", "network"):
        entry = state["catalog"][kind].get(key)
        if entry is not None:
            if kind == "elites":
                return f"{entry['name']} ({entry['value']})"
            return str(entry["name"])
    return card_id


def alliance_name(state: State, kind: str) -> str:
    return str(state["catalog"]["alliances"][kind]["name"])


def with_article(text: str) -> str:
    """'a Unity Compact', 'an Industrial Exchange' ('uni' sounds like 'you')."""
    vowel = text[:1].lower() in "aeiou" and not text.lower().startswith("uni")
    return ("an " if vowel else "a ") + text


def plural(count: int, noun: str) -> str:
    """'1 card', '2 cards'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def others(state: State, player: str) -> list[str]:
    return [p for p in state["players"] if p != player]


def seat_order_from(state: State, player: str) -> list[str]:
    """Everyone else, clockwise from `player`: who acts first when order matters."""
    players = state["players"]
    i = players.index(player)
    return [players[(i + k) % len(players)] for k in range(1, len(players))]


def neighbours(state: State, player: str) -> list[str]:
    players = state["players"]
    i = players.index(player)
    result = []
    for j in ((i - 1) % len(players), (i + 1) % len(players)):
        if players[j] != player and players[j] not in result:
            result.append(players[j])
    return result


def gain(state: State, player: str, amount: int) -> None:
    state["influence"][player] += amount


def pay(state: State, player: str, amount: int) -> int:
    """Currency never goes below zero: a player owing more pays all they have."""
    paid = min(amount, int(state["influence"][player]))
    state["influence"][player] -= paid
    return paid


def shuffled(state: State, cards: list[str]) -> list[str]:
    cards = list(cards)
    rng(state).shuffle(cards)
    return cards


def roll_die(state: State) -> int:
    return rng(state).randint(1, 6)


def draw_from(state: State, pile: dict[str, list[str]]) -> str | None:
    """Take the top card of pile["deck"], reshuffling pile["discard"] when empty."""
    if not pile["deck"] and pile["discard"]:
        pile["deck"] = shuffled(state, pile["discard"])
        pile["discard"] = []
    if not pile["deck"]:
        return None
    card: str = pile["deck"].pop(0)
    return card


def draw_elite(state: State, player: str) -> str | None:
    pile = state["elites"][player]
    card = draw_from(state, pile)
    if card is not None:
        pile["hand"].append(card)
    return card


def draw_intrigue(state: State) -> str | None:
    return draw_from(state, state["intrigue"])


def discard_intrigue(state: State, player: str, card: str) -> None:
    state["hands"][player].remove(card)
    state["intrigue"]["discard"].append(card)


def hand_with_effect(state: State, player: str, effect: str) -> list[str]:
    return [c for c in state["hands"][player] if effect_of(state, c) == effect]


def perk_via(state: State, player: str, perk: str) -> dict[str, Any] | bool:
    """Where `player` gets `perk` from: True for their own card, an Industrial
    Exchange alliance for an ally's card, False if they do not have it."""
    for kind, slot in state["in_play"].items():
        if state["catalog"]["network"][kind]["perk"] != perk:
            continue
        if slot["holder"] == player:
            return True
        for a in state["alliances"]:
            if (a["status"] == "active" and a["type"] == "industrial-exchange"
                    and a.get("network") == kind and player in a["members"]
                    and slot["holder"] in a["members"]):
                alliance: dict[str, Any] = a
                return alliance
    return False


def has_perk(state: State, player: str, perk: str) -> bool:
    """A perk is the holder's, and also an Industrial Exchange ally's for that type."""
    return perk_via(state, player, perk) is not False


def perk_event(state: State, player: str, perk: str, text: str) -> Event:
    """An automatic perk is news for all, unless it comes through a secret
    exchange: then only the two allies hear of it (the GM's files keep it)."""
    via = perk_via(state, player, perk)
    if isinstance(via, dict) and via["secret"]:
        return Event(text, tuple(via["members"]))
    return Event(text)


def perk_amount(state: State, perk: str) -> int:
    for entry in state["catalog"]["network"].values():
        if entry["perk"] == perk:
            return int(entry.get("amount", 0))
    return 0


def put_in_play(state: State, player: str, card: str) -> list[Event]:
    """One card of each type in the whole game: playing one discards any other."""
    kind = key_of(card)
    name = state["catalog"]["network"][kind]["name"]
    events = []
    slot = state["in_play"].get(kind)
    if slot is not None:
        state["network"][slot["holder"]]["discard"].append(slot["card"])
        events.append(Event(f"{slot['holder']}'s {name} is discarded: only one may be in play"))
        since = slot["since"] if slot["holder"] == player else state["round"]
    else:
        since = state["round"]
    state["in_play"][kind] = {"holder": player, "card": card, "since": since}
    # keep the catalogue order so files do not depend on play order
    order = list(state["catalog"]["network"])
    state["in_play"] = {k: state["in_play"][k] for k in order if k in state["in_play"]}
    events.append(Event(f"{player} puts {name} in play"))
    return events


def lose_hand(state: State, player: str) -> int:
    """A nuclear hit: every card but the Elites goes to its discard pile."""
    lost = list(state["hands"][player])
    state["intrigue"]["discard"].extend(lost)
    state["hands"][player] = []
    return len(lost)


def extra_keys(choice: dict[Any, Any], allowed: set[str]) -> list[str]:
    """The fields of `choice` not in `allowed`, as sorted text: a YAML key may be
    a number, true or null, which do not sort with strings."""
    return sorted(str(k) for k in choice if k not in allowed)


def is_known_card(state: State, card: object) -> bool:
    return isinstance(card, str) and any(key_of(card) in state["catalog"][kind]
                                         for kind in ("elites", "intrigue", "network"))


def not_held(state: State, card: object, what: str) -> str:
    """Why `card` cannot be used: it does not exist, or you do not hold one."""
    if not is_known_card(state, card):
        return f"unknown card {card!r}"
    return f"{card!r} is not {what} in your hand"
