"""A movement phase reads UnitType and Reason members through their module
names (adjudicator.diplomacy.model: ARMY, FLEET, BOUNCED...), never through
the enum class. On Python 3.10 and 3.11 the enum metaclass (EnumMeta,
EnumType) defines __getattr__, which sends every attribute read on an enum
class, `Reason.CUT` included, through a slower hook (about 150-180 ns a read
here, against 50-75 ns on 3.12 and 3.13, which removed it); a phase made
about 150 such reads, 7% of its instructions on 3.11. This counts
the reads on random phases with every order type. The count is a property of
our code, not of the interpreter, and the counter works on every version
(it patches whatever metaclass the enums have), so the test runs on all of
them. WhyKind, read once per failed order, is not counted."""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from test_resolver_fast_path import VARIANT, random_orders

from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.model import Reason, UnitType
from adjudicator.diplomacy.statefile import initial_state

WATCHED = (UnitType, Reason)
METACLASS = type(Reason)          # enum.EnumMeta on 3.10, enum.EnumType (the same class renamed) after


@contextmanager
def member_reads() -> Iterator[Counter[str]]:
    """Every read of a watched enum's member through its class, by the function that made it."""
    reads: Counter[str] = Counter()
    plain = type.__getattribute__

    def counting(cls: Any, name: str) -> Any:
        if cls in WATCHED and not name.startswith("_"):
            caller = sys._getframe(1).f_code
            reads[f"{caller.co_filename.rsplit('/', 1)[-1]}:{caller.co_name} {cls.__name__}.{name}"] += 1
        return plain(cls, name)

    METACLASS.__getattribute__ = counting      # type: ignore[method-assign]
    try:
        yield reads
    finally:
        del METACLASS.__getattribute__       # back to the inherited type.__getattribute__


def test_the_counter_sees_a_read_through_the_class() -> None:
    """The count below is not vacuous: a read through the class is seen."""
    with member_reads() as reads:
        assert Reason.CUT is Reason.CUT
    assert sum(reads.values()) == 2


def test_a_movement_phase_reads_no_member_through_its_class() -> None:
    phases = []
    for seed in range(40):
        units, lines = random_orders(random.Random(seed))
        state = initial_state(VARIANT)
        state.units = units
        phases.append((state, lines))
    with member_reads() as reads:
        outcomes = [adjudicate_lines(VARIANT, state, lines) for state, lines in phases]
    assert all(outcome.orders for outcome in outcomes)
    assert not reads, f"read through the class, not model.py's module names: {dict(reads)}"
