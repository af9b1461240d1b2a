"""Move: 'A par - bur', 'A lon - nwy via convoy', or njudge's path convoy
'A lon - nth - nwy'. A move succeeds if its attack strength beats the hold
strength of its destination (or, head-to-head, the other unit's defend
strength) and the prevent strength of every other move there; an army
going by convoy needs a path first. Strengths use Kruijswijk's names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import (
    ARMY,
    BOUNCED,
    FLEET,
    NO_CONVOY,
    Reason,
    Unit,
    UnitType,
)
from adjudicator.diplomacy.movement_result import Contest, ConvoyNote
from adjudicator.diplomacy.order_types.board import Board, Decided
from adjudicator.diplomacy.order_types.convoy import convoy_possible, has_path
from adjudicator.diplomacy.order_types.hold import hold_strength
from adjudicator.diplomacy.order_types.reading import MOVE_WORDS, Reader, Tokens
from adjudicator.diplomacy.order_types.support import supports_given
from adjudicator.diplomacy.order_types.verdict import Void
from adjudicator.diplomacy.orders import Move
from adjudicator.errors import OrderSyntaxError

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


# --- parsing ------------------------------------------------------------------------
def read_move(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str) -> Move:
    """After '-' (or 'move to'): the destination, then 'via convoy' or a path of seas."""
    tokens.skip_to_after_verb()
    dest = reader.read_location(tokens)
    if reader.graph.is_sea(dest) and tokens.peek() in MOVE_WORDS:
        return read_convoy_path(reader, tokens, power, unit_type, location, dest)
    return Move(power, unit_type, location, dest, read_via_convoy(tokens))


def read_via_convoy(tokens: Tokens) -> bool:
    """An optional 'via convoy', 'by convoy', 'via' or 'vc'."""
    rest = tokens.words[tokens.pos:]
    if rest[:2] in (["via", "convoy"], ["by", "convoy"]):
        tokens.pos += 2
        return True
    if rest[:1] in (["vc"], ["via"]):
        tokens.pos += 1
        return True
    return False


def read_convoy_path(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str,
                     first_sea: str) -> Move:
    """njudge's path convoy, 'A lon - nth - nwy': the seas between mean
    'via convoy'. The path itself is not kept: any convoy route will do."""
    graph = reader.graph
    if unit_type is FLEET:
        raise OrderSyntaxError("only armies are convoyed: a path through seas is for an army",
                               hint="a fleet moves one step, e.g. 'F lon - nth'")
    place = first_sea
    while graph.is_sea(place):
        if tokens.peek() not in MOVE_WORDS:
            raise OrderSyntaxError(f"the convoy path ends on land, not in {graph.full_name(place)}",
                                   hint="e.g. 'A lon - nth - nwy'")
        tokens.take()
        place = reader.read_location(tokens)
        if not graph.is_sea(place) and tokens.peek() in MOVE_WORDS:
            raise OrderSyntaxError(f"a convoy path goes through seas, not {graph.full_name(place)}",
                                   hint="e.g. 'A lon - nth - nwy'")
    return Move(power, unit_type, location, place, True)


# --- validation ---------------------------------------------------------------------
def resolve_destination(state: GameState, variant: Variant, unit: Unit, dest: str,
                        purpose: str, province: str | None = None) -> str | Void:
    """The exact location a unit moves to. Armies ignore coasts; a fleet that
    names no coast gets the only reachable one, and is void if it can reach
    none or several. `province` is dest's province when the caller has it compiled."""
    graph, is_adjacent = variant.map, variant.rules.is_adjacent
    if province is None:
        province = graph.province_of(dest)
    if unit.type is ARMY:
        return province
    if graph.terrain[province] == "land":
        return Void(f"a fleet cannot go inland to {graph.full_name(province)}")
    if dest != province:
        if not is_adjacent(variant, state, unit, unit.location, dest, purpose):
            return Void(f"{graph.full_name(unit.location)} does not border {graph.full_name(dest)}")
        return dest
    # A loop, not a list comprehension: most provinces have one spot, and
    # every fleet's move to a province is checked here every phase.
    options = []
    for loc in graph.fleet_spots[province]:
        if is_adjacent(variant, state, unit, unit.location, loc, purpose):
            options.append(loc)
    if len(options) == 1:
        return options[0]
    if not options:
        return Void(f"a fleet in {graph.full_name(unit.location)} cannot reach {graph.full_name(province)}")
    return Void(f"which coast of {graph.full_name(province)}?", hint="name one: " + " or ".join(options))


def validate_move(state: GameState, variant: Variant, order: Move, unit: Unit, exact: bool) -> Move | Void:
    """A fleet's move to an exact location it borders; an army's move over
    land, or by convoy where both ends touch the sea."""
    graph = variant.map
    here = order.province
    target = order.dest_province
    if target == here:
        return Void("a unit cannot move to its own province")
    if unit.type is FLEET:
        if order.via_convoy:
            return Void("only armies can be convoyed")
        dest = resolve_destination(state, variant, unit, order.dest, "move", target)
        if isinstance(dest, Void):
            return dest
        return order if exact and dest == order.dest else Move(unit.power, unit.type, unit.location, dest)
    if target in graph.seas:
        return Void(f"an army cannot move to the sea ({graph.full_name(target)})")
    adjacent = variant.rules.is_adjacent(variant, state, unit, unit.location, target, "move")
    if adjacent and (not order.via_convoy or not convoy_possible(graph, here, target)
                     and variant.rule_option("via_convoy_fallback") == "land_route"):
        # 'via convoy' where no convoy can ever go: the directive is ignored
        # and the army moves over land (move_as_written notes it on the order line).
        # Without the fallback (2023 rules) the order is void below.
        if exact and order.dest == target and not order.via_convoy:
            return order
        return Move(unit.power, unit.type, unit.location, target)
    # A convoy move: both ends must touch the sea.
    if not convoy_possible(graph, here, target):
        if order.via_convoy:
            return Void(f"no convoy can take an army from {graph.full_name(here)} "
                        f"to {graph.full_name(target)}")
        return Void(f"{graph.full_name(here)} does not border {graph.full_name(target)}")
    via = True if order.via_convoy else not adjacent
    if exact and order.dest == target and order.via_convoy == via:
        return order
    return Move(unit.power, unit.type, unit.location, target, via)


