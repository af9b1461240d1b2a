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

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.statefile import (
    initial_state,
    state_from_data,
    state_to_data,
)
from adjudicator.errors import AdjudicatorError, DataFileError, GameFolderError
from adjudicator.folder.endreport import (
    END_REPORT,
    end_report,
    result_sentence,
    year_end_centres,
)
from adjudicator.folder.gamevariant import (
    FOLDER_VARIANT,
    game_variant,
    installed_variant,
    options_for,
)
from adjudicator.folder.schedule import (
    DeadlineRule,
    format_time,
    must_order,
    schedule,
    with_deadline,
)
from adjudicator.output.report import long_form, private_report, public_report
from adjudicator.rules import load_variant
from adjudicator.store import phasecommit, storage
from adjudicator.store.gamemeta import check_meta
from adjudicator.store.names import check_name
from adjudicator.store.owed import notices_path
from adjudicator.store.phasecommit import LOCK_NAME
from adjudicator.store.rollback import roll_back

if TYPE_CHECKING:
    from collections.abc import Collection

    from adjudicator.diplomacy.lines import ParsedLine
    from adjudicator.diplomacy.outcome import PhaseOutcome
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

ANNOUNCE = "announce"             # state.extra key: public lines for the next report
MAX_ORDERS_BYTES = 256 * 1024     # far more than any power's orders; a bigger file is a mistake or an attack


def new_game(folder: Path, variant_name: str, house_rules: str | None = None,
             options: dict[str, Any] | None = None) -> Path:
    """A new game folder. `variant_name` is an installed variant or the path
    of a variant file, which the folder keeps a copy of (variant.yaml);
    `options` are the game's rule options (game.yaml's `options:`)."""
    variant = load_variant(variant_name)
    check_name(folder.name, "game name")
    own: list[tuple[Path, str | bytes]] = []
    if variant_name.endswith(".yaml"):
        check_name(variant.id, "variant file's name")
        own.append((folder / FOLDER_VARIANT, storage.dump_yaml(folder_copy(Path(variant_name)))))
    game_options = options_for(variant, options or {}, "--option") if options else {}
    if game_options:
        variant = variant.with_rule_options(game_options)
    if folder.exists() and any(folder.iterdir()):
        raise GameFolderError("folder exists and is not empty", file=str(folder), hint="choose a new folder name")
    state = initial_state(variant)
    meta: dict[str, Any] = {
        "variant": variant.id, "kind": "diplomacy", "name": folder.name, "deadline": None,
        "players": [{"power": p, "name": "", "email": "", "password_hash": None} for p in variant.powers],
    }
    if game_options:
        meta["options"] = game_options
    if house_rules:
        meta["house_rules"] = house_rules
    folder.mkdir(parents=True, exist_ok=True)
    phasecommit.commit(folder, [
        (folder / LOCK_NAME, b""),       # made now, so a later run's lock writes nothing new
        (folder / "game.yaml", storage.dump_yaml(meta)),
        *own,
        (folder / "history" / f"{state.phase.slug}.yaml", storage.dump_state(state_to_data(state, variant))),
    ])
    return folder


def folder_copy(path: Path) -> dict[str, Any]:
    """A custom variant file's data as the game folder keeps it: a map named
    by a path is named by its absolute path, so the game finds it from any
    directory."""
    data = dict(storage.read_yaml(path))
    map_name = str(data.get("map", ""))
    if map_name.endswith(".yaml"):
        data["map"] = str(Path(map_name).resolve())
    return data


def read_game(folder: Path) -> dict[str, Any]:
    return check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))


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


def load_state(path: Path) -> tuple[Variant, GameState]:
    """A sealed state file: a history file, or the one a results mail carries."""
    data = storage.read_state(path)
    if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
        raise DataFileError("not a state file (no 'variant')", file=str(path))
    variant = known_variant(data["variant"], str(path))
    options = data.get("options") or {}
    if options:
        variant = variant.with_rule_options(options, str(path), "options")
    return variant, state_from_data(data, variant, str(path))


def known_variant(name: str, source: str) -> Variant:
    return installed_variant(name, source)


