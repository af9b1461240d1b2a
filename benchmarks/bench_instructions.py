"""Speed, ours against MILA's `diplomacy` package, in instructions executed
(valgrind's cachegrind, "I refs"). Prints figures; asserts nothing.

The same phases and text forms as bench_compare (benchmarks/phases.py):
random, realistic and real Standard movement phases, each written three ways
(headings; the power on every line, compact; full names in mixed case), in
thousands of instructions per phase (kI/phase):
  - ours, text to results: adjudicate_text(variant, state, text), each form;
  - ours, parse alone: parser_for(variant).parse_text(text), each form;
  - ours, adjudicate_lines alone, the orders parsed beforehand;
  - MILA, text to results: set_orders for each power + process(), each phase
    in a fresh game built beforehand, the same orders in the same form
    (skipped if MILA is not installed);
  - MILA / ours, text to results.

CPU times on a shared machine drift by 30-50% within minutes; instruction
counts repeat to within about 0.1%, so these figures complement
bench_compare's. The script runs itself again under valgrind, once per item
and once per kind of phase for a baseline that does the same set-up
(samples, states, texts in every form, parsed lines, MILA games, a warm-up
of each engine on each form) and measures nothing; an item's count less the
baseline's, divided by the phases, is its figure. The children run with
PYTHONHASHSEED=0 so that every run hashes alike.

With --caches, cachegrind also simulates the caches and the branch
predictor, and the figures gain, per phase, the first-level instruction
and data cache misses and the mispredicted branches of text to results,
ours against MILA's. Those say why the CPU-time ratio (bench_compare) is
lower than the instruction ratio: per instruction, ours misses and
mispredicts more.

Needs valgrind on PATH (without it, one line says so). MILA is optional:
`pip install -e '.[bench]'`.  Usage: python benchmarks/bench_instructions.py
[phases] [--kinds random,realistic] [--forms headings,prefixed,full names] [--jobs N] [--caches]"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from bench_compare import (  # type: ignore[attr-defined]  # MilaGame: bench_compare's optional import of MILA
    MilaGame,
    mila_game,
)
from phases import (
    FORMS,
    Phase,
    mila_orders,
    phase_text,
    random_phases,
    real_phases,
    realistic_phases,
)

from adjudicator import __version__
from adjudicator.diplomacy.game import adjudicate_lines, adjudicate_text
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import Variant
from adjudicator.rules import load_variant

SCRIPT = Path(__file__).resolve()
# The hidden switch that makes a run a measuring child rather than the parent.
CHILD_MODE_VARIABLE = "BENCH_INSTRUCTIONS_CHILD"
VALGRIND_OPTIONS = ("--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")
SIMULATION_OPTIONS = ("--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=/dev/null")
# The simulated events --caches reports, by the label cachegrind gives their totals.
SIMULATED = {"I1 misses": re.compile(r"\bI1\s+misses:\s+([\d,]+)"),
             "D1 misses": re.compile(r"\bD1\s+misses:\s+([\d,]+)"),
             "mispredicted branches": re.compile(r"\bMispredicts:\s+([\d,]+)")}
WARM_UP_PHASES = 3
I_REFS = re.compile(r"\bI\s+refs:\s+([\d,]+)")
# The three real phases are repeated to the number of phases asked for (each from a fresh state).
KINDS: dict[str, Callable[[Variant, int], list[Phase]]] = {
    "random": random_phases, "realistic": realistic_phases,
    "real": lambda variant, phases: (real_phases(variant) * phases)[:phases]}


@dataclass
class SetUp:
    """Everything every child of a kind builds before it measures, whatever it measures."""
    variant: Variant
    texts: dict[str, list[str]]                     # form -> each phase's orders text
    states: dict[str, list[GameState]]              # what each item resolves: a fresh state each
    parsed: list[list[ParsedLine]]
    mila_games: dict[str, list[Any]]                # form -> a fresh game each
    mila_orders: dict[str, list[dict[str, list[str]]]]


def build_set_up(variant: Variant, samples: list[Phase]) -> SetUp:
    """A fresh state and text in every form, the parsed lines, and (MILA
    installed) a MILA game and its orders in every form, for each sample:
    each is used once, by one measured pass."""
    base = initial_state(variant)
    parser = parser_for(variant)
    powers = list(variant.powers)
    texts = {form: [phase_text(variant, phase, form) for phase in samples] for form in FORMS}

    def fresh_states() -> list[GameState]:
        states = []
        for phase in samples:
            state = base.copy()
            state.units = dict(phase.units)
            states.append(state)
        return states

    states = {form: fresh_states() for form in (*FORMS, "lines")}
    # Parsing every text here also fills the parser's name caches in every
    # child, so each item runs warm, as in bench_compare's later passes.
    for form in FORMS:
        for text in texts[form]:
            parser.parse_text(text)
    parsed = [parser.parse_text(text) for text in texts["headings"]]
    games: dict[str, list[Any]] = {}
    orders: dict[str, list[dict[str, list[str]]]] = {}
    if MilaGame is not None:
        for form in FORMS:
            games[form] = [mila_game(phase.units, powers) for phase in samples]
            orders[form] = [mila_orders(variant, phase, form) for phase in samples]
    return SetUp(variant, texts, states, parsed, games, orders)


# --- what a child measures: one pass over every phase --------------------------------
def measure_nothing(set_up: SetUp, form: str) -> None:
    """The baseline: the set-up and warm-up alone."""


def measure_ours_text(set_up: SetUp, form: str) -> None:
    for state, text in zip(set_up.states[form], set_up.texts[form]):
        adjudicate_text(set_up.variant, state, text)


def measure_ours_lines(set_up: SetUp, form: str) -> None:
    for state, lines in zip(set_up.states["lines"], set_up.parsed):
        adjudicate_lines(set_up.variant, state, lines)


def measure_ours_parse(set_up: SetUp, form: str) -> None:
    parser = parser_for(set_up.variant)
    for text in set_up.texts[form]:
        parser.parse_text(text)


def measure_mila(set_up: SetUp, form: str) -> None:
    for game, by_power in zip(set_up.mila_games[form], set_up.mila_orders[form]):
        for power, power_orders in by_power.items():
            game.set_orders(power, power_orders)
        game.process()


MEASURES: dict[str, Callable[[SetUp, str], None]] = {
    "baseline": measure_nothing,
    "ours_text": measure_ours_text,
    "ours_lines": measure_ours_lines,
    "ours_parse": measure_ours_parse,
    "mila": measure_mila,
}


def run_child(mode: str, phases: int) -> NoReturn:
    """Set up, warm up, measure `mode` ('item:kind:form'; nothing for the
    baseline), then leave. Every step but the measured pass is the same in
    every child of a kind, so that subtracting the baseline's count leaves
    the pass alone."""
    item, kind, form = mode.split(":")
    measure = MEASURES[item]
    if MilaGame is not None:
        logging.disable(logging.CRITICAL)         # as bench_compare: MILA's log lines are not the work
    variant = load_variant("standard")
    samples = KINDS[kind](variant, phases)
    set_up = build_set_up(variant, samples)
    # A few phases of each engine on their own copies, in every form:
    # first-call costs (lazy imports, caches, MILA's map loading) are not a phase's.
    warm_up = build_set_up(variant, samples[:WARM_UP_PHASES])
    for warm_form in FORMS:
        measure_ours_text(warm_up, warm_form)
        if MilaGame is not None:
            measure_mila(warm_up, warm_form)
    # Garbage collection stays on: its collections during the pass are part of
    # the pass's cost, and so is the last one, of the cycles the pass left.
    gc.collect()
    measure(set_up, form)
    gc.collect()
    sys.stdout.flush()
    # No interpreter teardown: what it frees differs from child to child and is no phase's work.
    os._exit(0)


# --- the parent: one valgrind run per item ---------------------------------------------
def instruction_count(valgrind_stderr: str) -> int:
    """The "I refs" total of a cachegrind run's report (its stderr)."""
    match = I_REFS.search(valgrind_stderr)
    if match is None:
        raise ValueError("no 'I refs' line in valgrind's output:\n" + valgrind_stderr[-2000:])
    return int(match.group(1).replace(",", ""))


