"""The Diplomacy phase: the die decides between influence (draw an Elite or
declare one, perhaps bluffing) and an alliance proposal; an armed player may
attack instead. Declarations open a challenge phase for everyone else."""

from __future__ import annotations

from adjudicator.cards.ambition import alliances, flow, nuclear
from adjudicator.cards.ambition.table import (
    card_name,
    draw_elite,
    elite_value,
    extra_keys,
    gain,
    has_perk,
    not_held,
    others,
    pay,
    perk_amount,
    perk_event,
    roll_die,
    setting,
    with_article,
)
from adjudicator.cards.common import Choice, ChoiceError, Event, State, rng

FIELDS = {
    "draw": set(),
    "pass": set(),
    "reroll": set(),
    "declare": {"card", "value"},
    "propose": {"partner", *alliances.TERM_FIELDS},
    "attack": {"target", "arms"},
}


def default(state: State, player: str) -> Choice:
    return {"action": "draw"} if state["pending"]["roll"] <= 4 else {"action": "pass"}


def validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors: list[ChoiceError] = []
    pending = state["pending"]
    for player, choice in turn.items():
        if not isinstance(choice, dict):
            errors.append(ChoiceError(player, "action", "expected a mapping like {action: draw}"))
            continue
        action = choice.get("action")
        # isinstance first: a list or mapping as the action cannot be looked up
        if not isinstance(action, str) or action not in FIELDS:
            errors.append(ChoiceError(player, "action", f"unknown action {action!r}: name one of "
                                      + ", ".join(FIELDS) + ", e.g. {action: draw}"))
            continue
        for name in extra_keys(choice, FIELDS[action] | {"action", "spy", "reveal"}):
            errors.append(ChoiceError(player, name, f"not a field of action {action}"))
        roll = pending["roll"]
        if action == "draw" and roll > 4:
            errors.append(ChoiceError(player, "action", f"you rolled {roll}: on 5-6 you may claim "
                                      "influence (declare) but not draw an Elite"))
        if action == "propose" and roll <= 4:
            errors.append(ChoiceError(player, "action", f"you rolled {roll}: alliances need a 5 or 6"))
        if action == "reroll" and not has_perk(state, player, "reroll"):
            errors.append(ChoiceError(player, "action", "rerolling needs Aerodef in play"))
        elif action == "reroll" and pending["rerolled"]:
            errors.append(ChoiceError(player, "action", "you already rerolled this Diplomacy phase"))
        if action == "declare":
            errors += validate_declare(state, player, choice)
        if action == "propose":
            errors += validate_proposal(state, player, choice)
        if action == "attack":
            errors += nuclear.validate_attack(state, player, choice)
        if "spy" in choice:
            errors += validate_spy(state, player, choice["spy"])
        if "reveal" in choice:
            errors += alliances.validate_reveal(state, player, choice["reveal"])
    return errors


def validate_declare(state: State, player: str, choice: Choice) -> list[ChoiceError]:
    errors = []
    card = choice.get("card")
    if card not in state["elites"][player]["hand"]:
        errors.append(ChoiceError(player, "card", not_held(state, card, "an Elite")))
    value = choice.get("value")
    top = int(setting(state, "max_declared_value"))
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
        errors.append(ChoiceError(player, "value", f"declare a whole number from 1 to {top}"))
    return errors


def validate_proposal(state: State, player: str, choice: Choice) -> list[ChoiceError]:
    partner = choice.get("partner")
    if partner not in others(state, player):
        return [ChoiceError(player, "partner", f"{partner!r} is not another player")]
    errors = alliances.validate_terms(state, player, player, partner, choice)
    if not errors:
        problem = alliances.shortfall(state, player, alliances.cost_of(state, choice["alliance"]))
        if problem:
            errors.append(ChoiceError(player, "alliance", problem))
    return errors


def validate_spy(state: State, player: str, target: object) -> list[ChoiceError]:
    if not has_perk(state, player, "spy_elite"):
        return [ChoiceError(player, "spy", "spying needs Cybercom in play")]
    if state["pending"]["spied"]:
        return [ChoiceError(player, "spy", "you already spied this Diplomacy phase")]
    if target not in others(state, player):
        return [ChoiceError(player, "spy", f"{target!r} is not another player")]
    return []


def apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    pending = state["pending"]
    player = pending["player"]
    choice = turn[player]
    events: list[Event] = []
    if "reveal" in choice:
        events += alliances.reveal(state, player, choice["reveal"])
    if "spy" in choice:
        events += spy(state, player, choice["spy"])
    action = choice["action"]
    if action == "reroll":
        pending["roll"] = roll_die(state)
        pending["rerolled"] = True
        return events + [Event(f"{player} uses Aerodef and rolls again: {pending['roll']}")]
    if action == "draw":
        card = draw_elite(state, player)
        events.append(Event(f"{player} draws an Elite" if card else f"{player} has no Elite left to draw"))
        if card:
            events.append(Event(f"You draw {card_name(state, card)} [{card}]", (player,)))
        return events + flow.to_intrigue(state)
    if action == "pass":
        return events + [Event(f"{player} takes no diplomatic action")] + flow.to_intrigue(state)
    if action == "declare":
        state["elites"][player]["hand"].remove(choice["card"])
        state["pending"] = {"step": "challenge", "player": player, "card": choice["card"],
                            "value": choice["value"]}
        return events + [Event(f"{player} declares an Elite worth {choice['value']} and lays it "
                               "face down; anyone else may challenge"),
                         Event(f"Your declared card is {card_name(state, choice['card'])}", (player,))]
    if action == "propose":
        terms = {k: choice[k] for k in alliances.TERM_FIELDS if k in choice}
        state["pending"] = {"step": "answer", "player": player, "partner": choice["partner"],
                            "terms": terms}
        detail = (f"{player} proposes {with_article(alliances.describe_terms(state, terms))} "
                  f"to {choice['partner']}")
        if terms.get("secret"):
            return events + [Event(f"{player} makes a secret alliance proposal"),
                             Event(detail + " (secret)", (player, choice["partner"]))]
        return events + [Event(detail)]
    return events + nuclear.declare_attack(state, player, choice)


def spy(state: State, player: str, target: str) -> list[Event]:
    state["pending"]["spied"] = True
    hand = state["elites"][target]["hand"]
    if not hand:
        return [Event(f"Cybercom: {target} holds no Elite", (player,))]
    card = rng(state).choice(hand)
    return [Event(f"{player} uses Cybercom on {target}"),
            Event(f"Cybercom: one of {target}'s Elites is {card_name(state, card)}", (player,))]


# --- the challenge phase ---------------------------------------------------------

def challenge_waiting(state: State) -> list[str]:
    return others(state, state["pending"]["player"])


def challenge_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors = []
    for player, choice in turn.items():
        if not isinstance(choice, dict) or set(choice) - {"challenge"}:
            errors.append(ChoiceError(player, "challenge",
                                      "expected {challenge: true} or {challenge: false}"))
        elif not isinstance(choice.get("challenge", False), bool):
            errors.append(ChoiceError(player, "challenge", "must be true or false"))
    return errors


def challenge_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    """The seed's John and Jill: a true claim gains the value and costs each
    challenger as much; a bluff costs the claimant the value and pays each challenger."""
    pending = state["pending"]
    claimant, card, value = pending["player"], pending["card"], pending["value"]
    state["elites"][claimant]["discard"].append(card)
    challengers = [p for p in others(state, claimant) if turn.get(p, {}).get("challenge")]
    if not challengers:
        gain(state, claimant, value)
        events = [Event(f"No one challenges: {claimant} collects {value}")]
        return events + flow.to_intrigue(state)
    true_value = elite_value(state, card)
    events = [Event(f"{', '.join(challengers)} challenge{'s' if len(challengers) == 1 else ''} "
                    f"{claimant}: the card is {card_name(state, card)}")]
    if true_value == value:
        gain(state, claimant, value)
        events.append(Event(f"The claim was true: {claimant} collects {value}"))
        winners = [claimant]
        for p in challengers:
            paid = pay(state, p, value)
            events.append(Event(f"{p} loses {paid} for the failed challenge"))
    else:
        paid = pay(state, claimant, value)
        events.append(Event(f"The claim was a bluff: {claimant} loses {paid}"))
        winners = challengers
        for p in challengers:
            gain(state, p, value)
            events.append(Event(f"{p} gains {value} for exposing the bluff"))
    for p in winners:
        if has_perk(state, p, "challenge_bonus"):
            bonus = perk_amount(state, "challenge_bonus")
            gain(state, p, bonus)
            events.append(perk_event(state, p, "challenge_bonus", f"{p} collects {bonus} more from Medianet"))
    return events + flow.to_intrigue(state)