def load_current(folder: Path) -> tuple[dict[str, Any], Variant, GameState, Path]:
    meta = read_game(folder)
    variant = game_variant(folder, meta)
    _, path = history_files(folder)[-1]
    state = state_from_data(storage.read_state(path), variant, str(path))
    return meta, variant, state, path


def read_orders_text(path: Path) -> str:
    return storage.read_text(path, max_bytes=MAX_ORDERS_BYTES, what="orders file")


def collected_files(folder: Path, phase: Phase) -> list[Path]:
    return sorted((folder / "orders" / phase.slug).glob("*.txt"))


def collected_orders(variant: Variant, folder: Path, phase: Phase, skip: Collection[str] = ()) -> str:
    """Orders that `ingest` stored, one file per power, joined with headings.
    Each file is checked again here: a line in it for another power (a forged
    heading, say) fails the whole adjudication, naming the file and line, so
    the GM sees it before anything is published."""
    from adjudicator.diplomacy.parser import parser_for
    parts = []
    for path in collected_files(folder, phase):
        power = path.stem
        if power not in variant.powers:
            raise GameFolderError(f"{power!r} is not a power of {variant.name}", file=str(path),
                                  hint="remove the file; collected orders are named after their power")
        if power in skip:
            continue
        text = read_orders_text(path)
        for line in parser_for(variant).parse_text(text, power):
            if line.power is not None and line.power != power:
                raise GameFolderError(
                    f"a line for {variant.power_name(line.power)} in {variant.power_name(power)}'s orders",
                    file=str(path), line=line.number,
                    hint="a stored orders file holds one power's orders; remove the line or the file")
        parts.append(f"{power}:\n{text}")
    return "\n".join(parts)


def run_phase(variant: Variant, state: GameState, text: str,
              default_power: str | None = None) -> tuple[list[ParsedLine], PhaseOutcome]:
    # The engine is imported here, when a phase is resolved (check, adjudicate), not for status.
    from adjudicator.diplomacy.game import adjudicate_lines
    from adjudicator.diplomacy.parser import parser_for
    lines = parser_for(variant).parse_text(text, default_power)
    outcome = adjudicate_lines(variant, state, lines)
    return lines, outcome


@dataclass
class Adjudicated:
    written: list[Path]
    notes: list[str] = field(default_factory=list)


def phase_orders(variant: Variant, folder: Path, state: GameState, orders_path: Path | None,
                 nmr: bool) -> tuple[str, str, list[str]]:
    """(orders text, its source for error messages, notes for the GM).

    A GM's orders file and orders collected by mail are merged: the file wins
    for every power it names, and the notes say so. With neither, the phase is
    resolved only if the GM says the missing powers are NMR (--nmr)."""
    notes: list[str] = []
    phase_dir = folder / "orders" / state.phase.slug
    if orders_path is None:
        if not collected_files(folder, state.phase) and not nmr:
            raise GameFolderError(f"no orders have been collected for {state.phase}", file=str(phase_dir),
                                  hint="give an orders file, run 'adjudicator ingest', or add --nmr to "
                                       "resolve the phase with every power NMR")
        return collected_orders(variant, folder, state.phase), str(phase_dir), notes
    from adjudicator.diplomacy.parser import parser_for
    text = read_orders_text(orders_path)
    lines = parser_for(variant).parse_text(text)
    if not any(line.order is not None or line.error is not None for line in lines) and not nmr:
        raise GameFolderError("the orders file holds no orders", file=str(orders_path),
                              hint="add --nmr to resolve the phase with every power NMR")
    named = {line.power for line in lines if line.power is not None}
    collected = {p.stem for p in collected_files(folder, state.phase)}
    for power in sorted(collected & named):
        notes.append(f"{variant.power_name(power)}: the orders file replaces the orders collected by mail")
    if collected - named:
        others = collected_orders(variant, folder, state.phase, skip=named)
        notes += [f"{variant.power_name(p)}: orders collected by mail are used" for p in sorted(collected - named)]
        text = text.rstrip("\n") + "\n" + others
    return text, str(orders_path), notes


