"""Every map's colours are told apart, by everyone.

For each variant drawn on a territory map, every two power colours (the
minor powers' colour counts as one), and each power colour against the sea
and the neutral land, differ by a CIEDE2000 colour difference of at least 20
in normal vision and at least 12 under simulated protanopia, deuteranopia and
tritanopia; so does the tint a power's territory is filled with, against the
sea and the land. The simulation and the colour difference are coloraide's
(Viénot for protanopia and deuteranopia, Brettel for tritanopia, its
defaults for complete dichromacy)."""

from __future__ import annotations

import itertools

import pytest
from coloraide import Color
from test_geometry_drawing import DRAWN_VARIANTS

from adjudicator.diplomacy.variant import VARIANTS_DIR
from adjudicator.errors import DataFileError
from adjudicator.output.colours import (
    MINOR_POWERS_KEY,
    minor_colour,
    palette,
    power_colours,
)
from adjudicator.output.render_territory import LAND_FILL, SEA_FILL, TINT, mix
from adjudicator.rules import load_variant

VISIONS = ("normal", "protan", "deutan", "tritan")
MINIMUM = {"normal": 20.0, "protan": 12.0, "deutan": 12.0, "tritan": 12.0}


def seen(colour: str, vision: str) -> Color:
    c = Color(colour)
    return c if vision == "normal" else c.filter(vision)


def delta_e(a: str, b: str, vision: str) -> float:
    return float(seen(a, vision).delta_e(seen(b, vision), method="2000"))


def drawn_colours(variant_name: str) -> dict[str, str]:
    variant = load_variant(variant_name)
    colours = power_colours(variant)
    if variant.minor_powers:
        colours["(minor powers)"] = minor_colour(variant)
    return colours


def pairs(variant_name: str) -> list[tuple[str, str, str, str]]:
    """(name, colour, name, colour) for every pair the test checks."""
    colours = drawn_colours(variant_name)
    out = [(a, colours[a], b, colours[b]) for a, b in itertools.combinations(sorted(colours), 2)]
    for name, colour in sorted(colours.items()):
        for ground, fill in (("sea", SEA_FILL), ("land", LAND_FILL)):
            out.append((name, colour, ground, fill))
            out.append((f"{name} territory", mix(colour, TINT), ground, fill))
    return out


def minima(variant_name: str) -> dict[str, tuple[float, str]]:
    """The smallest difference in each vision, and the pair it is between."""
    out = {}
    for vision in VISIONS:
        out[vision] = min((delta_e(ca, cb, vision), f"{a} {ca} / {b} {cb}")
                          for a, ca, b, cb in pairs(variant_name))
    return out


def test_coloraide_reproduces_published_ciede2000() -> None:
    # Sharma, Wu and Dalal's test data, pair 17: the library computes what we think it does.
    a = Color("lab-d65", [50, 2.5, 0])
    b = Color("lab-d65", [73, 25, -18])
    assert a.delta_e(b, method="2000") == pytest.approx(27.1492, abs=1e-3)
    # Full protanopia maps pure red and a dark olive close together.
    assert delta_e("#ff0000", "#9a8a00", "normal") > 20 > delta_e("#ff0000", "#9a8a00", "protan")


@pytest.mark.parametrize("variant_name", DRAWN_VARIANTS)
def test_palette_is_told_apart_in_every_vision(variant_name: str) -> None:
    too_close = []
    for vision in VISIONS:
        for a, ca, b, cb in pairs(variant_name):
            d = delta_e(ca, cb, vision)
            if d < MINIMUM[vision]:
                too_close.append(f"{vision}: {a} {ca} / {b} {cb}: dE00 {d:.1f} < {MINIMUM[vision]:g}")
    assert not too_close, "\n".join(too_close)


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire", "ancient-mediterranean"])
def test_variant_gives_its_own_palette(variant_name: str) -> None:
    # The colours are the variant's data, every power and minor power named.
    variant = load_variant(variant_name)
    given = palette(variant)
    assert set(variant.powers) | ({MINOR_POWERS_KEY} if variant.minor_powers else set()) == set(given)
    assert variant_name in DRAWN_VARIANTS


@pytest.mark.parametrize("bad, message", [
    ("palette: [red]\n", "expected a mapping"),
    ("palette: {prussia: '#000000'}\n", "unknown power 'prussia'"),
    ("palette: {france: red}\n", "is not a colour"),
    ("palette: {france: '#12345'}\n", "is not a colour"),
])
def test_a_bad_palette_is_a_clear_error(tmp_path: object, bad: str, message: str) -> None:
    from pathlib import Path
    assert isinstance(tmp_path, Path)
    text = (VARIANTS_DIR / "standard.yaml").read_text(encoding="utf-8")
    text = text[:text.index("\npalette:")] + "\n" + bad
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    variant = load_variant(str(tmp_path / "mine.yaml"))
    with pytest.raises(DataFileError, match=message):
        power_colours(variant)


if __name__ == "__main__":      # the figures: cd tests && python test_palette.py
    for name in DRAWN_VARIANTS:
        for vision, (d, pair) in minima(name).items():
            print(f"{name:24} {vision:7} min dE00 {d:5.1f}  {pair}")
