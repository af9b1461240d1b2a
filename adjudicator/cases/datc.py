"""Runs DATC test-case files in the jDip/godip text format:

    CASE 6.A.1
    PRESTATE_SETPHASE Spring 1901, Movement
    PRESTATE_SUPPLYCENTER_OWNERS / PRESTATE / PRESTATE_DISLODGED / PRESTATE_RESULTS
    ORDERS
    POSTSTATE / POSTSTATE_DISLODGED / POSTSTATE_SAME
    POSTSTATE_RESULTS / POSTSTATE_MISSED / POSTSTATE_WHY / POSTSTATE_ERRORS  (the project's own)
    END

POSTSTATE_SETPHASE and POSTSTATE_SUPPLYCENTER_OWNERS (the project's own,
optional) are the phase that comes next ('POSTSTATE_SETPHASE Winter 1901,
Adjustment') and every centre's owner after the phase, as PRESTATE's.
PRESTATE_CONTROL and POSTSTATE_CONTROL (the project's own, optional) list
who controls land that is no supply centre, a province a line: 'France: bur'.
PRESTATE_CONTROL replaces the variant's starting control; POSTSTATE_CONTROL
is all of it after the phase ('none' for none).
POSTSTATE_RESULTS, where a case has it, is every order line of the phase,
one a line as 'Power: published text | result | flags', with the flags
'succeeded' or 'failed', then 'void' or 'defaulted' where they apply:
'England: A lon - nwy via convoy | no convoy | failed'. POSTSTATE_MISSED is
the powers the phase marks as having missed their orders ('none' for none).
POSTSTATE_WHY is every order line again, as 'Power: published text | why',
the why being the words the report puts in brackets after the order ('' for
a plain success): 'Austria: A vie - gal | bounced: 1 vs A Warsaw 1'.
POSTSTATE_ERRORS is every order line the phase refused, as 'the line as
written | kind: message': 'France: Build A par | cannot do: cannot build in
Paris: occupied (sites: bre, mar)'.
Each goes through the same parser and phase pipeline as a real game."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Phase, Unit, UnitType
from adjudicator.diplomacy.orders import Move, Waive
from adjudicator.diplomacy.outcome import OrderLine
from adjudicator.diplomacy.parser import OrderParser, parser_for
from adjudicator.diplomacy.state import Dislodged, GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.turn import retreat_options
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import DataFileError, OrderError
from adjudicator.rules import load_variant

SECTIONS = {"PRESTATE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "PRESTATE_RESULTS",
            "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_RESULTS", "POSTSTATE_MISSED",
            "PRESTATE_CONTROL", "POSTSTATE_CONTROL", "POSTSTATE_WHY", "POSTSTATE_ERRORS",
            "POSTSTATE_SUPPLYCENTER_OWNERS"}


@dataclass
class DatcCase:
    name: str
    line: int
    phase: Phase | None = None
    next_phase: Phase | None = None
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    same: bool = False


@dataclass
class CaseResult:
    name: str
    passed: bool
    expected: list[str] = field(default_factory=list)
    actual: list[str] = field(default_factory=list)
    message: str = ""


def parse_phase(text: str) -> Phase:
    match = re.match(r"(\w+)\s+(\d+)\s*,\s*(\w+)", text.strip())
    if not match:
        raise ValueError(text)
    season, year, kind = match.group(1).lower(), int(match.group(2)), match.group(3).lower()
    kind = {"movement": "movement", "retreat": "retreat", "adjustment": "adjustment"}[kind]
    if kind == "adjustment":
        season = "winter"
    return Phase(year, season, kind)


def read_cases(path: Path, sections: set[str] | frozenset[str] = frozenset(SECTIONS), *,
               trailing_comments: bool = True) -> tuple[str, list[DatcCase]]:
    """Read a case file in the DATC text format; `sections` names the
    directives that open a list of lines (sibling formats add their own).
    A header may carry its first entry on the same line ('WINNER France').
    With trailing_comments False, only a '#' that starts a line is a comment."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read: {exc.strerror}", file=str(path)) from None
    variant = "standard"
    cases: list[DatcCase] = []
    current: DatcCase | None = None
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = (raw.split("#", 1)[0] if trailing_comments else raw).strip()
        if not line or line.startswith("#"):
            continue
        word = line.split()[0]
        if word == "VARIANT_ALL":
            variant = line.split(None, 1)[1].strip().lower()
        elif word == "CASE":
            current = DatcCase(line.split(None, 1)[1].strip(), number)
            cases.append(current)
            section = None
        elif current is None:
            raise DataFileError(f"'{word}' outside a CASE", file=str(path), line=number)
        elif word in ("PRESTATE_SETPHASE", "POSTSTATE_SETPHASE"):
            try:
                phase = parse_phase(line.split(None, 1)[1])
            except (ValueError, KeyError, IndexError):
                raise DataFileError("cannot read the phase", file=str(path), line=number,
                                    hint=f"e.g. '{word} Spring 1901, Movement'") from None
            if word == "PRESTATE_SETPHASE":
                current.phase = phase
            else:
                current.next_phase = phase
        elif word == "POSTSTATE_SAME":
            current.same = True
        elif word in sections and ":" not in line:      # unit and order lines always have a colon
            section = word
            current.sections.setdefault(section, [])
            rest = line[len(word):].strip()
            if rest:
                current.sections[section].append((number, rest))
        elif word == "END":
            current, section = None, None
        elif section is None:
            raise DataFileError(f"unknown directive '{word}'", file=str(path), line=number)
        else:
            current.sections[section].append((number, line))
    return variant, cases


