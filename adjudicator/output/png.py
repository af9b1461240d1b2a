"""SVG to PNG with resvg (the resvg-py wheel): no system library needed.

resvg is a self-contained Rust renderer shipped inside the wheel; it finds the
system's fonts itself (DejaVu Sans where installed)."""

from __future__ import annotations


def svg_to_png(svg_text: str) -> bytes:
    """Render SVG text to PNG bytes on a white background."""
    try:
        import resvg_py
    except ImportError as exc:      # the optional dependency is missing
        raise RuntimeError("PNG output needs the resvg-py package: pip install resvg-py") from exc
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text, background="#ffffff"))
