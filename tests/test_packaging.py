"""What the wheel carries. pyproject.toml names every package by hand (the
top-level maps/ and variants/ are installed as adjudicator.maps and
adjudicator.variants, which package discovery cannot do), so these tests hold
that list and the package-data patterns to the folders and files on disk: a
new subpackage or data file that the wheel would leave out fails here, not on
a GM's server. CI also builds the wheel and plays a game from it outside the
clone (.ci/run). And the wheel ships no rulebook or DATC text."""

from __future__ import annotations

import importlib.machinery
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from adjudicator.store.packagedata import package_folder

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
COPIED_WORDS = 12          # this many words in a row, the same as a rulebook's, count as copied text


def setuptools_config() -> dict[str, Any]:
    if sys.version_info < (3, 11):
        pytest.skip("reading pyproject.toml needs tomllib (Python 3.11+); the other interpreters in CI check it")
    import tomllib
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["setuptools"]
    return config


def package_dirs(config: dict[str, Any]) -> dict[str, Path]:
    """Each listed package and the folder it is installed from."""
    mapped = config["package-dir"]
    return {name: ROOT / mapped[name] if name in mapped else ROOT / name.replace(".", "/")
            for name in config["packages"]}


def test_the_package_list_is_every_package_folder_on_disk() -> None:
    config = setuptools_config()
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "adjudicator").rglob("__init__.py")}
    on_disk |= {name for name, folder in config["package-dir"].items() if (ROOT / folder / "__init__.py").is_file()}
    assert sorted(config["packages"]) == sorted(on_disk)
    # Python code outside a listed package would be left out of the wheel.
    listed = set(package_dirs(config).values())
    stray = [str(p.relative_to(ROOT)) for p in (ROOT / "adjudicator").rglob("*.py") if p.parent not in listed]
    assert stray == []


def test_every_data_file_on_disk_is_package_data() -> None:
    config = setuptools_config()
    folders = package_dirs(config)
    patterns = config["package-data"]
    shipped: set[Path] = set()
    for name, globs in patterns.items():
        for pattern in globs:
            shipped |= set(folders[name].glob(pattern))
    # Not data: the source, its bytecode, and the compiled build's extension
    # modules (setup.py, ADJUDICATOR_COMPILE=1), which an editable install puts beside the source.
    data = {p for folder in folders.values() for p in folder.iterdir()
            if p.is_file() and p.suffix not in (".py", ".pyc") and not p.name.endswith(EXTENSIONS)}
    data |= {p for p in (ROOT / "adjudicator" / "templates").rglob("*") if p.is_file()}
    assert sorted(str(p.relative_to(ROOT)) for p in data - shipped) == []


@pytest.mark.parametrize("package", ["adjudicator", "adjudicator.maps", "adjudicator.variants"])
def test_the_package_folder_is_the_one_importlib_resources_names(package: str) -> None:
    from importlib.resources import files
    assert package_folder(package) == files(package)


def test_the_code_reads_its_data_from_the_installed_packages() -> None:
    from adjudicator.diplomacy.mapgraph import MAPS_DIR
    from adjudicator.diplomacy.variant import VARIANTS_DIR
    from adjudicator.output.templating import PACKAGE_TEMPLATES
    assert MAPS_DIR == package_folder("adjudicator.maps") and (MAPS_DIR / "standard.yaml").is_file()
    assert VARIANTS_DIR == package_folder("adjudicator.variants") and (VARIANTS_DIR / "standard.yaml").is_file()
    assert PACKAGE_TEMPLATES == package_folder("adjudicator") / "templates"
    assert (PACKAGE_TEMPLATES / "diplomacy" / "report.txt.j2").is_file()


def test_no_module_finds_its_data_beside_its_own_file() -> None:
    """A path made from __file__ works in a clone and breaks in a wheel, where
    maps/ and variants/ are not beside the package; the import system finds them."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "adjudicator").rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "__file__" in line]
    assert found == []


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def test_no_rulebook_or_datc_text_is_shipped() -> None:
    """No run of COPIED_WORDS words from a rulebook (the seeds) or from the
    DATC appears in a file the wheel carries, its README included (the long
    description). Facts are restated in the project's own words."""
    sources = sorted((SHARED / "seeds").glob("*.txt")) + sorted((SHARED / "datc").glob("*.txt"))
    if not sources:
        pytest.skip("../shared (the rulebooks and the DATC) is not beside the repository")
    runs: dict[tuple[str, ...], str] = {}
    for source in sources:
        said = words(source.read_text(encoding="utf-8", errors="replace"))
        for i in range(len(said) - COPIED_WORDS + 1):
            runs.setdefault(tuple(said[i:i + COPIED_WORDS]), source.name)
    shipped = [ROOT / "README.md", ROOT / "NOTICE", ROOT / "LICENSE",
               *(p for p in (ROOT / "adjudicator").rglob("*") if p.suffix in (".py", ".j2")),
               *(ROOT / "maps").glob("*.yaml"), *(ROOT / "variants").glob("*.yaml")]
    copied = []
    for path in shipped:
        said = words(path.read_text(encoding="utf-8"))
        for i in range(len(said) - COPIED_WORDS + 1):
            run = tuple(said[i:i + COPIED_WORDS])
            if run in runs:
                copied.append(f"{path.relative_to(ROOT)}: '{' '.join(run)}' (from {runs[run]})")
                break
    assert copied == []
