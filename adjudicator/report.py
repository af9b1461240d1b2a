"""Reports: pure functions from a phase outcome to text (jinja2 templates in
adjudicator/templates, overridable per game folder). The public report never
shows Diplomacy Point allocations; a power's private report adds its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from adjudicator import templating
from adjudicator.mapgraph import MapGraph
from adjudicator.outcome import PhaseOutcome
from adjudicator.state import GameState
from adjudicator.variant import Variant

LOCATION = re.compile(r"\b([a-z]{3})(/[a-z]{2})?\b")


def long_form(text: str, graph: MapGraph) -> str:
    """'A par - bur' -> 'A Paris - Burgundy' (ids only; other words untouched)."""
    def swap(match: re.Match[str]) -> str:
        loc = match.group(0)
        return graph.full_name(loc) if graph.has_location(loc) else loc
    return LOCATION.sub(swap, text)


def centre_table(variant: Variant, state: GameState) -> list[dict[str, Any]]:
    rows = []
    for pid in variant.powers:
        centres = state.centres_of(pid)
        units = len(state.units_of(pid))
        if centres or units:
            rows.append({"power": variant.powers[pid].name, "centres": len(centres), "units": units,
                         "delta": len(centres) - units, "list": ", ".join(centres)})
    return rows


def context(variant: Variant, outcome: PhaseOutcome, game_name: str, deadline: str | None = None) -> dict[str, Any]:
    graph = variant.map
    by_power: dict[str, list[dict[str, str]]] = {}
    for line in outcome.orders:
        by_power.setdefault(variant.power_name(line.power), []).append({
            "text": long_form(line.text, graph),
            "result": line.result, "detail": line.detail})
    great = [variant.powers[p].name for p in variant.powers]
    ordered = sorted(by_power, key=lambda n: (great.index(n) if n in great else len(great), n))
    after = outcome.next_state
    return {
        "game": game_name,
        "variant": variant.name,
        "phase": str(outcome.phase),
        "next_phase": None if after.result else str(after.phase),
        "deadline": deadline,
        "orders": [(name, by_power[name]) for name in ordered if name in great],
        "minor_orders": [(name, by_power[name]) for name in ordered if name not in great],
        "dislodged": [{"power": variant.power_name(d.unit.power), "unit": long_form(str(d.unit), graph),
                       "retreats": [graph.full_name(r) for r in d.retreats]} for d in outcome.dislodged],
        "centre_changes": [{"centre": graph.full_name(c), "old": variant.power_name(o) if o else "nobody",
                            "new": variant.power_name(n)} for c, o, n in outcome.centre_changes],
        "table": centre_table(variant, after),
        "notes": outcome.notes,
        "missed": [variant.power_name(p) for p in outcome.missed],
        "winner": variant.power_name(outcome.winner) if outcome.winner else None,
        "result": after.result,
    }


def public_report(variant: Variant, outcome: PhaseOutcome, game_name: str, *, game_folder: Path | None = None,
                  deadline: str | None = None, html: bool = False) -> str:
    name = "diplomacy/report.html.j2" if html else "diplomacy/report.txt.j2"
    return templating.render(name, context(variant, outcome, game_name, deadline), game_folder=game_folder)


def private_report(variant: Variant, outcome: PhaseOutcome, game_name: str, power: str, *,
                   game_folder: Path | None = None, deadline: str | None = None) -> str:
    ctx = context(variant, outcome, game_name, deadline)
    ctx.update({
        "power": variant.power_name(power),
        "own_orders": [dict(text=long_form(l.text, variant.map), result=l.result, detail=l.detail)
                       for l in outcome.orders if l.power == power],
        "own_errors": [e for e in outcome.errors if e.power == power],
        "private_notes": outcome.private.get(power, []),
    })
    return templating.render("diplomacy/private.txt.j2", ctx, game_folder=game_folder)
