"""tools/mutation.py: how it names a mutant from cosmic-ray's diff, and the
shape of its list of equivalent mutants (which it leaves out of the rate)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import yaml

TOOL = Path(__file__).resolve().parent.parent / "tools" / "mutation.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module     # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


DIFF = """--- mutation diff ---
--- a/adjudicator/diplomacy/adjustments.py
+++ b/adjudicator/diplomacy/adjustments.py
@@ -40,7 +40,7 @@
 def civil_disorder(due: int) -> list[str]:
     picked = []
-    if due > 0:   # a comment is not part of the name
+    if due >= 0:   # a comment is not part of the name
         picked.append("x")
     return picked
"""


def test_a_mutant_is_named_by_its_function_and_its_changed_line() -> None:
    assert _tool().signature("civil_disorder", DIFF) == "civil_disorder: if due > 0: => if due >= 0:"


def test_a_mutant_outside_any_function_is_named_for_the_module() -> None:
    assert _tool().signature(None, DIFF).startswith("<module>: if due > 0:")


def test_every_listed_equivalent_names_its_module_says_why_and_names_its_mutants() -> None:
    tool = _tool()
    listed = yaml.safe_load(tool.EQUIVALENTS_FILE.read_text(encoding="utf-8"))
    assert set(listed) - {"*"} <= set(tool.MODULES)
    for module, entries in listed.items():
        for entry in entries:
            assert set(entry) == {"what", "why", "mutants"}, (module, entry)
            assert entry["why"].strip() and entry["mutants"], (module, entry["what"])
            for mutant in entry["mutants"]:
                assert ": " in mutant and " => " in mutant, (module, mutant)


def test_the_rate_leaves_out_the_equivalent_mutants_only() -> None:
    figures = _tool().Figures("m", killed=19, survivors=["s"], equivalent=["e1", "e2"])
    assert figures.rate == 95.0
    assert "19 killed of 22 run, 2 equivalent; 19 of 20 (95.0%), target met" in figures.line()
    assert "target NOT met" in _tool().Figures("m", killed=18, survivors=["a", "b"]).line()
