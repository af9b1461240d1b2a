"""Ancient Mediterranean, a variant added by data alone: its sample year
(orders/ancient-mediterranean/) played through the command line, as a GM
would: `new`, `adjudicate` each phase, `mail` (written, not sent) after
each, then `site`."""

from __future__ import annotations

import email
import re
import xml.etree.ElementTree as ET
from email.message import Message
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import cli
from adjudicator.folder import players
from adjudicator.rules import load_variant

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "orders" / "ancient-mediterranean"
PHASES = [("1-spring.txt", "1-spring-movement"), ("1-fall.txt", "1-fall-movement"),
          ("1-winter.txt", "1-winter-adjustment")]
POWERS = ["carthage", "egypt", "greece", "persia", "rome"]
SECRET = "ROME-ONLY-PRIVATE-TEXT"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ancmed") / "game"
    run("new", str(folder), "--variant", "ancient-mediterranean")
    for power in POWERS:
        players.add_player(folder, power, f"{power.title()} Player", f"{power}@example.org", f"pw-{power}")
    for orders, slug in PHASES:
        run("adjudicate", str(folder), str(SAMPLE / orders))
        run("mail", str(folder), "--phase", slug)
    (folder / "private" / "rome" / "1-fall-movement.txt").write_text(SECRET, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def site(game: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ancmed-site") / "site"
    run("site", str(game), str(out), "--png")
    return out


def test_the_variant_is_the_board_the_sources_give() -> None:
    variant = load_variant("ancient-mediterranean")
    graph = variant.map
    assert len(graph.provinces) == 79 and len(graph.supply_centres) == 34
    assert sum(len(n) for n in graph.army_adjacent.values()) // 2 == 112
    assert sum(len(n) for n in graph.fleet_adjacent.values()) // 2 == 155
    assert variant.victory_centres == 18 and sorted(variant.powers) == POWERS
    homes = {p: sorted(info.home_centres) for p, info in variant.powers.items()}
    assert homes == {"carthage": ["car", "cir", "tha"], "egypt": ["ale", "mem", "thb"],
                     "greece": ["ath", "mac", "spa"], "persia": ["ant", "dam", "sid"],
                     "rome": ["nea", "rav", "rom"]}
    assert graph.army_adjacent["bal"] == frozenset()          # Baleares: armies only by convoy


def test_the_year_is_adjudicated_as_the_rules_say(game: Path) -> None:
    fall = (game / "reports" / "1-fall-movement.txt").read_text(encoding="utf-8")
    assert "F Ionian Sea C A Apulia - Sparta" in fall
    assert "A Apulia - Sparta  [bounced: 1 vs A Athens 1]" in fall
    assert "A Numidia - Leptis  [bounced: 1 vs A Cyrene 1]" in fall
    winter = (game / "reports" / "1-winter-adjustment.txt").read_text(encoding="utf-8")
    assert "waive  [waived]" in winter and "Next: Spring 2 Movement." in winter
    status = run("status", str(game))
    counts = dict(re.findall(r"^(\w+): (\d+) centres", status, re.MULTILINE))
    assert counts == {"Carthage": "6", "Egypt": "5", "Greece": "5", "Persia": "6", "Rome": "4"}
    assert "Spring 2 Movement" in status


def mails(game: Path, slug: str) -> dict[str, Message]:
    return {p.stem: email.message_from_bytes(p.read_bytes()) for p in sorted((game / "mail" / slug).glob("*.eml"))}


@pytest.mark.parametrize("slug", [slug for _, slug in PHASES])
def test_each_player_gets_a_results_mail_with_the_map(game: Path, slug: str) -> None:
    written = mails(game, slug)
    assert sorted(written) == POWERS
    for power, message in written.items():
        assert f"{power}@example.org" in str(message["To"])
        parts = {part.get_content_type(): part for part in message.walk()}
        body = parts["text/plain"].get_payload(decode=True)
        assert isinstance(body, bytes) and b"Ancient Mediterranean" in body
        picture = parts["image/png"].get_payload(decode=True)
        assert isinstance(picture, bytes) and picture[:4] == b"\x89PNG"
        # The mail carries the PNG only (the SVG is opt-in); the drawing it
        # was made from is the territory map, not the schematic.
        assert "image/svg+xml" not in parts
    root = ET.fromstring((game / "maps" / f"{slug}.svg").read_bytes())
    ids = {e.get("id") for e in root.iter()}
    assert {"prov-rom", "prov-bal", "prov-ree"} <= ids


def test_the_site_shows_every_phase_and_nothing_private(game: Path, site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    slugs = [slug for _, slug in PHASES] + ["2-spring-movement"]
    assert re.findall(r'<li><a href="([^"]+)">', index) == [f"{s}.html" for s in slugs]
    for slug in slugs:
        assert (site / "maps" / f"{slug}.png").read_bytes()[:4] == b"\x89PNG"
        ET.fromstring((site / "maps" / f"{slug}.svg").read_text(encoding="utf-8"))
    published = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*") if p.suffix in (".html", ".svg"))
    assert "Sparta" in published and SECRET not in published
