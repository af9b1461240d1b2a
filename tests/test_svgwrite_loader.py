"""svgwrite's validator parser is deferred, which spares `adjudicate` ~70 ms
of start-up: drawing a map
never compiles it, and a drawing that does validate (debug=True) gets the
real parser's answers. Each case runs in a fresh interpreter, because the
stand-in only goes in before svgwrite's first import."""
from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

from adjudicator.output.svgwrite_loader import CHECKS, PARSER, parser_file


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_drawing_a_map_leaves_the_parser_unloaded() -> None:
    out = run(f"""
import sys
from adjudicator.rules import load_variant
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.output.render import render_svg
variant = load_variant("standard")
svg = render_svg(variant, initial_state(variant))
assert svg.startswith("<svg"), svg[:40]
print(type(sys.modules[{PARSER!r}]).__name__)
""")
    assert out == "DeferredParser"


def test_validation_still_uses_the_real_parser() -> None:
    out = run(f"""
import sys
from adjudicator.output.svgwrite_loader import defer_parser
defer_parser()
import svgwrite
drawing = svgwrite.Drawing(debug=True)
drawing.add(drawing.g(transform="translate(10,20) rotate(45)"))
try:
    drawing.add(drawing.g(transform="translate(10,"))
except TypeError:
    print("refused", type(sys.modules[{PARSER!r}]).__name__)
""")
    assert out == "refused module"


def test_deferred_checks_answer_as_the_real_ones() -> None:
    out = run("""
from adjudicator.output.svgwrite_loader import defer_parser, real_parser
defer_parser()
import svgwrite.data.typechecker as checker
samples = ["translate(1,2)", "scale(2)", "M 0 0 L 10 10 z", "M0,0", "1s;2s", "indefinite", "", "((", "L 1"]
real = real_parser()
for name in ("is_valid_transferlist", "is_valid_pathdata", "is_valid_animation_timing"):
    deferred = getattr(checker, name)
    assert deferred is not getattr(real, name)
    assert [deferred(s) for s in samples] == [getattr(real, name)(s) for s in samples], name
print("same")
""")
    assert out == "same"


def test_the_stand_in_covers_what_svgwrite_imports_from_the_parser() -> None:
    """The installed svgwrite imports the parser in one place, exactly these names."""
    spec = importlib.util.find_spec("svgwrite")
    assert spec is not None and spec.submodule_search_locations
    package = Path(next(iter(spec.submodule_search_locations)))
    imported: dict[str, list[str]] = {}
    for source in sorted(package.rglob("*.py")):
        try:
            tree = ast.parse(source.read_text(encoding="utf-8"))
        except SyntaxError:
            continue            # Python 2 leftovers in the package: never imported
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == PARSER:
                imported[source.name] = [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                assert all(alias.name != PARSER for alias in node.names), source
    assert imported == {"typechecker.py": list(CHECKS)}
    assert parser_file() == package / "data" / "svgparser.py"
    tree = ast.parse(parser_file().read_text(encoding="utf-8"))
    exported = [node for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)]
    assert [ast.literal_eval(node.value) for node in exported] == [list(CHECKS)]
