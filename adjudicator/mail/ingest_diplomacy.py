"""A Diplomacy game's mail (adjudicator.mail.ingest reads every game's): the
body split into password, orders and what was left out (an order is never
taken for a password); the player's word for the phase ('Fall 1901',
'1901-fall-movement'); a mail that orders for another power refused whole;
'vote' lines; and the orders stored with their reply
(adjudicator.mail.orderreply). Turn-file games' mail is
adjudicator.mail.ingest_turns."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.orders import Build, Order, Waive
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.validation import bind_unit
from adjudicator.diplomacy.variant import Variant
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.folder import votes
from adjudicator.folder.gamefolder import history_files, load_current, read_game
from adjudicator.folder.orderset import take_set_words
from adjudicator.mail.intake import Context, Rejected, Verdict, phase_opened
from adjudicator.mail.mailread import Body, Letter, split_lines
from adjudicator.mail.orderreply import take_orders
from adjudicator.mail.playerlines import is_order_line

ORDER_WORDS = {"a", "f", "army", "fleet", "build", "b", "disband", "d", "retreat", "r", "remove", "waive",
               "-", "->", "=>", "s", "h", "c", "support", "supports", "hold", "holds", "convoy", "convoys"}
SEASON_WORDS = {"spring": "spring", "summer": "summer", "fall": "fall", "autumn": "fall", "winter": "winter"}
KIND_WORDS = {"movement": "movement", "moves": "movement", "retreat": "retreat", "retreats": "retreat",
              "adjustment": "adjustment", "adjustments": "adjustment", "builds": "adjustment"}


def looks_like_order(line: str, variant: Variant) -> bool:
    words = re.split(r"[\s,]+", line.strip().lower())
    if words[0] in ORDER_WORDS and len(words) > 1 or any(w in ORDER_WORDS - {"a", "b", "d", "r", "f"} for w in words):
        return True
    head = re.match(r"^\s*([^:]+):", line)
    return bool(head and variant.power_lookup(head.group(1)) is not None) or \
        variant.power_lookup(line.strip()) is not None or re.search(r"\d\s*dp\b", line, re.IGNORECASE) is not None


def split_body(body: str, variant: Variant, power: str | None = None) -> Body:
    """The password, the orders text and what was left out, line by line. An
    order (read as `power`'s, any power's if None) is never taken for a password."""
    own = power or next(iter(variant.powers))
    return split_lines(body, lambda line: looks_like_order(line, variant),
                       lambda line: is_order_line(line, variant, own))


def unit_owner(state: GameState, order: Order) -> str | None:
    """Who owns the unit an order is for (None: no such unit, or not unit-bound)."""
    if isinstance(order, (Build, Waive)):
        return None
    pool = {p: d.unit for p, d in state.dislodged.items()} if state.phase.kind == "retreat" else state.units
    unit = pool.get(order.province)
    return unit.power if unit is not None else None


def foreign_lines(variant: Variant, state: GameState, lines: list[ParsedLine], power: str) -> list[str]:
    """Lines that order for another power: reasons to reject the whole message."""
    problems = []
    for line in lines:
        if line.power is not None and line.power != power:
            problems.append(f"line {line.number}: {line.text}: this is for {variant.power_name(line.power)}, "
                            f"not {variant.power_name(power)}")
            continue
        order = line.order
        if line.error is not None or not isinstance(order, Order) or variant.rules.is_allocation(line):
            continue   # an allocation (A&E's DP lines) orders another power's unit by design
        owner = unit_owner(state, order)
        if owner is not None and owner != power:
            bound = bind_unit(state, order, dislodged=state.phase.kind == "retreat")
            why = bound.message if isinstance(bound, OrderError) else \
                f"the unit in {order.province} belongs to {variant.power_name(owner)}"
            problems.append(f"line {line.number}: {line.text}: {why}")
    return problems


def diplomacy_phase(text: str) -> tuple[int, str, str | None] | None:
    """(year, season, kind or None) from '1901-fall-movement', 'Fall 1901 Movement' or 'autumn 1901'."""
    words = re.split(r"[\s\-_/,]+", text.strip().lower())
    years = [int(w) for w in words if w.isdigit() and len(w) <= 5]
    seasons = [SEASON_WORDS[w] for w in words if w in SEASON_WORDS]
    kinds = [KIND_WORDS[w] for w in words if w in KIND_WORDS]
    if len(years) != 1 or len(seasons) != 1 or len(kinds) > 1 or len(words) != 2 + len(kinds):
        return None
    return years[0], seasons[0], kinds[0] if kinds else None


@dataclass
class DiplomacyContext(Context):
    variant: Variant
    state: GameState
    adjudicated: list[Phase]
    partial_draws: bool = False

    def split(self, text: str) -> Body:
        return split_body(text, self.variant)

    def phase_named(self, text: str) -> str | None:
        said = diplomacy_phase(text)
        if said is None:
            return None
        year, season, kind = said
        # Without a kind, 'Fall 1901' means the current phase if it is that season, else the last one done.
        for phase in [self.state.phase, *reversed(self.adjudicated)]:
            if (phase.year, phase.season) == (year, season) and kind in (None, phase.kind):
                return phase.slug
        return Phase(year, season, kind or "movement").slug

    def done(self, slug: str) -> bool:
        return any(p.slug == slug for p in self.adjudicated)

    def decide(self, letter: Letter, power: str, body: Body, verdict: Verdict) -> None:
        variant, state = self.variant, self.state
        body.text, said = take_votes(body.text)
        if said:
            self.vote(power, said, verdict)
            if not body.text.strip():
                return
        text, words = take_set_words(body.text)
        parsed = parser_for(variant).parse_text(text, power)
        foreign = foreign_lines(variant, state, parsed, power)
        if foreign:
            raise Rejected("these lines order for another power, so none of your orders were stored:\n  "
                           + "\n  ".join(foreign))
        if not parsed and not words:
            raise Rejected("the message has no orders")
        taken = take_orders(self.folder, variant, state, power, text, words, letter.sender, letter.date)
        verdict.stored, verdict.target = taken.stored, taken.target
        verdict.errors = taken.errors + body.problems
        verdict.body = taken.reply + ("\n" + "\n".join(body.problems) + "\n" if body.problems else "") \
            + verdict.body

    def vote(self, power: str, said: list[str], verdict: Verdict) -> None:
        """A 'vote draw' / 'vote concede POWER' / 'vote none' line: secret until unanimous."""
        try:
            tally, result = votes.cast(self.folder, self.variant, self.state, power, said,
                                       bool(self.partial_draws))
        except AdjudicatorError as exc:
            raise Rejected(f"vote {' '.join(said)}: {exc.message}" + (f" ({exc.hint})" if exc.hint else "")) \
                from None
        verdict.votes, verdict.ended = tally, result
        verdict.body = ("Your vote is recorded. Votes stay secret until every surviving power agrees.\n"
                        if result is None else "Your vote made it unanimous: the game is over.\n")


def take_votes(text: str) -> tuple[str, list[str]]:
    """The text without its last vote line (kept blank, so line numbers hold), and that vote's words."""
    said: list[str] = []
    lines = text.split("\n")
    for number, line in enumerate(lines):
        words = line.split()
        if words and words[0].lower() == "vote":
            said, lines[number] = words[1:], ""
    return "\n".join(lines), said


def diplomacy_context(folder: Path, game: str, entries: dict[str, dict[str, Any]]) -> DiplomacyContext:
    _, variant, state, _ = load_current(folder)
    if state.result:
        raise AdjudicatorError("the game is over; no orders are taken", file=str(folder))
    adjudicated = [phase for phase, _ in history_files(folder)[:-1]]
    partial = bool(read_game(folder).get("partial_draws"))
    return DiplomacyContext(folder, game, phase_opened(folder), entries, str(state.phase), state.phase.slug,
                            variant, state, adjudicated, partial)
