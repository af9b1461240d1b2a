"""The parser table in cases/parser.yaml: line -> normalised order or error."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.diplomacy.parser import OrderParser
from adjudicator.diplomacy.turn import error_kind
from adjudicator.rules import load_variant

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


# --- issue 16: line breaks, control characters, size caps ----------------------------------------------
def test_forged_heading_after_a_vertical_tab_orders_nothing() -> None:
    text = "Italy:\nA rom - ven\nsoon\x0bGermany:\x0bA mun - tyr\x0bItaly:"
    lines = PARSER.parse_text(text)
    assert [l.power for l in lines] == ["italy", "italy"]
    assert str(lines[0].order) == "A rom - ven"
    error = lines[1].error
    assert lines[1].number == 3 and error is not None and error_kind(error) == "cannot read"
    assert "control character U+000B" in str(error)
    assert not any(l.power == "germany" or (l.order is not None and "mun" in str(l.order)) for l in lines)


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r", "\x00",
                                  "\x1b"])
def test_other_line_breaks_and_controls_are_errors_not_breaks(char: str) -> None:
    lines = PARSER.parse_text(f"France:\nA par - bur{char}England:{char}F lon - nth\nA mar - spa")
    assert [l.number for l in lines] == [2, 3]
    assert lines[0].error is not None and f"U+{ord(char):04X}" in str(lines[0].error)
    assert str(lines[1].order) == "A mar - spa" and lines[1].power == "france"


def test_bom_crlf_and_tabs_are_fine() -> None:
    lines = PARSER.parse_text("\ufeffFrance:\r\nA par\t-\tbur\r\nA mar - spa\r\n")
    assert [(l.number, str(l.order), l.error) for l in lines] == [(2, "A par - bur", None), (3, "A mar - spa", None)]


def test_overlong_line_is_an_error_without_parsing() -> None:
    (line,) = PARSER.parse_text("A par - bur" + " " * 600, default_power="france")
    assert line.error is not None and "longer than 500 characters" in str(line.error) and line.order is None


def test_too_many_lines_is_one_error() -> None:
    lines = PARSER.parse_text("France:\n" + "A par H\n" * 2100)
    assert len(lines) == 1 and lines[0].error is not None and "too long" in str(lines[0].error)
    lines = PARSER.parse_text("France:\n" + ("A par H" + " " * 400 + "\n") * 1000)
    assert len(lines) == 1 and "too long" in str(lines[0].error)


def count_suggestions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every 'did you mean' search made from now on: the costly part of a
    junk line. Counted, not timed, so the bound holds on a loaded machine."""
    import difflib
    asked: list[str] = []
    real = difflib.get_close_matches

    def counting(word: str, *args: Any, **kwargs: Any) -> list[str]:
        asked.append(word)
        return real(word, *args, **kwargs)
    monkeypatch.setattr(difflib, "get_close_matches", counting)
    return asked


def test_junk_lines_are_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import string

    from adjudicator.diplomacy.order_reader import MAX_SUGGESTIONS
    rng = random.Random(7)
    junk = "\n".join(" ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 12)))
                              for _ in range(30))[:480] for _ in range(400))
    asked = count_suggestions(monkeypatch)
    lines = OrderParser(load_variant("standard")).parse_text(junk, default_power="france")
    assert len(lines) == 400 and all(l.error is not None for l in lines)
    # A page of junk gets hints on its first lines only; each hint looks at
    # the next three words, then two, then one.
    assert 0 < len(asked) <= 3 * MAX_SUGGESTIONS, f"{len(asked)} suggestion searches for 400 junk lines"


@pytest.mark.interpreted("replaces a parser method to see that it is never called")
def test_a_megabyte_of_junk_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    junk = "\n".join(f"wibble{i} frobnicate the quux zzyzx" for i in range(25_000))
    parser = OrderParser(load_variant("standard"))
    asked = count_suggestions(monkeypatch)
    read: list[str] = []
    monkeypatch.setattr(parser.plain_orders, "read", lambda body, power: read.append(body))
    lines = parser.parse_text(junk, default_power="france")
    assert len(lines) == 1 and "too long" in str(lines[0].error)
    assert not read and not asked, "a text over the limit is refused before any line is read"


