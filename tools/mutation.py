"""Mutation testing of the engine, the A&E rules, mail reading and storage,
with cosmic-ray: each module is mutated one small change at a time (a
flipped comparison, `and` for `or`, `in` for `not in`, a constant changed,
a loop run zero times...) and the tests that cover it are run against each
mutant. A mutant no test notices is a behaviour no test pins down.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python tools/mutation.py                      # every module below
    .venv/bin/python tools/mutation.py diplomacy/order_types/convoy.py rules/ambition_empire_dp.py

cosmic-ray writes each mutant into the file on disk while its tests run, so
run this in a clean clone or worktree that nothing else uses (never in the
middle of an edit). It is slow (each mutant runs pytest once, on one core):
it is not part of .ci/run. Sessions and the report go to .mutation/
(ignored by git); the report lists each surviving mutant by file, line and
operator. Equivalent mutants (ones that change nothing observable) are
listed in EQUIVALENT below with the reason; they are left out of the rate."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
PYTEST = "-m pytest -x -q -n 0 -p no:cacheprovider -p no:randomly"

DATC = ["tests/test_datc.py"]
# Each module, by its path under adjudicator/, with the tests that cover it.
MODULES: dict[str, list[str]] = {
    "diplomacy/order_types/convoy.py": DATC,
    "diplomacy/order_types/support.py": DATC,
    "diplomacy/order_types/move.py": DATC,
    "diplomacy/order_types/retreat.py": DATC,
    "diplomacy/order_types/build.py": DATC,
    "diplomacy/order_types/disband.py": DATC,
    "diplomacy/order_types/waive.py": DATC,
    "diplomacy/order_types/binding.py": [*DATC, "tests/test_binding.py"],
    "diplomacy/adjustments.py": DATC,
    "diplomacy/retreats.py": DATC,
    "diplomacy/movement.py": DATC,
    "diplomacy/validation.py": DATC,
    "diplomacy/resolver.py": ["tests/test_resolver_decisions.py", "tests/test_resolver_fast_path.py", *DATC],
    "rules/ambition_empire_dp.py": ["tests/test_ambition_empire_rules.py"],
    "rules/ambition_empire_sortie.py": ["tests/test_ambition_empire_rules.py"],
    "mail/mailread.py": ["tests/test_mail_lines.py", "tests/test_mail.py", "tests/test_ingest_corpus.py"],
    "store/phasecommit.py": ["tests/test_phasecommit_modes.py", "tests/test_folder_safety.py",
                             "tests/test_rollback_preview.py"],
}

# The operators used: the kinds of change the audit made, one mutant each
# (cosmic-ray's full set replaces every operator by every other, which
# multiplies the mutants tenfold and adds mostly ones that cannot compile
# to anything meaningful: 'a in b' to 'a < b').
KEPT_COMPARISONS = "Eq_NotEq|NotEq_Eq|Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|In_NotIn|NotIn_In|Is_IsNot|IsNot_Is"
EXCLUDED_OPERATORS = [
    f"core/ReplaceComparisonOperator_(?!({KEPT_COMPARISONS})$).*",
    "core/ReplaceBinaryOperator_(?!(Add_Sub|Sub_Add)$).*",
    "core/VariableReplacer", "core/VariableInserter", "core/RemoveDecorator",
]

# Mutants that change nothing observable, by module: the mutant, and why.
# (Line numbers move; each is named by what it changes.)
EQUIVALENT: dict[str, dict[str, str]] = {
    "*": {
        "AddNot on 'if TYPE_CHECKING'": "the imports under it then run at import time too; nothing else changes",
    },
    "diplomacy/order_types/convoy.py": {
        "fleet_route_exists: 'FLEET and is_sea' -> 'or'": "only fleets stand at sea and the route walks seas "
                                                         "alone, so the same seas are picked",
        "has_path: 'return True' -> 'return False' for a direct move": "callers never ask a direct move "
                                                                       "for its path (the hot path)",
        "validate_convoy: exact 'order.origin == origin' -> '!='": "an army's origin never names a coast, so "
                                                                   "the normalised order equals the written one",
    },
    "diplomacy/order_types/support.py": {
        "supports_given: 'count += 1' -> 'count += 2'": "every strength becomes 1 + 2k instead of 1 + k, and "
                                                         "all comparisons keep their order (only the report's "
                                                         "strength figures change)",
    },
    "diplomacy/adjustments.py": {
        "UNREACHABLE = 99 -> 98 or 100": "only compared with other distances, all far smaller",
        "'-unit_distance' -> '~unit_distance'": "~d is -d - 1: the same order",
        "fleets' sort key 0 -> -1, armies' 1 -> 2": "the same order",
        "'due > 0' -> 'due >= 0' or '> -1'": "with nothing due, civil disorder picks nothing",
        "'adj.delta > 0' -> '>= 0'": "with nothing due, builds_left is 0 and no line is written",
    },
    "store/phasecommit.py": {
        "_write_synced's default mode": "used only for the staging JOURNAL, which holds paths, not content, "
                                        "and is removed once applied",
        "os.open's mode": "fchmod sets the mode the line after, whatever os.open was given",
    },
}

CONFIG = """[cosmic-ray]
module-path = "{module}"
timeout = {timeout}
excluded-modules = []
test-command = "{python} {pytest} {tests}"

