"""The whole DATC file, one test per case, ids like '6.A.1'."""
from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.datc import read_cases, run_case
from adjudicator.variant import load_variant

DATC = Path(__file__).resolve().parent.parent.parent / "shared" / "datc" / "datc_v2.4_06.txt"
LOCAL = sorted((Path(__file__).parent / "cases" / "standard").glob("*.txt"))
FILES = ([DATC] if DATC.exists() else []) + LOCAL


def cases() -> list[object]:
    out = []
    for path in FILES:
        _, found = read_cases(path)
        out += [pytest.param(path, case, id=case.name.split()[0]) for case in found]
    return out


@pytest.mark.parametrize("path, case", cases())
def test_case(path: Path, case: object) -> None:
    result = run_case(load_variant("standard"), case)  # type: ignore[arg-type]
    assert result.passed, f"{result.message}\nexpected {result.expected}\nactual   {result.actual}"


def test_datc_file_present_and_complete() -> None:
    assert DATC.exists(), "../shared/datc/datc_v2.4_06.txt must sit beside the repository"
    _, found = read_cases(DATC)
    assert len(found) == 167
