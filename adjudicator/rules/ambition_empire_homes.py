"""Ambition & Empire VI: home centres, minors' adjustments, victory, civil
disorder and draws.

Home centres. A power builds in the centres it controls and that are vacant
among: its original home centres; Crimea for Russia; its additional home
centre, once made. Denmark-Norway, Turkey, Poland-Lithuania & Saxony, Spain
and Sweden (extra_home_centre: true) make one additional home centre, for
good, by building in a conquered centre: until then every controlled,
vacant centre outside their original home centres is a build site, but only
one build per Winter may go to such a centre (bookkeeping: the occupied
provinces as Winter began). Austria never builds in the Southern Netherlands.
An original home centre of another power builds for whichever of the two
controls it, which is what "controls + vacant + in its own list" gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Unit, UnitType, province_of
from adjudicator.diplomacy.state import GameState
from adjudicator.rules.ambition_empire_common import (
    KEY,
    book,
    in_civil_disorder,
    is_great_power,
    minor_info,
    religion_of,
)

if TYPE_CHECKING:
    from adjudicator.diplomacy.variant import Variant


def _special(variant: Variant, rule: str) -> list[tuple[str, str]]:
    return [(str(e["power"]), str(e["centre"])) for e in variant.extra.get("special_home_centres") or []
            if e.get("rule") == rule]


def extra_homes(state: GameState) -> dict[str, str]:
    return dict((state.extra.get(KEY) or {}).get("extra_homes", {}))


def may_make_extra_home(variant: Variant, state: GameState, power: str) -> bool:
    info = variant.powers.get(power)
    return bool(info and info.extra.get("extra_home_centre")) and power not in extra_homes(state)


def home_centres(variant: Variant, state: GameState, power: str) -> set[str]:
    """The power's home centres now (whether or not it controls them)."""
    info = variant.powers[power]
    homes = set(info.home_centres)
    homes.update(c for p, c in _special(variant, "home_while_controlled") if p == power)
    if power in extra_homes(state):
        homes.add(extra_homes(state)[power])
    homes.difference_update(c for p, c in _special(variant, "never_build") if p == power)
    return homes


def build_sites(variant: Variant, state: GameState, power: str) -> list[str]:
    if power not in variant.powers:
        return []
    mine = {c for c, p in state.centres.items() if p == power}
    never = {c for p, c in _special(variant, "never_build") if p == power}
    sites = {c for c in home_centres(variant, state, power) & mine if c not in state.units}
    if may_make_extra_home(variant, state, power):
        conquered = mine - set(variant.powers[power].home_centres) - never
        began = set((state.extra.get(KEY) or {}).get("winter_units", []))
        # A build already made this Winter in a conquered centre has used the one chance.
        built_here = [c for c in conquered if c in state.units and state.units[c].power == power
                      and "winter_units" in (state.extra.get(KEY) or {}) and c not in began]
        if not built_here:
            sites.update(c for c in conquered if c not in state.units)
    return sorted(sites)


def after_adjustment(variant: Variant, before: GameState, after: GameState) -> list[str]:
    """Record additional home centres: the first conquered centre a power builds in."""
    notes = []
    for power in variant.powers:
        if not may_make_extra_home(variant, before, power):
            continue
        originals = set(variant.powers[power].home_centres)
        for prov, unit in sorted(after.units.items()):
            if unit.power == power and prov not in before.units and prov not in originals \
                    and after.centres.get(prov) == power:
                book(after).setdefault("extra_homes", {})[power] = prov
                notes.append(f"{variant.map.full_name(prov)} becomes a home centre of "
                             f"{variant.powers[power].name} for the rest of the game.")
                break
    book(after).pop("winter_units", None)
    return notes


def playing_powers(variant: Variant, state: GameState) -> list[str]:
    """Great Powers only (minor powers never build or disband), less those in civil disorder."""
    gone = set(in_civil_disorder(state))
    return [p for p in variant.powers if p not in gone]


def victory(variant: Variant, state: GameState) -> str | None:
    """A power wins once it holds at least `victory.centres` and strictly more than any other."""
    counts = sorted(((len(state.centres_of(p)), p) for p in variant.powers), reverse=True)
    if not counts:
        return None
    top, leader = counts[0]
    if top < variant.victory_centres:
        return None
    if len(counts) > 1 and counts[1][0] == top:
        return None
    return leader


def great_power_survivors(variant: Variant, state: GameState) -> list[str]:
    """A draw is shared by every Great Power with pieces on the board."""
    return sorted({u.power for u in state.units.values() if is_great_power(variant, u.power)}
                  | {d.unit.power for d in state.dislodged.values() if is_great_power(variant, d.unit.power)})


def record_draw(state: GameState, variant: Variant) -> GameState:
    """End the game in a draw shared by every Great Power with pieces on the board."""
    after = state.copy()
    after.result = {"draw": great_power_survivors(variant, state), "phase": str(state.phase)}
    return after


# --- civil disorder ---------------------------------------------------------------
def starting_unit_type(variant: Variant, centre: str) -> tuple[UnitType, str]:
    """The type (and location) of the unit that stood in the centre at the start.
    No unit started there (Liverpool): an army, which can stand in any centre."""
    for info in variant.powers.values():
        for unit in info.units:
            if unit.province == centre:
                return unit.type, unit.location
    for minor in variant.minor_powers.values():
        for text in minor.units:
            kind, loc = str(text).split()
            if province_of(loc) == centre:
                return UnitType(kind.upper()), loc
    return UnitType.ARMY, centre


def make_minor(variant: Variant, state: GameState, centre: str, former: str) -> list[str]:
    """Turn a vacant centre of a power in civil disorder into a new minor power."""
    kind, location = starting_unit_type(variant, centre)
    name = variant.map.full_name(centre)
    religion = religion_of(variant, state, former)
    book(state).setdefault("minors", {})[centre] = {
        "name": name, "religion": religion, "unit": f"{kind.value} {location}", "former": former}
    state.centres[centre] = centre
    state.units[centre] = Unit(centre, kind, location)
    return [f"{name} becomes an independent minor power ({religion}) with {kind.value} {location}."]


def apply_civil_disorder(variant: Variant, state: GameState, power: str) -> tuple[GameState, list[str]]:
    """Declare `power` in permanent civil disorder (the seed's six effects)."""
    if power not in variant.powers:
        raise ValueError(f"{power!r} is not a Great Power")
    if power in in_civil_disorder(state):
        raise ValueError(f"{variant.powers[power].name} is already in civil disorder")
    after = state.copy()
    name = variant.powers[power].name
    notes = [f"{name} is in permanent civil disorder; no player may take it over."]
    for prov, unit in sorted(state.units.items()):
        if unit.power == power:
            del after.units[prov]
            notes.append(f"{name} {variant.map.unit_name(unit)} is disbanded.")
    for prov, dis in sorted(state.dislodged.items()):
        if dis.unit.power == power:
            del after.dislodged[prov]
    data = book(after)
    data.setdefault("civil_disorder", []).append(power)
    for centre in after.centres_of(power):
        if centre in after.units:
            data.setdefault("cd_pending", {})[centre] = power
            notes.append(f"{variant.map.full_name(centre)} is occupied; it becomes a minor power once "
                         f"vacant after a Fall turn.")
        else:
            notes += make_minor(variant, after, centre, power)
    return after, notes


__all__ = [
    "after_adjustment",
    "apply_civil_disorder",
    "build_sites",
    "home_centres",
    "make_minor",
    "minor_info",
    "playing_powers",
    "record_draw",
    "victory",
]
