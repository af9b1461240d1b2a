"""SVG maps: well-formed, one symbol per unit and per centre, escaped text,
deterministic, and a PNG that is really a picture."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib
from itertools import accumulate
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import parse_unit
from adjudicator.folder import gamefolder
from adjudicator.output.colours import minor_colour, power_colours
from adjudicator.output.render import layout_for, phase_map, render_png, render_svg
from adjudicator.rules import load_variant

SVG = "{http://www.w3.org/2000/svg}"


def with_minors(variant_name: str):
    variant = load_variant(variant_name)
    state = initial_state(variant)
    # initial_state places only the Great Powers; minors stand in their own centres.
    for minor, info in sorted(variant.minor_powers.items()):
        for text in info.units:
            unit = parse_unit(text, minor, variant.map, "test", "minor")
            state.units[unit.province] = unit
    return variant, state


def ids_with_prefix(root: ET.Element, prefix: str) -> list[str]:
    return [e.get("id") for e in root.iter() if (e.get("id") or "").startswith(prefix)]


def png_pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A tiny PNG decoder (8-bit RGB, RGBA or palette, non-interlaced): rows of
    raw pixels (a palette image's as RGB)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header, palette = 8, b"", None, []
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"PLTE":
            palette = [data[i:i + 3] for i in range(0, len(data), 3)]
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    assert depth == 8 and colour_type in (2, 3, 6) and interlace == 0
    bpp = {2: 3, 3: 1, 6: 4}[colour_type]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        # Each filter adds a predictor from a (left), b (above), c (above left), modulo 256.
        # Sub and Up go a whole row at a time; Average and Paeth byte by byte.
        if f == 1:
            for k in range(bpp):
                line[k::bpp] = bytes(v & 255 for v in accumulate(line[k::bpp]))
        elif f == 2:
            line = bytearray((x + b) & 255 for x, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(bpp):                    # a = c = 0: the predictor is b
                line[i] = (line[i] + prev[i]) & 255
            for i, b, c in zip(range(bpp, stride), prev[bpp:], prev):
                a = line[i - bpp]
                if a == c:                          # p = b: b is nearest (a too, if b == c)
                    p = b
                elif b == c:                        # p = a
                    p = a
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)     # |p - a|, |p - b|, |p - c|
                    p = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + p) & 255
        rows.append(bytes(line))
        prev = line
    if colour_type == 3:                            # palette indices -> RGB
        return width, 3, [b"".join(palette[i] for i in row) for row in rows]
    return width, bpp, rows


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_svg_counts_units_and_centres(variant_name: str) -> None:
    variant, state = with_minors(variant_name)
    svg = render_svg(variant, state, title="Test")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    units = ids_with_prefix(root, "unit-")
    assert len(units) == len(state.units) > 0
    assert len(set(units)) == len(units)
    centres = ids_with_prefix(root, "centre-")
    assert sorted(c.removeprefix("centre-") for c in centres) == sorted(variant.map.supply_centres)
    # Every province and coast has a drawing position.
    assert set(layout_for(variant.map)) >= set(variant.map.provinces)


def test_owned_centre_has_owner_colour_and_minor_is_grey() -> None:
    variant, state = with_minors("ambition-empire")
    root = ET.fromstring(render_svg(variant, state, title="T"))
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    paris = by_id["centre-par"].find(f"{SVG}circle")
    assert paris.get("fill") == power_colours(variant)["france"] == variant.extra["palette"]["france"]
    venice = by_id["centre-ven"].find(f"{SVG}circle")
    assert venice.get("fill") == minor_colour(variant) == variant.extra["palette"]["minor_powers"]
    # A minor's unit shows its religion letter; a Great Power's its code.
    assert by_id["unit-pap"].find(f"{SVG}text").text == "C"
    assert by_id["unit-par"].find(f"{SVG}text").text == "FR"


def test_names_are_escaped() -> None:
    variant, state = with_minors("ambition-empire")
    svg = render_svg(variant, state, title="Fish & <Chips>")
    assert "Naples &amp; Sicily" in svg
    assert "Naples & Sicily" not in svg
    assert "Fish &amp; &lt;Chips&gt;" in svg
    ET.fromstring(svg)


def test_orders_dislodged_and_determinism() -> None:
    variant = load_variant("standard")
    state = initial_state(variant)
    text = ("austria:\nA vie - gal\nA bud - ser\nF tri - alb\n"
            "russia:\nA war - gal\n"
            "france:\nA par - bur\nA mar S A par - bur\n"
            "germany:\nA mun - bur\nA ber H\n")
    outcome = adjudicate_text(variant, state, text)
    svg = render_svg(variant, outcome.next_state, outcome, title="G")
    assert svg == render_svg(variant, outcome.next_state, outcome, title="G")
    root = ET.fromstring(svg)
    classes = [e.get("class") or "" for e in root.iter()]
    assert any(c.startswith("order move") for c in classes)
    assert any(c.startswith("order supportmove") for c in classes)
    assert any(c.startswith("order hold") for c in classes)
    # The bounces in Galicia are marked failed with a red cross.
    assert sum("failed" in c and c.startswith("order") for c in classes) >= 3


def test_dislodged_unit_is_drawn_with_retreats() -> None:
    from adjudicator.diplomacy.model import Unit, UnitType
    from adjudicator.diplomacy.state import Dislodged
    variant = load_variant("standard")
    state = initial_state(variant)
    state.units["ser"] = Unit("turkey", UnitType.ARMY, "ser")
    state.dislodged["ser"] = Dislodged(Unit("austria", UnitType.ARMY, "ser"), "bul", ("alb", "tri"))
    root = ET.fromstring(render_svg(variant, state, title="G"))
    assert ids_with_prefix(root, "dislodged-") == ["dislodged-ser"]
    assert len(ids_with_prefix(root, "unit-")) == len(state.units)
    text = "".join(root.itertext())
    assert "retreat: alb, tri" in text           # the marker's tooltip
    assert "may retreat to: alb, tri" in text    # the panel
    # A dotted red arrow to each retreat option.
    group = next(e for e in root.iter() if e.get("id") == "dislodged")
    assert len([e for e in group.iter(f"{SVG}polygon") if e.get("class") == "arrowhead"]) == 2


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_png_is_not_blank(variant_name: str) -> None:
    variant, state = with_minors(variant_name)
    png = render_png(render_svg(variant, state, title="T"))
    width, bpp, rows = png_pixels(png)
    assert width > 800 and len(rows) > 600
    colours = {row[i:i + 3] for row in rows[::7] for i in range(0, len(row), bpp * 5)}
    assert len(colours) > 50


def test_a_phase_writes_its_map(tmp_path: Path) -> None:
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    variant = load_variant("standard")
    outcome = adjudicate_text(variant, initial_state(variant), "france:\nA par - bur\n")
    [(path, svg)] = phase_map(folder, "g", variant, outcome)
    assert path == folder / "maps" / "1901-spring-movement.svg"
    ET.fromstring(svg)
    orders = tmp_path / "o.txt"
    orders.write_text("France:\nA par - bur\n", encoding="utf-8")
    written = gamefolder.adjudicate(folder, orders).written
    assert folder / "maps" / "1901-spring-movement.svg" in written      # adjudicate draws it, no hook needed


def test_cli_map(tmp_path: Path) -> None:
    from adjudicator.cli.maps import map_command
    folder = gamefolder.new_game(tmp_path / "g", "ambition-empire")
    out, png = tmp_path / "m.svg", tmp_path / "m.png"
    result = CliRunner().invoke(map_command, [str(folder), "--out", str(out), "--png", str(png)])
    assert result.exit_code == 0, result.output
    ET.fromstring(out.read_text(encoding="utf-8"))
    assert png.read_bytes()[:4] == b"\x89PNG"
    result = CliRunner().invoke(map_command, [str(folder), "--phase", "1763-spring-movement"])
    assert result.exit_code == 0 and result.output.startswith("<svg")
    result = CliRunner().invoke(map_command, [str(folder), "--phase", "1999-fall-movement"])
    assert result.exit_code != 0


def test_cli_map_styles(tmp_path: Path) -> None:
    from adjudicator.cli.maps import map_command
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    territory = CliRunner().invoke(map_command, [str(folder)])
    graph = CliRunner().invoke(map_command, [str(folder), "--style", "graph"])
    assert territory.exit_code == 0 and graph.exit_code == 0
    assert 'id="territories"' in territory.output and 'id="edges"' not in territory.output
    assert 'id="edges"' in graph.output and 'id="territories"' not in graph.output
    assert CliRunner().invoke(map_command, [str(folder), "--style", "pretty"]).exit_code != 0


def test_render_data_kept_with_the_map(tmp_path: Path) -> None:
    """Issue 14: the layout and geometry are read once per map
    and kept with it (MapGraph.derived), not in module-level caches; another
    map read from another file has its own."""
    from adjudicator.diplomacy.mapgraph import MAPS_DIR, parse_map
    from adjudicator.output import render, render_territory
    from adjudicator.store.storage import read_yaml
    source = MAPS_DIR / "standard.yaml"
    graph = parse_map(read_yaml(source), str(source))
    assert graph.derived == {}
    geo = render_territory.geometry_for(graph)
    assert geo is not None and render_territory.geometry_for(graph) is geo
    assert layout_for(graph) == layout_for(graph)
    assert set(graph.derived) == {render_territory.GEOMETRY, render.LAYOUT}
    # The same map under another name: no geometry of its own.
    (tmp_path / "mine.yaml").write_bytes(source.read_bytes())
    (tmp_path / "mine.layout.yaml").write_text("positions: {}\n")
    mine = parse_map(read_yaml(tmp_path / "mine.yaml"), str(tmp_path / "mine.yaml"))
    assert render_territory.geometry_for(mine) is None
    assert render_territory.geometry_for(graph) is geo
    for name in ("_read_layout", "layout_for", "geometry_for"):
        function = getattr(render, name, None) or getattr(render_territory, name)
        assert not hasattr(function, "cache_clear"), name


def test_map_phase_redraws_a_past_phase_with_its_orders(tmp_path: Path) -> None:
    """`map --phase` replays an adjudicated phase from its history state and the
    orders it was adjudicated with: the same map `adjudicate` wrote, byte for byte."""
    from adjudicator.cli.maps import map_command
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    for i, text in enumerate(["france:\nA par - bur\nA mar - bur\ngermany:\nA mun - bur\n",
                              "france:\nA mar - bur\nF bre - mao\n"]):
        orders = tmp_path / f"o{i}.txt"
        orders.write_text(text, encoding="utf-8")
        gamefolder.adjudicate(folder, orders, nmr=True)
    for slug in ("1901-spring-movement", "1901-fall-movement"):
        out = tmp_path / f"{slug}.svg"
        result = CliRunner().invoke(map_command, [str(folder), "--phase", slug, "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes() == (folder / "maps" / f"{slug}.svg").read_bytes()
    spring = ET.fromstring((tmp_path / "1901-spring-movement.svg").read_text(encoding="utf-8"))
    assert [e.get("id") for e in spring.iter() if (e.get("id") or "").startswith("standoff-")] == ["standoff-bur"]
    # The current phase, not yet adjudicated: its position, no orders.
    result = CliRunner().invoke(map_command, [str(folder), "--phase", "1902-spring-movement"])
    assert result.exit_code == 0 and 'class="order' not in result.output
