"""The library's front door for one Diplomacy phase: text in, outcome out."""

from __future__ import annotations

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.outcome import PhaseOutcome
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.progress import advance
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.turn import adjudicate_movement
from adjudicator.diplomacy.variant import Variant


def adjudicate_lines(variant: Variant, state: GameState, lines: list[ParsedLine]) -> PhaseOutcome:
    # Retreats and adjustments are imported when such a phase comes: a
    # movement phase (most runs) does not load them, which keeps `adjudicate`'s start-up short.
    kind = state.phase.kind
    if kind == "movement":
        outcome = adjudicate_movement(variant, state, lines)
    elif kind == "retreat":
        from adjudicator.diplomacy.retreats import adjudicate_retreats
        outcome = adjudicate_retreats(variant, state, lines)
    else:
        from adjudicator.diplomacy.adjustments import adjudicate_adjustments
        outcome = adjudicate_adjustments(variant, state, lines)
    advance(variant, outcome)
    return outcome


def adjudicate_text(variant: Variant, state: GameState, text: str) -> PhaseOutcome:
    return adjudicate_lines(variant, state, parser_for(variant).parse_text(text))
