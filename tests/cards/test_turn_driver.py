"""The shared turn-file driver, tested on a tiny made-up game so that each
behaviour is visible: game options, unknown players, private "default
applied" lines, broken templates, and the order in which files are written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cards import driver
from adjudicator.cards.common import (
    Choice,
    ChoiceError,
    Event,
    Outcome,
    PhaseInfo,
    State,
    VariantData,
    new_rng_record,
)
from adjudicator.cli.main import cli
from adjudicator.store import storage

PUBLIC = "Public {{ phase.name }}\n{% for e in events %}{{ e }}\n{% endfor %}"
PRIVATE = "Private {{ player }}\n{% for e in events %}{{ e }}\n{% endfor %}"


class SecretVote:
    """Each round everyone votes for or against in secret; silence means against.
    Option `quiet` makes the phase keep its 'default applied' lines private."""

    name = "secret-vote"
    title = "Secret Vote"
    min_players = 2
    max_players = 4
    variant_data = VariantData(name)     # no installed file: the tests patch driver.load_data

    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        return {"players": players, "round": 1, "rules": dict(data.get("rules", {})),
                "votes": {}, "rng": new_rng_record(seed)}

    def phase(self, state: State) -> PhaseInfo | None:
        if state["round"] > 2:
            return None
        return PhaseInfo(f"round-{state['round']}", "simultaneous", list(state["players"]),
                         quiet_defaults=bool(state["rules"].get("quiet")))

    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        return [ChoiceError(p, "vote", "vote for or against") for p, c in turn.items()
                if not isinstance(c, dict) or c.get("vote") not in ("for", "against")]

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        return {"vote": "against"}

    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        state["votes"][state["round"]] = {p: c["vote"] for p, c in sorted(turn.items())}
        yes = sum(c["vote"] == "for" for c in turn.values())
        state["round"] += 1
        return Outcome(state, [Event(f"{yes} voted for")] +
                       [Event(f"you voted {c['vote']}", (p,)) for p, c in sorted(turn.items())])

    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"round": state["round"]}

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"round": state["round"]}


@pytest.fixture
def game_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(driver, "find_game", lambda name: SecretVote())
    monkeypatch.setattr(driver, "load_data", lambda game: {"rules": {"source": "default", "quiet": False}})
    monkeypatch.setattr("adjudicator.cli.main.is_turn_file_game", lambda name: True)
    # The made-up game ships no templates (each test adds its own after
    # `new`), so it gets no opening reports.
    monkeypatch.setattr(driver, "opening_reports", lambda *args: [])
    return tmp_path / "vote"


def add_templates(folder: Path, public: str = PUBLIC, private: str = PRIVATE) -> None:
    (folder / "templates" / "secret-vote").mkdir(parents=True, exist_ok=True)
    (folder / "templates" / "secret-vote" / "public.txt.j2").write_text(public)
    (folder / "templates" / "secret-vote" / "private.txt.j2").write_text(private)


def new(folder: Path, *options: str) -> Any:
    args = ["new", str(folder), "--variant", "secret-vote", "--players", "ann,bob,cy"]
    for option in options:
        args += ["--option", option]
    return CliRunner().invoke(cli, args)


def write_turn(folder: Path, text: str) -> Path:
    path = folder.parent / "turn.yaml"
    path.write_text(text)
    return path


def test_option_reaches_setup_and_game_yaml(game_dir: Path) -> None:
    result = new(game_dir, "quiet=true")
    assert result.exit_code == 0, result.output
    assert storage.read_yaml(game_dir / "game.yaml")["options"] == {"quiet": True}
    state = storage.read_yaml(min((game_dir / "history").iterdir()))
    assert state["rules"]["quiet"] is True


@pytest.mark.parametrize("option, message", [
    ("loud=true", "has no option loud"),
    ("quiet=3", "should be a bool"),
    ("quiet", "is not KEY=VALUE"),
])
def test_bad_options_exit_2_and_create_nothing(game_dir: Path, option: str, message: str) -> None:
    result = new(game_dir, option)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not game_dir.exists()


def test_unknown_player_is_named_as_such(game_dir: Path) -> None:
    new(game_dir)
    turn = write_turn(game_dir, "ann: {vote: for}\nzed: {vote: against}\n")
    result = CliRunner().invoke(cli, ["check", str(game_dir), str(turn)])
    assert result.exit_code == 1
    assert "zed: zed: no such player in this game (players: ann, bob, cy)" in result.output


@pytest.mark.parametrize("quiet, bob_line_public", [("false", True), ("true", False)])
def test_default_applied_lines_follow_quiet_defaults(game_dir: Path, quiet: str, bob_line_public: bool) -> None:
    new(game_dir, f"quiet={quiet}")
    add_templates(game_dir)
    turn = write_turn(game_dir, "ann: {vote: for}\ncy: {vote: for}\n")
    result = CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(turn)])
    assert result.exit_code == 0, result.output
    public = (game_dir / "reports" / "0001-round-1.txt").read_text()
    assert ("bob sent nothing; default applied" in public) is bob_line_public
    assert "2 voted for" in public and "you voted" not in public
    assert "bob sent nothing; default applied" in (game_dir / "private" / "bob" / "0001-round-1.txt").read_text()
    ann = (game_dir / "private" / "ann" / "0001-round-1.txt").read_text()
    assert ("bob sent nothing" in ann) is bob_line_public
    assert "you voted for" in ann


def test_broken_template_is_a_clear_error_and_writes_nothing(game_dir: Path) -> None:
    new(game_dir)
    add_templates(game_dir, public="line one\n{% for e in events %}\n")
    before = sorted(p.relative_to(game_dir) for p in game_dir.rglob("*"))
    turn = write_turn(game_dir, "ann: {vote: for}\nbob: {vote: against}\ncy: {vote: against}\n")
    result = CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(turn)])
    assert result.exit_code == 2
    assert "public.txt.j2" in result.output and "template syntax error" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.relative_to(game_dir) for p in game_dir.rglob("*")) == before


def test_undefined_name_in_template_is_a_clear_error(game_dir: Path) -> None:
    new(game_dir)
    add_templates(game_dir, private="{{ no_such_thing }}\n")
    turn = write_turn(game_dir, "ann: {vote: for}\nbob: {vote: against}\ncy: {vote: against}\n")
    result = CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(turn)])
    assert result.exit_code == 2
    assert "private.txt.j2" in result.output and "no_such_thing" in result.output
    assert not (game_dir / "reports").exists()


def test_variant_data_is_parsed_once_and_copied() -> None:
    from adjudicator.cards.registry import find_game
    game = find_game("seven-wonders")
    first = driver.load_data(game)
    first["rules"]["side"] = "changed by a caller"
    assert driver.load_data(game)["rules"]["side"] == "A"


def test_the_same_turn_file_run_twice_is_refused(game_dir: Path) -> None:
    new(game_dir)
    add_templates(game_dir)
    turn = write_turn(game_dir, "ann: {vote: for}\nbob: {vote: against}\ncy: {vote: for}\n")
    assert CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(turn)]).exit_code == 0
    again = CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(turn)])
    assert again.exit_code == 2
    assert "repeats the choices already applied to phase round-1" in again.output
    assert "phase: round-2" in again.output
    assert not (game_dir / "reports" / "0002-round-2.txt").exists()
    named = write_turn(game_dir, "phase: round-2\nann: {vote: for}\nbob: {vote: against}\ncy: {vote: for}\n")
    assert CliRunner().invoke(cli, ["adjudicate", str(game_dir), str(named)]).exit_code == 0


def test_new_game_shows_each_player_their_own_opening_hand(tmp_path: Path) -> None:
    """Issue 10: `new` wrote no report, so no 7 Wonders player was ever shown
    the Age I hand to choose from. Each private opening report holds its
    owner's hand and nobody else's; the public one holds no hand."""
    game = tmp_path / "w"
    result = CliRunner().invoke(cli, ["new", str(game), "--variant", "seven-wonders",
                                      "--players", "alice,bob,carol", "--seed", "7"])
    assert result.exit_code == 0, result.output
    state = storage.read_yaml(game / "history" / "0001-age1-turn1.yaml")
    hands = {name: set(city["hand"]) for name, city in state["cities"].items()}
    public = (game / "reports" / "0000-setup.txt").read_text(encoding="utf-8")
    assert "Your hand" not in public
    for reader, own in hands.items():
        text = (game / "private" / reader / "0000-setup.txt").read_text(encoding="utf-8")
        shown = {line.strip()[2:].split(" [")[0] for line in text.splitlines() if line.startswith("  - ")}
        assert shown == own, reader
        for other, cards in hands.items():
            if other != reader:
                assert not (cards - own) & shown


def test_a_running_game_keeps_its_own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11: editing the installed variants/*.yaml changed running games
    (Age of Ambition re-read it every turn). `new` keeps the game's data,
    options applied, in GAME/variant.yaml, and every later command uses it."""
    game = tmp_path / "a"
    result = CliRunner().invoke(cli, ["new", str(game), "--variant", "age-of-ambition",
                                      "--players", "alice,bob", "--seed", "3", "--option", "stalemate_ends=false"])
    assert result.exit_code == 0, result.output
    own = storage.read_yaml(game / "variant.yaml")
    assert own["rules"]["stalemate_ends"] is False
    monkeypatch.setattr(driver, "load_data", lambda g: {"rules": {"edited": True}})
    data = driver.current(game).data
    assert data == own
