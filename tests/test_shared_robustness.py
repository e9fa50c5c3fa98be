"""Hostile-but-fair calls to every public function of the shared modules: a result, a
ValueError or a TypeError (never another exception), within a time limit."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, refused_quickly, well_behaved

SHARED = ["bitsets", "checks", "proofs", "sources", "sweeps", "solvers", "epistemic", "timing",
          "paths", "progress", "figures", "widgets", "cache", "exact_sums", "display", "runner",
          "cli", "atomic_io", "table_files", "table_reports", "declarations", "registry"]
# Functions that act on the world (write files, open widgets, start clusters) are left out:
# their arguments are checked in their own tests.
SKIP = {"write_table", "write_csv", "cached_table", "cached_source_table", "save_figure",
        "finish", "interact_safely", "show_safely", "static_explorer", "executor_from_arguments",
        "local_cluster",
        "add_executor_arguments", "sweep_table", "sweep", "tqdm", "read_table",
        "read_csv_checked",
        # the benchmark harness writes data/bench_*.csv (tests/test_benchmarks.py checks it)
        "write_rows", "command_line",
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


# --- issue 27: the shared helpers refuse sizes up front and name every wrong kind -----------------
import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

from puzzlelab import (  # noqa: E402
    bitsets, checks, display, exact_sums, figures, proofs, solvers, sources, timing, widgets)


def test_issue27_bitsets_refuse_what_never_ends_and_read_numpy_integers():
    refused_quickly(lambda: list(bitsets.bits(-1)), ValueError, "mask")
    refused_quickly(lambda: bitsets.bits(-1), ValueError, "mask")  # at the call, not when read
    assert list(bitsets.bits(np.int64(5))) == [0, 2] == list(bitsets.bits(5))
    refused_quickly(lambda: bitsets.from_bits(None), TypeError, "items")
    refused_quickly(lambda: bitsets.full(10**20), ValueError, "more than the limit")
    refused_quickly(lambda: bitsets.union([1, None]), TypeError, "mask")


@pytest.fixture
def figure(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    monkeypatch.setattr(figures, "FIGURES", tmp_path)
    fig = plt.figure(figsize=(6.4, 4.8))
    yield fig
    plt.close(fig)


def test_issue27_save_figure_refuses_a_huge_or_fractional_dpi_before_drawing(figure, tmp_path):
    err = refused_quickly(lambda: figures.save_figure(figure, "x", dpi=10**6), ValueError, "dpi")
    assert "TiB" in str(err) and not list(tmp_path.iterdir())
    refused_quickly(lambda: figures.save_figure(figure, "x", dpi=1.5), TypeError, "dpi")
    refused_quickly(lambda: figures.finish([], "x"), TypeError, "fig")
    assert [p.suffix for p in figures.save_figure(figure, "x", dpi=20)] == [".png", ".svg"]


def _model() -> cp_model.CpModel:
    m = cp_model.CpModel()
    m.add(m.new_int_var(0, 3, "x") >= 1)
    return m


@pytest.mark.parametrize("options, kind, words", [
    (dict(seed=1.5), TypeError, "seed"),
    (dict(workers=1.5), TypeError, "workers"),
    (dict(workers=10**6), ValueError, "workers"),
    (dict(deterministic_limit=math.nan), ValueError, "deterministic_limit"),
])
def test_issue27_cp_sat_options_of_the_wrong_kind_are_refused(options, kind, words):
    refused_quickly(lambda: solvers.solve(_model(), **options), kind, words)


def test_issue27_solve_names_a_missing_model():
    refused_quickly(lambda: solvers.solve(None), TypeError, "model must be a CP-SAT CpModel")
    assert solvers.solve(_model()).status == "OPTIMAL"


def _sums() -> "pd.DataFrame":
    """Two blocks of exact sums over one key (what `exact_sums.merge_sums` adds up)."""
    import pandas as pd

    return pd.DataFrame({"scope": ["a", "a"], "deals": [2, 3], "total": [4, 5],
                         "squares": [10, 11], "denominator": [1, 1]})


@pytest.mark.parametrize("call, words", [
    (lambda: timing.timed(None), "f must be a function"),
    (lambda: timing.best_of("x"), "f must be a function"),
    (lambda: timing.best_of(abs, repeat=np.arange(2)), "repeat"),
    (lambda: timing.interleaved("ab", 1), "calls must map"),
    (lambda: timing.warm_peak_mib(3), "f must be a function"),
    (lambda: timing.cold_run({"a": 1}), "task must be a Task"),
    (lambda: timing.profile_summary(Ellipsis), "task must be a function"),
    (lambda: timing.Task(1, "sqrt"), "Task.module"),
    (lambda: timing.Cold(1j, 1.0, None, ""), "Cold.seconds"),
    # fuzz, long run on eccd36a (call 6641): a Generator as a measure was formatted (TypeError)
    (lambda: timing.write_rows([{"times_subject": np.random.default_rng(0)}], "x"),
     r"rows\[0\]\['times_subject'\] must be a number"),
    (lambda: proofs.Proof("lemma", 3), "Proof.detail"),
    (lambda: exact_sums.merge_sums(_sums(), np.True_), "keys must be a list or tuple"),
    (lambda: exact_sums.merge_sums(_sums(), ["scope", 2]), r"keys\[i\] must be a string"),
    (lambda: widgets.Picture(np.float64(2.0), "a figure"), "path must be a path"),
    (lambda: display.Table(1000000, np.int64(10**12)), "frame must be a table"),
    (lambda: display.meaningless_index("3"), "frame must be a table"),
    (lambda: display.table(_sums(), 3), "names must map column names"),
    (lambda: figures.FigureText("a", 1.0, abs), "figure_points must be a number"),
    (lambda: sources.bibliography_markdown(frozenset({-1})), "site must be True or False"),
    (lambda: sources.source_of_notebook([]), "name must be a string"),
    (lambda: exact_sums.ratio_ci_from_sums(9, 2**63, (3, 3), 6), "a must be a pair"),
    (lambda: checks.table(_sums(), "sums", 1000000), "columns must be a list or tuple"),
])
def test_issue27_wrong_kinds_are_argument_type_errors_naming_the_argument(call, words):
    err = refused_quickly(call, checks.ArgumentTypeError, words)
    assert isinstance(err, ValueError) and isinstance(err, TypeError)


def test_issue27_interleaved_names_labels_without_a_count():
    refused_quickly(lambda: timing.interleaved({"A": abs, "B": abs}, {"A": 1}), ValueError, "'B'")


def test_issue27_record_checks_each_field_against_its_hint():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Cell:
        a: int
        cards: tuple[int, ...]
        note: str | None = None

        def __post_init__(self) -> None:
            checks.record(self)

    assert Cell(np.int64(3), (1, 2)).a == 3
    refused_quickly(lambda: Cell(1.5, ()), TypeError, "Cell.a must be an integer")
    refused_quickly(lambda: Cell(1, [1]), TypeError, "Cell.cards must be a tuple")
    refused_quickly(lambda: Cell(1, (1, "x")), TypeError, r"Cell.cards\[1\]")
    refused_quickly(lambda: Cell(1, (1, np.int64(2), 3.0, 4)), TypeError, r"Cell.cards\[2\]")
    assert Cell(1, (1, np.int64(2), 3)).cards[1] == 2  # numpy integers pass the quick test too
    refused_quickly(lambda: Cell(1, (), 3), TypeError, "Cell.note must be str | None")


def test_issue27_estimates_cost_nothing_whatever_the_size():
    assert checks.binomial(20, 10) == math.comb(20, 10)
    assert checks.multinomial([3, 3, 1]) == math.factorial(7) / (6 * 6)
    start = time.perf_counter()
    assert checks.binomial(10**20, 10**10) == math.inf and checks.power(2, 10**20) == math.inf
    assert checks.multinomial([10**20, 3, 1]) > 1e78
    assert time.perf_counter() - start < 0.1


def test_issue27_a_kripke_model_prints_as_its_size():
    """Its cells in full grew as worlds squared (45,045 deals of (6, 1, 8) printed for minutes)."""
    from puzzlelab import epistemic

    worlds = range(20_000)
    model = epistemic.KripkeModel.from_observations(worlds, {"Anne": lambda w: w % 2,
                                                             "Bill": lambda w: w % 3})
    assert repr(model) == "KripkeModel(20000 worlds, agents ['Anne', 'Bill'])"


def test_issue27_a_choice_among_a_mappings_keys_lists_them():
    """Options given as a dict (a table of strategies) are its keys, in the message too."""
    assert checks.choice("a", "strategy", {"a": abs, "b": abs}) == "a"
    refused_quickly(lambda: checks.choice("random", "strategy", {"a": abs, "b": abs}),
                    ValueError, "strategy must be one of 'a', 'b'; got 'random'")



# --- issue 27: cache, paths and sweeps (once exempt from the fuzz) refuse bad arguments -----------
import argparse  # noqa: E402

import pandas as pd  # noqa: E402

from puzzlelab import cache, paths, sweeps  # noqa: E402


@pytest.fixture
def scratch_data(tmp_path, monkeypatch):
    """data/ in a temporary folder: a call that is not refused writes nothing committed."""
    monkeypatch.setattr(cache, "DATA", tmp_path / "data")
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    return tmp_path / "data"


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"n": [1, 2]})


@pytest.mark.parametrize("call, words", [
    # a context manager was returned for anything, and the arguments read only on entering it
    (lambda: sweeps.executor_from_arguments(3), "args must be parsed arguments"),
    (lambda: sweeps.executor_from_arguments(argparse.Namespace(workers=1, connect_timeout="5")),
     "--connect-timeout must be a number"),
    (lambda: sweeps.executor_from_arguments(argparse.Namespace(workers=1, scheduler=2)),
     "--scheduler must be a string"),
    # AttributeErrors and plain TypeErrors
    (lambda: sweeps.add_executor_arguments([]), "parser must be an argparse.ArgumentParser"),
    (lambda: sweeps.command_line(3), "main must be a function"),
    (lambda: sweeps.CommandParser(prefix_chars=3), "prefix_chars must be a string"),
    (lambda: sweeps.CommandParser(parents=[1]), r"parents\[0\] must be an argparse"),
    # accepted without complaint
    (lambda: sweeps.CommandParser(description=(3, 3)), "description must be a string"),
    (lambda: sweeps.CommandParser(formatter_class=-7), "formatter_class must be"),
    (lambda: sweeps.CommandParser(add_help="yes"), "add_help must be True or False"),
    (lambda: sweeps.sweep(abs, [1], desc=math.nan), "desc must be a string"),
    (lambda: paths.source_text(2.0), "name must be a string"),
    (lambda: paths.source_available([1]), "name must be a string"),
    (lambda: cache.recompute_requested([-1, 2]), "name must be a string"),
    (lambda: cache.recompute_requested(-0.0), "name must be a string"),
])
def test_issue27_the_shared_command_line_helpers_name_a_wrong_kind(call, words):
    err = refused_quickly(call, checks.ArgumentTypeError, words)
    assert isinstance(err, ValueError) and isinstance(err, TypeError)


@pytest.mark.parametrize("call, words", [
    (lambda: cache.compute_table("t", math.nan), "compute must be a function"),
    (lambda: cache.compute_table("t", _frame, verify=".hidden"), "verify must be a function"),
    (lambda: cache.cached_table("t", {1, 2}), "compute must be a function"),
    (lambda: cache.cached_table("t", _frame, recompute="yes"), "recompute must be True or False"),
    (lambda: cache.cached_source_table("t", np.float32(0.5), lambda text: _frame()),
     "source must be a string"),
    (lambda: cache.cached_source_table("t", "janssen2017", 3), "parse must be a function"),
    (lambda: sweeps.sweep_table("t", abs, [1], keep_partial="no"), "keep_partial must be True"),
    (lambda: sweeps.sweep_table("t", abs, [1], desc=1.5), "desc must be a string"),
])
def test_issue27_caches_and_sweep_tables_check_their_functions_before_any_work(
        call, words, scratch_data):
    refused_quickly(call, checks.ArgumentTypeError, words)
    assert not scratch_data.exists() or not any(scratch_data.rglob("*.csv"))


def test_issue27_cached_table_checks_compute_even_when_the_table_is_cached(scratch_data):
    """A cache hit returned the table whatever `compute` and `verify` were."""
    with pytest.warns(cache.CacheWarning, match="missing"):
        cache.cached_table("t", _frame)
    refused_quickly(lambda: cache.cached_table("t", "not a function"), checks.ArgumentTypeError,
                    "compute must be a function")
    refused_quickly(lambda: cache.cached_table("t", _frame, verify=2), checks.ArgumentTypeError,
                    "verify must be a function")


def test_issue27_a_source_name_is_a_plain_file_name():
    """A name reaching outside the sources folders is refused, not looked up there."""
    for name in ("../escape", "a/b", ".hidden", ""):
        refused_quickly(lambda: paths.source_available(name), ValueError, "citation key")


def test_issue27_a_sweep_task_whose_rows_are_of_the_wrong_kind_is_named(scratch_data):
    """It was a plain TypeError."""
    err = refused_quickly(lambda: sweeps.sweep_table("t", _one_tuple, [1, 2]),
                          checks.ArgumentTypeError, "task must return a DataFrame")
    assert "tuple" in str(err)


def _one_tuple(p: int) -> tuple:
    return (p,)


def test_issue27_spawn_seeds_refuses_more_seeds_than_it_can_make_in_seconds():
    """2**63 seeds was an OverflowError, 10**7 ran for minutes."""
    for count in (2**63, 10**7):
        refused_quickly(lambda: sweeps.spawn_seeds(0, count), ValueError, "more than the limit")
    assert len(set(sweeps.spawn_seeds(0, 5))) == 5


def test_issue27_read_long_run_checks_verify_when_the_table_was_never_run(scratch_data):
    """read_long_run took any `verify` when the table was never run."""
    table = cache.Table("never_run", long_run=True)
    assert cache.read_long_run(table) is None
    refused_quickly(lambda: cache.read_long_run(table, verify=1 + 1j), checks.ArgumentTypeError,
                    "verify must be a function")


def test_issue27_write_csv_checks_its_metadata_before_writing(scratch_data):
    """Metadata that JSON cannot hold was a plain TypeError."""
    path = scratch_data / "t.csv"
    refused_quickly(lambda: cache.write_csv(_frame(), path, {"table": _frame()}),
                    checks.ArgumentTypeError, "metadata must be plain data")
    assert not path.exists() and not cache.checksum_path(path).exists()
    cache.write_csv(_frame(), path, {"sweep": "t", "rows": [1, 2]})
    pd.testing.assert_frame_equal(cache.read_csv_checked(path, {"sweep": "t"}), _frame())


def _nothing() -> int:
    return 0


def _two(a: int, b: int) -> int:
    return a + b


class _Local:  # defined here: a test module's class pickles, so it is made unpicklable below
    def __reduce__(self):
        raise TypeError("cannot pickle '_Local' object")


def _local(p: int) -> _Local:
    return _Local()


def test_issue27_a_sweep_task_of_the_wrong_arity_is_refused_before_it_runs():
    """A task of no parameter, or of two, was called and failed with a plain TypeError."""
    refused_quickly(lambda: sweeps.sweep(_nothing, [1]), checks.ArgumentTypeError,
                    "task must be a function of one parameter")
    refused_quickly(lambda: sweeps.sweep(_two, [1]), checks.ArgumentTypeError,
                    r"task must be a function of one parameter, got _two\(a")
    assert sweeps.sweep(abs, [-2]) == [2] and sweeps.sweep(int, ["3"]) == [3]


@pytest.mark.parametrize("task, params, words", [
    (abs, [1, _Local()], "params must be picklable"),
    (lambda p: p, [1, 2], "task must be picklable"),
    (_local, [1, 2], "task must return picklable results"),
])
def test_issue27_what_cannot_go_to_a_worker_process_is_named(task, params, words):
    """It was a plain TypeError (cannot pickle ...) from the pool; two tiny tasks on 2 workers."""
    refused_quickly(lambda: sweeps.sweep(task, params, workers=2), checks.ArgumentTypeError,
                    words, seconds=60)


def test_issue27_a_csv_path_must_name_a_file(scratch_data):
    """read_csv_checked('') was an IsADirectoryError (the empty path is the current folder)."""
    scratch_data.mkdir(parents=True)
    for path in ("", scratch_data):
        refused_quickly(lambda: cache.read_csv_checked(path), ValueError, "must name a file")
        refused_quickly(lambda: cache.write_csv(_frame(), path), ValueError, "must name a file")
    assert not any(scratch_data.iterdir())


def test_issue27_a_tables_seconds_are_a_number(scratch_data):
    """write_table(seconds=True) wrote True as the seconds."""
    refused_quickly(lambda: cache.write_table(_frame(), "t", seconds=True),
                    checks.ArgumentTypeError, "seconds must be a number")
    refused_quickly(lambda: cache.write_table(_frame(), "t", seconds=-1.0), ValueError,
                    "seconds must be a number between 0")
    assert not cache.data_path("t").exists()
    cache.write_table(_frame(), "t", seconds=2.5)
    assert cache.table_metadata("t")["seconds"] == 2.5
    refused_quickly(lambda: cache.record_metadata("t", seconds="2"), checks.ArgumentTypeError,
                    "seconds must be a number")
    refused_quickly(lambda: cache.record_metadata("t", computed_at=2), checks.ArgumentTypeError,
                    "computed_at must be a string")


def test_issue27_a_file_in_the_way_of_a_folder_is_named(tmp_path):
    """atomic_write under a file was a FileExistsError."""
    (tmp_path / "a").write_bytes(b"")
    refused_quickly(lambda: cache.atomic_write(tmp_path / "a" / "b", b"ab"), ValueError,
                    "a file stands where a folder")


def test_an_instance_check_needs_a_kind_that_is_a_type():
    """Fuzz finding: checks.instance with a kind that is no type was isinstance's TypeError."""
    from puzzlelab import checks

    with pytest.raises(checks.ArgumentTypeError, match="kind must be a type"):
        checks.instance(1, "x", True, "a number")
    with pytest.raises(checks.ArgumentTypeError, match="x must be a text"):
        checks.instance(1, "x", str, "a text")
    assert checks.instance(1, "x", (int, float), "a number") == 1


def test_sum_row_takes_any_one_dimensional_integer_sequence():
    """Fuzz, long run on 6be2460 (call 4583): a list of integers is a kind sum_row accepts (as its
    hint now says), with the row of the same integers as an array; text is refused."""
    keys = {"case": "x"}
    assert exact_sums.sum_row(keys, [-1, 2], 3) == exact_sums.sum_row(keys, np.array([-1, 2]), 3)
    with pytest.raises(ValueError, match="s must be"):
        exact_sums.sum_row(keys, "12", 3)


@pytest.mark.parametrize("links", [{}, {"url": "https://example.org/x", "offline": "why"}])
def test_a_reference_gives_either_an_address_or_why_it_has_none(links):
    with pytest.raises(ValueError, match="either where to read it"):
        sources.Reference("x2000", "X", "A title", "2000", "a venue", **links)