def simulated_counts(valgrind_stderr: str) -> dict[str, int]:
    """The cache-miss and misprediction totals of a run with --cache-sim and --branch-sim."""
    counts = {}
    for label, pattern in SIMULATED.items():
        match = pattern.search(valgrind_stderr)
        if match is None:
            raise ValueError(f"no '{label}' line in valgrind's output:\n" + valgrind_stderr[-2000:])
        counts[label] = int(match.group(1).replace(",", ""))
    return counts


def count_child(valgrind: str, mode: str, phases: int, caches: bool = False) -> dict[str, int]:
    """One child under cachegrind: its instruction count, and with `caches` its simulated events."""
    env = dict(os.environ, PYTHONHASHSEED="0", **{CHILD_MODE_VARIABLE: mode})
    options = SIMULATION_OPTIONS if caches else VALGRIND_OPTIONS
    done = subprocess.run([valgrind, *options, sys.executable, str(SCRIPT), str(phases)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the {mode} child failed ({done.returncode}):\n{done.stderr[-2000:]}")
    counts = {"instructions": instruction_count(done.stderr)}
    if caches:
        counts.update(simulated_counts(done.stderr))
    return counts


def count_all(valgrind: str, modes: list[str], phases: int, jobs: int,
              caches: bool = False) -> dict[str, dict[str, int]]:
    """Instruction counts do not depend on what else runs, so the children may run side by side."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        counts = pool.map(lambda mode: count_child(valgrind, mode, phases, caches), modes)
        return dict(zip(modes, counts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Instruction counts; see the module docstring.")
    parser.add_argument("phases", nargs="?", type=int, default=200, help="phases of each kind")
    parser.add_argument("--kinds", default=",".join(KINDS), help="kinds of phase, comma-separated")
    parser.add_argument("--forms", default=",".join(FORMS), help="text forms, comma-separated")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="valgrind runs at once (the counts do not depend on it)")
    parser.add_argument("--caches", action="store_true",
                        help="also simulate the caches and branch predictor (slower): misses per phase")
    args = parser.parse_args(argv)
    mode = os.environ.get(CHILD_MODE_VARIABLE)
    if mode:
        run_child(mode, args.phases)
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind is not on PATH: no instruction counts (apt-get install valgrind)")
        return 0
    kinds = [k for k in args.kinds.split(",") if k]
    forms = [f for f in args.forms.split(",") if f]
    variant = load_variant("standard")
    phases: int = args.phases
    print(f"Python {platform.python_version()} ({sys.executable}), adjudicator {__version__}")
    print("Instructions executed (valgrind cachegrind), in thousands per phase (kI/phase):")
    print("deterministic to about 0.1%, unlike bench_compare's CPU times, which they complement;")
    print("each item is one run less a baseline run with the same set-up", flush=True)
    items = ["ours_text", "ours_parse", *(["mila"] if MilaGame is not None else [])]
    modes = [f"baseline:{kind}:headings" for kind in kinds] + [f"ours_lines:{kind}:headings" for kind in kinds]
    modes += [f"{item}:{kind}:{form}" for kind in kinds for form in forms for item in items]
    counts = count_all(valgrind, modes, phases, max(1, args.jobs), args.caches)

    def per_phase(item: str, kind: str, form: str = "headings", event: str = "instructions") -> float:
        base = counts[f"baseline:{kind}:headings"][event]
        return (counts[f"{item}:{kind}:{form}"][event] - base) / phases / 1e3

    for kind in kinds:
        samples = KINDS[kind](variant, phases)
        units = sum(len(p.units) for p in samples) / phases
        print(f"{kind}: {phases} Standard movement phases, {units:.1f} units on average")
        print(f"   {'form':<11} {'ours text':>10} {'ours parse':>11} {'MILA text':>10} {'MILA/ours':>10}")
        for form in forms:
            ours = per_phase("ours_text", kind, form)
            line = f"   {form:<11} {ours:10,.0f} {per_phase('ours_parse', kind, form):11,.0f}"
            if MilaGame is not None:
                mila = per_phase("mila", kind, form)
                line += f" {mila:10,.0f} {mila / ours:9.1f}x"
            print(line)
        print(f"   ours, adjudicate_lines alone (orders parsed): {per_phase('ours_lines', kind):,.0f} kI/phase")
        if args.caches:
            print("   simulated by cachegrind, text to results, thousands per phase (the host's cache sizes):")
            for form in forms:
                for event in SIMULATED:
                    ours = per_phase("ours_text", kind, form, event)
                    text = f"   {form:<11} {event:<22} ours {ours:8,.1f}"
                    if MilaGame is not None:
                        mila = per_phase("mila", kind, form, event)
                        text += f"   MILA {mila:9,.1f}   MILA / ours {mila / ours:5.1f}"
                    print(text)
    if MilaGame is None:
        print("MILA not installed (pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
