"""Notices of what the judge did for a player who did not: a power that sent
no orders (NMR), units disbanded by default, builds waived, a power put in
civil disorder; and the one line the GM gets when a power reaches the
schedule's `missed_limit`.

Each notice is a sentence in the second person that names the game and the
phase ("No orders came from you for Spring 1901 Movement in pbem; your units
held."). They are made when the phase is adjudicated, from the typed results
(the states before and after, the adjustment counts, the powers that sent
nothing, the orders each power gave), never from a report's text, and land
with the phase as mail/notices/<phase>/<what>.yaml:

    players: {france: ["No orders came from you ..."]}
    gm: ["France has missed 2 phases in a row ..."]

`run` mails each file once (adjudicator.mail.outbox)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.orders import Disband, Retreat, Waive
from adjudicator.store.owed import notices_path

__all__ = ["civil_disorder_notices", "notices_path", "phase_notices"]

if TYPE_CHECKING:
    from adjudicator.diplomacy.lines import ParsedLine
    from adjudicator.diplomacy.model import Unit
    from adjudicator.diplomacy.outcome import PhaseOutcome
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _units(variant: Variant, units: list[Unit]) -> str:
    return _listed([variant.map.unit_name(u) for u in sorted(units, key=lambda u: u.location)])


def _given(lines: list[ParsedLine], refused: set[int], power: str, kind: type | tuple[type, ...]) -> list[Any]:
    """The orders of one kind that a power gave and that order something (not `refused`)."""
    return [line.order for line in lines
            if line.power == power and line.number not in refused and isinstance(line.order, kind)]


def player_notices(variant: Variant, state: GameState, lines: list[ParsedLine], outcome: PhaseOutcome,
                   game: str) -> dict[str, list[str]]:
    """Power -> the notices of what was done for it by default this phase."""
    phase = f"{state.phase} in {game}"
    after = outcome.next_state
    missed = set(outcome.missed)
    notices: dict[str, list[str]] = {}
    kind = state.phase.kind
    refused = outcome.refused()
    for power in variant.powers:
        said: list[str] = []
        if kind == "movement":
            if power in missed:
                said.append(f"No orders came from you for {phase}; your units held.")
        elif kind == "retreat":
            ordered = {order.province for order in _given(lines, refused, power, (Retreat, Disband))}
            left = [d.unit for prov, d in sorted(state.dislodged.items())
                    if d.unit.power == power and prov not in ordered]
            if left:
                head = "No orders came from you" if power in missed else "You gave no retreat order"
                said.append(f"{head} for {phase}; your dislodged {_units(variant, left)} "
                            f"{'was' if len(left) == 1 else 'were'} disbanded.")
        else:
            said += adjustment_notices(variant, state, after, lines, refused, power, phase, power in missed)
        if said:
            notices[power] = said
    return notices


def adjustment_notices(variant: Variant, state: GameState, after: GameState, lines: list[ParsedLine],
                       refused: set[int], power: str, phase: str, silent: bool) -> list[str]:
    """Builds waived and units disbanded by default, for one power."""
    owed = len(state.centres_of(power)) - len(state.units_of(power))
    head = "No orders came from you" if silent else "Your orders"
    if owed > 0:
        possible = min(owed, len(variant.rules.build_sites(variant, state, power)))
        built = len(after.units_of(power)) - len(state.units_of(power))
        waived = possible - built - len(_given(lines, refused, power, Waive))
        if possible > 0 and waived > 0:
            what = f"{waived} build{'' if waived == 1 else 's'}"
            return [f"{head} for {phase} left {what} unused; {'it was' if waived == 1 else 'they were'} waived."
                    if not silent else f"{head} for {phase}; your {what} {'was' if waived == 1 else 'were'} waived."]
    elif owed < 0:
        ordered = {order.province for order in _given(lines, refused, power, Disband)}
        gone = {u.province: u for u in state.units_of(power)}
        for unit in after.units_of(power):
            gone.pop(unit.province, None)
        by_default = [unit for prov, unit in gone.items() if prov not in ordered]
        if by_default:
            return [(f"{head} for {phase}{'' if silent else ' disbanded too few units'}; the rules disbanded "
                    f"your {_units(variant, by_default)} (civil disorder).")]
    return []


def gm_notices(variant: Variant, outcome: PhaseOutcome, game: str, limit: int,
               players: dict[str, str]) -> list[str]:
    """A line for the GM about each power that has just reached `limit` phases missed in a row."""
    lines = []
    for power, count in sorted(outcome.next_state.missed.items()):
        if count == limit and count > outcome.state_before.missed.get(power, 0):
            who = f" ({players[power]})" if players.get(power) else ""
            what = (f"or declare civil disorder: 'adjudicator civil-disorder {game} {power}'"
                    if variant.rules.civil_disorder is not None else "or let it go on NMR")
            lines.append(f"{variant.power_name(power)}{who} has missed {count} phases in a row in {game}, "
                         f"the last {outcome.phase}. Hand it on with 'adjudicator player replace {game} "
                         f"{power} --name ... --email ...', {what}.")
    return lines


def phase_notices(variant: Variant, state: GameState, lines: list[ParsedLine], outcome: PhaseOutcome,
                  game: str, limit: int, players: dict[str, str]) -> dict[str, Any]:
    """The notices file of one phase: {players: {power: [...]}, gm: [...]}, or {} if there are none."""
    out: dict[str, Any] = {}
    mine = player_notices(variant, state, lines, outcome, game)
    if mine:
        out["players"] = mine
    gm = gm_notices(variant, outcome, game, limit, players)
    if gm:
        out["gm"] = gm
    return out


def civil_disorder_notices(variant: Variant, state: GameState, power: str, game: str) -> dict[str, Any]:
    """The notice to a power the GM has put in civil disorder."""
    return {"players": {power: [(f"The GM has put {variant.power_name(power)} in civil disorder in {game}, "
                                f"{state.phase}: you no longer play it, and it takes no orders.")]}}
