"""The movement phase: Kruijswijk's decisions over the validated orders.

One decision per order, keyed by the ordered unit's province:
  Move         the move succeeds
  SupportHold, SupportMove   the support is given (not cut, not dislodged)
  Convoy       the convoying fleet is not dislodged
Strengths use Kruijswijk's names: attack, hold, defend, prevent. The generic
Resolver does the guessing; paradoxes go to the rule set's backup rule.

Decisions and strengths are generators: where the recursive algorithm calls
resolve(p), they `yield p` and are sent p's resolution, so the Resolver can
drive them with its own stack and no chain of moves is too long."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from adjudicator.diplomacy.model import Reason, Unit
from adjudicator.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.resolver import Resolver

# A decision yields the provinces whose decisions it needs and is sent their
# resolutions; a strength is computed the same way.
Decision = Generator[str, bool, bool]
Strength = Generator[str, bool, int]


@dataclass(frozen=True)
class Contest:
    """The strengths behind a decision that went against an order: the
    order's own strength, and the province and strength of each unit on the
    other side."""

    strength: int
    others: tuple[tuple[str, int], ...]


@dataclass
class MovementResult:
    succeeded: dict[str, bool]                      # province -> the order's decision
    reasons: dict[str, Reason]                      # province -> why, for the report
    dislodged: dict[str, str]                       # province -> where the dislodger came from
    moved: dict[str, str]                           # origin province -> destination location
    contested: set[str]                             # provinces left empty by a standoff
    convoyed: set[str] = field(default_factory=set)  # provinces of armies that moved by convoy
    # The decisions behind each failure, as values (the report's "why"):
    bounces: dict[str, Contest] = field(default_factory=dict)        # bounced move: its attack, and who stopped it
    cuts: dict[str, tuple[str, ...]] = field(default_factory=dict)   # cut support: the provinces of the units that cut it
    dislodgements: dict[str, Contest] = field(default_factory=dict)  # dislodged unit: its defence, and the dislodger's attack


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
        self.moves: dict[str, Move] = {}
        self.target: dict[str, str] = {}                # moving unit's province -> destination province
        self.moves_to: dict[str, list[str]] = defaultdict(list)
        self.move_supports: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.hold_supports: dict[str, list[str]] = defaultdict(list)
        self.convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        for prov, order in orders.items():
            if isinstance(order, Move):
                self.moves[prov] = order
                self.target[prov] = order.dest_province
                self.moves_to[order.dest_province].append(prov)
            elif isinstance(order, SupportMove):
                self.move_supports[(order.origin, order.dest.split("/")[0])].append(prov)
            elif isinstance(order, SupportHold):
                self.hold_supports[order.target].append(prov)
            elif isinstance(order, Convoy):
                self.convoys[(order.origin, order.dest)].append(prov)
        # A support only counts for the move (or hold) it names; one that names
        # a coast only helps a move to that coast (DATC 6.B.9).
        self.unmatched: set[str] = {p for p, o in orders.items()
                                    if isinstance(o, (SupportHold, SupportMove)) and not self._support_matches(o)}
        for supporters in self.move_supports.values():
            supporters[:] = [s for s in supporters if s not in self.unmatched]
        # Validation has settled which army moves go by convoy.
        self.by_convoy: set[str] = {p for p, m in self.moves.items() if m.via_convoy}
        # Two units moving into each other's province meet head-on, unless either goes by convoy.
        self.opponent: dict[str, str] = {
            p: dest for p, dest in self.target.items()
            if self.target.get(dest) == p and p not in self.by_convoy and dest not in self.by_convoy}
        self.resolver: Resolver[str] = Resolver(self.adjudicate, lambda cycle: backup_rule(orders, cycle))

    # --- queries the rules need -------------------------------------------------
    def move_of(self, prov: str) -> Move | None:
        return self.moves.get(prov)

    # --- decisions and strengths: generators that `yield` the province of each
    # decision they need and are sent its resolution (see resolver.py) -------------
    def has_path(self, prov: str) -> Decision:
        """Direct moves always have a path; convoyed moves need a chain of
        convoying fleets, each of whose convoy succeeds, from coast to coast.
        Callers skip this generator for direct moves: it is the hot path."""
        if prov not in self.by_convoy:
            return True
        dest = self.target[prov]
        fleets = self.convoys.get((prov, dest), [])
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
            if not (yield fleet):
                continue
            if fleet in goal:
                return True
            for nxt in self.seas_touching.get(fleet, frozenset()):
                if nxt in fleet_set and nxt not in seen:
                    frontier.append(nxt)
        return False

    def supports_given(self, supporters: list[str], exclude_power: str | None = None) -> Strength:
        count = 0
        for s in supporters:
            if exclude_power is not None and self.units[s].power == exclude_power:
                continue
            if (yield s):
                count += 1
        return count

    def attack_strength(self, prov: str) -> Strength:
        if prov in self.by_convoy and not (yield from self.has_path(prov)):
            return 0
        dest = self.target[prov]
        supporters = self.move_supports.get((prov, dest), [])
        defender = self.units.get(dest)
        if defender is None:
            return 1 + (yield from self.supports_given(supporters))
        if prov not in self.opponent and dest in self.moves and (yield dest):
            return 1 + (yield from self.supports_given(supporters))
        if defender.power == self.units[prov].power:
            return 0            # never dislodge your own unit
        # Supports from the defender's own power do not help to dislodge it.
        return 1 + (yield from self.supports_given(supporters, exclude_power=defender.power))

    def hold_strength(self, prov: str) -> Strength:
        if prov not in self.units:
            return 0
        if prov in self.moves:
            return 0 if (yield prov) else 1
        return 1 + (yield from self.supports_given(self.hold_supports.get(prov, [])))

    def defend_strength(self, prov: str) -> Strength:
        return 1 + (yield from self.supports_given(self.move_supports.get((prov, self.target[prov]), [])))

    def prevent_strength(self, prov: str) -> Strength:
        if prov in self.by_convoy and not (yield from self.has_path(prov)):
            return 0
        opponent = self.opponent.get(prov)
        if opponent is not None and (yield opponent):
            return 0            # lost a head-to-head battle: no effect on its destination
        return 1 + (yield from self.supports_given(self.move_supports.get((prov, self.target[prov]), [])))

    def is_dislodged(self, prov: str) -> Decision:
        if prov in self.moves and (yield prov):
            return False
        for attacker in self.moves_to.get(prov, ()):
            if (yield attacker):
                return True
        return False

    def adjudicate(self, prov: str) -> Decision:
        """The decision for the order of the unit in `prov` (a generator)."""
        order = self.orders[prov]
        if isinstance(order, Move):
            return self.move_succeeds(prov)
        if isinstance(order, (SupportHold, SupportMove)):
            return self.support_given(prov, order)
        if isinstance(order, Convoy):
            return self.convoy_given(prov)
        return self.holds()

    def holds(self) -> Decision:
        return True
        yield ""                # unreachable: makes this a generator that needs nothing

    def convoy_given(self, prov: str) -> Decision:
        return not (yield from self.is_dislodged(prov))

    def move_succeeds(self, prov: str) -> Decision:
        if prov in self.by_convoy and not (yield from self.has_path(prov)):
            return False
        attack = yield from self.attack_strength(prov)
        dest = self.target[prov]
        opponent = self.opponent.get(prov)
        if opponent is not None:
            if attack <= (yield from self.defend_strength(opponent)):
                return False
        elif attack <= (yield from self.hold_strength(dest)):
            return False
        for other in self.moves_to[dest]:
            if other != prov and attack <= (yield from self.prevent_strength(other)):
                return False
        return True

    def support_given(self, prov: str, support: SupportHold | SupportMove) -> Decision:
        if prov in self.unmatched:
            return False        # supports a move that was not ordered, or a hold by a unit that moves
        against = support.dest.split("/")[0] if isinstance(support, SupportMove) else None
        attackers = self.moves_to.get(prov, ())
        power = self.units[prov].power
        for attacker in attackers:
            if attacker == against or self.units[attacker].power == power:
                continue
            if attacker not in self.by_convoy or (yield from self.has_path(attacker)):
                return False    # cut
        # Dislodged by the unit it supported against?
        return not (against is not None and against in attackers and (yield from self.is_dislodged(prov)))

    # --- the whole phase --------------------------------------------------------------
    def run(self) -> MovementResult:
        # Holds (and any order with no decision of its own) succeed; nothing asks for them.
        succeeded = {p: self.resolver.resolve(p) if isinstance(o, (Move, SupportHold, SupportMove, Convoy)) else True
                     for p, o in self.orders.items()}
        dislodged: dict[str, str] = {}
        moved: dict[str, str] = {}
        for prov, order in self.orders.items():
            if isinstance(order, Move) and succeeded[prov]:
                moved[prov] = order.dest
                dest = order.dest_province
                if dest in self.units and not (dest in self.moves and succeeded[dest]):
                    dislodged[dest] = prov
        occupied = {p for p in self.units if p not in moved and p not in dislodged}
        occupied.update(o.split("/")[0] for o in moved.values())
        contested = set()
        reasons: dict[str, Reason] = {}
        for prov, order in self.orders.items():
            if isinstance(order, Move):
                if succeeded[prov]:
                    reasons[prov] = Reason.MOVED
                elif not self.resolver.evaluate(self.has_path(prov)):
                    reasons[prov] = Reason.NO_CONVOY
                else:
                    reasons[prov] = Reason.BOUNCED
                    # A standoff leaves the province empty; a unit beaten head-on makes none.
                    opponent = self.opponent.get(prov)
                    beaten = opponent is not None and succeeded.get(opponent, False)
                    if order.dest_province not in occupied and not beaten:
                        contested.add(order.dest_province)
            elif isinstance(order, (SupportHold, SupportMove)):
                reasons[prov] = Reason.SUPPORTED if succeeded[prov] else (
                    Reason.NOT_MATCHED if prov in self.unmatched else Reason.CUT)
            elif isinstance(order, Convoy):
                reasons[prov] = Reason.CONVOYED if succeeded[prov] else Reason.DISLODGED
            else:
                reasons[prov] = Reason.HELD
            if prov in dislodged:
                reasons[prov] = Reason.DISLODGED
        convoyed = {p for p in self.by_convoy if succeeded.get(p)}
        result = MovementResult(succeeded, reasons, dislodged, moved, contested, convoyed)
        self.explain(result)
        return result

    # --- the decisions behind the results, as values ------------------------------------
    def settled(self, strength: Strength, succeeded: dict[str, bool]) -> int:
        """A strength computed from the final decisions (every decision it
        asks for is resolved by now; nothing is guessed)."""
        try:
            needed = next(strength)
            while True:
                needed = strength.send(succeeded.get(needed, False))
        except StopIteration as done:
            return int(done.value)

    def explain(self, result: MovementResult) -> None:
        """Fill in the strengths and units behind each bounce, cut and dislodgement."""
        succeeded = result.succeeded
        for prov, reason in result.reasons.items():
            if reason is Reason.BOUNCED:
                result.bounces[prov] = self.bounce(prov, succeeded)
            elif reason is Reason.CUT:
                result.cuts[prov] = self.cutters(prov)
        for prov, attacker in result.dislodged.items():
            attack = self.settled(self.attack_strength(attacker), succeeded)
            if self.opponent.get(attacker) == prov:
                defence = self.settled(self.defend_strength(prov), succeeded)
            else:
                defence = self.settled(self.hold_strength(prov), succeeded)
            result.dislodgements[prov] = Contest(defence, ((attacker, attack),))

    def bounce(self, prov: str, succeeded: dict[str, bool]) -> Contest:
        """A failed move's attack strength and every unit whose strength matched or beat it."""
        attack = self.settled(self.attack_strength(prov), succeeded)
        dest = self.target[prov]
        others: list[tuple[str, int]] = []
        opponent = self.opponent.get(prov)
        if opponent is not None:
            others.append((opponent, self.settled(self.defend_strength(opponent), succeeded)))
        elif dest in self.units:
            others.append((dest, self.settled(self.hold_strength(dest), succeeded)))
        for other in self.moves_to[dest]:
            if other != prov:
                others.append((other, self.settled(self.prevent_strength(other), succeeded)))
        return Contest(attack, tuple((p, s) for p, s in others if s > 0 and s >= attack))

    def cutters(self, prov: str) -> tuple[str, ...]:
        """The units whose attacks cut this support (not the one it supports against, not its own power's)."""
        support = self.orders[prov]
        against = support.dest.split("/")[0] if isinstance(support, SupportMove) else None
        power = self.units[prov].power
        return tuple(a for a in self.moves_to.get(prov, ()) if a != against and self.units[a].power != power
                     and (a not in self.by_convoy or self.resolver.evaluate(self.has_path(a))))

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
