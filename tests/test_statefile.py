"""State files read and written (tests/cases/statefiles/read-and-write.yaml):
what the judge accepts it writes back the same; what it refuses gets one
error naming the file. And the state a variant starts from."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.statefile import (
    initial_state,
    state_from_data,
    state_to_data,
)
from adjudicator.errors import DataFileError
from adjudicator.rules import load_variant

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "statefiles" / "read-and-write.yaml").read_text(
    encoding="utf-8"))
STANDARD = load_variant("standard")


@pytest.mark.parametrize("case", CASES["reads"], ids=[c["name"] for c in CASES["reads"]])
def test_a_state_file_is_written_back_as_read(case: dict[str, Any]) -> None:
    data = CASES["base"] if case["state"] == "base" else case["state"]
    variant = STANDARD.with_rule_options(data["options"]) if "options" in data else STANDARD
    state = state_from_data(copy.deepcopy(data), variant, "state.yaml")
    assert state_to_data(state, variant) == case.get("written", data)


def _fault_file(case: dict[str, Any]) -> Any:
    if "file" in case:
        return case["file"]
    data = copy.deepcopy(CASES["base"])
    data.update(copy.deepcopy(case.get("change", {})))
    for key in case.get("drop", []):
        del data[key]
    return data


@pytest.mark.parametrize("case", CASES["faults"], ids=[c["error"] for c in CASES["faults"]])
def test_a_broken_state_file_is_refused_in_one_line(case: dict[str, Any]) -> None:
    with pytest.raises(DataFileError) as refused:
        state_from_data(_fault_file(case), STANDARD, "state.yaml")
    assert "state.yaml" in str(refused.value) and case["error"] in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_game_starts_in_the_spring_of_its_first_year() -> None:
    state = initial_state(STANDARD)
    assert state.phase == Phase(1901, "spring", "movement")
    assert (len(state.units), len(state.centres), state.control["bur"]) == (22, 22, "france")