def adjudicate(folder: Path, orders_path: Path | None, *, force: bool = False, nmr: bool = False,
               opens: datetime | None = None, deadline: DeadlineRule | None = None) -> Adjudicated:
    """Adjudicate the current phase. The next phase opens at `opens` with the
    deadline `deadline` gives for its kind (none without one): the reports
    name it, and game.yaml gets it in the same step as the phase."""
    outputs, notes = prepare_phase(folder, orders_path, force=force, nmr=nmr, opens=opens, deadline=deadline)
    return Adjudicated(phasecommit.commit(folder, outputs), notes)


def preview(folder: Path, orders_path: Path | None, *, nmr: bool = False) -> Adjudicated:
    """The phase's results for the GM's eyes only, under gm/preview/<phase>/;
    the game itself does not move."""
    outputs, notes = prepare_phase(folder, orders_path, force=True, nmr=nmr)
    _, _, state, _ = load_current(folder)
    shown = preview_outputs(folder, state.phase.slug, outputs)
    return Adjudicated(phasecommit.commit(folder, shown), notes)


def preview_outputs(folder: Path, slug: str, outputs: list[tuple[Path, str | bytes]]) -> list[tuple[Path, str | bytes]]:
    """Reports, private reports and maps moved under gm/preview/<slug>/; no history, no orders."""
    root = folder / "gm" / "preview" / slug
    shown = []
    for path, content in outputs:
        relative = path.relative_to(folder)
        if relative.parts[0] in ("reports", "private", "maps", "gm") and "superseded" not in relative.parts:
            shown.append((root / relative, content))
    return shown


def prepare_phase(folder: Path, orders_path: Path | None, *, force: bool, nmr: bool,
                  opens: datetime | None = None,
                  deadline: DeadlineRule | None = None) -> tuple[list[tuple[Path, str | bytes]], list[str]]:
    """Everything the phase writes, computed and checked, with the GM's notes; nothing written."""
    meta, variant, state, _ = load_current(folder)
    if state.result:
        raise GameFolderError("the game is over", file=str(folder))
    text, source, notes = phase_orders(variant, folder, state, orders_path, nmr)
    # A phase already done: the same orders were used before for an earlier phase.
    for phase, _ in history_files(folder)[:-1]:
        used = folder / "orders" / f"{phase.slug}.txt"
        if text.strip() and used.exists() and used.read_text(encoding="utf-8") == text and not force:
            raise GameFolderError(f"these orders were already adjudicated for {phase}", file=source,
                                  hint="the game is now at " + str(state.phase) + "; use --force to adjudicate again")
    lines, outcome = run_phase(variant, state, text)
    # A line the variant publishes as invalid (an unusable DP line) does not
    # stop the phase; the GM is told in the notes.
    errors = [e for e in outcome.errors if not e.published]
    notes += outcome.gm_notes
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more; run 'adjudicator check')" if len(errors) > 1 else ""
        raise AdjudicatorError(f"{first.kind}: {first.text}: {first.message}{more}", file=source, line=first.line)
    sent = {l.power for l in lines if l.order is not None}
    if state.phase.kind == "movement":
        outcome.missed = [p for p in variant.powers if p not in sent and state.units_of(p)]
    outcome.next_state.missed = count_missed(state, must_order(variant, state), sent)
    # Declarations made between phases (civil disorder) are announced once, in this report.
    outcome.notes = list(state.extra.get(ANNOUNCE, [])) + outcome.notes
    outcome.next_state.extra.pop(ANNOUNCE, None)
    slug = state.phase.slug
    next_path = folder / "history" / f"{outcome.next_state.phase.slug}.yaml"
    if (folder / "reports" / f"{slug}.txt").exists() and not force:
        raise GameFolderError(f"{state.phase} is already adjudicated", file=str(folder),
                              hint="use --force to adjudicate it again")
    if next_path.exists() and not force:
        raise GameFolderError("the next phase's state already exists; history is never rewritten",
                              file=str(next_path))
    after = outcome.next_state
    due = deadline(after.phase.kind) if deadline is not None and not after.result else None
    outputs = superseded(folder, slug, next_path) + [(folder / "orders" / f"{slug}.txt", text)]
    outputs += phase_reports(folder, meta, variant, outcome, format_time(due) if due else None)
    outputs += map_outputs(folder, meta, variant, outcome)
    from adjudicator.folder.notices import (
        phase_notices,  # the order types: only when a phase is written
    )
    told = phase_notices(variant, state, lines, outcome, str(meta.get("name") or folder.name),
                         int(schedule(meta)["missed_limit"]), player_labels(meta))
    if told:
        outputs.append((notices_path(folder, slug), storage.dump_yaml(told)))
    settings = with_deadline(meta, due, opens)
    if settings != meta:
        outputs.append((folder / "game.yaml", storage.dump_yaml(settings)))
    if outcome.next_state.result:
        final = end_report(folder, meta, variant, outcome.next_state, history_files(folder))
        outputs.append((folder / END_REPORT, final))
    # Everything is computed before anything is written, and the phase lands
    # as one step with the new state last (see phasecommit).
    outputs.append((next_path, storage.dump_state(state_to_data(outcome.next_state, variant))))
    return outputs, notes


