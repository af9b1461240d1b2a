"""The colours a map draws powers in, and the text colour that reads on each."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.store.storage import read_text, read_yaml

if TYPE_CHECKING:
    from adjudicator.diplomacy.mapgraph import MapGraph
    from adjudicator.diplomacy.variant import Variant

MINOR_COLOUR = "#9a9a9a"
# graph.derived key: the display colours read once per map and kept with it.
DISPLAY_COLOURS = "render.display_colours"


def display_colours(graph: MapGraph) -> dict[str, str]:
    """The display colours the map's layout file gives, read once per map and
    kept with it (graph.derived)."""
    kept = graph.derived.get(DISPLAY_COLOURS)
    if isinstance(kept, dict):
        return kept
    source = Path(graph.source)
    path = source.with_name(source.stem + ".layout.yaml")
    colours: dict[str, str] = {}
    # Most layouts give no display colours: then the file (schematic positions,
    # ~7 ms of YAML for Standard) is not parsed for the territory map.
    if path.exists() and "display_colours" in read_text(path):
        colours = {str(k): str(v) for k, v in (read_yaml(path, keep=True).get("display_colours") or {}).items()}
    graph.derived[DISPLAY_COLOURS] = colours
    return colours


def power_colours(variant: Variant) -> dict[str, str]:
    """The colour each Great Power is drawn in: the variant's, unless the map's
    layout file gives a display colour (where two would be hard to tell apart)."""
    overrides = display_colours(variant.map)
    return {p: overrides.get(p, info.colour) for p, info in variant.powers.items()}


def colour_of(variant: Variant, power: str | None) -> str:
    if power is not None and power in variant.powers:
        return power_colours(variant)[power]
    return MINOR_COLOUR


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
