"""The shared pieces: input checks, bit sets, proof records, citations, caches and sweeps."""

from __future__ import annotations

import functools
import gc
import time
import warnings
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab import bitsets, cache, checks, paths, proofs, sources, sweeps


# --- checks -------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [3, np.int64(3), np.uint8(3), np.int32(3)])
def test_integers_of_every_integer_type_are_accepted(value):
    out = checks.integer(value, "n", low=1, high=5)
    assert out == 3 and type(out) is int


@pytest.mark.parametrize("value", [True, 3.0, "3", None, [3]])
def test_other_kinds_are_type_errors_that_are_also_value_errors(value):
    with pytest.raises(TypeError, match="n must be an integer"):
        checks.integer(value, "n")
    with pytest.raises(ValueError):
        checks.integer(value, "n")


def test_out_of_range_names_the_argument_and_the_range():
    with pytest.raises(ValueError, match="n must be an integer between 1 and 5, got 7"):
        checks.integer(7, "n", low=1, high=5)


def test_choice_boolean_number_seed():
    assert checks.choice("worst", "measure", ("worst", "average")) == "worst"
    with pytest.raises(ValueError, match="measure must be one of 'worst', 'average'"):
        checks.choice("best", "measure", ("worst", "average"))
    with pytest.raises(ValueError):
        checks.choice([1], "measure", {"a"})  # unhashable
    assert checks.boolean(np.bool_(True), "flag") is True
    for bad in ("no", 0, None):
        with pytest.raises(TypeError):
            checks.boolean(bad, "flag")
    assert checks.number(2, "t", low=0) == 2.0 and checks.number(None, "t", allow_none=True) is None
    for bad in (float("nan"), -1):
        with pytest.raises(ValueError):
            checks.number(bad, "t", low=0)
    with pytest.raises(ValueError, match="seed must be an integer at least 0"):
        checks.seed(-1)
    assert checks.integers([1, np.int8(2)], "deck", low=1) == (1, 2)
    with pytest.raises(TypeError):
        checks.integers("123", "deck")


def test_within_budget_refuses_before_work_and_names_the_limit():
    checks.within_budget("small", 10, 100)
    with pytest.raises(ValueError, match=r"about 16 GiB, more than the limit of 8 GiB; the largest"):
        checks.within_budget("big table", 16 * 2**30, checks.MEMORY_BUDGET, largest="N = 5")


# --- bit sets ------------------------------------------------------------------------------------
@given(st.sets(st.integers(0, 200)))
def test_bits_and_from_bits_are_inverse(items):
    mask = bitsets.from_bits(items)
    assert list(bitsets.bits(mask)) == sorted(items)
    assert mask.bit_count() == len(items)


@given(st.lists(st.integers(0, 2**70)))
def test_union_is_the_fold_of_or(masks):
    expected = 0
    for m in masks:
        expected = expected | m
    assert bitsets.union(masks) == expected
    assert bitsets.full(5) == bitsets.from_bits(range(5))


# --- proofs and citations ------------------------------------------------------------------------
def test_proof_kinds_are_a_closed_vocabulary():
    assert proofs.Proof.lemma("Lemma A").kind == "lemma"
    assert not proofs.Proof.open("cut short").settled and proofs.Proof.solver("x").settled
    assert str(proofs.Proof.exhaustive("all 16 deals")) == "exhaustive: all 16 deals"
    with pytest.raises(ValueError, match="proof kind must be one of"):
        proofs.Proof("guess", "")


def test_every_source_document_has_a_key_and_its_file_is_found_by_key(tmp_path, monkeypatch):
    assert len(sources.SOURCE_DOCUMENTS) == 5
    for key, ref in sources.SOURCE_DOCUMENTS.items():
        assert ref.file
        if paths.source_available(ref.file):
            assert paths.source_text(key) == paths.source_text(ref.file)
    with monkeypatch.context() as patch:  # a sources folder whose every file names its key
        patch.setattr(paths, "SOURCES", (tmp_path,))
        for key, ref in sources.SOURCE_DOCUMENTS.items():
            (tmp_path / ref.file).write_text(key, encoding="utf-8")
        for key in sources.SOURCE_DOCUMENTS:
            assert paths.source_available(key) and paths.source_text(key) == key
    assert sources.cite("janssen2017") == "Janssen (2017)"
    with pytest.raises(ValueError, match="unknown citation key"):
        sources.cite("nobody1900")
    table = sources.references_table()
    assert table["key"].is_unique and set(sources.REFERENCES) == set(table["key"])


# --- caches --------------------------------------------------------------------------------------
@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    return tmp_path


