"""A Diplomacy game state's YAML form, checked against its variant:

    variant: standard
    options: {rules_edition: '2023'}   # the game's rule options, if it set any
    phase: {year: 1901, season: spring, kind: movement}
    units: {austria: [A bud, A vie, F tri], ...}
    dislodged: [{unit: A ser, power: austria, attacker_from: bul, retreats: [alb, tri]}]
    centres: {austria: [bud, tri, vie], ...}
    control: {france: [bur, gas, pic], ...}   # land that is no centre: its last occupier
    extra: {...}        # variant bookkeeping (A&E: conquered minors, extra home centres...)
    result: null        # set when the game is over

and the state a variant starts from."""

from __future__ import annotations

from typing import Any

from adjudicator.diplomacy.model import Phase, Unit
from adjudicator.diplomacy.state import Dislodged, GameState
from adjudicator.diplomacy.variant import Variant, parse_unit
from adjudicator.errors import DataFileError


def state_to_data(state: GameState, variant: Variant) -> dict[str, Any]:
    # Minor powers too, including one that owns a centre but has no unit.
    powers = list(variant.powers) + sorted(
        ({u.power for u in state.units.values()} | set(state.centres.values()) | set(state.control.values()))
        - set(variant.powers))
    units = {p: [str(u) for u in sorted(state.units.values(), key=lambda u: u.location) if u.power == p]
             for p in powers}
    centres = {p: state.centres_of(p) for p in powers}
    return {
        "variant": state.variant,
        "phase": {"year": state.phase.year, "season": state.phase.season, "kind": state.phase.kind},
        "units": {p: us for p, us in units.items() if us},
        "dislodged": [
            {"unit": str(d.unit), "power": d.unit.power, "attacker_from": d.attacker_from,
             "retreats": list(d.retreats)}
            for _, d in sorted(state.dislodged.items())],
        "centres": {p: cs for p, cs in centres.items() if cs},
        # Only where some land is controlled: a state written before control
        # was kept stays byte for byte.
        **({"control": _by_power(state.control, powers)} if state.control else {}),
        "extra": state.extra,
        "result": state.result,
        # Only when someone has missed a phase: older files stay byte for byte.
        **({"missed": dict(sorted(state.missed.items()))} if state.missed else {}),
        # The game's own rule options, only when it has some (the same reason).
        **({"options": dict(sorted(variant.game_options.items()))} if variant.game_options else {}),
    }

def _by_power(held: dict[str, str], powers: list[str]) -> dict[str, list[str]]:
    """{province: power} as {power: [provinces]}, in the powers' order, none empty."""
    lists = {p: sorted(x for x, q in held.items() if q == p) for p in powers}
    return {p: xs for p, xs in lists.items() if xs}


def state_from_data(data: Any, variant: Variant, source: str) -> GameState:
    """The state in a state file, checked field by field: a fault names the
    field and what it should hold, never a traceback."""
    if not isinstance(data, dict) or "phase" not in data or "units" not in data:
        raise DataFileError("not a game state (no 'phase'/'units'; truncated file?)", file=source)
    ph = data["phase"]
    try:
        phase = Phase(int(ph["year"]), str(ph["season"]), str(ph["kind"]))
    except (KeyError, TypeError, ValueError):
        raise DataFileError("phase must be {year, season, kind}", file=source) from None
    seasons = (*variant.seasons, "winter")      # adjustments happen in winter
    if phase.season not in seasons or phase.kind not in ("movement", "retreat", "adjustment"):
        raise DataFileError(f"phase: {phase} is not a phase of {variant.name}", file=source)
    graph = variant.map
    units: dict[str, Unit] = {}
    for power, unit_texts in _mapping_of_lists(data, "units", source).items():
        for text in unit_texts:
            unit = parse_unit(_text(text, f"units.{power}", source), power, graph, source, f"units.{power}")
            if unit.province in units:
                raise DataFileError(f"two units in {unit.province}", file=source)
            units[unit.province] = unit
    centres: dict[str, str] = {}
    for power, cs in _mapping_of_lists(data, "centres", source).items():
        for c in cs:
            if not isinstance(c, str) or c not in graph.supply_centres:
                raise DataFileError(f"centres.{power}: {c!r} is not a supply centre", file=source)
            centres[c] = power
    control: dict[str, str] = {}
    for power, provinces in _mapping_of_lists(data, "control", source).items():
        for province in provinces:
            if not isinstance(province, str) or province not in graph.provinces \
                    or province in graph.supply_centres or graph.provinces[province].terrain == "sea":
                raise DataFileError(f"control.{power}: {province!r} is not land without a supply centre",
                                    file=source, hint="control lists the land a power last stood on, centres aside")
            control[province] = power
    dislodged: dict[str, Dislodged] = {}
    entries = data.get("dislodged") or []
    if not isinstance(entries, list):
        raise DataFileError("dislodged: should be a list of {unit, power, attacker_from, retreats}",
                            file=source)
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("power"), str) \
                or not isinstance(entry.get("retreats") or [], list):
            raise DataFileError("dislodged: each entry is {unit, power, attacker_from, retreats}", file=source)
        unit = parse_unit(_text(entry.get("unit"), "dislodged", source), entry["power"], graph, source,
                          "dislodged")
        attacker = entry.get("attacker_from")
        retreats = entry.get("retreats") or []
        if (attacker is not None and not isinstance(attacker, str)) \
                or not all(isinstance(r, str) and (r in graph.army_adjacent or r in graph.fleet_adjacent)
                        for r in retreats):
            raise DataFileError(f"dislodged: {unit}: attacker_from and retreats must be map locations",
                                file=source)
        dislodged[unit.province] = Dislodged(unit, attacker, tuple(retreats))
    extra = data.get("extra") or {}
    result = data.get("result")
    if not isinstance(extra, dict) or not (result is None or isinstance(result, dict)):
        raise DataFileError("extra and result must be mappings", file=source)
    missed = data.get("missed") or {}
    if not isinstance(missed, dict) or not all(isinstance(k, str) and isinstance(v, int) and v > 0
                                               for k, v in missed.items()):
        raise DataFileError("missed: should map a power to the phases it missed in a row", file=source)
    return GameState(str(data.get("variant", variant.id)), phase, units, centres, dislodged, dict(extra), result,
               dict(missed), control)


def _mapping_of_lists(data: dict[str, Any], key: str, source: str) -> dict[str, list[Any]]:
    value = data.get(key) or {}
    if not isinstance(value, dict) or not all(isinstance(v, list) or v is None for v in value.values()):
        raise DataFileError(f"{key}: should map each power to a list, like 'france: [A par, F bre]'",
                            file=source)
    return {str(power): list(items or []) for power, items in value.items()}


def _text(value: Any, entry: str, source: str) -> str:
    if not isinstance(value, str):
        raise DataFileError(f"{entry}: {value!r} should be a unit like 'A par'", file=source)
    return value


def initial_state(variant: Variant) -> GameState:
    units = {u.province: u for p in variant.powers.values() for u in p.units}
    centres = {c: p.id for p in variant.powers.values() for c in (*p.home_centres, *p.owned_centres)}
    control = {p: pid for pid, info in variant.powers.items() for p in info.home_territory}
    state = GameState(variant.id, Phase(variant.start_year, variant.seasons[0], "movement"),
                      units, centres, control=control)
    variant.rules.setup(variant, state)
    return state
