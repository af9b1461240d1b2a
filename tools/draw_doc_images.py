"""Draw the README's map pictures into docs/images/ (see docs/maps.md):

    .venv/bin/python tools/draw_doc_images.py

Each is the map `adjudicate` draws for a sample turn in orders/: a new game
in a temporary folder, the sample phases up to that turn adjudicated, that
phase's map as PNG.

    docs/images/standard-1901.png            orders/standard/1901-spring.txt, 1901-fall.txt
    docs/images/ambition-empire-1763.png     orders/ambition-empire/1763-spring.txt
    docs/images/ancient-mediterranean-1.png  orders/ancient-mediterranean/1-spring.txt, 1-fall.txt

and the supply-centre chart of the Standard sample game after its three phases:

    docs/images/centre-chart.png             orders/standard/1901-*.txt

and a card game's picture of the table: alice's own (her hand on top) in the
7 Wonders sample game (orders/seven-wonders/play.sh) after Age II, turn 4:

    docs/images/seven-wonders-table.png      orders/seven-wonders/01-*.yaml ... 10-*.yaml

Needs resvg-py (the PNG renderer), nothing else."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from adjudicator.folder import gamefolder
from adjudicator.output.render import render_png
from adjudicator.store import storage

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [("standard", ["1901-spring", "1901-fall"], "standard-1901.png"),
           ("ambition-empire", ["1763-spring"], "ambition-empire-1763.png"),
           ("ancient-mediterranean", ["1-spring", "1-fall"], "ancient-mediterranean-1.png")]


def chart(folder: Path) -> None:
    """The centre chart, once the sample's Winter is adjudicated too."""
    from adjudicator.folder.endreport import yearly_centres
    from adjudicator.output.chart import centre_chart_svg
    from adjudicator.output.png import svg_to_png
    gamefolder.adjudicate(folder, ROOT / "orders" / "standard" / "1901-winter.txt")
    _, variant, state, _ = gamefolder.load_current(folder)
    rows = yearly_centres(gamefolder.history_files(folder), variant, state)
    rows[-1] = ("now", rows[-1][1])
    out = ROOT / "docs" / "images" / "centre-chart.png"
    out.write_bytes(svg_to_png(centre_chart_svg(variant, rows, "The sample game: supply centres by year")))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)", file=sys.stderr)


def card_picture(tmp: Path) -> None:
    """alice's picture of the 7 Wonders sample game after its tenth turn, as her results mail carries it."""
    from adjudicator.cards import driver
    from adjudicator.output.png import svg_to_png
    folder = driver.new_game(tmp / "wonders", "seven-wonders", ["alice", "bob", "carol"], 7)
    turns = sorted((ROOT / "orders" / "seven-wonders").glob("[0-9][0-9]-*.yaml"))[:10]
    for turn in turns:
        driver.adjudicate(folder, turn)
    svg = storage.read_text(folder / "private" / "alice" / "0010-age2-turn4.svg")
    out = ROOT / "docs" / "images" / "seven-wonders-table.png"
    out.write_bytes(svg_to_png(svg))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)", file=sys.stderr)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for variant, samples, image in SAMPLES:
            folder = gamefolder.new_game(Path(tmp) / "example", variant)
            for sample in samples:
                gamefolder.adjudicate(folder, ROOT / "orders" / variant / f"{sample}.txt")
            svg = storage.read_text(folder / "maps" / f"{samples[-1]}-movement.svg")
            out = ROOT / "docs" / "images" / image
            out.write_bytes(render_png(svg))
            print(f"wrote {out} ({out.stat().st_size // 1024} KiB)", file=sys.stderr)
            if variant == "standard":
                chart(folder)
            for path in sorted(folder.rglob("*"), reverse=True):
                path.unlink() if path.is_file() else path.rmdir()
            folder.rmdir()
        card_picture(Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
