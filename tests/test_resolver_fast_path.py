"""The resolver runs a decision once before any bookkeeping, and keeps the
result if the decision needed no other, which spares most decisions the
bookkeeping. That shortcut must decide
exactly what the full guess-and-check does: on random Standard phases (every
order type, with convoys, so some paradoxes and cycles), the movement result
is the same with the shortcut and without it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.diplomacy import movement
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.movement import MovementResult, resolve_movement
from adjudicator.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.resolver import Resolver
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.turn import orders_to_resolve
from adjudicator.rules import load_variant

VARIANT = load_variant("standard")


class GuessAndCheckOnly(Resolver[str]):
    """The resolver without its shortcut: every decision goes through the bookkeeping."""

    def resolve(self, key: str) -> bool:
        if key in self.resolved:
            return self.resolved[key]
        return self._evaluate(key)


def random_orders(rng: random.Random) -> tuple[dict[str, Unit], list[ParsedLine]]:
    graph = VARIANT.map
    powers = list(VARIANT.powers)
    provinces = sorted(graph.provinces)
    units: dict[str, Unit] = {}
    for prov in rng.sample(provinces, rng.randint(6, 34)):
        terrain = graph.provinces[prov].terrain
        kind = UnitType.ARMY if terrain == "land" else UnitType.FLEET if terrain == "sea" else \
            rng.choice([UnitType.ARMY, UnitType.FLEET])
        location = prov if kind is UnitType.ARMY else rng.choice(graph.fleet_locations(prov))
        units[prov] = Unit(rng.choice(powers), kind, location)
    occupied = sorted(units)
    lines = []
    for n, prov in enumerate(occupied, 1):
        unit = units[prov]
        near = sorted(graph.army_adjacent.get(prov, ()) if unit.type is UnitType.ARMY
                      else graph.fleet_adjacent.get(unit.location, ())) or [prov]
        args = (unit.power, unit.type, unit.location)
        other = rng.choice(occupied)
        roll = rng.random()
        order: Order
        if roll < 0.4:
            order = Move(*args, rng.choice(near), rng.random() < 0.1)
        elif roll < 0.6:
            order = SupportMove(*args, units[other].type, other, rng.choice(near).split("/")[0])
        elif roll < 0.75:
            order = SupportHold(*args, units[other].type, other)
        elif roll < 0.95 and unit.type is UnitType.FLEET:
            order = Convoy(*args, other, rng.choice(provinces))
        else:
            order = Hold(*args)
        lines.append(ParsedLine(n, str(order), unit.power, order))
    return units, lines


def both_ways(seed: int) -> tuple[MovementResult, MovementResult]:
    units, lines = random_orders(random.Random(seed))
    state = initial_state(VARIANT)
    state.units = units
    pre = VARIANT.rules.pre_resolve(VARIANT, state, lines)
    orders, void = orders_to_resolve(state, pre)
    active = {p: o for p, o in orders.items() if p not in void}
    rule = VARIANT.rules.backup_rule
    fast = resolve_movement(state.units, active, VARIANT.map.seas_touching, rule)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movement, "Resolver", GuessAndCheckOnly)
        slow = resolve_movement(state.units, active, VARIANT.map.seas_touching, rule)
    return fast, slow


@pytest.mark.interpreted("puts a guess-and-check-only Resolver in the movement module's place")
@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_shortcut_decides_as_guess_and_check_does(seed: int) -> None:
    fast, slow = both_ways(seed)
    assert fast == slow


@pytest.mark.interpreted("puts a guess-and-check-only Resolver in the movement module's place")
def test_the_guess_and_check_only_resolver_is_really_used() -> None:
    """The comparison above is not vacuous: the patched resolver is the one that runs."""
    used: list[str] = []

    class Spy(GuessAndCheckOnly):
        def resolve(self, key: str) -> bool:
            used.append(key)
            return super().resolve(key)

    units, lines = random_orders(random.Random(1))
    state = initial_state(VARIANT)
    state.units = units
    pre = VARIANT.rules.pre_resolve(VARIANT, state, lines)
    orders, void = orders_to_resolve(state, pre)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movement, "Resolver", Spy)
        resolve_movement(state.units, {p: o for p, o in orders.items() if p not in void},
                         VARIANT.map.seas_touching, VARIANT.rules.backup_rule)
    assert used


def test_a_fault_in_a_decision_is_not_taken_for_an_unresolved_key() -> None:
    """The bare run reads through a dict, so a decision that needs an
    unresolved key raises KeyError there. A KeyError of the decision's own
    must still come out, not be answered as if some key were unresolved."""

    def faulty(key: str, resolution: Callable[[str], bool]) -> bool:
        return {"other": True}[key]

    with pytest.raises(KeyError, match="mine"):
        Resolver(faulty, lambda cycle: {}).resolve("mine")


def test_a_decision_that_needs_another_runs_again_once_it_is_resolved() -> None:
    """'a' needs 'b', which needs 'c': each asks, is answered Unresolved, and
    runs again once the key it asked for is decided, with its value."""
    runs: list[str] = []
    rules = {"a": lambda r: not r("b"), "b": lambda r: r("c"), "c": lambda r: True}

    def decide(key: str, resolution: Callable[[str], bool]) -> bool:
        runs.append(key)
        return bool(rules[key](resolution))

    resolver = Resolver(decide, lambda cycle: {})
    assert resolver.resolve("a") is False
    assert resolver.resolved == {"a": False, "b": True, "c": True}
    assert not resolver.guesses and not resolver.dependencies
    # a bare; then a, b and c under the bookkeeping; then b and a again.
    assert runs == ["a", "a", "b", "c", "b", "a"]
