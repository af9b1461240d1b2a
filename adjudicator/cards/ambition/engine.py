"""Ambition as a turn-file game: set-up, the phase machine and the TurnGame
contract. Each step of a turn is its own phase, so a player's answer
(challenge, acceptance, deflection) arrives in its own turn file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.cards.ambition import (
    diplomacy,
    flow,
    intrigue,
    nuclear,
    proposals,
    views,
)
from adjudicator.cards.ambition.table import draw_elite, elite_value, shuffled
from adjudicator.cards.common import (
    Choice,
    ChoiceError,
    Event,
    Outcome,
    PhaseInfo,
    State,
    VariantData,
    new_rng_record,
)
from adjudicator.errors import DataFileError


@dataclass(frozen=True)
class Step:
    """One kind of phase: who it waits for, and how it checks and applies choices."""

    title: str
    waiting: Callable[[State], list[str]]
    validate: Callable[[State, dict[str, Choice]], list[ChoiceError]]
    apply: Callable[[State, dict[str, Choice]], list[Event]]
    default: Callable[[State, str], Choice | None]
    quiet: Callable[[State], bool] = lambda state: False  # PhaseInfo.quiet_defaults


def everyone(state: State) -> list[str]:
    return list(state["players"])


def the_active(state: State) -> list[str]:
    return [state["pending"]["player"]]


STEPS: dict[str, Step] = {
    "diplomacy": Step("Diplomacy phase", the_active, diplomacy.validate, diplomacy.apply,
                      diplomacy.default),
    "challenge": Step("challenges to a declaration", diplomacy.challenge_waiting,
                      diplomacy.challenge_validate, diplomacy.challenge_apply,
                      lambda s, p: {"challenge": False}),
    "answer": Step("answer to an alliance proposal", proposals.answer_waiting,
                   proposals.answer_validate, proposals.answer_apply, proposals.answer_default,
                   proposals.answer_quiet),
    "defence": Step("answers to a nuclear attack", nuclear.defence_waiting, nuclear.defence_validate,
                    nuclear.defence_apply, lambda s, p: {}),
    "intrigue": Step("Intrigue phase", the_active, intrigue.validate, intrigue.apply, intrigue.default),
    "drawn": Step("keep or play the drawn card", the_active, intrigue.drawn_validate,
                  intrigue.drawn_apply, intrigue.drawn_default, intrigue.drawn_quiet),
    "comply": Step("Disarmament Treaty: discard Nuclear Arms", everyone, intrigue.comply_validate,
                   intrigue.comply_apply, intrigue.comply_default),
    "audit": Step("Disarmament Treaty: challenges", everyone, intrigue.audit_validate,
                  intrigue.audit_apply, intrigue.audit_default),
}

KNOWN_EFFECTS = set(intrigue.IMMEDIATE) | set(intrigue.PLAYED) | {"nuclear_arms", "bunker", "shield",
                                                                    "immunity"}
KNOWN_PERKS = {"halve_nuclear_loss", "diplomacy_income", "reroll", "challenge_bonus", "spy_elite",
               "alliance_bonus"}
ALLIANCE_TYPES = {"mutual-defense", "unity-compact", "technology-trade", "industrial-exchange",
                  "delay-tactic"}


FIELDS = {
    "elites": {"key", "name", "value", "count", "source"},
    "network": {"key", "name", "perk", "text", "count", "amount", "source"},
    "alliances": {"key", "name", "cost", "limit", "limit_source", "hold_rounds", "text", "source"},
    "intrigue": {"key", "name", "count", "timing", "effect", "text", "amount", "source"},
}


def _check_fields(data: dict[str, Any], where: str) -> None:
    """An unknown field is refused: in a {...} mapping an unquoted comma ends
    a text and turns the rest into a field of its own, which would otherwise
    cut the card's text short without a word."""
    for kind, allowed in FIELDS.items():
        for entry in data.get(kind) or []:
            if not isinstance(entry, dict):
                continue
            extra = sorted(str(k) for k in entry if k not in allowed)
            if extra:
                raise DataFileError(f"{kind} entry {entry.get('key')}: unknown field {extra[0]!r} "
                                    "(a text with a comma must be quoted)", file=where)


