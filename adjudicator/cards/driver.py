"""The game-folder workflow for turn-file games: new, check, adjudicate,
status. Same folder shape as Diplomacy:

    game.yaml                    variant, kind, players, seed
    history/NNNN-<phase>.yaml    state before each phase, never rewritten
    orders/NNNN-<phase>.yaml     the turn file that was applied
    reports/NNNN-<phase>.txt     public report
    private/<player>/NNNN-<phase>.txt   that player's private report
    maps/NNNN-<phase>.svg        the table as a picture (public), where the game has one
    private/<player>/NNNN-<phase>.svg   that player's own picture: the table and their hand
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from adjudicator.cards.common import (
    ChoiceError,
    Event,
    PhaseInfo,
    State,
    TurnGame,
    TurnValidationError,
    plain_copy,
)
from adjudicator.cards.registry import find_game
from adjudicator.errors import DataFileError, GameFolderError
from adjudicator.store import phasecommit, storage
from adjudicator.store.gamemeta import check_meta, format_time, with_deadline
from adjudicator.store.names import check_name, refuse_confusable
from adjudicator.store.owed import notices_path
from adjudicator.store.phasecommit import LOCK_NAME
from adjudicator.store.rollback import roll_back

MAX_TURN_BYTES = 256 * 1024
GAME_DATA = "variant.yaml"   # the game's own copy of its variant data
MAX_DATA_BYTES = 16 * 1024 * 1024
OPENING = "setup"          # the name of the reports `new` writes before the first phase


def load_data(game: TurnGame) -> dict[str, Any]:
    """The game's installed variant data, a copy of its own for each caller
    (the game keeps it parsed: see common.VariantData)."""
    return game.variant_data.installed()


def apply_options(data: dict[str, Any], options: dict[str, Any], variant: str) -> dict[str, Any]:
    """The variant data with a new game's `--option key=value` settings laid over
    its `rules:` mapping. Only keys that mapping already has may be set, so a
    typo is an error rather than a silently ignored option."""
    rules = {k: v for k, v in (data.get("rules") or {}).items() if k != "source"}
    unknown = sorted(set(options) - set(rules))
    if unknown:
        known = ", ".join(f"{k}={rules[k]}" for k in sorted(rules))
        raise GameFolderError(f"{variant} has no option {', '.join(unknown)}",
                              hint=f"its options, with their defaults: {known}" if known
                              else f"{variant} takes no options")
    for key, value in options.items():
        default = rules[key]
        if default is not None and type(value) is not type(default) \
                and not (type(default) is float and type(value) is int):
            raise GameFolderError(f"option {key}={value!r} should be a {type(default).__name__} like {default!r}")
    return {**data, "rules": {**(data.get("rules") or {}), **options}}


def new_game(folder: Path, variant: str, players: list[str], seed: int,
             options: dict[str, Any] | None = None, house_rules: str | None = None) -> Path:
    game = find_game(variant)
    data = apply_options(load_data(game), options or {}, variant)
    if folder.exists() and any(folder.iterdir()):
        raise GameFolderError("folder exists and is not empty", file=str(folder),
                              hint="choose a new folder name")
    if not game.min_players <= len(players) <= game.max_players:
        raise GameFolderError(
            f"{game.title} takes {game.min_players} to {game.max_players} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise GameFolderError("player names must be distinct")
    check_name(folder.name, "game name")
    for number, player in enumerate(players):
        # A player's name becomes the folder of their private reports.
        check_name(player, "player name")
        refuse_confusable(player, players[:number], "player name")
    state = game.setup(list(players), seed, data)
    meta: dict[str, Any] = {"variant": variant, "kind": "turn-file", "seed": seed}
    if options:
        meta["options"] = dict(options)
    meta["players"] = [{"power": p, "name": p, "email": ""} for p in players]
    if house_rules:
        meta["house_rules"] = house_rules
    folder.mkdir(parents=True, exist_ok=True)
    phasecommit.commit(folder, [(folder / LOCK_NAME, b""),
                                (folder / "game.yaml", storage.dump_yaml(meta)),
                                (folder / GAME_DATA, storage.dump_yaml(data)),
                                *opening_reports(folder, game, state, players, data),
                                history_entry(folder, 1, game.phase(state), state)])
    return folder


def opening_reports(folder: Path, game: TurnGame, state: State, players: list[str],
                    data: dict[str, Any]) -> list[tuple[Path, str]]:
    """The table at the start, and each player's hand or starting cards, so
    the first player to move knows what they hold (reports/0000-setup.txt)."""
    from adjudicator.output import templating  # jinja2: only when reports are written
    setup = PhaseInfo(OPENING, "simultaneous", [], title="The game begins")
    events = [f"{game.title} begins with {', '.join(players)}."]
    public = game.public_view(state, data)
    context = {"game": game.title, "folder": folder.name, "phase": setup, "next_phase": game.phase(state),
               "view": public, "events": events}
    reports = [(folder / "reports" / f"0000-{OPENING}.txt",
                templating.render(f"{game.name}/public.txt.j2", context, game_folder=folder))]
    privates = {}
    for player in players:
        privates[player] = game.private_view(state, player, data)
        private = dict(context, player=player, private=privates[player])
        reports.append((folder / "private" / player / f"0000-{OPENING}.txt",
                        templating.render(f"{game.name}/private.txt.j2", private, game_folder=folder)))
    return reports + pictures(folder, game, f"0000-{OPENING}", public, privates)


def pictures(folder: Path, game: TurnGame, tag: str, public: dict[str, Any],
             privates: dict[str, dict[str, Any]]) -> list[tuple[Path, str]]:
    """The table as pictures, drawn from the views the reports were: the
    public one beside the maps (maps/<tag>.svg), each player's own beside
    their private report. Nothing for a game without a picture module."""
    from adjudicator.cards.pictures import draw_view, own_view
    public_svg = draw_view(game.name, public)
    if public_svg is None:
        return []
    drawn = [(folder / "maps" / f"{tag}.svg", public_svg)]
    for player, private in privates.items():
        svg = draw_view(game.name, own_view(public, private), player)
        if svg is not None:
            drawn.append((folder / "private" / player / f"{tag}.svg", svg))
    return drawn


def history_files(folder: Path) -> list[Path]:
    files = sorted((folder / "history").glob("[0-9][0-9][0-9][0-9]-*.yaml"))
    if not files:
        raise GameFolderError("no history/ files: not a game folder", file=str(folder),
                              hint="create one with 'adjudicator new'")
    return files


def history_entry(folder: Path, index: int, phase: PhaseInfo | None, state: State) -> tuple[Path, str]:
    """The next history file and its sealed text; it must not exist yet."""
    slug = phase.name if phase else "final"
    path = folder / "history" / f"{index:04d}-{slug}.yaml"
    if path.exists():
        raise GameFolderError("already exists; history is never rewritten", file=str(path))
    return path, storage.dump_state(state)


class Current(NamedTuple):
    """A game folder as it stands, read once for one command."""

    game: TurnGame
    state: State
    number: int                # the phase's number: how many history files there are
    data: dict[str, Any]       # the game's own variant data
    players: list[str]


def current(folder: Path) -> Current:
    meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    game = find_game(meta["variant"])
    files = history_files(folder)
    state = storage.read_state(files[-1])
    if not isinstance(state, dict):
        raise DataFileError("state is not a mapping (truncated?)", file=str(files[-1]))
    # The game's own copy of its variant data, options applied, made at `new`:
    # editing the installed variants/*.yaml never changes a running game.
    own = folder / GAME_DATA
    data = game.variant_data.of_folder(own, MAX_DATA_BYTES) if own.exists() else load_data(game)
    if not isinstance(data, dict):
        raise DataFileError("expected a mapping at the top level", file=str(own))
    return Current(game, state, len(files), data, seats(meta))


def read_turn(path: Path) -> dict[str, Any]:
    turn = storage.read_yaml(path, max_bytes=MAX_TURN_BYTES)
    if turn is None:
        raise DataFileError("the turn file is empty", file=str(path),
                            hint="write each player's choice as 'name: choice'")
    if not isinstance(turn, dict):
        raise DataFileError("a turn file is a mapping of player name to choice", file=str(path))
    if not all(isinstance(key, str) for key in turn):
        raise DataFileError("every key of a turn file is a player name (or 'phase')", file=str(path))
    return turn


def split_turn(turn: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """A turn file is `player: choice` entries, optionally with `phase:` to
    guard against applying it to the wrong phase."""
    choices = dict(turn)
    phase = choices.pop("phase", None)
    return (str(phase) if phase is not None else None), choices


def seats(meta: dict[str, Any]) -> list[str]:
    # Each entry's seat: `power` (written since players could be added by
    # mail), or `name` in folders made before that.
    return [str(p.get("power") or p.get("name")) for p in meta.get("players") or []]


def misaddressed(players: list[str], info: PhaseInfo, choices: dict[str, Any]) -> list[ChoiceError]:
    """Choices from names that are not players, or from players the phase does not wait for."""
    errors = []
    for name in choices:
        if name not in players:
            errors.append(ChoiceError(name, name, f"no such player in this game (players: {', '.join(players)})"))
        elif name not in info.waiting_for:
            errors.append(ChoiceError(name, name, f"not your turn: waiting for {', '.join(info.waiting_for)}"))
    return errors


def check_turn(folder: Path, turn_path: Path, player: str | None = None) -> list[ChoiceError]:
    game, state, _, data, players = current(folder)
    info = game.phase(state)
    if info is None:
        raise GameFolderError("the game is over", file=str(folder))
    phase, choices = split_turn(read_turn(turn_path))
    errors: list[ChoiceError] = []
    if phase is not None and phase != info.name:
        errors.append(ChoiceError(player or "?", "phase", f"this turn is for {phase}, the game is at {info.name}"))
    if player is not None:
        choices = {player: choices.get(player)} if player in choices else {}
        if not choices:
            errors.append(ChoiceError(player, player, "no choice for this player in the turn file"))
            return errors
    errors += misaddressed(players, info, choices)
    choices = {k: v for k, v in choices.items() if k in info.waiting_for}
    return errors + game.validate(plain_copy(state), choices, data)


def refuse_repeat(folder: Path, index: int, choices: dict[str, Any], info: PhaseInfo, turn_path: Path) -> None:
    """A turn file with no `phase:` that repeats the last phase's choices word
    for word is most likely that phase's file run again; applying it to the
    next phase would be adjudicating it twice. Naming the phase applies it."""
    previous = sorted((folder / "orders").glob(f"{index - 1:04d}-*.yaml"))
    if not choices or not previous:
        return
    applied = storage.read_yaml(previous[-1])
    if isinstance(applied, dict) and all(applied.get(name) == choice for name, choice in choices.items()):
        raise GameFolderError(
            f"this turn file repeats the choices already applied to phase {applied.get('phase')}",
            file=str(turn_path), hint=f"if it really is for {info.name}, add the line 'phase: {info.name}'")


# The next phase's deadline by its kind (every turn of a card game is a "movement").
DeadlineRule = Callable[[str], "datetime | None"]


def adjudicate(folder: Path, turn_path: Path | None, *, force: bool = False, nmr: bool = False,
               opens: datetime | None = None, deadline: DeadlineRule | None = None) -> list[Path]:
    """Apply the phase. The next one opens at `opens` with the deadline
    `deadline` gives (none without one), written to game.yaml with the phase."""
    # One step: the phase lands whole or not at all (see phasecommit).
    return phasecommit.commit(folder, prepare_phase(folder, turn_path, force=force, nmr=nmr, opens=opens,
                                                    deadline=deadline))


def preview(folder: Path, turn_path: Path | None, nmr: bool = False) -> list[Path]:
    """The phase's reports for the GM's eyes only, under gm/preview/<phase>/."""
    writes = prepare_phase(folder, turn_path, force=True, nmr=nmr)
    tag = writes[0][0].stem
    root = folder / "gm" / "preview" / tag
    shown = [(root / path.relative_to(folder), text) for path, text in writes
             if path.relative_to(folder).parts[0] in ("reports", "private", "maps")]
    return phasecommit.commit(folder, shown)


def collected_dir(folder: Path, index: int, info: PhaseInfo) -> Path:
    """Where `ingest` keeps each player's mailed choice for this phase:
    orders/<NNNN-phase>/<player>.yaml, each file holding `player: choice`."""
    return folder / "orders" / f"{index:04d}-{info.name}"


def collected_choices(folder: Path, index: int, info: PhaseInfo) -> dict[str, Any]:
    """The mailed choices. Each file is checked again here: an entry for
    anyone but its own player fails the phase, naming the file."""
    choices: dict[str, Any] = {}
    for path in sorted(collected_dir(folder, index, info).glob("*.yaml")):
        turn = read_turn(path)
        phase, mine = split_turn(turn)
        if set(mine) != {path.stem} or (phase is not None and phase != info.name):
            raise GameFolderError(f"a stored choice may only be {path.stem}'s, for {info.name}", file=str(path),
                                  hint="remove the other entries or the file")
        choices.update(mine)
    return choices


def check_player_choice(folder: Path, player: str, choice: Any) -> list[ChoiceError]:
    """One player's choice against the current phase, as `check --player` does."""
    game, state, _, data, players = current(folder)
    info = game.phase(state)
    if info is None:
        raise GameFolderError("the game is over", file=str(folder))
    errors = misaddressed(players, info, {player: choice})
    return errors or game.validate(plain_copy(state), {player: choice}, data)


