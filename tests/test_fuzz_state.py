"""Fuzzing state files and game.yaml: whatever the bytes, loading them gives a
state or one DataFileError, never another exception.

Example counts are bounded for CI. Before a release, run a longer search:
    ADJUDICATOR_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/test_fuzz_state.py"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.diplomacy.statefile import state_from_data
from adjudicator.errors import AdjudicatorError
from adjudicator.folder.gamefolder import load_state
from adjudicator.rules import load_variant
from adjudicator.store import storage

STANDARD = load_variant("standard")
TOKENS = ["A par", "F bre", "A", "par", "F stp/nc", "F spa/sc", "A swi", "F mun", "X yz", "", "A par extra",
          "france", "england", "1901", "spring", "movement", "retreat", "&x", "*x", "{", "[", "- ", "\x0b"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 3000), st.sampled_from(TOKENS),
                    st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(TOKENS), inner, max_size=4)),
                      max_leaves=20)
state_like = st.fixed_dictionaries(
    {"variant": st.sampled_from(["standard", "nope", 3]), "phase": values, "units": values},
    optional={"centres": values, "dislodged": values, "extra": values, "result": values})

fuzz = settings(max_examples=int(os.environ.get("ADJUDICATOR_FUZZ_EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fuzz
@given(state_like)
def test_any_state_data_loads_or_is_one_clear_error(data: dict[str, Any]) -> None:
    try:
        state_from_data(data, STANDARD, "fuzz.yaml")
    except AdjudicatorError as exc:
        assert "fuzz.yaml" in str(exc)


@fuzz
@given(st.binary(max_size=400), st.booleans())
def test_any_bytes_as_a_state_file_load_or_are_one_clear_error(tmp_path_factory: Any, raw: bytes,
                                                              sealed: bool) -> None:
    path = Path(tmp_path_factory.mktemp("s")) / "state.yaml"
    if sealed:
        try:
            raw = storage.seal(raw.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            pass
    path.write_bytes(raw)
    try:
        load_state(path)
    except AdjudicatorError as exc:
        assert "state.yaml" in str(exc)


@fuzz
@given(st.lists(st.sampled_from(["variant: standard", "phase: {year: 1901, season: spring, kind: movement}",
                                 "units: {france: [A par]}", "centres: {france: [par]}", "units: [A par]",
                                 "a: &j [1]", "b: *j", "  - x", "dislodged:", "- {unit: A par, power: france}",
                                 "extra: {}", "result: null", "units:", "  france: [A par, A par]", "\ufeff"]),
                max_size=10))
def test_line_soup_state_files(tmp_path_factory: Any, lines: list[str]) -> None:
    path = Path(tmp_path_factory.mktemp("s")) / "state.yaml"
    path.write_text(storage.seal("\n".join(lines) + "\n"), encoding="utf-8")
    try:
        load_state(path)
    except AdjudicatorError as exc:
        assert "state.yaml" in str(exc)
