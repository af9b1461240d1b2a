"""Long chains and rings of moves resolve without RecursionError, and with
the outcome the rules give: the resolver reads decisions without recursing,
so no chain of moves is too long.

The board is a synthetic line or ring of land provinces p0, p1, ..., each
bordering the next. Expected outcomes come from the rules, not from running
the code:
  - a ring of three or more units, each moving to the next province, with
    nothing else ordered: circular movement, every move succeeds (DATC 6.C.1);
  - a chain of moves into a holding unit: the head move attacks with strength
    1 against hold strength 1 and fails, so each move behind it meets a unit
    that stays, hold strength 1 against at most 1, and fails too: all bounce;
  - a chain of moves into an empty province: the head succeeds (1 > 0), so
    each province ahead of a move is vacated, and every move succeeds;
  - the same chain into a foreign holding unit, the head supported from the
    far side: 2 > 1, the holder is dislodged and every move succeeds."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import parse_map
from adjudicator.diplomacy.model import Phase, Reason, Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import Hold, Move, Order, SupportMove
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import PowerInfo, Variant
from adjudicator.rules.standard import STANDARD

POWERS = ("red", "blue", "green")
ARMY = UnitType.ARMY


def board(size: int, ring: bool) -> Variant:
    """p0 ... p{size-1}, each bordering the next; the last borders p0 if `ring`."""
    provinces = {}
    for i in range(size):
        near = {(i - 1) % size, (i + 1) % size} if ring else {j for j in (i - 1, i + 1) if 0 <= j < size}
        provinces[f"p{i}"] = {"name": f"Province {i}", "terrain": "land", "army": [f"p{j}" for j in sorted(near)]}
    graph = parse_map({"name": "line", "provinces": provinces}, "synthetic")
    powers = {p: PowerInfo(p, p.title(), p.title(), p[0].upper(), "#888888", (), (), ()) for p in POWERS}
    return Variant("line", "Line", graph, STANDARD, 1901, ("spring", "fall"), 18, powers, {}, "synthetic")


def play(variant: Variant, units: dict[str, Unit], orders: list[Order]) -> PhaseOutcome:
    """The movement phase's outcome, through the path a real phase takes."""
    for order in orders:
        if isinstance(order, Move):   # every move on this board is to a bordering province
            assert order.dest in variant.map.army_adjacent[order.province]
    state = GameState(variant.id, Phase(1901, "spring", "movement"), dict(units), {})
    lines = [ParsedLine(n, str(o), o.power, o) for n, o in enumerate(orders, 1)]
    outcome = adjudicate_lines(variant, state, lines)
    assert not outcome.errors
    return outcome


def army(power: str, i: int) -> Unit:
    return Unit(power, ARMY, f"p{i}")


def move(unit: Unit, i: int) -> Move:
    return Move(unit.power, ARMY, unit.location, f"p{i}")


lengths = st.integers(min_value=3, max_value=400)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=50, deadline=None)
@given(lengths, seeds)
@example(300, 0)
def test_ring_of_moves_all_succeed(size: int, seed: int) -> None:
    rng = random.Random(seed)
    units = {f"p{i}": army(rng.choice(POWERS), i) for i in range(size)}
    after = play(board(size, ring=True), units, [move(units[f"p{i}"], (i + 1) % size) for i in range(size)]).next_state
    assert after.units == {f"p{(i + 1) % size}": army(units[f"p{i}"].power, (i + 1) % size) for i in range(size)}
    assert not after.dislodged


@settings(max_examples=50, deadline=None)
@given(lengths, seeds)
@example(300, 0)
def test_chain_into_a_holding_unit_all_bounce(size: int, seed: int) -> None:
    rng = random.Random(seed)
    units = {f"p{i}": army(rng.choice(POWERS), i) for i in range(size + 1)}   # p{size} holds
    after = play(board(size + 1, ring=False), units, [move(units[f"p{i}"], i + 1) for i in range(size)]).next_state
    assert after.units == units
    assert not after.dislodged


@settings(max_examples=50, deadline=None)
@given(lengths, seeds)
@example(300, 0)
def test_chain_into_an_empty_province_all_move(size: int, seed: int) -> None:
    rng = random.Random(seed)
    units = {f"p{i}": army(rng.choice(POWERS), i) for i in range(size)}     # p{size} is empty
    after = play(board(size + 1, ring=False), units, [move(units[f"p{i}"], i + 1) for i in range(size)]).next_state
    assert after.units == {f"p{i + 1}": army(units[f"p{i}"].power, i + 1) for i in range(size)}
    assert not after.dislodged


@settings(max_examples=50, deadline=None)
@given(lengths)
@example(300)
def test_supported_chain_dislodges_the_holder(size: int) -> None:
    # Red moves p0 -> p1 -> ... -> p{size}; blue holds p{size}; red in p{size+1} supports the head.
    units = {f"p{i}": army("red", i) for i in range(size)}
    units[f"p{size}"] = army("blue", size)
    units[f"p{size + 1}"] = army("red", size + 1)
    orders: list[Order] = [move(units[f"p{i}"], i + 1) for i in range(size)]
    orders.append(SupportMove("red", ARMY, f"p{size + 1}", ARMY, f"p{size - 1}", f"p{size}"))
    outcome = play(board(size + 2, ring=False), units, orders)
    expected = {f"p{i + 1}": army("red", i + 1) for i in range(size)}
    expected[f"p{size + 1}"] = units[f"p{size + 1}"]
    assert outcome.next_state.units == expected
    # Dislodged, and nowhere to go: not back where the attack came from, not
    # into the supporter's province. So it is disbanded at once.
    holder = [line for line in outcome.orders if line.province == f"p{size}"]
    assert [line.result for line in holder] == [Reason.DISLODGED]
    assert not outcome.next_state.dislodged
    assert sum("nowhere to retreat" in note for note in outcome.notes) == 1


def test_hundred_thousand_units_ring_and_chain() -> None:
    # Straight to the resolver: building a 100,000-province map is not what is tested here.
    size = 100_000
    units = {f"p{i}": army(POWERS[i % 3], i) for i in range(size)}
    ring: dict[str, Order] = {f"p{i}": move(units[f"p{i}"], (i + 1) % size) for i in range(size)}
    result = resolve_movement(units, ring, {})
    assert all(result.succeeded.values()) and len(result.moved) == size and not result.dislodged

    chain = dict(ring)
    head = units[f"p{size - 1}"]
    chain[head.province] = Hold(head.power, ARMY, head.location)   # the chain runs into a holding unit
    result = resolve_movement(units, chain, {})
    assert not result.moved and not result.dislodged
    assert not any(result.succeeded[f"p{i}"] for i in range(size - 1))
