"""The command line. Commands are thin: they parse arguments, call the
library, and print. Every AdjudicatorError becomes one line on stderr and
exit code 2; no traceback reaches the user.

Start-up: this module imports click and nothing heavy, so that `status`
and `check` start quickly. Each command imports what it needs when it runs
(the game folder, the engine, the store, the mail), and the commands defined in other modules (map, site, mail,
ingest, player, the game's end) are imported only when one of them runs: `adjudicator --help`
lists them by the summaries in LAZY_COMMANDS."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from adjudicator import __version__
from adjudicator.cli.errors import friendly_errors
from adjudicator.errors import AdjudicatorError

if TYPE_CHECKING:
    from types import ModuleType


class LazyCommand(click.Command):
    """Stands in the group for a command defined in another module, which is
    imported only when the command runs (or shows its own help). Its help is
    the first paragraph of the real command's, all that the group's --help
    shows; tests/test_speed_startup.py checks the two agree."""

    def __init__(self, name: str, target: str, summary: str) -> None:
        super().__init__(name, help=summary)
        self.target = target             # "module:attribute"

    def real(self) -> click.Command:
        import importlib
        module, _, attribute = self.target.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attribute)
        return command

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        # The context is the real command's, so it parses, helps and runs as if registered itself.
        return self.real().make_context(info_name, args, parent, **extra)


# name: (module:attribute, the first paragraph of its help)
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "map": ("adjudicator.cli.maps:map_command",
            ("Draw GAME's map: the state at the start of the current phase; or, with --phase, that phase's "
             "results with its orders drawn (replayed from its history state and orders/<phase>.txt), "
             "or its position if not yet adjudicated.")),
    "site": ("adjudicator.cli.maps:site_command",
             ("Write a static HTML site of GAME's public record into OUT: an index of phases and, for each, "
              "its map (none for a card game) and public report (never private files). Files are 0644 and "
              "folders 0755, ready to serve.")),
    "mail": ("adjudicator.cli.mail:mail_cmd",
             ("Write (and with --send, send) each player's results mail for a phase, each newcomer's welcome "
              "and the phase's notices. A mail already sent (listed in GAME/mail/sent.txt) is not sent again.")),
    "ingest": ("adjudicator.cli.mail:ingest_cmd",
               ("Take orders into GAME from SOURCE: an mbox file, a Maildir, one .eml file, a folder of .eml "
                "files, or an IMAP folder such as imaps://judge@example.org@mail.example.org:993/INBOX "
                "(password from ADJUDICATOR_IMAP_PASSWORD or a prompt). Mails that cannot be read safely are "
                "set aside in GAME/mail/quarantine/ with the reason printed here.")),
    "player": ("adjudicator.cli.players:player_group",
               "Manage the players roster (names, email addresses, passwords)."),
    "seal": ("adjudicator.cli.safety:seal_command",
             "Seal GAME's history files as they are now, with the game's key (after the GM repaired one by hand)."),
    "unlock": ("adjudicator.cli.safety:unlock_command",
               "Let WHO (a power, player or address locked out after wrong passwords) mail GAME again now."),
    "schedule": ("adjudicator.cli.settings:schedule_command",
                 ("Set GAME's schedule: each phase's length, the grace after a deadline, the reminders and the "
                  "missed limit. An option left out keeps its value. The next phase `run` opens gets its "
                  "deadline from it.")),
    "host": ("adjudicator.cli.hosting:host_command",
             ("Make FOLDER a host of games, or change its settings (host.yaml): one judge address, one mailbox, "
              "for every game folder in it. An option left out keeps its value. `adjudicator run --host FOLDER` "
              "runs them all.")),
    "gm-password": ("adjudicator.cli.hosting:gm_password_command",
                    ("Set the GM's password for commands by mail (pause, resume, extend, process, approve, "
                     "refuse), mailed from the GM's own address (`mailbox --gm-address`).")),
    "signup": ("adjudicator.cli.hosting:signup_command",
               ("Show GAME's sign-up list (a game opened with `new --open N`), or approve or refuse a joiner. "
                "When the list is full, the powers are assigned and the next `run` opens the first phase.")),
    "civil-disorder": ("adjudicator.cli.endings:civil_disorder",
                       "Declare POWER in civil disorder, in variants whose rules have it (Ambition & Empire)."),
    "end": ("adjudicator.cli.endings:end",
            ("End GAME by a draw shared by every surviving power, and write reports/end.txt (the result, the "
             "final centres, the centres year by year).")),
    "vote": ("adjudicator.cli.endings:vote",
             "Record POWER's vote: draw [POWER ...], concede POWER, or none."),
    "mailbox": ("adjudicator.cli.settings:mailbox_command",
                ("Set where GAME's mail comes from and goes through, and who the judge is. An option left out "
                 "keeps its value. Passwords never go here: `run` reads them from ADJUDICATOR_IMAP_PASSWORD and "
                 "ADJUDICATOR_SMTP_PASSWORD.")),
}


MAX_HOUSE_RULES = 20_000          # characters: a page or two; more is a mistake


def read_house_rules(path: Path) -> str:
    """The house rules as plain text: every line printable (tabs become spaces), at most a few pages."""
    from adjudicator.store import storage
    text = storage.read_text(path, max_bytes=4 * MAX_HOUSE_RULES, what="house rules file")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\t", "    ")
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.isprintable():
            raise AdjudicatorError("a control character in the house rules", file=str(path), line=number,
                                   hint="save the file as plain text")
    if len(text) > MAX_HOUSE_RULES:
        raise AdjudicatorError(f"the house rules are over {MAX_HOUSE_RULES} characters", file=str(path),
                               hint="keep them to a page or two; link to a longer text")
    if not text.strip():
        raise AdjudicatorError("the house rules file is empty", file=str(path))
    return text.strip("\n") + "\n"


def is_turn_file_game(name: str) -> bool:
    """cards.registry's answer, imported only by `new` (which asks it)."""
    from adjudicator.cards.registry import is_turn_file_game as known
    return known(name)


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`key=value` pairs; values read as YAML scalars, so true, 3 and B mean what they look like."""
    from adjudicator.store import storage
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise AdjudicatorError(f"--option {pair!r} is not KEY=VALUE", hint="e.g. --option side=B")
        parsed = storage.parse_yaml(value, "--option") if value.strip() else ""
        if isinstance(parsed, (dict, list)):
            raise AdjudicatorError(f"--option {pair!r}: the value must be a single word or number")
        options[key.strip()] = parsed
    return options


@click.group()
@click.version_option(version=__version__, prog_name="adjudicator")
def cli() -> None:
    """adjudicator: a play-by-email judge for Diplomacy variants and turn-file games."""


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.option("--variant", default="standard", show_default=True, help="variant or game name")
@click.option("--players", default=None, help="comma-separated player names (turn-file games)")
@click.option("--seed", default=1, show_default=True, type=int, help="RNG seed (turn-file games)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="a rules option, e.g. rules_edition=2023 (Diplomacy) or side=B (a turn-file game); repeatable")
@click.option("--house-rules", "house_rules_file", type=click.Path(path_type=Path), default=None,
              help="a text file of the game's house rules, kept in game.yaml and sent in every welcome mail")
@click.option("--open", "open_seats", default=None, type=int, metavar="N",
              help="open the game for sign-up by mail ('join GAME'); it starts when N players have joined")
@click.option("--assign", default="preference", show_default=True, type=click.Choice(["preference", "random"]),
              help="with --open: powers by each joiner's preference list, or at random")
@click.option("--approve-joiners", is_flag=True, help="with --open: a joiner counts only once the GM approves them")
@friendly_errors
def new(game: Path, variant: str, players: str | None, seed: int, options: tuple[str, ...],
        house_rules_file: Path | None, open_seats: int | None, assign: str, approve_joiners: bool) -> None:
    """Create a new game folder GAME."""
    rules = read_house_rules(house_rules_file) if house_rules_file is not None else None
    if open_seats is not None and is_turn_file_game(variant):
        raise AdjudicatorError("--open is for Diplomacy games", hint="a card game is made with --players a,b,c")
    if is_turn_file_game(variant):
        if not players:
            raise AdjudicatorError(f"{variant} needs --players a,b,c")
        from adjudicator.cards import driver as cards
        cards.new_game(game, variant, [p.strip() for p in players.split(",") if p.strip()], seed,
                       parse_options(options), house_rules=rules)
    else:
        gamefolder = diplomacy_folders()
        gamefolder.new_game(game, variant, house_rules=rules, options=parse_options(options))
        if open_seats is not None:
            open_for_signup(game, open_seats, assign, approve_joiners)
    click.echo(f"created {game} ({variant})" + (f", open for sign-up: {open_seats} players" if open_seats else ""))


def open_for_signup(game: Path, seats: int, assign: str, approve: bool) -> None:
    from adjudicator.folder import signup
    from adjudicator.folder.gamefolder import load_current
    from adjudicator.store import phasecommit, storage
    try:
        meta, variant, _, _ = load_current(game)
        meta = signup.opened(meta, variant, seats, assign, approve)
    except AdjudicatorError:
        import shutil
        shutil.rmtree(game)                # the game was made just now: nothing of it is kept
        raise
    phasecommit.commit(game, [(game / "game.yaml", storage.dump_yaml(meta))])


@cli.command()
@click.argument("game", type=click.Path(path_type=Path), required=False)
@click.argument("orders", type=click.Path(path_type=Path), required=False)
@click.option("--power", "--player", "power", default=None, help="check only this power's (player's) orders")
@click.option("--state", "state_file", type=click.Path(path_type=Path), default=None,
              help="check against a mailed state file instead of a game folder")
@friendly_errors
def check(game: Path | None, orders: Path | None, power: str | None, state_file: Path | None) -> None:
    """Check ORDERS (or a turn file) against GAME's current phase.

    Exit code 0: all good; 1: some orders are bad."""
    if state_file is not None and orders is None:
        game, orders = None, game
    if orders is None:
        raise AdjudicatorError("usage: adjudicator check GAME ORDERS [--power P]")
    if game is not None:
        from adjudicator.folder import folders
        ok = folders.open_game(game).check(orders, power, click.echo)
    else:
        from adjudicator.folder.checking import check_orders
        ok = check_orders(None, orders, power, state_file, echo=click.echo)
    sys.exit(0 if ok else 1)


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("orders", type=click.Path(path_type=Path), required=False)
@click.option("--force", is_flag=True, help="adjudicate a phase again (old results stay in history)")
@click.option("--nmr", is_flag=True, help="resolve the phase even though orders are missing (missing powers NMR)")
@click.option("--deadline", "deadline_text", default=None, metavar="TIME|+DURATION",
              help="the next phase's deadline (default: from game.yaml's schedule, if it has one)")
@friendly_errors
def adjudicate(game: Path, orders: Path | None, force: bool, nmr: bool, deadline_text: str | None) -> None:
    """Resolve GAME's current phase with ORDERS (or a turn file).

    Without ORDERS, Diplomacy games use the orders collected under
    GAME/orders/<phase>/ (by 'adjudicator ingest'). With ORDERS as well, the
    file wins for the powers it names and collected orders are used for the rest.
    The reports name the next phase's deadline: --deadline, else the
    schedule's length from now if game.yaml has a schedule, else none."""
    from adjudicator.folder import folders
    from adjudicator.store import folderlock
    with folderlock.hold(game) as recovered:
        for note in recovered:
            click.echo(note)
        opens, rule = next_deadline_rule(game, deadline_text, clocked_only=False)
        done = folders.open_game(game).adjudicate(orders, force=force, nmr=nmr, opens=opens, deadline=rule)
    for note in done.notes:
        click.echo(note)
    for path in done.paths:
        click.echo(f"wrote {path}")


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@friendly_errors
def status(game: Path) -> None:
    """Show GAME's current phase and position."""
    from adjudicator.folder import folders, gmcontrol
    click.echo(folders.open_game(game).status(), nl=False)
    held = gmcontrol.held(folders.game_meta(game))
    if held is not None:
        click.echo(f"Held: {held}")
    if (game / "mail" / "bounces.yaml").exists() or (game / "mail" / "guesses.yaml").exists():
        from adjudicator.mail.servicestatus import service_lines
        for line in service_lines(game):
            click.echo(line)


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("change")
@friendly_errors
def deadline(game: Path, change: str) -> None:
    """Set GAME's deadline: +2d, +12h (from the current deadline) or a time
    with its zone, e.g. 2026-12-01T18:00+01:00."""
    import datetime

    from adjudicator.folder import schedule
    from adjudicator.store import folderlock, phasecommit, storage
    from adjudicator.store.gamemeta import check_meta
    with folderlock.hold(game):
        path = game / "game.yaml"
        meta = check_meta(storage.read_yaml(path), str(path))
        now = datetime.datetime.now(datetime.timezone.utc)
        when = schedule.extend(meta, change, now)
        meta = schedule.with_deadline(meta, when, schedule.opened_of(meta))   # the phase opened when it did
        phasecommit.commit(game, [(path, storage.dump_yaml(meta))])
    click.echo(f"deadline: {meta['deadline']}")


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("orders", type=click.Path(path_type=Path), required=False)
@click.option("--nmr", is_flag=True, help="preview even though orders are missing (missing powers NMR)")
@friendly_errors
def preview(game: Path, orders: Path | None, nmr: bool) -> None:
    """Show the GM what adjudicating would give, without changing the game.

    The reports and map go under GAME/gm/preview/<phase>/ (GM only), and the
    public report is printed."""
    from adjudicator.folder import folders
    from adjudicator.store import folderlock
    with folderlock.hold(game):
        done = folders.open_game(game).preview(orders, nmr=nmr)
    for note in done.notes:
        click.echo(note)
    written = done.paths
    public = [p for p in written if p.parent.name == "reports" and p.suffix == ".txt"]
    if public:
        click.echo(public[0].read_text(encoding="utf-8"), nl=False)
    click.echo(f"preview only: nothing was published; {len(written)} files under "
               f"{written[0].parent.parent if written else game}")


