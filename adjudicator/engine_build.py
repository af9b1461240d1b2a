"""Which build of the rules engine (adjudicator/diplomacy/) is installed:
the interpreted source, or the same source compiled by mypyc into extension
modules (setup.py, ADJUDICATOR_COMPILE=1). The benchmark prints it beside
its figures, and the tests that look inside the interpreted engine skip on
the compiled one."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import pkgutil

ENGINE = "adjudicator.diplomacy"


def compiled_engine_modules() -> tuple[list[str], int]:
    """The engine's modules that are compiled extension modules, and how many modules it has."""
    engine = importlib.import_module(ENGINE)
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, f"{ENGINE}.") if not m.ispkg]
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = [name for name in names
                if str(getattr(importlib.util.find_spec(name), "origin", "")).endswith(suffixes)]
    return compiled, len(names)


def engine_build() -> str:
    """The build in words, for the benchmark's first line."""
    compiled, total = compiled_engine_modules()
    if not compiled:
        return "the engine in pure Python"
    return f"the engine compiled with mypyc ({len(compiled)} of its {total} modules)"
