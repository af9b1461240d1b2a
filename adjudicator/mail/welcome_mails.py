"""The welcomes of each kind of game (see adjudicator.mail.welcome for what
every welcome holds and when it is written).

A Diplomacy welcome shows how to order with lines made for the player's own
units in the phase now open (a move and holds, a retreat or a disband, the
builds or disbands owed), each checked against the game before it is shown,
and carries the state file that `adjudicator check --state` reads, with the
map: the newest results' map, or the position now for a game that has not
begun. A card game's welcome shows how to mail a choice and carries the
player's newest private report (their hand); nobody can check a card-game
choice offline, because its state holds every hand."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.diplomacy.model import ARMY, FLEET, UNIT_LETTERS, Unit
from adjudicator.errors import GameFolderError
from adjudicator.folder.endreport import yearly_centres
from adjudicator.folder.gamefolder import history_files, load_current, run_phase
from adjudicator.folder.schedule import must_order
from adjudicator.mail import results as mail
from adjudicator.mail.welcome import (
    GameView,
    latest_results,
    results_stamp,
    seat_of,
    store,
    welcome_key,
    welcome_message,
    welcome_text,
)

if TYPE_CHECKING:
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant


def latest_slug(folder: Path) -> str | None:
    try:
        return mail.latest_reported_slug(folder)
    except GameFolderError:
        return None


def write_welcomes(folder: Path, now: datetime, meta: dict[str, Any] | None = None,
                   players: list[dict[str, Any]] | None = None) -> list[Path]:
    """Write the welcome of every player who has none yet; the paths written.
    `meta` and `players` (the roster's entries with an address) as read already, if they were."""
    from adjudicator.folder.gamefolder import read_game
    from adjudicator.mail.welcome import owed
    meta = meta if meta is not None else read_game(folder)
    game = str(meta.get("name") or folder.name)
    todo = owed(folder, game, players)
    if not todo:
        return []
    welcomes = card_welcomes if mail.is_turn_file(meta) else diplomacy_welcomes
    return welcomes(folder, meta, game, todo, now)


# --- Diplomacy ------------------------------------------------------------------------
def move_example(variant: Variant, state: GameState, unit: Unit) -> str | None:
    """A move of `unit` to a neighbouring place no unit stands on, or None."""
    graph = variant.map
    for province in sorted(graph.provinces):
        if province in state.units or province == unit.province:
            continue
        for place in graph.fleet_locations(province) if unit.type is FLEET else [province]:
            if graph.can_stand(unit.type, place) and graph.is_adjacent(unit.type, unit.location, place):
                return f"{UNIT_LETTERS[unit.type]} {unit.location} - {place}"
    return None


def candidate_orders(variant: Variant, state: GameState, power: str) -> list[str]:
    """Orders the power could give now, before they are checked."""
    kind = state.phase.kind
    if kind == "movement":
        units = sorted(state.units_of(power), key=lambda u: u.location)
        if not units:
            return []
        move = move_example(variant, state, units[0])
        return ([move] if move else []) + [f"{u} H" for u in units[1 if move else 0:]]
    if kind == "retreat":
        return [f"{d.unit} R {d.retreats[0]}" if d.retreats else f"{d.unit} disband"
                for _, d in sorted(state.dislodged.items()) if d.unit.power == power]
    owed = len(state.centres_of(power)) - len(state.units_of(power))
    if owed > 0:
        sites = sorted(variant.rules.build_sites(variant, state, power))[:owed]
        return [f"build A {site}" if variant.map.can_stand(ARMY, site) else f"build F {site}" for site in sites]
    if owed < 0:
        return [f"{u} disband" for u in sorted(state.units_of(power), key=lambda u: u.location)[:-owed]]
    return []


def example_orders(variant: Variant, state: GameState, power: str) -> list[str]:
    """The candidates that the game accepts as they stand: each is checked, and
    a line with an error or a void order is left out."""
    from adjudicator.folder.checking import void_lines
    wanted = candidate_orders(variant, state, power)
    if not wanted:
        return []
    lines, outcome = run_phase(variant, state, "\n".join(wanted), power)
    void = void_lines(variant, lines, outcome)
    refused = outcome.refused()
    return [line.text for line in lines if line.order is not None and line.number not in refused
            and line.number not in void]


def orders_help(variant: Variant, state: GameState, power: str, state_file: str, label: str) -> list[str]:
    examples = example_orders(variant, state, power)
    out = ["HOW TO ORDER",
           "Mail the judge (or reply to this mail) in plain text: your password line, then one order per line."]
    if power not in must_order(variant, state):
        out += [(f"You have nothing to order in {state.phase}; the judge does not wait for you. "
                "Your next orders are for the phase after it.")]
    if examples:
        out += [f"For example, for your units in {state.phase}:", "", "    password: <your password>",
                *("    " + line for line in examples), ""]
    out += ["The forms (full names and abbreviations both work):",
            "    A par H                   a hold",
            "    A par - bur               a move",
            "    A mar S A par - bur       a support of a move ('A mar S F bre' of a hold)",
            "    F eng C A lon - bre       a convoy, with the army's 'A lon - bre via convoy'",
            "    A mun R boh               a retreat ('A mun disband' to disband)",
            "    build A par               in winter; also 'build F stp/sc', 'disband F kie', 'waive'",
            ("The judge answers every mail with your orders as it read them, or what is wrong with a line "
            "and a suggestion."), "",
            "CHECK YOUR ORDERS OFFLINE",
            (f"The attached {state_file} is the game as it stands. With the judge's program installed "
            "('adjudicator'), put your orders in a file and run"),
            f"    adjudicator check --state {state_file} --power {label} myorders.txt",
            "It prints each order as the judge reads it, or its error with a suggestion.", ""]
    return out


def centres_by_year(folder: Path, variant: Variant, state: GameState) -> list[str]:
    """The table the Winter results and the end report show, its last column the position now."""
    from adjudicator.diplomacy.centre_years import centre_years
    from adjudicator.output import templating
    rows = yearly_centres(history_files(folder), variant, state)
    rows[-1] = ("now", rows[-1][1])
    table = templating.render("diplomacy/centre_years.txt.j2", {"centre_years": centre_years(variant, rows)},
                              game_folder=folder)
    return ["SUPPLY CENTRES YEAR BY YEAR", "  (at the start of each year, and now)",
            *table.rstrip("\n").split("\n"), ""]


def position_parts(meta: dict[str, Any], game: str, variant: Variant, state: GameState,
                   state_path: Path) -> list[EmailMessage]:
    """The map of the position now (PNG, or SVG where none can be drawn) and the state file."""
    from adjudicator.folder.gameoptions import map_style
    from adjudicator.output.render import render_svg
    svg = render_svg(variant, state, title=game, map_style=map_style(meta)).encode("utf-8")
    png, _ = mail.map_png(svg)
    picture = mail.Attachment(png, "image", "png", f"{state.phase.slug}.png") if png is not None \
        else mail.Attachment(svg, "image", "svg+xml", f"{state.phase.slug}.svg")
    return [mail.attachment_part(picture),
            mail.attachment_part(mail.Attachment(state_path.read_bytes(), "application", "x-yaml", state_path.name))]


def diplomacy_welcomes(folder: Path, meta: dict[str, Any], game: str, todo: list[dict[str, Any]],
                       now: datetime) -> list[Path]:
    _, variant, state, state_path = load_current(folder)
    view = GameView(game, meta, f"Diplomacy ({variant.name})", str(state.phase), latest_slug(folder), False)
    opening: list[EmailMessage] | None = None      # drawn once, for every newcomer who needs it
    written = []
    for entry in todo:
        power = str(entry["power"])
        seat = seat_of(folder, entry, variant.power_name(power))
        slug, report = latest_results(folder, view, entry)
        # The rules edition, as every report's footer states it.
        body = [f"Rules: {variant.rules_summary()}.", ""] + \
            orders_help(variant, state, power, state_path.name, seat.label)
        if view.latest is not None:
            body += centres_by_year(folder, variant, state)
        if slug is not None:
            parts = mail.phase_mail(folder, meta, slug).parts()[0]
        else:
            opening = opening if opening is not None else position_parts(meta, game, variant, state, state_path)
            parts = opening
        text = welcome_text(view, seat, body, now, report)
        stamp = results_stamp(folder, power, slug) if slug is not None else None
        written.append(store(folder, view, entry,
                             welcome_message(view, seat, text, now, welcome_key(game, entry), parts, stamp)))
    return written


# --- card and board games --------------------------------------------------------------
def card_welcomes(folder: Path, meta: dict[str, Any], game: str, todo: list[dict[str, Any]],
                  now: datetime) -> list[Path]:
    from adjudicator.cards import driver
    current = driver.current(folder)
    info = current.game.phase(current.state)
    phase = (f"{info.title} ({info.name})" if info.title else info.name) if info else "the end"
    view = GameView(game, meta, current.game.title, phase, latest_slug(folder), True)
    written = []
    for entry in todo:
        seat = seat_of(folder, entry, str(entry["power"]))
        slug, report = latest_results(folder, view, entry)
        others = [p for p in current.players if p != seat.power]
        body = ["HOW TO SEND YOUR CHOICE",
                f"The other players: {', '.join(others) or 'none'}.",
                ("Mail the judge (or reply to this mail) in plain text: your password line, then your choice "
                "as YAML, one field a line:"), "", "    password: <your password>", "    action: ...",
                "    ...", "",
                ("Each report (the one below too) ends with the choices you may make next and an example for "
                f"them; docs/games/{meta['variant']}.md has every field. The judge "
                "checks your choice when it comes and answers with it, or with what is wrong; a later choice "
                "replaces an earlier one. Nobody else sees your hand or your choice."),
                ("A card game's choice cannot be checked offline: its state holds every player's hand, so only "
                "the judge has it."), ""]
        text = welcome_text(view, seat, body, now, report)
        stamp = results_stamp(folder, seat.power, slug) if slug is not None else None
        # The results it quotes come with their picture of the table, the player's own.
        parts = mail.phase_mail(folder, meta, slug).parts(seat.power)[0] if slug is not None else []
        written.append(store(folder, view, entry,
                             welcome_message(view, seat, text, now, welcome_key(game, entry), parts, stamp)))
    return written
