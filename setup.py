"""One build choice that pyproject.toml cannot express: the optional compiled
engine. Everything else about the package is in pyproject.toml.

By default (and in CI) the install is pure Python. With ADJUDICATOR_COMPILE=1
in the environment, mypyc compiles the rules engine (adjudicator/diplomacy/)
from the same source into C extension modules, which need a C compiler and
the Python headers to build; the rest of the package stays interpreted. The
build then imports mypyc, so it runs without pip's build isolation, with mypy
and setuptools already in the environment (README, "An optional compiled
build")."""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

ENGINE = Path("adjudicator") / "diplomacy"
# The engine's modules that stay interpreted in the compiled build, and why.
INTERPRETED = {
    # A generic dataclass: mypyc cannot compile RuleSet[V].
    "hooks.py",
    # Records whose fields are Final, which mypy keeps read-only: mypyc makes a
    # Final attribute unwritable, so the dataclass's own __init__ could not set it.
    "lines.py", "model.py", "orders.py", "movement_result.py", "order_types/verdict.py",
    # Its records subclass orders.OrderShape, which stays interpreted.
    "outcome.py",
}


def compiled_modules() -> list[str]:
    """The engine's source files that mypyc compiles, in a stable order."""
    return [str(path) for path in sorted(ENGINE.rglob("*.py"))
            if path.relative_to(ENGINE).as_posix() not in INTERPRETED]


if os.environ.get("ADJUDICATOR_COMPILE") == "1":
    from mypyc.build import mypycify
    setup(ext_modules=mypycify(compiled_modules(), opt_level="3"))
else:
    setup()
