"""The movement phase: Kruijswijk's decisions over the validated orders.

One decision per order, keyed by the ordered unit's province:
  Move         the move succeeds
  SupportHold, SupportMove   the support is given (not cut, not dislodged)
  Convoy       the convoying fleet is not dislodged
Each order type's decisions and strengths (Kruijswijk's attack, hold,
defend, prevent) are in its module under adjudicator.diplomacy.order_types;
this module builds the board they read, dispatches to them through tables
keyed by order class, and turns the decisions into a MovementResult. The
generic Resolver does the guessing; paradoxes go to the rule set's backup
rule.

Decisions and strengths are plain functions that read other decisions
through a reader, `decided(p)`, where the recursive algorithm calls
resolve(p). While resolving, the Resolver's reader raises instead of
recursing, so no chain of moves is too long; afterwards, the final decisions
are the reader, and the same functions give the report's strengths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.diplomacy.model import (
    BOUNCED,
    CONVOYED,
    CUT,
    DISLODGED,
    HELD,
    MOVED,
    SUPPORTED,
    Reason,
    Unit,
)
from adjudicator.diplomacy.movement_result import Contest, MovementResult
from adjudicator.diplomacy.order_types.board import Board, Decided
from adjudicator.diplomacy.order_types.convoy import (
    convoy_failure,
    convoy_given,
    index_convoy,
)
from adjudicator.diplomacy.order_types.hold import holds
from adjudicator.diplomacy.order_types.move import (
    bounce,
    dislodgement,
    index_move,
    leaves_standoff,
    move_failure,
    move_succeeds,
)
from adjudicator.diplomacy.order_types.support import (
    UNMATCH,
    cutters,
    index_support_hold,
    index_support_move,
    support_failure,
    support_given,
    support_matches,
)
from adjudicator.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.resolver import Resolver

__all__ = ["Contest", "Decided", "MovementAdjudicator", "MovementResult", "resolve_movement",
           "standard_backup_rule"]

# Per order class: how an order enters the board's indexes, the decision the
# resolver takes for it, and its reason for the report once all are decided:
# one word for success, and a function that says why it failed. A class with
# no decision (Hold) is never resolved: it succeeds.
INDEXERS: dict[type[Order], Callable[[Board, str, Any], None]] = {
    Move: index_move,
    SupportHold: index_support_hold,
    SupportMove: index_support_move,
    Convoy: index_convoy,
}
DECISIONS: dict[type[Order], Callable[[Board, str, Any, Decided], bool]] = {
    Move: move_succeeds,
    SupportHold: support_given,
    SupportMove: support_given,
    Convoy: convoy_given,
}
SUCCESSES: dict[type[Order], Reason] = {
    Move: MOVED,
    SupportHold: SUPPORTED,
    SupportMove: SUPPORTED,
    Convoy: CONVOYED,
    Hold: HELD,
}
FAILURES: dict[type[Order], Callable[[Board, str, Any, Decided], Reason]] = {
    Move: move_failure,
    SupportHold: support_failure,
    SupportMove: support_failure,
    Convoy: convoy_failure,
}


def standard_backup_rule(orders: dict[str, Order], cycle: list[str]) -> dict[str, bool]:
    """Circular movement: every move in the ring succeeds. A cycle with a
    convoy is a convoy paradox: Szykman's rule, the convoys in it fail, so
    the convoyed armies stay home and cut nothing."""
    convoys = [p for p in cycle if isinstance(orders.get(p), Convoy)]
    if convoys:
        return {p: False for p in convoys}
    return {p: True for p in cycle if isinstance(orders.get(p), Move)}


class MovementAdjudicator(Board):
    def __init__(self, units: dict[str, Unit], orders: dict[str, Order],
                 seas_touching: dict[str, frozenset[str]],
                 backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]]) -> None:
        super().__init__(units, orders, seas_touching)
        for prov, order in orders.items():
            index = INDEXERS.get(type(order))
            if index is not None:
                index(self, prov, order)
        # A support only counts for the move (or hold) it names; one that names
        # a coast only helps a move to that coast (DATC 6.B.9). An unmatched
        # support of a move is taken off the move's supporters (one of a hold
        # is never given: support_given says so).
        self.unmatched = {p for p in self.supports if not support_matches(self, p)}
        for prov in self.unmatched:
            support = orders[prov]
            UNMATCH[type(support)](self, prov, support)
        # Validation has settled which army moves go by convoy.
        self.by_convoy = {p for p, m in self.moves.items() if m.via_convoy}
        # Two units moving into each other's province meet head-on, unless either goes by convoy.
        self.opponent = {
            p: dest for p, dest in self.target.items()
            if self.target.get(dest) == p and p not in self.by_convoy and dest not in self.by_convoy}
        self.backup_rule = backup_rule

    def adjudicate(self, prov: str, decided: Decided) -> bool:
        """The decision for the order of the unit in `prov`, reading others through `decided`."""
        order = self.orders[prov]
        return DECISIONS.get(type(order), holds)(self, prov, order, decided)

    # --- the whole phase --------------------------------------------------------------
    def run(self) -> MovementResult:
        # The resolver is this run's alone: kept on self, it would hold self
        # through self.adjudicate, a cycle that leaves the whole phase to the
        # garbage collector instead of freeing it when the run returns.
        orders, backup_rule = self.orders, self.backup_rule
        resolve = Resolver(self.adjudicate, lambda cycle: backup_rule(orders, cycle)).resolve
        # Holds (and any order with no decision of its own) succeed; nothing asks for them.
        # Supports first: a move reads its supports, and a support seldom reads
        # anything (only a move into it, by convoy or from where it supports
        # against), so a move finds them decided and runs once, bare, instead
        # of under the guessing bookkeeping. The order only changes the work.
        for prov in self.supports:
            resolve(prov)
        succeeded = {p: resolve(p) if type(o) in DECISIONS else True for p, o in self.orders.items()}
        moved, dislodged = self.moves_made(succeeded)
        occupied = self.units.keys() - moved.keys() - dislodged.keys()     # set arithmetic, in C
        occupied.update(self.moves[p].dest_province for p in moved)
        contested = set()
        reasons: dict[str, Reason] = {}
        decided = succeeded.__getitem__
        for prov, order in self.orders.items():
            if succeeded[prov]:
                reasons[prov] = SUCCESSES[type(order)]
            else:
                reason = reasons[prov] = FAILURES[type(order)](self, prov, order, decided)
                if reason is BOUNCED and leaves_standoff(self, prov, succeeded, occupied):
                    contested.add(self.target[prov])
        for prov in dislodged:          # a dislodged unit's reason is that, whatever its order did
            reasons[prov] = DISLODGED
        convoyed = {p for p in self.by_convoy if succeeded.get(p)}
        result = MovementResult(succeeded, reasons, dislodged, moved, contested, convoyed)
        self.explain(result)
        return result

    def moves_made(self, succeeded: dict[str, bool]) -> tuple[dict[str, str], dict[str, str]]:
        """The moves that succeeded (origin -> destination location) and the
        units they dislodged (province -> the attacker's province)."""
        dislodged: dict[str, str] = {}
        moved: dict[str, str] = {}
        for prov, order in self.moves.items():
            if succeeded[prov]:
                moved[prov] = order.dest
                dest = order.dest_province
                if dest in self.units and not (dest in self.moves and succeeded[dest]):
                    dislodged[dest] = prov
        return moved, dislodged

    # --- the decisions behind the results, as values ------------------------------------
    def explain(self, result: MovementResult) -> None:
        """Fill in the strengths and units behind each bounce, cut and
        dislodgement: the decisions' own functions, reading the final decisions."""
        decided = result.succeeded.__getitem__
        for prov, reason in result.reasons.items():
            if reason is BOUNCED:
                result.bounces[prov] = bounce(self, prov, decided)
            elif reason is CUT:
                result.cuts[prov] = cutters(self, prov, decided)
        for prov, attacker in result.dislodged.items():
            result.dislodgements[prov] = dislodgement(self, prov, attacker, decided)


def resolve_movement(units: dict[str, Unit], orders: dict[str, Order],
                     seas_touching: dict[str, frozenset[str]],
                     backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]] = standard_backup_rule
                     ) -> MovementResult:
    """Resolve a movement phase. `orders` holds validated orders by unit
    province; a unit with none holds. Orders for every unit are resolved as
    they are, in their own order (the phase's own call, from
    orders_to_resolve, has them in the units' order). Any others are first
    completed with holds, in the units' order. The order decides the order of
    the results and of each contest's opponents."""
    if orders.keys() != units.keys():
        orders = {p: orders.get(p) or Hold(u.power, u.type, u.location) for p, u in units.items()}
    return MovementAdjudicator(units, orders, seas_touching, backup_rule).run()
