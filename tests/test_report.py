"""Issue 12 item 4: complete reports. Centre ownership by power with this
year's changes marked, the units after the phase, builds and disbands only
where they apply, NMR stated once, the HTML carrying all of the text, and a
closing line that says what comes next and by when."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.output.report import private_report, public_report
from adjudicator.rules import load_variant

ROOT = Path(__file__).resolve().parent.parent
STANDARD = load_variant("standard")
AE = load_variant("ambition-empire")
DEADLINE = "Monday 12 May 2025, 18:00 UTC"


def play(variant, names: list[str], folder: str, missed: list[str] | None = None) -> list[PhaseOutcome]:
    state = initial_state(variant)
    outcomes = []
    for name in names:
        outcome = adjudicate_text(variant, state, (ROOT / "orders" / folder / f"{name}.txt").read_text(encoding="utf-8"))
        outcomes.append(outcome)
        state = outcome.next_state
    return outcomes


def standard_year() -> list[PhaseOutcome]:
    return play(STANDARD, ["1901-spring", "1901-fall", "1901-winter"], "standard")


def test_builds_only_where_they_apply() -> None:
    spring, fall, winter = standard_year()
    assert "builds" not in public_report(STANDARD, spring, "demo")
    assert re.search(r"France .* builds 3", public_report(STANDARD, fall, "demo"))
    assert "builds" not in public_report(STANDARD, winter, "demo")


def test_centres_by_power_with_this_years_changes_marked() -> None:
    _, fall, _ = standard_year()
    report = public_report(STANDARD, fall, "demo")
    assert "France: Belgium*, Brest, Marseilles, Paris, Portugal*, Spain*" in report
    assert "* taken this year" in report


def test_the_units_after_the_phase() -> None:
    spring, _, _ = standard_year()
    report = public_report(STANDARD, spring, "demo")
    section = report.split("Units after Spring 1901")[1]
    assert "Austria: A Galicia" not in section      # Vienna bounced
    assert "Austria: F Albania, A Serbia, A Vienna" in section


def test_nmr_is_stated_once_and_not_listed_as_orders() -> None:
    text = (ROOT / "orders" / "standard" / "1901-spring.txt").read_text(encoding="utf-8")
    text = text.split("Italy:")[0] + "Russia:" + text.split("Russia:")[1]        # Italy sends nothing
    outcome = adjudicate_text(STANDARD, initial_state(STANDARD), text)
    outcome.missed = ["italy"]
    report = public_report(STANDARD, outcome, "demo")
    assert report.count("Italy") >= 1
    assert report.count("No orders were received from Italy") == 1
    assert "A Venice H" not in report.split("Supply centres")[0]
    assert "civil-disorder defaults" not in report
    private = private_report(STANDARD, outcome, "demo", "italy")
    mine = private.split("Your orders")[1].split("\n\n")[0]
    assert "A Venice H" not in mine and "No orders were received from you" in mine


def test_the_html_carries_all_of_the_text_report() -> None:
    _, fall, _ = standard_year()
    fall.missed = ["italy"]
    text = public_report(STANDARD, fall, "demo", deadline=DEADLINE)
    html = public_report(STANDARD, fall, "demo", deadline=DEADLINE, html=True)
    for needed in ("No orders were received from Italy", "Belgium: nobody -&gt; France", DEADLINE,
                   "France: Belgium*, Brest", "Units after Fall 1901", "builds 3"):
        plain = needed.replace("&gt;", ">")
        assert plain in text, plain
        assert needed in html, needed
    assert "[]" not in html


def test_the_closing_line_says_what_comes_next_and_by_when() -> None:
    spring, fall, winter = standard_year()
    assert (f"Next: Fall 1901 Movement. Orders are due by {DEADLINE}."
            in public_report(STANDARD, spring, "demo", deadline=DEADLINE))
    assert ("Next: Winter 1901 Adjustment: builds and disbands as the table shows. "
            f"Orders are due by {DEADLINE}." in public_report(STANDARD, fall, "demo", deadline=DEADLINE))
    assert "Next: Spring 1902 Movement." in public_report(STANDARD, winter, "demo")


def test_ae_wording() -> None:
    (spring,) = play(AE, ["1763-spring"], "ambition-empire")
    report = public_report(AE, spring, "demo")
    # One minor disbandment, one wording.
    assert "The Savoy (& Sardinia) unit A Savoy was dislodged by a Great Power and is disbanded." in report
    assert "with nowhere to retreat" not in report
    assert "[]" not in public_report(AE, spring, "demo", html=True)


def winter_with_silent(power_heading: str, state_edit=None):
    """Winter 1901 after the sample year, with one power sending nothing."""
    _, fall, _ = standard_year()
    state = fall.next_state
    if state_edit is not None:
        state = state_edit(state)
    text = (ROOT / "orders" / "standard" / "1901-winter.txt").read_text(encoding="utf-8")
    kept, skipping = [], False
    for line in text.splitlines():
        if line.endswith(":"):
            skipping = line == power_heading
        if not skipping:
            kept.append(line)
    return adjudicate_text(STANDARD, state, "\n".join(kept) + "\n")


def test_winter_nmr_waived_builds_are_one_sentence() -> None:
    outcome = winter_with_silent("Germany:")
    assert outcome.missed == ["germany"]
    orders = public_report(STANDARD, outcome, "demo").split("Supply centres")[0]
    germany = orders.split("Germany:\n")[1].split("Italy:")[0]
    assert germany.strip() == "No orders were received from Germany; its 2 builds are waived."
    private = private_report(STANDARD, outcome, "demo", "germany").split("Your orders")[1].split("\n\n")[0]
    assert private.strip().splitlines()[-1].strip() == "No orders were received from you; your 2 builds are waived."
    assert "unused" not in private


def test_winter_nmr_civil_disorder_disbands_are_named_once() -> None:
    def lose_centres(state):
        after = state.copy()
        for centre in ("den", "hol", "ber"):
            after.centres[centre] = "russia"       # Germany: 2 centres, 3 units -> 1 disband
        return after
    outcome = winter_with_silent("Germany:", lose_centres)
    orders = public_report(STANDARD, outcome, "demo").split("Supply centres")[0]
    germany = orders.split("Germany:\n")[1].split("Italy:")[0]
    lines = [l.strip() for l in germany.strip().splitlines()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("No orders were received from Germany; civil disorder disbands ")
    assert "[disbanded" not in germany
