"""Results mails as a mail client expects them: the real Date, a unique
Message-ID, one thread per game, "Corrected" after a phase is adjudicated
again, the map as PNG and SVG and the state file `check --state` reads;
turn-file games get each player's private report, the opening ones too."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailservers import body_of, strict_parse

from adjudicator import __version__
from adjudicator.cards import driver
from adjudicator.folder import gamefolder, players
from adjudicator.folder.checking import check_orders
from adjudicator.mail import results as mail
from adjudicator.store import storage

SLUG = "1901-spring-movement"
T1 = datetime(2025, 3, 1, 18, 30, tzinfo=timezone.utc)
T2 = datetime(2025, 3, 2, 9, 15, tzinfo=timezone.utc)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = gamefolder.new_game(tmp_path / "demo", "standard")
    players.add_player(folder, "france", "Fran", "fr@example.org", "pw-france")
    players.add_player(folder, "england", "Eng", "en@example.org", "pw-england")
    (tmp_path / "orders.txt").write_text("France:\nA par - bur\nEngland:\nF lon - nth\n", encoding="utf-8")
    gamefolder.adjudicate(folder, tmp_path / "orders.txt")
    return folder


def parsed(folder: Path, now: datetime) -> dict[str, EmailMessage]:
    return {str(m["X-Adjudicator-Power"]): strict_parse(mail.message_bytes(m))
            for m in mail.build_messages(folder, SLUG, now)}


def test_the_date_is_when_the_mail_is_written_and_ids_are_unique(game: Path) -> None:
    first, second = parsed(game, T1), parsed(game, T2)
    ids = set()
    for batch, when in ((first, T1), (second, T2)):
        for msg in batch.values():
            assert msg["Date"].datetime == when
            ids.add(msg["Message-ID"])
    assert len(ids) == 4
    # Only the envelope differs: the report is the same text.
    assert body_of(first["france"]) == body_of(second["france"])


def test_every_mail_of_a_game_threads_to_one_root(game: Path) -> None:
    roots = {str(m["References"]).split()[0] for m in parsed(game, T1).values()}
    assert len(roots) == 1 and roots.pop().startswith("<game-")


def test_the_map_as_png_and_the_state_file_are_attached(game: Path, tmp_path: Path) -> None:
    msg = parsed(game, T1)["france"]
    parts = {p.get_content_type(): p for p in msg.iter_attachments()}
    assert set(parts) == {"image/png", "application/x-yaml"}          # the SVG only with mail: {svg: true}
    assert parts["image/png"].get_content().startswith(b"\x89PNG\r\n\x1a\n")
    assert parts["image/png"].get_filename() == f"{SLUG}.png"
    state = parts["application/x-yaml"]
    assert state.get_filename() == "1901-fall-movement.yaml"
    assert state.get_content() == (game / "history" / "1901-fall-movement.yaml").read_bytes()
    # It is the file a player checks their next orders against.
    saved = tmp_path / str(state.get_filename())
    saved.write_bytes(state.get_content())
    (tmp_path / "mine.txt").write_text("A bur - mun\nA mar - spa\n", encoding="utf-8")
    echoed: list[str] = []
    assert check_orders(None, tmp_path / "mine.txt", "france", saved, echo=echoed.append)
    assert "Fall 1901 Movement" in echoed[0]


def test_without_a_png_renderer_the_svg_goes_with_a_note(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "adjudicator.output.png", None)       # import fails
    msg = parsed(game, T1)["france"]
    types = [p.get_content_type() for p in msg.iter_attachments()]
    assert types == ["image/svg+xml", "application/x-yaml"]
    assert "attached as SVG only" in body_of(msg)


def test_a_rerun_keeps_the_written_mail_and_a_new_one_differs_only_in_the_envelope(game: Path) -> None:
    [fr, _] = sorted(mail.write_messages(game, SLUG, now=T1))
    before = fr.read_bytes()
    mail.write_messages(game, SLUG, now=T2)
    assert fr.read_bytes() == before
    fr.unlink()
    mail.write_messages(game, SLUG, now=T2)
    old, new = strict_parse(before), strict_parse(fr.read_bytes())
    assert old["Message-ID"] != new["Message-ID"] and new["Date"].datetime == T2
    assert body_of(old) == body_of(new)


def test_a_phase_adjudicated_again_after_rollback_is_corrected(game: Path, tmp_path: Path) -> None:
    [first] = [p for p in mail.write_messages(game, SLUG, now=T1) if p.stem == "france"]
    old = strict_parse(first.read_bytes())
    gamefolder.rollback(game, SLUG)
    assert not first.exists()                       # moved under history/superseded/
    (tmp_path / "orders.txt").write_text("France:\nA par - pic\n", encoding="utf-8")
    gamefolder.adjudicate(game, tmp_path / "orders.txt")
    new = strict_parse(next(p for p in mail.write_messages(game, SLUG, now=T2) if p.stem == "france").read_bytes())
    assert new["Subject"] == "[demo] Spring 1901 Movement results (Corrected)"
    text = body_of(new)
    assert text.startswith("Corrected results for Spring 1901 Movement")
    assert "Picardy" in text
    assert new["In-Reply-To"] == old["Message-ID"]
    assert str(new["References"]).split() == [str(old["References"]).split()[0], old["Message-ID"]]
    # England had a mail before too: it is corrected as well.
    england = strict_parse((game / "mail" / SLUG / "england.eml").read_bytes())
    assert "(Corrected)" in england["Subject"] and england["In-Reply-To"]


def turn_game(folder: Path) -> Path:
    driver.new_game(folder, "seven-wonders", ["alice", "bob", "carol"], 1)
    meta = storage.read_yaml(folder / "game.yaml")
    meta["players"] = [{"power": p, "name": p, "email": f"{p}@example.org",
                        "password_hash": players.hash_password(f"pw-{p}")} for p in ("alice", "bob", "carol")]
    storage.write_yaml(folder / "game.yaml", meta)
    return folder


def own_picture(folder: Path, seat: str, slug: str) -> bytes:
    """The PNG of `seat`'s own picture of the table (their hand in it), as the mail should carry it."""
    from adjudicator.output.png import svg_to_png
    return svg_to_png((folder / "private" / seat / f"{slug}.svg").read_text(encoding="utf-8"))


