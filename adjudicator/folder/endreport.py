"""The end-of-game report: the result in a sentence, the final centres, the
supply-centre count of every power year by year, and the phases played.
Written to reports/end.txt when a Diplomacy game ends (a victory found at
adjudication, a draw or concession voted, or `end --draw`). Public: it holds
nothing a report of the game did not already show, and names who played
each power only where the GM set `reveal_at_end: true` in game.yaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.diplomacy.centre_years import CentreYears, centre_years
from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import state_from_data
from adjudicator.diplomacy.variant import Variant
from adjudicator.store import storage

END_REPORT = Path("reports") / "end.txt"


def result_sentence(variant: Variant, result: dict[str, Any]) -> str:
    when = f" in {result['phase']}" if result.get("phase") else ""
    if result.get("winner"):
        how = " by concession" if result.get("conceded") else ""
        return f"{variant.power_name(str(result['winner']))} won{how}{when}."
    if result.get("draw") is not None:
        names = [variant.power_name(str(p)) for p in result["draw"]]
        shared = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
        return f"The game ended in a draw between {shared}{when}." if names else f"The game ended in a draw{when}."
    return f"The game is over{when}."


def yearly_centres(history: list[tuple[Phase, Path]], variant: Variant,
                   final: GameState) -> list[tuple[str, dict[str, int]]]:
    """Centre counts at the start of each year (the Spring movement state), then at the end."""
    rows = []
    for phase, path in history:
        if phase.kind == "movement" and phase.season == variant.seasons[0]:
            state = state_from_data(storage.read_state(path), variant, str(path))
            rows.append((str(phase.year), {p: len(state.centres_of(p)) for p in variant.powers}))
    rows.append(("end", {p: len(final.centres_of(p)) for p in variant.powers}))
    return rows


def year_end_centres(history: list[tuple[Phase, Path]], variant: Variant, phase: Phase,
                     after: GameState) -> CentreYears | None:
    """The centres-by-year table for the report of `phase`, whose outcome is
    `after`: only where the phase closes a year (the Winter adjustments, or a
    Fall with no Winter after it) or ends the game. The last column is the
    year `after` starts, or "end"."""
    if after.phase.year == phase.year and after.result is None:
        return None
    # A forced re-run finds the next phase's state in history already.
    rows = yearly_centres([h for h in history if h[0].sort_key <= phase.sort_key], variant, after)
    if after.result is None:
        rows[-1] = (str(after.phase.year), rows[-1][1])
    return centre_years(variant, rows)


def end_report(folder: Path, meta: dict[str, Any], variant: Variant, final: GameState,
               history: list[tuple[Phase, Path]]) -> str:
    """The report; `history` is the game's history files, oldest first."""
    name = str(meta.get("name") or folder.name)
    result = final.result or {}
    lines = [f"{name} ({variant.name}): the game is over", "=" * 70, "", result_sentence(variant, result), "",
             "FINAL CENTRES"]
    for power in variant.powers:
        centres = final.centres_of(power)
        if centres:
            shown = ", ".join(variant.map.full_name(c) for c in centres)
            lines.append(f"  {variant.power_name(power):<28} {len(centres):>2}  {shown}")
    lines += ["", "SUPPLY CENTRES YEAR BY YEAR", "  (at the start of each year, and at the end)"]
    rows = yearly_centres(history, variant, final)
    from adjudicator.output import templating
    lines += templating.render("diplomacy/centre_years.txt.j2",
                               {"centre_years": centre_years(variant, rows)}, game_folder=folder).rstrip("\n").split("\n")
    lines.append("  The end-of-game mail carries these figures as a chart, a line per power (centres.png);")
    lines.append("  the game's site shows it too (centres.html).")
    first = rows[0][0] if rows else "?"
    played = sum(1 for p in (folder / "reports").glob("*.txt") if p.name != END_REPORT.name) \
        if (folder / "reports").is_dir() else 0
    lines += ["", f"{played} phases were adjudicated, from {first} to {result.get('phase', final.phase)}."]
    return "\n".join(lines + who_played(meta, variant)) + "\n"


def who_played(meta: dict[str, Any], variant: Variant) -> list[str]:
    """Who played each power (names, never addresses), where the GM set
    `reveal_at_end: true`; a gunboat game names nobody otherwise."""
    from adjudicator.folder.gameoptions import reveals_at_end
    if not reveals_at_end(meta):
        return []
    lines = ["", "WHO PLAYED"]
    for entry in meta.get("players") or []:
        if not isinstance(entry, dict) or entry.get("power") not in variant.powers:
            continue
        before = [str(p.get("name")) for p in entry.get("previous") or [] if isinstance(p, dict) and p.get("name")]
        name = str(entry.get("name") or "") or "nobody at the end"
        lines.append(f"  {variant.power_name(str(entry['power'])):<28} {name}"
                     + (f" (before: {', '.join(before)})" if before else ""))
    return lines
