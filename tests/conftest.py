"""Fixtures for every test, and what keeps the suite's time down.

* The suite runs on every CPU with pytest-xdist (addopts in pyproject.toml):
  each test file stays on one worker, so its module-scoped fixtures are built
  once. Every server a test starts listens on a port the system picks (a
  port taken in between by another worker means a retry), and every folder a
  test writes is under its own temporary folder, so workers never meet.
  (`--dist loadgroup` would spread single tests better, but pytest 9.2 no
  longer sees the groups: pytest-xdist issue 1386.)
* Temporary folders (tmp_path, tempfile) go to RAM (/dev/shm) where there is
  room: the judge fsyncs every file it writes, and on a disk that is most of
  a test's time. fsync is still called; in RAM it returns at once. A TMPDIR
  set by whoever runs the tests wins.
* `built_once` builds an expensive folder (a sample game replayed through
  the CLI) once per test run, for every worker; a test that would change it
  works on a copy. Files whose tests read such a folder directly run last,
  when it is ready.
* Each distinct picture is drawn once per run (`png_memo`), for every
  worker, except in the renderer's own tests (marked `draws_afresh`).
* The package's bytecode is compiled once per run when the environment says
  not to write it (PYTHONDONTWRITEBYTECODE): an installed judge has it (pip
  compiles it at install), so the workers and every CLI subprocess a test
  starts load it rather than compiling the whole package again. The files
  are checked against their source's hash, not its time, so a file changed
  within the same second (a mutant) is never run from stale bytecode."""

from __future__ import annotations

import compileall
import hashlib
import os
import py_compile
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import filelock
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
RAM = Path("/dev/shm")
RAM_TO_SPARE = 2 << 30         # bytes free in RAM before temporary folders go there

BuiltOnce = Callable[[str, Callable[[Path], object]], Path]
# The test files that take longest, longest first, as `pytest --durations`
# measured them (5-55 s each, 27 November): they are handed out before the rest, so no
# long file starts last and leaves one worker running alone.
LONGEST_FIRST = (
    "test_site_screens.py", "test_play_seven_wonders.py", "test_play_age_of_artisans.py", "test_run_mails.py",
    "test_host_by_mail.py", "cards/ambition/test_ambition_cli.py", "test_host.py", "test_play_age_of_ambition.py",
    "test_play_ambition.py", "cards/age_of_artisans/test_aoart_cli.py", "test_play_standard.py",
    "cards/test_fuzz_turns.py", "test_run_by_mail.py", "cards/test_game_ends.py", "test_ancient_mediterranean.py",
    "cards/ambition/test_ambition_invariants.py", "test_run_clock.py", "test_mail_game.py", "test_folder_safety.py",
    "test_resolver_long.py", "test_ingest_fuzz.py", "test_site.py", "test_templating_cache.py",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "draws_afresh: the test is the picture renderer's own, so every "
                            "picture it asks for is drawn afresh (conftest.png_memo)")
    config.addinivalue_line("markers", "interpreted(why): the test looks inside the interpreted engine "
                            "(replaces a method, counts calls, or hands it a stand-in): skipped on the "
                            "build that mypyc compiled, which allows none of that")
    if sys.dont_write_bytecode and not os.environ.get("PYTEST_XDIST_WORKER"):
        compileall.compile_dir(ROOT / "adjudicator", quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    # Before any temporary folder is made, and before xdist starts its workers
    # (they inherit TMPDIR, and their tmp_path lies under this process's one).
    if os.environ.get("TMPDIR"):
        return
    try:
        free = os.statvfs(RAM)
    except OSError:
        return
    if free.f_bavail * free.f_frsize >= RAM_TO_SPARE and os.access(RAM, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = str(RAM)
        tempfile.tempdir = None            # gettempdir() reads TMPDIR again


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A test that asks for `built_once` itself (not through a module fixture)
    # reads a folder that an earlier file builds: its file goes last, so that
    # the folder is ready by then and no worker sits waiting for it.
    def reads_a_build(item: pytest.Item) -> bool:
        info = getattr(item, "_fixtureinfo", None)
        return info is not None and "built_once" in info.argnames

    # The longest files start first, so that no worker is left alone with a
    # long one at the end while the other has finished (longest first is how
    # jobs are best shared between a few machines).
    first = {ROOT / "tests" / name: rank for rank, name in enumerate(LONGEST_FIRST)}
    missing = [str(path) for path in first if not path.exists()]
    if missing:
        raise pytest.UsageError(f"conftest.LONGEST_FIRST names files that are gone: {', '.join(missing)}")
    skip_on_the_compiled_engine(items)
    late = {item.path for item in items if reads_a_build(item)}
    # Stable: the collection order is kept otherwise.
    items.sort(key=lambda item: (item.path in late, first.get(item.path, len(first))))


def skip_on_the_compiled_engine(items: list[pytest.Item]) -> None:
    """The tests marked `interpreted` skip, saying why, where the engine
    installed is mypyc's compiled build (setup.py): their every other test
    runs on it as on the source."""
    marked = [(item, mark) for item in items for mark in item.iter_markers("interpreted")]
    if not marked:
        return
    from adjudicator.engine_build import compiled_engine_modules
    if not compiled_engine_modules()[0]:
        return
    for item, mark in marked:
        item.add_marker(pytest.mark.skip(reason=f"the engine is compiled: {mark.args[0]}"))


@pytest.fixture(scope="session")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> BuiltOnce:
    """`built_once(name, build)`: a folder that `build(folder)` fills, built
    once per test run and shared by every xdist worker (the first to ask
    builds it while the others wait). Read it; copy it before changing it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                 # this run's folder, above each worker's own

    def get(name: str, build: Callable[[Path], object]) -> Path:
        home = base / "built-once" / name
        home.parent.mkdir(parents=True, exist_ok=True)
        with filelock.FileLock(str(home) + ".lock"):
            done = home.with_name(name + ".done")
            if not done.exists():
                shutil.rmtree(home, ignore_errors=True)        # what a failed build left
                home.mkdir()
                build(home)
                done.touch()
        return home

    return get


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def drawn_pictures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's PNG pictures, one file per distinct SVG (named by its
    SHA-256), shared by every xdist worker as `built_once`'s folders are."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "drawn-pictures"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def png_memo(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, drawn_pictures: Path) -> None:
    """Each distinct picture drawn once per test run, by whichever test
    first needs it: many tests play the same games to the same positions and
    mail the same maps and tables, and drawing one costs 0.2-1 s of CPU
    (resvg and Pillow), some 40% of the suite's CPU. Every PNG is still the
    real renderer's, for exactly that SVG, drawn in this run: the renderer
    gives the same bytes for the same SVG, as the tests marked
    `draws_afresh` hold, and those (the renderer's own) draw every time."""
    if request.node.get_closest_marker("draws_afresh"):
        return
    from adjudicator.output import png
    draw = png.svg_to_png

    def drawn_once(svg_text: str) -> bytes:
        path = drawn_pictures / (hashlib.sha256(svg_text.encode("utf-8", "surrogatepass")).hexdigest() + ".png")
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        data = draw(svg_text)
        # Written whole, then renamed, so another worker never reads half of it.
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, path)
        return data

    monkeypatch.setattr(png, "svg_to_png", drawn_once)
