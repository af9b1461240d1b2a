"""What a host of many games costs a tick: the figures issue 31 asks for.

    .venv/bin/python benchmarks/bench_host.py [--games 1000] [--loop 20] [--no-valgrind]

Builds a host folder of GAMES Standard games, each with seven players and
its first phase open (one game set up through the real commands and its
first tick, then copied, each copy with its own name and addresses), an mbox
mailbox and an aiosmtpd server on 127.0.0.1 (run in this process, so the
figures below are the judge's alone), and prints, side by side:

  * the first tick over all of them (no index yet: every game is stepped);
  * an idle tick (`run --host`, one process): CPU time (user + system), peak
    memory (the child's maximum resident set) and, under valgrind's
    cachegrind, its instruction count, in all and per game;
  * the per-game process form, `run GAME` for LOOP of the same games one
    after another, measured in the same run: CPU and instructions per game;
  * a busy tick: 100 orders mails (ten games get all seven powers' orders and
    are adjudicated, with their results mailed; thirty others get one mail);
    its CPU time and peak memory.

CPU time on a shared machine drifts (the load average is printed with each
figure); each idle figure is the cheapest of three runs, and the instruction
counts do not depend on the load. Nothing is asserted: the targets are
printed beside the figures."""

from __future__ import annotations

import argparse
import mailbox
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mailservers import SmtpInbox, free_port
from test_mail_game import STANDARD

# The command line, in a child that reports its own peak memory as it exits: Linux keeps a
# process's maximum resident set across exec, so wait4 would count this (bigger) parent's.
CHILD = """
import atexit, sys
def peak():
    with open('/proc/self/status') as status:
        sys.stdout.write(''.join(line for line in status if line.startswith('VmHWM:')))
atexit.register(peak)
from adjudicator.cli.main import main
main()
"""
ADJUDICATOR = [sys.executable, "-c", CHILD]
HWM = re.compile(r"^VmHWM:\s+(\d+) kB", re.MULTILINE)
T0 = datetime(2030, 3, 1, 9, 0, tzinfo=timezone.utc)
JUDGE = "judge@bench.example"
PASSWORD = "bench-password-long"
I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


@dataclass
class Cost:
    cpu: float              # seconds, user + system
    rss_mib: float          # peak resident set of the process
    wall: float
    output: str


def measured(args: list[str]) -> Cost:
    """Run a child and take its own resource use (wait4), not anyone else's."""
    start = time.monotonic()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({child.returncode}):\n{output[-3000:]}")
    peak = HWM.search(output)
    return Cost(usage.ru_utime + usage.ru_stime, int(peak.group(1)) / 1024 if peak else float("nan"),
                time.monotonic() - start, output)


