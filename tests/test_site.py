"""`adjudicator site`: a static site of a game's public record, and a real
browser (headless chromium, where installed) walking it from the index."""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from mailservers import missing_server

from adjudicator.cli.maps import site_command
from adjudicator.folder import gamefolder

ORDERS = [
    "france:\nA par - bur\nA mar - spa\nF bre - mao\ngermany:\nA mun - ruh\nF kie - den\nA ber - kie\n",
    "france:\nA spa - por\nF mao - spa/nc\ngermany:\nA ruh - bel\nF den - swe\n",
    "france:\nbuild A par\nbuild F bre\ngermany:\nbuild A mun\n",
]
SECRET = "TOP-SECRET-PRIVATE-TEXT"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    folder = gamefolder.new_game(root / "demo", "standard")
    for i, text in enumerate(ORDERS):
        path = root / f"orders-{i}.txt"
        path.write_text(text, encoding="utf-8")
        gamefolder.adjudicate(folder, path, nmr=True)
    # Private files the site must never show.
    for sub in ("private/france", "gm"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "private" / "france" / "1901-spring-movement.txt").write_text(SECRET, encoding="utf-8")
    (folder / "gm" / "1901-spring-movement.log").write_text(SECRET, encoding="utf-8")
    (folder / "orders" / "1902-spring-movement").mkdir(parents=True, exist_ok=True)
    (folder / "orders" / "1902-spring-movement" / "france.txt").write_text(f"# {SECRET}\n", encoding="utf-8")
    # A report with markup in it must come out escaped.
    report = folder / "reports" / "1901-spring-movement.txt"
    report.write_text(report.read_text(encoding="utf-8") + "\nPress: <b>Fish & Chips</b>\n", encoding="utf-8")
    # The HTML report the page shows is cleaned: markup someone slipped in is dropped.
    html = folder / "reports" / "1901-spring-movement.html"
    html.write_text(html.read_text(encoding="utf-8").replace(
        "</body>", f"<p>Press: <b>Fish &amp; Chips</b> &lt;i&gt;<script>alert('{SECRET}')</script>"
                   "<img src=x onerror=alert(1)></p></body>"), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def site(game: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out") / "site"
    result = CliRunner().invoke(site_command, [str(game), str(out), "--png"])
    assert result.exit_code == 0, result.output
    return out


SLUGS = ["1901-spring-movement", "1901-fall-movement", "1901-winter-adjustment", "1902-spring-movement"]


def test_index_lists_every_phase_in_order(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<li><a href="([^"]+)">', index)
    assert links == [f"{s}.html" for s in SLUGS]
    assert "(not yet adjudicated)" in index


def test_each_page_has_map_report_and_neighbours(site: Path) -> None:
    for i, slug in enumerate(SLUGS):
        html = (site / f"{slug}.html").read_text(encoding="utf-8")
        assert f'src="maps/{slug}.svg"' in html
        ET.fromstring((site / "maps" / f"{slug}.svg").read_text(encoding="utf-8"))
        assert (site / "maps" / f"{slug}.png").read_bytes()[:4] == b"\x89PNG"
        prev = re.search(r'id="prev" rel="prev" href="([^"]+)"', html)
        nxt = re.search(r'id="next" rel="next" href="([^"]+)"', html)
        assert (prev.group(1) if prev else None) == (f"{SLUGS[i - 1]}.html" if i else None)
        assert (nxt.group(1) if nxt else None) == (f"{SLUGS[i + 1]}.html" if i + 1 < len(SLUGS) else None)
    first = (site / f"{SLUGS[0]}.html").read_text(encoding="utf-8")
    assert "A Paris - Burgundy" in first or "Paris" in first
    assert "Press: Fish &amp; Chips &lt;i&gt;" in first
    assert "<b>" not in first and "<script>alert" not in first and "onerror" not in first and "<img src=x" not in first
    assert '<section id="report" class="report">' in first and "<h2>Orders</h2>" in first
    last = (site / f"{SLUGS[-1]}.html").read_text(encoding="utf-8")
    assert "not been adjudicated" in last


def test_nothing_private_is_published(site: Path) -> None:
    for path in site.rglob("*"):
        if path.is_file() and path.suffix != ".png":
            assert SECRET not in path.read_text(encoding="utf-8"), path
    assert sorted(p.name for p in site.iterdir()) == sorted(
        [*(f"{s}.html" for s in SLUGS), "index.html", "keys.js", "maps", "style.css", "centres.html", "centres.svg"])


# --- a real browser ------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture()
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))

    class Quiet(http.server.ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass

    server = Quiet(("127.0.0.1", 0), handler)
    handler_log = http.server.SimpleHTTPRequestHandler.log_message
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a, **k: None  # type: ignore[method-assign]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        http.server.SimpleHTTPRequestHandler.log_message = handler_log  # type: ignore[method-assign]


# After load, the page writes each image's load state into the DOM, which --dump-dom prints.
PROBE = """<script>window.addEventListener("load", function () {
  var out = []; document.querySelectorAll("img").forEach(function (im) {
    out.push(im.getAttribute("src") + "=" + (im.complete && im.naturalWidth > 0 ? im.naturalWidth : "BROKEN")); });
  var p = document.createElement("p"); p.id = "probe"; p.textContent = "IMAGES[" + out.join(";") + "]";
  document.body.appendChild(p); });</script>"""


def dump_dom(url: str, profile: Path) -> str:
    assert CHROMIUM is not None
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", url],
        capture_output=True, text=True, timeout=90, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_browser_walks_the_whole_game(site: Path, served: str, tmp_path: Path) -> None:
    if CHROMIUM is None:
        missing_server("chromium is not installed (Debian: apt-get install chromium)")
    # The probe goes into a copy of each page, so the published pages stay as built.
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.with_suffix(".probe.html").write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    try:
        index = dump_dom(served + "index.probe.html", tmp_path / "profile")
        links = re.findall(r'<li><a href="([^"]+)">', index)
        assert links == [f"{s}.html" for s in SLUGS]
        url, visited = links[0], []
        while url:
            visited.append(url)
            dom = dump_dom(served + url.replace(".html", ".probe.html"), tmp_path / "profile")
            probe = re.search(r"<p id=\"probe\">IMAGES\[([^\]]*)\]</p>", dom)
            assert probe, f"{url}: the page's load handler did not run"
            images = dict(item.split("=") for item in probe.group(1).split(";"))
            slug = url.removesuffix(".html")
            assert images == {f"maps/{slug}.svg": images.get(f"maps/{slug}.svg")}
            assert images[f"maps/{slug}.svg"] != "BROKEN" and int(images[f"maps/{slug}.svg"]) > 1000, (url, images)
            assert 'id="report"' in dom
            nxt = re.search(r'id="next" rel="next" href="([^"]+)"', dom)
            url = nxt.group(1) if nxt else ""
        assert visited == [f"{s}.html" for s in SLUGS]
    finally:
        for probe_page in site.glob("*.probe.html"):
            probe_page.unlink()
