"""svgwrite, imported without compiling its validator up front.

Importing svgwrite compiles the large regular expressions of its SVG
validator (the module svgwrite.data.svgparser) at once: about 70 ms, a
quarter of every `adjudicate`'s start-up. We draw with debug=False, so the
validator never runs. `defer_parser`, called before svgwrite is imported,
puts a stand-in for that one module in sys.modules. Each of its three
checks loads the real parser the first time it is called and hands the call
on, so a drawing made with debug=True is validated exactly as before; only
the cost moves to first use.

svgwrite is in maintenance mode (its maintainer, 2020: "should stay in
maintenance mode as it is"), so the three names the validator imports are
stable; a test holds this module to the installed version."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

PARSER = "svgwrite.data.svgparser"
# What svgwrite.data.typechecker imports from the parser: the whole of its __all__.
CHECKS = ("is_valid_transferlist", "is_valid_pathdata", "is_valid_animation_timing")


class DeferredParser(ModuleType):
    """Stands in for svgwrite.data.svgparser until one of its checks is called."""


def real_parser() -> ModuleType:
    """The real svgwrite.data.svgparser, loaded (and put in sys.modules in
    place of the stand-in) on first use."""
    module = sys.modules.get(PARSER)
    if module is not None and not isinstance(module, DeferredParser):
        return module
    location = parser_file()
    spec = importlib.util.spec_from_file_location(PARSER, location)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {PARSER} from {location}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[PARSER] = module
    return module


def parser_file() -> Path:
    """Where the parser's source is, found without importing svgwrite
    (importing the package would import the parser)."""
    spec = importlib.util.find_spec("svgwrite")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("svgwrite is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "svgparser.py"


def deferred_check(name: str) -> Callable[[str], bool]:
    def check(term: str) -> bool:
        return bool(getattr(real_parser(), name)(term))
    check.__name__ = check.__qualname__ = name
    return check


def defer_parser() -> None:
    """Put the stand-in in place, unless svgwrite is imported already."""
    if "svgwrite" in sys.modules or PARSER in sys.modules:
        return
    stand_in = DeferredParser(PARSER, "stands in for svgwrite's parser until first used")
    for name in CHECKS:
        setattr(stand_in, name, deferred_check(name))
    sys.modules[PARSER] = stand_in
