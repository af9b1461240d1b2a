"""The sample game in orders/ambition/ replayed through the CLI: it runs to the
end, re-runs byte for byte, and keeps every secret out of files that must not
hold it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store.storage import dump_yaml, read_yaml

ROOT = Path(__file__).resolve().parents[3]
TURNS = sorted((ROOT / "orders" / "ambition").glob("[0-9][0-9][0-9][0-9]*-*.yaml"))
PLAYERS = ["alice", "bob", "carol"]
BuiltOnce = Callable[[str, Callable[[Path], object]], Path]        # the fixture in tests/conftest.py


def phase_of(turn: Path) -> str:
    """The phase a sample file is for: `0054a-r7-alice-drawn` -> `r7-alice-drawn`."""
    return turn.stem.split("-", 1)[1]


# A letter after a sample file's number (0054a) marks a phase added later
# between two others; the game's own files are numbered by position.
TAGS = [f"{index:04d}-{phase_of(turn)}" for index, turn in enumerate(TURNS, start=1)]
CARD_ID = re.compile(r"\b(aide|journalist|lobbyist|banker|general|magnate|[a-z]+(-[a-z]+)*)-\d+\b")


def play(folder: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["new", str(folder), "--variant", "ambition",
                                 "--players", ",".join(PLAYERS), "--seed", "53"])
    assert result.exit_code == 0, result.output
    for turn in TURNS:
        result = runner.invoke(cli, ["adjudicate", str(folder), str(turn)])
        assert result.exit_code == 0, f"{turn.name}: {result.output}"


def sample_game(built_once: BuiltOnce) -> Path:
    """The sample game played, once per test run (test_ambition_reports reads it too)."""
    return built_once("ambition-sample", lambda home: play(home / "game")) / "game"


@pytest.fixture(scope="module")
def game(built_once: BuiltOnce) -> Path:
    return sample_game(built_once)


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in ("seal.key", "seals.txt")}


def test_sample_game_runs_to_armageddon(game: Path) -> None:
    assert len(TURNS) > 50
    result = CliRunner().invoke(cli, ["status", str(game)])
    assert result.exit_code == 0 and "game over" in result.output
    history = sorted((game / "history").glob("*.yaml"))
    assert len(history) == len(TURNS) + 1 and history[-1].name.endswith("-final.yaml")
    final = read_yaml(history[-1])
    assert str(final["over"]).startswith("Armageddon")
    last = max((game / "reports").glob("*.txt")).read_text()
    assert "Winner: " + " and ".join(final["winners"]) in last
    # every phase got a public report and one private report per player
    assert len(list((game / "reports").glob("*.txt"))) == len(TURNS) + 1   # and 0000-setup
    for player in PLAYERS:
        assert len(list((game / "private" / player).glob("*.txt"))) == len(TURNS) + 1


def test_rerun_is_byte_identical(game: Path, tmp_path: Path) -> None:
    again = tmp_path / "game"
    play(again)
    assert files(again) == files(game)


def test_sample_files_name_their_phases(game: Path) -> None:
    assert [read_yaml(turn)["phase"] for turn in TURNS] == [phase_of(turn) for turn in TURNS]
    assert [p.stem for p in sorted((game / "orders").glob("*.yaml"))] == TAGS


def test_every_kept_draw_opens_the_drawn_phase(game: Path) -> None:
    """Whatever the card, so that the phases do not tell its kind (issue 12)."""
    kept = {True: 0, False: 0}  # playable at once, or not
    for index, tag in enumerate(TAGS):
        if "draws an intrigue card" not in (game / "reports" / f"{tag}.txt").read_text():
            continue
        assert TAGS[index + 1].endswith("-drawn"), tag
        drawer = phase_of(TURNS[index]).split("-")[1]
        mine = (game / "private" / drawer / f"{tag}.txt").read_text()
        kept["keep it or play it now" in mine] += 1
        assert ("cannot be played now" in mine) != ("keep it or play it now" in mine), tag
    assert kept[True] > 0 and kept[False] > 0


def test_secrets_stay_private(game: Path) -> None:
    history = sorted((game / "history").glob("*.yaml"))
    checked_secret = checked_hand = 0
    for index, tag in enumerate(TAGS, start=1):
        after = read_yaml(history[index])
        public = (game / "reports" / f"{tag}.txt").read_text()
        private = {p: (game / "private" / p / f"{tag}.txt").read_text() for p in PLAYERS}
        # no card id at all in a public report: ids name the card
        assert not CARD_ID.search(public), (tag, CARD_ID.search(public))
        for p in PLAYERS:
            for card in after["hands"][p]:  # intrigue ids are unique in the game
                checked_hand += 1
                assert card in private[p], (tag, p, card)
                for other in PLAYERS:
                    if other != p:
                        assert card not in private[other], (tag, other, card)
        for alliance in after["alliances"]:
            if not alliance["secret"]:
                continue
            checked_secret += 1
            mark = f"alliance {alliance['id']}"
            for p in PLAYERS:
                if p not in alliance["members"]:
                    assert f"{alliance['id']} " not in private[p] and mark not in private[p], (tag, p)
            assert f"{alliance['id']} " not in public and mark not in public, (tag, alliance)
            assert "secret " + alliance["type"] not in public
    assert checked_secret > 0 and checked_hand > 0  # the sample game has secrets to keep


def test_secret_proposal_partner_not_public(game: Path) -> None:
    found = 0
    for turn, tag in zip(TURNS, TAGS, strict=True):
        choices = read_yaml(turn)
        for player, choice in choices.items():
            if isinstance(choice, dict) and choice.get("action") == "propose" and choice.get("secret"):
                found += 1
                public = (game / "reports" / f"{tag}.txt").read_text()
                assert f"to {choice['partner']}" not in public
                outsiders = [p for p in PLAYERS if p not in (player, choice["partner"])]
                for p in outsiders:
                    text = (game / "private" / p / f"{tag}.txt").read_text()
                    assert f"to {choice['partner']}" not in text
                partner_text = (game / "private" / choice["partner"] / f"{tag}.txt").read_text()
                assert f"{player} proposes" in partner_text
    assert found > 0


def test_check_and_refused_turn(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "g"
    assert runner.invoke(cli, ["new", str(folder), "--variant", "ambition", "--players", "ann,ben",
                               "--seed", "7"]).exit_code == 0
    phase = next((folder / "history").glob("0001-*.yaml")).stem[5:]
    bad = tmp_path / "bad.yaml"
    bad.write_text(dump_yaml({"phase": phase, "ann": {"action": "declare", "card": "dragon-1", "value": 0},
                              "ben": {"action": "draw"}}))
    result = runner.invoke(cli, ["check", str(folder), str(bad)])
    assert result.exit_code == 1
    assert "ben: ben: not your turn" in result.output
    assert "ann: card: unknown card 'dragon-1'" in result.output
    assert "ann: value: declare a whole number from 1 to 6" in result.output
    before = files(folder)
    result = runner.invoke(cli, ["adjudicate", str(folder), str(bad)])
    assert result.exit_code == 2 and "3 bad choices" in result.output
    assert files(folder) == before  # nothing applied
    good = tmp_path / "good.yaml"
    good.write_text(dump_yaml({"phase": phase, "ann": {"action": "pass"}}))
    assert runner.invoke(cli, ["check", str(folder), str(good)]).exit_code == 0


def test_face_down_declarations_stay_private(game: Path) -> None:
    """A declared Elite is named only to its owner, and to all only if challenged."""
    history = sorted((game / "history").glob("*.yaml"))
    checked = 0
    for index, turn in enumerate(TURNS):
        choices = read_yaml(turn)
        declarer = next((p for p, c in choices.items() if isinstance(c, dict) and c.get("action") == "declare"),
                        None)
        if declarer is None:
            continue
        state = read_yaml(history[index])
        entry = state["catalog"]["elites"][choices[declarer]["card"].rsplit("-", 1)[0]]
        name = f"{entry['name']} ({entry['value']})"
        public = (game / "reports" / f"{TAGS[index]}.txt").read_text()
        assert name not in public, (TAGS[index], name)
        for p in PLAYERS:
            text = (game / "private" / p / f"{TAGS[index]}.txt").read_text()
            assert ("Your face-down declared card: " + name in text) == (p == declarer), (TAGS[index], p)
        answers = read_yaml(TURNS[index + 1])
        if not any(isinstance(c, dict) and c.get("challenge") for c in answers.values()):
            after = (game / "reports" / f"{TAGS[index + 1]}.txt").read_text()
            assert name not in after and "No one challenges" in after, TAGS[index + 1]
        checked += 1
    assert checked > 0


def test_the_round_limit_is_a_game_option(tmp_path: Path) -> None:
    """A GM who wants a shorter game sets the last round at `new`; silent players
    (every phase its default) then end the game after it."""
    runner = CliRunner()
    for bad in ("0", "-1", "two"):
        result = runner.invoke(cli, ["new", str(tmp_path / f"bad{bad}"), "--variant", "ambition",
                                     "--players", "ann,bob", "--option", f"round_limit={bad}"])
        assert result.exit_code == 2 and "round_limit" in result.output and "Traceback" not in result.output
        assert not (tmp_path / f"bad{bad}").exists()
    folder = tmp_path / "short"
    result = runner.invoke(cli, ["new", str(folder), "--variant", "ambition", "--players", "ann,bob",
                                 "--seed", "4", "--option", "round_limit=2"])
    assert result.exit_code == 0, result.output
    for _ in range(2 * 2 * 6 + 1):
        result = runner.invoke(cli, ["adjudicate", str(folder), "--nmr"])
        if result.exit_code != 0:
            break
    assert "game is over" in result.output, result.output
    last = max((folder / "reports").glob("*.txt"))
    assert "-r2-" in last.name and "The round limit (2) is reached" in last.read_text(encoding="utf-8")
