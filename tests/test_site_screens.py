"""The site in a real browser at a desk's width and a phone's: headless
Chromium opens every page of a Standard, an Ambition & Empire and a 7 Wonders
game at 1280 and 390 px, takes a screenshot of each, checks that nothing
scrolls sideways at 390 px, and runs axe-core (the accessibility checker, from
the npm registry) on each page: no serious or critical violation.

axe-core is found at .ci/node/node_modules/axe-core/axe.min.js, where .ci/run
installs it (`npm install --prefix .ci/node axe-core@4.14.1`), or at the
path in AXE_CORE_JS."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailservers import missing_server
from test_site import CHROMIUM, ORDERS

from adjudicator.cards import driver
from adjudicator.cli.maps import site_command
from adjudicator.folder import gamefolder
from adjudicator.output.colours import power_colours
from adjudicator.rules import load_variant

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("AXE_CORE_JS") or ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js")
SVG = "{http://www.w3.org/2000/svg}"
WIDTHS = (1280, 390)
# Headless Chromium will not make its window narrower than 500 px, so the
# phone-width page is loaded in a 390 px wide frame of a host page: inside it,
# the page's viewport, its media queries and its scroll width are a phone's.
HOST = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<script>window.addEventListener("message", function (e) {
  var p = document.createElement("p"); p.id = "probe"; p.textContent = e.data; document.body.appendChild(p); });
</script></head><body style="margin:0"><iframe title="page" src="PAGE" style="border:0;width:WIDTHpx;height:1400px">
</iframe></body></html>"""
# Put into a copy of each page: after load, the page reports its widths and
# axe-core's serious and critical findings to the host.
PROBE = """<script src="axe.min.js"></script><script>window.addEventListener("load", function () {
  var widths = "WIDTHS[" + document.scrollingElement.scrollWidth + "," + window.innerWidth + "]";
  axe.run(document, {resultTypes: ["violations"]}).then(function (r) {
    var bad = r.violations.filter(function (v) { return v.impact === "serious" || v.impact === "critical"; })
      .map(function (v) { return {id: v.id, impact: v.impact, nodes: v.nodes.map(function (n) { return n.target.join(" "); })}; });
    parent.postMessage(widths + "AXE" + JSON.stringify(bad) + "END", "*");
  }, function (e) { parent.postMessage(widths + "AXEFAILED " + e + "END", "*"); });
});</script>"""


def chromium(*args: str, profile: Path) -> str:
    assert CHROMIUM is not None
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def crop(png: Path, width: int) -> None:
    """Keep the left `width` pixels of a screenshot: the phone frame."""
    from PIL import Image
    with Image.open(png) as image:
        image.crop((0, 0, width, image.height)).save(png)
    assert png.stat().st_size > 2000, png


def standard_game(root: Path) -> Path:
    """Three phases played, then ended by a draw: results, the next phase, the end page."""
    folder = gamefolder.new_game(root / "standard", "standard")
    for i, text in enumerate(ORDERS):
        path = root / f"orders-{i}.txt"
        path.write_text(text, encoding="utf-8")
        gamefolder.adjudicate(folder, path, nmr=True)
    _, variant, state, _ = gamefolder.load_current(folder)
    gamefolder.end_game(folder, {"draw": variant.rules.survivors(variant, state), "phase": str(state.phase)})
    return folder


def ambition_game(root: Path) -> Path:
    folder = gamefolder.new_game(root / "ae", "ambition-empire")
    path = root / "ae-orders.txt"
    path.write_text("france:\nA par - bur\n", encoding="utf-8")
    gamefolder.adjudicate(folder, path, nmr=True)
    return folder


def wonders_game(root: Path) -> Path:
    """The deal and two turns, each page with its picture of the table."""
    folder = driver.new_game(root / "wonders", "seven-wonders", ["alice", "bob", "carol"], 7)
    for _ in range(2):
        driver.adjudicate(folder, None, nmr=True)
    return folder


GAMES = {"standard": standard_game, "ambition-empire": ambition_game, "seven-wonders": wonders_game}


@pytest.fixture(scope="module", params=sorted(GAMES))
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp(request.param)
    folder = GAMES[request.param](root)
    out = root / "site"
    result = CliRunner().invoke(site_command, [str(folder), str(out)])
    assert result.exit_code == 0, result.output
    yield request.param, out


