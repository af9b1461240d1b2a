"""A secret proposal's answer phase through the CLI: a player who sends
nothing gets a default, and the public report reads the same whoever of the
players asked stayed silent, so it cannot point at the partner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.store.storage import dump_yaml, read_yaml

from .test_ambition_cli import PLAYERS, TURNS, phase_of


def secret_proposal() -> tuple[int, str, str]:
    """The first secret proposal of the sample: its index, proposer and partner."""
    for index, turn in enumerate(TURNS):
        choices = read_yaml(turn)
        for player, choice in choices.items():
            if isinstance(choice, dict) and choice.get("action") == "propose" and choice.get("secret"):
                return index, player, choice["partner"]
    raise AssertionError("the sample has no secret proposal")


@pytest.fixture(scope="module")
def at_answer(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, str]:
    """A game folder waiting for the answer to the sample's first secret proposal."""
    index, proposer, partner = secret_proposal()
    folder = tmp_path_factory.mktemp("secret") / "game"
    runner = CliRunner()
    assert runner.invoke(cli, ["new", str(folder), "--variant", "ambition",
                               "--players", ",".join(PLAYERS), "--seed", "53"]).exit_code == 0
    for turn in TURNS[:index + 1]:
        result = runner.invoke(cli, ["adjudicate", str(folder), str(turn)])
        assert result.exit_code == 0, result.output
    phase = phase_of(TURNS[index + 1])
    assert phase.endswith("-answer")
    return folder, phase, proposer, partner


def answer(base: Path, where: Path, phase: str, choices: dict) -> dict[str, str]:
    """Adjudicate `choices` on a copy of `base`; the new public and private reports."""
    folder = where / "game"  # the same folder name, so reports can be compared byte for byte
    shutil.copytree(base, folder)
    turn = where / "turn.yaml"
    turn.write_text(dump_yaml({"phase": phase, **choices}))
    result = CliRunner().invoke(cli, ["adjudicate", str(folder), str(turn)])
    assert result.exit_code == 0, result.output
    name = max((folder / "reports").glob("*.txt")).name
    texts = {"public": (folder / "reports" / name).read_text()}
    for p in PLAYERS:
        texts[p] = (folder / "private" / p / name).read_text()
    return texts


def test_silent_players_get_a_default_that_the_public_cannot_trace(
        at_answer: tuple[Path, str, str, str], tmp_path: Path) -> None:
    folder, phase, proposer, partner = at_answer
    outsider = next(p for p in PLAYERS if p not in (proposer, partner))
    no = {"accept": False}
    runs = {
        "both answer": answer(folder, tmp_path / "1", phase, {partner: no, outsider: no}),
        "partner silent": answer(folder, tmp_path / "2", phase, {outsider: no}),
        "outsider silent": answer(folder, tmp_path / "3", phase, {partner: no}),
        "both silent": answer(folder, tmp_path / "4", phase, {}),
    }
    publics = {name: texts["public"] for name, texts in runs.items()}
    assert len(set(publics.values())) == 1, publics
    assert "sent nothing" not in publics["both silent"]
    # the silent partner declined by default: no alliance, as when they answer no
    assert f"{partner} declines {proposer}'s proposal" in runs["partner silent"][partner]
    # each silent player alone is told a default was applied for them
    for name, silent in (("partner silent", partner), ("outsider silent", outsider)):
        for p in PLAYERS:
            told = f"{silent} sent nothing; default applied" in runs[name][p]
            assert told == (p == silent), (name, p)
    # and what the outsider sees does not depend on who was silent, apart from that line
    seen = {runs[name][outsider].replace(f"  - {outsider} sent nothing; default applied\n", "")
            for name in runs}
    assert len(seen) == 1


def test_a_silent_partner_cannot_accept_by_default(at_answer: tuple[Path, str, str, str],
                                                    tmp_path: Path) -> None:
    folder, phase, proposer, partner = at_answer
    texts = answer(folder, tmp_path, phase, {})
    assert "form a secret" not in texts[partner] and "form a secret" not in texts[proposer]