def unit_location(graph: MapGraph, text: str) -> str | None:
    """A unit's place as test files write it, read straight from the map's
    tables: a location id ('spa/nc'), or a province's id, alias or name with
    an optional '/coast'. None if it is none of these."""
    key = text.strip().lower()
    if key in graph.location_province:
        return key
    name, _, coast = key.partition("/")
    province = graph.lookup(name)
    if province is None:
        return None
    location = f"{province}/{coast}" if coast else province
    return location if location in graph.location_province else None


def _unit_line(variant: Variant, parser: OrderParser, text: str) -> Unit:
    # 'England: F nth', and (once in the DATC file) 'Italy F gol' without the colon
    power_text, rest = text.split(":", 1) if ":" in text else text.split(None, 1)
    power = lookup_power(variant, power_text)
    words = rest.split()
    kind = words[0].upper()
    location = unit_location(variant.map, " ".join(words[1:])) if kind in ("A", "F") else None
    if location is None:           # anything unusual: the order parser reads it, or says why not
        order = parser.parse_order(f"{kind} {' '.join(words[1:])}", power)
        if isinstance(order, Waive):
            raise DataFileError(f"not a unit: {text!r}")
        location = order.location
    return Unit(power, UnitType(kind), location)


def lookup_power(variant: Variant, text: str) -> str:
    """Test files have typos ('Germnay' in 6.A.5): take the unique close match."""
    import difflib
    power = variant.power_lookup(text)
    if power is None:
        names = {p.name.lower(): pid for pid, p in variant.powers.items()}
        close = difflib.get_close_matches(text.strip().lower(), list(names), n=1, cutoff=0.7)
        if not close:
            raise ValueError(f"unknown power {text!r}")
        power = names[close[0]]
    return power


def fix_power_names(variant: Variant, text: str) -> str:
    if ":" not in text:
        return text
    power_text, rest = text.split(":", 1)
    return f"{variant.powers[lookup_power(variant, power_text)].name}:{rest}"


