"""Round trip (issue 12 item 7): every order's text parses back to the same
order, for random orders of every form on the Standard map, and so does its
long form ('A Paris - Burgundy') as reports and `check` print it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.diplomacy.model import UnitType
from adjudicator.diplomacy.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from adjudicator.diplomacy.parser import OrderParser
from adjudicator.output.report import long_form
from adjudicator.rules import load_variant

VARIANT = load_variant("standard")
GRAPH = VARIANT.map
PARSER = OrderParser(VARIANT)
POWERS = sorted(VARIANT.powers)
LOCATIONS = sorted({loc for p in GRAPH.provinces for loc in ([p] + GRAPH.coasts(p))})
PROVINCES = sorted(GRAPH.provinces)
UNIT_TYPES = st.sampled_from([None, *UnitType])


@st.composite
def orders(draw: st.DrawFn) -> AnyOrder:
    power = draw(st.sampled_from(POWERS))
    unit_type = draw(UNIT_TYPES)
    loc = draw(st.sampled_from(LOCATIONS))
    other = draw(st.sampled_from(LOCATIONS))
    third = draw(st.sampled_from(LOCATIONS))
    kind = draw(st.sampled_from(["hold", "move", "shold", "smove", "convoy", "retreat", "disband", "build",
                                 "waive"]))
    if kind == "hold":
        return Hold(power, unit_type, loc)
    if kind == "move":
        return Move(power, unit_type, loc, other, draw(st.booleans()))
    if kind == "shold":
        return SupportHold(power, unit_type, loc, draw(UNIT_TYPES), other)
    if kind == "smove":
        return SupportMove(power, unit_type, loc, draw(UNIT_TYPES), other, third)
    if kind == "convoy":
        return Convoy(power, unit_type, loc, draw(st.sampled_from(PROVINCES)), draw(st.sampled_from(PROVINCES)))
    if kind == "retreat":
        return Retreat(power, unit_type, loc, other)
    if kind == "disband":
        return Disband(power, unit_type, loc)
    if kind == "build":
        return Build(power, draw(UNIT_TYPES.filter(lambda t: t is not None)), loc)
    return Waive(power)


def parse(text: str, power: str) -> AnyOrder | None:
    (line,) = PARSER.parse_text(text, default_power=power)
    assert line.error is None, f"{text!r}: {line.error}"
    return line.order


@settings(max_examples=400, deadline=None)
@given(orders())
def test_short_form_round_trips(order: AnyOrder) -> None:
    assert parse(str(order), order.power) == order


@settings(max_examples=400, deadline=None)
@given(orders())
def test_long_form_round_trips(order: AnyOrder) -> None:
    assert parse(long_form(str(order), GRAPH), order.power) == order
