"""The movement phase's result as a value, for the callers that read it
directly (the rule sets' hooks, the phase): the units that moved and the
units they dislodged, by province."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.diplomacy import movement
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import Hold, Move, Order, SupportMove
from adjudicator.diplomacy.resolver import Adjudicate, BackupRule, Resolver

ARMY = UnitType.ARMY
FLEET = UnitType.FLEET


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


# Munich, supported from Silesia, attacks Bohemia, which holds.
SUPPORTED_ATTACK_UNITS = {"mun": Unit("germany", ARMY, "mun"), "sil": Unit("germany", ARMY, "sil"),
                          "boh": Unit("austria", ARMY, "boh")}
SUPPORTED_ATTACK: dict[str, Order] = {
    "mun": Move("germany", ARMY, "mun", "boh"),
    "sil": SupportMove("germany", ARMY, "sil", ARMY, "mun", "boh"),
    "boh": Hold("austria", ARMY, "boh"),
}


def test_a_unit_that_stays_is_dislodged_by_the_move_into_it() -> None:
    result = resolve_movement(SUPPORTED_ATTACK_UNITS, SUPPORTED_ATTACK, {})
    assert result.moved == {"mun": "boh"}
    assert result.dislodged == {"boh": "mun"}


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The decisions run, in order, by key (a decision run again is listed
    again); a decision that read others is listed as 'key<-other,...'."""
    ran: list[str] = []

    def counted(adjudicate: Adjudicate[str], backup_rule: BackupRule[str]) -> Resolver[str]:
        def run(key: str, resolution: Callable[[str], bool]) -> bool:
            read: list[str] = []

            def reading(other: str) -> bool:
                read.append(other)
                return resolution(other)
            at = len(ran)
            ran.append(key)
            try:
                return adjudicate(key, reading)
            finally:
                if read:
                    ran[at] = f"{key}<-{','.join(read)}"
        return Resolver(run, backup_rule)

    monkeypatch.setattr(movement, "Resolver", counted)
    return ran


@pytest.mark.interpreted("counts the decisions run, through a Resolver put in the movement module's place")
def test_a_support_that_names_another_coast_is_not_read_by_the_move(runs: list[str]) -> None:
    # The support matches no order (DATC 6.B.9), so it is taken off the move's
    # supporters: the move reads no other decision.
    units = {"mao": Unit("france", FLEET, "mao"), "por": Unit("france", FLEET, "por")}
    orders: dict[str, Order] = {
        "mao": Move("france", FLEET, "mao", "spa/nc"),
        "por": SupportMove("france", FLEET, "por", FLEET, "mao", "spa/sc"),
    }
    result = resolve_movement(units, orders, {})
    assert result.moved == {"mao": "spa/nc"}
    assert result.succeeded == {"mao": True, "por": False}
    assert runs == ["por", "mao"]


@pytest.mark.interpreted("counts the decisions run, through a Resolver put in the movement module's place")
def test_supports_are_decided_before_the_moves_that_read_them(runs: list[str]) -> None:
    # The support is decided first, reading nothing; the move then reads it
    # once, already decided. Decided in the units' order, the move would run
    # three times: bare, then under the guessing, then again once the support is decided.
    result = resolve_movement(SUPPORTED_ATTACK_UNITS, SUPPORTED_ATTACK, {})
    assert result.dislodged == {"boh": "mun"}
    assert runs == ["sil", "mun<-sil"]


@pytest.mark.interpreted("counts the decisions run, through a Resolver put in the movement module's place")
def test_a_convoyed_move_without_a_path_reads_no_other_decision(runs: list[str]) -> None:
    # No fleet convoys the army: its move fails on that alone, before it asks
    # whether the unit in its destination leaves.
    units = {"lon": Unit("england", ARMY, "lon"), "bel": Unit("france", ARMY, "bel")}
    orders: dict[str, Order] = {
        "lon": Move("england", ARMY, "lon", "bel", True),
        "bel": Move("france", ARMY, "bel", "hol"),
    }
    result = resolve_movement(units, orders, {})
    assert result.succeeded == {"lon": False, "bel": True}
    assert runs == ["lon", "bel"]


def test_a_unit_without_an_order_holds() -> None:
    units = {"mun": Unit("germany", ARMY, "mun"), "sil": Unit("germany", ARMY, "sil"),
             "boh": Unit("austria", ARMY, "boh")}
    orders: dict[str, Order] = {"mun": Move("germany", ARMY, "mun", "boh"),
                                "sil": SupportMove("germany", ARMY, "sil", ARMY, "mun", "boh")}
    result = resolve_movement(units, orders, {})
    assert result.succeeded == {"mun": True, "sil": True, "boh": True}
    assert result.dislodged == {"boh": "mun"}
