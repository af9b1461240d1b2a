"""docs/architecture.md's picture is the code's import graph: each arrow
between folders of adjudicator/ is drawn, and every one drawn is there. The
imports counted are every `from adjudicator.X` or `import adjudicator.X`,
lazy ones inside functions included; arrows into errors.py are left out of
the picture (every folder imports it), as the document says."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator"
IMPORT = re.compile(r"^\s*(?:from|import)\s+adjudicator\.(\w+)", re.MULTILINE)
ARROW = re.compile(r"^\s*(\w+)\s*-->\s*(\w+)\s*$", re.MULTILINE)
# The picture's node names for the folders whose name it shortens.
NODES = {"diplomacy": "engine"}


def imported() -> set[tuple[str, str]]:
    arrows = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) == 1:
            continue            # __main__.py, __init__.py, errors.py
        for target in IMPORT.findall(path.read_text(encoding="utf-8")):
            if target != parts[0] and (PACKAGE / target).is_dir():
                arrows.add((NODES.get(parts[0], parts[0]), NODES.get(target, target)))
    arrows.add(("store", "errors"))         # the one arrow into errors.py the picture draws
    return arrows


def drawn() -> set[tuple[str, str]]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = text.split("```mermaid", 1)[1].split("```", 1)[0]
    return set(ARROW.findall(picture))


def test_the_picture_draws_every_import_between_folders() -> None:
    assert sorted(imported() - drawn()) == []


def test_the_picture_draws_no_import_the_code_does_not_make() -> None:
    assert sorted(drawn() - imported()) == []


def test_no_arrow_runs_back_up() -> None:
    """A folder never imports one that imports it (directly or through others)."""
    arrows = imported()
    reach = {a: {b for x, b in arrows if x == a} for a, _ in arrows}
    changed = True
    while changed:
        changed = False
        for seen in reach.values():
            more = set().union(*(reach.get(b, set()) for b in seen)) - seen
            if more:
                seen |= more
                changed = True
    assert [a for a, seen in reach.items() if a in seen] == []