[cosmic-ray.distributor]
name = "local"

[cosmic-ray.filters.operators-filter]
exclude-operators = {excluded}
"""


@dataclass
class Figures:
    module: str
    killed: int = 0
    survived: int = 0
    incompetent: int = 0           # the mutant could not run (an import error, a crash of the worker)
    survivors: list[str] = field(default_factory=list)

    def line(self) -> str:
        total = self.killed + self.survived
        rate = 100.0 * self.killed / total if total else 100.0
        return f"{self.module}: {self.killed} killed of {total} ({rate:.1f}%), {self.incompetent} incompetent"


def run(module: str, tests: list[str], timeout: float = 120.0) -> Figures:
    """Mutate one module against its tests; its figures and surviving mutants."""
    name = module.replace("/", "-").removesuffix(".py")
    WORK.mkdir(exist_ok=True)
    config, session = WORK / f"{name}.toml", WORK / f"{name}.sqlite"
    config.write_text(CONFIG.format(module=f"adjudicator/{module}", timeout=timeout, python=sys.executable,
                                    pytest=PYTEST, tests=" ".join(tests), excluded=json.dumps(EXCLUDED_OPERATORS)),
                      encoding="utf-8")
    session.unlink(missing_ok=True)
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "cosmic-ray", "init", config, session], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cr-filter-operators", session, config], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cosmic-ray", "exec", config, session], cwd=ROOT, check=True)
    dump = subprocess.run([bin_dir / "cosmic-ray", "dump", session], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    figures = Figures(module)
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None or result.get("worker_outcome") == "skipped":
            continue
        outcome = result.get("test_outcome")
        if outcome == "killed":
            figures.killed += 1
        elif outcome == "survived":
            figures.survived += 1
            for mutation in item["mutations"]:
                figures.survivors.append(f"{module}:{mutation['start_pos'][0]} {mutation['operator_name']}")
        else:
            figures.incompetent += 1
    return figures


def main(argv: list[str]) -> int:
    chosen = argv or list(MODULES)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        print(f"mutation: unknown module {unknown[0]!r}; one of: {', '.join(MODULES)}", file=sys.stderr)
        return 2
    lines = []
    for module in chosen:
        figures = run(module, MODULES[module])
        print(figures.line(), flush=True)
        lines += [figures.line(), *(f"  survived: {s}" for s in figures.survivors)]
    report = "\n".join(lines) + "\n"
    (WORK / "report.txt").write_text(report, encoding="utf-8")
    print(report, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
