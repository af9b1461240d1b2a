"""The movement phase's result as a value, for the callers that read it
directly (the rule sets' hooks, the phase): the units that moved and the
units they dislodged, by province."""

from __future__ import annotations

import pytest

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import Hold, Move, Order, SupportMove

ARMY = UnitType.ARMY


@pytest.mark.parametrize("orders, moved, dislodged", [
    # Into an empty province: nobody is dislodged.
    ({"mun": Move("germany", ARMY, "mun", "bur")}, {"mun": "bur"}, {}),
    # Into a province its unit leaves: nobody is dislodged either.
    ({"mun": Move("germany", ARMY, "mun", "ber"), "ber": Move("germany", ARMY, "ber", "pru")},
     {"mun": "ber", "ber": "pru"}, {}),
    # A move that fails dislodges nobody; the unit it bounced on stays.
    ({"mun": Move("germany", ARMY, "mun", "ber"), "ber": Hold("germany", ARMY, "ber")}, {}, {}),
])
def test_only_a_unit_that_stays_where_a_move_succeeds_is_dislodged(
        orders: dict[str, Order], moved: dict[str, str], dislodged: dict[str, str]) -> None:
    units = {p: Unit("germany", ARMY, p) for p in orders}
    result = resolve_movement(units, orders, {})
    assert result.moved == moved
    assert result.dislodged == dislodged


def test_a_unit_that_stays_is_dislodged_by_the_move_into_it() -> None:
    units = {"mun": Unit("germany", ARMY, "mun"), "sil": Unit("germany", ARMY, "sil"),
             "boh": Unit("austria", ARMY, "boh")}
    orders: dict[str, Order] = {
        "mun": Move("germany", ARMY, "mun", "boh"),
        "sil": SupportMove("germany", ARMY, "sil", ARMY, "mun", "boh"),
        "boh": Hold("austria", ARMY, "boh"),
    }
    result = resolve_movement(units, orders, {})
    assert result.moved == {"mun": "boh"}
    assert result.dislodged == {"boh": "mun"}
