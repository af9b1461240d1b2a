"""A power's orders for the current phase, kept as njudge keeps them: the set
grows and changes mail by mail, and the judge knows when it is complete.

The set lives in orders/<phase>/<power>.txt, which `adjudicate` reads as it
reads any orders text:

    # from france@example.org, 2024-01-01T10:05:00Z     the latest mail taken
    # ready: counted in as it stands                     (or '# wait: ...'), only if the player said so
    A par - bur                                          one order a line, as the player wrote it
    F bre - mao
    # not accepted: A mar - xyzzy                        the latest mail's lines that could not be used

The rules (docs/mail.md says them to players):

  * A later mail replaces the orders of the units it names and keeps the
    others. A unit is named by the order's unit (a retreat or disband too); in
    an adjustment phase a build by its province, and a waive is one more
    waive. A line that cannot be used (it cannot be read, or names no unit
    of yours) changes nothing, and the unit keeps the order it had.
  * Builds, waives and disbands never go past what is owed: the newest are
    kept, and the oldest go.
  * A line `clear` (or `replace`) anywhere in a mail starts the set afresh:
    the mail's orders are the whole set (`clear` alone empties it).
  * `ready` says the set is complete as it stands (units without an order
    hold, unused builds are waived); `wait` asks the judge not to process the
    phase before the deadline. Each holds until the other is sent, or `clear`.

A power is "in" when it said `ready`, or when every unit it must order
(every dislodged unit in a retreat phase, every build or disband it owes,
as far as it has sites to build on) has a valid order and it did not say
`wait`. An order that is void (the rules forbid it) is not a valid order."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.folder.gamefolder import MAX_ORDERS_BYTES, run_phase
from adjudicator.store import storage

if TYPE_CHECKING:
    from adjudicator.diplomacy.lines import ParsedLine
    from adjudicator.diplomacy.orders import AnyOrder
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

FRESH_WORDS = frozenset({"clear", "replace"})
FLAG_WORDS = frozenset({"ready", "wait"})
SET_WORDS = FRESH_WORDS | FLAG_WORDS
FLAG_LINES = {"ready": "# ready: counted in as it stands (the player said so)",
              "wait": "# wait: not processed before the deadline (the player said so)"}
REFUSED = "# not accepted: "
STAMP = "# from "
LINE_NUMBER = re.compile(r"^line \d+: ")


@dataclass
class OrderSet:
    """A power's stored set: its order lines, the player's word on it, and
    what the latest mail could not use."""
    lines: list[str] = field(default_factory=list)
    flag: str | None = None                       # "ready", "wait" or None
    stamp: str = ""                               # '# from <sender>, <date>' of the latest mail
    refused: list[str] = field(default_factory=list)

    def text(self) -> str:
        head = [self.stamp] if self.stamp else []
        if self.flag in FLAG_LINES:
            head.append(FLAG_LINES[self.flag])
        body = self.lines + [REFUSED + line for line in self.refused]
        return "\n".join(head + body) + "\n"


@dataclass
class SetWords:
    """What a mail says about its set besides orders."""
    fresh: bool = False                           # 'clear' or 'replace'
    flag: str | None = None                       # the last 'ready' or 'wait'

    def __bool__(self) -> bool:
        return self.fresh or self.flag is not None


@dataclass
class Readiness:
    """Whether a power is in, and what it still lacks."""
    is_in: bool
    complete: bool                                # every unit (build, disband, retreat) has a valid order
    missing: list[str]                            # 'A Marseilles has no order', '1 build or waive'
    flag: str | None = None


def set_path(folder: Path, phase_slug: str, power: str) -> Path:
    return folder / "orders" / phase_slug / f"{power}.txt"


def read_set(path: Path) -> OrderSet | None:
    """The stored set, or None if there is none. A file the GM put there by
    hand (plain orders, comments) reads as its order lines."""
    if not path.exists():
        return None
    found = OrderSet()
    for raw in storage.read_text(path, max_bytes=MAX_ORDERS_BYTES, what="orders file").split("\n"):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(STAMP) and not found.stamp and not found.lines:
            found.stamp = line
        elif line in FLAG_LINES.values():
            found.flag = next(word for word, text in FLAG_LINES.items() if text == line)
        elif line.startswith(REFUSED):
            found.refused.append(line[len(REFUSED):])
        elif not line.startswith("#"):
            found.lines.append(line)
    return found


def take_set_words(text: str) -> tuple[str, SetWords]:
    """The text with each 'clear', 'replace', 'ready' and 'wait' line blanked
    (so line numbers hold), and what they said."""
    words = SetWords()
    lines = text.split("\n")
    for number, line in enumerate(lines):
        word = line.strip().lower()
        if word in FRESH_WORDS:
            words.fresh, lines[number] = True, ""
        elif word in FLAG_WORDS:
            words.flag, lines[number] = word, ""
    return "\n".join(lines), words


def is_dp_line(variant: Variant, line: ParsedLine) -> bool:
    """A line that allocates rather than orders (Ambition & Empire's Diplomacy
    Points): it orders a minor power's unit on the power's behalf. The rule set says."""
    return variant.rules.is_allocation(line)


def is_usable(line: ParsedLine, refused: set[int]) -> bool:
    """The line gave an order the judge can use (a void one included: the
    report says why it failed): read, and not refused by the phase
    (PhaseOutcome.refused). The one place a line's verdict is read."""
    return line.order is not None and line.number not in refused


