"""Property tests: random legal positions with random orders never crash,
never leave two units in one province, and every dislodged unit had a
successful attacker."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Reason, Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import Convoy, Hold, Move, SupportHold, SupportMove
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.rules import load_variant

VARIANT = load_variant("standard")
GRAPH = VARIANT.map
POWERS = list(VARIANT.powers)
LOCATIONS = sorted({loc for p in GRAPH.provinces for loc in ([p] + GRAPH.coasts(p))})


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Unit]:
    count = draw(st.integers(min_value=2, max_value=34))
    units: dict[str, Unit] = {}
    for _ in range(count):
        loc = draw(st.sampled_from(LOCATIONS))
        prov = loc.split("/")[0]
        if prov in units:
            continue
        kinds = [t for t in UnitType if GRAPH.can_stand(t, loc)]
        if not kinds:
            continue
        units[prov] = Unit(draw(st.sampled_from(POWERS)), draw(st.sampled_from(kinds)), loc)
    return units


@st.composite
def scenario(draw: st.DrawFn) -> tuple[dict[str, Unit], list[ParsedLine]]:
    units = draw(positions())
    provs = sorted(units)
    lines = []
    for n, prov in enumerate(provs, start=1):
        unit = units[prov]
        kind = draw(st.sampled_from(["hold", "move", "support_hold", "support_move", "convoy"]))
        neighbours = sorted(set(GRAPH.army_adjacent.get(prov, ())) | {x.split("/")[0] for x in GRAPH.fleet_adjacent.get(unit.location, ())})
        any_prov = draw(st.sampled_from(sorted(GRAPH.provinces)))
        target = draw(st.sampled_from(neighbours)) if neighbours and draw(st.booleans()) else any_prov
        other = draw(st.sampled_from(provs))
        args = (unit.power, unit.type, unit.location)
        if kind == "move":
            order = Move(*args, target, draw(st.booleans()))
        elif kind == "support_hold":
            order = SupportHold(*args, None, other)
        elif kind == "support_move":
            order = SupportMove(*args, None, other, target)
        elif kind == "convoy":
            order = Convoy(*args, other, target)
        else:
            order = Hold(*args)
        lines.append(ParsedLine(n, str(order), unit.power, order))
    return units, lines


@settings(max_examples=300, deadline=None)
@given(scenario())
def test_movement_invariants(data: tuple[dict[str, Unit], list[ParsedLine]]) -> None:
    units, lines = data
    state = initial_state(VARIANT)
    state.units = dict(units)
    outcome = adjudicate_lines(VARIANT, state, lines)
    after = outcome.next_state
    # One unit per province, each standing where it may.
    assert all(u.province == p for p, u in after.units.items())
    assert all(GRAPH.can_stand(u.type, u.location) for u in after.units.values())
    # Units are conserved: moved, stayed, dislodged, or disbanded for lack of retreats.
    disbanded = sum("nowhere to retreat" in n for n in outcome.notes)
    assert len(after.units) + len(after.dislodged) + disbanded == len(units)
    # Every dislodged unit had a successful attacker from its recorded origin.
    moved_to = {o.order.moves_to(): o.province for o in outcome.orders if o.result is Reason.MOVED}
    for prov, d in after.dislodged.items():
        assert moved_to.get(prov) == d.attacker_from
        assert prov in after.units and after.units[prov].power != d.unit.power


@settings(max_examples=100, deadline=None)
@given(positions())
def test_all_hold_changes_nothing(units: dict[str, Unit]) -> None:
    result = resolve_movement(units, {}, GRAPH.seas_touching)
    assert not result.moved and not result.dislodged