def build_state(variant: Variant, case: DatcCase) -> GameState:
    parser = parser_for(variant)
    state = initial_state(variant)
    state.phase = case.phase or Phase(1901, "spring", "movement")
    state.units = {}
    for _, text in case.sections.get("PRESTATE", []):
        unit = _unit_line(variant, parser, text)
        state.units[unit.province] = unit
    if "PRESTATE_SUPPLYCENTER_OWNERS" in case.sections:
        state.centres = {}
        for _, text in case.sections["PRESTATE_SUPPLYCENTER_OWNERS"]:
            unit = _unit_line(variant, parser, text)
            state.centres[unit.province] = unit.power
    if "PRESTATE_CONTROL" in case.sections:
        state.control = dict(control_line(variant, t) for _, t in case.sections["PRESTATE_CONTROL"])
    dislodged_units = [_unit_line(variant, parser, t) for _, t in case.sections.get("PRESTATE_DISLODGED", [])]
    if dislodged_units:
        # Where attacks came from and which provinces saw a standoff, from the previous results.
        attackers: dict[str, str] = {}
        convoyed: set[str] = set()
        failed: list[tuple[str, str]] = []
        for _, text in case.sections.get("PRESTATE_RESULTS", []):
            verdict, order_text = text.split(":", 1)
            try:
                order = parser.parse_text(order_text.strip())[0].order
            except (IndexError, OrderError):
                continue
            if isinstance(order, Move):
                if verdict.strip().upper() == "SUCCESS":
                    attackers[order.dest_province] = order.province
                    if order.via_convoy:
                        convoyed.add(order.province)
                else:
                    failed.append((order.province, order.dest_province))
        occupied = set(state.units)
        # A standoff needs two failed moves into an empty province; a unit
        # beaten head-on by the unit from its destination makes none.
        beaten = {(o, d) for o, d in failed if attackers.get(o) == d}
        tries: dict[str, int] = {}
        for o, d in failed:
            if (o, d) not in beaten and d not in occupied:
                tries[d] = tries.get(d, 0) + 1
        contested = {d for d, n in tries.items() if n >= 2}
        for unit in dislodged_units:
            attacker = attackers.get(unit.province, "")
            blocked = None if attacker in convoyed else attacker
            options = retreat_options(variant, state, unit, blocked, occupied, contested)
            state.dislodged[unit.province] = Dislodged(unit, attacker or None, tuple(options))
    return state


