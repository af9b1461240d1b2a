"""Where the data the judge ships is installed: the maps (adjudicator.maps),
the variants (adjudicator.variants) and the report templates (adjudicator's
templates/). The import system finds them, so a wheel installed anywhere
reads its own copy, and an editable install reads the clone's top-level maps/
and variants/ (pyproject.toml maps the two package names to those folders).

The folder is the package's own, as the import system found it: the folder
importlib.resources.files() names for a package installed as files (a test
holds the two equal). That module itself is not imported here: it brings
tempfile, shutil, bz2 and lzma with it, 3% of the instructions of a whole
`adjudicator status`, for a folder name the import system already has."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from adjudicator.errors import AdjudicatorError


@cache      # where a package lies does not change while the process runs
def package_folder(package: str) -> Path:
    """The folder of an installed package of the judge. The readers need real
    files (they stat and glob them, and errors name them), which every pip or
    pipx install gives; an import from a zip archive does not."""
    folders = list(getattr(importlib.import_module(package), "__path__", []))
    if len(folders) != 1 or not Path(folders[0]).is_dir():
        raise AdjudicatorError(f"{package} is not installed as a folder on disk ({folders})",
                               hint="install the judge with pip or pipx, not from a zip archive")
    return Path(folders[0])
