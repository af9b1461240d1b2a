"""From one phase to the next: skip phases with nothing to do, change centre
ownership after the last movement season of the year, note who controls the
other land, check victory."""

from __future__ import annotations

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant


def update_ownership(variant: Variant, before: GameState, after: GameState, outcome: PhaseOutcome) -> None:
    changes: dict[str, str] = {}
    for centre in sorted(variant.map.supply_centres):
        unit = after.units.get(centre)
        if unit is not None and after.centres.get(centre) != unit.power:
            outcome.centre_changes.append((centre, after.centres.get(centre), unit.power))
            changes[centre] = unit.power
    after.centres.update(changes)
    outcome.notes += variant.rules.after_ownership(variant, before, after, changes)


def update_control(variant: Variant, after: GameState) -> None:
    """Land that is no supply centre passes to the power whose unit stands
    there at the end of the phase and stays its until another power's does
    (as the board and webDiplomacy colour it). Centres change hands only
    with their ownership, above."""
    graph = variant.map
    for province, unit in after.units.items():
        if province not in graph.supply_centres and graph.provinces[province].terrain != "sea":
            after.control[province] = unit.power


def needs_adjustment(variant: Variant, state: GameState) -> bool:
    from adjudicator.diplomacy.adjustments import adjustment_counts
    rules = variant.rules
    if any(a.delta < 0 for a in adjustment_counts(variant, state)):
        return True
    return any(a.delta > 0 and rules.build_sites(variant, state, a.power) for a in adjustment_counts(variant, state))


def advance(variant: Variant, outcome: PhaseOutcome) -> GameState:
    """Set the phase of outcome.next_state to the next phase with work to do."""
    after = outcome.next_state
    update_control(variant, after)
    phase = outcome.phase
    seasons = variant.seasons
    last_season = seasons[-1]
    if phase.kind == "movement" and after.dislodged:
        after.phase = Phase(phase.year, phase.season, "retreat")
        return after
    if phase.kind in ("movement", "retreat"):
        if phase.season != last_season:
            after.phase = Phase(phase.year, seasons[seasons.index(phase.season) + 1], "movement")
            return after
        update_ownership(variant, outcome.state_before, after, outcome)
        winner = variant.rules.victory(variant, after)
        if winner is not None:
            outcome.winner = winner
            after.result = {"winner": winner, "centres": len(after.centres_of(winner)),
                            "phase": str(phase)}
            after.phase = Phase(phase.year, "winter", "adjustment")
            return after
        if needs_adjustment(variant, after):
            after.phase = Phase(phase.year, "winter", "adjustment")
            return after
    after.phase = Phase(phase.year + 1, seasons[0], "movement")
    return after
