"""Reports: pure functions from a phase outcome to text (jinja2 templates in
adjudicator/templates, overridable per game folder). The public report never
shows Diplomacy Point allocations; a power's private report adds its own.

Every result that is not a plain success says why, in a judge's voice,
made from the typed order line (adjudicator.output.wording, never from other
report text):

    A Paris - Burgundy  [moved]
    A Marseilles S A Paris - Burgundy  [supported]
    A Vienna - Galicia  [bounced: 1 vs A Warsaw 1]
    A Paris - Munich (Invalid)  [Paris does not border Munich]

A GM switches the why off per game (`why: false` in game.yaml): the
brackets then give the bare result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import Reason

if TYPE_CHECKING:
    from adjudicator.diplomacy.centre_years import CentreYears
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.outcome import OrderLine, PhaseOutcome
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

LOCATION = re.compile(r"\b([a-z]{3})(/[a-z]{2})?\b")
INVALID = " (Invalid)"


def long_form(text: str, graph: MapGraph) -> str:
    """'A par - bur' -> 'A Paris - Burgundy' (ids only; other words untouched)."""
    def swap(match: re.Match[str]) -> str:
        loc = match.group(0)
        return graph.full_name(loc) if graph.has_location(loc) else loc
    return LOCATION.sub(swap, text)


def shown_line(line: OrderLine, graph: MapGraph, why: bool) -> dict[str, str]:
    """An order line as a report shows it: the order (with '(Invalid)' if it
    was void) and the words in brackets after it ('' for a plain success)."""
    from adjudicator.output.wording import bare, judged, order_text
    text = long_form(order_text(line), graph)
    if line.void and not text.endswith(INVALID.strip()):
        text += INVALID
    return {"text": text, "why": judged(line, graph) if why else bare(line)}


def centre_table(variant: Variant, outcome: PhaseOutcome, after: GameState) -> list[dict[str, Any]]:
    """A row per Great Power with centres or units: counts, the builds or
    disbands due (only when an adjustment phase comes next), and its centres
    by name, '*' marking those it took this year."""
    graph = variant.map
    adjusting = after.result is None and after.phase.kind == "adjustment"
    taken = {(centre, new) for centre, _, new in outcome.centre_changes}
    rules = variant.rules
    rows = []
    for pid in variant.powers:
        centres = after.centres_of(pid)
        units = len(after.units_of(pid))
        if not (centres or units):
            continue
        delta = len(centres) - units if adjusting else 0
        adjust = ""
        if delta > 0:
            sites = len(rules.build_sites(variant, after, pid))
            adjust = f"builds {delta}" if sites >= delta else \
                f"builds {sites} ({delta} due; {sites} home centre{'' if sites == 1 else 's'} free)"
        elif delta < 0:
            adjust = f"disbands {-delta}"
        names = sorted((graph.full_name(c) + ("*" if (c, pid) in taken else "")) for c in centres)
        rows.append({"power": variant.powers[pid].name, "centres": len(centres), "units": units,
                     "delta": delta, "adjust": adjust, "list": ", ".join(names)})
    return rows


def other_owners(variant: Variant, after: GameState) -> list[dict[str, str]]:
    """Centres held by minor powers, and centres nobody holds."""
    graph = variant.map
    minors = sorted(graph.full_name(c) for c, p in after.centres.items() if p not in variant.powers)
    free = sorted(graph.full_name(c) for c in graph.supply_centres if c not in after.centres)
    rows = []
    if minors:
        rows.append({"who": "Minor powers", "list": ", ".join(minors)})
    if free:
        rows.append({"who": "Unowned", "list": ", ".join(free)})
    return rows


def positions(variant: Variant, after: GameState) -> list[dict[str, str]]:
    """The units after the phase, per power, by province name; minor units on one line."""
    graph = variant.map

    def listed(units: list[Any]) -> str:
        return ", ".join(graph.unit_name(u) for u in sorted(units, key=lambda u: graph.full_name(u.location)))
    rows = [{"who": variant.powers[p].name, "units": listed(after.units_of(p))}
            for p in variant.powers if after.units_of(p)]
    minor_units = [u for u in after.units.values() if u.power not in variant.powers]
    if minor_units:
        rows.append({"who": "Minor powers", "units": listed(minor_units)})
    return rows


# The results of a unit the rules disbanded for a power that sent no orders:
# in a retreat phase, a dislodged unit; in winter, civil disorder.
DEFAULT_DISBANDS = (Reason.DISBANDED, Reason.CIVIL_DISORDER)


def nmr_sentence(variant: Variant, outcome: PhaseOutcome, power: str, you: bool = False) -> str:
    """'No orders were received from Italy; its units held.' -- the one place an NMR is stated."""
    from adjudicator.output.wording import and_list
    who = "you" if you else variant.power_name(power)
    its = "your" if you else "its"
    kind = outcome.phase.kind
    disbanded = [long_form(str(l.unit), variant.map) for l in outcome.orders
                 if l.power == power and l.defaulted and l.result in DEFAULT_DISBANDS]
    if kind == "movement":
        default = f"{its} units held"
    elif kind == "retreat":
        default = (f"{its} dislodged {and_list(disbanded)} {'is' if len(disbanded) == 1 else 'are'} disbanded"
                   if disbanded else f"{its} dislodged units are disbanded")
    else:
        adj = next((a for a in outcome.adjustments if a.power == power), None)
        if adj is not None and adj.delta > 0:
            default = f"{its} {adj.delta} build{'' if adj.delta == 1 else 's'} {'is' if adj.delta == 1 else 'are'} waived"
        elif disbanded:
            default = f"civil disorder disbands {and_list(disbanded)}"
        else:
            default = f"the rules choose which of {its} units are disbanded"
    return f"No orders were received from {who}; {default}."



def closing(variant: Variant, outcome: PhaseOutcome, deadline: str | None) -> str:
    """What happens next and by when."""
    after = outcome.next_state
    if after.result:
        return ""
    kind = after.phase.kind
    text = f"Next: {after.phase}"
    if kind == "retreat":
        text += ": the dislodged units above retreat or disband."
    elif kind == "adjustment":
        text += ": builds and disbands as the table shows."
    else:
        text += "."
    if deadline:
        text += f" Orders are due by {deadline}."
    return text


def context(variant: Variant, outcome: PhaseOutcome, game_name: str, deadline: str | None = None,
            why: bool = True, centre_years: CentreYears | None = None) -> dict[str, Any]:
    """What the templates show; `centre_years` is the centres-by-year table,
    given for the report of a phase that closes a year."""
    graph = variant.map
    great = [variant.powers[p].name for p in variant.powers]
    missed = set(outcome.missed)
    by_power: dict[str, list[dict[str, str]]] = {}
    nmr: dict[str, str] = {}
    for line in outcome.orders:
        name = variant.power_name(line.power)
        by_power.setdefault(name, [])
        if line.power in missed:
            if name not in nmr:
                nmr[name] = nmr_sentence(variant, outcome, line.power)
            if line.defaulted and line.why is None:
                continue            # its defaults are stated in the sentence, not listed as orders
        by_power[name].append(shown_line(line, graph, why))
    for power in outcome.missed:
        name = variant.power_name(power)
        by_power.setdefault(name, [])
        nmr.setdefault(name, nmr_sentence(variant, outcome, power))
    ordered = sorted(by_power, key=lambda n: (great.index(n) if n in great else len(great), n))
    after = outcome.next_state
    table = centre_table(variant, outcome, after)
    return {
        "game": game_name,
        "variant": variant.name,
        "phase": str(outcome.phase),
        "next_phase": None if after.result else str(after.phase),
        "deadline": deadline,
        "orders": [{"power": name, "nmr": nmr.get(name), "lines": by_power[name]}
                   for name in ordered if name in great],
        "minor_orders": [(name, by_power[name]) for name in ordered if name not in great],
        "dislodged": [{"power": variant.power_name(d.unit.power), "unit": long_form(str(d.unit), graph),
                       "retreats": [graph.full_name(r) for r in d.retreats]} for d in outcome.dislodged],
        "centre_changes": [{"centre": graph.full_name(c), "old": variant.power_name(o) if o else "nobody",
                            "new": variant.power_name(n)} for c, o, n in outcome.centre_changes],
        "table": table,
        "marked": any("*" in row["list"] for row in table),
        "other_owners": other_owners(variant, after),
        "positions": positions(variant, after),
        "notes": outcome.notes,
        "missed": [variant.power_name(p) for p in outcome.missed],
        "winner": variant.power_name(outcome.winner) if outcome.winner else None,
        "result": after.result,
        "closing": closing(variant, outcome, deadline),
        "rules": variant.rules_summary(),
        "centre_years": centre_years,
    }


def public_report(variant: Variant, outcome: PhaseOutcome, game_name: str, *, game_folder: Path | None = None,
                  deadline: str | None = None, html: bool = False, why: bool = True,
                  centre_years: CentreYears | None = None) -> str:
    name = "diplomacy/report.html.j2" if html else "diplomacy/report.txt.j2"
    from adjudicator.output import templating
    return templating.render(name, context(variant, outcome, game_name, deadline, why, centre_years),
                             game_folder=game_folder)


def private_report(variant: Variant, outcome: PhaseOutcome, game_name: str, power: str, *,
                   game_folder: Path | None = None, deadline: str | None = None, why: bool = True,
                   centre_years: CentreYears | None = None) -> str:
    ctx = context(variant, outcome, game_name, deadline, why, centre_years)
    mine = [l for l in outcome.orders if l.power == power]
    sent_nothing = power in outcome.missed
    ctx.update({
        "power": variant.power_name(power),
        "own_nmr": nmr_sentence(variant, outcome, power, you=True) if sent_nothing else None,
        "own_orders": [shown_line(l, variant.map, why) for l in mine
                       if not (sent_nothing and l.defaulted and l.why is None)],
        "own_errors": [e for e in outcome.errors if e.power == power],
        "private_notes": outcome.private.get(power, []),
    })
    from adjudicator.output import templating
    return templating.render("diplomacy/private.txt.j2", ctx, game_folder=game_folder)
