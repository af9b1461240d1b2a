"""Random legal play on many seeds and table sizes: whatever happens, cards
are conserved, currency never goes negative, one card per network type is in
play, tokens add up, a pair has at most one alliance, and the public view
never shows a card id."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from adjudicator.cards.ambition.engine import GAME
from adjudicator.cards.ambition.table import hand_with_effect, others
from adjudicator.cards.common import State, plain_copy
from adjudicator.cards.driver import load_data
from adjudicator.store.storage import dump_yaml

DATA = load_data(GAME)
CARD_ID = re.compile(r"\b[a-z]+(-[a-z]+)*-\d+\b")


def candidates(state: State, player: str) -> list[dict[str, Any]]:
    """A handful of choices, legal or not: validation sorts them out."""
    pending, step = state["pending"], state["pending"]["step"]
    hand, elites = state["hands"][player], state["elites"][player]["hand"]
    rivals = others(state, player)
    if step == "diplomacy":
        out: list[dict[str, Any]] = [{"action": "draw"}, {"action": "pass"}, {"action": "reroll"}]
        out += [{"action": "declare", "card": c, "value": v} for c in elites for v in (1, 4, 6)]
        out += [{"action": "attack", "target": t, "arms": a} for t in rivals
                for a in hand_with_effect(state, player, "nuclear_arms")]
        for kind in state["catalog"]["alliances"]:
            for t in rivals:
                extra = {"third": next((x for x in rivals if x != t), t), "network": "petrolux"}
                choice = {"action": "propose", "partner": t, "alliance": kind, "secret": t < player}
                if kind == "unity-compact":
                    choice["third"] = extra["third"]
                if kind == "industrial-exchange":
                    choice["network"] = extra["network"]
                out.append(choice)
        return out
    if step == "challenge":
        return [{"challenge": True}, {"challenge": False}]
    if step == "answer":
        return [{"accept": True}, {"accept": False}]
    if step == "defence":
        return [{}] + [{"deflect": c} for c in hand]
    if step in ("intrigue", "drawn"):
        cards = [pending["card"]] if step == "drawn" else hand
        out = [{"action": "draw" if step == "intrigue" else "keep"}]
        for c in cards:
            base = {"action": "play", "card": c}
            out += [base, *[dict(base, target=t) for t in rivals],
                    *[dict(base, network=k) for k in state["in_play"]],
                    *[dict(base, alliance=a["id"]) for a in state["alliances"]]]
            if len(rivals) >= 2:
                out.append(dict(base, players=rivals[:2], alliance="technology-trade"))
        return out
    if step == "comply":
        arms = hand_with_effect(state, player, "nuclear_arms")
        return [{"discard": arms}, {"discard": arms[1:]}]
    return [{"challenge": []}, {"challenge": rivals[:1]}]


def pick(state: State, player: str, r: random.Random) -> dict[str, Any]:
    options = candidates(state, player)
    r.shuffle(options)
    for choice in options:
        if not GAME.validate(plain_copy(state), {player: choice}, DATA):
            return choice
    raise AssertionError(f"no legal choice for {player} in {state['pending']}")


def check_invariants(state: State) -> None:
    cat = state["catalog"]
    full_intrigue = Counter(f"{k}-{n}" for k, e in cat["intrigue"].items() for n in range(1, e["count"] + 1))
    held = state["intrigue"]["deck"] + state["intrigue"]["discard"] + [c for p in state["players"]
                                                                     for c in state["hands"][p]]
    assert Counter(held) == full_intrigue
    pending = state["pending"]
    for p in state["players"]:
        assert isinstance(state["influence"][p], int) and state["influence"][p] >= 0
        pile = state["elites"][p]
        elites = pile["deck"] + pile["hand"] + pile["discard"]
        if pending.get("step") == "challenge" and pending["player"] == p:
            elites.append(pending["card"])
        assert len(elites) == len(set(elites)) == sum(e["count"] for e in cat["elites"].values())
        network = state["network"][p]["deck"] + state["network"][p]["discard"] + [
            s["card"] for s in state["in_play"].values() if s["holder"] == p]
        assert len(network) == len(set(network)) == sum(e["count"] for e in cat["network"].values())
    for kind, slot in state["in_play"].items():
        assert slot["card"].rsplit("-", 1)[0] == kind and slot["holder"] in state["players"]
    armed = sum(1 for v in state["armed"].values() if v)
    assert armed + state["tokens"] == len(state["players"]) * int(cat["settings"]["tokens_per_player"])
    pairs = [frozenset(a["members"]) for a in state["alliances"] if a["status"] == "active"]
    assert len(pairs) == len(set(pairs))
    assert not CARD_ID.search(dump_yaml(GAME.public_view(state)))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_legal_play_keeps_invariants(seed: int, players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    state = GAME.setup(names, seed, DATA)
    r = random.Random(seed * 100 + players)
    check_invariants(state)
    for _ in range(300):
        info = GAME.phase(state)
        if info is None:
            break
        assert info.waiting_for and set(info.waiting_for) <= set(names)
        assert (info.mode == "sequential") == (len(info.waiting_for) == 1)
        turn = {p: pick(state, p, r) for p in info.waiting_for}
        assert not GAME.validate(plain_copy(state), turn, DATA)
        state = GAME.apply(plain_copy(state), turn, DATA).state
        check_invariants(state)
