"""Choose a variant's map palette: colours every vision tells apart.

A greedy search over a 16-level sRGB grid (4,096 colours). Each power in
turn takes the grid colour that best keeps it apart from the other powers,
from the sea and from the neutral land (its own colour and its territory
tint), in normal vision and under simulated protanopia, deuteranopia and
tritanopia; of the colours that clear the bar by the margin asked for, the
one closest to the power's own `colour` (so Austria stays red where it can).
Several rounds, until nothing changes. It prints the `palette:` block to
paste into the variant file; tests/test_palette.py checks what is committed.

    .venv/bin/python tools/choose_palette.py standard --margin 1.1

The colour science is coloraide's (as in the test). A 10-power variant takes
some minutes."""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any

from coloraide import Color

from adjudicator.output.colours import MINOR_POWERS_KEY
from adjudicator.output.render_territory import LAND_FILL, SEA_FILL, TINT, mix
from adjudicator.rules import load_variant

VISIONS = ("normal", "protan", "deutan", "tritan")
MINIMUM = {"normal": 20.0, "protan": 12.0, "deutan": 12.0, "tritan": 12.0}
GRID = [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in itertools.product(range(0, 256, 17), repeat=3)]

Seen = tuple[Any, ...]     # the colour as each vision sees it, in Lab


def seen(colour: str) -> Seen:
    c = Color(colour)
    return tuple((c if v == "normal" else c.filter(v)).convert("lab-d65") for v in VISIONS)


def margin(a: Seen, b: Seen) -> float:
    """The smallest of difference / minimum over the visions: >= 1 clears the bar."""
    return min(a[i].delta_e(b[i], method="2000") / MINIMUM[v] for i, v in enumerate(VISIONS))


def choose(start: dict[str, str], wanted: float, rounds: int) -> dict[str, str]:
    grounds = [seen(SEA_FILL), seen(LAND_FILL)]
    grid = {c: (seen(c), seen(mix(c, TINT))) for c in GRID}
    current = dict(start)
    views = {p: seen(c) for p, c in current.items()}
    own = {p: seen(c)[0] for p, c in start.items()}
    for round_number in range(rounds):
        before = dict(current)
        for power in sorted(current):
            others = [views[q] for q in current if q != power]
            best: tuple[tuple[float, float], str] | None = None
            for colour, (view, tint) in grid.items():
                apart = min(min(margin(view, o) for o in [*others, *grounds]),
                            min(margin(tint, g) for g in grounds))
                score = (min(apart, wanted), -float(view[0].delta_e(own[power], method="2000")))
                if best is None or score > best[0]:
                    best = (score, colour)
            assert best is not None
            current[power], views[power] = best[1], grid[best[1]][0]
        worst = min(margin(views[a], views[b]) for a, b in itertools.combinations(sorted(views), 2))
        print(f"round {round_number + 1}: smallest margin between powers {worst:.3f}", file=sys.stderr)
        if current == before:
            break
    return current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", help="variant name, e.g. standard")
    parser.add_argument("--margin", type=float, default=1.1, help="aim this far above the bar (1 = just clear it)")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args(argv)
    variant = load_variant(args.variant)
    start = {p: info.colour for p, info in variant.powers.items()}
    if variant.minor_powers:
        start[MINOR_POWERS_KEY] = "#9a9a9a"
    chosen = choose(start, args.margin, args.rounds)
    print("palette:")
    for power in [*variant.powers, *([MINOR_POWERS_KEY] if variant.minor_powers else [])]:
        print(f"  {power}: '{chosen[power]}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
