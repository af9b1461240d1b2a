"""Runs Ambition & Empire test cases: the DATC text format with A&E sections.

    CASE AE-1 Example 1: one DP buys the Swiss support
    PRESTATE_SETPHASE Spring 1763, Movement
    PRESTATE                      units, 'France: A mar', 'Switzerland: A swi'
    PRESTATE_SUPPLYCENTER_OWNERS  'France: mar' (optional; default: the game's start)
    PRESTATE_EXTRA_HOMES          'Denmark: sto' (additional home centres already made)
    PRESTATE_CIVIL_DISORDER       'Sweden' (powers already in civil disorder)
    ORDERS                        as a player writes them, 'France: 1 DP: A swi S A mar - sav'
    POSTSTATE                     units afterwards (minor powers by name or centre id)
    POSTSTATE_DISLODGED           units waiting to retreat
    POSTSTATE_RETREATS            'edi: lvp yor' (a dislodged unit's exact retreat options)
    POSTSTATE_SUPPLYCENTER_OWNERS 'France: sav' (checked only for the centres listed)
    POSTSTATE_EXTRA_HOMES         'Denmark: hew' (the whole map of additional home centres)
    PUBLISHED                     order lines of the public report, each must appear:
                                  the order text as published (ids or full names),
                                  with ' (Invalid)' where the report shows it
    NOT_PUBLISHED                 order lines that must not appear in the public report, written as in PUBLISHED
    ERRORS                        fragments, each must appear in some error (its message or hint)
    REPORT                        fragments, each must appear in the public report (a void order's
                                  reason, a note)
    GM_LOG                        lines, each must be one of the GM's log lines, exactly
    PRIVATE                       'France: 1 DP to A swi: ...: won': the private notes, exactly
                                  and in order, of each power named (every other power has none)
    WINNER                        a power, or 'none'
    END

Units are listed per power; minor powers are named by their name
('Switzerland') or centre id ('swi'). Each case goes through the parser and
the phase pipeline of a real game (adjudicator.diplomacy.game.adjudicate_lines)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.cases import datc
from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.mapgraph import normalise_name
from adjudicator.diplomacy.model import Phase, Unit, UnitType
from adjudicator.diplomacy.orders import Order
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import Variant
from adjudicator.output.report import long_form, public_report
from adjudicator.rules import load_variant
from adjudicator.rules.ambition_empire_common import book, variant_minors

SECTIONS = {"PRESTATE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_EXTRA_HOMES", "PRESTATE_CIVIL_DISORDER",
            "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_RETREATS", "POSTSTATE_SUPPLYCENTER_OWNERS",
            "POSTSTATE_EXTRA_HOMES", "PUBLISHED", "NOT_PUBLISHED", "ERRORS", "REPORT", "GM_LOG", "PRIVATE", "WINNER"}


@dataclass
class AECase:
    name: str
    line: int
    phase: Phase | None = None
    sections: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class AEResult:
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)
    outcome: PhaseOutcome | None = None


def read_cases(path: Path) -> list[AECase]:
    """The DATC reader with the A&E sections. Order and published lines keep
    any trailing '#' text: the order parser strips comments itself."""
    _, found = datc.read_cases(path, SECTIONS, trailing_comments=False)
    return [AECase(c.name, c.line, c.phase, {k: [t for _, t in v] for k, v in c.sections.items()})
            for c in found]


def lookup_any_power(variant: Variant, text: str) -> str:
    """A Great Power by any of its names, or a minor power by name or centre id."""
    power = variant.power_lookup(text)
    if power is not None:
        return power
    key = normalise_name(text)
    for minor, entry in variant_minors(variant).items():
        if key in (normalise_name(minor), normalise_name(str(entry.get("name", "")))):
            return minor
    if key in variant.map.supply_centres:
        return key          # a minor made by civil disorder is named by its centre
    raise ValueError(f"unknown power {text!r}")


def unit_line(variant: Variant, text: str) -> Unit:
    power_text, rest = text.split(":", 1)
    power = lookup_any_power(variant, power_text)
    kind, where = rest.split(None, 1)
    order = parser_for(variant).parse_order(f"{kind} {where}", power)
    if not isinstance(order, Order):
        raise TypeError(f"not a unit: {text!r}")
    return Unit(power, UnitType(kind.upper()), order.location)


def build_state(variant: Variant, case: AECase) -> GameState:
    state = initial_state(variant)
    state.phase = case.phase or Phase(variant.start_year, variant.seasons[0], "movement")
    book(state)["seeded"] = True          # PRESTATE is the whole position, minors included
    state.units = {}
    for text in case.sections.get("PRESTATE", []):
        unit = unit_line(variant, text)
        state.units[unit.province] = unit
    if "PRESTATE_SUPPLYCENTER_OWNERS" in case.sections:
        state.centres = {}
        for text in case.sections["PRESTATE_SUPPLYCENTER_OWNERS"]:
            power_text, rest = text.split(":", 1)
            power = lookup_any_power(variant, power_text)
            for centre in rest.replace(",", " ").split():
                state.centres[variant.map.lookup(centre) or centre] = power
    for text in case.sections.get("PRESTATE_EXTRA_HOMES", []):
        power_text, centre = text.split(":", 1)
        book(state).setdefault("extra_homes", {})[lookup_any_power(variant, power_text)] = centre.strip()
    for text in case.sections.get("PRESTATE_CIVIL_DISORDER", []):
        book(state).setdefault("civil_disorder", []).append(lookup_any_power(variant, text))
    if state.phase.kind == "adjustment":
        book(state)["winter_units"] = sorted(state.units)   # as after_ownership records it
    return state


WHY = re.compile(r"\s{2,}\[.*\]$")


def published_lines(variant: Variant, outcome: PhaseOutcome) -> list[str]:
    """The order lines of the real public report: each line's order as
    published, '(Invalid)' included, without the minor's name before it or
    the bracketed why after it."""
    lines = []
    for raw in public_report(variant, outcome, "case").splitlines():
        if not raw.startswith("  "):
            continue
        text = WHY.sub("", raw.strip())
        lines.append(text)
        if ": " in text:
            lines.append(text.split(": ", 1)[1])
    return lines


def _fmt(units: list[Unit]) -> list[str]:
    return sorted(f"{u.power}: {u.type.value} {u.location}" for u in units)


def run_case(variant: Variant, case: AECase) -> AEResult:
    problems: list[str] = []
    try:
        state = build_state(variant, case)
        lines = parser_for(variant).parse_text("\n".join(case.sections.get("ORDERS", [])))
        outcome = adjudicate_lines(variant, state, lines)
    except Exception as exc:  # noqa: BLE001 -- a crash is a failed case, reported
        return AEResult(case.name, False, [f"crashed: {type(exc).__name__}: {exc}"])
    after = outcome.next_state
    if "POSTSTATE" in case.sections:
        expected = _fmt([unit_line(variant, t) for t in case.sections["POSTSTATE"]])
        actual = _fmt(list(after.units.values()))
        if expected != actual:
            problems.append(f"units: expected {expected}, got {actual}")
    if "POSTSTATE_DISLODGED" in case.sections or "POSTSTATE" in case.sections:
        expected = _fmt([unit_line(variant, t) for t in case.sections.get("POSTSTATE_DISLODGED", [])])
        actual = _fmt([d.unit for d in after.dislodged.values()])
        if expected != actual:
            problems.append(f"dislodged: expected {expected}, got {actual}")
    for text in case.sections.get("POSTSTATE_RETREATS", []):
        prov, options = text.split(":", 1)
        got = after.dislodged.get(prov.strip())
        actual_opts = sorted(got.retreats) if got else None
        if actual_opts != sorted(options.split()):
            problems.append(f"retreats of {prov.strip()}: expected {sorted(options.split())}, got {actual_opts}")
    for text in case.sections.get("POSTSTATE_SUPPLYCENTER_OWNERS", []):
        power_text, rest = text.split(":", 1)
        power = lookup_any_power(variant, power_text)
        for centre in rest.replace(",", " ").split():
            if after.centres.get(centre) != power:
                problems.append(f"centre {centre}: expected {power}, got {after.centres.get(centre)}")
    if "POSTSTATE_EXTRA_HOMES" in case.sections:
        expected_homes = {}
        for text in case.sections["POSTSTATE_EXTRA_HOMES"]:
            power_text, centre = text.split(":", 1)
            expected_homes[lookup_any_power(variant, power_text)] = centre.strip()
        actual_homes = dict((after.extra.get("ambition_empire") or {}).get("extra_homes", {}))
        if expected_homes != actual_homes:
            problems.append(f"extra homes: expected {expected_homes}, got {actual_homes}")
    published = published_lines(variant, outcome)
    for text in case.sections.get("PUBLISHED", []):
        if long_form(text, variant.map) not in published:
            problems.append(f"not published: {text!r} (published: {published})")
    for text in case.sections.get("NOT_PUBLISHED", []):
        if long_form(text, variant.map) in published:
            problems.append(f"published, but must not be: {text!r}")
    messages = [e.message for e in outcome.errors]
    for fragment in case.sections.get("ERRORS", []):
        if not any(fragment.lower() in str(e).lower() for e in outcome.errors):
            problems.append(f"no error mentions {fragment!r} (errors: {[str(e) for e in outcome.errors]})")
    report = public_report(variant, outcome, "case")
    for fragment in case.sections.get("REPORT", []):
        if fragment not in report:
            problems.append(f"not in the public report: {fragment!r}")
    for text in case.sections.get("GM_LOG", []):
        if text not in outcome.gm_log:
            problems.append(f"not in the GM's log: {text!r} (log: {outcome.gm_log})")
    if "PRIVATE" in case.sections:
        expected_notes: dict[str, list[str]] = {}
        for text in case.sections["PRIVATE"]:
            power_text, note = text.split(":", 1)
            expected_notes.setdefault(lookup_any_power(variant, power_text), []).append(note.strip())
        actual_notes = {power: notes for power, notes in outcome.private.items() if notes}
        if expected_notes != actual_notes:
            problems.append(f"private notes: expected {expected_notes}, got {actual_notes}")
    if "ERRORS" not in case.sections and messages:
        problems.append(f"unexpected errors: {messages}")
    for text in case.sections.get("WINNER", []):
        want = None if text.strip().lower() == "none" else lookup_any_power(variant, text)
        if outcome.winner != want:
            problems.append(f"winner: expected {want}, got {outcome.winner}")
    return AEResult(case.name, not problems, problems, outcome)


def run_file(path: Path, variant_name: str = "ambition-empire") -> list[AEResult]:
    variant = load_variant(variant_name)
    return [run_case(variant, case) for case in read_cases(path)]


def run_all(directory: Path) -> list[AEResult]:
    """Every case file in `directory` (the clone's tests/cases/ambition-empire: test
    data, not shipped in the wheel)."""
    results: list[AEResult] = []
    for path in sorted(directory.glob("*.txt")):
        results += run_file(path)
    return results