def superseded(folder: Path, slug: str, next_path: Path) -> list[tuple[Path, str | bytes]]:
    """Copies of what a forced re-run replaces, kept under history/superseded/."""
    keep = folder / "history" / "superseded"
    kept: list[tuple[Path, str | bytes]] = []
    old_report = folder / "reports" / f"{slug}.txt"
    if old_report.exists():
        n = len(list(keep.glob(f"{slug}.*"))) + 1 if keep.exists() else 1
        kept.append((keep / f"{slug}.{n}.report.txt", old_report.read_bytes()))
    if next_path.exists():
        n = len(list(keep.glob(f"{next_path.stem}.*"))) + 1 if keep.exists() else 1
        kept.append((keep / f"{next_path.stem}.{n}.yaml", next_path.read_bytes()))
    return kept


def phase_reports(folder: Path, meta: dict[str, Any], variant: Variant, outcome: PhaseOutcome,
                  deadline: str | None) -> list[tuple[Path, str | bytes]]:
    """The public and private reports; `deadline` is the next phase's, as they name it."""
    slug = outcome.phase.slug
    name = str(meta.get("name", folder.name))
    why = meta.get("why", True) is not False      # a GM may switch the "why" lines off per game
    years = year_end_centres(history_files(folder), variant, outcome.phase, outcome.next_state)
    outputs: list[tuple[Path, str | bytes]] = [
        (folder / "reports" / f"{slug}.txt",
         public_report(variant, outcome, name, game_folder=folder, deadline=deadline, why=why, centre_years=years)),
        (folder / "reports" / f"{slug}.html",
         public_report(variant, outcome, name, game_folder=folder, deadline=deadline, html=True, why=why,
                       centre_years=years)),
    ]
    for power in variant.powers:
        outputs.append((folder / "private" / power / f"{slug}.txt",
                        private_report(variant, outcome, name, power, game_folder=folder, deadline=deadline,
                                       why=why, centre_years=years)))
    if outcome.gm_log:
        outputs.append((folder / "gm" / f"{slug}.log", "\n".join(outcome.gm_log) + "\n"))
    return outputs


def map_outputs(folder: Path, meta: dict[str, Any], variant: Variant,
                outcome: PhaseOutcome) -> list[tuple[Path, str]]:
    """The phase's map. The renderer (svgwrite) is imported only here, when a
    phase is written, so `status` and `check` never load it."""
    from adjudicator.folder.gameoptions import map_style
    from adjudicator.output import render
    return render.phase_map(folder, str(meta.get("name") or folder.name), variant, outcome,
                            map_style(meta, str(folder / "game.yaml")))


def status_text(folder: Path, orders: list[str]) -> str:
    """The position, then `orders` (who is in: folders.Standing.lines), then the GM's flags."""
    meta, variant, state, _ = load_current(folder)
    graph = variant.map
    out = [f"{meta.get('name', folder.name)} ({variant.name}): {state.phase}"]
    if meta.get("deadline"):
        out.append(f"Deadline: {meta['deadline']}")
    if state.result:
        out.append("Game over. " + result_sentence(variant, state.result))
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
    if not state.result:
        out += orders
        out += missed_flags(meta, variant, state)
    return "\n".join(out) + "\n"


def phase_sort_key(name: str) -> tuple[int, int, int] | None:
    try:
        return Phase.from_slug(name).sort_key
    except (ValueError, KeyError):
        return None


