"""Speed, ours against MILA's `diplomacy` package, in CPU time
(time.process_time; child processes through resource.getrusage). Prints
figures; asserts nothing. The phases and text forms are benchmarks/phases.py's.

1. Text to results, on random, realistic and real Standard movement phases, each
   written three ways (headings; the power on every line, compact; full
   names in mixed case): ours parse + adjudicate (adjudicate_text), MILA
   set_orders + process on the same orders in the same form. Each engine
   passes over the phases --passes times (3), taken in turn; the cheapest
   pass counts.
2. Ours on the adjudication call alone (adjudicate_lines, orders parsed), the
   same way: random phases, realistic phases, the three real 33-34-unit
   "Describe" phases, and the realistic phases of 32 to 34 units.
3. Ours at 34 to 5,000 units on a synthetic grid map (adjudicate_lines:
   the orders text limit is 2,000 lines, so orders are built, not parsed),
   the best of at least three runs of the same phase; with valgrind on PATH,
   the instructions per unit beside (one run under cachegrind less a
   baseline that builds the same phase and does not resolve it).
4. Start-up CPU of `adjudicator --help`, `status`, `check` and `adjudicate`, the heavy
   modules each loads, and (when PYTHONDONTWRITEBYTECODE is set) the same with bytecode cached.

MILA is optional: `pip install diplomacy` (the `bench` extra). Without it the
MILA figures are skipped. The first line says which build of the engine ran:
pure Python, or compiled with mypyc (setup.py). --also PYTHON runs the same
sections again in PYTHON's environment, for example the compiled build's
(README, "An optional compiled build"), and prints its figures below.
Usage: python benchmarks/bench_compare.py [phases] [--only standard|scaling|startup]
[--passes N] [--repeats N] [--also PYTHON]"""

from __future__ import annotations

import argparse
import gc
import logging
import math
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
from adjudicator.diplomacy.mapgraph import parse_map
from adjudicator.diplomacy.model import Phase as GamePhase
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.orders import Hold, Move, Order, SupportMove
from adjudicator.diplomacy.parser import parser_for
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import PowerInfo, Variant
from adjudicator.engine_build import engine_build
from adjudicator.rules import load_variant
from adjudicator.rules.standard import STANDARD

try:
    from diplomacy import Game as MilaGame  # type: ignore[import-not-found,unused-ignore]
except ImportError:
    MilaGame = None

REPO = Path(__file__).resolve().parent.parent
ADJUDICATOR = Path(sys.executable).parent / "adjudicator"
SCRIPT = Path(__file__).resolve()
# The hidden switch that makes a run a scaling child under valgrind (section 3).
SCALING_CHILD = "BENCH_COMPARE_SCALING_CHILD"


# --- MILA -------------------------------------------------------------------------------------
def mila_game(units: dict[str, Unit], powers: list[str]) -> Any:
    game = MilaGame()
    for power in powers:
        game.set_units(power.upper(), [f"{u.type.value} {u.location.upper()}" for u in units.values()
                                       if u.power == power], reset=True)
    return game


def positions_after(units: dict[str, Unit]) -> set[tuple[str, str]]:
    return {(u.power, f"{u.type.value} {u.location}") for u in units.values()}


def mila_positions(game: Any) -> set[tuple[str, str]]:
    return {(power.lower(), u.lower().replace("a ", "A ", 1).replace("f ", "F ", 1))
            for power, us in game.get_units().items() for u in us if not u.startswith("*")}


# --- one pass of each engine ------------------------------------------------------------------
def ours_pass(variant: Variant, base: GameState, samples: list[Phase], form: str
              ) -> tuple[float, list[set[tuple[str, str]]]]:
    """One pass over the phases, text to results: CPU seconds and who stands where after."""
    collect_the_last_pass()
    total = 0.0
    after = []
    for phase in samples:
        state = base.copy()
        state.units = dict(phase.units)
        text = phase_text(variant, phase, form)
        start = time.process_time()
        outcome = adjudicate_text(variant, state, text)
        total += time.process_time() - start
        after.append(positions_after(outcome.next_state.units))
    return total, after


def collect_the_last_pass() -> None:
    """A full collection, untimed, before each pass: the passes alternate
    between the engines, and the reference cycles one engine leaves (MILA's
    games hold some) would otherwise be collected, and paid for, in the
    other's pass. A judge's process runs one engine only."""
    gc.collect()