def instructions(args: list[str]) -> int | None:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run([valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *args], check=False, capture_output=True, text=True, timeout=3600)
    found = I_REFS.search(done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def cli(*args: str) -> str:
    done = subprocess.run([*ADJUDICATOR, *args], check=False, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"adjudicator {' '.join(args)}: {done.stdout}{done.stderr}")
    return done.stdout


# --- the host -------------------------------------------------------------------------------------
def build(root: Path, games: int, smtp: str) -> Path:
    from adjudicator.folder import players
    from adjudicator.mail.welcome import WELCOME_DIR, welcome_path
    host = root / "host"
    host.mkdir()
    (host / "inbox.mbox").touch()
    cli("host", str(host), "--source", str(host / "inbox.mbox"), "--smtp", smtp, "--judge-address", JUDGE,
        "--judge-name", "Bench Judge", "--gm-address", "gm@bench.example")
    template = root / "template"
    template.mkdir()
    (template / "host.yaml").write_text((host / "host.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    cli("new", str(template / "g0001"))
    cli("schedule", str(template / "g0001"), "--movement", "3d", "--grace", "1h", "--reminders", "24h")
    hashed = players.hash_password(PASSWORD)
    meta = yaml.safe_load((template / "g0001" / "game.yaml").read_text(encoding="utf-8"))
    for entry in meta["players"]:
        entry.update(name=entry["power"].title(), email=f"{entry['power']}-g0001@bench.example", password_hash=hashed)
    (template / "g0001" / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    cli("run", "--host", str(template), "--now", T0.isoformat())       # opens the phase, mails the welcomes
    first = template / "g0001"
    for number in range(1, games + 1):
        name = f"g{number:04d}"
        game = host / name
        shutil.copytree(first, game, ignore=shutil.ignore_patterns("*.eml"))
        meta = yaml.safe_load((first / "game.yaml").read_text(encoding="utf-8"))
        meta["name"] = name
        for entry in meta["players"]:
            entry["email"] = f"{entry['power']}-{name}@bench.example"
        (game / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
        for entry in meta["players"]:
            old = welcome_path(first, "g0001", {**entry, "email": f"{entry['power']}-g0001@bench.example"})
            head = old.read_bytes().split(b"\n\n", 1)[0] + b"\n\n(body left out of the benchmark's copy)\n"
            target = welcome_path(game, name, entry)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(head)
        (game / WELCOME_DIR).mkdir(parents=True, exist_ok=True)
    return host


def orders_mails(host: Path, when: datetime) -> tuple[int, int]:
    """100 orders mails: all seven powers of g0001-g0010, one power of g0011-g0040."""
    box = mailbox.mbox(str(host / "inbox.mbox"))
    count = 0
    try:
        for number in range(1, 41):
            name = f"g{number:04d}"
            powers = list(STANDARD[0]) if number <= 10 else [list(STANDARD[0])[number % 7]]
            for power in powers:
                msg = EmailMessage()
                msg["From"] = f"{power}-{name}@bench.example"
                msg["To"] = JUDGE
                msg["Subject"] = f"Re: [{name}] Welcome: you play {power.title()}"
                msg["Date"] = format_datetime(when)
                msg["Message-ID"] = f"<{name}-{power}@player.example>"
                msg.set_content(f"Hi,\npassword: {PASSWORD}\n{STANDARD[0][power]}\nThanks\n")
                box.add(msg)
                count += 1
        box.flush()
    finally:
        box.close()
    return count, 10


def per_game(total: float, games: int) -> str:
    return f"{1000 * total / games:.1f} ms a game"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--loop", type=int, default=20, help="games run one by one as `run GAME`")
    parser.add_argument("--no-valgrind", action="store_true", help="skip the instruction counts")
    args = parser.parse_args(argv)
    from adjudicator import __version__
    print(f"Python {platform.python_version()} ({sys.executable}), adjudicator {__version__}")
    from aiosmtpd.controller import Controller
    inbox = SmtpInbox("127.0.0.1", free_port())
    controller = Controller(inbox, hostname=inbox.host, port=inbox.port)
    controller.start()
    root = Path(tempfile.mkdtemp(prefix="bench-host-"))
    try:
        started = time.monotonic()
        host = build(root, args.games, f"{inbox.host}:{inbox.port}")
        print(f"built a host of {args.games} Standard games in {time.monotonic() - started:.0f} s ({load()})")
        tick = [*ADJUDICATOR, "run", "--host", str(host), "--now"]
        when = T0 + timedelta(hours=1)
        first = measured([*tick, when.isoformat()])
        print(f"first tick, no index (every game stepped): CPU {first.cpu:.1f} s ({per_game(first.cpu, args.games)}),"
              f" peak {first.rss_mib:.0f} MiB, wall {first.wall:.1f} s ({load()})")
        idle = []
        for n in range(3):
            idle.append(measured([*tick, (when + timedelta(minutes=n + 1)).isoformat()]))
            assert f"0 game(s) stepped, {args.games} idle" in idle[-1].output, idle[-1].output
        cheapest = min(idle, key=lambda c: c.cpu)
        peak = max(c.rss_mib for c in idle)
        print(f"idle tick (run --host, one process): CPU {cheapest.cpu:.2f} s, cheapest of 3 "
              f"({per_game(cheapest.cpu, args.games)}; target < 5 s in all), peak {peak:.0f} MiB "
              f"(target < 200 MiB), wall {cheapest.wall:.2f} s ({load()})")
        names = [f"g{n:04d}" for n in range(args.games - args.loop + 1, args.games + 1)]
        loop = [measured([*ADJUDICATOR, "run", str(host / name), "--now", (when + timedelta(minutes=5)).isoformat()])
                for name in names]
        loop_cpu = sum(c.cpu for c in loop)
        print(f"per-game process form (run GAME, {args.loop} games one after another): CPU "
              f"{per_game(loop_cpu, args.loop)}, peak {max(c.rss_mib for c in loop):.0f} MiB a process; "
              f"{args.games} games would take {loop_cpu / args.loop * args.games:.0f} s of CPU a tick ({load()})")
        print(f"  host idle tick per game / process form per game: 1 : {loop_cpu / args.loop / (cheapest.cpu / args.games):.0f}")
        if not args.no_valgrind:
            host_refs = instructions([*tick, (when + timedelta(minutes=10)).isoformat()])
            game_refs = instructions([*ADJUDICATOR, "run", str(host / names[0]), "--now",
                                      (when + timedelta(minutes=11)).isoformat()])
            if host_refs is None or game_refs is None:
                print("instructions: valgrind is not installed")
            else:
                print(f"instructions (cachegrind): idle tick {host_refs / 1e6:.0f} M in all, "
                      f"{host_refs / args.games / 1e6:.2f} M a game; run GAME {game_refs / 1e6:.0f} M a game; "
                      f"ratio 1 : {game_refs / (host_refs / args.games):.0f}")
        count, adjudicated = orders_mails(host, when + timedelta(minutes=20))
        busy = measured([*tick, (when + timedelta(minutes=30)).isoformat()])
        done = busy.output.count("adjudicated 1901-spring-movement")
        sent = inbox.count()
        print(f"busy tick ({count} orders mails, {done} of {adjudicated} games adjudicated and mailed): CPU "
              f"{busy.cpu:.1f} s (target < 30 s), peak {busy.rss_mib:.0f} MiB, wall {busy.wall:.1f} s; "
              f"{sent} mails reached the SMTP server in all ({load()})")
        if done != adjudicated:
            print(busy.output[-3000:])
        return 0
    finally:
        controller.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
