"""The Standard rule set's own hooks (rules/standard), beyond the DATC:
victory at 18 centres, a movement phase that goes on past lines it cannot
use, and a mail that orders another power's unit."""

from __future__ import annotations

import pytest

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.mail.ingest_diplomacy import foreign_lines
from adjudicator.rules import load_variant
from adjudicator.rules.standard import victory

VARIANT = load_variant("standard")


@pytest.mark.parametrize("france, winner", [(17, None), (18, "france"), (19, "france")])
def test_victory_at_18_centres(france: int, winner: str | None) -> None:
    state = initial_state(VARIANT)
    centres = sorted(VARIANT.map.supply_centres)
    state.centres = {c: ("france" if n < france else "england") for n, c in enumerate(centres)}
    assert victory(VARIANT, state) == winner


def test_lines_that_order_nothing_do_not_stop_the_orders_after_them() -> None:
    """A line the parser cannot read, a second order for a unit, a waive in a
    movement phase, an order for an empty province: each is its own error, and
    the next order still counts."""
    text = "France:\nA par flies\nA par - bur\nA par H\nA mar - spa\nwaive\nF bre - mao\nA gas - bre\n"
    outcome = adjudicate_text(VARIANT, initial_state(VARIANT), text)
    units = outcome.next_state.units
    assert units["bur"].power == "france" and units["spa"].power == "france" and units["mao"].power == "france"
    assert len(outcome.errors) == 4
    assert any("the unit in par already has an order on line 3" in e.message for e in outcome.errors)
    assert any("waive is only for winter adjustments" in e.message for e in outcome.errors)


def test_a_mail_ordering_another_powers_unit_is_foreign() -> None:
    state = initial_state(VARIANT)
    lines = parser_for(VARIANT).parse_text("A par H\nF lon H", "france")
    assert foreign_lines(VARIANT, state, lines, "france") == [
        "line 2: F lon H: the unit in lon belongs to England, not France"]
