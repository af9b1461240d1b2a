"""Where the data the judge ships is installed: the maps (adjudicator.maps),
the variants (adjudicator.variants) and the report templates (adjudicator's
templates/). The import system finds them (importlib.resources), so a wheel
installed anywhere reads its own copy, and an editable install reads the
clone's top-level maps/ and variants/ (pyproject.toml maps the two package
names to those folders)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from adjudicator.errors import AdjudicatorError


@cache      # where a package lies does not change while the process runs
def package_folder(package: str) -> Path:
    """The folder of an installed package of the judge. The readers need real
    files (they stat and glob them, and errors name them), which every pip or
    pipx install gives; an import from a zip archive does not."""
    from importlib.resources import files
    found = files(package)
    if not isinstance(found, Path) or not found.is_dir():
        raise AdjudicatorError(f"{package} is not installed as files on disk ({found})",
                               hint="install the judge with pip or pipx, not from a zip archive")
    return found