@cli.command()
@click.argument("game", type=click.Path(path_type=Path))
@click.argument("phase")
@click.option("--deadline", "deadline_text", default=None, metavar="TIME|+DURATION",
              help="the phase's fresh deadline (default: the schedule's length from now, if a deadline is set)")
@friendly_errors
def rollback(game: Path, phase: str, deadline_text: str | None) -> None:
    """Return GAME to the state before PHASE (e.g. 1901-fall-movement, or a
    turn-file game's phase number). What PHASE and later phases produced moves,
    intact, under history/superseded/<n>/; nothing is deleted. PHASE opens
    again with a fresh deadline (--deadline, or the schedule's from now), so
    `run` does not adjudicate it at once on a deadline already past."""
    from adjudicator.folder import folders
    from adjudicator.store import folderlock
    with folderlock.hold(game) as recovered:
        for note in recovered:
            click.echo(note)
        opens, rule = next_deadline_rule(game, deadline_text, clocked_only=True)
        moved = folders.open_game(game).rollback(phase, opens=opens, deadline=rule)
    where = moved[0].relative_to(game).parts[:3] if moved else ()
    click.echo(f"moved {len(moved)} files under {Path(*where)}; the game is back before {phase}")
    deadline = folders.game_meta(game).get("deadline")
    if rule is not None and deadline:
        click.echo(f"deadline: {deadline}")


