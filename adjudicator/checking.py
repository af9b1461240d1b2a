"""Checking orders before the deadline: every order comes back normalised, or
with its error and a suggestion. Used by `adjudicator check` (GM or player,
with a game folder or a mailed state file) and by `ingest` for the reply to a
mailed order."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from adjudicator import storage
from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.gamefolder import load_current, read_orders_text, run_phase
from adjudicator.report import long_form
from adjudicator.state import GameState
from adjudicator.turn import collect_errors, error_kind
from adjudicator.variant import Variant, load_variant


def check_orders(folder: Path | None, orders_path: Path, power: str | None, state_file: Path | None,
                 echo: Callable[[str], None]) -> bool:
    """Echo every order normalised, or its error. True if all are good."""
    if state_file is not None:
        data = storage.read_yaml(state_file)
        if not isinstance(data, dict) or "variant" not in data:
            raise DataFileError("not a state file (no 'variant')", file=str(state_file))
        variant = load_variant(str(data["variant"]))
        state = GameState.from_data(data, variant, str(state_file))
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
    void = {l.unit.split()[-1].split("/")[0]: l for l in outcome.orders if l.result.startswith("void")}
    ok = True
    echo(f"{state.phase}: checking {orders_path}")
    for line in lines:
        if power_id is not None and line.power not in (None, power_id) and line.error is None:
            echo(f"line {line.number}: {line.text}\n    error (cannot do): this order is for "
                 f"{variant.power_name(line.power)}, not {variant.power_name(power_id)}")
            ok = False
            continue
        if line.error is not None:
            kind = collect_errors([line])[0].kind
            who = f"{variant.power_name(line.power)}: " if line.power else ""
            echo(f"line {line.number}: {who}{line.text}\n    error ({kind}): {collect_errors([line])[0].message}")
            ok = False
            continue
        order = line.order
        prov = getattr(order, "province", None)
        normal = long_form(str(order), variant.map)
        if prov in void and void[prov].power == line.power:
            echo(f"line {line.number}: {normal}\n    error (cannot do): {void[prov].detail}")
            ok = False
        else:
            echo(f"line {line.number}: {variant.power_name(line.power)}: {normal}")
    echo("all orders are good" if ok else "some orders have errors")
    return ok



def check_lines(variant: Variant, state: GameState, text: str, power: str) -> tuple[list[str], list[str], set[int]]:
    """(echo lines, error lines, numbers of lines that cannot be used)."""
    lines, outcome = run_phase(variant, state, text, power)
    void = {l.unit.split()[-1].split("/")[0]: l for l in outcome.orders if l.result.startswith("void")}
    echo: list[str] = []
    errors: list[str] = []
    bad: set[int] = set()
    for line in lines:
        if line.error is not None:
            exc = line.error
            message = exc.message + (f" ({exc.hint})" if exc.hint else "")
            text_ = f"line {line.number}: {line.text}\n    error ({error_kind(exc)}): {message}"
            errors.append(text_)
            echo.append(text_)
            bad.add(line.number)
            continue
        normal = long_form(str(line.order), variant.map)
        dp = f"{line.extra['dp']} DP: " if "dp" in line.extra else ""
        prov = getattr(line.order, "province", None)
        if not dp and prov in void and void[prov].power == line.power:
            # Kept: the adjudicator voids it and the unit holds, with the reason in the report.
            text_ = f"line {line.number}: {normal}\n    void (cannot do): {void[prov].detail}"
            errors.append(text_)
            echo.append(text_)
        else:
            echo.append(f"line {line.number}: {dp}{normal}")
    return echo, errors, bad