def mila_pass(variant: Variant, samples: list[Phase], form: str) -> tuple[float, list[set[tuple[str, str]]]]:
    """The same for MILA: set_orders + process, each phase in a new game."""
    collect_the_last_pass()
    powers = list(variant.powers)
    total = 0.0
    after = []
    for phase in samples:
        game = mila_game(phase.units, powers)
        by_power = mila_orders(variant, phase, form)
        start = time.process_time()
        for power, power_orders in by_power.items():
            game.set_orders(power, power_orders)
        game.process()
        total += time.process_time() - start
        after.append(mila_positions(game))
    return total, after


def lines_pass(variant: Variant, base: GameState, samples: list[Phase]) -> float:
    """One pass of adjudicate_lines alone, the orders parsed beforehand."""
    parser = parser_for(variant)
    total = 0.0
    for phase in samples:
        state = base.copy()
        state.units = dict(phase.units)
        lines = parser.parse_text(phase_text(variant, phase, "headings"))
        start = time.process_time()
        adjudicate_lines(variant, state, lines)
        total += time.process_time() - start
    return total


def text_to_results(variant: Variant, kind: str, samples: list[Phase], passes: int) -> None:
    """Section 1 for one kind of phase: each form, ours against MILA, passes taken in turn."""
    base = initial_state(variant)
    phases = len(samples)
    units = sum(len(p.units) for p in samples) / phases
    print(f"   {kind}: {phases} phases, {units:.1f} units on average")
    print(f"   {'form':<11} {'ours us':>8} {'MILA us':>8} {'MILA/ours':>9}   agree   passes (ours; MILA)")
    for form in FORMS:
        ours_times: list[float] = []
        mila_times: list[float] = []
        ours_after: list[set[tuple[str, str]]] = []
        mila_after: list[set[tuple[str, str]]] = []
        # The passes alternate, ours then MILA, so a slow spell of the machine falls on both.
        for _ in range(passes):
            seconds, ours_after = ours_pass(variant, base, samples, form)
            ours_times.append(seconds * 1e6 / phases)
            if MilaGame is not None:
                seconds, mila_after = mila_pass(variant, samples, form)
                mila_times.append(seconds * 1e6 / phases)
        ours = min(ours_times)
        line = f"   {form:<11} {ours:8.0f}"
        if mila_times:
            mila = min(mila_times)
            agree = sum(a == b for a, b in zip(ours_after, mila_after))
            line += f" {mila:8.0f} {mila / ours:8.1f}x  {agree:>3}/{phases}"
        else:
            line += f" {'-':>8} {'-':>9}   {'-':>7}"
        line += f"   {', '.join(f'{t:.0f}' for t in ours_times)}; {', '.join(f'{t:.0f}' for t in mila_times)}"
        print(line)


def standard_comparison(phases: int, passes: int) -> None:
    """Sections 1 and 2. The benchmark's own phases (some 100,000 objects) are
    no part of either judge: frozen out of the garbage collector's view, they
    are not walked by every full collection of either engine, as no judge's
    process holds them."""
    variant = load_variant("standard")
    # The three real phases, each 20 times over (each time from a fresh state), so that a pass is long enough to time.
    kinds = {"random": random_phases(variant, phases), "realistic": realistic_phases(variant, phases),
             "real": real_phases(variant) * 20}
    big = [p for p in kinds["realistic"] if len(p.units) >= 32]
    if MilaGame is not None:
        logging.disable(logging.CRITICAL)
    gc.collect()
    gc.freeze()
    print(f"1. Text to results: ours parse + adjudicate (adjudicate_text), MILA set_orders + process, "
          f"in us of CPU a phase, the cheapest of {passes} passes")
    if MilaGame is None:
        print("   MILA not installed (pip install -e '.[bench]')")
    for kind, samples in kinds.items():
        text_to_results(variant, kind, samples, passes)
    base = initial_state(variant)
    print(f"2. ours, adjudicate_lines alone (orders already parsed), us of CPU a phase, the cheapest of {passes} passes")
    for kind, samples in [*kinds.items(), ("realistic, 32-34 units", big)]:
        times = [lines_pass(variant, base, samples) * 1e6 / len(samples) for _ in range(passes)]
        best = min(times)
        units = sum(len(p.units) for p in samples) / len(samples)
        print(f"   {kind:<22} {len(samples):>4} phases, {units:4.1f} units: {best:5.0f} us   (passes: "
              f"{', '.join(f'{t:.0f}' for t in times)})")
    gc.unfreeze()