def next_deadline_rule(game: Path, text: str | None, *, clocked_only: bool) -> tuple[Any, Any]:
    """(now, the rule for the deadline of the phase that opens now): --deadline
    (a time, or +DURATION from now), else the schedule's length from now where
    the game keeps a clock (a `schedule:` in game.yaml, or with `clocked_only`
    a deadline set), else no rule (None)."""
    import datetime

    from adjudicator.folder import folders, schedule
    now = datetime.datetime.now(datetime.timezone.utc)
    meta = folders.game_meta(game)
    if text is not None:
        when = now + schedule.parse_duration(text[1:]) if text.startswith("+") else schedule.parse_time(text)
        return now, schedule.fixed(when)
    keeps_clock = meta.get("deadline") is not None if clocked_only else "schedule" in meta
    return now, (schedule.from_schedule(meta, now) if keeps_clock else None)


def main() -> None:
    cli(prog_name="adjudicator")


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--verbose", "-v", is_flag=True, help="also list the cases that pass")
@friendly_errors
def datc(file: Path, verbose: bool) -> None:
    """Run a DATC test-case file (jDip/godip text format)."""
    from adjudicator.cases.datc import run_file
    results = run_file(file)
    failed = [r for r in results if not r.passed]
    for result in results:
        if result.passed:
            if verbose:
                click.echo(f"PASS {result.name}")
            continue
        click.echo(f"FAIL {result.name}" + (f": {result.message}" if result.message else ""))
        if not result.message:
            click.echo("  expected: " + "; ".join(result.expected))
            click.echo("  actual:   " + "; ".join(result.actual))
    click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("game", type=click.Path(path_type=Path), required=False)
