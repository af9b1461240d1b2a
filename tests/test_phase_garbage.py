"""A phase frees what it made as it returns: no reference cycle is left for
the garbage collector. One cycle held a whole movement phase (the resolver
kept on the adjudicator, holding the adjudicator's own method), so every
phase's orders, dicts and lists waited for a collection, and the collector
walked them again and again: about a tenth of a phase's CPU. Every case of
three DATC files (movement, retreats and adjustments), run once to fill the
caches a variant fills on first use, then again with the collector off, a
collection of the youngest objects after each case: nothing is found."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from test_datc import CASES, DATC

from adjudicator.cases.datc import load_case_variant, read_cases, run_case

FILES = [path for path in (DATC, CASES / "datc-v3.0.txt", CASES / "datc-ancient-mediterranean.txt") if path.exists()]


@contextmanager
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_case_leaves_nothing_for_the_garbage_collector(path: Path) -> None:
    name, cases = read_cases(path)
    variant = load_case_variant(name)
    for case in cases:
        assert run_case(variant, case).passed, case.name
    with collector_off():
        # The youngest generation only: all a case made, and no walk of the
        # whole process's objects after every case.
        left = [(case.name, gc.collect(0)) for case in cases if run_case(variant, case).passed]
    assert len(left) == len(cases)
    assert [(case, found) for case, found in left if found] == []