def find_phase(folder: Path, text: str) -> Phase:
    """A phase the GM names: `1901-fall-movement`, `Fall 1901 Movement` or `fall 1901`."""
    words = text.lower().replace("-", " ").split()
    known = {phase.slug: phase for phase, _ in history_files(folder)}
    year = next((w for w in words if w.isdigit()), "")
    rest = [w for w in words if not w.isdigit()]
    candidates = [phase for phase in known.values()
                  if str(phase.year) == year and all(w in (phase.season, phase.kind) for w in rest)]
    if len(candidates) > 1:
        candidates = [p for p in candidates if p.kind == "movement"] or candidates
    if len(candidates) != 1:
        raise GameFolderError(f"no phase {text!r} in this game", file=str(folder / "history"),
                              hint="name it as its history file does, e.g. " + ", ".join(list(known)[-3:]))
    return candidates[0]


def rollback(folder: Path, phase_text: str, *, opens: datetime | None = None,
             deadline: DeadlineRule | None = None) -> list[Path]:
    """Back to the state before a phase; with `deadline`, the phase opens
    again at `opens` with a fresh deadline, written in the same step."""
    phase = find_phase(folder, phase_text)
    writes: list[tuple[Path, str | bytes]] = []
    if deadline is not None:
        settings = with_deadline(read_game(folder), deadline(phase.kind), opens)
        writes.append((folder / "game.yaml", storage.dump_yaml(settings)))
    return roll_back(folder, phase.sort_key, str(phase), phase_sort_key, writes)


def count_missed(state: GameState, expected: list[str], sent: set[str | None]) -> dict[str, int]:
    """Phases missed in a row, per power: one more for a power that had
    something to do and sent nothing, back to none for one that sent orders;
    a power with nothing to do this phase keeps its count."""
    counts = dict(state.missed)
    for power in expected:
        if power in sent:
            counts.pop(power, None)
        else:
            counts[power] = counts.get(power, 0) + 1
    return counts


def player_labels(meta: dict[str, Any]) -> dict[str, str]:
    """Seat -> 'Name <address>' for the seats that have a player, for the GM's lines."""
    labels = {}
    for entry in meta.get("players") or []:
        if isinstance(entry, dict) and entry.get("power") and entry.get("email"):
            labels[str(entry["power"])] = f"{entry.get('name') or '?'} <{entry['email']}>"
    return labels


def missed_flags(meta: dict[str, Any], variant: Variant, state: GameState) -> list[str]:
    """A line for the GM about each power that missed `missed_limit` phases in a row."""
    limit = int(schedule(meta)["missed_limit"])
    lines = []
    for power, count in sorted(state.missed.items()):
        if count >= limit:
            what = (f"the rules allow 'adjudicator civil-disorder GAME {power}'"
                    if variant.rules.civil_disorder is not None else "no civil disorder in this variant")
            lines.append(f"{variant.power_name(power)} has missed {count} phases in a row: hand it on with "
                         f"'adjudicator player replace', or decide ({what}).")
    return lines


def replace_current(folder: Path, variant: Variant, path: Path, new_state: GameState,
                    also: list[tuple[Path, str | bytes]] | None = None) -> list[Path]:
    """Replace the pending state of the current phase (a declaration or a
    result between phases), with any `also` files, in one step. The file it
    replaces is kept under history/superseded/, so nothing is lost."""
    keep = path.parent / "superseded"
    n = len(list(keep.glob(f"{path.stem}.*"))) + 1 if keep.exists() else 1
    return phasecommit.commit(folder, [(keep / f"{path.stem}.{n}.yaml", path.read_bytes()), *(also or []),
                                       (path, storage.dump_state(state_to_data(new_state, variant)))])


def end_game(folder: Path, result: dict[str, Any]) -> list[Path]:
    """End the game with `result` (a draw, or a concession) between phases: the
    current state gets the result and reports/end.txt is written, in one step."""
    meta, variant, state, path = load_current(folder)
    if state.result:
        raise GameFolderError("the game is already over", file=str(folder))
    final = state.copy()
    final.result = result
    report = end_report(folder, meta, variant, final, history_files(folder))
    return replace_current(folder, variant, path, final, [(folder / END_REPORT, report)])
