"""Alliances: proposal terms, acceptance, wagers set aside, completion,
expiry and betrayal. Secret alliances are told only to their two members."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.ambition.table import (
    alliance_name,
    gain,
    has_perk,
    perk_amount,
    setting,
    with_article,
)
from adjudicator.cards.common import Choice, ChoiceError, Event, State

TERM_FIELDS = ("alliance", "secret", "third", "network")


def tell(alliance: dict[str, Any], text: str) -> Event:
    """Secret alliances are news only for their members (and the GM's files)."""
    return Event(text, tuple(alliance["members"]) if alliance["secret"] else None)


def active_between(state: State, a: str, b: str) -> dict[str, Any] | None:
    for alliance in state["alliances"]:
        if alliance["status"] == "active" and set(alliance["members"]) == {a, b}:
            found: dict[str, Any] = alliance
            return found
    return None


def shortfall(state: State, player: str, cost: int) -> str | None:
    have = state["influence"][player]
    if have >= cost:
        return None
    return f"can't afford it: costs {cost}, you have {have} (missing {cost - have})"


def validate_terms(state: State, player: str, a: str, b: str, terms: Choice,
                   prefix: str = "") -> list[ChoiceError]:
    """The alliance named in `terms` between a and b; errors are charged to `player`."""
    errors: list[ChoiceError] = []
    kinds = state["catalog"]["alliances"]
    kind = terms.get("alliance")
    if not isinstance(kind, str) or kind not in kinds:
        errors.append(ChoiceError(player, prefix + "alliance",
                                  f"unknown alliance {kind!r}: name one of {', '.join(kinds)}"))
        return errors
    if "secret" in terms and not isinstance(terms["secret"], bool):
        errors.append(ChoiceError(player, prefix + "secret", "must be true or false"))
    if active_between(state, a, b) is not None:
        errors.append(ChoiceError(player, prefix + "alliance",
                                  f"an alliance already exists between {a} and {b}"))
    if kind == "unity-compact":
        third = terms.get("third")
        if third not in state["players"] or third in (a, b):
            errors.append(ChoiceError(player, prefix + "third",
                                      "a Unity Compact names a third player, not one of the allies"))
    elif "third" in terms:
        errors.append(ChoiceError(player, prefix + "third", "only a Unity Compact names a third player"))
    if kind == "industrial-exchange":
        network = terms.get("network")
        if not isinstance(network, str) or network not in state["catalog"]["network"]:
            errors.append(ChoiceError(player, prefix + "network",
                                      "an Industrial Exchange names a card type: "
                                      + ", ".join(state["catalog"]["network"])))
    elif "network" in terms:
        errors.append(ChoiceError(player, prefix + "network",
                                  "only an Industrial Exchange names a card type"))
    return errors


def cost_of(state: State, kind: str) -> int:
    return int(state["catalog"]["alliances"][kind]["cost"])


def form(state: State, a: str, b: str, terms: Choice) -> list[Event]:
    """Both allies gain the bonus, then set their wager aside."""
    kind = terms["alliance"]
    spec = state["catalog"]["alliances"][kind]
    state["alliance_count"] += 1
    limit = spec.get("limit")
    alliance: dict[str, Any] = {
        "id": f"A{state['alliance_count']}", "n": state["alliance_count"], "type": kind,
        "members": [a, b], "wager": int(spec["cost"]), "secret": bool(terms.get("secret", False)),
        "formed_round": state["round"],
        "expires_round": None if limit is None else state["round"] + int(limit),
        "status": "active"}
    if kind == "unity-compact":
        alliance["third"] = terms["third"]
    if kind == "industrial-exchange":
        alliance["network"] = terms["network"]
        alliance["held_since_turn"] = None
    bonus = int(setting(state, "alliance_bonus"))
    for member in (a, b):
        gain(state, member, bonus)
        state["influence"][member] -= alliance["wager"]
    state["alliances"].append(alliance)
    word = "secret " if alliance["secret"] else ""
    return [tell(alliance, f"{a} and {b} form {with_article(word + describe_terms(state, terms))}, "
                 f"alliance {alliance['id']}: each gains {bonus} and sets {alliance['wager']} aside")]


def describe_terms(state: State, terms: Choice) -> str:
    """'Unity Compact (third player: c)', 'Industrial Exchange (card: Aerodef)'."""
    text = alliance_name(state, terms["alliance"])
    if terms["alliance"] == "unity-compact":
        text += f" (third player: {terms['third']})"
    if terms["alliance"] == "industrial-exchange":
        text += f" (card: {state['catalog']['network'][terms['network']]['name']})"
    return text


def meet(state: State, alliance: dict[str, Any]) -> list[Event]:
    """The terms are fulfilled: the allies are no longer bound, but the reward
    comes "at a turn's end" (settle), so the wagers stay aside until then."""
    alliance["status"] = "met"
    return [tell(alliance, f"Alliance {alliance['id']} ({alliance_name(state, alliance['type'])}) "
                 f"of {' and '.join(alliance['members'])}: terms met, the reward is paid at the "
                 "end of the turn")]


def complete(state: State, alliance: dict[str, Any]) -> list[Event]:
    """Take the wager back and as much again from the bank."""
    alliance["status"] = "completed"
    events = [tell(alliance, f"Alliance {alliance['id']} ({alliance_name(state, alliance['type'])}) "
                   f"of {' and '.join(alliance['members'])} is completed: each takes back "
                   f"{alliance['wager']} and gains {alliance['wager']}")]
    for member in alliance["members"]:
        gain(state, member, 2 * alliance["wager"])
        if has_perk(state, member, "alliance_bonus"):
            gain(state, member, perk_amount(state, "alliance_bonus"))
            events.append(tell(alliance, f"{member} collects {perk_amount(state, 'alliance_bonus')} "
                               "more from Finvest"))
    return events


def fail(state: State, alliance: dict[str, Any], reason: str) -> list[Event]:
    alliance["status"] = "failed"
    return [tell(alliance, f"Alliance {alliance['id']} ({alliance_name(state, alliance['type'])}) "
                 f"fails ({reason}): the wagers are lost")]


def allied_since(state: State, a: str, b: str, after: int) -> bool:
    return any(x["n"] > after and set(x["members"]) == {a, b}
               and x["status"] in ("active", "met", "completed") for x in state["alliances"])


def turn_number(state: State) -> int:
    """Turns played since the game began: round and seat in one count."""
    return (int(state["round"]) - 1) * len(state["players"]) + int(state["turn"])


def held_long_enough(state: State, alliance: dict[str, Any]) -> bool:
    """Industrial Exchange: an ally has had the chosen card in play at every
    turn's end for `hold_rounds` full rounds, counted in turns so that a card
    played late in a round does not gain the rest of that round."""
    slot = state["in_play"].get(alliance["network"])
    now = turn_number(state)
    if slot is None or slot["holder"] not in alliance["members"]:
        alliance["held_since_turn"] = None
        return False
    if alliance["held_since_turn"] is None:
        alliance["held_since_turn"] = now
    rounds = int(state["catalog"]["alliances"][alliance["type"]]["hold_rounds"])
    return now - int(alliance["held_since_turn"]) >= rounds * len(state["players"])


def settle(state: State) -> list[Event]:
    """At each turn's end: terms met during the turn or now pay out, overdue alliances fail."""
    events: list[Event] = []
    for alliance in state["alliances"]:
        if alliance["status"] == "met":
            events += complete(state, alliance)
            continue
        if alliance["status"] != "active":
            continue
        a, b = alliance["members"]
        if alliance["type"] == "unity-compact":
            third = alliance["third"]
            if allied_since(state, a, third, alliance["n"]) and allied_since(state, b, third, alliance["n"]):
                events += complete(state, alliance)
                continue
        if alliance["type"] == "industrial-exchange" and held_long_enough(state, alliance):
            events += complete(state, alliance)
            continue
        expires = alliance["expires_round"]
        if expires is not None and state["round"] >= expires and state["turn"] == len(state["players"]) - 1:
            events += fail(state, alliance, "its time ran out")
    return events


def backstab(state: State, player: str, alliance: dict[str, Any]) -> list[Event]:
    """The betrayer takes back their wager and half the ally's; the ally loses the rest.
    A betrayal is public: a secret alliance comes to light."""
    partner = next(m for m in alliance["members"] if m != player)
    half = alliance["wager"] // 2
    gain(state, player, alliance["wager"] + half)
    alliance["status"] = "broken"
    alliance["secret"] = False
    return [Event(f"{player} backstabs {partner}: alliance {alliance['id']} "
                  f"({alliance_name(state, alliance['type'])}) ends; {player} takes back "
                  f"{alliance['wager']} and {half} of {partner}'s wager")]


def validate_reveal(state: State, player: str, value: object) -> list[ChoiceError]:
    """`reveal: [A3, ...]`: an ally may bring their own secret alliances into the light."""
    ids = value if isinstance(value, list) else [value]
    mine = [a["id"] for a in state["alliances"]
            if a["status"] == "active" and a["secret"] and player in a["members"]]
    return [ChoiceError(player, "reveal", f"{i!r} is not one of your secret alliances ("
                        + (", ".join(mine) or "none") + ")") for i in ids if i not in mine]


def reveal(state: State, player: str, value: object) -> list[Event]:
    ids = value if isinstance(value, list) else [value]
    events = []
    for alliance in state["alliances"]:
        if alliance["id"] in ids:
            alliance["secret"] = False
            events.append(Event(f"{player} reveals alliance {alliance['id']}: "
                                f"{' and '.join(alliance['members'])} are allied "
                                f"({alliance_name(state, alliance['type'])})"))
    return events