def order_key(variant: Variant, line: ParsedLine, waives: list[int]) -> tuple[str, str]:
    """What an order line is for: its unit, a build's province, one more waive."""
    order = line.order
    assert order is not None
    if not order.province:                  # a waive names no province: each is one more
        waives[0] += 1
        return "waive", str(waives[0])
    if is_dp_line(variant, line):
        return "dp", order.province
    return "unit", order.province           # a build is keyed by its province, as a unit is


def merge(variant: Variant, state: GameState, power: str, old: OrderSet | None, text: str,
          words: SetWords, stamp: str) -> OrderSet:
    """The set after a mail: its usable lines replace the old orders for the
    same units, the others stay (none if the mail said 'clear')."""
    lines, outcome = run_phase(variant, state, text, power)
    refused = outcome.refused()
    keep = OrderSet(stamp=stamp, flag=old.flag if old is not None and not words.fresh else None)
    if words.flag is not None:
        keep.flag = words.flag
    entries: dict[tuple[str, str], tuple[str, ParsedLine, bool]] = {}
    if old is not None and not words.fresh:
        old_lines, _ = run_phase(variant, state, "\n".join(old.lines), power)
        waives = [0]
        for line in old_lines:
            if line.order is not None:
                entries[order_key(variant, line, waives)] = (old.lines[line.number - 1], line, False)
    waives = [sum(1 for key in entries if key[0] == "waive")]
    for line in lines:
        if is_usable(line, refused) and line.power in (None, power):      # a set holds one power's orders
            entries[order_key(variant, line, waives)] = (order_text(line), line, True)
        elif line.number in refused:
            keep.refused.append(line.text)
    kept = trim_adjustments(variant, state, power, list(entries.values()))
    keep.lines = [raw for raw, _, _ in kept]
    return keep


def order_text(line: ParsedLine) -> str:
    """The line as the player wrote it, without a comment."""
    return line.text.split("#", 1)[0].strip()


def winter_count(order: AnyOrder | None) -> int:
    """What a line's order counts for against a winter's owed builds (> 0)
    or disbands (< 0); a line the parser could not read counts for nothing."""
    return order.winter_count() if order is not None else 0


