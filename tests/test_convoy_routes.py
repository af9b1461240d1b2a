"""Which fleets a convoy needs (the 2023 rules void a convoy order that is
needed on no route): a route is a chain of seas with no chord, only its
first sea touching the army's province and only its last the destination.
Small maps of seas, so each route is plain to see."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types import convoy
from adjudicator.diplomacy.order_types.board import Board
from adjudicator.diplomacy.order_types.convoy import (
    _search_needed,
    fleet_route_exists,
    has_path,
)
from adjudicator.diplomacy.orders import Convoy, Move, Order

# The searches are given small stand-in maps and positions (and one a smaller
# budget), which the compiled engine's typed arguments do not take.
pytestmark = pytest.mark.interpreted("hands the route searches stand-in maps and positions")


@dataclass
class Seas:
    """A map as the search reads it: the seas touching each province and each sea."""
    seas_touching: dict[str, frozenset[str]]


def seas(**touching: str) -> Seas:
    return Seas({p: frozenset(t.split()) for p, t in touching.items()})


# O touches sea a, D touches sea c; a touches c directly, and b touches both.
TRIANGLE = seas(O="a", D="c", a="b c", b="a c", c="a b")
# A line of seas from O to D: a - b - c - d.
LINE = seas(O="a", D="d", a="b", b="a c", c="b d", d="c")


@pytest.mark.parametrize("sea, needed", [("a", True), ("c", True), ("b", False)])
def test_a_fleet_only_on_a_route_with_a_chord_is_not_needed(sea: str, needed: bool) -> None:
    # a - b - c has the chord a - c: a - c is the route, and b is left out.
    assert _search_needed(TRIANGLE, sea, "O", "D") is needed  # type: ignore[arg-type]


def test_every_fleet_of_a_single_chain_is_needed() -> None:
    assert all(_search_needed(LINE, s, "O", "D") for s in "abcd")  # type: ignore[arg-type]


def test_a_search_past_its_budget_takes_the_order_as_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    # b is needed on no route (the chord a - c): the whole search looks at
    # a, then b, then c, three steps. A budget of three finishes it; a
    # budget of two runs out first and takes the order as legal, so a
    # hostile map cannot make the search cost more than its budget.
    monkeypatch.setattr(convoy, "ROUTE_SEARCH_LIMIT", 3)
    assert _search_needed(TRIANGLE, "b", "O", "D") is False  # type: ignore[arg-type]
    monkeypatch.setattr(convoy, "ROUTE_SEARCH_LIMIT", 2)
    assert _search_needed(TRIANGLE, "b", "O", "D") is True  # type: ignore[arg-type]


# O touches s1 and s2, looked at in that order, so s2 first (the searches
# keep a stack). s2 leads only round a ring (x, y) that reaches x twice; s1
# touches D. The search must go on past the ring to s1.
RING = {"O": ("s1", "s2"), "D": ("s1",), "s1": ("O",), "s2": ("x", "y"), "x": ("s2", "y"), "y": ("x",)}


@dataclass
class Position:
    units: dict[str, Unit]


@dataclass
class SeaMap:
    seas_touching: dict[str, tuple[str, ...]]

    def is_sea(self, place: str) -> bool:
        return place not in ("O", "D")


def test_a_chain_of_fleets_is_found_past_a_ring_looked_at_first() -> None:
    fleets = {s: Unit("england", UnitType.FLEET, s) for s in ("s1", "s2", "x", "y")}
    assert fleet_route_exists(Position(fleets), SeaMap(RING), "O", "D")  # type: ignore[arg-type]


def test_a_convoy_path_is_found_past_a_ring_looked_at_first() -> None:
    units = {p: Unit("england", UnitType.FLEET, p) for p in ("s1", "s2", "x", "y")}
    units["O"] = Unit("england", UnitType.ARMY, "O")
    orders: dict[str, Order] = {s: Convoy("england", UnitType.FLEET, s, "O", "D") for s in ("s1", "s2", "x", "y")}
    orders["O"] = Move("england", UnitType.ARMY, "O", "D", True)
    board = Board(units, orders, RING)  # type: ignore[arg-type]
    board.by_convoy, board.target = {"O"}, {"O": "D"}
    board.convoys[("O", "D")] = ["s1", "s2", "x", "y"]
    assert has_path(board, "O", lambda fleet: True)
