"""Draw the Age of Artisans and Age of Ambition table pictures shown in the
docs into docs/images/:

    .venv/bin/python tools/draw_age_pictures.py

    docs/images/age-of-artisans-table.png   a 5-player game after 140 random valid phases
                                            (tests/cards/age_pictures.yaml), as its first
                                            player's own picture: the hand is theirs
    docs/images/age-of-ambition-table.png   the scripted 3-player game of the same file,
                                            the public picture

The games are the ones tests/cards/test_age_pictures.py plays. Needs resvg-py."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "cards"))


def main() -> int:
    from test_age_pictures import draw_all, random_state, scripted_state

    from adjudicator.output.png import svg_to_png
    images = ROOT / "docs" / "images"
    artisans = random_state("age-of-artisans", 5, 11, 5, 140)
    _, own = draw_all("age-of-artisans", artisans)
    ambition, _ = draw_all("age-of-ambition", scripted_state(0))
    for name, svg in (("age-of-artisans-table.png", own[artisans["order"][0]]),
                      ("age-of-ambition-table.png", ambition)):
        png = svg_to_png(svg)
        (images / name).write_bytes(png)
        print(f"docs/images/{name}: {len(png):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
