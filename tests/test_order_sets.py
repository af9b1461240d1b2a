"""Order sets by mail, as njudge keeps them: a later mail replaces the orders
of the units it names and keeps the others, `clear` starts afresh, every
reply shows the whole set as stored and what still has no order, and a power
is "in" only with a complete set of valid orders or after `ready`; `wait`
holds the phase until the deadline. Every test ingests real mails; the `run`
tests drive the real command with an injected clock."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_ingest_corpus import fresh_copy
from test_mail import (
    OPENED,
    PASSWORDS,
    SLUG,
    address,
    letter,
    make_game,
    open_phase_at,
    read_eml,
)

from adjudicator.cli.main import cli
from adjudicator.folder import gamefolder
from adjudicator.folder.folders import open_game
from adjudicator.folder.orderset import read_set
from adjudicator.mail.ingest import IngestResult, ingest
from adjudicator.store import seal, storage

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "orders" / "standard"
FULL = {"austria": "A vie - gal\nF tri - alb\nA bud - ser", "england": "F lon - nth\nF edi - nwg\nA lvp - yor",
        "germany": "A ber - kie\nF kie - den\nA mun - ruh", "italy": "A ven - pie\nF nap - ion\nA rom - apu",
        "russia": "A mos - ukr\nF sev - bla\nA war - gal\nF stp/sc - bot",
        "turkey": "F ank - bla\nA con - bul\nA smy - con", "france": "A par - bur\nF bre - mao\nA mar - spa"}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path_factory.mktemp("sets") / "game")


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    return fresh_copy(template, tmp_path / "game")


class Mailer:
    """Real mails, one .eml each, ingested in turn."""

    def __init__(self, game: Path, tmp_path: Path) -> None:
        self.game, self.tmp, self.count = game, tmp_path, 0

    def send(self, power: str, orders: str) -> IngestResult:
        self.count += 1
        msg = letter(address(power), f"password: {PASSWORDS[power]}\n{orders}\n", min(self.count, 59),
                     f"m{self.count}-{power}")
        path = self.tmp / f"m{self.count}.eml"
        path.write_bytes(bytes(msg))
        [result] = ingest(self.game, path)
        assert result.status == "stored", result.reason
        return result


@pytest.fixture
def mail(game: Path, tmp_path: Path) -> Mailer:
    return Mailer(game, tmp_path)


def held(game: Path, power: str, slug: str = SLUG) -> list[str]:
    found = read_set(game / "orders" / slug / f"{power}.txt")
    assert found is not None
    return found.lines


def reply(result: IngestResult) -> str:
    return str(read_eml(result.reply).get_content())


# --- corrections -------------------------------------------------------------------------------
def test_a_correction_replaces_only_the_units_it_names(game: Path, mail: Mailer) -> None:
    mail.send("france", "A par - bur\nF bre - mao\nA mar - spa")
    result = mail.send("france", "A par - pic")
    assert held(game, "france") == ["A par - pic", "F bre - mao", "A mar - spa"]
    text = reply(result)
    assert "your other orders are kept" in text
    shown = text.split("as the judge holds them now:")[1]
    for order in ("A Paris - Picardy", "F Brest - Mid-Atlantic Ocean", "A Marseilles - Spain"):
        assert order in shown
    assert "France is in" in text


def test_a_line_that_cannot_be_used_keeps_the_order_it_would_replace(game: Path, mail: Mailer) -> None:
    mail.send("france", "A par - bur\nF bre - mao\nA mar - spa")
    result = mail.send("france", "A par - xyzzy\nF bre - eng")
    assert held(game, "france") == ["A par - bur", "F bre - eng", "A mar - spa"]
    assert "A par - xyzzy" in (game / "orders" / SLUG / "france.txt").read_text(encoding="utf-8")
    assert result.errors and "line 2" in result.errors[0]


def test_clear_starts_afresh_and_the_reply_lists_units_without_orders(game: Path, mail: Mailer) -> None:
    mail.send("france", "A par - bur\nF bre - mao\nA mar - spa")
    result = mail.send("france", "clear\nA par H")
    assert held(game, "france") == ["A par H"]
    text = reply(result)
    assert "You said 'clear'" in text
    assert "F Brest has no order" in text and "A Marseilles has no order" in text
    assert "France is not in yet" in text
    assert mail.send("france", "clear").status == "stored"
    assert held(game, "france") == []


# --- who is in ----------------------------------------------------------------------------------
def test_an_incomplete_or_void_set_is_not_in_and_ready_puts_it_in(game: Path, mail: Mailer) -> None:
    mail.send("france", "A par - bur\nF bre - mao")
    stand = open_game(game).standing()
    assert "france" in stand.waiting and stand.lacking["france"] == ["A Marseilles has no order"]
    mail.send("france", "A mar - mun")                       # void: Marseilles does not border Munich
    assert "france" in open_game(game).standing().waiting
    result = mail.send("france", "ready")
    assert "france" not in open_game(game).standing().waiting
    assert "You said 'ready'" in reply(result)
    assert held(game, "france") == ["A par - bur", "F bre - mao", "A mar - mun"]      # ready kept the orders


def test_wait_keeps_a_complete_set_out_until_ready(game: Path, mail: Mailer) -> None:
    mail.send("france", "A par - bur\nF bre - mao\nA mar - spa\nwait")
    stand = open_game(game).standing()
    assert "france" in stand.waiting and stand.holding == ["france"]
    assert "asked to wait for the deadline" in open_game(game).status()
    mail.send("france", "A par - pic")                       # a correction keeps the wait
    assert "france" in open_game(game).standing().waiting
    mail.send("france", "ready")
    assert "france" not in open_game(game).standing().waiting


def test_status_and_replies_say_which_powers_are_in(game: Path, mail: Mailer) -> None:
    mail.send("austria", FULL["austria"])
    result = mail.send("england", "F lon - nth")
    text = reply(result)
    assert "Powers in: Austria." in text
    assert "Not in yet: England, France, Germany, Italy, Russia, Turkey." in text
    status = open_game(game).status()
    assert "Orders in: Austria" in status
    assert "Waiting for: England, France, Germany, Italy, Russia, Turkey\n" in status
    assert "  England: F Edinburgh has no order; A Liverpool has no order\n" in status
    assert "  France:" not in status                     # sent nothing: nothing more to say


# --- builds and disbands ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def winter_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = make_game(tmp_path_factory.mktemp("winter") / "game")
    for name in ("1901-spring.txt", "1901-fall.txt"):
        gamefolder.adjudicate(folder, SAMPLES / name)
    open_phase_at(folder, OPENED)           # the mails below are dated after it
    return folder


WINTER = "1901-winter-adjustment"


def test_builds_add_up_to_what_is_owed_and_the_newest_win(winter_template: Path, tmp_path: Path) -> None:
    game = fresh_copy(winter_template, tmp_path / "game")
    mail = Mailer(game, tmp_path)
    mail.send("france", "build A par")                          # France owes 3 builds
    stand = open_game(game).standing()
    assert "france" in stand.waiting and stand.lacking["france"] == ["2 more builds or waives"]
    mail.send("france", "build F bre")
    assert held(game, "france", WINTER) == ["build A par", "build F bre"]
    mail.send("france", "build A par")                          # the same site again: no third build
    assert held(game, "france", WINTER) == ["build A par", "build F bre"]
    mail.send("france", "waive")
    assert "france" not in open_game(game).standing().waiting
    result = mail.send("france", "build A mar")                 # one too many: the oldest goes
    assert held(game, "france", WINTER) == ["build F bre", "waive", "build A mar"]
    assert "France is in" in reply(result)


# --- run --------------------------------------------------------------------------------------------
def run(game: Path, when: str) -> str:
    result = CliRunner().invoke(cli, ["run", str(game), "--now", when])
    assert result.exit_code == 0, result.output
    return result.output


def test_run_does_not_process_an_incomplete_set_early_and_does_after_ready(game: Path, mail: Mailer) -> None:
    assert CliRunner().invoke(cli, ["deadline", str(game), "2024-01-05T18:00Z"]).exit_code == 0
    for power, orders in FULL.items():
        mail.send(power, orders if power != "france" else "A par - bur\nF bre - mao")
    out = run(game, "2024-01-02T12:00Z")
    assert "adjudicated" not in out and "France" in out
    mail.send("france", "ready")
    out = run(game, "2024-01-02T12:05Z")
    assert f"adjudicated {SLUG} (every order is in)" in out
    report = (game / "reports" / f"{SLUG}.txt").read_text(encoding="utf-8")
    assert "A Paris - Burgundy" in report and "A Marseilles H" in report


def test_run_waits_for_the_deadline_when_a_power_said_wait(game: Path, mail: Mailer) -> None:
    assert CliRunner().invoke(cli, ["deadline", str(game), "2024-01-05T18:00Z"]).exit_code == 0
    for power, orders in FULL.items():
        mail.send(power, orders + ("\nwait" if power == "italy" else ""))
    assert "adjudicated" not in run(game, "2024-01-02T12:00Z")
    assert f"adjudicated {SLUG}" in run(game, "2024-01-05T18:01Z")


# --- retreats -----------------------------------------------------------------------------------
def test_a_retreat_is_replaced_by_the_next_one_and_only_a_valid_one_counts(game: Path, mail: Mailer) -> None:
    (game / "history" / f"{SLUG}.yaml").unlink()
    retreat = game / "history" / "1901-spring-retreat.yaml"
    retreat.write_text(storage.seal(yaml.safe_dump({
        "variant": "standard", "phase": {"year": 1901, "season": "spring", "kind": "retreat"},
        "units": {"germany": ["A bur"], "england": ["F lon"]}, "centres": {"france": ["par"]},
        "dislodged": [{"unit": "A par", "power": "france", "attacker_from": "bur", "retreats": ["gas"]}]})),
        encoding="utf-8")
    seal.reseal(game)            # a history file made by hand: sealed with the game's key
    open_phase_at(game, OPENED)
    result = mail.send("france", "A par R bur")                 # where the attack came from: void
    assert open_game(game).standing().lacking["france"] == ["dislodged A Paris: its order is void"]
    assert "France is not in yet" in reply(result)
    result = mail.send("france", "A par R gas")
    assert held(game, "france", "1901-spring-retreat") == ["A par R gas"]
    assert open_game(game).standing().waiting == []
    assert "France is in" in reply(result)


def test_disbands_count_against_what_is_owed_and_the_newest_win() -> None:
    """Austria holds 2 centres with 4 units in Winter 1902: it owes 2 disbands.
    Disbands count against that debt, and a build or waive does not."""
    from adjudicator.diplomacy.statefile import state_from_data
    from adjudicator.folder.orderset import SetWords, merge, readiness
    from adjudicator.rules import load_variant
    variant = load_variant("standard")
    state = state_from_data({
        "variant": "standard", "phase": {"year": 1902, "season": "winter", "kind": "adjustment"},
        "units": {"austria": ["A vie", "A bud", "F tri", "A ser"], "italy": ["A ven"]},
        "centres": {"austria": ["vie", "bud"], "italy": ["ven", "tri", "rom"]}}, variant, "test")
    held = merge(variant, state, "austria", None, "A vie disband\nwaive", SetWords(), "# first")
    assert held.lines == ["A vie disband"] and held.refused == ["waive"]        # nothing to waive
    assert readiness(variant, state, "austria", held).missing == ["1 more disband"]
    held = merge(variant, state, "austria", held, "A bud disband\nA ser disband", SetWords(), "# second")
    assert held.lines == ["A bud disband", "A ser disband"]                     # the newest two
    assert readiness(variant, state, "austria", held).complete
    held = merge(variant, state, "austria", held, "A vie - tyr\nF tri H", SetWords(), "# third")
    assert held.lines == ["A bud disband", "A ser disband"]                     # a move or hold is no disband
    assert held.refused == ["A vie - tyr", "F tri H"]
