"""`adjudicator site GAME OUT/`: a static HTML site of a game's public record.

One page per phase (its map, its public report, links to the previous and next
phase) and an index. Only public material is read: game.yaml for the game's
name and variant, reports/<phase>.txt, maps/<phase>.svg, and the history state
a phase starts from, for a phase whose map the game folder lacks (such as the
current, unadjudicated one). Never private/, gm/ or orders/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adjudicator.diplomacy.model import Phase
from adjudicator.diplomacy.statefile import state_from_data
from adjudicator.folder.gamefolder import history_files, read_game
from adjudicator.output import templating
from adjudicator.rules import load_variant
from adjudicator.store import storage

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


@dataclass
class Page:
    phase: Phase
    title: str
    file: str
    map: str
    map_caption: str
    report: str
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
    from adjudicator.output.render import render_png, render_svg
    meta = read_game(folder)
    game = str(meta.get("name") or folder.name)
    variant = load_variant(str(meta["variant"]))
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
        page = Page(phase, str(phase), f"{slug}.html", f"maps/{slug}.svg", caption, report)
        written.append((out / "maps" / f"{slug}.svg", svg))
        if png:
            page.png = f"maps/{slug}.png"
            written.append((out / "maps" / f"{slug}.png", render_png(svg)))
        pages.append(page)
    for i, page in enumerate(pages):
        html = templating.render("site/phase.html.j2", {
            "game": game, "page": page, "prev": pages[i - 1] if i else None,
            "next": pages[i + 1] if i + 1 < len(pages) else None})
        written.append((out / page.file, html))
    written.append((out / "index.html", templating.render("site/index.html.j2", {
        "game": game, "variant": variant.name, "pages": pages})))
    written.append((out / "style.css", STYLE))
    written.append((out / "keys.js", KEYS_JS))
    for path, content in written:
        storage.atomic_write(path, content)
    return [path for path, _ in written]
