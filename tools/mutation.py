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
listed in mutation-equivalents.yaml with the reason; they are left out of
the rate. The report says for each module whether it kills the target
share of the rest, and the exit code is 1 when one does not.

    .venv/bin/python tools/mutation.py --report      # the report again, from the sessions saved"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
# Without hypothesis's pytest plugin, whose import is most of a short run's
# start-up (about 5 s of 7 on a loaded machine): tests that use hypothesis
# import it themselves and run the same.
PYTEST = "-m pytest -x -q -n 0 -p no:cacheprovider -p no:randomly -p no:hypothesispytest"

DATC = ["tests/test_datc.py"]
AE = ["tests/test_ambition_empire_rules.py"]
# The order types' parsing is pinned by the parser's table, their "why" by the report's wording.
PARSER = ["tests/test_parser.py"]
WHY = ["tests/test_why.py"]
# The parser's own tests: its table of readings and refusals, and the fast path read against the full reading.
PARSING = ["tests/test_parser.py", "tests/test_speed_parser.py"]
# Each module, by its path under adjudicator/, with the tests that cover it.
MODULES: dict[str, list[str]] = {
    "diplomacy/order_types/convoy.py": [*DATC, *PARSER, *WHY, "tests/test_convoy_routes.py"],
    "diplomacy/order_types/support.py": [*DATC, *PARSER, *WHY],
    "diplomacy/order_types/move.py": [*DATC, *PARSER, *WHY, "tests/test_movement_result.py",
                                      "tests/test_order_types.py"],
    "diplomacy/order_types/retreat.py": [*DATC, *PARSER],
    "diplomacy/order_types/build.py": [*DATC, *PARSER],
    "diplomacy/order_types/disband.py": [*DATC, *PARSER],
    "diplomacy/order_types/waive.py": [*DATC, *PARSER],
    "diplomacy/order_types/binding.py": DATC,
    "diplomacy/order_types/hold.py": [*DATC, *PARSER, *WHY],
    "diplomacy/order_types/board.py": DATC,
    "diplomacy/order_types/reading.py": [*PARSING, *DATC],
    "diplomacy/parser.py": [*PARSING, *AE],
    "diplomacy/plain_orders.py": PARSING,
    "diplomacy/order_reader.py": [*PARSING, *DATC],
    "diplomacy/lines.py": [*PARSING, *AE],
    # winter_count is read by the order sets a winter's mail builds.
    "diplomacy/orders.py": [*PARSING, *DATC, "tests/test_order_types.py", "tests/test_compiled_orders.py",
                            "tests/test_order_sets.py", "tests/test_checking.py"],
    "diplomacy/order_types/__init__.py": PARSING,
    "diplomacy/order_types/verdict.py": [*DATC, *WHY],
    "diplomacy/adjustments.py": DATC,
    "diplomacy/retreats.py": DATC,
    "diplomacy/movement.py": [*DATC, *WHY, "tests/test_movement_result.py"],
    "diplomacy/validation.py": [*DATC, *PARSER],
    "diplomacy/resolver.py": ["tests/test_resolver_cycles.py", "tests/test_resolver_decisions.py",
                              "tests/test_resolver_fast_path.py", *DATC],
    "diplomacy/mapgraph.py": ["tests/test_mapgraph.py", *DATC, *PARSER, "tests/test_compiled_map.py"],
    "diplomacy/turn.py": [*DATC, *WHY, "tests/test_movement_result.py", *AE],
    "diplomacy/variant.py": [*DATC, "tests/test_hostile_inputs.py", "tests/test_checking.py",
                             "tests/test_variant_file.py"],
    "diplomacy/statefile.py": ["tests/test_statefile.py", *DATC, "tests/test_hostile_inputs.py",
                               "tests/test_roundtrip.py"],
    "diplomacy/state.py": ["tests/test_model.py", *DATC],
    "diplomacy/model.py": ["tests/test_model.py", *DATC, *PARSER],
    "diplomacy/game.py": DATC,
    "diplomacy/centre_years.py": ["tests/test_report_centre_years.py"],
    "diplomacy/progress.py": [*DATC, "tests/test_game_end.py", "tests/test_standard_rules.py"],
    "diplomacy/hooks.py": DATC,
    "diplomacy/outcome.py": [*DATC, *WHY],
    "diplomacy/movement_result.py": [*DATC, "tests/test_movement_result.py"],
    "rules/ambition_empire_dp.py": AE,
    "rules/ambition_empire_sortie.py": AE,
    "rules/ambition_empire_common.py": AE,
    "rules/ambition_empire_homes.py": AE,
    "rules/ambition_empire_map.py": AE,
    "rules/standard.py": [*DATC, *AE, "tests/test_standard_rules.py"],
    "mail/mailread.py": ["tests/test_mailread.py", "tests/test_mail_lines.py::test_password_like_lines"],
    "store/phasecommit.py": ["tests/test_phasecommit.py", "tests/test_phasecommit_modes.py"],
    "store/seal.py": ["tests/test_seal.py", "tests/test_phasecommit.py"],
    "store/names.py": ["tests/test_names.py", "tests/test_phasecommit.py"],
    "store/storage.py": ["tests/test_storage.py", "tests/test_hostile_inputs.py", "tests/test_yaml_kept.py",
                         "tests/test_seal.py"],
    "store/folderlock.py": ["tests/test_folderlock.py", "tests/test_startup_lock.py",
                            "tests/test_folder_safety.py::test_a_second_run_waits_then_says_another_run_holds_the_game"],
    "store/gamemeta.py": ["tests/test_gamemeta.py", "tests/test_hostile_inputs.py"],
    "store/rollback.py": ["tests/test_rollback_plan.py", "tests/test_rollback_preview.py"],
    "store/usercache.py": ["tests/test_usercache.py", "tests/test_yaml_kept.py"],
    "store/packagedata.py": ["tests/test_packagedata.py", "tests/test_packaging.py"],
    "store/owed.py": ["tests/test_mail_service.py"],
    "rules/__init__.py": ["tests/test_variant_loading.py"],
    "rules/ambition_empire.py": AE,
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

# Mutants that change nothing observable, by module, each with the reason,
# are listed in mutation-equivalents.yaml beside this file. Each is named by
# what the report prints for it: its function and its changed line(s),
# "function: before => after", so the list holds as lines move.
EQUIVALENTS_FILE = Path(__file__).with_name("mutation-equivalents.yaml")
TARGET = 95.0


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
    incompetent: int = 0           # the mutant could not run (an import error, a crash of the worker)
    survivors: list[str] = field(default_factory=list)      # not listed as equivalent
    equivalent: list[str] = field(default_factory=list)     # survived, and listed as equivalent

    @property
    def rate(self) -> float:
        counted = self.killed + len(self.survivors)
        return 100.0 * self.killed / counted if counted else 100.0

    def line(self) -> str:
        run = self.killed + len(self.survivors) + len(self.equivalent)
        counted = self.killed + len(self.survivors)
        verdict = "met" if self.rate >= TARGET else "NOT met"
        return (f"{self.module}: {self.killed} killed of {run} run, {len(self.equivalent)} equivalent; "
                f"{self.killed} of {counted} ({self.rate:.1f}%), target {verdict}; "
                f"{self.incompetent} incompetent")


def signature(definition: str | None, diff: str) -> str:
    """A mutant as the report prints it and the equivalents file names it:
    its function, and its changed line(s) before and after."""
    body = diff.split("\n@@", 1)[-1].splitlines()[1:]
    before = " / ".join(_code(line) for line in body if line.startswith("-"))
    after = " / ".join(_code(line) for line in body if line.startswith("+"))
    return f"{definition or '<module>'}: {before} => {after}"


def _code(diff_line: str) -> str:
    """A changed line's code, without its indent or a trailing comment."""
    return re.sub(r"\s+# .*$", "", diff_line[1:]).strip()


def load_equivalents() -> dict[str, dict[str, str]]:
    """Module -> {mutant signature: why it changes nothing}; '*' holds those of every module."""
    import yaml

    listed: dict[str, dict[str, str]] = {}
    for module, entries in yaml.safe_load(EQUIVALENTS_FILE.read_text(encoding="utf-8")).items():
        for entry in entries:
            for mutant in entry["mutants"]:
                listed.setdefault(module, {})[mutant] = entry["why"]
    return listed


def session_of(module: str) -> Path:
    return WORK / (module.replace("/", "-").removesuffix(".py") + ".sqlite")


def run(module: str, tests: list[str], timeout: float = 120.0) -> None:
    """Mutate one module against its tests, into its session file."""
    WORK.mkdir(exist_ok=True)
    session = session_of(module)
    config = session.with_suffix(".toml")
    config.write_text(CONFIG.format(module=f"adjudicator/{module}", timeout=timeout, python=sys.executable,
                                    pytest=PYTEST, tests=" ".join(tests), excluded=json.dumps(EXCLUDED_OPERATORS)),
                      encoding="utf-8")
    session.unlink(missing_ok=True)
    bin_dir = Path(sys.executable).parent
    subprocess.run([bin_dir / "cosmic-ray", "init", config, session], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cr-filter-operators", session, config], cwd=ROOT, check=True)
    subprocess.run([bin_dir / "cosmic-ray", "exec", config, session], cwd=ROOT, check=True)


def figures_of(module: str, listed: dict[str, dict[str, str]]) -> tuple[Figures, set[str]]:
    """A module's figures from its session, and the listed equivalents no survivor matched."""
    dump = subprocess.run([Path(sys.executable).parent / "cosmic-ray", "dump", session_of(module)], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    equivalents = {**listed.get("*", {}), **listed.get(module, {})}
    figures, matched = Figures(module), set()
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None or result.get("worker_outcome") == "skipped":
            continue
        outcome = result.get("test_outcome")
        if outcome == "killed":
            figures.killed += 1
        elif outcome == "survived":
            mutation = item["mutations"][0]
            name = signature(mutation["definition_name"], result["diff"])
            if name in equivalents:
                figures.equivalent.append(name)
                matched.add(name)
            else:
                figures.survivors.append(f"line {mutation['start_pos'][0]} {mutation['operator_name']}: {name}")
        else:
            figures.incompetent += 1
    return figures, set(listed.get(module, {})) - matched


def main(argv: list[str]) -> int:
    report_only = "--report" in argv
    chosen = [a for a in argv if a != "--report"] or list(MODULES)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        print(f"mutation: unknown module {unknown[0]!r}; one of: {', '.join(MODULES)}", file=sys.stderr)
        return 2
    missing = [m for m in chosen if report_only and not session_of(m).exists()]
    if missing:
        print(f"mutation: no session for {missing[0]} in {WORK}: run it first", file=sys.stderr)
        return 2
    listed = load_equivalents()
    lines, killed, counted, below = [], 0, 0, []
    for module in chosen:
        if not report_only:
            run(module, MODULES[module])
        figures, unmatched = figures_of(module, listed)
        if not report_only:
            print(figures.line(), flush=True)          # progress: a whole run takes long
        killed += figures.killed
        counted += figures.killed + len(figures.survivors)
        if figures.rate < TARGET:
            below.append(module)
        lines += [figures.line(), *(f"  survived: {s}" for s in figures.survivors),
                  *(f"  listed as equivalent, not seen surviving: {u}" for u in sorted(unmatched))]
    rate = 100.0 * killed / counted if counted else 100.0
    lines.append(f"all: {killed} killed of {counted} that are not listed as equivalent ({rate:.1f}%); "
                 f"modules under {TARGET:.0f}%: {', '.join(below) or 'none'}")
    report = "\n".join(lines) + "\n"
    (WORK / "report.txt").write_text(report, encoding="utf-8")
    print(report, end="")
    return 0 if not below else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