def move_as_written(graph: MapGraph, written: Move, final: Move) -> tuple[Move, ConvoyNote | None]:
    """The move an order line shows, and what the judge made of its 'via
    convoy' where that differs from what was written. `final` is the move as
    validation settled it. A 'via convoy' the player did not write is not
    shown on the move (ADDED); one that was ignored (the army moved, or
    tried to move, over land) says why."""
    if not written.via_convoy:
        if not final.via_convoy:
            return final, None
        return Move(final.power, final.unit_type, final.location, final.dest), ConvoyNote.ADDED
    if final.via_convoy:
        return final, None
    if not convoy_possible(graph, written.province, final.dest_province):
        return final, ConvoyNote.NO_ROUTE
    return final, ConvoyNote.NO_FLEET


# --- adjudication -------------------------------------------------------------------
def index_move(board: Board, prov: str, order: Move) -> None:
    board.moves[prov] = order
    board.target[prov] = order.dest_province
    board.moves_to[order.dest_province].append(prov)


def attack_strength(board: Board, prov: str, decided: Decided) -> int:
    if prov in board.by_convoy and not has_path(board, prov, decided):
        return 0
    dest = board.target[prov]
    # Most moves have no support: then supports_given is not called (the hot path).
    supporters = board.move_supports.get((prov, dest))
    defender = board.units.get(dest)
    if defender is None:
        return 1 + supports_given(board, supporters, decided) if supporters else 1
    if prov not in board.opponent and dest in board.moves and decided(dest):
        return 1 + supports_given(board, supporters, decided) if supporters else 1
    if defender.power == board.units[prov].power:
        return 0            # never dislodge your own unit
    # Supports from the defender's own power do not help to dislodge it.
    if not supporters:
        return 1
    return 1 + supports_given(board, supporters, decided, exclude_power=defender.power)


def defend_strength(board: Board, prov: str, decided: Decided) -> int:
    supporters = board.move_supports.get((prov, board.target[prov]))
    return 1 + supports_given(board, supporters, decided) if supporters else 1


def prevent_strength(board: Board, prov: str, decided: Decided) -> int:
    if prov in board.by_convoy and not has_path(board, prov, decided):
        return 0
    opponent = board.opponent.get(prov)
    if opponent is not None and decided(opponent):
        return 0            # lost a head-to-head battle: no effect on its destination
    supporters = board.move_supports.get((prov, board.target[prov]))
    return 1 + supports_given(board, supporters, decided) if supporters else 1


def move_succeeds(board: Board, prov: str, order: Move, decided: Decided) -> bool:
    """The move decision."""
    if prov in board.by_convoy and not has_path(board, prov, decided):
        return False
    attack = attack_strength(board, prov, decided)
    dest = board.target[prov]
    opponent = board.opponent.get(prov)
    if opponent is not None:
        if attack <= defend_strength(board, opponent, decided):
            return False
    elif attack <= hold_strength(board, dest, decided):
        return False
    for other in board.moves_to[dest]:
        if other != prov and attack <= prevent_strength(board, other, decided):
            return False
    return True


def move_failure(board: Board, prov: str, order: Move, decided: Decided) -> Reason:
    """Why a move failed: its convoy, or a bounce."""
    if prov in board.by_convoy and not has_path(board, prov, decided):
        return NO_CONVOY
    return BOUNCED


def leaves_standoff(board: Board, prov: str, succeeded: dict[str, bool], occupied: set[str]) -> bool:
    """Does this bounced move leave its destination empty? A standoff does;
    a unit beaten head-on makes none."""
    opponent = board.opponent.get(prov)
    beaten = opponent is not None and succeeded.get(opponent, False)
    return board.target[prov] not in occupied and not beaten


def bounce(board: Board, prov: str, decided: Decided) -> Contest:
    """A failed move's attack strength and every unit whose strength matched
    or beat it, from the final decisions."""
    attack = attack_strength(board, prov, decided)
    dest = board.target[prov]
    others: list[tuple[str, int]] = []
    opponent = board.opponent.get(prov)
    if opponent is not None:
        others.append((opponent, defend_strength(board, opponent, decided)))
    elif dest in board.units:
        others.append((dest, hold_strength(board, dest, decided)))
    for other in board.moves_to[dest]:
        if other != prov:
            others.append((other, prevent_strength(board, other, decided)))
    return Contest(attack, tuple([(p, s) for p, s in others if s > 0 and s >= attack]))


def dislodgement(board: Board, prov: str, attacker: str, decided: Decided) -> Contest:
    """A dislodged unit's defence (its hold strength, or its defend strength
    head-to-head) against the attack of the move that dislodged it, from the
    final decisions."""
    attack = attack_strength(board, attacker, decided)
    if board.opponent.get(attacker) == prov:
        defence = defend_strength(board, prov, decided)
    else:
        defence = hold_strength(board, prov, decided)
    return Contest(defence, ((attacker, attack),))
