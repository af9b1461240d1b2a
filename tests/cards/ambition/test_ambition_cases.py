"""Every rule case in cases/*.yaml, one test each."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.store.storage import read_yaml

from .ambition_harness import run

CASES = sorted((Path(__file__).parent / "cases").glob("*.yaml"))


def load(path: Path) -> list[tuple[str, dict]]:
    doc = read_yaml(path)
    return [(f"{path.stem}:{case['name']}", case) for case in doc["cases"]]


ALL = [pair for path in CASES for pair in load(path)]


@pytest.mark.parametrize("case", [c for _, c in ALL], ids=[i for i, _ in ALL])
def test_case(case: dict) -> None:
    run(case)
