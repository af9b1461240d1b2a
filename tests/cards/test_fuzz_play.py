"""Random play for the four turn-file games, shared by the fuzzer
(test_fuzz_turns.py) and the game-end bound (test_game_ends.py).

`random_turn` builds one turn for the phase the game waits for: for each
waiting player a few plausible choices are made up from the state (cards in
hand, players, guilds, locations...), shuffled, and the first one that
`validate` accepts is taken; when none is, the engine's default is. Every
state reached this way is one a real game can reach: the engine itself
accepted each turn."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from adjudicator.cards.common import Choice, State, TurnGame
from adjudicator.cards.driver import load_data
from adjudicator.cards.registry import find_game

GAMES = ("seven-wonders", "age-of-ambition", "age-of-artisans", "ambition")
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")

_DATA: dict[str, dict[str, Any]] = {}


def game_and_data(name: str) -> tuple[TurnGame, dict[str, Any]]:
    game = find_game(name)
    if name not in _DATA:
        _DATA[name] = load_data(game)
    return game, _DATA[name]


def new_game(name: str, n_players: int, seed: int) -> State:
    game, data = game_and_data(name)
    n = max(game.min_players, min(game.max_players, n_players))
    return game.setup(list(NAMES[:n]), seed, data)


# --- candidate choices, per game -------------------------------------------------

def _seven_wonders(state: State, player: str, r: random.Random) -> list[Choice]:
    city = state["cities"][player]
    out: list[Choice] = []
    kind = state["pending"][0]["kind"] if state["pending"] else "turn"
    cards = state["discard"] if kind == "discard" else city["hand"]
    for card in r.sample(cards, min(len(cards), 4)):
        for action in ("build", "wonder", "sell"):
            out.append({"action": action, "card": card})
    if kind == "discard":
        out.append({"action": "pass"})
    return out


def _age_of_ambition(state: State, player: str, r: random.Random) -> list[Choice]:
    _, data = game_and_data("age-of-ambition")
    from adjudicator.cards.age_of_ambition.engine import GAME
    rules = GAME.rules_of(data)
    guilds = rules.guild_ids
    districts = rules.district_ids
    players = list(state["players"])

    me = state["players"][player]
    supplied = [g for g, n in state["supply"]["agents"].items() if n > 0]
    open_rows = [g for g, row in state["economy"].items() if "." in row]

    def one() -> dict[str, Any]:
        kind = r.choice(["hire", "hire", "distract", "deploy", "deploy", "deploy", "dismiss", "borrow",
                         "reassign"])
        g, d = r.choice(guilds), r.choice(districts)
        if kind == "hire":
            return {"action": "hire", "guild": r.choice(open_rows or guilds)}
        if kind == "distract":
            return {"action": "distract", "guild": r.choice(supplied or guilds), "district": d}
        if kind == "dismiss":
            return {"action": "dismiss", "agents": {g: r.randint(1, 2)}}
        if kind == "borrow":
            return {"action": "borrow", "from": {g: 1}}
        if kind == "reassign":
            return {"action": "reassign", "moves": [{"guild": g, "from": d, "to": r.choice(districts)}]}
        waiting = [x for x, n in me["waiting"].items() if n > 0] or guilds
        g = r.choice(waiting)
        tactic = r.choice(rules.tactics_of(g))
        action: dict[str, Any] = {"action": "deploy", "guild": g, "tactic": tactic.id, "district": d}
        extra: dict[str, dict[str, Any]] = {"claim": {"agents": [r.choice(guilds)]}, "build": {"buildings": [r.choice(guilds)]},
                 "buy_claim": {"agents": [r.choice(guilds)]}, "collect": {"from": [r.choice(guilds)]},
                 "compel": {"agents": [r.choice(guilds)]}, "pick_pockets": {"players": [r.choice(players)]},
                 "steal_credit": {"agent": {"guild": r.choice(guilds), "flag": r.choice(players)}},
                 "sack": {"building": r.choice(guilds)},
                 "move_buildings": {"moves": [{"guild": r.choice(guilds), "from": r.choice(districts)}]}}
        if tactic.effect in extra and r.random() < 0.7:
            action.update(extra[tactic.effect])
        return action

    return [{"actions": [one() for _ in range(r.randint(1, 2))]} for _ in range(6)] + [{"actions": []}]


def _age_of_artisans(state: State, player: str, r: random.Random) -> list[Choice]:
    me = state["players"][player]
    pending = state.get("pending")
    display = [c for row in state["display"] for c in row if c is not None]
    if state["stage"] == "draft":
        return [{"hire": c} for c in display]
    if pending and pending["kind"] == "keep":
        return [{"keep": c} for c in pending["options"]]
    if pending and pending["kind"] == "discard":
        return [{"discard": r.sample(me["hand"], int(pending["count"]))}]
    others = [p for p in state["players"] if p != player]
    locations = ["mines", "quarry", "forest", "silversmith", "tax_stand", "guardhouse", "storehouse",
                 "workhouse", "black_market", "guildhall", "town_center"]
    if me["supply"] == 0:
        return [{"recall": loc} for loc in locations]
    out: list[Choice] = [{"place": "mines", "take": r.choice(["clay", "gold"])},
                         {"place": "quarry"}, {"place": "forest"}, {"place": "silversmith"},
                         {"place": "tax_stand"},
                         {"place": "black_market", "slot": r.choice(["small", "large"])},
                         {"place": "black_market", "slot": "middle", "draw": True},
                         {"place": "workhouse", "draw": True},
                         {"place": "guardhouse", "actions": [r.choice(["turn_in", "release_prison",
                                                                         "release_captured", "pay_debt"])]},
                         {"place": "storehouse", "trades": [{"get": "virtue", "pay": {"clay": 1, "wood": 1}}]},
                         {"place": "storehouse", "trades": [{"get": "marble", "pay": {"stone": 3}}]},
                         {"place": "guildhall", "cathedral": True,
                          "discard": r.choice(me["hand"]) if me["hand"] else 0,
                          "pay": {"stone": 2, "wood": 2}}]
    if display:
        out.append({"place": "workhouse", "hire": r.choice(display)})
        out.append({"place": "black_market", "slot": "middle", "hire": r.choice(display)})
    if others:
        out.append({"place": "town_center",
                    "captures": [{"player": r.choice(others), "location": r.choice(locations[:5])}]})
    for card in me["hand"]:
        out.append({"place": "guildhall", "build": card, "take": r.choice(["gold", "silver", "marble"])})
        out.append({"place": "guildhall", "build": card})
    return out


def _ambition(state: State, player: str, r: random.Random) -> list[Choice]:
    pending = state["pending"]
    step = pending["step"]
    others = [p for p in state["players"] if p != player]
    hand = list(state["hands"][player])
    cat = state["catalog"]
    if step == "diplomacy":
        out: list[Choice] = [{"action": "draw"}, {"action": "pass"}, {"action": "reroll"}]
        for card in state["elites"][player]["hand"]:
            out.append({"action": "declare", "card": card, "value": r.randint(1, 6)})
        for partner in others:
            kind = r.choice(list(cat["alliances"]))
            terms: dict[str, Any] = {"action": "propose", "partner": partner, "alliance": kind,
                                     "secret": r.random() < 0.3}
            if kind == "unity-compact":
                terms["third"] = r.choice(state["players"])
            if kind == "industrial-exchange":
                terms["network"] = r.choice(list(cat["network"]))
            out.append(terms)
            for card in hand:
                out.append({"action": "attack", "target": partner, "arms": card})
        return out
    if step == "challenge":
        return [{"challenge": True}, {"challenge": False}]
    if step == "answer":
        return [{"accept": True}, {"accept": False}]
    if step == "defence":
        return [{}] + [{"deflect": c} for c in hand] + [{"immunity": c} for c in hand]
    if step in ("intrigue", "drawn"):
        plays: list[Choice] = []
        cards = [pending["card"]] if step == "drawn" else hand
        ids = [a["id"] for a in state["alliances"]]
        for card in cards:
            fields: dict[str, Any] = {"target": r.choice(others), "alliance": r.choice(ids or ["A1"]),
                                      "network": r.choice(list(cat["network"]))}
            play = {"action": "play", "card": card}
            effect = cat["intrigue"][card.rsplit("-", 1)[0]]["effect"]
            if effect in ("sanctions", "scandal", "espionage"):
                play["target"] = fields["target"]
            elif effect == "backstab":
                play["alliance"] = fields["alliance"]
            elif effect == "embargo":
                play["network"] = fields["network"]
            elif effect == "summit" and len(others) >= 2:
                play.update(players=r.sample(others, 2), alliance=r.choice(list(cat["alliances"])))
            plays.append(play)
        first = {"action": "keep"} if step == "drawn" else {"action": "draw"}
        return [first] + plays
    if step == "comply":
        arms = [c for c in hand if cat["intrigue"][c.rsplit("-", 1)[0]]["effect"] == "nuclear_arms"]
        return [{"discard": arms}, {"discard": []}]
    if step == "audit":
        return [{"challenge": []}] + [{"challenge": [p]} for p in others]
    return []


CANDIDATES: dict[str, Callable[[State, str, random.Random], list[Choice]]] = {
    "seven-wonders": _seven_wonders, "age-of-ambition": _age_of_ambition,
    "age-of-artisans": _age_of_artisans, "ambition": _ambition,
}


def random_turn(name: str, state: State, r: random.Random, default_share: float = 0.2) -> dict[str, Choice]:
    """One valid turn for the phase now waiting: each waiting player's choice
    is a random valid candidate, or (with `default_share`, or when no
    candidate is valid) the engine's default."""
    game, data = game_and_data(name)
    info = game.phase(state)
    assert info is not None
    turn: dict[str, Choice] = {}
    for player in info.waiting_for:
        default = game.default_choice(state, player, data)
        chosen = default
        if r.random() >= default_share:
            candidates = CANDIDATES[name](state, player, r)
            r.shuffle(candidates)
            for choice in candidates[:12]:
                # no copy: validate must not change the state (the fuzzer checks that)
                if not game.validate(state, {player: choice}, data):
                    chosen = choice
                    break
        if chosen is not None:
            turn[player] = chosen
    return turn


SCALARS = (str, int, float, bool, type(None))


def state_copy(value: Any) -> Any:
    """copy.deepcopy for plain data (dicts, lists and scalars, as a state or turn
    file holds them), a few times quicker; anything else goes to copy.deepcopy.
    Unlike deepcopy, a list or dict found twice is copied twice, as a round trip
    through a file would leave it."""
    kind = type(value)
    if kind is dict:
        return {key: state_copy(item) for key, item in value.items()}
    if kind is list:
        return [state_copy(item) for item in value]
    return value if kind in SCALARS else copy.deepcopy(value)


def play(name: str, state: State, r: random.Random, phases: int) -> tuple[State, int]:
    """Play up to `phases` phases of random valid turns; the state and how many were played."""
    game, data = game_and_data(name)
    played = 0
    while played < phases and game.phase(state) is not None:
        turn = random_turn(name, state, r)
        errors = game.validate(state, turn, data)
        assert not errors, [str(e) for e in errors]
        state = game.apply(state_copy(state), turn, data).state
        played += 1
    return state, played
