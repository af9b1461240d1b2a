"""A Standard results mail is small: the map as a palette PNG under 150 kB,
no SVG unless the game asks for it (`mail: {svg: true}`), the whole mail with
the state file under 250 kB."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from PIL import Image
from test_mail import PASSWORDS, address, read_eml

from adjudicator.cli.main import cli
from adjudicator.folder import gamefolder, players
from adjudicator.output import png as pngs

ROOT = Path(__file__).resolve().parent.parent
MAX_MAIL = 250_000
# The renderer's own tests: every picture drawn afresh, not taken from the run's memo.
pytestmark = pytest.mark.draws_afresh


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = gamefolder.new_game(tmp_path_factory.mktemp("size") / "game", "standard")
    for power in ("england", "france"):
        players.add_player(folder, power, power.title(), address(power), PASSWORDS[power])
    gamefolder.adjudicate(folder, ROOT / "orders" / "standard" / "1901-spring.txt")
    return folder


def mail_files(game: Path) -> list[Path]:
    result = CliRunner().invoke(cli, ["mail", str(game)])
    assert result.exit_code == 0, result.output
    return sorted((game / "mail" / "1901-spring-movement").glob("*.eml"))


def attachments(path: Path) -> dict[str, bytes]:
    return {str(part.get_filename()): part.get_content() for part in read_eml(path).iter_attachments()}


def test_a_standard_results_mail_is_small_with_a_palette_png_and_no_svg(game: Path) -> None:
    for path in mail_files(game):
        assert path.stat().st_size < MAX_MAIL, (path, path.stat().st_size)
        files = attachments(path)
        assert sorted(files) == ["1901-fall-movement.yaml", "1901-spring-movement.png"]
        png = files["1901-spring-movement.png"]
        assert len(png) < pngs.MAX_PNG_BYTES
        with Image.open(io.BytesIO(png)) as image:
            assert image.mode == "P"                 # a palette image
            assert image.size[0] > 1000              # the full map, not a thumbnail


def test_the_svg_comes_when_the_game_asks_for_it(game: Path, tmp_path: Path) -> None:
    meta = yaml.safe_load((game / "game.yaml").read_text(encoding="utf-8"))
    meta["mail"] = {"svg": True}
    (game / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    try:
        for path in mail_files(game):
            assert sorted(attachments(path)) == ["1901-fall-movement.yaml", "1901-spring-movement.png",
                                                 "1901-spring-movement.svg"]
    finally:
        del meta["mail"]
        (game / "game.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")


def test_without_a_png_renderer_the_svg_is_attached_instead(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_renderer(svg_text: str) -> bytes:
        raise ImportError("no resvg")
    monkeypatch.setattr(pngs, "svg_to_png", no_renderer)
    for path in sorted((game / "mail").rglob("*.eml")):
        path.unlink()
    for path in mail_files(game):
        assert sorted(attachments(path)) == ["1901-fall-movement.yaml", "1901-spring-movement.svg"]
        assert "attached as SVG only" in read_eml(path).get_body(preferencelist=("plain",)).get_content()


@pytest.mark.parametrize("variant, orders", [("standard", "standard/1901-spring.txt"),
                                             ("ambition-empire", "ambition-empire/1763-spring.txt")])
def test_every_sample_map_png_is_under_the_limit(tmp_path: Path, variant: str, orders: str) -> None:
    folder = gamefolder.new_game(tmp_path / "g", variant)
    gamefolder.adjudicate(folder, ROOT / "orders" / orders)
    [svg] = (folder / "maps").glob("*.svg")
    data = pngs.svg_to_png(svg.read_text(encoding="utf-8"))
    assert len(data) < pngs.MAX_PNG_BYTES
    assert data == pngs.svg_to_png(svg.read_text(encoding="utf-8"))     # the same SVG, the same bytes


def test_a_map_is_compressed_harder_only_when_it_must_and_loses_colours_last(game: Path) -> None:
    """zlib's level 8 first; level 9 with the same colours for a picture over
    the limit at 8; fewer colours only for one over the limit even at 9."""
    [svg] = (game / "maps").glob("*.svg")
    full = pngs.full_colour_png(svg.read_text(encoding="utf-8"))
    with Image.open(io.BytesIO(full)) as image:
        palette = pngs.quantised(image.convert("RGB"), pngs.PALETTE_COLOURS)
    written = {}
    for level in (8, 9):
        out = io.BytesIO()
        palette.save(out, format="PNG", compress_level=level)
        written[level] = out.getvalue()
    assert len(written[9]) < len(written[8])        # the map is one where level 9 is smaller
    assert pngs.small_png(full, limit=len(written[8])) == written[8]
    assert pngs.small_png(full, limit=len(written[9])) == written[9]
    fewer = pngs.small_png(full, limit=len(written[9]) - 1)
    assert len(fewer) < len(written[9])
    with Image.open(io.BytesIO(fewer)) as image:
        assert len(image.getcolors(maxcolors=256) or ()) <= pngs.FEWER_COLOURS[0]
