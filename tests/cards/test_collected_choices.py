"""Turn-file games by mail: each player's choice is stored on its own
(orders/<phase>/<player>.yaml, by `ingest`) and merged into the phase's turn;
a GM's turn file wins for the players it names (issue 10 item 1)."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from adjudicator.cards import driver
from adjudicator.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent.parent
FIRST = ROOT / "orders" / "seven-wonders" / "01-age1-turn1.yaml"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def new_game(tmp_path: Path) -> Path:
    game = tmp_path / "w"
    assert invoke("new", str(game), "--variant", "seven-wonders", "--players", "alice,bob,carol",
                  "--seed", "7")[0] == 0
    return game


def store(game: Path, player: str, choice: object) -> None:
    folder = game / "orders" / "0001-age1-turn1"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{player}.yaml").write_text(yaml.safe_dump({player: choice}), encoding="utf-8")


def test_collected_choices_make_the_turn(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    sample = yaml.safe_load(FIRST.read_text(encoding="utf-8"))
    reference = new_game(tmp_path / "ref")
    assert invoke("adjudicate", str(reference), str(FIRST))[0] == 0
    for player in ("alice", "bob", "carol"):
        store(game, player, sample[player])
    code, out = invoke("adjudicate", str(game))
    assert code == 0, out
    assert (game / "reports" / "0001-age1-turn1.txt").read_text().replace("game w ", "") == \
        (reference / "reports" / "0001-age1-turn1.txt").read_text().replace("game w ", "")


def test_a_gm_file_wins_for_the_players_it_names(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    sample = yaml.safe_load(FIRST.read_text(encoding="utf-8"))
    store(game, "alice", {"action": "build", "card": "Not A Card"})
    store(game, "bob", sample["bob"])
    gm = tmp_path / "gm.yaml"
    gm.write_text(yaml.safe_dump({"phase": "age1-turn1", "alice": sample["alice"], "carol": sample["carol"]}))
    code, out = invoke("adjudicate", str(game), str(gm))
    assert code == 0, out
    applied = yaml.safe_load((game / "orders" / "0001-age1-turn1.yaml").read_text())
    assert applied["alice"] == sample["alice"] and applied["bob"] == sample["bob"]


def test_a_stored_choice_for_someone_else_fails_the_phase(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    folder = game / "orders" / "0001-age1-turn1"
    folder.mkdir(parents=True)
    (folder / "alice.yaml").write_text("alice: {action: sell, card: Loom}\nbob: {action: sell, card: Loom}\n")
    code, out = invoke("adjudicate", str(game))
    assert code == 2 and "alice.yaml" in out and "may only be alice's" in out


def test_nothing_collected_needs_nmr(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    code, out = invoke("adjudicate", str(game))
    assert code == 2 and "no choices have been collected" in out
    code, out = invoke("adjudicate", str(game), "--nmr")
    assert code == 0, out
    assert "sent nothing; default applied" in (game / "reports" / "0001-age1-turn1.txt").read_text()


def test_check_player_choice(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    sample = yaml.safe_load(FIRST.read_text(encoding="utf-8"))
    assert driver.check_player_choice(game, "alice", sample["alice"]) == []
    errors = driver.check_player_choice(game, "alice", {"action": "build", "card": "Not A Card"})
    assert errors and "Not A Card" in str(errors[0])
    assert "no such player" in str(driver.check_player_choice(game, "zed", {})[0])