@click.option("--host", "host", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="run every game of a host folder (host.yaml: one mailbox for all), in one process")
@click.option("--now", "now_text", default=None, metavar="TIME",
              help="run as if it were TIME (ISO with a zone); for tests and for replaying a day")
@click.option("--no-mail", is_flag=True, help="do not fetch or send mail, even if game.yaml sets it up")
@friendly_errors
def run(game: Path | None, host: Path | None, now_text: str | None, no_mail: bool) -> None:
    """One step of GAME, safe to run from cron every few minutes: fetch and
    answer mail, adjudicate when all orders are in or the deadline (plus
    grace) has passed, mail the results, send due reminders. A run with
    nothing new does nothing and says so. With --host DIR instead of GAME,
    one step of every game in DIR: the mailbox is read once and each mail
    goes to its game; a game with nothing to do is not read."""
    import datetime

    from adjudicator.folder import schedule
    now = schedule.parse_time(now_text) if now_text else datetime.datetime.now(datetime.timezone.utc)
    if (game is None) == (host is None):
        raise AdjudicatorError("give GAME or --host DIR", hint="adjudicator run mygame, or adjudicator run --host games")
    if host is not None:
        run_host(host, now, not no_mail)
        return
    assert game is not None
    from adjudicator.mail import runner
    from adjudicator.store import folderlock
    with folderlock.hold(game) as recovered:
        for note in recovered:
            click.echo(note)
        mailer = None if no_mail else mailer_for(game)
        for line in runner.run_once(game, now, mailer):
            click.echo(line)


