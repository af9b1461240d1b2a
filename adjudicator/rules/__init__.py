"""Variants by name, each with its rule set.

`load_variant("standard")` reads variants/<name>.yaml and gives it the rule
set its `rules:` key names: the one place where a rule set is found by name.
Everything after holds the Variant, which carries its rules. A rule set's
module is imported only when a variant that uses it is loaded."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from adjudicator.diplomacy.hooks import RuleSet
from adjudicator.diplomacy.variant import VARIANTS_DIR, Variant, parse_variant
from adjudicator.errors import DataFileError
from adjudicator.store.storage import read_yaml

RULE_MODULES = {
    "standard": ("adjudicator.rules.standard", "STANDARD"),
    "ambition-empire": ("adjudicator.rules.ambition_empire", "RULES"),
}


def rule_set(name: str, source: str) -> RuleSet[Variant]:
    """The rule set a variant file's `rules:` names."""
    entry = RULE_MODULES.get(name)
    if entry is None:
        raise DataFileError(f"unknown rules {name!r}", file=source, hint=f"known: {', '.join(RULE_MODULES)}")
    rules: RuleSet[Variant] = getattr(importlib.import_module(entry[0]), entry[1])
    return rules


def variant_of_folder(path: Path, variant_id: str) -> Variant:
    """A game folder's own copy of its variant data (made by `new` from a
    custom variant file): read each time, and never kept in the user cache,
    which holds only the package's and the GM's own files."""
    return parse_variant(read_yaml(path), str(path), variant_id, rule_set)


@cache      # variants are immutable values; each is read once per process
def load_variant(name: str) -> Variant:
    path = Path(name) if name.endswith(".yaml") else VARIANTS_DIR / f"{name}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
        raise DataFileError(f"no variant {name!r}", file=str(path), hint=f"known: {', '.join(known)}")
    return parse_variant(read_yaml(path, keep=True), str(path), path.stem, rule_set)