# --- a synthetic map at growing sizes -----------------------------------------------
def grid_variant(side: int, powers: list[str]) -> Variant:
    """side x side land provinces, each bordering its 4 neighbours."""
    provinces = {}
    for r in range(side):
        for c in range(side):
            near = [f"g{r + dr}_{c + dc}" for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= r + dr < side and 0 <= c + dc < side]
            provinces[f"g{r}_{c}"] = {"name": f"g{r}_{c}", "terrain": "land", "army": near}
    graph = parse_map({"name": "grid", "provinces": provinces}, "grid")
    infos = {p: PowerInfo(p, p.title(), p.title(), p[:1].upper(), "#888888", (), (), ()) for p in powers}
    return Variant("grid", "Grid", graph, STANDARD, 1901, ("spring", "fall"), 10**6, infos, {}, "synthetic")


def grid_phase(count: int) -> tuple[Variant, dict[str, Unit], list[tuple[int, Order]]]:
    """About half the grid's provinces hold an army; random moves, supports of
    a neighbour's move into a province beside it, and holds."""
    powers = [f"power{i}" for i in range(7)]
    side = math.ceil(math.sqrt(2 * count))
    variant = grid_variant(side, powers)
    graph = variant.map
    rng = random.Random(count)
    units = {p: Unit(rng.choice(powers), UnitType.ARMY, p) for p in rng.sample(sorted(graph.provinces), count)}
    lines = []
    for n, (prov, unit) in enumerate(sorted(units.items()), 1):
        near = sorted(graph.army_adjacent[prov])
        roll = rng.random()
        order: Order = Hold(unit.power, unit.type, prov)
        if roll < 0.5:
            order = Move(unit.power, unit.type, prov, rng.choice(near))
        elif roll < 0.8:
            target = rng.choice(near)
            movers = [p for p in sorted(graph.army_adjacent[target]) if p in units and p != prov]
            if movers:
                order = SupportMove(unit.power, unit.type, prov, UnitType.ARMY, rng.choice(movers), target)
        lines.append((n, order))
    return variant, units, lines


def grid_run(count: int, resolve: bool = True, warm: bool = False) -> float:
    """One run of the grid phase of `count` units: CPU seconds of
    adjudicate_lines (0 if not `resolve`); with `warm`, after one run that is
    not counted (first-call costs: the map's lookups built on first use)."""
    variant, units, lines = grid_phase(count)
    if warm:
        state = GameState("grid", GamePhase(1901, "spring", "movement"), dict(units), {})
        adjudicate_lines(variant, state, [ParsedLine(n, str(o), o.power, o) for n, o in lines])
    state = GameState("grid", GamePhase(1901, "spring", "movement"), dict(units), {})
    parsed = [ParsedLine(n, str(o), o.power, o) for n, o in lines]
    gc.collect()
    if not resolve:
        return 0.0
    start = time.process_time()
    adjudicate_lines(variant, state, parsed)
    return time.process_time() - start


