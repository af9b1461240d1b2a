"""Each power's supply-centre count year by year, as a typed table: one row
per power, one column per year. The figures come from the game's history
(adjudicator.folder.endreport.yearly_centres reads them); the reports'
templates lay them out, so the Winter results, the end-of-game report and
the site show one set of figures."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.diplomacy.variant import Variant


@dataclass(frozen=True)
class PowerCentres:
    power: str                  # the power's name as reports show it
    counts: tuple[int, ...]     # one per column of the table


@dataclass(frozen=True)
class CentreYears:
    years: tuple[str, ...]      # the column headings: a year, or "end"
    powers: tuple[PowerCentres, ...]


def centre_years(variant: Variant, rows: list[tuple[str, dict[str, int]]]) -> CentreYears:
    """The table of `rows` ((heading, {power: centres}) oldest first), in the variant's power order."""
    return CentreYears(tuple(heading for heading, _ in rows),
                       tuple(PowerCentres(variant.power_name(power), tuple(counts.get(power, 0) for _, counts in rows))
                             for power in variant.powers))
