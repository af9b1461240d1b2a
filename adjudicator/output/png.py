"""SVG to PNG with resvg (the resvg-py wheel), made small with a palette.

resvg is a self-contained Rust renderer shipped inside the wheel; it finds the
system's fonts itself (DejaVu Sans where installed). Its PNG is full colour
(about 390 kB for a Standard map, 530 kB for Ambition & Empire): a map has a
few dozen flat colours and the anti-aliased edges between them, so Pillow
quantises it to a palette of at most PALETTE_COLOURS colours (maximum
coverage, no dithering: flat areas stay flat and edges stay clean) and writes
it with zlib. Measured on the sample maps: Standard 386 -> 116 kB, Ambition
& Empire 531 -> 148 kB, every pixel within 19 of its full-colour value on
each channel, 4 on average (a change no eye sees on a map), in 0.2 s of CPU
on top of resvg's 0.4 s for Standard (0.6 s on top of 0.6 s for Ambition &
Empire, which is quantised twice). (Pillow's k-means pass brings the average to
0.2 but costs 2 s, and median cut leaves edge pixels up to 71 off.)

zlib's level 8 writes a picture in about a third of level 9's time (card
pictures 20 against 55 ms, the Standard map 50 against 135 ms) for about 1%
more bytes (2-3% on the maps). So level 8 comes first; a picture still over
MAX_PNG_BYTES is written at level 9 with the same colours, and one over even
then is quantised again with fewer colours. The same SVG gives the same bytes."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

PALETTE_COLOURS = 256
FEWER_COLOURS = (192, 128, 96, 64)      # tried in turn while a PNG is over MAX_PNG_BYTES
MAX_PNG_BYTES = 150_000            # a results mail carries one, base64-encoded
ZLIB_LEVELS = (8, 9)               # tried in turn for each palette while the PNG is over the limit


def svg_to_png(svg_text: str) -> bytes:
    """Render SVG text to a palette PNG on a white background."""
    return small_png(full_colour_png(svg_text))


def full_colour_png(svg_text: str) -> bytes:
    """resvg's rendering of SVG text on a white background, as a full-colour PNG."""
    try:
        import resvg_py
    except ImportError as exc:      # the optional dependency is missing
        raise RuntimeError("PNG output needs the resvg-py package: pip install resvg-py") from exc
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text, background="#ffffff"))


def small_png(full_colour: bytes, limit: int = MAX_PNG_BYTES) -> bytes:
    """A full-colour PNG as a palette PNG, at most `limit` bytes where harder
    compression or fewer colours can make it so."""
    from PIL import Image  # here: only a command that draws a PNG loads Pillow
    with Image.open(io.BytesIO(full_colour)) as image:
        rgb = image.convert("RGB")  # on white already: resvg drew the background
    best = b""
    for colours in (PALETTE_COLOURS, *FEWER_COLOURS):
        palette = quantised(rgb, colours)
        for level in ZLIB_LEVELS:
            out = io.BytesIO()
            palette.save(out, format="PNG", compress_level=level)
            best = out.getvalue()
            if len(best) <= limit:
                return best
    return best


def quantised(rgb: Image.Image, colours: int) -> Image.Image:
    """An RGB image as a palette image of at most `colours` colours: maximum
    coverage, no dithering (see the module's docstring)."""
    from PIL import Image
    return rgb.quantize(colors=colours, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