def test_the_first_25_bad_names_of_a_text_get_a_hint() -> None:
    """The budget of 'did you mean' searches: 25 a text, one for each bad
    name, starting over with the next text."""
    parser = OrderParser(load_variant("standard"))
    for _ in range(2):
        lines = parser.parse_text("\n".join(["A Bugundy - par"] * 30), default_power="france")
        hinted = [l.number for l in lines if l.error is not None and "did you mean Burgundy" in str(l.error)]
        assert hinted == list(range(1, 26))


@pytest.mark.interpreted("replaces a parser method to see what it is given")
def test_a_hint_looks_only_at_words_of_a_sane_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad name of 40 characters is looked up for a hint; one of 41 is not."""
    from adjudicator.diplomacy.mapgraph import MapGraph
    asked: list[str] = []

    def suggest(graph: MapGraph, text: str) -> None:
        asked.append(text)
    monkeypatch.setattr(MapGraph, "suggest", suggest)
    parser = OrderParser(load_variant("standard"))
    for length in (40, 41):
        (line,) = parser.parse_text("A " + "q" * length, default_power="france")
        assert line.error is not None and "no such province" in str(line.error)
    assert asked and {len(text) for text in asked} == {40}


def test_a_text_of_2000_lines_is_read_and_one_more_is_not() -> None:
    lines = PARSER.parse_text("\n".join(["France:", *["A par H"] * 1999]))
    assert len(lines) == 1999 and all(l.error is None for l in lines)
    lines = PARSER.parse_text("\n".join(["France:", *["A par H"] * 2000]))
    assert len(lines) == 1 and "too long" in str(lines[0].error)


def test_the_powers_a_stranger_names_are_remembered_within_a_bound() -> None:
    """Every distinct prefix before a colon is looked up once and kept, up to
    1024 kept; past that the memo starts over, whatever a text holds."""
    parser = OrderParser(load_variant("standard"))
    sizes = []
    for i in range(3000):
        parser.power_lookup(f"Nowhere{i}")
        sizes.append(len(parser._powers))
    assert max(sizes) == 1024


def test_a_refused_line_is_echoed_with_its_controls_escaped_and_its_tabs_kept() -> None:
    (line,) = PARSER.parse_text("A par\t-\x0bbur\x1b", default_power="france")
    assert line.error is not None and line.text == "A par\t-\\u000bbur\\u001b"


def test_a_line_of_500_characters_is_read_and_one_more_is_not() -> None:
    read, refused = PARSER.parse_text("A par - bur" + " " * 489 + "\nA par - bur" + " " * 490, default_power="france")
    assert read.error is None and str(read.order) == "A par - bur"
    assert refused.error is not None and "longer than 500 characters" in str(refused.error)
    # A long line is echoed by its first 60 characters; one of 500 with a
    # control character is refused for the control character.
    (long,) = PARSER.parse_text("A par - bur " + "x" * 600, default_power="france")
    assert long.text == "A par - bur " + "x" * 48 + "..."
    (control,) = PARSER.parse_text("A par - bur\x0b" + "x" * 488, default_power="france")
    assert control.error is not None and "control character U+000B" in str(control.error)


def test_a_text_of_200000_characters_is_read_and_one_more_is_not() -> None:
    head = "France:\n" + "\n".join(["A par H  # " + "x" * 188] * 999) + "\n"
    text = head + "A par H  # " + "x" * (200_000 - len(head) - 11)
    assert len(text) == 200_000 and len(PARSER.parse_text(text)) == 1000
    (line,) = PARSER.parse_text(text + "#")
    assert line.number == 1 and line.error is not None and line.error.line == 1
    assert "too long" in str(line.error) and line.text == "(1001 lines, 200001 characters)"
