"""Per-game rule options: `new --option`, game.yaml's `options:` checked on
every read, the edition stated in every report and the opening mail, and a
game made from a custom variant file. The readings themselves are pinned by
the case files (tests/cases/standard/*.txt, the DATC files)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store import storage

ROOT = Path(__file__).resolve().parent.parent
SPRING = "England:\nF lon - nth\nF edi - nwg\nA lvp - edi\n"
# DATC 6.G.8's shape: 'via convoy' to an adjacent province, a fleet at sea
# that does not convoy it.
FALL = "England:\nA edi - yor via convoy\nF nth - hel\n"


def play(runner: CliRunner, game: Path, *options: str) -> str:
    """A new Standard game with these options, Spring and Fall 1901: the Fall report."""
    args = ["new", str(game)] + [a for o in options for a in ("--option", o)]
    assert runner.invoke(cli, args).exit_code == 0
    for name, text in (("spring", SPRING), ("fall", FALL)):
        orders = game.parent / f"{game.name}-{name}.txt"
        orders.write_text(text, encoding="utf-8")
        result = runner.invoke(cli, ["adjudicate", str(game), str(orders), "--nmr"])
        assert result.exit_code == 0, result.output
    return (game / "reports" / "1901-fall-movement.txt").read_text(encoding="utf-8")


def test_a_2023_game_has_no_land_fallback_and_says_so(tmp_path: Path, runner: CliRunner) -> None:
    report = play(runner, tmp_path / "new", "rules_edition=2023")
    assert "A Edinburgh - Yorkshire via convoy  [no convoy: the army stays]" in report
    assert report.rstrip().endswith("Rules: the 2023 rulebook (DATC 3.0).")
    assert storage.read_yaml(tmp_path / "new" / "game.yaml")["options"] == {"rules_edition": "2023"}
    # Every state file carries the options, so `check --state` plays the same rules.
    for state in (tmp_path / "new" / "history").glob("*.yaml"):
        assert storage.read_state(state)["options"] == {"rules_edition": "2023"}


def test_the_default_game_falls_back_to_land_and_says_2000(tmp_path: Path, runner: CliRunner) -> None:
    report = play(runner, tmp_path / "old")
    assert "A Edinburgh - Yorkshire  [moved; 'via convoy' ignored: no fleet convoys it" in report
    assert report.rstrip().endswith("Rules: the 2000 rulebook (DATC 2.4).")
    assert "options" not in storage.read_yaml(tmp_path / "old" / "game.yaml")


def test_an_option_apart_from_its_edition_is_named(tmp_path: Path, runner: CliRunner) -> None:
    report = play(runner, tmp_path / "mixed", "rules_edition=2023", "via_convoy_fallback=land_route")
    assert "A Edinburgh - Yorkshire  [moved" in report
    assert report.rstrip().endswith("Rules: the 2023 rulebook (DATC 3.0); via_convoy_fallback=land_route.")


@pytest.mark.parametrize("option, message", [
    ("rules_edition=2024", "options.rules_edition: 2024 is not one of 2000 | 2023"),
    ("rule_edition=2023", "options: unknown option 'rule_edition' (options: rules_edition: 2000 | 2023;"),
    ("via_convoy_fallback=maybe", "options.via_convoy_fallback: 'maybe' is not one of land_route | none"),
])
def test_new_refuses_a_bad_option(tmp_path: Path, runner: CliRunner, option: str, message: str) -> None:
    result = runner.invoke(cli, ["new", str(tmp_path / "g"), "--option", option])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("written, message", [
    ("rules_edition: '1971'", "game.yaml: options.rules_edition: '1971' is not one of 2000 | 2023"),
    ("rules_edtion: '2023'", "game.yaml: options: unknown option 'rules_edtion'"),
])
def test_game_yaml_options_are_checked_on_every_read(tmp_path: Path, runner: CliRunner,
                                                    written: str, message: str) -> None:
    game = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(game), "--option", "rules_edition=2023"]).exit_code == 0
    meta = game / "game.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("rules_edition: '2023'", written),
                    encoding="utf-8")
    orders = tmp_path / "o.txt"
    orders.write_text(SPRING, encoding="utf-8")
    before = sorted(p.relative_to(game) for p in game.rglob("*"))
    for args in (["adjudicate", str(game), str(orders), "--nmr"], ["status", str(game)],
                 ["check", str(game), str(orders)]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, args
        assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before


def test_a_game_from_a_custom_variant_file_keeps_working(tmp_path: Path, runner: CliRunner,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder keeps its variant data: later commands, from another
    directory and with the original file gone, read the folder's copy."""
    custom = tmp_path / "mine" / "house.yaml"
    custom.parent.mkdir()
    custom.write_text((ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
                      .replace("name: Standard", "name: House Rules"), encoding="utf-8")
    game = tmp_path / "g"
    result = runner.invoke(cli, ["new", str(game), "--variant", str(custom), "--option", "rules_edition=2023"])
    assert result.exit_code == 0, result.output
    custom.unlink()
    monkeypatch.chdir(tmp_path / "mine")
    orders = tmp_path / "o.txt"
    orders.write_text(SPRING, encoding="utf-8")
    assert runner.invoke(cli, ["check", str(game), str(orders)]).exit_code == 0
    result = runner.invoke(cli, ["adjudicate", str(game), str(orders), "--nmr"])
    assert result.exit_code == 0, result.output
    report = (game / "reports" / "1901-spring-movement.txt").read_text(encoding="utf-8")
    assert report.startswith("g (House Rules): Spring 1901 Movement")
    assert report.rstrip().endswith("Rules: the 2023 rulebook (DATC 3.0).")
    assert runner.invoke(cli, ["status", str(game)]).output.startswith("g (House Rules)")
    result = runner.invoke(cli, ["player", "add", str(game), "France", "--name", "Ann",
                                 "--email", "ann@example.org", "--password", "a-long-password"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["mail", str(game)]).exit_code == 0
    welcome = next((game / "mail" / "welcome").glob("*.eml")).read_bytes()
    assert b"Diplomacy (House Rules)" in welcome and b"Rules: the 2023 rulebook (DATC 3.0)." in welcome
    result = runner.invoke(cli, ["site", str(game), str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert "House Rules" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("option, exit_code", [("rules_edition=2023", 1), ("rules_edition=2000", 0)])
def test_check_state_plays_the_games_rules(tmp_path: Path, runner: CliRunner, option: str, exit_code: int) -> None:
    """A player's `check --state` on the mailed state file plays the game's
    edition: under 2023 a 'via convoy' no convoy could carry is refused."""
    game = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(game), "--option", option]).exit_code == 0
    orders = tmp_path / "o.txt"
    orders.write_text("Germany: A ber - mun via convoy\n", encoding="utf-8")
    result = runner.invoke(cli, ["check", "--state", str(game / "history" / "1901-spring-movement.yaml"),
                                 "--power", "Germany", str(orders)])
    assert result.exit_code == exit_code, result.output


def test_a_map_without_layout_positions_is_a_data_error(tmp_path: Path, runner: CliRunner) -> None:
    """A custom variant on a map with no layout file and no territory
    geometry: drawing it is one line naming the layout file, exit 2, and the
    phase is not written."""
    board = tmp_path / "board.yaml"
    board.write_text((ROOT / "maps" / "standard.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    custom = tmp_path / "house.yaml"
    custom.write_text((ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
                      .replace("map: standard", f"map: {board}"), encoding="utf-8")
    game = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(game), "--variant", str(custom)]).exit_code == 0
    result = runner.invoke(cli, ["map", str(game)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "board.layout.yaml: no drawing position for adr, aeg, alb" in lines[0], lines
    orders = tmp_path / "o.txt"
    orders.write_text(SPRING, encoding="utf-8")
    result = runner.invoke(cli, ["adjudicate", str(game), str(orders), "--nmr"])
    assert result.exit_code == 2 and "no drawing position" in result.output
    assert not (game / "reports").exists()
