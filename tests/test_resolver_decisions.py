"""Every phase resolves, and at a cost linear in the units.

The resolver keeps each decision once it is made (its memo), so a phase
takes a bounded number of decisions per unit. The bounds are counted
decisions (calls of a decision function), never time: a lost memo shows as
more decisions on the same phase, on any machine.

- Positions built so that the count is known from the rules: a ring of n
  moves takes 4n - 1 decisions (guess and check round the ring), a chain of
  moves into a holding unit 2n - 1, and n supported attacks, supports
  listed first, one decision per support and one per move.
- Random Standard phases (every order type; convoys, so some paradoxes and
  cycles): every unit gets a result line, every order a decision, and the
  decisions stay within four per unit."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_resolver_fast_path import VARIANT, random_orders

from adjudicator.diplomacy import movement
from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import Hold, Move, Order, SupportMove
from adjudicator.diplomacy.resolver import Adjudicate, BackupRule, Resolver
from adjudicator.diplomacy.statefile import initial_state

ARMY = UnitType.ARMY
PER_UNIT = 4            # decisions per unit, at most, in any phase tested here


# Each test counts the decisions through a Resolver put in the interpreted
# movement module's place; the compiled module would never call it.
pytestmark = pytest.mark.interpreted("counts the resolver's decisions through a Resolver put in its place")

class Counted:
    """Counts the decisions of every Resolver made while it is active."""

    def __init__(self) -> None:
        self.decisions = 0

    def resolver(self, adjudicate: Adjudicate[str], backup_rule: BackupRule[str]) -> Resolver[str]:
        def counted(key: str, resolution: Callable[[str], bool]) -> bool:
            self.decisions += 1
            return adjudicate(key, resolution)
        return Resolver(counted, backup_rule)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    counter = Counted()
    monkeypatch.setattr(movement, "Resolver", counter.resolver)
    yield counter


def army(power: str, prov: str) -> Unit:
    return Unit(power, ARMY, prov)


def ring(n: int) -> tuple[dict[str, Unit], dict[str, Order]]:
    units = {f"p{i}": army(("red", "blue", "green")[i % 3], f"p{i}") for i in range(n)}
    return units, {p: Move(u.power, ARMY, p, f"p{(i + 1) % n}") for i, (p, u) in enumerate(units.items())}


def chain(n: int) -> tuple[dict[str, Unit], dict[str, Order]]:
    units, orders = ring(n)
    last = f"p{n - 1}"
    orders[last] = Hold(units[last].power, ARMY, last)
    return units, orders


def supported_attacks(n: int) -> tuple[dict[str, Unit], dict[str, Order]]:
    """n times: red in a{i} supports red's b{i} - c{i}, blue holds c{i}; supports listed first."""
    units: dict[str, Unit] = {}
    orders: dict[str, Order] = {}
    for i in range(n):
        a, b, c = f"a{i}", f"b{i}", f"c{i}"
        units.update({a: army("red", a), b: army("red", b), c: army("blue", c)})
        orders[a] = SupportMove("red", ARMY, a, ARMY, b, c)
    for i in range(n):
        orders[f"b{i}"] = Move("red", ARMY, f"b{i}", f"c{i}")
        orders[f"c{i}"] = Hold("blue", ARMY, f"c{i}")
    return units, orders


@pytest.mark.parametrize("size", [3, 10, 300])
@pytest.mark.parametrize("build, decisions, all_succeed", [
    (ring, lambda n: 4 * n - 1, True),
    (chain, lambda n: 2 * n - 1, False),
], ids=["ring", "chain-into-holder"])
def test_decisions_per_unit_on_rings_and_chains(counted: Counted, build: Callable[[int], tuple[dict[str, Unit],
                                                dict[str, Order]]], decisions: Callable[[int], int],
                                                all_succeed: bool, size: int) -> None:
    units, orders = build(size)
    result = resolve_movement(units, orders, {})
    assert set(result.succeeded) == set(orders)
    assert all(ok is all_succeed for p, ok in result.succeeded.items() if isinstance(orders[p], Move))
    assert counted.decisions <= decisions(size)


@pytest.mark.parametrize("blocks", [1, 10, 200])
def test_one_decision_per_order_when_none_needs_a_guess(counted: Counted, blocks: int) -> None:
    units, orders = supported_attacks(blocks)
    result = resolve_movement(units, orders, {})
    assert set(result.dislodged) == {f"c{i}" for i in range(blocks)}
    # The supports (decided first) and the moves that read them; holds need no decision.
    assert counted.decisions == 2 * blocks


def resolve_random(seed: int) -> tuple[int, list[str], list[str]]:
    """A random Standard phase through the whole pipeline: its unit count,
    and the units' provinces with and without a result line."""
    units, lines = random_orders(random.Random(seed))
    state = initial_state(VARIANT)
    state.units = units
    outcome = adjudicate_lines(VARIANT, state, lines)
    with_line = sorted({o.province for o in outcome.orders if o.province and (o.result or o.succeeded)})
    return len(units), sorted(units), with_line


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_random_phase_resolves_every_unit_in_linear_decisions(seed: int) -> None:
    counter = Counted()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movement, "Resolver", counter.resolver)
        size, provinces, with_line = resolve_random(seed)
    assert with_line == provinces
    assert counter.decisions <= PER_UNIT * size
