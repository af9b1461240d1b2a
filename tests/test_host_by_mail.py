# ruff: noqa: F811  (the server fixtures are imported from mailservers)
"""A host of three games behind one judge address, by `adjudicator run --host`
alone, over real servers: every player's mail is APPENDed to one Dovecot
INBOX, the judge reads it once a tick over IMAP and sends everything over
SMTP to aiosmtpd, with an injected clock.

  * std: Standard, opened for sign-up (`new --open 7`): seven players join
    by mail with preference lists, it fills and starts; three phases; white
    press; an absence that moves a deadline; `orders`, `status`, `history`.
  * ae: Ambition & Empire, a gunboat game (`anonymous: true`, grey press):
    two phases; grey press and a reply to it; the GM pauses and resumes it by
    mail; no player's address or name reaches another player in any header
    or body of any mail (every mail is parsed).
  * wonders: 7 Wonders; three turns; mails routed by a `game:` line.

Alice plays in std and in wonders: her mails are routed by their Subject
tag or a `game:` line, and one that names neither is answered once, listing
her games."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from mailservers import PASSWORD, Dovecot, SmtpInbox, body_of, dovecot, smtp_inbox  # noqa: F401
from test_mail_game import STANDARD

from adjudicator.cli.main import cli
from adjudicator.rules import load_variant

JUDGE = "judge@localhost"
GM = "gm@localhost"
T0 = datetime(2030, 3, 1, 9, 0, tzinfo=timezone.utc)
ORDERS = Path(__file__).resolve().parent.parent / "orders"
JOINERS = ["alice", "pat", "quinn", "rosa", "sam", "tess", "uma"]     # std, by sign-up
GUNBOAT = ["Zoe Park", "Yan Li", "Xia Wu", "Will Orr", "Val Ng", "Una Roy", "Tom Kay", "Sid Fox", "Rae Dunn",
           "Ole Bell"]                                                # ae, seated by the GM
WONDERS = ["alice", "bob", "carol"]


def ok(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def tick(host: Path, when: datetime) -> str:
    return ok("run", "--host", str(host), "--now", when.isoformat())


def addr(who: str) -> str:
    return f"{who.split()[0].lower()}@localhost"


class Players:
    """Players as mail clients: each mail a reply to the last mail they had from the judge, or new."""

    def __init__(self, dovecot: Dovecot, inbox: SmtpInbox) -> None:
        self.dovecot, self.inbox = dovecot, inbox
        self.count = 0
        self.passwords: dict[str, str] = {}

    def mail(self, who: str, body: str, when: datetime, *, subject: str = "orders",
             replying: EmailMessage | None = None, password: str | None = None) -> bytes:
        self.count += 1
        msg = EmailMessage()
        msg["From"] = addr(who)
        msg["To"] = JUDGE
        msg["Subject"] = f"Re: {replying['Subject']}" if replying is not None else subject
        msg["Date"] = format_datetime(when)
        msg["Message-ID"] = f"<m{self.count}-{addr(who).split('@')[0]}@{addr(who).split('@')[0]}.example>"
        if replying is not None:
            msg["In-Reply-To"] = str(replying["Message-ID"])
            msg["References"] = f"{replying['References'] or ''} {replying['Message-ID']}".strip()
        secret = password if password is not None else self.passwords[addr(who)]
        msg.set_content(f"Hello,\npassword: {secret}\n{body}\nThanks\n")
        return bytes(msg)

    def send(self, *raws: bytes) -> None:
        self.dovecot.append(JUDGE, list(raws))

    def had(self, who: str, pattern: str = "") -> list[EmailMessage]:
        return [m for m in self.inbox.of(addr(who)) if re.search(pattern, str(m["Subject"]))]

    def last(self, who: str, pattern: str = "") -> EmailMessage:
        found = self.had(who, pattern)
        assert found, f"{who} had no mail matching {pattern!r}: {[str(m['Subject']) for m in self.inbox.of(addr(who))]}"
        return found[-1]


def sections(path: Path) -> dict[str, str]:
    """A sample orders file's orders by power (its id), heading included."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            current = None
            continue
        if line.endswith(":") and not line.startswith(" "):
            current = found.setdefault(line[:-1], [line])
        elif current is not None:
            current.append(line)
    variant = load_variant("ambition-empire")
    return {str(variant.power_lookup(name)): "\n".join(lines) for name, lines in found.items()}


