"""Checking orders before the deadline: every order comes back normalised, or
with its error and a suggestion. Used by `adjudicator check` (GM or player,
with a game folder or a mailed state file) and by `ingest` for the reply to a
mailed order.

A void order is matched to the very line that gave it by typed values (the
ordered unit's province and power on the outcome's OrderLine), never by
re-reading result strings. Warnings (godip's "corroborate") flag orders that
are legal but probably not meant; they never change the exit code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import province_of
from adjudicator.diplomacy.orders import AnyOrder, Build, Disband, Waive
from adjudicator.diplomacy.outcome import OrderLine, PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError
from adjudicator.folder.gamefolder import (
    load_current,
    load_state,
    read_orders_text,
    run_phase,
)
from adjudicator.output.report import long_form


def check_orders(folder: Path | None, orders_path: Path, power: str | None, state_file: Path | None,
                 echo: Callable[[str], None]) -> bool:
    """Echo every order normalised, or its error, then any warnings. True if no order has an error."""
    if state_file is not None:
        variant, state = load_state(state_file)
    elif folder is not None:
        _, variant, state, _ = load_current(folder)
    else:
        raise AdjudicatorError("give a game folder or --state STATE.yaml")
    power_id = None
    if power is not None:
        power_id = variant.power_lookup(power)
        if power_id is None:
            raise AdjudicatorError(f"no such power {power!r}", hint=variant.power_suggestion(power))
    text = read_orders_text(orders_path)
    lines, outcome = run_phase(variant, state, text, power_id)
    errors = {e.line: e for e in outcome.errors}
    void = void_lines(variant, lines, outcome)
    line_warnings, general = order_warnings(variant, state, lines, outcome, power_id)
    ok = True
    count = 0
    echo(f"{state.phase}: checking {orders_path}")
    for line in lines:
        error = errors.get(line.number)
        if power_id is not None and line.power not in (None, power_id) and error is None:
            echo(f"line {line.number}: {line.text}\n    error (cannot do): this order is for "
                 f"{variant.power_name(line.power)}, not {variant.power_name(power_id)}")
            ok = False
            continue
        if error is not None:
            who = f"{variant.power_name(line.power)}: " if line.power else ""
            echo(f"line {line.number}: {who}{line.text}\n    error ({error.kind}): {error.message}")
            ok = False
            continue
        normal = long_form(str(line.order), variant.map)
        if line.number in void:
            echo(f"line {line.number}: {normal}\n    error (cannot do): {void[line.number].void_rule}")
            ok = False
            continue
        echo(f"line {line.number}: {variant.power_name(line.power)}: {normal}")
        for warning in line_warnings.get(line.number, []):
            echo(f"    warning: {warning}")
            count += 1
    for warning in general:
        echo(f"warning: {warning}")
        count += 1
    noted = f" ({count} warning{'s' if count != 1 else ''})" if count else ""
    echo(("all orders are good" if ok else "some orders have errors") + noted)
    return ok


def check_lines(variant: Variant, state: GameState, text: str, power: str) -> tuple[list[str], list[str], set[int]]:
    """(echo lines, error lines, numbers of lines that cannot be used). Warnings
    go to the echo only."""
    lines, outcome = run_phase(variant, state, text, power)
    refused = {e.line: e for e in outcome.errors}
    void = void_lines(variant, lines, outcome)
    line_warnings, general = order_warnings(variant, state, lines, outcome, power)
    echo: list[str] = []
    errors: list[str] = []
    bad: set[int] = set()
    for line in lines:
        error = refused.get(line.number)
        if error is not None:
            text_ = f"line {line.number}: {line.text}\n    error ({error.kind}): {error.message}"
            errors.append(text_)
            echo.append(text_)
            bad.add(line.number)
            continue
        normal = long_form(str(line.order), variant.map)
        dp = line.tag.prefix() if line.tag is not None else ""
        if line.number in void:
            # Kept: the adjudicator voids it and the unit holds, with the reason in the report.
            text_ = f"line {line.number}: {normal}\n    void (cannot do): {void[line.number].void_rule}"
            errors.append(text_)
            echo.append(text_)
        else:
            echo.append(f"line {line.number}: {dp}{normal}")
            echo.extend(f"    warning: {w}" for w in line_warnings.get(line.number, []))
    echo.extend(f"warning: {w}" for w in general)
    return echo, errors, bad


def void_lines(variant: Variant, lines: list[ParsedLine], outcome: PhaseOutcome) -> dict[int, OrderLine]:
    """The void result of each orders line that was voided, by line number:
    the outcome's void OrderLine for the same unit (province) and power. A
    unit has at most one usable line (a second one is an error), so the
    match is exact. An allocation (A&E's DP line) orders a minor power's
    unit on another power's behalf: its line power never matches the unit's."""
    void = {(o.province, o.power): o for o in outcome.orders if o.void}
    refused = outcome.refused()
    found: dict[int, OrderLine] = {}
    for line in lines:
        if line.order is not None and line.number not in refused and not variant.rules.is_allocation(line):
            hit = void.get((line.order.province, line.order.power))
            if hit is not None:
                found[line.number] = hit
    return found


def order_warnings(variant: Variant, state: GameState, lines: list[ParsedLine], outcome: PhaseOutcome,
                   power: str | None) -> tuple[dict[int, list[str]], list[str]]:
    """(warnings by line number, warnings for the whole text):
    - a support or convoy of one of the player's own units that matches none
      of that unit's orders;
    - with one power checked, each of its units left without an order;
    - in winter, a build or disband count that differs from what is owed."""
    graph = variant.map
    per_line: dict[int, list[str]] = {}
    general: list[str] = []
    kind = state.phase.kind
    refused = outcome.refused()
    allocation = variant.rules.is_allocation
    if kind == "movement":
        resolved = {o.province: o for o in outcome.orders if o.province}
        for line in lines:
            order = line.order
            helped = order.helps() if order is not None and line.number not in refused else None
            if order is None or helped is None:
                continue            # only supports and convoys help a unit
            target = province_of(helped)
            unit = state.units.get(target)
            own = resolved.get(target)
            if unit is None or own is None or unit.power != line.power or allocation(line):
                continue
            goes_to = own.order.moves_to() if not own.void else None
            name = graph.unit_name(unit)
            dest = order.attacks()
            if dest is None:        # a support to hold
                if goes_to is not None:
                    per_line.setdefault(line.number, []).append(
                        f"{name} is ordered to move, so this support to hold does nothing")
            elif goes_to != dest:
                per_line.setdefault(line.number, []).append(
                    f"{name} is not ordered to move to {graph.full_name(dest)}")
    if power is None:
        return per_line, general
    ordered = {line.order.province for line in lines
               if line.power == power and line.order is not None and not allocation(line)}
    if kind == "movement":
        for unit in sorted(state.units_of(power), key=lambda u: u.province):
            if unit.province not in ordered:
                general.append(f"{graph.unit_name(unit)} has no order (it will hold)")
    elif kind == "retreat":
        for prov, dislodged in sorted(state.dislodged.items()):
            if dislodged.unit.power == power and prov not in ordered:
                general.append(f"dislodged {graph.unit_name(dislodged.unit)} has no order (it will be disbanded)")
    else:
        general += adjustment_warnings(variant, lines, outcome, power, refused)
    return per_line, general


# What each winter order counts towards: the builds a power owes (a waive
# uses one up), or the disbands.
COUNTS_TOWARDS: dict[type[AnyOrder], str] = {Build: "builds", Waive: "builds", Disband: "disbands"}


def adjustment_warnings(variant: Variant, lines: list[ParsedLine], outcome: PhaseOutcome, power: str,
                        refused: set[int]) -> list[str]:
    owed = {a.power: a.delta for a in outcome.adjustments}.get(power, 0)
    usable = Counter(COUNTS_TOWARDS.get(type(l.order)) for l in lines
                     if l.power == power and l.order is not None and l.number not in refused)
    builds, disbands = usable["builds"], usable["disbands"]
    name = variant.power_name(power)
    if owed > 0 and builds < owed:
        ordered = f"{builds} build{'' if builds == 1 else 's'} or waive{'' if builds == 1 else 's'}"
        return [f"{name} may build {owed} and orders {ordered}; the rest are waived"]
    if owed < 0 and disbands < -owed:
        return [f"{name} must disband {-owed} and orders {disbands} disband(s); civil disorder disbands the rest"]
    return []
