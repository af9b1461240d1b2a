"""Build: 'build A par' or 'A par build', in winter, by a power with more
centres than units, on a site its rule set allows (standard: an owned,
vacant home centre)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.order_types.reading import Reader, Tokens
from adjudicator.diplomacy.orders import Build
from adjudicator.errors import IllegalOrderError, OrderSyntaxError

if TYPE_CHECKING:
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


# --- parsing ------------------------------------------------------------------------
def read_build_first(reader: Reader, tokens: Tokens, power: str) -> Build:
    """'build A par': the order word first, then the unit, whose type must be named."""
    tokens.take()
    unit_type = reader.read_unit_type(tokens)
    if unit_type is None:
        raise OrderSyntaxError("a build names the unit type", hint="e.g. 'build A par' or 'build F stp/nc'")
    return Build(power, unit_type, reader.read_location(tokens))


def read_build(reader: Reader, tokens: Tokens, power: str, unit_type: UnitType | None, location: str) -> Build:
    """'A par build': the unit's type must be named."""
    if unit_type is None:
        raise OrderSyntaxError("a build names the unit type", hint="e.g. 'build A par'")
    return Build(power, unit_type, location)


# --- validation ---------------------------------------------------------------------
def validate_build(variant: Variant, after: GameState, order: Build, builds_left: int) -> Unit | IllegalOrderError:
    """The unit built, if the power has a build left and the site is one of
    its build sites in the position as built so far (`after`), with a coast
    named where a fleet needs one; else the error."""
    graph = variant.map
    power = order.power
    if builds_left <= 0:
        return IllegalOrderError(f"{variant.powers[power].name} has no builds left"
                                 if power in variant.powers else "no builds left")
    prov = order.province
    sites = variant.rules.build_sites(variant, after, power)
    if prov not in sites:
        why = "not an owned, vacant home centre" if prov not in after.units else "occupied"
        return IllegalOrderError(f"cannot build in {graph.full_name(prov)}: {why}",
                                 hint=("sites: " + ", ".join(sites)) if sites else "no site is free")
    location = order.location
    assert order.unit_type is not None
    if order.unit_type is UnitType.FLEET and "/" not in location and graph.provinces[prov].coasts:
        return IllegalOrderError(f"which coast of {graph.full_name(prov)}?",
                                 hint="e.g. build F " + graph.coasts(prov)[0])
    if not graph.can_stand(order.unit_type, location):
        return IllegalOrderError(f"cannot build {'a fleet' if order.unit_type is UnitType.FLEET else 'an army'} "
                                 f"in {graph.full_name(location)}")
    return Unit(power, order.unit_type, location)
