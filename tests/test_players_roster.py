"""The roster: argon2id hashes with OWASP's parameters, old hashes still
verified, display names and addresses checked at `player add`, and a
hand-edited roster that cannot break `mail`."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.errors import AdjudicatorError, GameFolderError
from adjudicator.folder import gamefolder, players
from adjudicator.mail import results as mail
from adjudicator.store import storage

SLUG = "1901-spring-movement"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return gamefolder.new_game(tmp_path / "game", "standard")


def test_new_hashes_are_argon2id_with_owasp_parameters() -> None:
    record = players.hash_password("correct horse")
    assert record.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert players.verify(record, "correct horse")
    assert not players.verify(record, "correct hors")
    assert not players.needs_rehash(record)
    assert players.hash_password("correct horse") != record            # salted


def test_old_records_still_verify_and_need_a_rehash() -> None:
    # Records as the previous code wrote them (scrypt) and as older games may hold them (PBKDF2).
    scrypt = ("scrypt$n=16384,r=8,p=1$00112233445566778899aabbccddeeff$"
              "a28c7f2f1e8fd0c7ab1eb52a9dd1c14ad6a4d0c4d04a9bd9e2e2c4fb8c3e0c8e")
    assert not players.verify(scrypt, "x")          # a wrong digest is refused, not an error
    import hashlib
    salt = bytes(range(16))
    digest = hashlib.scrypt(b"pw", salt=salt, n=2 ** 14, r=8, p=1, dklen=32)
    good_scrypt = f"scrypt$n=16384,r=8,p=1${salt.hex()}${digest.hex()}"
    pbkdf2 = f"pbkdf2_sha256$i=1000${salt.hex()}${hashlib.pbkdf2_hmac('sha256', b'pw', salt, 1000).hex()}"
    for record in (good_scrypt, pbkdf2):
        assert players.verify(record, "pw") and not players.verify(record, "pw2")
        assert players.needs_rehash(record)


@pytest.mark.parametrize("record", ["", "nonsense", "$argon2id$v=19$broken", "scrypt$n=x$zz$zz",
                                    "scrypt$n=99999999999,r=8,p=1$00$00", "md5$x$y$z"])
def test_broken_records_never_verify_or_raise(record: str) -> None:
    assert not players.verify(record, "pw")
    assert players.needs_rehash(record)


def test_weaker_argon2_parameters_need_a_rehash() -> None:
    from argon2 import PasswordHasher
    weak = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("pw")
    assert players.verify(weak, "pw") and players.needs_rehash(weak)


@pytest.mark.parametrize("name", ["Zoë O'Brien-Smith", "J. R. R. Tolkien", "李小龍", "Ana 2"])
def test_good_display_names(game: Path, name: str) -> None:
    entry = players.add_player(game, "france", name, "fr@example.org", "pw")
    assert entry["name"] == name


@pytest.mark.parametrize("name", ["", " ", "a\nb", "Bob\rBcc: x@y", "Bob\x00", "x" * 61, "<script>", "a,b",
                                  "Eve\u2028Mallory", "-dash first", "tab\there", "a@b"])
def test_bad_display_names(game: Path, name: str) -> None:
    with pytest.raises(AdjudicatorError, match="player name"):
        players.add_player(game, "france", name, "fr@example.org", "pw")


@pytest.mark.parametrize("email, stored", [("fr@example.org", "fr@example.org"),
                                           ("France <fr@example.org>", "fr@example.org")])
def test_good_addresses(game: Path, email: str, stored: str) -> None:
    assert players.add_player(game, "france", "Fran", email, "pw")["email"] == stored


@pytest.mark.parametrize("email", ["fr@example.org\nBcc: x@example.org", "fr@example.org\r", "a@b.org, c@d.org",
                                   "a@b.org c@d.org", "not-an-address", "a@b.org <c@d.org>", "", "@example.org",
                                   "fr@", "fr@exa mple.org", "frü@example.org", "\"a b\"@example.org"])
def test_bad_addresses(game: Path, email: str) -> None:
    with pytest.raises(AdjudicatorError, match="email address"):
        players.add_player(game, "france", "Fran", email, "pw")


def fake_report(game: Path, power: str) -> None:
    path = game / "private" / power / f"{SLUG}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("report\n", encoding="utf-8")


def test_a_line_break_in_a_hand_edited_name_does_not_break_mail(game: Path) -> None:
    meta = storage.read_yaml(game / "game.yaml")
    france = next(p for p in meta["players"] if p["power"] == "france")
    france.update(name="Evil\r\nBcc: spy@example.org\x0b", email="fr@example.org")
    storage.write_yaml(game / "game.yaml", meta)
    fake_report(game, "france")
    [msg] = mail.build_messages(game, SLUG)
    assert [a.addr_spec for a in msg["To"].addresses] == ["fr@example.org"]
    assert msg["Bcc"] is None
    assert b"\nBcc:" not in mail.message_bytes(msg)
    assert [p.name for p in mail.write_messages(game, SLUG, [msg])] == ["france.eml"]


@pytest.mark.parametrize("email", ["fr@example.org\nBcc: spy@example.org", "a@b.org, spy@example.org"])
def test_a_hand_edited_bad_address_is_a_clear_error(game: Path, email: str) -> None:
    meta = storage.read_yaml(game / "game.yaml")
    next(p for p in meta["players"] if p["power"] == "france")["email"] = email
    storage.write_yaml(game / "game.yaml", meta)
    fake_report(game, "france")
    with pytest.raises(GameFolderError, match="france's email address"):
        mail.build_messages(game, SLUG)


def test_a_hand_edited_power_cannot_leave_the_folder(game: Path) -> None:
    meta = storage.read_yaml(game / "game.yaml")
    meta["players"].append({"power": "../../x", "name": "x", "email": "x@example.org"})
    storage.write_yaml(game / "game.yaml", meta)
    with pytest.raises(AdjudicatorError, match="not allowed"):
        mail.build_messages(game, SLUG)


@pytest.mark.parametrize("name, email, message", [("Bob\nBcc: x@example.org", "b@example.org", "player name"),
                                                  ("Bob", "b@example.org\nBcc: x@example.org", "email address")])
def test_player_add_refuses_on_the_command_line(game: Path, name: str, email: str, message: str) -> None:
    from click.testing import CliRunner

    from adjudicator.cli.mail import COMMANDS
    from adjudicator.cli.main import cli
    for command in COMMANDS:
        cli.add_command(command)
    out = CliRunner().invoke(cli, ["player", "add", str(game), "France", "--name", name, "--email", email,
                                   "--password", "pw-long-enough"])
    assert out.exit_code == 2 and message in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)        # no traceback
    assert "Bcc" not in (game / "game.yaml").read_text(encoding="utf-8")