def test_a_cached_table_is_computed_once_then_read(data_dir):
    calls = []

    def compute():
        calls.append(1)
        return pd.DataFrame({"n": [1, 2, 3]})

    with pytest.warns(cache.CacheWarning, match="is missing"):
        first = cache.cached_table("t", compute)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = cache.cached_table("t", compute)
    assert calls == [1] and first.equals(second)


@pytest.mark.parametrize("damage", [
    lambda p: p.write_bytes(p.read_bytes()[:-3]),           # truncated mid-line
    lambda p: p.write_bytes(b"\x00\xff\xfe garbage"),       # binary garbage
    lambda p: p.write_text("n\n"),                          # header only
    lambda p: p.write_text("n\n1\n2\n3\n3\n"),              # a duplicated row
    lambda p: cache.checksum_path(p).unlink(),              # no checksum
])
def test_a_damaged_table_is_reported_and_recomputed(data_dir, damage):
    compute = lambda: pd.DataFrame({"n": [1, 2, 3]})  # noqa: E731
    cache.cached_table("t", compute, recompute=True)
    damage(cache.data_path("t"))
    with pytest.raises(ValueError, match=r"t\.csv"):
        cache.read_table("t")
    with pytest.warns(cache.CacheWarning, match=r"data/t\.csv"):
        again = cache.cached_table("t", compute)
    assert again["n"].tolist() == [1, 2, 3]


def test_verify_rechecks_what_a_table_claims(data_dir):
    def verify(df):
        if df["n"].sum() != 6:
            raise ValueError("the witness does not add up")

    cache.write_table(pd.DataFrame({"n": [1, 2, 4]}), "w")
    with pytest.warns(cache.CacheWarning, match="fails its check: the witness does not add up"):
        out = cache.cached_table("w", lambda: pd.DataFrame({"n": [1, 2, 3]}), verify=verify)
    assert out["n"].sum() == 6


def test_committed_tables_match_their_checksums_and_metadata():
    for csv in sorted(paths.DATA.glob("*.csv")):
        assert len(cache.read_table(csv.stem)) == cache.table_metadata(csv.stem)["rows"], csv.name


# --- sweeps --------------------------------------------------------------------------------------
def _square_row(p: int) -> dict:
    return {"p": p, "square": p * p}


def _noisy_row(p: tuple[int, int]) -> dict:
    value, seed = p
    return {"p": value, "draw": int(np.random.default_rng(seed).integers(1000))}


def test_sweeps_give_the_same_answer_serially_and_on_a_process_pool():
    params = list(range(10))
    assert sweeps.sweep(abs, [-3, 2, -1]) == [3, 2, 1]
    assert sweeps.sweep(_square_row, params, workers=2, chunk_size=3) == sweeps.sweep(_square_row, params)


def test_spawned_seeds_make_random_sweeps_executor_independent():
    seeds = sweeps.spawn_seeds(7, 6)
    assert seeds == sweeps.spawn_seeds(7, 6) and len(set(seeds)) == 6
    params = list(zip(range(6), seeds))
    assert sweeps.sweep(_noisy_row, params, workers=2) == sweeps.sweep(_noisy_row, params)


def _counting_row(p: int, log: list) -> dict:
    log.append(p)
    if p == 4 and len(log) < 10:
        raise KeyboardInterrupt  # stands for Ctrl-C after four finished chunks
    return _square_row(p)


def test_an_interrupted_table_sweep_resumes_without_recomputing(data_dir):
    log: list[int] = []
    task = functools.partial(_counting_row, log=log)
    with pytest.raises(KeyboardInterrupt):
        sweeps.sweep_table("demo", task, range(8), chunk_size=2)
    assert log == [0, 1, 2, 3, 4]
    log.extend([-1] * 5)  # lets p = 4 pass on the second run
    table = sweeps.sweep_table("demo", task, range(8), chunk_size=2)
    assert log[10:] == [4, 5, 6, 7]  # chunks (0, 1) and (2, 3) were read back, not recomputed
    assert table.equals(pd.DataFrame([_square_row(p) for p in range(8)]))
    assert not cache.partial_dir("demo").exists()


def test_sweeps_refuse_a_non_executor():
    with pytest.raises(TypeError, match="executor must be a concurrent.futures.Executor"):
        sweeps.sweep(abs, [1], executor="dask")


