"""A movement phase as the order types' decisions read it: the units, their
validated orders, and the indexes built from them (who moves where, who
supports what, who convoys whom). The movement phase
(adjudicator.diplomacy.movement) fills a Board, asking each order type to
index its own orders, and resolves it.

Decisions and strengths are generators: where the recursive algorithm calls
resolve(p), they `yield p` and are sent p's resolution, so the Resolver can
drive them with its own stack and no chain of moves is too long. Each order
type's decisions are functions of the board: `move_succeeds(board, prov,
order)`, `attack_strength(board, prov)`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator

from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.orders import Move, Order
from adjudicator.diplomacy.resolver import Resolver

# A decision yields the provinces whose decisions it needs and is sent their
# resolutions; a strength is computed the same way.
Decision = Generator[str, bool, bool]
Strength = Generator[str, bool, int]


class Board:
    """Every index is keyed by province; the order types fill them
    (`index_move`, `index_support_move`...) and read them."""

    resolver: Resolver[str]         # set by the movement phase that resolves the board

    def __init__(self, units: dict[str, Unit], orders: dict[str, Order],
                 seas_touching: dict[str, frozenset[str]]) -> None:
        self.units = units
        self.orders = orders
        self.seas_touching = seas_touching
        self.moves: dict[str, Move] = {}
        self.target: dict[str, str] = {}                # moving unit's province -> destination province
        self.moves_to: dict[str, list[str]] = defaultdict(list)
        self.move_supports: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.hold_supports: dict[str, list[str]] = defaultdict(list)
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.unmatched: set[str] = set()                # supports that match no order
        self.by_convoy: set[str] = set()                # army moves that go by convoy
        self.opponent: dict[str, str] = {}              # head-to-head: each side's province -> the other's

    def move_of(self, prov: str) -> Move | None:
        return self.moves.get(prov)


def is_dislodged(board: Board, prov: str) -> Decision:
    """The dislodge decision of the unit in `prov`: it stayed, and a move into it succeeded."""
    if prov in board.moves and (yield prov):
        return False
    for attacker in board.moves_to.get(prov, ()):
        if (yield attacker):
            return True
    return False


def settled(strength: Strength, succeeded: dict[str, bool]) -> int:
    """A strength computed from the final decisions (every decision it
    asks for is resolved by now; nothing is guessed)."""
    try:
        needed = next(strength)
        while True:
            needed = strength.send(succeeded.get(needed, False))
    except StopIteration as done:
        return int(done.value)
