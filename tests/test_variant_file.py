"""Variant files read (tests/cases/variants/files.yaml): what a small file
gives the judge, and each broken part refused in one line naming the file."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.variant import RULE_OPTIONS, Variant, parse_variant
from adjudicator.errors import DataFileError
from adjudicator.rules import rule_set

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "variants" / "files.yaml").read_text(encoding="utf-8"))


def _file(case: dict[str, Any]) -> Any:
    if "file" in case:
        return case["file"]
    data = copy.deepcopy(CASES["base"])
    data.update(copy.deepcopy(case.get("change", {})))
    if "power" in case:
        data["powers"]["france"].update(copy.deepcopy(case["power"]))
    for key in case.get("drop", []):
        del data[key]
    return data


def _facts(variant: Variant, wanted: dict[str, Any]) -> dict[str, Any]:
    every = {
        "victory_centres": variant.victory_centres, "seasons": list(variant.seasons),
        "start_year": variant.start_year,
        "power_names": {p: variant.power_name(p) for p in wanted.get("power_names", {})},
        "minor_traits": {m: minor.traits for m, minor in variant.minor_powers.items()},
        "home_territory": {p: list(info.home_territory) for p, info in variant.powers.items()},
        "suggestions": {text: variant.power_suggestion(text) for text in wanted.get("suggestions", {})},
        "rules_summary": variant.rules_summary(),
        "rule_options": {key: variant.rule_option(key) for key in RULE_OPTIONS},
    }
    return {key: every[key] for key in wanted}


@pytest.mark.parametrize("case", CASES["reads"], ids=[c["name"] for c in CASES["reads"]])
def test_a_variant_file_gives_the_judge_its_facts(case: dict[str, Any]) -> None:
    variant = parse_variant(_file(case), "variant.yaml", "two", rule_set)
    assert _facts(variant, case["facts"]) == case["facts"]


@pytest.mark.parametrize("case", CASES["faults"], ids=[c["error"] for c in CASES["faults"]])
def test_a_broken_variant_file_is_refused_in_one_line(case: dict[str, Any]) -> None:
    with pytest.raises(DataFileError) as refused:
        variant = parse_variant(_file(case), "variant.yaml", "two", rule_set)
        # Options a game lays over the file, with no file of their own named.
        variant.with_rule_options(case.get("game_options", {}))
    assert "variant.yaml" in str(refused.value) and case["error"] in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_variant_with_a_games_options_reads_orders_as_itself() -> None:
    """What is kept with a variant (its order parser) is not carried over to
    the variant a game's options make of it: each has its own, made from itself."""
    plain = parse_variant(copy.deepcopy(CASES["base"]), "variant.yaml", "two", rule_set)
    assert parser_for(plain).variant is plain
    with_options = plain.with_rule_options({"rules_edition": "2023"})
    assert parser_for(with_options).variant is with_options
    assert parser_for(plain).variant is plain
