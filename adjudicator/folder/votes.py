"""Draw and concession votes, secret until unanimous (as DPjudge does).

A surviving power votes `draw` (shared by every survivor), `draw POWER ...`
(a partial draw among the named survivors, where game.yaml allows it with
`partial_draws: true`), `concede POWER`, or `none` to withdraw. Votes are kept
in gm/votes.yaml, which only the GM reads; no report or mail mentions a vote
until every survivor agrees. Then the game ends with that result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError
from adjudicator.store import storage

VOTES = Path("gm") / "votes.yaml"


def read_votes(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / VOTES
    data = storage.read_yaml(path) if path.exists() else {}
    return dict(data) if isinstance(data, dict) else {}


def parse_vote(variant: Variant, state: GameState, words: list[str], partial_ok: bool) -> dict[str, Any] | None:
    """A vote from its words; None withdraws. Errors say what may be written."""
    survivors = variant.rules.survivors(variant, state)
    usage = "vote draw | vote draw POWER POWER ... | vote concede POWER | vote none"
    if not words:
        raise AdjudicatorError("an empty vote", hint=usage)
    kind, rest = words[0].lower(), words[1:]

    def power(text: str) -> str:
        pid = variant.power_lookup(text)
        if pid is None or pid not in survivors:
            raise AdjudicatorError(f"{text!r} is not a surviving power",
                                   hint="survivors: " + ", ".join(variant.power_name(p) for p in survivors))
        return pid
    if kind in ("none", "withdraw") and not rest:
        return None
    if kind == "draw":
        named = sorted({power(w) for w in rest})
        if named and set(named) != set(survivors) and not partial_ok:
            raise AdjudicatorError("this game allows only a draw shared by every survivor",
                                   hint="vote 'draw' alone; the GM may allow partial draws in game.yaml")
        return {"vote": "draw", "with": named or sorted(survivors)}
    if kind == "concede" and len(rest) == 1:
        return {"vote": "concede", "to": power(rest[0])}
    raise AdjudicatorError(f"not a vote: {' '.join(words)!r}", hint=usage)


def unanimous(variant: Variant, state: GameState, votes: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The result every survivor agrees on, or None. A power conceded to need not vote."""
    survivors = variant.rules.survivors(variant, state)
    if not survivors:
        return None
    draws = {tuple(votes[p]["with"]) for p in survivors if votes.get(p, {}).get("vote") == "draw"}
    if len(draws) == 1 and all(votes.get(p, {}).get("vote") == "draw" for p in survivors):
        return {"draw": list(next(iter(draws))), "phase": str(state.phase)}
    for winner in survivors:
        others = [p for p in survivors if p != winner]
        if others and all(votes.get(p) == {"vote": "concede", "to": winner} for p in others):
            return {"winner": winner, "conceded": True, "phase": str(state.phase)}
    return None


def cast(folder: Path, variant: Variant, state: GameState, power: str, words: list[str],
         partial_ok: bool) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Record `power`'s vote; returns the new votes and the unanimous result, if any.
    The caller writes gm/votes.yaml (and ends the game on a result)."""
    if power not in variant.rules.survivors(variant, state):
        raise AdjudicatorError(f"{variant.power_name(power)} has no units or centres left and cannot vote")
    votes = read_votes(folder)
    vote = parse_vote(variant, state, words, partial_ok)
    if vote is None:
        votes.pop(power, None)
    else:
        votes[power] = vote
    return votes, unanimous(variant, state, votes)