def test_pages_say_how_the_game_stands(site: tuple[str, Path]) -> None:
    name, out = site
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in index
    assert '<html lang="en">' in index
    if name == "standard":
        assert "The game has ended. The game ended in a draw between" in index
        assert (out / "end.html").exists()
        page = (out / "1901-spring-movement.html").read_text(encoding="utf-8")
        # The map: scaled, a link to open it whole, alt text with the units in brief.
        assert '<a href="maps/1901-spring-movement.svg"><img id="map"' in page
        alt = re.search(r'<img id="map" src="[^"]+" alt="([^"]+)"', page)
        assert alt and alt.group(1).startswith("Map: Spring 1901 Movement: results, with the orders. Austria: ")
        assert "France: A Bur, F Mao, A Spa;" in alt.group(1) and "F Stp/SC" in alt.group(1)
        assert "<dt>Bur</dt><dd>Burgundy</dd>" in page          # names as text, not only tooltips
        # The centre chart: a line per power in its map colour, one point a year, and the figures as a table.
        assert '<a id="chart" href="centres.html">' in index
        chart = ET.fromstring((out / "centres.svg").read_text(encoding="utf-8"))
        lines = {g.get("id"): g for g in chart.iter(f"{SVG}g") if g.get("class") == "power-line"}
        variant = load_variant("standard")
        assert set(lines) == {f"line-{p}" for p in variant.powers}
        france = lines["line-france"].find(f"{SVG}polyline")
        assert france is not None and france.get("stroke") == power_colours(variant)["france"]
        assert len((france.get("points") or "").split()) == 3            # 1901, 1902, end
        table = (out / "centres.html").read_text(encoding="utf-8")
        assert "<tr><td>1902</td><td>3</td><td>3</td><td>5</td><td>5</td><td>3</td><td>4</td><td>3</td></tr>" in table
        assert 'src="centres.svg"' in (out / "end.html").read_text(encoding="utf-8")
    if name == "seven-wonders":
        assert "The game has ended" not in index and not (out / "centres.html").exists()
        assert "Every phase: its picture of the table and public report." in index
        for slug in ("0000-setup", "0001-age1-turn1", "0002-age1-turn2"):
            page = (out / f"{slug}.html").read_text(encoding="utf-8")
            alt = re.search(rf'<a href="maps/{slug}.svg"><img id="map" src="maps/{slug}.svg" alt="([^"]+)"', page)
            assert alt and alt.group(1).startswith("Picture of the table: 7 Wonders, Age I before turn "), slug
            assert "alice, Babylon (A): " in alt.group(1) and "carol, " in alt.group(1)
            assert ET.fromstring((out / "maps" / f"{slug}.svg").read_text(encoding="utf-8")).tag == f"{SVG}svg"


def test_every_page_at_desk_and_phone_width(site: tuple[str, Path], tmp_path: Path) -> None:
    if CHROMIUM is None:
        missing_server("chromium is not installed (Debian: apt-get install chromium)")
    if not AXE.exists():
        reason = f"axe-core is not installed at {AXE} (npm install --prefix .ci/node axe-core@4.14.1)"
        if os.environ.get("ADJUDICATOR_REQUIRE_AXE") == "1":
            pytest.fail(f"{reason}, but ADJUDICATOR_REQUIRE_AXE=1 says .ci/run installed it", pytrace=False)
        pytest.skip(reason)
    name, out = site
    shutil.copy(AXE, out / "axe.min.js")
    shots = Path(os.environ.get("SITE_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    pages = sorted(out.glob("*.html"))
    assert len(pages) >= 2
    problems = []
    for page in pages:
        probe = page.with_suffix(".probe.html")
        probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
        host = page.with_suffix(".host.html")
        host.write_text(HOST.replace("PAGE", probe.name).replace("WIDTH", "390"), encoding="utf-8")
        try:
            desk = shots / f"{name}-{page.stem}-1280.png"
            chromium("--window-size=1280,1000", f"--screenshot={desk}", page.as_uri(), profile=tmp_path / "profile")
            # One launch for the phone: the screenshot of the frame and the
            # probe's report. The probe's scripts draw nothing, and the line
            # it adds to the host falls below the 1400 px frame, out of the shot.
            small = shots / f"{name}-{page.stem}-390.png"
            dom = chromium("--window-size=520,1400", "--virtual-time-budget=15000", f"--screenshot={small}",
                           "--dump-dom", host.as_uri(), profile=tmp_path / "profile")
            crop(small, 390)
        finally:
            for extra in (probe, host):
                extra.unlink()
        found = re.search(r'<p id="probe">WIDTHS\[(\d+),(\d+)\]AXE(.*?)END</p>', dom, re.DOTALL)
        assert found, f"{page.name}: the probe did not run"
        scroll, inner = int(found.group(1)), int(found.group(2))
        assert inner == 390, f"{page.name}: the frame is {inner} px wide"
        if scroll > inner:
            problems.append(f"{page.name}: scrolls sideways at 390 px ({scroll} > {inner})")
        assert not found.group(3).startswith("FAILED"), found.group(3)
        for violation in json.loads(found.group(3).replace("&quot;", '"').replace("&amp;", "&")):
            problems.append(f"{page.name}: axe {violation['impact']} {violation['id']} at {violation['nodes'][:3]}")
    assert not problems, "\n".join(problems)
