"""`adjudicator map GAME`: draw the current (or an earlier) state as SVG/PNG.
`adjudicator site GAME OUT`: a static HTML site of the game's public record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicator.cli.errors import friendly_errors
from adjudicator.errors import AdjudicatorError
from adjudicator.store import storage

if TYPE_CHECKING:
    from adjudicator.diplomacy.outcome import PhaseOutcome
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

PUBLIC_FILE = 0o644          # a map the GM asked for is for publishing


@click.command("map")
@click.argument("game", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--phase", "phase_slug", default=None,
              help="history phase, e.g. 1901-fall-movement: its results with its orders, once adjudicated")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SVG file to write (default: standard output, unless --png is given)")
@click.option("--png", "png", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="also render a PNG (needs the resvg-py package)")
@click.option("--style", type=click.Choice(["territory", "graph"]), default="territory", show_default=True,
              help="territory: provinces as their real shapes; graph: the schematic adjacency graph")
@click.option("--map-style", "map_style", type=click.Choice(["territories", "centres"]), default=None,
              help="what the land is tinted by: territories (all land a power holds) or centres (supply "
                   "centres only); default: game.yaml's map_style, else territories")
@friendly_errors
def map_command(game: Path, phase_slug: str | None, out: Path | None, png: Path | None, style: str,
                map_style: str | None) -> None:
    """Draw GAME's map: the state at the start of the current phase; or, with
    --phase, that phase's results with its orders drawn (replayed from its
    history state and orders/<phase>.txt), or its position if not yet adjudicated."""
    # Imported here: networkx and svgwrite are slow to load, and most commands never draw.
    from adjudicator.diplomacy.statefile import state_from_data
    from adjudicator.folder.folders import game_meta
    from adjudicator.folder.gamefolder import history_files, load_current
    from adjudicator.folder.gameoptions import map_style as game_map_style
    from adjudicator.output.render import render_png, render_svg
    if game_meta(game).get("kind") == "turn-file":
        raise AdjudicatorError("a turn-file game (a card or board game) has no map", file=str(game),
                               hint="its public reports are in reports/; 'adjudicator site' publishes them")
    meta, variant, state, _ = load_current(game)
    outcome = None
    if phase_slug is not None:
        found = {phase.slug: path for phase, path in history_files(game)}
        if phase_slug not in found:
            raise click.BadParameter(f"no history for {phase_slug!r}; known: {', '.join(found)}",
                                     param_hint="--phase")
        path = found[phase_slug]
        state = state_from_data(storage.read_state(path), variant, str(path))
        outcome = _replayed(game, variant, state)
    title = str(meta.get("name") or game.name)
    tint = map_style or game_map_style(meta, str(game / "game.yaml"))
    if outcome is not None:      # an adjudicated phase: its results, with its orders
        svg = render_svg(variant, outcome.next_state, outcome, title=title, style=style, map_style=tint)
    else:
        svg = render_svg(variant, state, title=title, style=style, map_style=tint)
    if out is not None:
        storage.atomic_write(out, svg, mode=PUBLIC_FILE)
        click.echo(f"wrote {out}", err=True)
    if png is not None:
        storage.atomic_write(png, render_png(svg), mode=PUBLIC_FILE)
        click.echo(f"wrote {png}", err=True)
    if out is None and png is None:
        click.echo(svg, nl=False)


def _replayed(game: Path, variant: Variant, state: GameState) -> PhaseOutcome | None:
    """The outcome of an adjudicated phase, replayed from its history state and
    the orders it was adjudicated with (orders/<phase>.txt): adjudication is
    deterministic, so this is the phase as it was. None for a phase not yet
    adjudicated."""
    from adjudicator.folder.gamefolder import run_phase
    used = game / "orders" / f"{state.phase.slug}.txt"
    if not used.exists():
        return None
    _, outcome = run_phase(variant, state, storage.read_text(used))
    return outcome


@click.command("site")
@click.argument("game", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--png", is_flag=True, help="also write a PNG of every map (needs the resvg-py package)")
@friendly_errors
def site_command(game: Path, out: Path, png: bool) -> None:
    """Write a static HTML site of GAME's public record into OUT: an index of
    phases and, for each, its map (none for a card game) and public report
    (never private files). Files are 0644 and folders 0755, ready to serve."""
    from adjudicator.folder.site import build_site
    written = build_site(game, out, png=png)
    click.echo(f"wrote {len(written)} files to {out}; open {out / 'index.html'}", err=True)
