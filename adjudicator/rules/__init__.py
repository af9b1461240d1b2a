"""Rule sets by name. A variant's `rules:` key picks one; an unknown name
fails at load."""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

from adjudicator.errors import DataFileError
from adjudicator.rules.hooks import RuleSet

if TYPE_CHECKING:
    from adjudicator.variant import Variant

RULE_MODULES = {
    "standard": ("adjudicator.rules.standard", "STANDARD"),
    "ambition-empire": ("adjudicator.rules.ambition_empire", "RULES"),
}


def rules_for(variant: Variant) -> RuleSet:
    entry = RULE_MODULES.get(variant.rules)
    if entry is None:
        raise DataFileError(f"unknown rules {variant.rules!r}", file=variant.source,
                            hint=f"known: {', '.join(RULE_MODULES)}")
    # Called several times a phase: take the module straight from sys.modules
    # once it is loaded (import_module costs microseconds each time).
    module = sys.modules.get(entry[0]) or importlib.import_module(entry[0])
    rules: RuleSet = getattr(module, entry[1])
    return rules
