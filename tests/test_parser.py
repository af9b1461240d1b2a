"""The parser table in cases/parser.yaml: line -> normalised order or error."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from adjudicator.parser import OrderParser
from adjudicator.turn import error_kind
from adjudicator.variant import load_variant

TABLE = yaml.safe_load((Path(__file__).parent / "cases" / "parser.yaml").read_text())
PARSER = OrderParser(load_variant("standard"))


@pytest.mark.parametrize("line, expected", sorted(TABLE["ok"].items()))
def test_reads(line: str, expected: str) -> None:
    parsed = PARSER.parse_text(line, default_power="france")
    assert len(parsed) == 1
    assert parsed[0].error is None, str(parsed[0].error)
    assert str(parsed[0].order) == expected


@pytest.mark.parametrize("line, expected", sorted(TABLE["errors"].items()))
def test_errors(line: str, expected: list[str]) -> None:
    parsed = PARSER.parse_text(line, default_power="france")
    error = parsed[0].error
    assert error is not None, f"{line!r} parsed as {parsed[0].order}"
    kind, fragment = expected
    assert error_kind(error) == kind
    assert fragment in str(error)
    assert error.line == 1


def test_headings_and_prefixes_and_comments() -> None:
    text = "# a comment\nFrance:\nA par - bur\nGermany: A mun - bur  # bounce\n\nA mar H\n"
    lines = PARSER.parse_text(text)
    assert [(l.number, l.power, str(l.order)) for l in lines] == [
        (3, "france", "A par - bur"), (4, "germany", "A mun - bur"), (6, "france", "A mar H")]


def test_line_without_power_is_an_error() -> None:
    (line,) = PARSER.parse_text("A par - bur")
    assert line.error is not None and "no power" in str(line.error)
