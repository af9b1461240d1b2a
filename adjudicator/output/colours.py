"""The colours a map draws powers in, and the text colour that reads on each."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from adjudicator.errors import DataFileError

if TYPE_CHECKING:
    from adjudicator.diplomacy.variant import Variant

MINOR_COLOUR = "#9a9a9a"
# A variant's `palette:` names the colour each Great Power is drawn in (and,
# under MINOR_POWERS_KEY, the minor powers'): chosen so that every two, and
# each against the sea and the neutral land, stay apart in normal and in
# colour-blind vision (tests/test_palette.py). A power it leaves out is drawn
# in its `colour`.
PALETTE_KEY, MINOR_POWERS_KEY = "palette", "minor_powers"
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}\Z")


def palette(variant: Variant) -> dict[str, str]:
    """The variant's `palette:`, checked: power ids (or minor_powers) to #rrggbb."""
    given = variant.extra.get(PALETTE_KEY) or {}
    if not isinstance(given, dict):
        raise DataFileError("palette: expected a mapping of power to colour", file=variant.source,
                            hint="palette: {france: '#9988bb', ...}")
    out: dict[str, str] = {}
    for key, value in given.items():
        if str(key) not in variant.powers and str(key) != MINOR_POWERS_KEY:
            raise DataFileError(f"palette: unknown power {key!r}", file=variant.source,
                                hint="known: " + ", ".join([*variant.powers, MINOR_POWERS_KEY]))
        if not isinstance(value, str) or not _HEX_COLOUR.match(value):
            raise DataFileError(f"palette: {key}: {value!r} is not a colour", file=variant.source,
                                hint="write it as '#rrggbb', quoted")
        out[str(key)] = value.lower()
    return out


def power_colours(variant: Variant) -> dict[str, str]:
    """The colour each Great Power is drawn in: the variant's palette, else its colour."""
    chosen = palette(variant)
    return {p: chosen.get(p, info.colour) for p, info in variant.powers.items()}


def minor_colour(variant: Variant) -> str:
    return palette(variant).get(MINOR_POWERS_KEY, MINOR_COLOUR)


def colour_of(variant: Variant, power: str | None) -> str:
    if power is not None and power in variant.powers:
        return power_colours(variant)[power]
    return minor_colour(variant)


def _luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour(fill: str) -> str:
    """Black or white, whichever has the higher contrast ratio on the fill."""
    try:
        lum = _luminance(fill)
    except ValueError:
        return "#000000"
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"
