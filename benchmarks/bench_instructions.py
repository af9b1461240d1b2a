"""Speed, ours against MILA's `diplomacy` package, in instructions executed
(valgrind's cachegrind, "I refs"). Prints figures; asserts nothing.

The same random Standard movement phases as bench_compare's section 1
(random.Random(1901), 18-34 units, every order type), in thousands of
instructions per phase (kI/phase):
  - ours, text to results: adjudicate_text(variant, state, text);
  - ours, adjudicate_lines alone, the orders parsed beforehand;
  - ours, parse alone: parser_for(variant).parse_text(text);
  - MILA, text to results: set_orders for each power + process(), each phase
    in a fresh game built beforehand (skipped if MILA is not installed);
  - MILA / ours, text to results.

CPU times on a shared machine drift by 30-50% within minutes; instruction
counts repeat to within about 0.1%, so these figures complement
bench_compare's. The script runs itself again under valgrind, once per item
and once for a baseline that does the same set-up (samples, states, texts,
parsed lines, MILA games, a warm-up of each engine) and measures nothing; an
item's count less the baseline's, divided by the phases, is its figure. The
children run with PYTHONHASHSEED=0 so that every run hashes alike.

With --caches, cachegrind also simulates the caches and the branch
predictor, and the figures gain, per phase, the first-level instruction
and data cache misses and the mispredicted branches, ours against MILA's.
Those say why the CPU-time ratio (bench_compare) is lower than the
instruction ratio: per instruction, ours misses and mispredicts more.

Needs valgrind on PATH (without it, one line says so). MILA is optional:
`pip install diplomacy`.  Usage: python benchmarks/bench_instructions.py [phases] [--jobs N] [--caches]"""

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
    Position,
    mila_game,
    mila_orders,
    our_text,
    random_phases,
)

from adjudicator import __version__
from adjudicator.diplomacy.game import adjudicate_lines, adjudicate_text
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.orders import Order
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


@dataclass
class SetUp:
    """Everything every child builds before it measures, whatever it measures."""
    variant: Variant
    texts: list[str]
    states: list[GameState]
    parsed: list[list[ParsedLine]]
    mila_games: list[Any]
    mila_orders: list[dict[str, list[str]]]


def build_set_up(variant: Variant, samples: list[tuple[Position, list[Order]]]) -> SetUp:
    """A fresh state, text, parsed lines and (MILA installed) MILA game with
    its orders for each sample: each is used once, by one measured pass."""
    base = initial_state(variant)
    parser = parser_for(variant)
    powers = list(variant.powers)
    texts = [our_text(variant, orders) for _, orders in samples]
    states = []
    for units, _ in samples:
        state = base.copy()
        state.units = dict(units)
        states.append(state)
    # Parsing every text here also fills the parser's name caches in every
    # child, so each item runs warm, as in bench_compare's later passes.
    parsed = [parser.parse_text(text) for text in texts]
    mila_games: list[Any] = []
    orders_by_power: list[dict[str, list[str]]] = []
    if MilaGame is not None:
        for units, orders in samples:
            mila_games.append(mila_game(units, powers))
            orders_by_power.append(mila_orders(orders))
    return SetUp(variant, texts, states, parsed, mila_games, orders_by_power)


# --- what a child measures: one pass over every phase --------------------------------
def measure_nothing(set_up: SetUp) -> None:
    """The baseline: the set-up and warm-up alone."""


def measure_ours_text(set_up: SetUp) -> None:
    for state, text in zip(set_up.states, set_up.texts):
        adjudicate_text(set_up.variant, state, text)


def measure_ours_lines(set_up: SetUp) -> None:
    for state, lines in zip(set_up.states, set_up.parsed):
        adjudicate_lines(set_up.variant, state, lines)


def measure_ours_parse(set_up: SetUp) -> None:
    parser = parser_for(set_up.variant)
    for text in set_up.texts:
        parser.parse_text(text)


def measure_mila(set_up: SetUp) -> None:
    for game, by_power in zip(set_up.mila_games, set_up.mila_orders):
        for power, power_orders in by_power.items():
            game.set_orders(power, power_orders)
        game.process()


MEASURES: dict[str, Callable[[SetUp], None]] = {
    "baseline": measure_nothing,
    "ours_text": measure_ours_text,
    "ours_lines": measure_ours_lines,
    "ours_parse": measure_ours_parse,
    "mila": measure_mila,
}


def run_child(mode: str, phases: int) -> NoReturn:
    """Set up, warm up, measure `mode` (nothing for the baseline), then leave.
    Every step but the measured pass is the same in every child, so that
    subtracting the baseline's count leaves the pass alone."""
    measure = MEASURES[mode]
    if MilaGame is not None:
        logging.disable(logging.CRITICAL)         # as bench_compare: MILA's log lines are not the work
    variant = load_variant("standard")
    samples = random_phases(variant, phases)
    set_up = build_set_up(variant, samples)
    # A few phases of each engine on their own copies: first-call costs
    # (lazy imports, caches, MILA's map loading) are not a phase's.
    warm_up = build_set_up(variant, samples[:WARM_UP_PHASES])
    measure_ours_text(warm_up)
    measure_mila(warm_up)
    # Garbage collection stays on: its collections during the pass are part of
    # the pass's cost, and so is the last one, of the cycles the pass left.
    gc.collect()
    measure(set_up)
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
    parser.add_argument("phases", nargs="?", type=int, default=200, help="random Standard phases")
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
    variant = load_variant("standard")
    samples = random_phases(variant, args.phases)
    units_total = sum(len(units) for units, _ in samples)
    print(f"Python {platform.python_version()} ({sys.executable}), adjudicator {__version__}")
    print("Instructions executed (valgrind cachegrind), in thousands per phase (kI/phase):")
    print("deterministic to about 0.1%, unlike bench_compare's CPU times, which they complement.")
    print(f"{args.phases} random Standard movement phases, 18-34 units (mean {units_total / args.phases:.1f}), "
          "every order type; each item is one run less a baseline run with the same set-up", flush=True)
    items = {"ours_text": "ours, text to results (adjudicate_text)",
             "ours_lines": "ours, adjudicate_lines alone (orders parsed)",
             "ours_parse": "ours, parse alone (parse_text)",
             "mila": "MILA, text to results (set_orders + process)"}
    modes = ["baseline", *items]
    if MilaGame is None:
        modes.remove("mila")
    counts = count_all(valgrind, modes, args.phases, max(1, args.jobs), args.caches)
    baseline = counts.pop("baseline")
    print(f"   baseline (set-up and warm-up, not counted) {baseline['instructions'] / 1e3:14,.0f} kI")

    phases: int = args.phases

    def per_phase(mode: str, event: str = "instructions") -> float:
        return (counts[mode][event] - baseline[event]) / phases / 1e3

    for mode, label in items.items():
        if mode in counts:
            print(f"   {label:<45} {per_phase(mode):10,.0f} kI/phase")
    if MilaGame is None:
        print("   MILA not installed (pip install diplomacy)")
    else:
        print(f"   MILA / ours, text to results: {per_phase('mila') / per_phase('ours_text'):.1f}")
    if args.caches:
        print("Simulated by cachegrind, text to results, in thousands per phase (the host's cache sizes):")
        for event in SIMULATED:
            ours = per_phase("ours_text", event)
            line = f"   {event:<24} ours {ours:8,.1f}"
            if MilaGame is not None:
                mila = per_phase("mila", event)
                line += f"   MILA {mila:9,.1f}   MILA / ours {mila / ours:5.1f}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
