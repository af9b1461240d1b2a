"""Issue 12 item 2: every result that is not a plain success says why, in a
judge's voice, from the resolver's typed decisions (strengths, the units that
bounced, cut or dislodged an order, the rule that voided it)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.model import Phase, Unit, UnitType
from adjudicator.diplomacy.outcome import Opponent, PhaseOutcome, Why, WhyKind
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.output.report import private_report, public_report
from adjudicator.rules import load_variant

ROOT = Path(__file__).resolve().parent.parent
STANDARD = load_variant("standard")


def spring_1901() -> PhaseOutcome:
    text = (ROOT / "orders" / "standard" / "1901-spring.txt").read_text(encoding="utf-8")
    return adjudicate_text(STANDARD, initial_state(STANDARD), text)


def position(units: dict[str, str], phase: Phase | None = None) -> GameState:
    """A state with just these units: {'A mun': 'germany', ...}."""
    state = initial_state(STANDARD)
    state.units = {}
    for text, power in units.items():
        kind, loc = text.split()
        state.units[loc.split("/")[0]] = Unit(power, UnitType(kind), loc)
    if phase is not None:
        state.phase = phase
    return state


def line_of(outcome: PhaseOutcome, unit: str):
    return next(l for l in outcome.orders if str(l.unit) == unit)


def test_a_bounce_names_the_strengths_and_the_other_unit() -> None:
    outcome = spring_1901()
    vienna = line_of(outcome, "A vie")
    assert vienna.why == Why(WhyKind.BOUNCED, strength=1,
                             opponents=(Opponent(Unit("russia", UnitType.ARMY, "war"), 1),), disbanded=False)
    report = public_report(STANDARD, outcome, "demo")
    assert "A Vienna - Galicia  [bounced: 1 vs A Warsaw 1]" in report
    assert "A Warsaw - Galicia  [bounced: 1 vs A Vienna 1]" in report
    assert "F Sevastopol - Black Sea  [bounced: 1 vs F Ankara 1]" in report


def test_a_plain_success_says_only_its_result() -> None:
    report = public_report(STANDARD, spring_1901(), "demo")
    assert "A Paris - Burgundy  [moved]" in report
    # A support that stood is marked as a move that went through is: a line without
    # a result looked as if the judge had skipped it.
    assert "A Marseilles S A Paris - Burgundy  [supported]\n" in report
    assert "A Venice H\n" in report                 # a hold that stood has nothing to report


def test_a_convoy_that_stood_says_so() -> None:
    state = position({"F nth": "england", "A lon": "england"})
    outcome = adjudicate_text(STANDARD, state, "England:\nF nth C A lon - nwy\nA lon - nwy")
    report = public_report(STANDARD, outcome, "demo")
    assert "F North Sea C A London - Norway  [convoyed]\n" in report


def test_a_cut_support_names_the_unit_that_cut_it() -> None:
    state = position({"A mun": "germany", "A ber": "germany", "A tyr": "austria"})
    outcome = adjudicate_text(STANDARD, state, "Germany:\nA mun S A ber\nA ber H\nAustria:\nA tyr - mun")
    assert line_of(outcome, "A mun").why == Why(WhyKind.CUT, opponents=(
        Opponent(Unit("austria", UnitType.ARMY, "tyr")),))
    assert "A Munich S A Berlin  [cut by A Tyrolia]" in public_report(STANDARD, outcome, "demo")


def test_a_dislodgement_names_the_attacker_strengths_and_retreats() -> None:
    state = position({"F nth": "germany", "F eng": "france", "F bel": "france", "F lon": "england",
                      "F edi": "england", "A yor": "england", "F nwg": "england", "F ska": "russia",
                      "F den": "russia", "A hol": "germany"})
    outcome = adjudicate_text(STANDARD, state, "France:\nF eng - nth\nF bel S F eng - nth\n")
    why = line_of(outcome, "F nth").why
    assert why is not None and why.kind is WhyKind.DISLODGED
    assert (why.strength, why.defence) == (2, 1)
    assert why.opponents == (Opponent(Unit("france", UnitType.FLEET, "eng"), 2),)
    assert why.retreats == ("hel", "nwy") and not why.disbanded
    report = public_report(STANDARD, outcome, "demo")
    assert "F North Sea H  [dislodged by F English Channel (2 vs 1), may retreat to Helgoland Bight, Norway]" \
        in report


def test_a_void_order_gives_the_rule_that_voided_it() -> None:
    state = position({"A par": "france"})
    outcome = adjudicate_text(STANDARD, state, "France: A par - mun")
    why = line_of(outcome, "A par").why
    assert why is not None and why.kind is WhyKind.VOID and "Paris does not border Munich" in why.rule
    assert not why.disbanded
    assert "A Paris - Munich (Invalid)  [Paris does not border Munich]" in public_report(STANDARD, outcome, "demo")


def test_a_move_written_plainly_is_not_published_via_convoy() -> None:
    state = position({"A apu": "italy", "F ion": "italy"}, Phase(1901, "fall", "movement"))
    outcome = adjudicate_text(STANDARD, state, "Italy:\nA apu - tun\nF ion C A apu - tun")
    report = public_report(STANDARD, outcome, "demo")
    assert "A Apulia - Tunis  [moved]" in report
    assert "via convoy" not in report


def test_the_why_is_in_the_html_and_private_reports() -> None:
    outcome = spring_1901()
    html = public_report(STANDARD, outcome, "demo", html=True)
    assert "A Vienna - Galicia <em>[bounced: 1 vs A Warsaw 1]</em>" in html
    private = private_report(STANDARD, outcome, "demo", "austria")
    assert "A Vienna - Galicia  [bounced: 1 vs A Warsaw 1]" in private.split("Your orders")[1].split("\n\n")[0]


def test_the_gm_can_switch_the_why_off() -> None:
    outcome = spring_1901()
    for report in (public_report(STANDARD, outcome, "demo", why=False),
                   private_report(STANDARD, outcome, "demo", "austria", why=False)):
        assert "A Vienna - Galicia  [bounced]" in report
        assert "vs A Warsaw" not in report
    html = public_report(STANDARD, outcome, "demo", html=True, why=False)
    assert "A Vienna - Galicia <em>[bounced]</em>" in html