def roster(game: Path) -> dict[str, str]:
    """address -> seat, from game.yaml."""
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    return {p["email"]: p["power"] for p in meta["players"] if p.get("email")}


def texts_of(msg: EmailMessage) -> str:
    """Every header value and every text part of a mail, decoded: what a reader can see of it."""
    seen = [f"{name}: {value}" for name, value in msg.items()]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            seen.append(str(part.get_content()))
        elif part.get_filename():
            seen.append(str(part.get_filename()))
            if part.get_content_type() in ("application/x-yaml", "image/svg+xml"):
                seen.append(part.get_content().decode("utf-8", "replace") if isinstance(part.get_content(), bytes)
                            else str(part.get_content()))
    return "\n".join(seen)


@pytest.fixture
def host(tmp_path: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ADJUDICATOR_IMAP_PASSWORD", PASSWORD)
    folder = tmp_path / "judge"
    ok("host", str(folder), "--source", dovecot.url(JUDGE), "--smtp", f"{smtp_inbox.host}:{smtp_inbox.port}",
       "--judge-address", JUDGE, "--judge-name", "Test Judge", "--gm-address", GM)
    ok("new", str(folder / "std"), "--open", "7")
    ok("new", str(folder / "ae"), "--variant", "ambition-empire")
    ok("new", str(folder / "wonders"), "--variant", "seven-wonders", "--players", ",".join(WONDERS), "--seed", "7")
    for game in ("std", "ae", "wonders"):
        ok("schedule", str(folder / game), "--movement", "2d", "--retreat", "1d", "--adjustment", "1d",
           "--grace", "1h", "--reminders", "none")
    meta = yaml.safe_load((folder / "ae" / "game.yaml").read_text(encoding="utf-8"))
    meta.update(anonymous=True, press="grey", gm_contact=GM)
    (folder / "ae" / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    variant = load_variant("ambition-empire")
    for name, power in zip(GUNBOAT, variant.powers):
        ok("player", "add", str(folder / "ae"), power, "--name", name, "--email", addr(name),
           "--password", f"pw-{addr(name).split('@')[0]}-long")
    for seat in WONDERS:
        ok("player", "add", str(folder / "wonders"), seat, "--name", seat.title(), "--email", addr(seat),
           "--password", f"pw-{seat}-wonders-long")
    return folder


def test_a_host_of_three_games_by_mail(host: Path, dovecot: Dovecot, smtp_inbox: SmtpInbox) -> None:
    people = Players(dovecot, smtp_inbox)
    people.passwords.update({addr(n): f"pw-{addr(n).split('@')[0]}-long" for n in GUNBOAT})
    secrets = [f"pw-{seat}-wonders-long" for seat in WONDERS]
    out = ok("gm-password", str(host / "ae"), "--generate-password")
    gm_password = re.search(r"password: (\S+)", out)
    assert gm_password is not None
    people.passwords[GM] = gm_password.group(1)
    ae_variant = load_variant("ambition-empire")

    # --- the first tick: ae and wonders open and welcome their players; std waits for sign-up.
    out = tick(host, T0)
    assert "[std] nothing to do: the game waits for its players to sign up" in out
    assert "[ae] sent 10 welcomes" in out and "[wonders] sent 3 welcomes" in out

    # --- sign-up: seven join std by mail (alice plays in wonders too: her `join std` line routes it).
    joins = [people.mail(who, f"join std\nname: {who.title()} Q\npreference: "
                              f"{['France', 'England', 'Germany', 'Italy', 'Austria', 'Russia', 'Turkey'][n]}",
                         T0 + timedelta(minutes=10), subject="sign me up", password=f"pw-{who}-std-long")
             for n, who in enumerate(JOINERS)]
    people.send(*joins)
    out = tick(host, T0 + timedelta(minutes=20))
    assert "host: 7 new mail(s): 7 join" in out
    assert "[std] Spring 1901 Movement opens now" in out and "[std] sent 7 welcomes" in out
    seats = roster(host / "std")
    assert sorted(seats) == sorted(addr(w) for w in JOINERS)
    assert seats[addr("alice")] == "france" and seats[addr("uma")] == "turkey"   # every first choice was free
    for who in JOINERS:
        people.passwords[addr(who)] = f"pw-{who}-std-long"
        answers = people.had(who, r"^\[std\] Re: sign me up")
        assert len(answers) == 1 and "You have joined std" in body_of(answers[0])
        assert body_of(people.last(who, r"^\[std\] Welcome")).startswith("Welcome to std")
    assert "The game is full and starts now" in body_of(people.had(JOINERS[-1], r"Re: sign me up")[0])
    std_power = {seat: address for address, seat in seats.items()}

    # --- Spring 1901 (std), Spring 1763 (ae), the first turn (wonders).
    when = T0 + timedelta(minutes=30)
    mails = []
    for power, orders in STANDARD[0].items():
        who = std_power[power].split("@")[0]
        if who == "alice":        # in two games: a `game:` line, and a Subject that names neither
            mails.append(people.mail(who, f"game: std\n{orders}", when, subject="my orders"))
        else:
            mails.append(people.mail(who, orders, when, replying=people.last(who, r"^\[std\] Welcome")))
    germany = std_power["germany"].split("@")[0]
    mails.append(people.mail(germany, "orders\nstatus", when + timedelta(minutes=1), subject="[std] how are we"))
    mails.append(people.mail("alice", "status", when, subject="a question"))           # names no game
    france = std_power["france"].split("@")[0]
    mails.append(people.mail(france, "press to Germany, Italy:\nShall we keep the Alps quiet?\nendpress", when,
                             subject="[std] press"))
    sample = sections(ORDERS / "ambition-empire" / "1763-spring.txt")
    for name, power in zip(GUNBOAT, ae_variant.powers):
        mails.append(people.mail(name, sample[power] + "\nready", when,
                                 replying=people.last(name, r"^\[ae\] Welcome")))
    mails.append(people.mail(GUNBOAT[0], "press to Prussia, Russia:\nA word about Poland.\nendpress", when,
                             subject="[ae] a word"))
    turn = yaml.safe_load((ORDERS / "seven-wonders" / "01-age1-turn1.yaml").read_text(encoding="utf-8"))
    for seat in WONDERS:
        choice = "\n".join(f"{k}: {v}" for k, v in turn[seat].items())
        if seat == "alice":
            mails.append(people.mail(seat, f"game: wonders\n{choice}", when, subject="choice",
                                     password="pw-alice-wonders-long"))
        else:
            mails.append(people.mail(seat, choice, when, subject="my choice", password=f"pw-{seat}-wonders-long"))
    people.send(*mails)
    out = tick(host, T0 + timedelta(minutes=40))
    assert "1 ambiguous, 2 game line, 2 only game, 19 subject" in out, out
    for game in ("std", "ae"):
        assert f"[{game}] adjudicated" in out, out
    assert "[wonders] adjudicated 0001-age1-turn1 (every order is in)" in out, out
    # The ambiguous mail: one answer, listing alice's games and no one else's.
    which = people.had("alice", r"^Which game\?")
    assert len(which) == 1
    assert "[std]" in body_of(which[0]) and "[wonders]" in body_of(which[0]) and "[ae]" not in body_of(which[0])
    # White press: to Germany and Italy alone, signed France; the log has it.
    for power in ("germany", "italy"):
        press = people.last(std_power[power].split("@")[0], r"^\[std\] Press from France$")
        assert [a.addr_spec for a in press["To"].addresses] == [std_power[power]]
        assert "Shall we keep the Alps quiet?" in body_of(press)
    assert not people.had(std_power["austria"].split("@")[0], "Press")
    assert (host / "std" / "gm" / "press" / "0001.yaml").exists()
    # Grey press (ae): Prussia and Russia have it, and nothing in it names the sending power.
    for name in (GUNBOAT[5], GUNBOAT[7]):
        grey = people.last(name, r"^\[ae\] Press$")
        assert "A word about Poland." in body_of(grey) and "its sender is not named" in body_of(grey)
        assert "Britain" not in texts_of(grey), texts_of(grey)
    # orders and status, answered in the reply.
    answer = body_of(people.last(germany, r"^\[std\] Re: how are we"))
    assert "Your orders for Spring 1901 Movement, as the judge holds them:" in answer
    assert "A Berlin - Kiel" in answer and "Status of std: Spring 1901 Movement." in answer
    assert "Powers in: Austria, England, France, Germany, Italy, Russia, Turkey." in answer
    assert people.last("alice", r"^\[std\] Spring 1901 Movement results")
    assert people.last("bob", r"^\[wonders\] age1-turn1 results")

    # --- Fall 1901 (std): an absence moves its deadline; history with its map. ae: a reply to grey press,
    # and the GM pauses it by mail. wonders: the second turn.
    when = T0 + timedelta(minutes=50)
    deadline = yaml.safe_load((host / "std" / "game.yaml").read_text(encoding="utf-8"))["deadline"]
    assert deadline == "2030-03-03T09:40+00:00"
    italy = std_power["italy"].split("@")[0]
    to_prussia = people.last(GUNBOAT[5], r"^\[ae\] Press$")
    mails = [people.mail(italy, "absence 2030-03-03 2030-03-04\nhistory spring 1901", when,
                         replying=people.last(italy, r"Spring 1901 Movement results")),
             people.mail(GUNBOAT[5], "Poland is mine, whoever you are.", when, replying=to_prussia),
             people.mail("gm", "pause", when, subject="[ae] a pause")]
    turn = yaml.safe_load((ORDERS / "seven-wonders" / "02-age1-turn2.yaml").read_text(encoding="utf-8"))
    for seat in WONDERS:
        choice = "\n".join(f"{k}: {v}" for k, v in turn[seat].items())
        mails.append(people.mail(seat, choice, when, replying=people.last(seat, r"^\[wonders\] age1-turn1 results"),
                                 password=f"pw-{seat}-wonders-long"))
    people.send(*mails)
    out = tick(host, T0 + timedelta(hours=1))
    assert "[wonders] adjudicated 0002-age1-turn2" in out
    meta = yaml.safe_load((host / "std" / "game.yaml").read_text(encoding="utf-8"))
    assert meta["deadline"] == "2030-03-05T09:40+00:00"                # moved past the absence, same time of day
    for power, address in std_power.items():
        notice = people.last(address.split("@")[0], r"^\[std\] Notice: Fall 1901 Movement$")
        assert "Italy will be away from 2030-03-03 to 2030-03-04" in " ".join(body_of(notice).split())
        assert "due by 2030-03-05T09:40+00:00" in " ".join(body_of(notice).split())
    history = people.last(italy, r"^\[std\] Re: Spring 1901 Movement results")
    assert "HISTORY OF SPRING 1901 MOVEMENT (its map is attached)" in body_of(history)
    assert [p.get_content_type() for p in history.iter_attachments()] == ["image/png"]
    # The reply to grey press went to its sender and the other recipient, without naming anyone.
    for name in (GUNBOAT[0], GUNBOAT[7]):
        got = people.last(name, r"^\[ae\] Press$")
        assert "Poland is mine, whoever you are." in body_of(got)
        assert "Prussia" not in texts_of(got), texts_of(got)
    assert yaml.safe_load((host / "ae" / "game.yaml").read_text(encoding="utf-8"))["paused"]
    assert "pause: done" in body_of(people.last("gm", r"^\[ae\] Re: a pause"))

    # ae's Fall orders come in while it is paused: it is not processed, even past its deadline. wonders: turn 3.
    sample = sections(ORDERS / "ambition-empire" / "1763-fall.txt")
    when = T0 + timedelta(hours=1, minutes=10)
    turn = yaml.safe_load((ORDERS / "seven-wonders" / "03-age1-turn3.yaml").read_text(encoding="utf-8"))
    people.send(*[people.mail(name, sample[power] + "\nready", when,
                              replying=people.last(name, r"^\[ae\] Spring 1763 Movement results"))
                  for name, power in zip(GUNBOAT, ae_variant.powers)],
                *[people.mail(seat, "\n".join(f"{k}: {v}" for k, v in turn[seat].items()), when,
                              replying=people.last(seat, r"^\[wonders\] age1-turn2 results"),
                              password=f"pw-{seat}-wonders-long") for seat in WONDERS])
    out = tick(host, when + timedelta(minutes=10))
    assert "[ae] nothing to do: the GM paused the game at 2030-03-01T10:00+00:00" in out, out
    assert "[wonders] adjudicated 0003-age1-turn3 (every order is in)" in out, out
    out = tick(host, T0 + timedelta(days=2, hours=2))          # past ae's deadline and grace
    assert "[ae]" not in out and not (host / "ae" / "reports" / "1763-fall-movement.txt").exists()
    people.send(people.mail("gm", "resume", T0 + timedelta(days=2, hours=2, minutes=5), subject="[ae] resume"))
    out = tick(host, T0 + timedelta(days=2, hours=2, minutes=10))
    assert "[ae] adjudicated 1763-fall-movement (every order is in)" in out, out
    assert "resume: done" in body_of(people.last("gm", r"^\[ae\] Re: resume"))

    # --- Fall 1901 and Winter 1901 (std).
    for number in (1, 2):
        when = T0 + timedelta(days=2, hours=2 + number)
        people.send(*[people.mail(std_power[power].split("@")[0], orders + "\nready", when,
                                  replying=people.last(std_power[power].split("@")[0], r"^\[std\] .* results"))
                      for power, orders in STANDARD[number].items()])
        out = tick(host, when + timedelta(minutes=10))
        assert "[std] adjudicated" in out, out
    assert (host / "std" / "reports" / "1901-winter-adjustment.txt").exists()

    # --- nothing twice: a tick with nothing new steps no game and sends nothing.
    sent = smtp_inbox.count()
    assert "0 game(s) stepped, 3 idle" in tick(host, when + timedelta(minutes=11))
    assert smtp_inbox.count() == sent
    assert len(people.had("alice", r"^Which game\?")) == 1

    # --- the gunboat game: no player's address or name in any mail another player got.
    ae_players = {addr(name): name for name in GUNBOAT}
    for address, name in ae_players.items():
        others = [(a, n) for a, n in ae_players.items() if a != address]
        mails_got = smtp_inbox.of(address)
        assert len(mails_got) >= 6
        for msg in mails_got:
            seen = texts_of(msg)
            flat = " ".join(seen.split())
            for other_address, other_name in others:
                assert other_address not in seen, (msg["Subject"], other_address)
                assert other_name not in flat, (msg["Subject"], other_name)
                assert other_address.split("@")[0] + "." not in str(msg["Message-ID"])
    # Diplomacy Point allocations reach only the power that made them.
    for season in ("spring", "fall"):
        for name, power in zip(GUNBOAT, ae_variant.powers):
            allocations = [line for line in sections(ORDERS / "ambition-empire" / f"1763-{season}.txt")[power]
                           .splitlines() if re.match(r"\d+ DP:", line)]
            for other in GUNBOAT:
                if other == name:
                    continue
                for msg in smtp_inbox.of(addr(other)):
                    flat = " ".join(texts_of(msg).split())
                    assert not any(line in flat for line in allocations), (other, msg["Subject"], allocations)
    # And every mail of the host says it is automatic, and carries no password.
    for who, mails_got in smtp_inbox.mails.items():
        for raw in mails_got:
            head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0].lower()
            assert b"auto-submitted: auto-" in head and b"x-loop: judge@localhost" in head
            for secret in [*people.passwords.values(), *secrets]:
                assert secret.encode() not in raw, (who, secret)
