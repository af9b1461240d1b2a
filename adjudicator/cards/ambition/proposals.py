"""The answer phase: the proposed ally accepts or declines an alliance."""

from __future__ import annotations

from adjudicator.cards.ambition import flow
from adjudicator.cards.ambition.alliances import cost_of, form, shortfall
from adjudicator.cards.ambition.table import extra_keys
from adjudicator.cards.common import Choice, ChoiceError, Event, State


def answer_waiting(state: State) -> list[str]:
    """A secret proposal waits for everyone but the proposer, so the phase itself
    does not tell who was asked."""
    pending = state["pending"]
    if pending["terms"].get("secret"):
        return [p for p in state["players"] if p != pending["player"]]
    return [pending["partner"]]


def answer_default(state: State, player: str) -> Choice:
    """Silence declines: a silent partner refuses, a silent outsider to a secret
    proposal does nothing (it has nothing to accept)."""
    return {"accept": False}


def answer_quiet(state: State) -> bool:
    """In a secret phase the list of silent players could point at the one who
    really answered, so the driver tells each of them alone that a default applied."""
    return bool(state["pending"]["terms"].get("secret"))


def answer_validate(state: State, turn: dict[str, Choice]) -> list[ChoiceError]:
    pending = state["pending"]
    errors: list[ChoiceError] = []
    for player, choice in turn.items():
        if not isinstance(choice, dict):
            errors.append(ChoiceError(player, "accept", "expected a mapping like {accept: true}"))
            continue
        unknown = extra_keys(choice, {"accept"})
        for name in unknown:
            errors.append(ChoiceError(player, name, "unknown field; this phase takes only accept"))
        accept = choice.get("accept", False)
        if not isinstance(accept, bool):
            errors.append(ChoiceError(player, "accept", "must be true or false"))
            continue
        if accept and player != pending["partner"]:
            errors.append(ChoiceError(player, "accept", "no alliance was proposed to you"))
        elif accept:
            problem = shortfall(state, player, cost_of(state, pending["terms"]["alliance"]))
            if problem:
                errors.append(ChoiceError(player, "accept", problem))
    return errors


def answer_apply(state: State, turn: dict[str, Choice]) -> list[Event]:
    pending = state["pending"]
    proposer, partner, terms = pending["player"], pending["partner"], pending["terms"]
    members = (proposer, partner)
    secret = bool(terms.get("secret"))
    public = [Event(f"{proposer}'s secret proposal has been answered")] if secret else []
    if turn.get(partner, {}).get("accept", False):
        return public + form(state, proposer, partner, terms) + flow.to_intrigue(state)
    text = f"{partner} declines {proposer}'s proposal: no alliance, no influence"
    return public + [Event(text, members if secret else None)] + flow.to_intrigue(state)
