"""The words for a phase's order lines: the order as published, the result
in a word or two (the map's titles and failed orders, a report without the
why), and the judge's full sentence of why (the report). Everything is made
from the typed line (adjudicator.diplomacy.outcome.OrderLine), through
tables keyed by the kind of result, the kind of why and the order class:

    A Vienna - Galicia  [bounced: 1 vs A Warsaw 1]
    A Munich S A Berlin  [cut by A Tyrolia]
    F North Sea H  [dislodged by F English Channel (2 vs 1), may retreat to Helgoland Bight, Norway]
    A Paris - Munich (Invalid)  [Paris does not border Munich]
    A Serbia R Albania  [bounced, disbanded: another unit retreated there too]

The engine makes no words; this module reads no words back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Reason
from adjudicator.diplomacy.movement_result import ConvoyNote
from adjudicator.diplomacy.orders import SupportHold, SupportMove
from adjudicator.diplomacy.outcome import (
    OrderLine,
    UnusedBuilds,
    Why,
    WhyKind,
)

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph


def order_text(line: OrderLine) -> str:
    """The order as published, in ids ('A par - bur'): as its player wrote
    it where the rules publish that, else the order's own short form."""
    if line.written is not None:
        return line.written
    if line.defaulted and line.result is Reason.DISBANDED and line.unit is not None:
        return f"{line.unit} (no order)"        # a dislodged unit with no order
    show = SHOWN.get(type(line.order))
    return show(line.order) if show is not None else str(line.order)


def unused_builds(order: UnusedBuilds) -> str:
    return f"{order.count} build{'' if order.count == 1 else 's'} unused"


# Lines whose order is not a player's order, by class: how each is shown.
SHOWN: dict[type, Callable[..., str]] = {UnusedBuilds: unused_builds}

# The result in a word or two, by kind of result. A hold that stood has
# none: nothing happened to report.
RESULT_WORDS: dict[Reason, str] = {reason: reason.value for reason in Reason} | {
    Reason.NOT_MATCHED: "void: supported unit did not do that", Reason.HELD: "",
    Reason.CIVIL_DISORDER: "disbanded (civil disorder)"}


def result_words(line: OrderLine) -> str:
    """'moved', 'bounced', 'void, dislodged', 'bounced, disbanded', '' for a plain hold or support..."""
    words = RESULT_WORDS[line.result]
    if line.void and line.why is not None and line.why.kind is WhyKind.DISLODGED:
        words += ", dislodged"
    if line.disbanded:
        words += ", disbanded"
    return words


# --- the judge's words: why ----------------------------------------------------------------
def _names(graph: MapGraph, locations: tuple[str, ...] | list[str]) -> str:
    return ", ".join(graph.full_name(loc) for loc in locations)


def and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def bounced(why: Why, line: OrderLine, graph: MapGraph) -> str:
    if why.strength == 0 and why.opponents and all(o.unit.power == line.power for o in why.opponents):
        return f"bounced: it cannot dislodge its own {graph.unit_name(why.opponents[0].unit)}"
    against = ", ".join(f"{graph.unit_name(o.unit)} {o.strength}" for o in why.opponents)
    return f"bounced: {why.strength} vs {against}" if against else "bounced"


def no_convoy(why: Why, line: OrderLine, graph: MapGraph) -> str:
    return "no convoy: the army stays"


def cut(why: Why, line: OrderLine, graph: MapGraph) -> str:
    return "cut by " + and_list([graph.unit_name(o.unit) for o in why.opponents]) if why.opponents else "cut"


def dislodged(why: Why, line: OrderLine, graph: MapGraph) -> str:
    by = why.opponents[0] if why.opponents else None
    text = "dislodged"
    if by is not None:
        text += f" by {graph.unit_name(by.unit)} ({by.strength} vs {why.defence})"
    if why.retreats:
        return text + f", may retreat to {_names(graph, why.retreats)}"
    return text + ", disbanded"


def not_matched(why: Why, line: OrderLine, graph: MapGraph) -> str:
    words = UNMATCHED.get(type(line.order))
    if words is None or not why.opponents:
        return "support void"
    return f"support void: {words(graph.unit_name(why.opponents[0].unit), line, graph)}"


def void(why: Why, line: OrderLine, graph: MapGraph) -> str:
    return why.rule


# What an unmatched support's supported unit did not do, by the support's class.
UNMATCHED: dict[type, Callable[[str, OrderLine, MapGraph], str]] = {
    SupportMove: lambda unit, line, graph: f"{unit} was not ordered to {graph.full_name(line.order.ends()[1])}",
    SupportHold: lambda unit, line, graph: f"{unit} was ordered to move",
}

WHY_WORDS: dict[WhyKind, Callable[[Why, OrderLine, MapGraph], str]] = {
    WhyKind.BOUNCED: bounced,
    WhyKind.NO_CONVOY: no_convoy,
    WhyKind.CUT: cut,
    WhyKind.DISLODGED: dislodged,
    WhyKind.NOT_MATCHED: not_matched,
    WhyKind.VOID: void,
}


def why_text(why: Why, line: OrderLine, graph: MapGraph) -> str:
    """The judge's words for a typed reason."""
    return WHY_WORDS[why.kind](why, line, graph)


# The note on a move whose 'via convoy' the judge took otherwise than written.
CONVOY_NOTES: dict[ConvoyNote, Callable[[OrderLine, MapGraph], str]] = {
    ConvoyNote.NO_ROUTE: lambda line, graph: (
        f"'via convoy' ignored: no convoy can go from {graph.full_name(line.province)} to "
        f"{graph.full_name(line.order.moves_to() or '')}; a move over land"),
    ConvoyNote.NO_FLEET: lambda line, graph: "'via convoy' ignored: no fleet convoys it; a move over land",
}


def detail(line: OrderLine, graph: MapGraph) -> str:
    """What a line without a why adds after its result: a void order's rule,
    a retreat's bounce, a civil-disorder disband's cause, an ignored 'via convoy'."""
    note = CONVOY_NOTES.get(line.convoy) if line.convoy is not None else None
    if note is not None:
        return note(line, graph)
    if line.result is Reason.CIVIL_DISORDER:
        return "no orders" if line.defaulted else "too few disbands ordered"
    if line.disbanded and line.result is Reason.BOUNCED:
        return "another unit retreated there too"
    return line.void_rule


def judged(line: OrderLine, graph: MapGraph) -> str:
    """The words in brackets after an order in a report ('' for a plain success)."""
    why = line.why
    if why is not None and not line.disbanded:
        words = why_text(why, line, graph)
        if line.void and why.kind is WhyKind.DISLODGED and why.rule:
            words = f"{why.rule}; {words}"
        return words
    more = detail(line, graph)
    if line.result is Reason.MOVED and more:
        return f"moved; {more}"
    return result_words(line) + (f": {more}" if more else "")


def bare(line: OrderLine) -> str:
    """The words in brackets when a game's reports give no why: the bare result."""
    if line.void:
        return "dislodged" if line.why is not None and line.why.kind is WhyKind.DISLODGED else ""
    return result_words(line)
