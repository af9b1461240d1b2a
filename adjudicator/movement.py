"""The movement phase: Kruijswijk's decisions over the validated orders.

One decision per order, keyed by the ordered unit's province:
  Move         the move succeeds
  SupportHold, SupportMove   the support is given (not cut, not dislodged)
  Convoy       the convoying fleet is not dislodged
Strengths use Kruijswijk's names: attack, hold, defend, prevent. The generic
Resolver does the guessing; paradoxes go to the rule set's backup rule."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from adjudicator.model import Reason, Unit
from adjudicator.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from adjudicator.resolver import Resolver


@dataclass
class MovementResult:
    succeeded: dict[str, bool]                      # province -> the order's decision
    reasons: dict[str, Reason]                      # province -> why, for the report
    dislodged: dict[str, str]                       # province -> where the dislodger came from
    moved: dict[str, str]                           # origin province -> destination location
    contested: set[str]                             # provinces left empty by a standoff
    convoyed: set[str] = field(default_factory=set)  # provinces of armies that moved by convoy


def standard_backup_rule(orders: dict[str, Order], cycle: list[str]) -> dict[str, bool]:
    """Circular movement: every move in the ring succeeds. A cycle with a
    convoy is a convoy paradox: Szykman's rule, the convoys in it fail, so
    the convoyed armies stay home and cut nothing."""
    convoys = [p for p in cycle if isinstance(orders.get(p), Convoy)]
    if convoys:
        return {p: False for p in convoys}
    return {p: True for p in cycle if isinstance(orders.get(p), Move)}


class MovementAdjudicator:
    def __init__(self, units: dict[str, Unit], orders: dict[str, Order],
                 seas_touching: dict[str, frozenset[str]],
                 backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]]) -> None:
        self.units = units
        self.orders = orders
        self.seas_touching = seas_touching
        self.moves_to: dict[str, list[str]] = defaultdict(list)
        self.move_supports: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.hold_supports: dict[str, list[str]] = defaultdict(list)
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        for prov, order in orders.items():
            if isinstance(order, Move):
                self.moves_to[order.dest_province].append(prov)
            elif isinstance(order, SupportMove):
                self.move_supports[(order.origin, order.dest.split("/")[0])].append(prov)
            elif isinstance(order, SupportHold):
                self.hold_supports[order.target].append(prov)
            elif isinstance(order, Convoy):
                self.convoys[(order.origin, order.dest)].append(prov)
        # A support only counts for the move it names; one that names a coast
        # only helps a move to that coast (DATC 6.B.9).
        for supporters in self.move_supports.values():
            supporters[:] = [s for s in supporters if self._support_matches(orders[s])]  # type: ignore[arg-type]
        # Validation has settled which army moves go by convoy.
        self.by_convoy: set[str] = {p for p, o in orders.items() if isinstance(o, Move) and o.via_convoy}
        self.resolver: Resolver[str] = Resolver(self.adjudicate, lambda cycle: backup_rule(orders, cycle))

    # --- queries the rules need -------------------------------------------------
    def move_of(self, prov: str) -> Move | None:
        order = self.orders.get(prov)
        return order if isinstance(order, Move) else None

    def head_to_head(self, prov: str) -> str | None:
        """The province of the unit this move meets head-on, if any. Moves by
        convoy never meet head-on."""
        move = self.move_of(prov)
        if move is None or prov in self.by_convoy:
            return None
        other = self.move_of(move.dest_province)
        if other is None or other.dest_province != prov or move.dest_province in self.by_convoy:
            return None
        return move.dest_province

    def has_path(self, prov: str) -> bool:
        """Direct moves always have a path; convoyed moves need a chain of
        convoying fleets, each of whose convoy succeeds, from coast to coast."""
        if prov not in self.by_convoy:
            return True
        move = self.move_of(prov)
        assert move is not None
        dest = move.dest_province
        fleets = [f for f in self.convoys.get((prov, dest), ())]
        if not fleets:
            return False
        fleet_set = set(fleets)
        start = self.seas_touching.get(prov, frozenset())
        goal = self.seas_touching.get(dest, frozenset())
        frontier = [f for f in fleets if f in start]
        seen: set[str] = set()
        while frontier:
            fleet = frontier.pop()
            if fleet in seen:
                continue
            seen.add(fleet)
            if not self.resolver.resolve(fleet):
                continue
            if fleet in goal:
                return True
            for nxt in self.seas_touching.get(fleet, frozenset()):
                if nxt in fleet_set and nxt not in seen:
                    frontier.append(nxt)
        return False

    def supports_given(self, supporters: list[str], exclude_power: str | None = None) -> int:
        count = 0
        for s in supporters:
            if exclude_power is not None and self.units[s].power == exclude_power:
                continue
            if self.resolver.resolve(s):
                count += 1
        return count

    # --- strengths ---------------------------------------------------------------
    def attack_strength(self, prov: str, move: Move) -> int:
        if not self.has_path(prov):
            return 0
        dest = move.dest_province
        supporters = self.move_supports.get((prov, dest), [])
        defender = self.units.get(dest)
        if defender is None:
            return 1 + self.supports_given(supporters)
        if self.head_to_head(prov) is None and self.move_of(dest) is not None and self.resolver.resolve(dest):
            return 1 + self.supports_given(supporters)
        if defender.power == self.units[prov].power:
            return 0            # never dislodge your own unit
        # Supports from the defender's own power do not help to dislodge it.
        return 1 + self.supports_given(supporters, exclude_power=defender.power)

    def hold_strength(self, prov: str) -> int:
        if prov not in self.units:
            return 0
        if self.move_of(prov) is not None:
            return 0 if self.resolver.resolve(prov) else 1
        return 1 + self.supports_given(self.hold_supports.get(prov, []))

    def defend_strength(self, prov: str, move: Move) -> int:
        return 1 + self.supports_given(self.move_supports.get((prov, move.dest_province), []))

    def prevent_strength(self, prov: str, move: Move) -> int:
        if not self.has_path(prov):
            return 0
        opponent = self.head_to_head(prov)
        if opponent is not None and self.resolver.resolve(opponent):
            return 0            # lost a head-to-head battle: no effect on its destination
        return 1 + self.supports_given(self.move_supports.get((prov, move.dest_province), []))

    # --- decisions -------------------------------------------------------------------
    def is_dislodged(self, prov: str) -> bool:
        if self.move_of(prov) is not None and self.resolver.resolve(prov):
            return False
        return any(self.resolver.resolve(attacker) for attacker in self.moves_to.get(prov, ()))

    def adjudicate(self, prov: str) -> bool:
        order = self.orders[prov]
        if isinstance(order, Move):
            return self.move_succeeds(prov, order)
        if isinstance(order, (SupportHold, SupportMove)):
            return self.support_given(prov, order)
        if isinstance(order, Convoy):
            return not self.is_dislodged(prov)
        return True

    def move_succeeds(self, prov: str, move: Move) -> bool:
        if not self.has_path(prov):
            return False
        attack = self.attack_strength(prov, move)
        dest = move.dest_province
        opponent = self.head_to_head(prov)
        if opponent is not None:
            opp_move = self.move_of(opponent)
            assert opp_move is not None
            if attack <= self.defend_strength(opponent, opp_move):
                return False
        elif attack <= self.hold_strength(dest):
            return False
        for other in self.moves_to[dest]:
            if other != prov:
                other_move = self.move_of(other)
                assert other_move is not None
                if attack <= self.prevent_strength(other, other_move):
                    return False
        return True

    def support_given(self, prov: str, support: SupportHold | SupportMove) -> bool:
        if isinstance(support, SupportMove):
            if not self._support_matches(support):
                return False    # supports a move that was not ordered
            against = support.dest.split("/")[0]
        else:
            if self.move_of(support.target) is not None:
                return False    # support to hold a unit that moves
            against = None
        power = self.units[prov].power
        for attacker in self.moves_to.get(prov, ()):
            if attacker == against or self.units[attacker].power == power:
                continue
            if self.has_path(attacker):
                return False    # cut
        if against is not None and against in self.moves_to.get(prov, ()) and self.is_dislodged(prov):
            return False        # dislodged by the unit it supported against
        return True

    # --- the whole phase --------------------------------------------------------------
    def run(self) -> MovementResult:
        for prov in self.orders:
            self.resolver.resolve(prov)
        succeeded = {p: self.resolver.resolve(p) for p in self.orders}
        dislodged: dict[str, str] = {}
        moved: dict[str, str] = {}
        for prov, order in self.orders.items():
            if isinstance(order, Move) and succeeded[prov]:
                moved[prov] = order.dest
                dest = order.dest_province
                if dest in self.units and not (self.move_of(dest) and succeeded[dest]):
                    dislodged[dest] = prov
        occupied = {p for p in self.units if p not in moved and p not in dislodged}
        occupied.update(o.split("/")[0] for o in moved.values())
        contested = set()
        reasons: dict[str, Reason] = {}
        for prov, order in self.orders.items():
            if isinstance(order, Move):
                if succeeded[prov]:
                    reasons[prov] = Reason.MOVED
                elif not self.has_path(prov):
                    reasons[prov] = Reason.NO_CONVOY
                else:
                    reasons[prov] = Reason.BOUNCED
                    # A standoff leaves the province empty; a unit beaten head-on makes none.
                    opponent = self.head_to_head(prov)
                    beaten = opponent is not None and succeeded.get(opponent, False)
                    if order.dest_province not in occupied and not beaten:
                        contested.add(order.dest_province)
            elif isinstance(order, (SupportHold, SupportMove)):
                reasons[prov] = Reason.SUPPORTED if succeeded[prov] else (
                    Reason.NOT_MATCHED if not self._support_matches(order) else Reason.CUT)
            elif isinstance(order, Convoy):
                reasons[prov] = Reason.CONVOYED if succeeded[prov] else Reason.DISLODGED
            else:
                reasons[prov] = Reason.HELD
            if prov in dislodged:
                reasons[prov] = Reason.DISLODGED
        convoyed = {p for p in self.by_convoy if succeeded.get(p)}
        return MovementResult(succeeded, reasons, dislodged, moved, contested, convoyed)

    def _support_matches(self, order: SupportHold | SupportMove) -> bool:
        if isinstance(order, SupportMove):
            supported = self.move_of(order.origin)
            if supported is None or supported.dest_province != order.dest.split("/")[0]:
                return False
            return "/" not in order.dest or "/" not in supported.dest or order.dest == supported.dest
        return self.move_of(order.target) is None


def resolve_movement(units: dict[str, Unit], orders: dict[str, Order],
                     seas_touching: dict[str, frozenset[str]],
                     backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]] = standard_backup_rule
                     ) -> MovementResult:
    """Resolve a movement phase. `orders` must hold one validated order per
    unit (Hold for unordered or void ones)."""
    full = {p: orders.get(p) or Hold(u.power, u.type, u.location) for p, u in units.items()}
    return MovementAdjudicator(units, full, seas_touching, backup_rule).run()