def test_a_card_games_results_mail_carries_the_players_own_picture(tmp_path: Path) -> None:
    from adjudicator.output.png import MAX_PNG_BYTES
    folder = turn_game(tmp_path / "sw")
    driver.adjudicate(folder, None, nmr=True)
    slug = mail.latest_reported_slug(folder)
    assert slug == "0001-age1-turn1"
    msgs = {str(m["X-Adjudicator-Power"]): strict_parse(mail.message_bytes(m))
            for m in mail.build_messages(folder, slug, T1)}
    pngs = {}
    for seat, msg in msgs.items():
        (picture,) = msg.iter_attachments()
        assert picture.get_content_type() == "image/png" and picture.get_filename() == f"{slug}.png"
        pngs[seat] = picture.get_content()
        assert len(pngs[seat]) < MAX_PNG_BYTES
        assert pngs[seat] == own_picture(folder, seat, slug)        # their own: their hand is in it
    assert len(set(pngs.values())) == 3                              # nobody gets another's
    # A player with no picture of their own (a folder from before) gets the public one.
    (folder / "private" / "bob" / f"{slug}.svg").unlink()
    from adjudicator.output.png import svg_to_png
    bob = next(m for m in mail.build_messages(folder, slug, T1) if m["X-Adjudicator-Power"] == "bob")
    assert [a.get_content() for a in strict_parse(mail.message_bytes(bob)).iter_attachments()] == \
        [svg_to_png((folder / "maps" / f"{slug}.svg").read_text(encoding="utf-8"))]


def test_turn_file_games_mail_the_opening_reports(tmp_path: Path) -> None:
    folder = turn_game(tmp_path / "sw")
    assert mail.latest_reported_slug(folder) == "0000-setup"
    msgs = {str(m["X-Adjudicator-Power"]): strict_parse(mail.message_bytes(m))
            for m in mail.build_messages(folder, "0000-setup", T1)}
    assert set(msgs) == {"alice", "bob", "carol"}
    for seat, msg in msgs.items():
        assert [a.addr_spec for a in msg["To"].addresses] == [f"{seat}@example.org"]
        assert msg["Subject"] == "[sw] the game begins"
        # No state (it holds every hand): only the player's own picture of the table.
        assert [(a.get_content_type(), a.get_filename()) for a in msg.iter_attachments()] == \
            [("image/png", "0000-setup.png")]
        assert own_picture(folder, seat, "0000-setup") == next(msg.iter_attachments()).get_content()
        text = body_of(msg)
        report = (folder / "private" / seat / "0000-setup.txt").read_text(encoding="utf-8")
        assert text == report + f"-- \nAdjudicated by adjudicator {__version__}\n"
        assert f"({seat} only)" in text
        assert not any(f"({other} only)" in text for other in msgs if other != seat)
    from adjudicator.cli.main import cli
    # `mail` sends each newcomer's welcome, which carries their opening hand (so no separate mail).
    out = CliRunner().invoke(cli, ["mail", str(folder)])
    assert out.exit_code == 0, out.output
    welcomes = sorted((folder / "mail" / "welcome").glob("*.eml"))
    assert [p.name.split("-")[0] for p in welcomes] == ["alice", "bob", "carol"]
    assert not (folder / "mail" / "0000-setup").exists()
    for path in welcomes:
        seat = path.name.split("-")[0]
        welcome = strict_parse(path.read_bytes())
        text = body_of(welcome)
        assert [a.get_content() for a in welcome.iter_attachments()] == [own_picture(folder, seat, "0000-setup")]
        assert (folder / "private" / seat / "0000-setup.txt").read_text(encoding="utf-8").strip() in text
        assert not any(f"({other} only)" in text for other in msgs if other != seat)
