"""Runs the YAML rule cases in cases/: a table set by hand, one or more turns,
and what must follow (or which choices must be refused)."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.cards.ambition.engine import GAME
from adjudicator.cards.common import Event, State
from adjudicator.cards.driver import load_data

DATA = load_data(GAME)


def alliance(record: dict[str, Any], n: int) -> dict[str, Any]:
    """Fill what a hand-written alliance leaves out."""
    kind = record["type"]
    full = {"id": f"A{n}", "n": n, "type": kind, "members": record["members"],
            "wager": DATA_COST[kind], "secret": False, "formed_round": 1, "expires_round": None,
            "status": "active"}
    full.update(record)
    if kind == "industrial-exchange":
        full.setdefault("held_since_turn", None)
    return full


DATA_COST = {a["key"]: a["cost"] for a in DATA["alliances"]}


def build(case: dict[str, Any]) -> State:
    given = case.get("given", {})
    state = GAME.setup(case["players"], case.get("seed", 1), DATA)
    for p, n in given.get("influence", {}).items():
        state["influence"][p] = n
    for p, cards in given.get("elites", {}).items():
        state["elites"][p]["hand"] = list(cards)
    for p, cards in given.get("hands", {}).items():
        state["hands"][p] = list(cards)
    for p, armed in given.get("armed", {}).items():
        state["armed"][p] = armed
    state["tokens"] -= sum(1 for v in state["armed"].values() if v)
    for key in ("round", "turn"):
        if key in given:
            state[key] = given[key]
    if "pending" in given:
        state["pending"] = dict(given["pending"])
    if "intrigue_deck" in given:  # the whole deck and discard pile, e.g. to empty the deck
        state["intrigue"]["deck"] = list(given["intrigue_deck"])
        state["intrigue"]["discard"] = list(given.get("intrigue_discard", []))
    if "intrigue_top" in given:
        state["intrigue"]["deck"] = list(given["intrigue_top"]) + state["intrigue"]["deck"]
    for p, cards in given.get("network_top", {}).items():
        state["network"][p]["deck"] = list(cards) + state["network"][p]["deck"]
    for kind, slot in given.get("in_play", {}).items():
        state["in_play"][kind] = dict(slot)
    state["alliances"] = [alliance(a, i) for i, a in enumerate(given.get("alliances", []), 1)]
    state["alliance_count"] = len(state["alliances"])
    return state


def check(state: State, events: list[Event], expect: dict[str, Any]) -> None:
    texts = [e.text for e in events if e.visible_to is None]
    every = [e.text for e in events]
    for p, n in expect.get("influence", {}).items():
        assert state["influence"][p] == n, f"influence of {p}: {state['influence'][p]} != {n}\n{every}"
    if "step" in expect:
        assert state["pending"]["step"] == expect["step"], state["pending"]
    for aid, status in expect.get("alliances", {}).items():
        found = [a for a in state["alliances"] if a["id"] == aid]
        assert found and found[0]["status"] == status, (aid, found, every)
    for p, cards in expect.get("hands", {}).items():
        assert sorted(state["hands"][p]) == sorted(cards), (p, state["hands"][p])
    for p, cards in expect.get("elites", {}).items():
        assert sorted(state["elites"][p]["hand"]) == sorted(cards), (p, state["elites"][p]["hand"])
    for p, cards in expect.get("network_discards", {}).items():
        assert sorted(state["network"][p]["discard"]) == sorted(cards), (p, state["network"][p]["discard"])
    for p, cards in expect.get("elite_discards", {}).items():
        assert sorted(state["elites"][p]["discard"]) == sorted(cards), (p, state["elites"][p]["discard"])
    if "intrigue_deck_size" in expect:
        assert len(state["intrigue"]["deck"]) == expect["intrigue_deck_size"], state["intrigue"]
    for p, armed in expect.get("armed", {}).items():
        assert state["armed"][p] is armed, (p, state["armed"])
    for kind, holder in expect.get("in_play", {}).items():
        slot = state["in_play"].get(kind)
        assert (slot["holder"] if slot else None) == holder, (kind, slot)
    for text in expect.get("public_events", []):
        assert any(text in t for t in texts), f"{text!r} not in public events {texts}"
    for text in expect.get("not_public", []):
        assert not any(text in t for t in texts), f"{text!r} leaked into public events {texts}"
    if "waiting_for" in expect:
        info = GAME.phase(state)
        assert info is not None and sorted(info.waiting_for) == sorted(expect["waiting_for"]), info
    if "scores" in expect:
        assert {s["player"]: s["total"] for s in state["scores"]} == expect["scores"], state["scores"]
    if "winners" in expect:
        assert state["winners"] == expect["winners"]
    if "discard_contains" in expect:
        for card in expect["discard_contains"]:
            assert card in state["intrigue"]["discard"], (card, state["intrigue"]["discard"])


def run(case: dict[str, Any]) -> None:
    state = build(case)
    for step in case["turns"]:
        turn = step.get("turn", {})
        errors = GAME.validate(copy.deepcopy(state), turn, DATA)
        if "errors" in step:
            got = [(e.player, e.field, e.reason) for e in errors]
            for player, field, reason in step["errors"]:
                assert any(g[0] == player and g[1] == field and reason in g[2] for g in got), \
                    f"missing error {player}/{field}/{reason!r} in {got}"
            assert len(got) == len(step["errors"]), f"unexpected errors: {got}"
            continue
        assert not errors, [str(e) for e in errors]
        before = copy.deepcopy(state)
        outcome = GAME.apply(copy.deepcopy(state), turn, DATA)
        assert state == before, "apply changed its input"
        state = outcome.state
        check(state, outcome.events, step.get("expect", {}))
