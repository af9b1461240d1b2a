"""A movement phase as the order types' decisions read it: the units, their
validated orders, and the indexes built from them (who moves where, who
supports what, who convoys whom). The movement phase
(adjudicator.diplomacy.movement) fills a Board, asking each order type to
index its own orders, and resolves it.

Decisions and strengths are plain functions of the board and of a reader of
other decisions: where the recursive algorithm calls resolve(p), they call
`decided(p)`. While the Resolver works, that reader may raise Unresolved
instead of recursing (adjudicator.diplomacy.resolver); once every decision is
made, the same functions read the final decisions and give the strengths the
report shows. Each order type's decisions are functions such as
`move_succeeds(board, prov, order, decided)` and `attack_strength(board, prov,
decided)`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.orders import Move, Order

# The decision of the order of the unit in a province: did it succeed?
Decided = Callable[[str], bool]


class Board:
    """Every index is keyed by province; the order types fill them
    (`index_move`, `index_support_move`...) and read them."""

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
        self.supports: list[str] = []                   # every supporting unit's province, in order
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.unmatched: set[str] = set()                # supports that match no order
        self.by_convoy: set[str] = set()                # army moves that go by convoy
        self.opponent: dict[str, str] = {}              # head-to-head: each side's province -> the other's


def is_dislodged(board: Board, prov: str, decided: Decided) -> bool:
    """The dislodge decision of the unit in `prov`: it stayed, and a move into it succeeded."""
    if prov in board.moves and decided(prov):
        return False
    for attacker in board.moves_to.get(prov, ()):
        if decided(attacker):
            return True
    return False
