"""Hostile-but-fair calls to every public function of the shared modules: a result, a
ValueError or a TypeError (never another exception), within a time limit."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, well_behaved

SHARED = ["bitsets", "checks", "proofs", "sources", "sweeps", "solvers", "epistemic", "timing",
          "paths", "progress", "figures", "widgets", "cache", "exact_sums", "runner", "cli"]
# Functions that act on the world (write files, open widgets, start clusters) are left out:
# their arguments are checked in their own tests.
SKIP = {"write_table", "write_csv", "cached_table", "cached_source_table", "save_figure",
        "finish", "interact_safely", "show_safely", "static_explorer", "executor_from_arguments",
        "local_cluster",
        "add_executor_arguments", "sweep_table", "sweep", "best_of", "timed", "tqdm", "solve",
        "solve_limited", "KripkeModel", "speed_table", "read_table", "read_csv_checked",
        # the benchmark harness runs what it is given, in this or a fresh process
        # (tests/test_benchmarks.py checks it)
        "cold_run", "interleaved", "measure", "profile_summary", "warm_peak_mib", "write_rows",
        "schema_row", "Cold", "Method", "Task", "command_line",
        # they import every puzzle's declarations or write metadata in data/ (their arguments
        # are checked in tests/test_data_safety.py)
        "registered", "check_writable", "compute_table", "record_metadata", "read_long_run",
        "rebuilders", "table_list", "atomic_write",
        # the puzzlelab command and the notebook runner run notebooks, benchmarks and sweeps and
        # record times (tests/test_cli.py checks their arguments)
        "main", "run_notebook", "record_seconds"}


@pytest.mark.parametrize("module", SHARED)
def test_every_shared_module_declares_its_public_names(module):
    mod = importlib.import_module(f"puzzlelab.{module}")
    assert mod.__all__ and all(hasattr(mod, n) for n in mod.__all__)


CALLS = [(m, name, f) for m in SHARED
         for name, f in public_callables(importlib.import_module(f"puzzlelab.{m}"))
         if name not in SKIP]


@pytest.mark.parametrize("module,name,f", CALLS, ids=[f"{m}.{n}" for m, n, _ in CALLS])
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(args=st.lists(any_value(), max_size=3))
def test_shared_functions_answer_or_refuse_clearly(module, name, f, args):
    well_behaved(f, *args, seconds=5)
