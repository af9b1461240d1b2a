"""Results are values: no module tests an order's kind or result as a
string, and only a variant's own rule set (adjudicator/rules/) reads its
line data. Order lines carry the typed order and result; the words are made
by adjudicator/output/ alone. A grep over the tree, so that it fails the day
one comes back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"
ORDER_KINDS = "Move|Hold|SupportHold|SupportMove|Convoy|Retreat|Disband|Build|Waive|Void"
RESULT_WORDS = "moved|bounced|cut|dislodged|void|no convoy|retreated|disbanded|built|waived"
# An order's kind or result tested as a string: `o.kind == "Move"`,
# `kind in ("Move", "Retreat")`, `line.result == "moved"`.
WORD_TESTS = re.compile(rf"""\bkind\s*(==|!=|\bin\b)\s*\(?\s*["']({ORDER_KINDS})["']"""
                        rf"""|\.result\s*(==|!=|\bin\b)\s*\(?\s*["']({RESULT_WORDS})""")
# A variant's line data read by name: `extra["dp"]`, `"dp" in line.extra`, `extra.get("dp")`.
VARIANT_DATA = re.compile(r"""extra\s*\[\s*["']dp["']|["']dp["']\s+(not\s+)?in\s+\w+(\.\w+)*\.extra\b"""
                          r"""|extra\.get\(\s*["']dp["']""")


def offences(pattern: re.Pattern[str], skip: str | None = None) -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if skip is not None and relative.parts[0] == skip:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
    return found


def test_no_order_kind_or_result_is_tested_as_a_string() -> None:
    assert offences(WORD_TESTS) == []


def test_only_the_rule_sets_read_variant_line_data() -> None:
    assert offences(VARIANT_DATA, skip="rules") == []


@pytest.mark.parametrize("line", [
    'if o.kind == "Move" and o.target:', "elif o.kind in ('Move', 'Retreat') and target:",
    'moving = own.kind != "Move"', 'if line.result == "moved" and line.detail:',
])
def test_the_grep_finds_a_word_test(line: str) -> None:
    assert WORD_TESTS.search(line)


@pytest.mark.parametrize("line", [
    'dp = int(line.extra["dp"])', "if 'dp' in line.extra:", 'plain = [l for l in lines if "dp" not in l.extra]',
    'amount = line.extra.get("dp")',
])
def test_the_grep_finds_variant_data(line: str) -> None:
    assert VARIANT_DATA.search(line)


@pytest.mark.parametrize("line", [
    'if state.phase.kind == "movement":', 'if line.result is Reason.MOVED:', 'state.extra.get("ambition_empire")',
])
def test_the_grep_leaves_typed_tests_alone(line: str) -> None:
    assert not WORD_TESTS.search(line) and not VARIANT_DATA.search(line)


# An order's class tested to choose behaviour: `isinstance(order, (Build, Waive))`.
CLASS_TESTS = re.compile(rf"""isinstance\([^,]+,\s*\(?\s*({ORDER_KINDS})\b""")


def test_the_game_folder_asks_orders_instead_of_testing_their_class() -> None:
    """The order set counts builds, waives and disbands by what each order
    answers (winter_count), not by its class."""
    assert [o for o in offences(CLASS_TESTS) if o.startswith("folder/")] == []


@pytest.mark.parametrize("line", ["builds = [e for e in entries if isinstance(e[1].order, (Build, Waive))]",
                                  "have = sum(1 for order in valid if isinstance(order, Disband))"])
def test_the_grep_finds_a_class_test(line: str) -> None:
    assert CLASS_TESTS.search(line)