def grid_instructions(valgrind: str, count: int) -> float:
    """Instructions of adjudicate_lines on the grid phase of `count` units:
    one child under cachegrind less one that only builds the phase."""
    counts = []
    for resolve in ("1", "0"):
        env = dict(os.environ, PYTHONHASHSEED="0", **{SCALING_CHILD: f"{count}:{resolve}"})
        done = subprocess.run([valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, check=True)
        counts.append(int(done.stderr.rsplit("I   refs:", 1)[1].split()[0].replace(",", "")))
    return float(counts[0] - counts[1])


def scaling(sizes: tuple[int, ...]) -> None:
    valgrind = shutil.which("valgrind")
    print("3. ours on a synthetic grid map: about half the provinces hold an army; "
          "random moves, supports and holds (adjudicate_lines)")
    print(f"   {'units':>6} {'ms/phase':>9} {'us/unit':>8} {'kI/unit':>8}")
    for count in sizes:
        # The best of several runs, each from a collected heap: one run of a
        # big phase is one sample, and a full collection of the garbage the
        # runs before it left would land on it alone.
        repeats = max(3, 3000 // count)
        per = min(grid_run(count) for _ in range(repeats))
        instructions = f"{grid_instructions(valgrind, count) / count / 1e3:8.1f}" if valgrind else f"{'-':>8}"
        print(f"   {count:>6} {per * 1e3:>9.2f} {per * 1e6 / count:>8.1f} {instructions}   (best of {repeats})")
    if not valgrind:
        print("   (valgrind is not on PATH: no instruction counts)")


# --- start-up -------------------------------------------------------------------------
HEAVY = ("networkx", "svgwrite", "jinja2", "filelock")        # third-party modules worth not loading
CARD_GAME = "cards"          # a seven-wonders game: `status` of a turn-file game


def child_cpu(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(ADJUDICATOR), *args], cwd=cwd, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def heavy_modules(args: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    """Which of HEAVY a command imports (python -X importtime)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "adjudicator", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    return [m for m in HEAVY if m in names]


def time_commands(work: Path, env: dict[str, str], repeats: int, tag: str) -> dict[str, list[float]]:
    orders = str(REPO / "orders" / "standard" / "1901-spring.txt")
    times: dict[str, list[float]] = {"--help": [], "status": [], "check": [], "adjudicate": [], "status (card)": []}
    for n in range(repeats):
        game = f"{tag}{n}"
        subprocess.run([str(ADJUDICATOR), "new", game], cwd=work, env=env, check=True, capture_output=True)
        times["--help"].append(child_cpu(["--help"], work, env))
        times["status"].append(child_cpu(["status", game], work, env))
        times["check"].append(child_cpu(["check", game, orders], work, env))
        times["adjudicate"].append(child_cpu(["adjudicate", game, orders], work, env))
        times["status (card)"].append(child_cpu(["status", CARD_GAME], work, env))
    return times


def startup(repeats: int = 5) -> None:
    print(f"4. start-up: CPU time of the `adjudicator` process (user + system), median of {repeats}")
    orders = str(REPO / "orders" / "standard" / "1901-spring.txt")
    work = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        env = dict(os.environ)
        subprocess.run([str(ADJUDICATOR), "new", "probe"], cwd=work, env=env, check=True, capture_output=True)
        subprocess.run([str(ADJUDICATOR), "new", CARD_GAME, "--variant", "seven-wonders", "--players", "a,b,c"],
                       cwd=work, env=env, check=True, capture_output=True)
        probes = {"--help": ["--help"], "status": ["status", "probe"], "check": ["check", "probe", orders],
                  "adjudicate": ["adjudicate", "probe", orders], "status (card)": ["status", CARD_GAME]}
        loads = {command: heavy_modules(args, work, env) for command, args in probes.items()}
        times = time_commands(work, env, repeats, "g")
        for command, samples in times.items():
            print(f"   adjudicator {command:<13} {sorted(samples)[len(samples) // 2] * 1e3:6.0f} ms"
                  f"   loads {', '.join(loads[command]) or 'none'} of {', '.join(HEAVY)}")
        if env.get("PYTHONDONTWRITEBYTECODE"):
            # Every run above compiled the package from source. An installed
            # package has its bytecode; a throwaway cache outside the repo shows that case.
            cached = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
            cached["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
            time_commands(work, cached, 1, "warm")
            times = time_commands(work, cached, repeats, "c")
            print("   PYTHONDONTWRITEBYTECODE is set, so each run above compiled the package from source;"
                  " with bytecode cached:")
            for command, samples in times.items():
                print(f"   adjudicator {command:<13} {sorted(samples)[len(samples) // 2] * 1e3:6.0f} ms")
    finally:
        shutil.rmtree(work)


def main() -> None:
    child = os.environ.get(SCALING_CHILD)
    if child:
        count, resolve = child.split(":")
        grid_run(int(count), resolve == "1", warm=True)
        sys.stdout.flush()
        os._exit(0)         # no teardown: what it frees is no phase's work
    parser = argparse.ArgumentParser(description="Speed figures; see the module docstring.")
    parser.add_argument("phases", nargs="?", type=int, default=300,
                        help="random and realistic phases for sections 1 and 2")
    parser.add_argument("--only", choices=["standard", "scaling", "startup"], default=None,
                        help="run one section only")
    parser.add_argument("--passes", type=int, default=3, help="sections 1 and 2: passes over the phases (cheapest)")
    parser.add_argument("--repeats", type=int, default=5, help="start-up: runs per command (median)")
    parser.add_argument("--also", metavar="PYTHON", default=None,
                        help="then the same sections in this interpreter's environment (another build)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} ({sys.executable}), adjudicator {__version__}, {engine_build()}")
    if args.only in (None, "standard"):
        standard_comparison(args.phases, args.passes)
    if args.only in (None, "scaling"):
        scaling((34, 100, 300, 1000, 2000, 5000))
    if args.only in (None, "startup"):
        startup(args.repeats)
    if args.also:
        sys.stdout.flush()
        same = [str(args.phases), "--passes", str(args.passes), "--repeats", str(args.repeats)]
        same += ["--only", args.only] if args.only else []
        print(f"\nThe same in {args.also}:", flush=True)
        sys.exit(subprocess.run([args.also, str(SCRIPT), *same], check=False).returncode)


if __name__ == "__main__":
    main()
