"""Ambition & Empire VI: shared helpers for the rule modules.

Minor powers are identified by the id of their centre ('swi', 'upr', ...);
a unit whose power is not one of the variant's Great Powers is a minor unit.
Variant bookkeeping lives in GameState.extra under KEY:

    minors:       {id: {name, religion, unit, former}}   minors made by civil disorder
    extra_homes:  {power: centre}                         additional home centres, for good
    civil_disorder: [power, ...]                          powers in permanent civil disorder
    cd_pending:   {centre: former power}                  occupied centres of a CD power
    winter_units: [province, ...]                         occupied provinces as Winter began
    seeded:       true                                    the minor units have been placed
"""

from __future__ import annotations

from typing import Any

from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant, parse_unit

KEY = "ambition_empire"
CHRISTIAN = ("catholic", "protestant", "orthodox")
ISLAMIC = ("islamic",)


def book(state: GameState) -> dict[str, Any]:
    """The A&E bookkeeping of a state, created on first use."""
    data = state.extra.setdefault(KEY, {})
    assert isinstance(data, dict)
    return data


def is_great_power(variant: Variant, power: str) -> bool:
    return power in variant.powers


def variant_minors(variant: Variant) -> dict[str, dict[str, Any]]:
    """The variant's minor powers as A&E's rules read them: name, units, religion, territory."""
    return {mid: {"name": m.name, "units": list(m.units), **m.traits} for mid, m in variant.minor_powers.items()}


def minor_info(variant: Variant, state: GameState, minor: str) -> dict[str, Any]:
    """Name, religion and unit of a minor power; civil-disorder minors override
    the variant's (a conquered minor centre that becomes independent again
    takes its former Great Power's religion)."""
    made = (state.extra.get(KEY) or {}).get("minors", {})
    if minor in made:
        return dict(made[minor])
    return variant_minors(variant).get(minor, {"name": minor, "religion": None, "units": []})


def minor_name(variant: Variant, state: GameState, minor: str) -> str:
    return str(minor_info(variant, state, minor).get("name", minor))


def religion_of(variant: Variant, state: GameState, power: str) -> str | None:
    if power in variant.powers:
        value = variant.powers[power].extra.get("religion")
        return str(value) if value else None
    value = minor_info(variant, state, power).get("religion")
    return str(value) if value else None


def is_christian(religion: str | None) -> bool:
    return religion in CHRISTIAN


def is_islamic(religion: str | None) -> bool:
    return religion in ISLAMIC


def minor_home_unit(variant: Variant, state: GameState, minor: str) -> Unit | None:
    """The unit a minor power (re)builds in its centre."""
    info = minor_info(variant, state, minor)
    text = info.get("unit") or (info.get("units") or [None])[0]
    if not text:
        return None
    return parse_unit(str(text), minor, variant.map, variant.source, f"minor_powers.{minor}")


def all_minor_ids(variant: Variant, state: GameState) -> list[str]:
    made = (state.extra.get(KEY) or {}).get("minors", {})
    return sorted(set(variant_minors(variant)) | set(made))


def unconquered(variant: Variant, state: GameState, centre: str) -> bool:
    """No Great Power controls it: ownership sticks once a Great Power takes a
    centre, so 'never controlled since it became a minor' is 'not a Great Power's now'."""
    owner = state.centres.get(centre)
    return owner is None or not is_great_power(variant, owner)


def in_civil_disorder(state: GameState) -> list[str]:
    return list((state.extra.get(KEY) or {}).get("civil_disorder", []))


def seed_minor_units(variant: Variant, state: GameState) -> list[str]:
    """Place the seventeen minor powers at the start of the game: each holds
    its centre with its unit (the setup hook, so the starting position, maps
    and the first Fall's list of conquests are right). Marked in the
    bookkeeping so it happens once; the first movement phase calls it too, for
    games created before the setup hook existed."""
    data = book(state)
    if data.get("seeded"):
        return []
    data["seeded"] = True
    if state.phase.year != variant.start_year or state.phase.season != variant.seasons[0]:
        return []
    placed = []
    for minor in variant_minors(variant):
        unit = minor_home_unit(variant, state, minor)
        if unit is None or unit.province in state.units or state.centres.get(unit.province):
            continue
        state.units[unit.province] = unit
        state.centres[unit.province] = minor
        placed.append(unit.province)
    return placed


def setup(variant: Variant, state: GameState) -> None:
    seed_minor_units(variant, state)
