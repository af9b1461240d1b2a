"""The GM's game folder for Diplomacy variants:

    game.yaml                      variant, players (power, name, email, password hash), deadline
    history/<year>-<season>-<kind>.yaml   the state before each phase; newest = current
    orders/<phase>.txt             the orders that were adjudicated
    orders/<phase>/<power>.txt     orders collected by `ingest` (or dropped in by the GM)
    reports/<phase>.txt, .html     the public report
    private/<power>/<phase>.txt    each power's private report
    gm/<phase>.log                 the GM's secret log (Diplomacy Point allocations)

Every write is atomic; history files are never rewritten."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from adjudicator import storage
from adjudicator.errors import AdjudicatorError, DataFileError, GameFolderError
from adjudicator.game import adjudicate_lines
from adjudicator.model import Phase
from adjudicator.outcome import PhaseOutcome
from adjudicator.parser import ParsedLine
from adjudicator.report import long_form, private_report, public_report
from adjudicator.state import GameState, initial_state
from adjudicator.turn import collect_errors, parser_for
from adjudicator.variant import Variant, load_variant


def new_game(folder: Path, variant_name: str) -> Path:
    variant = load_variant(variant_name)
    if folder.exists() and any(folder.iterdir()):
        raise GameFolderError("folder exists and is not empty", file=str(folder), hint="choose a new folder name")
    state = initial_state(variant)
    storage.write_yaml(folder / "game.yaml", {
        "variant": variant.id, "kind": "diplomacy", "name": folder.name, "deadline": None,
        "players": [{"power": p, "name": "", "email": "", "password_hash": None} for p in variant.powers],
    })
    storage.write_new(folder / "history" / f"{state.phase.slug}.yaml", storage.dump_yaml(state.to_data(variant)))
    return folder


def read_game(folder: Path) -> dict[str, Any]:
    meta = storage.read_yaml(folder / "game.yaml")
    if not isinstance(meta, dict) or "variant" not in meta:
        raise DataFileError("game.yaml has no 'variant'", file=str(folder / "game.yaml"),
                            hint="is this a game folder? create one with 'adjudicator new'")
    return meta


def history_files(folder: Path) -> list[tuple[Phase, Path]]:
    entries = []
    for path in (folder / "history").glob("*.yaml"):
        try:
            entries.append((Phase.from_slug(path.stem), path))
        except ValueError:
            continue
    if not entries:
        raise GameFolderError("no history/ files: not a game folder", file=str(folder),
                              hint="create one with 'adjudicator new'")
    return sorted(entries, key=lambda e: e[0].sort_key)


def load_current(folder: Path) -> tuple[dict[str, Any], Variant, GameState, Path]:
    meta = read_game(folder)
    variant = load_variant(str(meta["variant"]))
    _, path = history_files(folder)[-1]
    state = GameState.from_data(storage.read_yaml(path), variant, str(path))
    return meta, variant, state, path


def read_orders_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError("orders file not found", file=str(path)) from None
    except UnicodeDecodeError:
        raise DataFileError("orders file is not UTF-8 text", file=str(path)) from None


def collected_orders(folder: Path, phase: Phase) -> str:
    """Orders that `ingest` stored, one file per power, joined with headings."""
    parts = []
    for path in sorted((folder / "orders" / phase.slug).glob("*.txt")):
        parts.append(f"{path.stem}:\n{read_orders_text(path)}")
    return "\n".join(parts)


def run_phase(variant: Variant, state: GameState, text: str,
              default_power: str | None = None) -> tuple[list[ParsedLine], PhaseOutcome]:
    lines = parser_for(variant).parse_text(text, default_power)
    outcome = adjudicate_lines(variant, state, lines)
    return lines, outcome


def adjudicate(folder: Path, orders_path: Path | None, *, force: bool = False) -> list[Path]:
    meta, variant, state, state_path = load_current(folder)
    if state.result:
        raise GameFolderError("the game is over", file=str(folder))
    text = read_orders_text(orders_path) if orders_path else collected_orders(folder, state.phase)
    source = str(orders_path) if orders_path else str(folder / "orders" / state.phase.slug)
    # A phase already done: the same orders were used before for an earlier phase.
    for phase, _ in history_files(folder)[:-1]:
        used = folder / "orders" / f"{phase.slug}.txt"
        if used.exists() and used.read_text(encoding="utf-8") == text and not force:
            raise GameFolderError(f"these orders were already adjudicated for {phase}", file=source,
                                  hint="the game is now at " + str(state.phase) + "; use --force to adjudicate again")
    lines, outcome = run_phase(variant, state, text)
    errors = collect_errors(lines)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more; run 'adjudicator check')" if len(errors) > 1 else ""
        raise AdjudicatorError(f"{first.kind}: {first.text}: {first.message}{more}", file=source, line=first.line)
    powers = [p for p in variant.powers]
    sent = {l.power for l in lines if l.order is not None}
    if state.phase.kind == "movement":
        outcome.missed = [p for p in powers if p not in sent and state.units_of(p)]
    written: list[Path] = []
    slug = state.phase.slug
    if (folder / "reports" / f"{slug}.txt").exists():
        if not force:
            raise GameFolderError(f"{state.phase} is already adjudicated", file=str(folder),
                                  hint="use --force to adjudicate it again")
        keep = folder / "history" / "superseded"
        n = len(list(keep.glob(f"{slug}.*"))) + 1 if keep.exists() else 1
        old = folder / "reports" / f"{slug}.txt"
        storage.write_new(keep / f"{slug}.{n}.report.txt", old.read_bytes())
    deadline = meta.get("deadline")
    next_path = folder / "history" / f"{outcome.next_state.phase.slug}.yaml"
    state_text = storage.dump_yaml(outcome.next_state.to_data(variant))
    if next_path.exists() and not force:
        raise GameFolderError("the next phase's state already exists; history is never rewritten",
                              file=str(next_path))
    outputs: list[tuple[Path, str]] = [
        (folder / "orders" / f"{slug}.txt", text),
        (folder / "reports" / f"{slug}.txt", public_report(variant, outcome, meta.get("name", folder.name),
                                                          game_folder=folder, deadline=deadline)),
        (folder / "reports" / f"{slug}.html", public_report(variant, outcome, meta.get("name", folder.name),
                                                           game_folder=folder, deadline=deadline, html=True)),
    ]
    for power in powers:
        outputs.append((folder / "private" / power / f"{slug}.txt",
                        private_report(variant, outcome, meta.get("name", folder.name), power,
                                       game_folder=folder, deadline=deadline)))
    if outcome.gm_log:
        outputs.append((folder / "gm" / f"{slug}.log", "\n".join(outcome.gm_log) + "\n"))
    outputs += extra_outputs(folder, variant, outcome)
    # Everything is computed before anything is written; the new state goes last,
    # so an interrupted run leaves the game at the same phase and can be re-run.
    for path, content in outputs:
        storage.atomic_write(path, content)
        written.append(path)
    if next_path.exists():
        keep = folder / "history" / "superseded"
        n = len(list(keep.glob(f"{next_path.stem}.*"))) + 1 if keep.exists() else 1
        storage.write_new(keep / f"{next_path.stem}.{n}.yaml", next_path.read_bytes())
        storage.atomic_write(next_path, state_text)
    else:
        storage.write_new(next_path, state_text)
    written.append(next_path)
    return written


# Other modules (map rendering, mail) add outputs per phase through this list.
OUTPUT_HOOKS: list[Callable[[Path, Variant, PhaseOutcome], list[tuple[Path, str]]]] = []


def extra_outputs(folder: Path, variant: Variant, outcome: PhaseOutcome) -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    for hook in OUTPUT_HOOKS:
        out += hook(folder, variant, outcome)
    return out


def status_text(folder: Path) -> str:
    meta, variant, state, _ = load_current(folder)
    graph = variant.map
    out = [f"{meta.get('name', folder.name)} ({variant.name}): {state.phase}"]
    if meta.get("deadline"):
        out.append(f"Deadline: {meta['deadline']}")
    if state.result:
        out.append(f"Game over: {state.result}")
    for pid, info in variant.powers.items():
        units = ", ".join(long_form(str(u), graph) for u in sorted(state.units_of(pid), key=lambda u: u.location))
        centres = state.centres_of(pid)
        if units or centres:
            out.append(f"{info.name}: {len(centres)} centres ({', '.join(centres)}); units: {units or 'none'}")
    others = sorted({u.power for u in state.units.values()} - set(variant.powers))
    for minor in others:
        units = ", ".join(long_form(str(u), graph) for u in state.units_of(minor))
        out.append(f"{variant.power_name(minor)} (minor): {units}")
    for d in state.dislodged.values():
        out.append(f"Dislodged: {variant.power_name(d.unit.power)} {long_form(str(d.unit), graph)}; "
                   f"retreats: {', '.join(d.retreats) or 'none'}")
    collected = folder / "orders" / state.phase.slug
    if collected.is_dir():
        have = {p.stem for p in collected.glob("*.txt")}
        missing = [variant.powers[p].name for p in variant.powers if p not in have and state.units_of(p)]
        out.append("Orders received from: " + (", ".join(sorted(variant.powers[p].name for p in have
                                                                   if p in variant.powers)) or "nobody"))
        out.append("Waiting for: " + (", ".join(missing) or "nobody"))
    return "\n".join(out) + "\n"
