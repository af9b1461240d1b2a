"""Ambition & Empire VI rules: every case in tests/cases/ambition-empire (the
seed's seventeen examples and more), plus library functions, secrecy and a
two-year game replay through adjudicator.diplomacy.game.adjudicate_text."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases.aecases import read_cases, run_case
from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import (
    initial_state,
    state_from_data,
    state_to_data,
)
from adjudicator.output.wording import order_text
from adjudicator.rules import load_variant
from adjudicator.rules.ambition_empire import RULES, apply_civil_disorder, record_draw
from adjudicator.rules.ambition_empire_common import (
    all_minor_ids,
    minor_name,
    religion_of,
    seed_minor_units,
    variant_minors,
)
from adjudicator.rules.ambition_empire_dp import DiplomacyPoints, dp_extension

ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = ROOT / "tests" / "cases" / "ambition-empire"
VARIANT = load_variant("ambition-empire")
CASES = [(path.name, case) for path in sorted(CASES_DIR.glob("*.txt")) for case in read_cases(path)]


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{f}:{c.name[:60]}" for f, c in CASES])
def test_case(case) -> None:
    result = run_case(VARIANT, case)
    assert result.passed, "\n".join(result.problems)


def test_every_seed_example_has_a_case() -> None:
    names = " ".join(c.name for _, c in CASES)
    for n in range(1, 18):
        assert f"Example {n}:" in names or f"Example {n} (" in names, f"no case for example {n}"


def test_registry_gives_these_rules() -> None:
    assert VARIANT.rules is RULES
    assert RULES.name == "ambition-empire"


@pytest.mark.parametrize("text, rest, dp", [
    ("2 DP: A swi S A mar - sav", "A swi S A mar - sav", 2),
    ("1 dp: F upr - eng", "F upr - eng", 1),
    ("3 DPs:swi H", "swi H", 3),
])
def test_dp_prefix_is_stripped(text: str, rest: str, dp: int) -> None:
    assert dp_extension(text) == (rest, DiplomacyPoints(dp))


def test_dp_prefix_absent() -> None:
    assert dp_extension("A par - bur") is None


# --- the sample game and a two-year replay -------------------------------------------
SAMPLES = ROOT / "orders" / "ambition-empire"

SPRING_1764 = """
Great Britain & Hanover:
F eng H
F nth H
A han H
F por H
F lon H
France:
A sav - tus
A bur H
F pic H
A par H
1 DP: A swi S A sav - tus
Habsburg Empire:
A ven S A sav - tus
A tyr S A baw - bav
A cro H
A sne H
A vie H
Poland-Lithuania & Saxony:
A baw - bav
A lit H
A dre H
2 DP: A swi H
"""
FALL_1764 = """
France:
A tus - sav
Poland-Lithuania & Saxony:
A bav H
"""
WINTER_1764 = """
Poland-Lithuania & Saxony:
Build A baw
"""


def play(state: GameState, text: str):
    outcome = adjudicate_text(VARIANT, state, text)
    assert outcome.errors == [], outcome.errors
    return outcome


def test_samples_adjudicate_cleanly_from_the_initial_state() -> None:
    state = initial_state(VARIANT)
    for name in ("1763-spring", "1763-fall", "1763-winter"):
        outcome = play(state, (SAMPLES / f"{name}.txt").read_text(encoding="utf-8"))
        state = outcome.next_state
    assert str(state.phase) == "Spring 1764 Movement"
    # 1763's conquests, all made with minor units dislodged and disbanded.
    for centre, owner in {"sav": "france", "ven": "habsburg", "por": "britain", "mek": "prussia",
                          "baw": "poland"}.items():
        assert state.centres[centre] == owner
        assert state.units[centre].power == owner


def test_two_year_replay() -> None:
    state = initial_state(VARIANT)
    phases = []
    texts = [(SAMPLES / f"1763-{s}.txt").read_text(encoding="utf-8") for s in ("spring", "fall", "winter")]
    texts += [SPRING_1764, FALL_1764, WINTER_1764]
    outcomes = []
    for text in texts:
        outcome = play(state, text)
        phases.append(str(outcome.phase))
        outcomes.append(outcome)
        state = outcome.next_state
    assert phases == ["Spring 1763 Movement", "Fall 1763 Movement", "Winter 1763 Adjustment",
                      "Spring 1764 Movement", "Fall 1764 Movement", "Winter 1764 Adjustment"]
    assert str(state.phase) == "Spring 1765 Movement"
    spring64, fall64, winter64 = outcomes[3:]
    # Spring 1764: Tuscany and Bavaria are dislodged and disbanded at once, no retreat.
    assert "tus" not in spring64.next_state.units or spring64.next_state.units["tus"].power == "france"
    assert not spring64.next_state.dislodged
    assert spring64.next_state.units["bav"].power == "poland"
    # Fall 1764: France leaves Tuscany before controlling it: the Tuscan army is rebuilt.
    after_fall = fall64.next_state
    assert after_fall.units["tus"].power == "tus"
    assert after_fall.centres.get("tus") != "france"
    assert after_fall.centres["bav"] == "poland"
    # Winter 1764: Poland-Lithuania & Saxony build in Baden-Wuerttemberg, their third home centre.
    assert state.units["baw"].power == "poland"
    assert state.extra["ambition_empire"]["extra_homes"] == {"poland": "baw"}
    assert [a.power for a in winter64.adjustments if a.delta] == ["poland"]
    # The minor powers never appear in the adjustments.
    assert {a.power for a in winter64.adjustments} <= set(VARIANT.powers)


def test_secrecy_of_allocations() -> None:
    state = initial_state(VARIANT)
    outcome = play(state, (SAMPLES / "1763-spring.txt").read_text(encoding="utf-8"))
    gm = "\n".join(outcome.gm_log)
    assert "France: 2 DP to A swi" in gm and "Habsburg Empire (Austria): 1 DP to A swi" in gm
    assert "DP tally for A swi" in gm
    # Each power sees its own allocations and their fate, and nobody else's.
    assert outcome.private["france"] == ["2 DP to A swi: 'A swi S A mar - sav': won"]
    assert outcome.private["habsburg"] == ["1 DP to A swi: 'A swi S A mil - ven': lost"]
    assert set(outcome.private) == {"britain", "france", "habsburg", "ottoman", "poland", "russia", "spain",
                                    "sweden"}
    # Public: the winning order as written; the notes never name who allocated.
    published = {str(l.unit): order_text(l) for l in outcome.orders}
    assert published["A swi"] == "A swi S A mar - sav"
    assert published["A cri"] == "A cri - zap"
    public = "\n".join(outcome.notes)
    assert "DP" not in public
    for power in VARIANT.powers.values():
        assert power.name not in public


def test_minor_units_are_placed_once_at_the_start() -> None:
    state = initial_state(VARIANT)
    outcome = play(state, "")
    minors = {u.province for u in outcome.next_state.units.values() if u.power not in VARIANT.powers}
    assert len(minors) == 17
    assert outcome.next_state.units["upr"].type.value == "F"
    # Spring 1763 again on the resulting state places nothing more.
    again = outcome.next_state.copy()
    again.phase = state.phase
    assert len(play(again, "").next_state.units) == len(outcome.next_state.units)


def test_minor_unit_conquered_centre_is_not_rebuilt() -> None:
    state = initial_state(VARIANT)
    state = play(state, "France:\nA mar - sav\n1 DP: A swi S A mar - sav").next_state
    after = play(state, "France:\nA sav H").next_state
    assert after.centres["sav"] == "france" and after.units["sav"].power == "france"
    assert after.extra["ambition_empire"]["disbanded_minors"] == []


# --- victory and the end of the game --------------------------------------------------
def state_with_counts(counts: dict[str, int]) -> GameState:
    state = initial_state(VARIANT)
    centres = sorted(VARIANT.map.supply_centres)
    state.centres = {}
    for power, n in counts.items():
        for _ in range(n):
            state.centres[centres.pop()] = power
    return state


@pytest.mark.parametrize("counts, winner", [
    ({"france": 15, "britain": 14}, "france"),
    ({"france": 14, "britain": 14}, None),
    ({"france": 15, "britain": 15}, None),
    ({"france": 16, "britain": 15}, "france"),
    ({"france": 15, "britain": 16}, "britain"),
])
def test_victory(counts: dict[str, int], winner: str | None) -> None:
    assert RULES.victory(VARIANT, state_with_counts(counts)) == winner


def test_victory_ends_the_game_after_a_fall() -> None:
    from adjudicator.diplomacy.model import Phase
    state = initial_state(VARIANT)
    state.phase = Phase(1770, "fall", "movement")
    state.extra = {"ambition_empire": {"seeded": True}}
    state.units = {"mar": state.units["mar"]}
    others = sorted(VARIANT.map.supply_centres - {"sav", "mar"})
    state.centres = {c: "france" for c in ["mar", *others[:13]]}      # fourteen
    outcome = play(state, "France: A mar - sav")
    assert len(outcome.next_state.centres_of("france")) == 15
    assert outcome.winner == "france"
    assert outcome.next_state.result is not None and outcome.next_state.result["winner"] == "france"


def test_record_draw() -> None:
    state = initial_state(VARIANT)
    del state.units["par"], state.units["mar"], state.units["bre"]
    drawn = record_draw(state, VARIANT)
    assert drawn.result is not None and "france" not in drawn.result["draw"]
    assert set(drawn.result["draw"]) == set(VARIANT.powers) - {"france"}
    assert state.result is None


# --- civil disorder ---------------------------------------------------------------------
def test_civil_disorder() -> None:
    state = initial_state(VARIANT)
    state.units["abo"] = state.units.pop("abo").__class__("russia", state.units["kev"].type, "abo")
    new, notes = apply_civil_disorder(VARIANT, state, "sweden")
    assert not [u for u in new.units.values() if u.power == "sweden"]
    # Vacant Stockholm becomes a Protestant minor with the fleet that started there.
    assert str(new.units["sto"]) == "F sto" and new.units["sto"].power == "sto"
    assert new.extra["ambition_empire"]["minors"]["sto"]["religion"] == "protestant"
    assert minor_name(VARIANT, new, "sto") == "Stockholm" and religion_of(VARIANT, new, "sto") == "protestant"
    assert "sto" in all_minor_ids(VARIANT, new) and "sto" not in all_minor_ids(VARIANT, state)
    # Occupied Abo waits for a vacant Fall.
    assert new.extra["ambition_empire"]["cd_pending"] == {"abo": "sweden"}
    assert "sweden" not in RULES.playing_powers(VARIANT, new)
    assert any("permanent civil disorder" in n for n in notes)
    with pytest.raises(ValueError):
        apply_civil_disorder(VARIANT, new, "sweden")
    # The Russian army leaves Abo in the Fall: Abo becomes a minor with its starting army.
    new.phase = new.phase.__class__(1763, "fall", "movement")
    after = play(new, "Russia:\nA abo - kar").next_state
    assert after.units["abo"].power == "abo" and str(after.units["abo"]) == "A abo"
    # The new minor takes DPs like any other.
    spring = after.copy()
    spring.phase = spring.phase.__class__(1764, "spring", "movement")
    out = play(spring, "Russia:\nA kar - abo\nDenmark-Norway:\n1 DP: F sto - bal\n")
    assert "F sto - bal" in [order_text(l) for l in out.orders]


def test_civil_disorder_occupied_centre_taken_stays_taken() -> None:
    state = initial_state(VARIANT)
    state.units["abo"] = state.units.pop("abo").__class__("russia", state.units["kev"].type, "abo")
    new, _ = apply_civil_disorder(VARIANT, state, "sweden")
    new.phase = new.phase.__class__(1763, "fall", "movement")
    after = play(new, "Russia:\nA abo H").next_state
    assert after.centres["abo"] == "russia" and after.units["abo"].power == "russia"
    assert after.extra["ambition_empire"]["cd_pending"] == {}


def test_civil_disorder_one_occupied_centre_taken_and_another_left_in_the_same_fall() -> None:
    """Abo (first in order) is taken by the Russian army that holds it; the Russian
    fleet leaves Stockholm, which becomes a minor power all the same."""
    state = initial_state(VARIANT)
    state.units["abo"] = state.units.pop("abo").__class__("russia", state.units["kev"].type, "abo")
    swedish_fleet = state.units.pop("sto")
    state.units["sto"] = swedish_fleet.__class__("russia", swedish_fleet.type, "sto")
    new, _ = apply_civil_disorder(VARIANT, state, "sweden")
    assert new.extra["ambition_empire"]["cd_pending"] == {"abo": "sweden", "sto": "sweden"}
    new.phase = new.phase.__class__(1763, "fall", "movement")
    after = play(new, "Russia:\nA abo H\nF sto - bal").next_state
    assert after.centres["abo"] == "russia"
    assert after.units["sto"].power == "sto" and str(after.units["sto"]) == "F sto"
    assert after.extra["ambition_empire"]["cd_pending"] == {}


def test_game_starts_with_the_minor_powers_in_place() -> None:
    # The rules' starting position has all seventeen minors, each holding its
    # centre with its unit, so the first Fall lists only real conquests.
    state = initial_state(VARIANT)
    for minor in ("alg", "nas", "upr", "sav", "pap"):
        assert state.centres[minor] == minor
        assert state.units[minor].power == minor
    assert len([u for u in state.units.values() if u.power not in VARIANT.powers]) == 17


def test_civil_disorder_drops_only_its_own_dislodged_units_and_frees_a_conquered_minor() -> None:
    """Sweden had conquered Courland: vacant, it becomes a minor again with
    the fleet it started with; a Swedish unit waiting to retreat goes, a
    Prussian one stays."""
    from adjudicator.diplomacy.model import Unit, UnitType
    from adjudicator.diplomacy.state import Dislodged
    state = initial_state(VARIANT)
    del state.units["cou"]
    state.centres["cou"] = "sweden"
    state.dislodged = {"pom": Dislodged(Unit("sweden", UnitType.ARMY, "pom"), "ber", ("swe",)),
                       "lvn": Dislodged(Unit("prussia", UnitType.ARMY, "lvn"), "mos", ("cou",))}
    new, notes = apply_civil_disorder(VARIANT, state, "sweden")
    assert list(new.dislodged) == ["lvn"]
    assert str(new.units["cou"]) == "F cou" and new.units["cou"].power == "cou"
    assert "Courland becomes an independent minor power (protestant) with F cou." in notes


def unseeded(phase_text: str = "") -> GameState:
    """The start without its minor units: a game made before the setup hook placed them."""
    state = initial_state(VARIANT)
    minors = [p for p, u in state.units.items() if u.power not in VARIANT.powers]
    for prov in minors:
        del state.units[prov]
        del state.centres[prov]
    del state.extra["ambition_empire"]["seeded"]
    return state


def test_seeding_skips_a_minor_centre_already_held_or_owned_and_goes_on() -> None:
    state = unseeded()
    first, *_, last = list(variant_minors(VARIANT))
    state.units[first] = state.units["par"].__class__("france", state.units["par"].type, first)
    state.centres["sav"] = "france"
    placed = seed_minor_units(VARIANT, state)
    assert first not in placed and "sav" not in placed and last in placed and len(placed) == 15
    assert state.units[first].power == "france" and "sav" not in state.units
    assert state.extra["ambition_empire"]["seeded"] is True


@pytest.mark.parametrize("year, season", [(1763, "fall"), (1764, "spring")])
def test_seeding_happens_only_in_the_first_spring(year: int, season: str) -> None:
    state = unseeded()
    state.phase = state.phase.__class__(year, season, "movement")
    assert seed_minor_units(VARIANT, state) == []
    assert not [u for u in state.units.values() if u.power not in VARIANT.powers]


def test_first_fall_lists_only_real_conquests() -> None:
    state = initial_state(VARIANT)
    for name in ("1763-spring", "1763-fall"):
        outcome = play(state, (SAMPLES / f"{name}.txt").read_text(encoding="utf-8"))
        state = outcome.next_state
    changed = {centre: (old, new) for centre, old, new in outcome.centre_changes}
    assert changed["ven"] == ("ven", "habsburg")
    assert all(new in VARIANT.powers for _, new in changed.values()), changed


def test_a_minor_keeps_its_centre_through_the_state_file_without_its_unit() -> None:
    # A minor whose unit was disbanded still owns its centre until a Great
    # Power takes it; the YAML round trip must not drop that owner.
    state = initial_state(VARIANT)
    del state.units["sav"]
    again = state_from_data(state_to_data(state, VARIANT), VARIANT, "state.yaml")
    assert again.centres == state.centres


def test_report_names_minor_units_in_full() -> None:
    from adjudicator.output.report import public_report
    state = initial_state(VARIANT)
    for name in ("1763-spring", "1763-fall"):
        outcome = play(state, (SAMPLES / f"{name}.txt").read_text(encoding="utf-8"))
        state = outcome.next_state
    report = public_report(VARIANT, outcome, "ae")
    assert "United Provinces: F United Provinces - Helgoland Bight  [bounced: 1 vs F Copenhagen 1]" in report
    assert "The Venice unit F Venice was dislodged by a Great Power and is disbanded." in report
    assert " ven " not in report and "F upr" not in report


# --- issue 12 item 5: published as the rulebook words it ------------------------------------
DP_FORMS = [
    "Ottoman Empire:\n1 DP: A swi S A mar - sav",
    "Ottoman Empire:\n1 DPs: A swi S A mar - sav",
    "Ottoman Empire:\n1 dp:Swi S Mar - Sav",
    "Ottoman Empire:\n1 D.P.: A swi S A mar - sav",
    "Turkey: 1 DP: A swi S A mar - sav",
    "1 DP: Turkey: A swi S A mar - sav",
    "1 DP: Ottoman Empire: A swi S A mar - sav",
    "Ottoman Empire:\n1 DP: A swi S A mar - sav   # for Turkey, with love",
]


@pytest.mark.parametrize("form", DP_FORMS)
def test_every_documented_dp_form_is_secret_in_the_public_report(form: str) -> None:
    from adjudicator.output.report import public_report
    state = initial_state(VARIANT)
    outcome = play(state, "France:\nA mar - sav\n" + form)
    minor = next(l for l in outcome.orders if str(l.unit) == "A swi")
    assert "S" in order_text(minor) and ":" not in order_text(minor) and "#" not in order_text(minor)
    report = public_report(VARIANT, outcome, "ae")
    swiss = [line for line in report.splitlines() if line.strip().startswith("Switzerland:")]
    assert len(swiss) == 1
    for secret in ("Turkey", "Ottoman", "DP", "love", "#"):
        assert secret not in swiss[0], swiss[0]


def test_an_unusable_dp_line_is_published_invalid_and_the_turn_goes_on() -> None:
    from adjudicator.output.report import public_report
    state = initial_state(VARIANT)
    del state.units["swi"]                        # the Swiss army is gone; Switzerland still owns its centre
    outcome = adjudicate_text(VARIANT, state, "France:\nA mar - sav\n1 DP: A swi S A mar - sav\n")
    # The player still hears of it (check and ingest read the line's error) ...
    assert [e.message for e in outcome.errors] == ["there is no unit in swi"]
    # ... but it does not stop the turn: it is published as invalid, and the GM is told.
    assert all(e.published for e in outcome.errors)
    assert any("line 3" in n and "France" in n and "Invalid" in n for n in outcome.gm_notes)
    assert "Switzerland: A Switzerland S A Marseilles - Savoy (Invalid)" in public_report(VARIANT, outcome, "ae")
    # Its order line is there, void and failed, for a unit that is gone.
    gone = next(line for line in outcome.orders if line.province == "swi")
    assert (gone.unit, gone.void, gone.succeeded) == (None, True, False)
    assert outcome.private["france"] == ["1 DP to A swi: 'A swi S A mar - sav': void: there is no unit in swi"]


def test_an_order_across_a_closed_strait_says_the_strait_is_closed() -> None:
    from adjudicator.diplomacy.model import Phase, Unit, UnitType
    from adjudicator.output.report import public_report
    state = initial_state(VARIANT)
    state.phase = Phase(1763, "fall", "movement")
    state.extra = {"ambition_empire": {"seeded": True}}
    state.units = {"gib": Unit("britain", UnitType.FLEET, "gib"), "and": Unit("spain", UnitType.ARMY, "and"),
                   "mor": Unit("mor", UnitType.FLEET, "mor")}
    report = public_report(VARIANT, play(state, "Spain: A and - mor"), "ae")
    assert ("A Andalusia - Morocco (Invalid)  [the crossing between Andalusia and Morocco is closed: "
            "a Great Britain & Hanover fleet is in Gibraltar]") in report
