"""Ambition & Empire VI rules: every case in tests/cases/ambition-empire (the
seed's seventeen examples and more), plus library functions, secrecy and a
two-year game replay through adjudicator.game.adjudicate_text."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.aecases import CASES_DIR, read_cases, run_case
from adjudicator.game import adjudicate_text
from adjudicator.rules import rules_for
from adjudicator.rules.ambition_empire import RULES, apply_civil_disorder, record_draw
from adjudicator.rules.ambition_empire_dp import dp_extension
from adjudicator.state import GameState, initial_state
from adjudicator.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
VARIANT = load_variant("ambition-empire")
CASES = [(path.name, case) for path in sorted(CASES_DIR.glob("*.txt")) for case in read_cases(path)]


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{f}:{c.name[:60]}" for f, c in CASES])
def test_case(case) -> None:
    result = run_case(VARIANT, case)
    assert result.passed, "\n".join(result.problems)


def test_every_seed_example_has_a_case() -> None:
    names = " ".join(c.name for _, c in CASES)
    for n in range(1, 18):
        assert f"Example {n}:" in names or f"Example {n} (" in names, f"no case for example {n}"


def test_registry_gives_these_rules() -> None:
    assert rules_for(VARIANT) is RULES
    assert RULES.name == "ambition-empire"


@pytest.mark.parametrize("text, rest, dp", [
    ("2 DP: A swi S A mar - sav", "A swi S A mar - sav", 2),
    ("1 dp: F upr - eng", "F upr - eng", 1),
    ("3 DPs:swi H", "swi H", 3),
])
def test_dp_prefix_is_stripped(text: str, rest: str, dp: int) -> None:
    assert dp_extension(text) == (rest, {"dp": dp})


def test_dp_prefix_absent() -> None:
    assert dp_extension("A par - bur") is None
