"""`adjudicator site GAME OUT/`: a static HTML site of a game's public record.

One page per phase (its map, its public report, links to the previous and next
phase), a last page with the end of the game (reports/end.txt) once there is
one, and an index. Only public material is read: game.yaml for the game's
name and variant, reports/<phase>.txt, maps/<phase>.svg, and the history state
a phase starts from, for a phase whose map the game folder lacks (such as the
current, unadjudicated one). Never private/, gm/ or orders/. A turn-file game
(a card game) has no map: its pages are its public reports, reports/NNNN-*.txt,
the last of which gives the final scores, each with the public picture of the
table (maps/NNNN-*.svg) where the game draws one; a player's own picture, in
private/, is never read.

Everything written is world-readable (files 0644, folders 0755, whatever the
umask), so a web server's user can serve the folder as it is."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.statefile import state_from_data
from adjudicator.folder.endreport import END_REPORT
from adjudicator.folder.gamefolder import history_files, read_game
from adjudicator.folder.gameoptions import map_style
from adjudicator.folder.site_html import clean_report
from adjudicator.output import templating
from adjudicator.store import storage

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.state import GameState
    from adjudicator.diplomacy.variant import Variant

# Readable on a phone: the map scales to the width (tap it to open it whole),
# tables and the text report scroll inside their own box, and every text
# colour has at least 4.5:1 contrast on its background (WCAG AA).
STYLE = """body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1em 2em; color: #222; line-height: 1.4; }
header h1 { margin-bottom: 0.2em; font-size: 1.5em; overflow-wrap: anywhere; }
nav { margin: 0.4em 0 0.8em; }
nav a { display: inline-block; padding: 0.3em 0; }
nav .off, .note { color: #595959; }
.ended { background: #fff4d6; border: 1px solid #b08900; padding: 0.5em 0.8em; font-weight: bold; }
figure { margin: 0; }
#map, #chart { max-width: 100%; height: auto; border: 1px solid #ccc; }
pre { background: #f6f6f2; border: 1px solid #ddd; padding: 0.8em; overflow-x: auto; font-size: 0.9em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
dl.names { columns: 14em; font-size: 0.9em; }
dl.names dt { font-weight: bold; display: inline; }
dl.names dd { display: inline; margin: 0 0 0 0.3em; }
dl.names div { break-inside: avoid; }
ol.phases li { margin: 0.3em 0; }
@media (max-width: 600px) {
  body { margin: 0.5em 0.7em; }
  header h1 { font-size: 1.25em; }
  pre { font-size: 0.8em; }
}
"""

# Left and right arrow keys follow the page's prev and next links.
KEYS_JS = """document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : null;
  var link = rel && document.querySelector('link[rel="' + rel + '"]');
  if (link) window.location.href = link.getAttribute("href");
});
"""


PUBLIC_FILE = 0o644
PUBLIC_FOLDER = 0o755
END_PAGE = "end"


@dataclass
class Page:
    title: str
    file: str
    report: str
    map: str = ""               # none for a card game, or the end page
    map_caption: str = ""
    png: str = ""
    report_html: str = ""       # the phase's HTML report, cleaned (site_html), where the game folder has one
    map_alt: str = ""           # what the map shows: the phase and each power's units, in brief
    map_word: str = "map"       # a card game's is a "picture" of the table


def _phases(folder: Path) -> list[Phase]:
    seen: dict[str, Phase] = {phase.slug: phase for phase, _ in history_files(folder)}
    for path in (folder / "reports").glob("*.txt"):
        try:
            phase = Phase.from_slug(path.stem)
        except (ValueError, KeyError):
            continue
        seen.setdefault(phase.slug, phase)
    return sorted(seen.values(), key=lambda p: p.sort_key)


def build_site(folder: Path, out: Path, *, png: bool = False) -> list[Path]:
    """Write the site into `out` (created if need be); returns the files written."""
    meta = read_game(folder)
    game = str(meta.get("name") or folder.name)
    written: list[tuple[Path, str | bytes]] = []
    names: list[tuple[str, str]] = []
    ended = ""
    if meta.get("kind") == "turn-file":
        title = _turn_game_title(str(meta["variant"]))
        pages, written = _report_pages(folder, out, png)
    else:
        from adjudicator.folder.gamefolder import load_current
        _, variant, current, _ = load_current(folder)
        title = variant.name
        ended = _ended(variant, current)
        pages, written = _phase_pages(folder, out, variant, game, png, map_style(meta, str(folder / "game.yaml")))
        written += _centre_chart(folder, out, variant, current, game, ended)
        names = _province_names(variant.map)
    end = folder / END_REPORT
    if end.exists():
        chart = meta.get("kind") != "turn-file"
        pages.append(Page("The end of the game", f"{END_PAGE}.html", storage.read_text(end),
                          map="centres.svg" if chart else "", map_caption="Supply centres by year",
                          map_alt="Line chart of each power's supply centres by year (figures: centres.html)."))
    for i, page in enumerate(pages):
        html = templating.render("site/phase.html.j2", {
            "game": game, "page": page, "prev": pages[i - 1] if i else None,
            "next": pages[i + 1] if i + 1 < len(pages) else None, "ended": ended, "names": names})
        written.append((out / page.file, html))
    written.append((out / "index.html", templating.render("site/index.html.j2", {
        "game": game, "variant": title, "pages": pages, "maps": any(p.map for p in pages), "ended": ended,
        "map_word": "picture of the table" if meta.get("kind") == "turn-file" else "map",
        "chart": meta.get("kind") != "turn-file"})))
    written.append((out / "style.css", STYLE))
    written.append((out / "keys.js", KEYS_JS))
    _public_folder(out)
    for path, content in written:
        _public_folder(path.parent)
        storage.atomic_write(path, content, mode=PUBLIC_FILE)
    return [path for path, _ in written]


def _phase_pages(folder: Path, out: Path, variant: Variant, game: str,
                 png: bool, tint: str) -> tuple[list[Page], list[tuple[Path, str | bytes]]]:
    """A Diplomacy game's pages: each phase's map and report."""
    from adjudicator.output.render import render_png, render_svg
    history = {phase.slug: path for phase, path in history_files(folder)}
    written: list[tuple[Path, str | bytes]] = []
    pages: list[Page] = []
    phases = _phases(folder)
    for phase in phases:
        slug = phase.slug
        report_path = folder / "reports" / f"{slug}.txt"
        report = storage.read_text(report_path) if report_path.exists() else ""
        html_path = folder / "reports" / f"{slug}.html"
        report_html = clean_report(storage.read_text(html_path)) if html_path.exists() else ""
        map_path = folder / "maps" / f"{slug}.svg"
        if map_path.exists():
            svg = storage.read_text(map_path)
            caption = f"{phase}: results, with the orders"
            shown = _state_after(folder, variant, phase)
        elif slug in history:
            shown = state_from_data(storage.read_state(history[slug]), variant, str(history[slug]))
            svg = render_svg(variant, shown, title=game, map_style=tint)
            caption = f"{phase}: the position before orders"
        else:
            continue
        page = Page(str(phase), f"{slug}.html", report, f"maps/{slug}.svg", caption, report_html=report_html,
                    map_alt=_map_alt(variant, caption, shown))
        written.append((out / "maps" / f"{slug}.svg", svg))
        if png:
            page.png = f"maps/{slug}.png"
            written.append((out / "maps" / f"{slug}.png", render_png(svg)))
        pages.append(page)
    return pages, written


def _centre_chart(folder: Path, out: Path, variant: Variant, current: GameState, game: str,
                  ended: str) -> list[tuple[Path, str | bytes]]:
    """centres.svg, each power's centres year by year, and centres.html, the chart with its figures."""
    from adjudicator.folder.endreport import yearly_centres
    from adjudicator.output.chart import centre_chart_svg
    rows = yearly_centres(history_files(folder), variant, current)
    if not current.result:
        rows[-1] = ("now", rows[-1][1])
    page = templating.render("site/centres.html.j2", {
        "game": game, "rows": rows, "powers": [info.name for info in variant.powers.values()],
        "power_ids": list(variant.powers), "ended": ended})
    return [(out / "centres.svg", centre_chart_svg(variant, rows, f"{game}: supply centres by year")),
            (out / "centres.html", page)]


def _state_after(folder: Path, variant: Variant, phase: Phase) -> GameState | None:
    """The position a phase left: the history state of the first phase after it."""
    for later, path in history_files(folder):
        if later.sort_key > phase.sort_key:
            return state_from_data(storage.read_state(path), variant, str(path))
    return None


def _map_alt(variant: Variant, caption: str, state: GameState | None) -> str:
    """The map's alt text: the phase, then each power's units in brief."""
    if state is None:
        return f"Map: {caption}."
    parts = []
    for power, info in variant.powers.items():
        units = sorted(state.units_of(power), key=lambda u: u.location)
        listed = ", ".join(f"{u.type.value} {_short(u.location)}" for u in units)
        parts.append(f"{info.name}: {listed or 'no units'}")
    minors = sum(1 for u in state.units.values() if u.power not in variant.powers)
    if minors:
        parts.append(f"minor powers: {minors} units")
    return f"Map: {caption}. " + "; ".join(parts) + "."


def _short(location: str) -> str:
    """A location as the map labels it: Bur, Stp/SC."""
    from adjudicator.output.render_territory import label_text
    province, _, coast = location.partition("/")
    return label_text(province) + (f"/{coast.upper()}" if coast else "")


def _ended(variant: Variant, state: GameState) -> str:
    """A sentence saying the game is over and who won, or "" while it goes on."""
    from adjudicator.folder.endreport import result_sentence
    return f"The game has ended. {result_sentence(variant, state.result)}" if state.result else ""


def _province_names(graph: MapGraph) -> list[tuple[str, str]]:
    """Each province's short name (as on the map) and its full name."""
    from adjudicator.output.render_territory import label_text
    return [(label_text(pid), prov.name) for pid, prov in sorted(graph.provinces.items())]


def _report_pages(folder: Path, out: Path, png: bool) -> tuple[list[Page], list[tuple[Path, str | bytes]]]:
    """A turn-file game's pages: its public reports, NNNN-<phase>.txt, in
    order, each with the public picture of the table the phase left
    (maps/NNNN-<phase>.svg) where the game has one. A player's own picture
    (under private/) is never read."""
    from adjudicator.output.render import render_png
    pages = []
    written: list[tuple[Path, str | bytes]] = []
    for path in sorted((folder / "reports").glob("[0-9][0-9][0-9][0-9]-*.txt")):
        number, _, name = path.stem.partition("-")
        title = "The game begins" if name == "setup" else f"{int(number)}: {name}"
        page = Page(title, f"{path.stem}.html", storage.read_text(path))
        picture = folder / "maps" / f"{path.stem}.svg"
        if picture.is_file():
            svg = storage.read_text(picture)
            page.map, page.map_word = f"maps/{path.stem}.svg", "picture"
            page.map_caption = "The table at the start" if name == "setup" else f"The table after {name}"
            page.map_alt = f"Picture of the table: {_svg_title(svg) or page.map_caption}"
            written.append((out / page.map, svg))
            if png:
                page.png = f"maps/{path.stem}.png"
                written.append((out / page.png, render_png(svg)))
        pages.append(page)
    return pages, written


def _svg_title(svg: str) -> str:
    """The text of a picture's own <title>, which says what it shows in brief."""
    found = re.match(r"\s*<svg\b[^>]*>\s*<title>([^<]{1,4000})</title>", svg)
    return unescape(found.group(1)).strip() if found else ""


def _turn_game_title(variant: str) -> str:
    from adjudicator.cards.registry import find_game
    return find_game(variant).title


def _public_folder(path: Path) -> None:
    """A folder of the site, made if need be, that anyone may list and enter."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, PUBLIC_FOLDER)
