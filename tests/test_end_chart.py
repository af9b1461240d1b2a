"""The end-of-game mail of a Diplomacy game carries the chart of each
power's supply centres year by year (centres.png, the site's chart), and
the end report says so; no mail before the end carries it."""

from __future__ import annotations

from datetime import datetime, timezone
from email import policy
from email.parser import BytesParser
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.mail import outbox
from adjudicator.mail import results as mail

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


def ok(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def attachments(path: Path) -> dict[str, tuple[str, bytes]]:
    msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    return {str(part.get_filename()): (part.get_content_type(), part.get_payload(decode=True))
            for part in msg.iter_attachments()}


def test_the_end_mail_carries_the_centre_chart_and_a_mid_game_mail_does_not(tmp_path: Path) -> None:
    game = tmp_path / "g"
    ok("new", str(game))
    for power in ("France", "Germany"):
        ok("player", "add", str(game), power, "--name", power, "--email", f"{power.lower()}@localhost",
           "--password", "correct horse battery")
    ok("adjudicate", str(game), "--nmr")
    # Mid-game: the results mail has the map and the state file, no chart; no end mail is owed.
    middle = mail.write_messages(game, "1901-spring-movement", now=NOW)
    assert middle and all(outbox.CENTRE_CHART not in attachments(p) for p in middle)
    assert all("1901-spring-movement.png" in attachments(p) for p in middle)
    assert outbox.end_text(outbox.look(game, False)) is None
    ok("end", str(game), "--draw")
    report = (game / "reports" / "end.txt").read_text(encoding="utf-8")
    assert "centres.png" in report
    ended = outbox.end_mails(outbox.look(game, False), NOW)
    assert len(ended) == 2
    for path in ended:
        parts = attachments(path)
        kind, data = parts[outbox.CENTRE_CHART]
        assert kind == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
        msg = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert "The game ended in a draw" in msg.get_body(("plain",)).get_content()
    # Written once: asking again writes nothing, and the files stay as they were.
    before = {p: p.read_bytes() for p in ended}
    assert outbox.end_mails(outbox.look(game, False), NOW) == []
    assert {p: p.read_bytes() for p in ended} == before
