"""The whole DATC file, one test per case, ids like '6.A.1'."""
from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases.datc import DatcCase, load_case_variant, read_cases, run_case
from adjudicator.diplomacy.statefile import initial_state

CASES = Path(__file__).parent / "cases"
DATC = Path(__file__).resolve().parent.parent.parent / "shared" / "datc" / "datc_v2.4_06.txt"
LOCAL = sorted((CASES / "standard").glob("*.txt")) + sorted(CASES.glob("datc-*.txt"))
FILES = ([DATC] if DATC.exists() else []) + LOCAL


def cases() -> list[object]:
    out: list[object] = []
    for path in FILES:
        variant, found = read_cases(path)
        out += [pytest.param(variant, case, id=case.name.split()[0]) for case in found]
    return out


@pytest.mark.parametrize("variant, case", cases())
def test_case(variant: str, case: DatcCase) -> None:
    result = run_case(load_case_variant(variant), case)
    assert result.passed, f"{result.message}\nexpected {result.expected}\nactual   {result.actual}"


def test_datc_file_present_and_complete() -> None:
    assert DATC.exists(), "../shared/datc/datc_v2.4_06.txt must sit beside the repository"
    _, found = read_cases(DATC)
    assert len(found) == 167


@pytest.mark.parametrize("orders, note", [
    ("Germany: A ber - mun via convoy",
     "A ber - mun  [moved: 'via convoy' ignored: no convoy can go from Berlin to Munich; a move over land]"),
    ("France: A bel - hol via convoy",
     "A bel - hol  [moved: 'via convoy' ignored: no fleet convoys it; a move over land]"),
])
def test_ignored_via_convoy_is_noted(orders: str, note: str) -> None:
    from adjudicator.diplomacy.game import adjudicate_text
    from adjudicator.diplomacy.model import Unit, UnitType

    variant = load_case_variant("standard")
    state = initial_state(variant)
    state.units = {"ber": Unit("germany", UnitType.ARMY, "ber"), "bel": Unit("france", UnitType.ARMY, "bel")}
    outcome = adjudicate_text(variant, state, orders)
    line = next(o for o in outcome.orders if o.text == note.split("  [")[0])
    assert f"{line.text}  [{line.result}: {line.detail}]" == note
