"""`adjudicator site GAME OUT/`: a static HTML site of a game's public record.

One page per phase (its map, its public report, links to the previous and next
phase), a last page with the end of the game (reports/end.txt) once there is
one, and an index. Only public material is read: game.yaml for the game's
name and variant, reports/<phase>.txt, maps/<phase>.svg, and the history state
a phase starts from, for a phase whose map the game folder lacks (such as the
current, unadjudicated one). Never private/, gm/ or orders/. A turn-file game
(a card game) has no map: its pages are its public reports, reports/NNNN-*.txt,
the last of which gives the final scores.

Everything written is world-readable (files 0644, folders 0755, whatever the
umask), so a web server's user can serve the folder as it is."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.statefile import state_from_data
from adjudicator.folder.endreport import END_REPORT
from adjudicator.folder.gamefolder import history_files, read_game
from adjudicator.folder.gamevariant import game_variant
from adjudicator.output import templating
from adjudicator.store import storage

if TYPE_CHECKING:
    from adjudicator.diplomacy.variant import Variant

STYLE = """body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1em 2em; color: #222; }
header h1 { margin-bottom: 0.2em; font-size: 1.5em; }
nav { margin: 0.4em 0 0.8em; }
nav .off, .note { color: #888; }
figure { margin: 0; }
#map { max-width: 100%; height: auto; border: 1px solid #ccc; }
pre { background: #f6f6f2; border: 1px solid #ddd; padding: 0.8em; overflow-x: auto; font-size: 0.9em; }
ol.phases li { margin: 0.2em 0; }
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
    if meta.get("kind") == "turn-file":
        title = _turn_game_title(str(meta["variant"]))
        pages = _report_pages(folder)
    else:
        variant = game_variant(folder, meta)
        title = variant.name
        pages, written = _phase_pages(folder, out, variant, game, png)
    end = folder / END_REPORT
    if end.exists():
        pages.append(Page("The end of the game", f"{END_PAGE}.html", storage.read_text(end)))
    for i, page in enumerate(pages):
        html = templating.render("site/phase.html.j2", {
            "game": game, "page": page, "prev": pages[i - 1] if i else None,
            "next": pages[i + 1] if i + 1 < len(pages) else None})
        written.append((out / page.file, html))
    written.append((out / "index.html", templating.render("site/index.html.j2", {
        "game": game, "variant": title, "pages": pages, "maps": any(p.map for p in pages)})))
    written.append((out / "style.css", STYLE))
    written.append((out / "keys.js", KEYS_JS))
    _public_folder(out)
    for path, content in written:
        _public_folder(path.parent)
        storage.atomic_write(path, content, mode=PUBLIC_FILE)
    return [path for path, _ in written]


def _phase_pages(folder: Path, out: Path, variant: Variant, game: str,
                 png: bool) -> tuple[list[Page], list[tuple[Path, str | bytes]]]:
    """A Diplomacy game's pages: each phase's map and report."""
    from adjudicator.output.render import render_png, render_svg
    history = {phase.slug: path for phase, path in history_files(folder)}
    written: list[tuple[Path, str | bytes]] = []
    pages: list[Page] = []
    for phase in _phases(folder):
        slug = phase.slug
        report_path = folder / "reports" / f"{slug}.txt"
        report = storage.read_text(report_path) if report_path.exists() else ""
        map_path = folder / "maps" / f"{slug}.svg"
        if map_path.exists():
            svg = storage.read_text(map_path)
            caption = f"{phase}: results, with the orders"
        elif slug in history:
            state = state_from_data(storage.read_state(history[slug]), variant, str(history[slug]))
            svg = render_svg(variant, state, title=game)
            caption = f"{phase}: the position before orders"
        else:
            continue
        page = Page(str(phase), f"{slug}.html", report, f"maps/{slug}.svg", caption)
        written.append((out / "maps" / f"{slug}.svg", svg))
        if png:
            page.png = f"maps/{slug}.png"
            written.append((out / "maps" / f"{slug}.png", render_png(svg)))
        pages.append(page)
    return pages, written


def _report_pages(folder: Path) -> list[Page]:
    """A turn-file game's pages: its public reports, NNNN-<phase>.txt, in order."""
    pages = []
    for path in sorted((folder / "reports").glob("[0-9][0-9][0-9][0-9]-*.txt")):
        number, _, name = path.stem.partition("-")
        title = "The game begins" if name == "setup" else f"{int(number)}: {name}"
        pages.append(Page(title, f"{path.stem}.html", storage.read_text(path)))
    return pages


def _turn_game_title(variant: str) -> str:
    from adjudicator.cards.registry import find_game
    return find_game(variant).title


def _public_folder(path: Path) -> None:
    """A folder of the site, made if need be, that anyone may list and enter."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, PUBLIC_FOLDER)
