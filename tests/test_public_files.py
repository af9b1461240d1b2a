"""What a GM publishes: `site` covers card games (every public report and the
end result), `map` on a card game is one clear line with exit 2, and public
files (site, reports, maps) are world-readable while every secret in a game
folder stays the owner's alone, whatever the umask."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cards import driver
from adjudicator.cli.main import cli
from adjudicator.folder import gamefolder

ROOT = Path(__file__).resolve().parent.parent
SEATS = ["alice", "bob", "carol"]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def wonders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 7 Wonders game played to its end on the defaults."""
    folder = driver.new_game(tmp_path_factory.mktemp("sw") / "wonders", "seven-wonders", SEATS, 7)
    for _ in range(40):                         # 18 turns; bounded all the same
        now = driver.current(folder)
        if now.game.phase(now.state) is None:
            break
        driver.adjudicate(folder, None, nmr=True)
    return folder


@pytest.fixture
def strict_umask() -> Iterator[None]:
    """The umask of a careful GM: nothing the process makes is readable by others unless it says so."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- site and map for card games ------------------------------------------------------------
def test_site_of_a_card_game_has_every_public_report_and_the_end(wonders: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    code, output = invoke("site", str(wonders), str(out))
    assert code == 0, output
    assert "Traceback" not in output
    reports = sorted(p.stem for p in (wonders / "reports").glob("*.txt"))
    index = (out / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<li><a href="([^"]+)">', index)
    assert links == [f"{stem}.html" for stem in reports]
    for stem in reports:
        page = (out / f"{stem}.html").read_text(encoding="utf-8")
        first = (wonders / "reports" / f"{stem}.txt").read_text(encoding="utf-8").splitlines()[0]
        assert first.replace("&", "&amp;") in page
        # No map in a card game: the public picture of the table, as the game folder has it.
        assert f'<img id="map" src="maps/{stem}.svg"' in page
        assert (out / "maps" / f"{stem}.svg").read_bytes() == (wonders / "maps" / f"{stem}.svg").read_bytes()
    last = (out / f"{reports[-1]}.html").read_text(encoding="utf-8")
    assert "FINAL SCORES" in last and "The game is over." in last
    # Nothing private: no hand of any player appears anywhere on the site.
    hands = set()
    for seat in SEATS:
        for path in (wonders / "private" / seat).glob("*.txt"):
            hands.update(re.findall(r"^  - (.+?) \[", path.read_text(encoding="utf-8"), re.MULTILINE))
    text = " ".join(p.read_text(encoding="utf-8") for p in [*out.rglob("*.html"), *out.rglob("*.svg")])
    assert "Your hand" not in text and "YOUR SECRETS" not in text
    assert hands                                    # the check above looked at something


def test_map_of_a_card_game_is_one_clear_line(wonders: Path) -> None:
    code, output = invoke("map", str(wonders))
    assert code == 2
    assert output.count("\n") == 1 and output.startswith("error: ")
    assert "has no map" in output and "Traceback" not in output


def test_site_and_map_on_a_folder_that_is_no_game_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    for args in (("site", str(tmp_path / "empty"), str(tmp_path / "out")), ("map", str(tmp_path / "empty"))):
        code, output = invoke(*args)
        assert code == 2 and output.count("\n") == 1 and "Traceback" not in output, output


# --- file modes ------------------------------------------------------------------------------
def test_public_files_are_world_readable_and_secrets_are_not(tmp_path: Path, strict_umask: None,
                                                              wonders: Path) -> None:
    game = gamefolder.new_game(tmp_path / "demo", "standard")
    gamefolder.adjudicate(game, ROOT / "orders" / "standard" / "1901-spring.txt")
    (game / "orders" / "1901-fall-movement").mkdir(parents=True)
    site = tmp_path / "site"
    assert invoke("site", str(game), str(site), "--png")[0] == 0
    assert invoke("map", str(game), "--out", str(tmp_path / "map.svg"), "--png", str(tmp_path / "map.png"))[0] == 0
    published = [*site.rglob("*"), tmp_path / "map.svg", tmp_path / "map.png",
                 *(game / "reports").iterdir(), *(game / "maps").iterdir()]
    for path in published:
        assert mode(path) == (0o755 if path.is_dir() else 0o644), (path, oct(mode(path)))
    assert mode(site) == 0o755
    secret = [game / "game.yaml", *(game / "history").iterdir(), *(game / "orders").rglob("*.txt"),
              *(game / "private").rglob("*.txt")]
    card_secret = [wonders / "game.yaml", *(wonders / "history").iterdir(), *(wonders / "orders").iterdir(),
                   *(wonders / "private").rglob("*.txt")]
    for path in secret + card_secret:
        assert mode(path) == 0o600, (path, oct(mode(path)))
    for path in (wonders / "reports").iterdir():
        assert mode(path) == 0o644, path