def trim_adjustments(variant: Variant, state: GameState, power: str,
                     entries: list[tuple[str, ParsedLine, bool]]) -> list[tuple[str, ParsedLine, bool]]:
    """At most as many builds and waives, or disbands, as the power owes: the
    newest are kept (this mail's first, then the latest of the old ones)."""
    if state.phase.kind != "adjustment":
        return entries
    owed = owed_count(variant, state, power)
    builds = [e for e in entries if winter_count(e[1].order) > 0]
    disbands = [e for e in entries if winter_count(e[1].order) < 0]
    drop: list[tuple[str, ParsedLine, bool]] = []
    for group, limit in ((builds, max(owed, 0)), (disbands, max(-owed, 0))):
        newest_first = sorted(group, key=lambda e: (not e[2], -group.index(e)))
        drop += newest_first[limit:]
    return [e for e in entries if e not in drop]


def owed_count(variant: Variant, state: GameState, power: str) -> int:
    """Builds (positive) or disbands (negative) the power owes this winter
    (as diplomacy.adjustments counts them: centres less units)."""
    if power not in variant.rules.playing_powers(variant, state):
        return 0
    return len(state.centres_of(power)) - len(state.units_of(power))


def readiness(variant: Variant, state: GameState, power: str, held: OrderSet | None) -> Readiness:
    """Whether `power` is in (see the module docstring), and what it lacks."""
    if held is None or not held.lines:
        # Nothing to check: `status` of a phase with no orders yet never loads the engine.
        lines: list[ParsedLine] = []
        void: dict[int, object] = {}
        refused: set[int] = set()
    else:
        from adjudicator.folder.checking import void_lines
        lines, outcome = run_phase(variant, state, "\n".join(held.lines), power)
        void = dict(void_lines(variant, lines, outcome))
        refused = outcome.refused()
    own = [line for line in lines
           if is_usable(line, refused) and not is_dp_line(variant, line) and line.power in (None, power)]
    valid = [line.order for line in own if line.number not in void]
    ordered = {order.province for order in valid if order is not None}
    voided = {line.order.province for line in own if line.number in void and line.order is not None}
    graph = variant.map

    def lacks(name: str, province: str) -> str:
        return f"{name}: its order is void" if province in voided else f"{name} has no order"

    missing: list[str] = []
    kind = state.phase.kind
    if kind == "movement":
        missing = [lacks(graph.unit_name(u), u.province) for u in sorted(state.units_of(power),
                                                                          key=lambda u: u.province)
                   if u.province not in ordered]
    elif kind == "retreat":
        missing = [lacks(f"dislodged {graph.unit_name(d.unit)}", prov) for prov, d in sorted(state.dislodged.items())
                   if d.unit.power == power and prov not in ordered]
    else:
        owed = owed_count(variant, state, power)
        if owed > 0:
            need = min(owed, len(variant.rules.build_sites(variant, state, power)))
            have = sum(1 for order in valid if winter_count(order) > 0)
            if have < need:
                plural = "s" if need - have > 1 else ""
                missing = [f"{need - have} more build{plural} or waive{plural}"]
        elif owed < 0:
            have = sum(1 for order in valid if winter_count(order) < 0)
            if have < -owed:
                missing = [f"{-owed - have} more disband{'s' if -owed - have > 1 else ''}"]
    flag = held.flag if held else None
    complete = not missing
    return Readiness(flag == "ready" or (complete and flag != "wait"), complete, missing, flag)


def shown_set(variant: Variant, state: GameState, power: str, held: OrderSet) -> list[str]:
    """The set as the judge holds it, one order a line, normalised, with each
    void order's reason and each warning."""
    from adjudicator.folder.checking import check_lines
    if not held.lines:
        return ["(no orders)"]
    echo, _, _ = check_lines(variant, state, "\n".join(held.lines), power)
    return [LINE_NUMBER.sub("", line) for line in echo if not line.startswith("warning: ")
            or "has no order" not in line]


def standing_of(folder: Path, variant: Variant, state: GameState,
                expected: list[str]) -> dict[str, Readiness]:
    """Each power's readiness that has something to do this phase."""
    slug = state.phase.slug
    return {power: readiness(variant, state, power, read_set(set_path(folder, slug, power)))
            for power in expected}
