"""The resolver runs a decision once before any bookkeeping, and keeps the
result if the decision needed no other (issue 14). That shortcut must decide
exactly what the full guess-and-check does: on random Standard phases (every
order type, with convoys, so some paradoxes and cycles), the movement result
is the same with the shortcut and without it."""

from __future__ import annotations

import random

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
        known = self._known(key)
        return known if known is not None else self.evaluate(self._decide(key))


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


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_the_shortcut_decides_as_guess_and_check_does(seed: int) -> None:
    fast, slow = both_ways(seed)
    assert fast == slow


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
