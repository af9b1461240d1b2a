"""The centres-by-year table: in the results of the phase that closes a year
(the Winter adjustments, or a Fall with no Winter after it), in the
end-of-game report, and nowhere else; the same bytes on a re-run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.diplomacy.centre_years import CentreYears, PowerCentres, centre_years
from adjudicator.rules import load_variant

ORDERS = Path(__file__).resolve().parent.parent / "orders" / "standard"
HEADING = "Supply centres at the start of each year"
# After the sample year 1901: Austria 5, England 4, France 6, Germany 5, Italy 4, Russia 6, Turkey 4.
TABLE_1901 = """\
          1901 1902
  Austria    3    5
  England    3    4
  France     3    6
  Germany    3    5
  Italy      3    4
  Russia     4    6
  Turkey     3    4
"""


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def play_1901(game: Path) -> None:
    invoke("new", str(game))
    for season in ("spring", "fall", "winter"):
        invoke("adjudicate", str(game), str(ORDERS / f"1901-{season}.txt"))


def test_the_winter_report_has_the_table_and_the_others_do_not(tmp_path: Path) -> None:
    game = tmp_path / "g"
    play_1901(game)
    reports = game / "reports"
    winter = (reports / "1901-winter-adjustment.txt").read_text(encoding="utf-8")
    assert f"{HEADING}\n{'-' * len(HEADING)}\n{TABLE_1901}\n" in winter
    html = (reports / "1901-winter-adjustment.html").read_text(encoding="utf-8")
    assert "<tr><th>Power</th><th>1901</th><th>1902</th></tr>" in html
    assert "<tr><td>France</td><td>3</td><td>6</td></tr>" in html
    assert TABLE_1901 in (game / "private" / "france" / "1901-winter-adjustment.txt").read_text(encoding="utf-8")
    for slug in ("1901-spring-movement", "1901-fall-movement"):
        for kind in ("txt", "html"):
            assert HEADING not in (reports / f"{slug}.{kind}").read_text(encoding="utf-8"), (slug, kind)


def test_a_fall_with_no_winter_after_it_carries_the_table(tmp_path: Path) -> None:
    game = tmp_path / "g"
    invoke("new", str(game))
    invoke("adjudicate", str(game), "--nmr")        # everyone holds: nobody builds, Winter is skipped
    invoke("adjudicate", str(game), "--nmr")
    assert not (game / "reports" / "1901-winter-adjustment.txt").exists()
    fall = (game / "reports" / "1901-fall-movement.txt").read_text(encoding="utf-8")
    assert HEADING in fall and "          1901 1902\n  Austria    3    3\n" in fall
    assert HEADING not in (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")


def test_the_table_is_the_same_bytes_on_a_rerun(tmp_path: Path) -> None:
    play_1901(tmp_path / "a" / "g")
    play_1901(tmp_path / "b" / "g")
    for name in ("1901-winter-adjustment.txt", "1901-winter-adjustment.html"):
        first = (tmp_path / "a" / "g" / "reports" / name).read_bytes()
        assert first == (tmp_path / "b" / "g" / "reports" / name).read_bytes()
        assert HEADING.encode() in first


def test_the_end_report_has_the_table_for_the_whole_game(tmp_path: Path) -> None:
    game = tmp_path / "g"
    play_1901(game)
    invoke("end", str(game), "--draw")
    end = (game / "reports" / "end.txt").read_text(encoding="utf-8")
    table = """\
          1901 1902  end
  Austria    3    5    5
  England    3    4    4
  France     3    6    6
  Germany    3    5    5
  Italy      3    4    4
  Russia     4    6    6
  Turkey     3    4    4
"""
    assert "SUPPLY CENTRES YEAR BY YEAR\n  (at the start of each year, and at the end)\n" + table in end


def test_a_long_game_wraps_at_ten_years_and_every_column_lines_up() -> None:
    from adjudicator.diplomacy.centre_years import centre_years
    from adjudicator.output import templating
    from adjudicator.rules import load_variant
    variant = load_variant("ambition-empire")       # long power names
    rows = [(str(1763 + i), {p: (i * 3 + n) % 17 for n, p in enumerate(variant.powers)}) for i in range(12)]
    text = templating.render("diplomacy/centre_years.txt.j2", {"centre_years": centre_years(variant, rows)})
    first, second = text.rstrip("\n").split("\n\n")
    assert first.split("\n")[0].split() == [str(y) for y in range(1763, 1773)]
    assert second.split("\n")[0].split() == ["1773", "1774"]
    for block in (first, second):
        widths = {len(line) for line in block.split("\n")}
        assert len(widths) == 1, block                  # a fixed-width grid
    assert max(len(line) for line in text.split("\n")) <= 78
    longest = max(variant.power_name(p) for p in variant.powers)
    assert f"  {longest} " in first


def test_a_power_missing_from_a_years_counts_has_none_that_year() -> None:
    """A power a year's counts do not name (out of the game, or never in it
    yet) owned no centre that year: 0, in the variant's power order."""
    table = centre_years(load_variant("standard"), [("1901", {"england": 3, "russia": 4}), ("1902", {"russia": 5})])
    assert table == CentreYears(("1901", "1902"), (
        PowerCentres("Austria", (0, 0)), PowerCentres("England", (3, 0)), PowerCentres("France", (0, 0)),
        PowerCentres("Germany", (0, 0)), PowerCentres("Italy", (0, 0)), PowerCentres("Russia", (4, 5)),
        PowerCentres("Turkey", (0, 0))))


def test_the_table_is_a_value_that_cannot_be_changed() -> None:
    """Reports, the end report and the site read one table: none of them can alter it for the others."""
    row = PowerCentres("France", (3, 5))
    table = CentreYears(("1901", "1902"), (row,))
    for value, name in ((row, "counts"), (table, "powers")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, ())
    assert hash(table) == hash(CentreYears(("1901", "1902"), (PowerCentres("France", (3, 5)),)))
