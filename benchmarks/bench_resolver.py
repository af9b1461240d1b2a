"""Adjudication speed. Prints figures; asserts nothing.

1. A few thousand random Standard-map movement phases (18-34 units, every
   order type), timed through the same path a real phase takes
   (validation + resolution): microseconds per phase.
2. A synthetic grid map at growing sizes, up to 2,000+ units, to show how
   the cost grows with the number of units."""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any

from adjudicator import __version__
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph, parse_map
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.diplomacy.movement import resolve_movement
from adjudicator.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.rules import load_variant
from adjudicator.rules.standard import pre_resolve


def random_phase(rng: random.Random, graph: MapGraph, powers: list[str], count: int) -> tuple[dict[str, Unit], list[ParsedLine]]:
    units: dict[str, Unit] = {}
    provinces = sorted(graph.provinces)
    while len(units) < count:
        prov = rng.choice(provinces)
        if prov in units:
            continue
        locs = graph.fleet_locations(prov)
        kinds = [UnitType.ARMY] if graph.provinces[prov].terrain == "land" else \
            [UnitType.FLEET] if graph.provinces[prov].terrain == "sea" else [UnitType.ARMY, UnitType.FLEET]
        kind = rng.choice(kinds)
        units[prov] = Unit(rng.choice(powers), kind, prov if kind is UnitType.ARMY else rng.choice(locs))
    lines = []
    occupied = sorted(units)
    for n, prov in enumerate(occupied, 1):
        unit = units[prov]
        near = sorted(graph.army_adjacent.get(prov, ()) if unit.type is UnitType.ARMY
                      else {x.split("/")[0] for x in graph.fleet_adjacent.get(unit.location, ())})
        if not near:
            near = [prov]
        roll = rng.random()
        args = (unit.power, unit.type, unit.location)
        order: Order
        if roll < 0.45:
            order = Move(*args, rng.choice(near))
        elif roll < 0.65:
            other = rng.choice(occupied)
            order = SupportMove(*args, None, other, rng.choice(near))
        elif roll < 0.8:
            order = SupportHold(*args, None, rng.choice(near))
        elif roll < 0.9 and unit.type is UnitType.FLEET:
            order = Convoy(*args, rng.choice(occupied), rng.choice(provinces))
        else:
            order = Hold(*args)
        lines.append(ParsedLine(n, str(order), unit.power, order))
    return units, lines


def standard_benchmark(phases: int) -> None:
    variant = load_variant("standard")
    rng = random.Random(1901)
    samples = [random_phase(rng, variant.map, list(variant.powers), rng.randint(18, 34)) for _ in range(phases)]
    state = initial_state(variant)
    timings = []
    for units, lines in samples:
        state.units = units
        start = time.perf_counter()
        pre = pre_resolve(variant, state, lines)
        orders = dict(pre.orders)
        resolve_movement(units, orders, variant.map.seas_touching)
        timings.append(time.perf_counter() - start)
    per = [t * 1e6 for t in timings]
    print(f"standard map: {phases} random movement phases, 18-34 units")
    print(f"  mean {statistics.mean(per):.0f} us/phase, median {statistics.median(per):.0f} us, "
          f"p95 {sorted(per)[int(0.95 * len(per))]:.0f} us")
    big = [t * 1e6 for (u, _), t in zip(samples, timings) if len(u) >= 32]
    if big:
        print(f"  32-34 units: mean {statistics.mean(big):.0f} us/phase")


def grid_map(side: int) -> dict[str, Any]:
    """A side x side board of land provinces, each bordering its 4 neighbours."""
    provinces = {}
    for r in range(side):
        for c in range(side):
            pid = f"p{r}_{c}"
            nbrs = [f"p{r + dr}_{c + dc}" for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= r + dr < side and 0 <= c + dc < side]
            provinces[pid] = {"name": pid, "terrain": "land", "army": nbrs}
    return {"name": "grid", "provinces": provinces}


def scaling_benchmark() -> None:
    print("synthetic grid map: half the provinces hold an army; random moves and supports")
    print(f"  {'units':>6} {'ms/phase':>9} {'us/unit':>8} {'peak MiB':>9}")
    for side in (10, 20, 32, 45, 64):
        graph = parse_map(grid_map(side), "grid")
        rng = random.Random(side)
        provinces = sorted(graph.provinces)
        units = {p: Unit(f"power{rng.randrange(7)}", UnitType.ARMY, p) for p in rng.sample(provinces, len(provinces) // 2)}
        orders: dict[str, Order] = {}
        for prov, unit in units.items():
            near = sorted(graph.army_adjacent[prov])
            roll = rng.random()
            if roll < 0.5:
                orders[prov] = Move(unit.power, unit.type, prov, rng.choice(near))
            elif roll < 0.8:
                target = rng.choice(near)
                movers = [p for p in graph.army_adjacent[target] if p in units and p != prov]
                if movers:
                    orders[prov] = SupportMove(unit.power, unit.type, prov, None, rng.choice(movers), target)
        tracemalloc.start()
        start = time.perf_counter()
        repeats = 3
        for _ in range(repeats):
            resolve_movement(units, orders, graph.seas_touching)
        elapsed = (time.perf_counter() - start) / repeats
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        print(f"  {len(units):>6} {elapsed * 1e3:>9.2f} {elapsed * 1e6 / len(units):>8.1f} {peak:>9.1f}")


if __name__ == "__main__":
    print(f"Python {platform.python_version()} ({sys.executable}), adjudicator {__version__}")
    standard_benchmark(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
    scaling_benchmark()
