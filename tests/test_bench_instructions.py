"""benchmarks/bench_instructions.py's own plumbing, without running valgrind:
it reads the instruction count from valgrind's report, and without valgrind
it says so and succeeds."""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# What cachegrind 3.19 writes to stderr with --cache-sim=no.
CACHEGRIND_STDERR = """\
==4242== Cachegrind, a cache and branch-prediction profiler
==4242== Copyright (C) 2002-2017, and GNU GPL'd, by Nicholas Nethercote et al.
==4242== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info
==4242== Command: python benchmarks/bench_instructions.py 20
==4242==
==4242==
==4242== I   refs:      2,298,950,534
"""


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # The script imports bench_compare as a sibling, as it does when run from benchmarks/.
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("bench_instructions")


def test_reads_the_i_refs_total(bench: ModuleType) -> None:
    assert bench.instruction_count(CACHEGRIND_STDERR) == 2_298_950_534


def test_a_report_without_i_refs_is_an_error(bench: ModuleType) -> None:
    with pytest.raises(ValueError, match="I refs"):
        bench.instruction_count("==4242== Command: python\nKilled\n")


def test_without_valgrind_it_says_so_and_succeeds(bench: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(bench.CHILD_MODE_VARIABLE, raising=False)
    assert bench.main(["5"]) == 0
    assert capsys.readouterr().out.strip() == "valgrind is not on PATH: no instruction counts (apt-get install valgrind)"


# What cachegrind 3.19 adds to stderr with --cache-sim=yes --branch-sim=yes (abridged).
SIMULATION_STDERR = CACHEGRIND_STDERR + """\
==4242== I1  misses:       42,672,292
==4242== LLi misses:           15,102
==4242== D   refs:      1,952,330,356  (1,343,373,202 rd   + 608,957,154 wr)
==4242== D1  misses:       41,246,931  (   37,178,476 rd   +   4,068,455 wr)
==4242== LLd misses:          986,176  (       96,690 rd   +     889,486 wr)
==4242== Branches:        709,949,375  (  582,909,178 cond + 127,040,197 ind)
==4242== Mispredicts:      71,889,268  (   29,402,327 cond +  42,486,941 ind)
==4242== Mispred rate:           10.1% (          5.0%     +        33.4%   )
"""


def test_reads_the_simulated_totals(bench: ModuleType) -> None:
    assert bench.simulated_counts(SIMULATION_STDERR) == {
        "I1 misses": 42_672_292, "D1 misses": 41_246_931, "mispredicted branches": 71_889_268}


def test_a_report_without_simulation_is_an_error(bench: ModuleType) -> None:
    with pytest.raises(ValueError, match="I1 misses"):
        bench.simulated_counts(CACHEGRIND_STDERR)
