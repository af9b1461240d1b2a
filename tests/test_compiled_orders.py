"""Compiled orders: provinces are fields set once, when an order is made, so
the per-phase path never splits a location again; they are derived, and
take no part in equality, hashing or repr."""
from __future__ import annotations

import copy
import dataclasses
import pickle

from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.orders import (
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


def test_provinces_are_derived_fields() -> None:
    move = Move("russia", UnitType.FLEET, "stp/sc", "bot")
    assert (move.province, move.dest_province) == ("stp", "bot")
    support = SupportMove("france", UnitType.ARMY, "gas", UnitType.FLEET, "mao", "spa/nc")
    assert (support.province, support.dest_province) == ("gas", "spa")
    assert Retreat("turkey", None, "bul/ec", "rum").dest_province == "rum"
    assert Unit("russia", UnitType.FLEET, "stp/nc").province == "stp"


def test_derived_fields_stay_out_of_equality_hash_and_repr() -> None:
    a = Move("france", UnitType.ARMY, "par", "bur")
    b = Move("france", UnitType.ARMY, "par", "bur")
    assert a == b and hash(a) == hash(b)
    assert repr(a) == "Move(power='france', unit_type=<UnitType.ARMY: 'A'>, location='par', dest='bur', via_convoy=False)"
    assert repr(Unit("france", UnitType.ARMY, "par")) == "Unit(power='france', type=<UnitType.ARMY: 'A'>, location='par')"
    assert str(a) == "A par - bur" and str(Unit("england", UnitType.FLEET, "nth")) == "F nth"


def test_every_order_hashes_by_value_and_shows_no_derived_field() -> None:
    """Orders of every type are equal and hash by value (a set keeps one of
    two equal orders), and their repr leaves out the provinces derived."""
    orders = [Hold("austria", UnitType.ARMY, "vie"), Move("russia", UnitType.FLEET, "stp/sc", "bot", True),
              SupportHold("italy", UnitType.FLEET, "ion", UnitType.ARMY, "tun"),
              SupportMove("france", UnitType.ARMY, "gas", UnitType.FLEET, "mao", "spa/nc"),
              Convoy("england", UnitType.FLEET, "nth", "lon", "nwy"), Retreat("turkey", None, "bul/ec", "rum"),
              Disband("germany", UnitType.ARMY, "kie"), Build("russia", UnitType.FLEET, "stp/nc"), Waive("france")]
    for order in orders:
        twin = dataclasses.replace(order)
        assert twin is not order and twin == order and hash(twin) == hash(order) and len({order, twin}) == 1
        assert "province" not in repr(order), repr(order)


def test_copies_and_replacements_recompute() -> None:
    order = SupportHold("italy", UnitType.FLEET, "ion", UnitType.ARMY, "tun")
    moved = dataclasses.replace(Move("france", UnitType.ARMY, "par", "bur"), location="gas", dest="spa")
    assert (moved.province, moved.dest_province) == ("gas", "spa")
    for clone in (copy.deepcopy(order), pickle.loads(pickle.dumps(order))):
        assert clone == order and clone.province == "ion"
    convoy = Convoy("england", UnitType.FLEET, "nth", "lon", "nwy")
    assert pickle.loads(pickle.dumps(convoy)).province == "nth"
    assert Hold("austria", None, "vie").unit_text() == "vie"