def catalog_from(data: dict[str, Any]) -> dict[str, Any]:
    """The variant data, checked and keyed by card key, to be kept in the state."""
    where = "variants/ambition.yaml"
    _check_fields(data, where)
    try:
        catalog = {
            "settings": {k: v["value"] for k, v in data["settings"].items()},
            "elites": {e["key"]: {"name": e["name"], "value": int(e["value"]), "count": int(e["count"])}
                       for e in data["elites"]},
            "network": {n["key"]: {k: n[k] for k in ("name", "perk", "text", "count", "amount") if k in n}
                        for n in data["network"]},
            "alliances": {a["key"]: {k: a.get(k) for k in ("name", "cost", "limit", "hold_rounds", "text")}
                          for a in data["alliances"]},
            "intrigue": {c["key"]: {k: c[k] for k in ("name", "count", "timing", "effect", "text", "amount")
                                    if k in c} for c in data["intrigue"]},
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise DataFileError(f"bad or missing card data: {exc}", file=where) from None
    # The round limit is a game option (rules:); a game folder's copy from
    # before it was one keeps it under settings.
    limit = (data.get("rules") or {}).get("round_limit", catalog["settings"].get("round_limit"))
    if type(limit) is not int or limit < 1:
        raise DataFileError(f"option round_limit must be a whole number of rounds, 1 or more, not {limit!r}")
    catalog["settings"]["round_limit"] = limit
    for key, card in catalog["intrigue"].items():
        if card["effect"] not in KNOWN_EFFECTS:
            raise DataFileError(f"intrigue card {key}: unknown effect {card['effect']!r}", file=where)
    for key, card in catalog["network"].items():
        if card["perk"] not in KNOWN_PERKS:
            raise DataFileError(f"network card {key}: unknown perk {card['perk']!r}", file=where)
    if set(catalog["alliances"]) != ALLIANCE_TYPES:
        raise DataFileError("alliances must be exactly " + ", ".join(sorted(ALLIANCE_TYPES)), file=where)
    if not isinstance(catalog["alliances"]["industrial-exchange"]["hold_rounds"], int):
        raise DataFileError("industrial-exchange needs hold_rounds (the handbook's 3)", file=where)
    return catalog


def deck(catalog: dict[str, Any], kind: str) -> list[str]:
    return [f"{key}-{n}" for key, entry in catalog[kind].items() for n in range(1, entry["count"] + 1)]


class Ambition:
    name = "ambition"
    # The field names its choices use: a mailed line with one of these keys is
    # the player's choice, never a misspelt password (Ambition's `secret: true`).
    choice_keys = frozenset({"accept", "action", "alliance", "arms", "card", "challenge", "deflect", "discard",
                             "immunity", "keep", "network", "partner", "players", "reveal", "secret", "spy", "target",
                             "third", "value"})
    title = "Ambition"
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        self.variant_data = VariantData(self.name)

    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        catalog = catalog_from(data)
        state: State = {"game": "ambition", "players": list(players), "rng": new_rng_record(seed),
                        "round": 1, "turn": 0, "catalog": catalog}
        state["elites"] = {p: {"deck": shuffled(state, deck(catalog, "elites")), "hand": [], "discard": []}
                           for p in players}
        state["network"] = {p: {"deck": shuffled(state, deck(catalog, "network")), "discard": []}
                            for p in players}
        state["intrigue"] = {"deck": shuffled(state, deck(catalog, "intrigue")), "discard": []}
        state["hands"] = {p: [] for p in players}
        state["in_play"] = {}
        state["armed"] = {p: False for p in players}
        state["tokens"] = len(players) * int(catalog["settings"]["tokens_per_player"])
        state["alliances"] = []
        state["alliance_count"] = 0
        state["over"] = False
        state["influence"] = {}
        for p in players:
            for _ in range(int(catalog["settings"]["starting_elites"])):
                draw_elite(state, p)
            # starting currency is the three Elites drawn, which stay in hand
            state["influence"][p] = sum(elite_value(state, c) for c in state["elites"][p]["hand"])
        state["log"] = [e.text for e in flow.begin_turn(state)]
        return state

    def phase(self, state: State) -> PhaseInfo | None:
        step = state["pending"]["step"]
        if step == "over":
            return None
        waiting = STEPS[step].waiting(state)
        player = state["pending"]["player"]
        return PhaseInfo(name=f"r{state['round']}-{player}-{step}",
                         mode="sequential" if len(waiting) == 1 else "simultaneous",
                         waiting_for=waiting,
                         title=f"Round {state['round']}, {player}'s turn: {STEPS[step].title}",
                         quiet_defaults=STEPS[step].quiet(state))

    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        step = state["pending"]["step"]
        if step == "over":
            return [ChoiceError(p, p, "the game is over") for p in turn]
        waiting = STEPS[step].waiting(state)
        errors = [ChoiceError(p, p, f"not your turn: waiting for {', '.join(waiting)}")
                  for p in turn if p not in waiting]
        mine = {p: c for p, c in turn.items() if p in waiting}
        return errors + STEPS[step].validate(state, mine)

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        step = state["pending"]["step"]
        return None if step == "over" else STEPS[step].default(state, player)

    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        step = STEPS[state["pending"]["step"]]
        full = {p: turn.get(p, step.default(state, p)) for p in step.waiting(state)}
        events = step.apply(state, {p: c for p, c in full.items() if c is not None})
        state["log"] = [e.text for e in events if e.visible_to is None]
        return Outcome(state, events)

    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.public_view(state)

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.private_view(state, player)


GAME = Ambition()