def phase_choices(folder: Path, turn_path: Path | None, index: int, info: PhaseInfo,
                  nmr: bool) -> tuple[dict[str, Any], str]:
    """The choices to apply and where they came from. A GM's turn file and
    mailed choices merge, the file winning for every player it names."""
    collected = collected_choices(folder, index, info)
    if turn_path is None:
        if not collected and not nmr:
            raise GameFolderError(f"no choices have been collected for {info.name}",
                                  file=str(collected_dir(folder, index, info)),
                                  hint="give a turn file, run 'adjudicator ingest', or add --nmr to "
                                       "apply every player's default")
        return collected, str(collected_dir(folder, index, info))
    phase, choices = split_turn(read_turn(turn_path))
    if phase is not None and phase != info.name:
        raise GameFolderError(f"turn file is for phase {phase}, the game is at {info.name}",
                              file=str(turn_path))
    if phase is None:
        refuse_repeat(folder, index, choices, info, turn_path)
    return {**collected, **choices}, str(turn_path)


def prepare_phase(folder: Path, turn_path: Path | None, *, force: bool, nmr: bool = False,
                  opens: datetime | None = None,
                  deadline: DeadlineRule | None = None) -> list[tuple[Path, str | bytes]]:
    """Everything the phase writes, the applied turn file first; nothing written.
    With `deadline`, the reports end by naming the next phase's and game.yaml gets it."""
    from adjudicator.output import templating  # jinja2: only when reports are written
    game, state, index, data, players = current(folder)
    info = game.phase(state)
    if info is None:
        raise GameFolderError("the game is over; nothing to adjudicate", file=str(folder))
    choices, source = phase_choices(folder, turn_path, index, info, nmr)
    errors = misaddressed(players, info, choices)
    missed: list[str] = []
    for name in info.waiting_for:
        if name not in choices:
            default = game.default_choice(state, name, data)
            if default is None:
                errors.append(ChoiceError(name, name, "no choice sent and this phase has no default"))
            else:
                choices[name] = default
                missed.append(name)
    errors += game.validate(plain_copy(state), {k: v for k, v in choices.items() if k in info.waiting_for}, data)
    if errors:
        raise TurnValidationError(errors, file=source)
    tag = f"{index:04d}-{info.name}"
    if (folder / "reports" / f"{tag}.txt").exists() and not force:
        raise GameFolderError(f"phase {info.name} is already adjudicated", file=str(folder),
                              hint="use --force to adjudicate it again")
    outcome = game.apply(state, choices, data)     # state is this call's own, not read again
    events = [Event(f"{name} sent nothing; default applied",
                    (name,) if info.quiet_defaults else None) for name in missed] + outcome.events
    next_info = game.phase(outcome.state)
    public = game.public_view(outcome.state, data)
    context = {"game": game.title, "folder": folder.name, "phase": info, "next_phase": next_info,
               "view": public,
               "events": [e.text for e in events if e.visible_to is None]}
    # Render everything before writing anything: a broken template then costs
    # nothing. The next history file goes last, because its existence is what
    # moves the game on.
    due = deadline("movement") if deadline is not None and next_info is not None else None
    closing = f"\nChoices for {next_info.name} are due by {format_time(due)}.\n" if next_info and due else ""
    texts = {folder / "reports" / f"{tag}.txt":
             templating.render(f"{game.name}/public.txt.j2", context, game_folder=folder) + closing}
    privates = {}
    for player in players:
        privates[player] = game.private_view(outcome.state, player, data)
        private_context = dict(context, player=player, private=privates[player],
                               events=[e.text for e in events if e.is_visible_to(player)])
        texts[folder / "private" / player / f"{tag}.txt"] = \
            templating.render(f"{game.name}/private.txt.j2", private_context, game_folder=folder) + closing
    texts.update(pictures(folder, game, tag, public, privates))
    writes: list[tuple[Path, str | bytes]] = [
        (folder / "orders" / f"{tag}.yaml", storage.dump_yaml({"phase": info.name, **choices})),
        *texts.items(),
    ]
    if missed:
        shown = f"{info.title} ({info.name})" if info.title else info.name
        told = {name: [(f"No choice came from you for {shown} in {folder.name}; the default was played for "
                       f"you: {'; '.join(storage.dump_yaml(choices[name]).strip().splitlines())}.")] for name in missed}
        writes.append((notices_path(folder, tag), storage.dump_yaml({"players": told})))
    meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    settings = with_deadline(meta, due, opens)
    if settings != meta:
        writes.append((folder / "game.yaml", storage.dump_yaml(settings)))
    writes.append(history_entry(folder, index + 1, next_info, outcome.state))
    return writes


def index_of(name: str) -> int | None:
    """The phase number in a turn-file game's file name, `0003-age1-turn2` -> 3."""
    head, dash, _ = name.partition("-")
    return int(head) if dash and len(head) == 4 and head.isdigit() else None


def rollback(folder: Path, phase_text: str, *, opens: datetime | None = None,
             deadline: DeadlineRule | None = None) -> list[Path]:
    """Back to the state before a phase, named by its number or its history
    file's name; with `deadline`, the phase opens again at `opens` with a fresh one."""
    files = history_files(folder)
    names = {path.stem: index_of(path.stem) for path in files}
    number = int(phase_text) if phase_text.isdigit() else names.get(phase_text)
    if number is None or number not in names.values():
        raise GameFolderError(f"no phase {phase_text!r} in this game", file=str(folder / "history"),
                              hint="name it by number or as its history file does, e.g. "
                                   + ", ".join(list(names)[-3:]))
    writes: list[tuple[Path, str | bytes]] = []
    if deadline is not None:
        meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
        writes.append((folder / "game.yaml", storage.dump_yaml(with_deadline(meta, deadline("movement"), opens))))
    return roll_back(folder, number, f"phase {phase_text}", index_of, writes)
