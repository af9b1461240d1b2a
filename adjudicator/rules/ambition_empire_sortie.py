"""Ambition & Empire VI: minor units in combat.

post_resolve (the sortie): a minor unit may move to bounce or cut support but
never ends the turn elsewhere. When a minor move would succeed: if it would
succeed even without its supports, the move is invalid (the unit holds);
otherwise the supports that carry it are invalid (the move then bounces).
The core re-resolves until nothing more is voided.

after_movement: a minor unit dislodged by a Great Power is disbanded at once.

after_ownership (after every Fall): a minor unit whose centre is still
unconquered and vacant is rebuilt; a civil-disorder power's occupied centre
that is vacant now becomes a new minor power."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.movement import MovementResult, resolve_movement
from adjudicator.diplomacy.orders import Order, SupportMove
from adjudicator.diplomacy.state import GameState
from adjudicator.rules.ambition_empire_common import (
    KEY,
    book,
    is_great_power,
    minor_home_unit,
    minor_name,
    unconquered,
)

if TYPE_CHECKING:
    from adjudicator.diplomacy.variant import Variant

SORTIE_MOVE = "a minor unit may sortie but never ends the turn elsewhere: this move would succeed"
SORTIE_SUPPORT = "this support would make a minor unit's move succeed, which cannot happen"


def post_resolve(variant: Variant, state: GameState, orders: dict[str, Order],
                 result: MovementResult) -> dict[str, str]:
    backup = variant.rules.backup_rule
    invalid: dict[str, str] = {}
    for prov in sorted(result.moved):
        unit = state.units[prov]
        if is_great_power(variant, unit.power):
            continue
        dest = orders[prov].moves_to()
        supports = [p for p, o in orders.items() if isinstance(o, SupportMove) and o.origin == prov
                    and o.dest_province == dest]
        if supports:
            # Would the move succeed on its own? Then it is the move that is invalid.
            bare = {p: o for p, o in orders.items() if p not in supports}
            alone = resolve_movement(state.units, bare, variant.map.seas_touching, backup)
            if not alone.succeeded.get(prov, False):
                for p in supports:
                    invalid[p] = SORTIE_SUPPORT
                continue
        invalid[prov] = SORTIE_MOVE
    return invalid


def after_movement(variant: Variant, before: GameState, after: GameState, result: MovementResult) -> list[str]:
    notes = []
    for prov in sorted(result.dislodged):
        unit = before.units.get(prov)
        attacker = before.units.get(result.dislodged[prov])
        if unit is None or is_great_power(variant, unit.power):
            continue
        if attacker is None or not is_great_power(variant, attacker.power):
            continue
        # Remembered so the unit is rebuilt if its centre is vacant and unconquered after a Fall.
        lost = book(after).setdefault("disbanded_minors", [])
        if unit.power not in lost:
            lost.append(unit.power)
        if prov in after.dislodged:
            del after.dislodged[prov]
            notes.append(f"The {minor_name(variant, before, unit.power)} unit {variant.map.unit_name(unit)} was dislodged by a "
                         f"Great Power and is disbanded.")
    return notes


def rebuild_minors(variant: Variant, state: GameState) -> list[str]:
    """Rebuild each disbanded minor unit whose centre is unconquered and vacant;
    forget those whose centre a Great Power now controls (never rebuilt)."""
    notes = []
    lost: list[str] = book(state).get("disbanded_minors", [])
    for minor in list(lost):
        unit = minor_home_unit(variant, state, minor)
        if unit is None or not unconquered(variant, state, unit.province):
            lost.remove(minor)
            continue
        if unit.province in state.units:
            continue
        state.units[unit.province] = unit
        lost.remove(minor)
        notes.append(f"{minor_name(variant, state, minor)} rebuilds {variant.map.unit_name(unit)}.")
    return notes


def settle_pending_civil_disorder(variant: Variant, state: GameState) -> list[str]:
    """Centres of a power in civil disorder that were occupied then: vacant now
    (after a Fall turn), they become new minor powers; taken, they are gone."""
    from adjudicator.rules.ambition_empire_homes import make_minor
    data = book(state)
    pending: dict[str, str] = data.get("cd_pending", {})
    notes = []
    for centre, former in sorted(pending.items()):
        if state.centres.get(centre) != former:
            del pending[centre]          # another power took it at the end of the Fall
            continue
        if centre not in state.units:
            del pending[centre]
            notes += make_minor(variant, state, centre, former)
    return notes


def after_ownership(variant: Variant, before: GameState, after: GameState, changes: dict[str, str]) -> list[str]:
    notes = settle_pending_civil_disorder(variant, after)
    notes += rebuild_minors(variant, after)
    # As Winter begins: which provinces are occupied, so build_sites can tell
    # a build made this Winter from a unit that was already there.
    book(after)["winter_units"] = sorted(after.units)
    return notes


__all__ = ["KEY", "Unit", "after_movement", "after_ownership", "post_resolve", "rebuild_minors"]
