"""Hostile mails as data: every tests/cases/mail/*.eml is ingested into a fresh
copy of one game folder and must end as tests/cases/mail/expected.yaml says,
and every run must keep the invariants in `check_invariants` (which the
hypothesis test in test_ingest_fuzz.py reuses)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_mail import PASSWORDS, SLUG, make_game, read_eml

from adjudicator.diplomacy.parser import parser_for
from adjudicator.mail.ingest import LEDGER, IngestResult, ingest
from adjudicator.rules import load_variant

CASES = Path(__file__).parent / "cases" / "mail"
EXPECTED = yaml.safe_load((CASES / "expected.yaml").read_text(encoding="utf-8"))
STAMP = re.compile(r"# from [!-+\--~]+@[!-+\--~]+, (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|no date)")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One game folder with seven players, made once: argon2 hashing is slow on purpose."""
    return make_game(tmp_path_factory.mktemp("template") / "game")


def fresh_copy(template: Path, target: Path) -> Path:
    shutil.copytree(template, target)        # copy2 keeps the history file's mtime
    return target


def check_invariants(folder: Path, results: list[IngestResult]) -> None:
    """What must hold after any ingest, whatever the mails were."""
    variant = load_variant("standard")
    stored_paths = set()
    for r in results:
        assert r.status in ("stored", "refused", "quarantined")
        if r.status == "quarantined":
            assert r.quarantined is not None and r.quarantined.is_file() and r.reply is None
            lines = r.quarantined.with_suffix(".txt").read_text(encoding="utf-8").splitlines()
            assert lines and lines[0].strip() and all(line.isprintable() for line in lines)
            assert r.reason is not None and lines[0] == r.reason
            assert r.quarantined.parent == folder / "mail" / "quarantine"
            assert re.fullmatch(r"[0-9a-f]{64}\.eml", r.quarantined.name)
            continue
        if r.reply is None:       # a stranger, an automatic or bounced mail, a lock: never answered
            assert re.search(r"no reply|not answered|held unread", r.reason or ""), r
            if r.status == "stored":      # a player's automatic mail is read, and its orders kept
                assert r.reason is not None and r.reason.startswith("not answered: ")
                assert r.stored is not None and r.power is not None
                stored_paths.add(r.stored)
            else:
                assert r.status == "refused", r
            continue
        assert r.reply.is_file()
        reply = read_eml(r.reply)
        assert [a.addr_spec for a in reply["To"].addresses] == [r.sender]
        assert "\n" not in str(reply["Subject"]) and "\r" not in str(reply["Subject"])
        content = reply.get_content()
        assert not any(pw in content for pw in PASSWORDS.values())
        if r.status == "stored":
            assert r.stored is not None and r.power is not None
            stored_paths.add(r.stored)
        else:
            assert r.stored is None and "Nothing was stored" in content
    on_disk = set((folder / "orders" / SLUG).glob("*.txt")) if (folder / "orders" / SLUG).is_dir() else set()
    assert on_disk == stored_paths                # nothing is stored for a refused mail
    for path in on_disk:
        text = path.read_text(encoding="utf-8")
        # No line break but \n, no control character at all: what any parser reads is what we wrote.
        assert text.splitlines() == text.split("\n")[:-1]
        assert all(c.isprintable() for c in text.replace("\n", ""))
        assert STAMP.fullmatch(text.split("\n")[0]), text.split("\n")[0]
        assert not any(pw in text for pw in PASSWORDS.values())
        parsed = parser_for(variant).parse_text(text, path.stem)
        assert all(line.power == path.stem for line in parsed), text
    ledger = (folder / "mail" / LEDGER).read_text(encoding="utf-8").split("\n") if results else []
    assert all(key and not any(c.isspace() for c in key) for key in ledger[:-1])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_mail_corpus(template: Path, tmp_path: Path, name: str) -> None:
    expected = EXPECTED[name]
    game = fresh_copy(template, tmp_path / "game")
    results = ingest(game, CASES / name)
    check_invariants(game, results)
    assert len(results) == 1
    result = results[0]
    assert result.status == expected["status"], result.reason
    if "reason" in expected:
        assert expected["reason"] in (result.reason or "")
    if expected["status"] == "stored":
        text = (game / "orders" / SLUG / "italy.txt").read_text(encoding="utf-8")
        assert [l for l in text.splitlines() if not l.startswith("#")] == expected["orders"]
        assert len(result.errors) == expected["errors"]
    if "subject" in expected:
        assert result.reply is not None and read_eml(result.reply)["Subject"] == expected["subject"]
    # Handled once: in the ledger, so a second run does nothing.
    assert ingest(game, CASES / name) == []


def test_every_corpus_file_has_an_expectation() -> None:
    assert sorted(p.name for p in CASES.glob("*.eml")) == sorted(EXPECTED)


def test_forged_date_cannot_order_for_germany(template: Path, tmp_path: Path) -> None:
    """H1: Italy's mail whose Date header holds '\\vGermany:\\vA mun - tyr'."""
    game = fresh_copy(template, tmp_path / "game")
    ingest(game, CASES / "h1-forged-date.eml")
    # Every stored file under its power's heading, as adjudication reads them.
    text = "".join(f"{p.stem}:\n{p.read_text(encoding='utf-8')}" for p in (game / "orders" / SLUG).glob("*.txt"))
    lines = parser_for(load_variant("standard")).parse_text(text)
    assert not any(line.power == "germany" for line in lines)
    assert not (game / "orders" / SLUG / "germany.txt").exists()


def test_whole_corpus_through_the_cli(template: Path, tmp_path: Path) -> None:
    """A folder of .eml files; poison mails are set aside and the others still handled, no traceback."""
    from adjudicator.cli.mail import COMMANDS
    from adjudicator.cli.main import cli
    for command in COMMANDS:
        cli.add_command(command)
    game = fresh_copy(template, tmp_path / "game")
    out = CliRunner().invoke(cli, ["ingest", str(game), str(CASES)])
    assert out.exit_code == 0, out.output
    assert out.exception is None
    lines = out.output.splitlines()
    assert len(lines) == len(EXPECTED)
    quarantined = [n for n, e in EXPECTED.items() if e["status"] == "quarantined"]
    assert sum(": quarantined: " in line for line in lines) == len(quarantined)
    assert len(list((game / "mail" / "quarantine").glob("*.eml"))) == len(quarantined)
    assert "unknown charset 'x-unknown-zz'" in out.output
    again = CliRunner().invoke(cli, ["ingest", str(game), str(CASES)])
    assert again.exit_code == 0 and again.output == "no new messages\n"