def run_host(host: Path, now: Any, mail: bool) -> None:
    """`run --host`: one tick of every game; exit code 1 if a game's step failed."""
    from adjudicator.mail import host as hosting
    from adjudicator.store import folderlock
    with folderlock.hold(host):
        done = hosting.tick(host, now, mail=mail)
    for line in done.lines:
        click.echo(line)
    click.echo(f"host: {len(done.stepped)} game(s) stepped, {done.idle} idle"
               + (f", {len(done.failed)} failed: {', '.join(done.failed)}" if done.failed else ""))
    if done.failed:
        sys.exit(1)


def mailer_for(game: Path) -> Any:
    """The game's Mailer from game.yaml's `mail:` settings, or None without them."""
    from adjudicator.store import storage
    from adjudicator.store.gamemeta import check_meta
    meta = check_meta(storage.read_yaml(game / "game.yaml"), str(game / "game.yaml"))
    if not meta.get("mail"):
        return None
    from adjudicator.mail.mailer import GameMailer
    return GameMailer.from_settings(meta["mail"], str(game / "game.yaml"))


def diplomacy_folders() -> ModuleType:
    from adjudicator.folder import gamefolder
    return gamefolder


def _register_commands() -> None:
    """Commands that live in their own modules (maps, mail, players), each
    imported only when it runs (see LazyCommand)."""
    for name, (target, summary) in LAZY_COMMANDS.items():
        cli.add_command(LazyCommand(name, target, summary))


_register_commands()
