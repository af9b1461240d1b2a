"""The Intrigue phase: draw a card (resolving it at once or keeping it) or play
one from hand. Disarmament Treaty can be bluffed, so it opens a compliance
phase and then an audit where anyone may challenge (10 either way)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from adjudicator.cards.ambition import alliances, flow, nuclear, scoring
from adjudicator.cards.ambition.table import (
    card_name,
    discard_intrigue,
    draw_elite,
    draw_from,
    draw_intrigue,
    effect_of,
    extra_keys,
    gain,
    hand_with_effect,
    intrigue_card,
    key_of,
    not_held,
    others,
    pay,
    plural,
    put_in_play,
    seat_order_from,
    setting,
)
from adjudicator.cards.common import Choice, ChoiceError, Event, State, rng

# the extra fields each playable card takes
PLAY_FIELDS: dict[str, set[str]] = {
    "armageddon": set(),
    "sanctions": {"target"},
    "summit": {"players", *alliances.TERM_FIELDS},
    "backstab": {"alliance"},
    "scandal": {"target"},
    "espionage": {"target"},
    "embargo": {"network"},
}


def default(state: State, player: str) -> Choice:
    return {"action": "draw"}


def validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        if not isinstance(choice, dict):
            errors.append(ChoiceError(player, "action", "expected a mapping like {action: draw}"))
            continue
        if "reveal" in choice:
            errors += alliances.validate_reveal(state, player, choice["reveal"])
            choice = {k: v for k, v in choice.items() if k != "reveal"}
        if choice.get("action") == "draw":
            errors += [ChoiceError(player, k, "drawing takes no other field")
                       for k in extra_keys(choice, {"action"})]
        elif choice.get("action") == "play":
            errors += validate_play(state, player, choice)
        else:
            errors.append(ChoiceError(player, "action", f"unknown action {choice.get('action')!r}; "
                                      "draw or play"))
    return errors


def validate_play(state: State, player: str, choice: Choice) -> list[ChoiceError]:
    card = choice.get("card")
    if not isinstance(card, str) or key_of(card) not in state["catalog"]["intrigue"]:
        return [ChoiceError(player, "card", f"unknown card {card!r}")]
    if card not in state["hands"][player]:
        return [ChoiceError(player, "card", f"{card} is not in your hand")]
    reason = unplayable(state, player, card)
    if reason is not None:
        return [ChoiceError(player, "card", reason)]
    effect = effect_of(state, card)
    errors = [ChoiceError(player, k, f"not a field of {card_name(state, card)}")
              for k in extra_keys(choice, PLAY_FIELDS[effect] | {"action", "card"})]
    target = choice.get("target")
    if effect in ("sanctions", "scandal", "espionage") and target not in others(state, player):
        errors.append(ChoiceError(player, "target", f"{target!r} is not another player"))
    elif effect == "sanctions" and not state["armed"][target]:
        errors.append(ChoiceError(player, "target", f"{target} has no Nuclear Armament token"))
    network = choice.get("network")
    if effect == "embargo" and (not isinstance(network, str) or network not in state["in_play"]):
        errors.append(ChoiceError(player, "network", f"no {network!r} card is in play: name one of "
                                  + (", ".join(state["in_play"]) or "(none is in play)")))
    if effect == "backstab":
        mine = [a["id"] for a in state["alliances"] if a["status"] == "active" and player in a["members"]]
        if choice.get("alliance") not in mine:
            errors.append(ChoiceError(player, "alliance", f"{choice.get('alliance')!r} is not one of your "
                                      "active alliances (" + (", ".join(mine) or "none") + ")"))
    if effect == "summit":
        errors += validate_summit(state, player, choice)
    return errors


# --- whether a card can be played now, whatever fields its player gives ------------

def armageddon_blocked(state: State, player: str) -> str | None:
    if not nuclear.all_armed(state):
        unarmed = [p for p in state["players"] if not state["armed"][p]]
        return "Armageddon needs every player armed; not armed: " + ", ".join(unarmed)
    if any(a["status"] == "active" and a["type"] == "delay-tactic" and player in a["members"]
           for a in state["alliances"]):
        return "your Delay Tactic forbids holding or playing Armageddon"
    return None


def sanctions_blocked(state: State, player: str) -> str | None:
    if any(state["armed"][p] for p in others(state, player)):
        return None
    return "Sanctions need another player with a Nuclear Armament token, and no one else has one"


def backstab_blocked(state: State, player: str) -> str | None:
    if any(a["status"] == "active" and player in a["members"] for a in state["alliances"]):
        return None
    return "Backstab needs an active alliance of yours, and you have none"


def embargo_blocked(state: State, player: str) -> str | None:
    return None if state["in_play"] else "Embargo needs an Industrial Networking card in play, and there is none"


def summit_blocked(state: State, player: str) -> str | None:
    """Some pair of other players, not yet allied, who can both pay the
    cheapest alliance (every type can be named for any pair)."""
    cheapest = min(alliances.cost_of(state, kind) for kind in state["catalog"]["alliances"])
    for a, b in combinations(others(state, player), 2):
        if (alliances.active_between(state, a, b) is None
                and min(state["influence"][a], state["influence"][b]) >= cheapest):
            return None
    return "Forced Summit needs two other players, not allied to each other, who can both pay for an alliance"


BLOCKED: dict[str, Callable[[State, str], str | None]] = {
    "armageddon": armageddon_blocked, "sanctions": sanctions_blocked, "backstab": backstab_blocked,
    "embargo": embargo_blocked, "summit": summit_blocked,
}


def unplayable(state: State, player: str, card: str) -> str | None:
    """Why `player` cannot play `card` in this Intrigue phase, whatever the
    fields they give; None if some play of it could be valid. Only the card's
    holder is ever told: the reason names the card."""
    effect = effect_of(state, card)
    if effect == "nuclear_arms":
        return (f"{card_name(state, card)} is not played in the Intrigue phase (it is used to attack "
                "in place of a Diplomacy phase, or to deflect an attack)")
    if effect not in PLAY_FIELDS:
        return (f"{card_name(state, card)} is not played in the Intrigue phase (it is used only in "
                "answer to a nuclear attack)")
    blocked = BLOCKED.get(effect)
    return blocked(state, player) if blocked else None


def validate_summit(state: State, player: str, choice: Choice) -> list[ChoiceError]:
    pair = choice.get("players")
    # membership before set(): a list or mapping in the pair cannot be hashed
    if (not isinstance(pair, list) or len(pair) != 2
            or any(p not in others(state, player) for p in pair) or pair[0] == pair[1]):
        return [ChoiceError(player, "players", "name two other players, e.g. [bob, carol]")]
    errors = alliances.validate_terms(state, player, pair[0], pair[1], choice)
    if errors:
        return errors
    cost = alliances.cost_of(state, choice["alliance"])
    for p in pair:
        problem = alliances.shortfall(state, p, cost)
        if problem:
            errors.append(ChoiceError(player, "players", f"{p} {problem.replace('you have', 'has')}"))
    return errors


def apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    player = state["pending"]["player"]
    choice = turn[player]
    events = alliances.reveal(state, player, choice["reveal"]) if "reveal" in choice else []
    if choice["action"] == "play":
        return events + play(state, player, choice)
    reshuffle = not state["intrigue"]["deck"] and bool(state["intrigue"]["discard"])
    card = draw_intrigue(state)
    if reshuffle:  # the table sees the discards become the deck
        events.append(Event("The intrigue deck is empty: the intrigue discard pile is shuffled "
                            "into a new deck"))
    if card is None:
        return events + [Event(f"{player} finds the intrigue deck empty")] + flow.end_turn(state)
    state["hands"][player].append(card)
    return events + resolve_draw(state, player, card)


def resolve_draw(state: State, player: str, card: str) -> list[Event]:
    entry = intrigue_card(state, card)
    effect, name = entry["effect"], entry["name"]
    if entry["timing"] == "immediate":
        discard_intrigue(state, player, card)
        events = [Event(f"{player} draws {name} and resolves it")] + IMMEDIATE[effect](state, player, entry)
        if state["pending"]["step"] in ("intrigue", "drawn"):
            events += flow.end_turn(state)
        return events
    private = [Event(f"You draw {name} [{card}]", (player,))]
    if effect == "nuclear_arms" and not state["armed"][player]:
        discard_intrigue(state, player, card)
        return [Event(f"{player} draws Nuclear Arms without armament and discards it")] + flow.end_turn(state)
    if effect == "armageddon":
        delay = [a for a in state["alliances"] if a["status"] == "active"
                 and a["type"] == "delay-tactic" and player in a["members"]]
        if delay or not state["armed"][player]:
            discard_intrigue(state, player, card)
            if not state["armed"][player]:
                events = [Event(f"{player} draws Armageddon and discards it without armament")]
            else:  # the discard is seen; a secret Delay Tactic behind it is not
                events = [Event(f"{player} draws Armageddon and discards it")]
                events += [alliances.tell(a, f"{player} discards Armageddon as Delay Tactic "
                                          f"{a['id']} demands") for a in delay]
            for a in delay:
                if all(state["armed"][m] for m in a["members"]):
                    events += alliances.meet(state, a)
            return events + flow.end_turn(state)
    # The table learns only that a card was drawn and kept, never its kind:
    # every kept card opens the drawn phase, even one that cannot be played
    # now, since a turn ending at once would tell everyone it was unplayable.
    state["pending"] = {"step": "drawn", "player": player, "card": card}
    reason = unplayable(state, player, card)
    told = ("You may keep it or play it now" if reason is None
            else f"You cannot play it now: {reason}. You keep it")
    return [Event(f"{player} draws an intrigue card")] + private + [Event(told, (player,))]


def play(state: State, player: str, choice: Choice) -> list[Event]:
    card = choice["card"]
    discard_intrigue(state, player, card)
    entry = intrigue_card(state, card)
    events = [Event(f"{player} plays {entry['name']}")] + PLAYED[entry["effect"]](state, player, choice)
    if state["pending"]["step"] in ("intrigue", "drawn"):
        events += flow.end_turn(state)
    return events


# --- the drawn phase: keep the card or play it now --------------------------------
# Every kept draw comes here, playable or not; the phase looks the same to the
# table whatever was drawn, and only the drawer is told what they may do.

def drawn_default(state: State, player: str) -> Choice:
    return {"action": "keep"}


def drawn_quiet(state: State) -> bool:
    """A drawer with nothing to play may well send nothing; announcing that
    silence to the table would hint at the kind of card, so only they are told."""
    return True


def drawn_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    card = state["pending"]["card"]
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        if not isinstance(choice, dict):
            errors.append(ChoiceError(player, "action", "expected {action: keep} or {action: play, ...}"))
        elif choice.get("action") == "keep":
            errors += [ChoiceError(player, k, "keeping takes no other field")
                       for k in extra_keys(choice, {"action"})]
        elif choice.get("action") == "play" and (reason := unplayable(state, player, card)):
            errors.append(ChoiceError(player, "action", f"{reason}; you may only keep it now: "
                                      "send {action: keep} or nothing"))
        elif choice.get("action") == "play":
            if choice.get("card", card) != card:
                errors.append(ChoiceError(player, "card", f"now you may play only the card you drew, {card}"))
            errors += validate_play(state, player, dict(choice, card=card))
        else:
            errors.append(ChoiceError(player, "action",
                                      f"unknown action {choice.get('action')!r}; keep or play"))
    return errors


def drawn_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    player, card = state["pending"]["player"], state["pending"]["card"]
    choice = turn[player]
    if choice["action"] == "play":
        return play(state, player, dict(choice, card=card))
    return [Event(f"{player} keeps the card")] + flow.end_turn(state)


# --- immediate effects ---------------------------------------------------------------

Entry = dict[str, Any]


def disarmament(state: State, player: str, entry: Entry) -> list[Event]:
    state["pending"] = {"step": "comply", "player": player}
    return [Event("Every player must discard all Nuclear Arms in hand")]


def leak(state: State, player: str, entry: Entry) -> list[Event]:
    events = []
    for a in state["alliances"]:
        if a["status"] == "active" and a["secret"]:
            a["secret"] = False
            events.append(Event(f"Revealed: {' and '.join(a['members'])} are secretly allied "
                                f"({a['id']}, {state['catalog']['alliances'][a['type']]['name']})"))
    return events or [Event("There is no secret alliance to reveal")]


def expansion(state: State, player: str, entry: Entry) -> list[Event]:
    card = draw_from(state, state["network"][player])
    if card is None:
        return [Event(f"{player} has no Industrial Networking card left")]
    return put_in_play(state, player, card)


def boom(state: State, player: str, entry: Entry) -> list[Event]:
    for p in state["players"]:
        gain(state, p, int(entry["amount"]))
    return [Event(f"Every player collects {entry['amount']}")]


def crash(state: State, player: str, entry: Entry) -> list[Event]:
    paid = {p: pay(state, p, int(entry["amount"])) for p in state["players"]}
    return [Event("Every player pays: " + ", ".join(f"{p} {n}" for p, n in paid.items()))]


def scout(state: State, player: str, entry: Entry) -> list[Event]:
    drawn = [c for c in (draw_elite(state, player) for _ in range(int(entry["amount"]))) if c]
    return [Event(f"{player} draws {plural(len(drawn), 'Elite')}"),
            Event("You draw " + ", ".join(card_name(state, c) for c in drawn), (player,))]


def tax_audit(state: State, player: str, entry: Entry) -> list[Event]:
    top = max(state["influence"].values())
    rich = [p for p in state["players"] if state["influence"][p] == top]
    return [Event(f"{p} is audited and pays {pay(state, p, int(entry['amount']))}") for p in rich]


IMMEDIATE: dict[str, Callable[[State, str, Entry], list[Event]]] = {
    "armament": lambda state, player, entry: nuclear.armament(state, player),
    "disarmament": disarmament, "leak": leak, "expansion": expansion, "boom": boom,
    "crash": crash, "scout": scout, "audit": tax_audit,
}


# --- played effects ------------------------------------------------------------------

def armageddon(state: State, player: str, choice: Choice) -> list[Event]:
    return scoring.end_game(state, f"Armageddon, played by {player}")


def sanctions(state: State, player: str, choice: Choice) -> list[Event]:
    return nuclear.disarm(state, choice["target"])


def summit(state: State, player: str, choice: Choice) -> list[Event]:
    terms = {k: choice[k] for k in alliances.TERM_FIELDS if k in choice}
    terms["secret"] = False  # a summit forced in public is an open alliance
    return alliances.form(state, choice["players"][0], choice["players"][1], terms)


def backstab(state: State, player: str, choice: Choice) -> list[Event]:
    alliance = next(a for a in state["alliances"] if a["id"] == choice["alliance"])
    return alliances.backstab(state, player, alliance)


def scandal(state: State, player: str, choice: Choice) -> list[Event]:
    target = choice["target"]
    hand = state["elites"][target]["hand"]
    if not hand:
        return [Event(f"{target} has no Elite to lose")]
    card = rng(state).choice(hand)
    hand.remove(card)
    state["elites"][target]["discard"].append(card)
    return [Event(f"Scandal: {target} discards {card_name(state, card)}")]


def espionage(state: State, player: str, choice: Choice) -> list[Event]:
    target = choice["target"]
    cards = state["elites"][target]["hand"] + state["hands"][target]
    seen = ", ".join(card_name(state, c) for c in cards) or "nothing"
    return [Event(f"{player} spies on {target}'s hand"),
            Event(f"Espionage: {target} holds {seen}", (player,))]


def embargo(state: State, player: str, choice: Choice) -> list[Event]:
    slot = state["in_play"].pop(choice["network"])
    state["network"][slot["holder"]]["discard"].append(slot["card"])
    name = state["catalog"]["network"][choice["network"]]["name"]
    return [Event(f"Embargo: {slot['holder']}'s {name} is discarded")]


PLAYED: dict[str, Callable[[State, str, Choice], list[Event]]] = {
    "armageddon": armageddon, "sanctions": sanctions, "summit": summit, "backstab": backstab,
    "scandal": scandal, "espionage": espionage, "embargo": embargo,
}


# --- Disarmament Treaty: comply (maybe bluffing), then audit -----------------------

def comply_default(state: State, player: str) -> Choice:
    return {"discard": hand_with_effect(state, player, "nuclear_arms")}


def comply_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        cards = choice.get("discard", []) if isinstance(choice, dict) else None
        if not isinstance(cards, list) or set(choice) - {"discard"}:
            errors.append(ChoiceError(player, "discard", "expected {discard: [CARD, ...]}"))
            continue
        arms = hand_with_effect(state, player, "nuclear_arms")
        errors += [ChoiceError(player, "discard", not_held(state, c, "a Nuclear Arms card"))
                   for c in cards if c not in arms]
        if len(set(map(str, cards))) != len(cards):
            errors.append(ChoiceError(player, "discard", "a card is listed twice"))
    return errors


def comply_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    events = []
    for player in state["players"]:
        cards = turn.get(player, {}).get("discard", [])
        for card in cards:
            discard_intrigue(state, player, card)
        events.append(Event(f"{player} discards {len(cards)} Nuclear Arms and claims to hold none"))
        kept = hand_with_effect(state, player, "nuclear_arms")
        if kept:
            events.append(Event(f"You kept {len(kept)} Nuclear Arms: a bluff others may challenge",
                                (player,)))
    state["pending"] = {"step": "audit", "player": state["pending"]["player"]}
    return events


def audit_default(state: State, player: str) -> Choice:
    return {"challenge": []}


def audit_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        names = choice.get("challenge", []) if isinstance(choice, dict) else None
        if not isinstance(names, list) or set(choice) - {"challenge"}:
            errors.append(ChoiceError(player, "challenge", "expected {challenge: [PLAYER, ...]}"))
            continue
        errors += [ChoiceError(player, "challenge", f"{n!r} is not another player")
                   for n in names if n not in others(state, player)]
    return errors


def audit_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    """A caught bluffer fulfils the card and pays the penalty; a wrong challenger pays it."""
    penalty = int(setting(state, "challenge_penalty"))
    events: list[Event] = []
    caught: set[str] = set()
    for challenger in seat_order_from(state, state["pending"]["player"]) + [state["pending"]["player"]]:
        for accused in turn.get(challenger, {}).get("challenge", []):
            kept = hand_with_effect(state, accused, "nuclear_arms")
            if kept or accused in caught:
                for card in kept:
                    discard_intrigue(state, accused, card)
                events.append(Event(f"{challenger} challenges {accused}: caught bluffing, "
                                    f"{accused} discards {len(kept)} more Nuclear Arms"))
                if accused not in caught:
                    caught.add(accused)
                    events.append(Event(f"{accused} pays the penalty of {pay(state, accused, penalty)}"))
            else:
                events.append(Event(f"{challenger} challenges {accused} wrongly and pays "
                                    f"{pay(state, challenger, penalty)}"))
    return (events or [Event("No one challenges the disarmament")]) + flow.end_turn(state)
