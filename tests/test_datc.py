"""The whole DATC file, one test per case, ids like '6.A.1'."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from adjudicator.cases.datc import DatcCase, load_case_variant, read_cases, run_case
from adjudicator.diplomacy.statefile import initial_state

CASES = Path(__file__).parent / "cases"
DATC = Path(__file__).resolve().parent.parent.parent / "shared" / "datc" / "datc_v2.4_06.txt"
# Every local case file names its rules in its VARIANT_ALL line: the DATC 3.0
# file plays rules_edition=2023, the 2.4 files the default (2000).
LOCAL = sorted((CASES / "standard").glob("*.txt")) + sorted(CASES.glob("datc-*.txt"))
FILES = ([DATC] if DATC.exists() else []) + LOCAL
# The DATC 2.4 cases whose preferred result DATC 3.0 (the 2023 rules)
# reverses for the same position: only the land fallback of 'via convoy'.
# The other reversals (6.G.19, 6.J) came with new positions.
V24_CHANGED_BY_2023 = ["6.G.8"]


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


@pytest.mark.parametrize("case", read_cases(CASES / "next-phase-three-seasons.txt")[1], ids=lambda c: c.name)
def test_next_phase_in_a_year_of_three_seasons(case: DatcCase) -> None:
    variant = dataclasses.replace(load_case_variant("standard"), seasons=("spring", "summer", "fall"))
    result = run_case(variant, case)
    assert result.passed, f"{result.message}\nexpected {result.expected}\nactual   {result.actual}"


def test_datc_v3_file_plays_the_2023_edition() -> None:
    variant_name, found = read_cases(CASES / "datc-v3.0.txt")
    assert variant_name == "standard rules_edition=2023"
    assert len(found) == 19


def test_datc_v24_under_the_2023_edition() -> None:
    """The 2.4 file under the 2023 rules: every case passes except exactly
    the ones DATC 3.0 reverses for the same position."""
    if not DATC.exists():
        pytest.skip("../shared/datc is not beside the repository")
    _, found = read_cases(DATC)
    variant = load_case_variant("standard rules_edition=2023")
    results = [run_case(variant, case) for case in found]
    assert not [r.message for r in results if r.message]          # none crashed
    assert [r.name.split()[0] for r in results if not r.passed] == V24_CHANGED_BY_2023


def test_datc_file_present_and_complete() -> None:
    assert DATC.exists(), "../shared/datc/datc_v2.4_06.txt must sit beside the repository"
    _, found = read_cases(DATC)
    assert len(found) == 167


@pytest.mark.parametrize("orders, note", [
    ("Germany: A ber - mun via convoy",
     "A ber - mun  [moved; 'via convoy' ignored: no convoy can go from Berlin to Munich; a move over land]"),
    ("France: A bel - hol via convoy",
     "A bel - hol  [moved; 'via convoy' ignored: no fleet convoys it; a move over land]"),
])
def test_ignored_via_convoy_is_noted(orders: str, note: str) -> None:
    from adjudicator.diplomacy.game import adjudicate_text
    from adjudicator.diplomacy.model import Unit, UnitType

    variant = load_case_variant("standard")
    state = initial_state(variant)
    state.units = {"ber": Unit("germany", UnitType.ARMY, "ber"), "bel": Unit("france", UnitType.ARMY, "bel")}
    outcome = adjudicate_text(variant, state, orders)
    from adjudicator.output.wording import judged, order_text
    line = next(o for o in outcome.orders if order_text(o) == note.split("  [")[0])
    assert f"{order_text(line)}  [{judged(line, variant.map)}]" == note