def run_case(variant: Variant, case: DatcCase) -> CaseResult:
    parser = parser_for(variant)
    try:
        state = build_state(variant, case)
        orders_text = "\n".join(fix_power_names(variant, t) for _, t in case.sections.get("ORDERS", []))
        lines = parser.parse_text(orders_text)
        outcome = adjudicate_lines(variant, state, lines)
        expected_units = [_unit_line(variant, parser, t) for _, t in case.sections.get("POSTSTATE", [])]
        expected_gone = [_unit_line(variant, parser, t) for _, t in case.sections.get("POSTSTATE_DISLODGED", [])]
    except Exception as exc:  # noqa: BLE001  (a crash is a failed case, reported, not a traceback)
        return CaseResult(case.name, False, message=f"crashed: {type(exc).__name__}: {exc}")
    after = outcome.next_state

    def fmt(units: list[Unit]) -> list[str]:
        return sorted(f"{variant.powers[u.power].name}: {u.type.value} {u.location}" for u in units)

    actual = fmt(list(after.units.values()))
    actual_dislodged = fmt([d.unit for d in after.dislodged.values()])
    if case.same:
        expected = fmt(list(state.units.values()))
    else:
        expected = fmt(expected_units)
    expected_dislodged = fmt(expected_gone)
    if state.phase.kind != "movement":
        actual_dislodged = expected_dislodged = []
    ok = actual == expected and actual_dislodged == expected_dislodged
    expected += [f"dislodged {x}" for x in expected_dislodged]
    actual += [f"dislodged {x}" for x in actual_dislodged]
    # Each section of order lines: its label in a failure, how many '|' split
    # a line (an error's message may hold one), and the phase's own lines.
    line_sections: list[tuple[str, str, int, Callable[[], list[str]]]] = [
        ("POSTSTATE_RESULTS", "result", -1, lambda: [result_line(variant, line) for line in outcome.orders]),
        ("POSTSTATE_WHY", "why", -1, lambda: [why_line(variant, line) for line in outcome.orders]),
        ("POSTSTATE_ERRORS", "error", 1,
         lambda: [f"{e.text.strip()} | {e.kind}: {e.message}" for e in outcome.errors]),
    ]
    for section, label, splits, phase_lines in line_sections:
        if section not in case.sections:
            continue
        expected_lines = sorted(" | ".join(part.strip() for part in fix_power_names(variant, t).split("|", splits))
                                for _, t in case.sections[section])
        actual_lines = sorted(phase_lines())
        ok = ok and actual_lines == expected_lines
        expected += [f"{label} {x}" for x in expected_lines]
        actual += [f"{label} {x}" for x in actual_lines]
    if "POSTSTATE_MISSED" in case.sections:
        expected_missed = sorted(variant.powers[lookup_power(variant, t)].name
                                 for _, t in case.sections["POSTSTATE_MISSED"] if t.lower() != "none")
        actual_missed = sorted(variant.powers[p].name for p in outcome.missed)
        ok = ok and actual_missed == expected_missed
        expected.append(f"missed {', '.join(expected_missed) or 'none'}")
        actual.append(f"missed {', '.join(actual_missed) or 'none'}")
    if case.next_phase is not None:
        ok = ok and after.phase == case.next_phase
        expected.append(f"next phase {case.next_phase}")
        actual.append(f"next phase {after.phase}")
    if "POSTSTATE_SUPPLYCENTER_OWNERS" in case.sections:
        owners = [_unit_line(variant, parser, t) for _, t in case.sections["POSTSTATE_SUPPLYCENTER_OWNERS"]]
        expected_owners = sorted(f"{variant.powers[u.power].name}: {u.province}" for u in owners)
        actual_owners = sorted(f"{variant.powers[p].name}: {c}" for c, p in after.centres.items())
        ok = ok and actual_owners == expected_owners
        expected += [f"owner {x}" for x in expected_owners]
        actual += [f"owner {x}" for x in actual_owners]
    if "POSTSTATE_CONTROL" in case.sections:
        expected_control = sorted(f"{variant.powers[p].name}: {x}" for x, p in
                                  (control_line(variant, t) for _, t in case.sections["POSTSTATE_CONTROL"]
                                   if t.lower() != "none"))
        actual_control = sorted(f"{variant.powers[p].name}: {x}" for x, p in after.control.items())
        ok = ok and actual_control == expected_control
        expected += [f"control {x}" for x in expected_control]
        actual += [f"control {x}" for x in actual_control]
    return CaseResult(case.name, ok, expected, actual)


def control_line(variant: Variant, text: str) -> tuple[str, str]:
    """'France: bur' -> ('bur', 'france')."""
    power_text, _, where = text.partition(":")
    province = variant.map.lookup(where.strip())
    if province is None:
        raise DataFileError(f"not a province: {where.strip()!r}")
    return province, lookup_power(variant, power_text)


def result_line(variant: Variant, line: OrderLine) -> str:
    """An order line as POSTSTATE_RESULTS writes it: 'Power: text | result | flags'."""
    from adjudicator.output.wording import order_text, result_words
    flags = ["succeeded" if line.succeeded else "failed"] + ["void"] * line.void + ["defaulted"] * line.defaulted
    return f"{variant.powers[line.power].name}: {order_text(line)} | {result_words(line)} | {' '.join(flags)}"


def why_line(variant: Variant, line: OrderLine) -> str:
    """An order line as POSTSTATE_WHY writes it: 'Power: text | why'."""
    from adjudicator.output.wording import judged, order_text
    return f"{variant.powers[line.power].name}: {order_text(line)} | {judged(line, variant.map)}"


def load_case_variant(spec: str) -> Variant:
    """A VARIANT_ALL value: a variant name, then any rule options as
    key=value ('standard civil_disorder_distance=owned_centres')."""
    name, *pairs = spec.split()
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise DataFileError(f"VARIANT_ALL: rule option {pair!r} should look like key=value")
        options[key] = value
    variant = load_variant(name)
    return variant.with_rule_options(options) if options else variant


def run_file(path: Path) -> list[CaseResult]:
    variant_name, cases = read_cases(path)
    variant = load_case_variant(variant_name)
    return [run_case(variant, case) for case in cases]
