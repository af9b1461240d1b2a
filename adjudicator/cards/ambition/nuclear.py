"""Nuclear armament, attacks, deflection and the blast."""

from __future__ import annotations

from adjudicator.cards.ambition import alliances, flow
from adjudicator.cards.ambition.table import (
    discard_intrigue,
    effect_of,
    extra_keys,
    has_perk,
    lose_hand,
    neighbours,
    not_held,
    others,
    pay,
    perk_via,
    plural,
    seat_order_from,
    setting,
)
from adjudicator.cards.common import Choice, ChoiceError, Event, State


def all_armed(state: State) -> bool:
    return all(state["armed"].values())


def armament(state: State, player: str) -> list[Event]:
    """'I am become death': a token for the drawer, or for the next unarmed player."""
    if state["tokens"] <= 0:
        return [Event("No Nuclear Armament token is left in the supply")]
    taker = player if not state["armed"][player] else next(
        (p for p in seat_order_from(state, player) if not state["armed"][p]), None)
    if taker is None:
        return [Event("Every player is already armed")]
    state["armed"][taker] = True
    state["tokens"] -= 1
    return [Event(f"{taker} takes a Nuclear Armament token")]


def disarm(state: State, player: str) -> list[Event]:
    state["armed"][player] = False
    state["tokens"] += 1
    return [Event(f"{player} returns their Nuclear Armament token")]


def validate_attack(state: State, player: str, choice: Choice) -> list[ChoiceError]:
    errors = []
    if not state["armed"][player]:
        errors.append(ChoiceError(player, "action", "attacking needs a Nuclear Armament token"))
    arms = choice.get("arms")
    if not isinstance(arms, str) or arms not in state["hands"][player] or effect_of(state, arms) != "nuclear_arms":
        errors.append(ChoiceError(player, "arms", not_held(state, arms, "a Nuclear Arms card")))
    if choice.get("target") not in others(state, player):
        errors.append(ChoiceError(player, "target", f"{choice.get('target')!r} is not another player"))
    return errors


def declare_attack(state: State, player: str, choice: Choice) -> list[Event]:
    discard_intrigue(state, player, choice["arms"])
    state["pending"] = {"step": "defence", "player": player, "target": choice["target"]}
    hit = [choice["target"]] + [p for p in neighbours(state, choice["target"]) if p != player]
    return [Event(f"{player} launches a nuclear attack on {choice['target']}; in the blast: "
                  + ", ".join(hit) + ". Anyone may deflect it")]


# --- the defence phase: everyone else may deflect or brace ----------------------

def defence_waiting(state: State) -> list[str]:
    return others(state, state["pending"]["player"])


def defence_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        if not isinstance(choice, dict):
            errors.append(ChoiceError(player, "deflect", "expected a mapping, e.g. {} or {deflect: CARD}"))
            continue
        for name in extra_keys(choice, {"deflect", "immunity"}):
            errors.append(ChoiceError(player, name, "unknown field; use deflect or immunity"))
        card = choice.get("deflect")
        if card is not None:
            if card not in state["hands"][player]:
                errors.append(ChoiceError(player, "deflect",
                                          not_held(state, card, "a Nuclear Arms or Missile Shield")))
            elif effect_of(state, card) == "nuclear_arms" and not state["armed"][player]:
                errors.append(ChoiceError(player, "deflect", "Nuclear Arms are unusable without a token"))
            elif effect_of(state, card) not in ("nuclear_arms", "shield"):
                errors.append(ChoiceError(player, "deflect", "deflect with Nuclear Arms or a Missile Shield"))
        card = choice.get("immunity")
        if card is not None and (card not in state["hands"][player]
                                 or effect_of(state, card) != "immunity"):
            errors.append(ChoiceError(player, "immunity",
                                      not_held(state, card, "a Diplomatic Immunity")))
    return errors


def defence_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    attacker, target = state["pending"]["player"], state["pending"]["target"]
    order = seat_order_from(state, attacker)
    deflector = next((p for p in order if turn.get(p, {}).get("deflect")), None)
    # every pact of the target with someone other than the attacker answers for itself
    pacts = [a for a in state["alliances"] if a["status"] == "active"
             and a["type"] == "mutual-defense" and target in a["members"]
             and attacker not in a["members"]]
    events: list[Event] = []
    if deflector is not None:
        card = turn[deflector]["deflect"]
        discard_intrigue(state, deflector, card)
        how = "Nuclear Arms" if effect_of(state, card) == "nuclear_arms" else "a Missile Shield"
        events.append(Event(f"{deflector} deflects the attack with {how}: no one is hit"))
        for pact in pacts:
            if deflector in pact["members"] and deflector != target:
                events += alliances.meet(state, pact)
        return events + flow.to_intrigue(state)
    for pact in pacts:
        events += alliances.fail(state, pact, "the ally did not come to the target's aid")
    events += blast(state, attacker, target, turn)
    return events + flow.to_intrigue(state)


def blast(state: State, attacker: str, target: str, turn: dict[str, Choice]) -> list[Event]:
    hit = [target] + [p for p in neighbours(state, target) if p != attacker]
    events: list[Event] = []
    protected: set[str] = set()
    for player in hit:
        if player not in protected:
            events += shelter(state, attacker, player, protected)
    for player in hit:
        if player in protected:
            events.append(Event(f"{player} is unaffected"))
            continue
        loss = int(setting(state, "target_loss" if player == target else "neighbour_loss"))
        immunity = turn.get(player, {}).get("immunity")
        if immunity:
            discard_intrigue(state, player, immunity)
            loss //= 2
        # say why a loss is halved, unless the Tecmeds comes through a secret exchange
        halved = ""
        if has_perk(state, player, "halve_nuclear_loss"):
            loss //= 2
            via = perk_via(state, player, "halve_nuclear_loss")
            halved = "" if isinstance(via, dict) and via["secret"] else " (halved by Tecmeds)"
        paid = pay(state, player, loss)
        short = (f" (owed {loss}, had no more)" if paid < loss else "") + halved
        if immunity:
            events.append(Event(f"{player} invokes Diplomatic Immunity: loses {paid}{short} "
                                "and keeps their hand"))
        else:
            cards = lose_hand(state, player)
            events.append(Event(f"{player} is hit: loses {paid} influence{short} and {plural(cards, 'card')}"))
    if attacker in neighbours(state, target):
        cards = lose_hand(state, attacker)
        events.append(Event(f"{attacker} sits next to {target}: no influence lost, "
                            f"but {plural(cards, 'card')} discarded"))
    return events


def shelter(state: State, attacker: str, player: str, protected: set[str]) -> list[Event]:
    """A Bunker in the player's hand, or in a Technology Trade ally's hand when
    the attacker is a third player, is spent to shelter them both."""
    trades = [a for a in state["alliances"] if a["status"] == "active" and a["type"] == "technology-trade"
              and player in a["members"] and attacker not in a["members"]]
    owners = [player] + [m for a in trades for m in a["members"] if m != player]
    for owner in owners:
        bunker = next((c for c in state["hands"][owner] if effect_of(state, c) == "bunker"), None)
        if bunker is None:
            continue
        discard_intrigue(state, owner, bunker)
        protected.add(player)
        whose = "a" if owner == player else f"{owner}'s"
        events = [Event(f"{player} shelters in {whose} Bunker")]
        for a in trades:
            if owner in a["members"]:
                protected.update(a["members"])
                events += alliances.meet(state, a)
        return events
    return []