def test_sweeps_on_a_dask_local_cluster_match_the_serial_result(data_dir):
    distributed = pytest.importorskip(
        "distributed", reason="Dask not installed: pip install 'puzzlelab[cluster]' to run this test")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        params = list(zip(range(6), sweeps.spawn_seeds(3, 6)))
        assert sweeps.sweep(_noisy_row, params, executor=executor) == sweeps.sweep(_noisy_row, params)
        table = sweeps.sweep_table("dask_demo", _square_row, range(7), executor=executor, chunk_size=2)
    assert table.equals(pd.DataFrame([_square_row(p) for p in range(7)]))


def test_a_finished_task_is_let_go_before_the_sweep_ends():
    """Its result is not kept (on a Dask worker, in its memory) until the last task is done."""
    watched: list[weakref.ref] = []

    class Watching(ThreadPoolExecutor):
        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            watched.append(weakref.ref(future))
            return future

    def first_is_gone(p: int) -> bool:
        deadline = time.monotonic() + 10
        while p and time.monotonic() < deadline:  # the first task's future, while this one runs
            gc.collect()
            if watched[0]() is None:
                return True
            time.sleep(0.01)
        return not p

    with Watching(1) as executor:
        assert sweeps.sweep(first_is_gone, [0, 1], executor=executor) == [True, True]


def test_the_commands_local_cluster_is_quiet_and_gives_the_same_answer(data_dir):
    distributed = pytest.importorskip("distributed", reason="Dask not installed: pip install "
                                      "'puzzlelab[cluster]' to run this test")
    import dask

    before = dask.config.get("distributed.admin.tick.interval")
    with sweeps.local_cluster(2) as cluster, distributed.Client(cluster) as client:
        settings = client.run(_dask_settings)
        params = list(zip(range(6), sweeps.spawn_seeds(5, 6)))
        on_dask = sweeps.sweep(_noisy_row, params, executor=client.get_executor())
    assert len(settings) == 2 and set(settings.values()) == {(False, "1s")}
    assert on_dask == sweeps.sweep(_noisy_row, params)
    assert dask.config.get("distributed.admin.tick.interval") == before  # only the cluster's


def _dask_settings() -> tuple:
    import dask

    return (dask.config.get("distributed.worker.profile.enabled"),
            dask.config.get("distributed.admin.tick.interval"))


def test_a_local_cluster_beyond_the_worker_limit_is_refused_before_it_starts():
    with pytest.raises(ValueError, match="more than the limit"):
        sweeps.local_cluster(checks.worker_limit() + 1)


def test_a_display_table_index_must_name_a_column():
    """Found by the fuzz: a list as `index` reached pandas (unhashable type: 'list')."""
    from puzzlelab import display
    with pytest.raises(checks.ArgumentTypeError, match="index must name a column"):
        display.table(pd.DataFrame({"a": [1]}), index=[1.5, "a"])


def test_a_deferred_function_calls_one_imported_from_another_module(tmp_path, monkeypatch):
    """puzzlelab.jit: a compiled function may call one that its module imported from another
    module of compiled functions (the code-breaking engine is split so); both made at once."""
    import importlib
    import sys

    from puzzlelab.jit import Deferred

    (tmp_path / "jit_lower.py").write_text(
        "from puzzlelab.jit import njit\n\n@njit()\ndef inc(x):\n    return x + 1\n")
    (tmp_path / "jit_upper.py").write_text(
        "from puzzlelab.jit import njit\nfrom jit_lower import inc\n\n"
        "@njit()\ndef twice_inc(x):\n    return 2 * inc(x)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    upper = importlib.import_module("jit_upper")
    assert isinstance(upper.inc, Deferred) and isinstance(upper.twice_inc, Deferred)
    assert upper.twice_inc(3) == 2 * (3 + 1)
    lower = sys.modules["jit_lower"]
    assert not isinstance(upper.inc, Deferred) and upper.inc is lower.inc  # numba's, shared
    monkeypatch.delitem(sys.modules, "jit_upper")
    monkeypatch.delitem(sys.modules, "jit_lower")


def test_a_chunk_code_hash_survives_the_parsers_spurious_system_error(monkeypatch):
    """CPython 3.11's parser can refuse a fine source once with SystemError (its recursion-depth
    check upset by a finalizer mid-parse): the code hash parses again and gets the same hash."""
    import ast

    from puzzlelab import sweep_chunks

    expected = sweep_chunks.code_hash(sweeps.sweep)
    real, refused = ast.parse, []

    def once_refused(source, *args, **kwargs):
        if not refused:
            refused.append(True)
            raise SystemError("AST constructor recursion depth mismatch (before=24, after=27)")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", once_refused)
    assert sweep_chunks.code_hash(sweeps.sweep) == expected and refused
