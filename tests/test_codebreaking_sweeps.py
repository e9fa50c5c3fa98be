"""Sweeps over code-breaking game sizes give the same table whatever runs them (serial, a process
pool, a Dask LocalCluster), and the command line writes the notebook's tables."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest

from puzzlelab import cli
from puzzlelab.codebreaking import tables

SMALL_SWEEPS = [
    lambda **kw: tables.strategies_table([("Mastermind", 2, 3), ("coin", 4, 0),
                                            ("bags of gold", 3, 2)], **kw),
    lambda **kw: tables.optimal_table([("Mastermind", 2, 3, "worst"), ("coin", 5, 0, "average"),
                                         ("Mastermind", 2, 3, "average", 3)], **kw),
    lambda **kw: tables.symmetry_table([("coin", 4, 0, "average")], **kw),
    lambda **kw: tables.coin_table((1, 2), **kw),
    lambda **kw: tables.coin_greedy_table(5, **kw),
]


@pytest.mark.parametrize("table", SMALL_SWEEPS)
def test_a_two_worker_process_pool_gives_the_serial_table(table):
    serial = table()
    with ProcessPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(table(executor=pool), serial)
    pd.testing.assert_frame_equal(table(workers=2), serial)


def test_a_dask_local_cluster_gives_the_serial_table():
    distributed = pytest.importorskip("distributed", reason="Dask is the optional extra "
                                      "puzzlelab[cluster]; not installed here")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor = client.get_executor()
        for table in SMALL_SWEEPS[:2]:
            pd.testing.assert_frame_equal(table(executor=executor), table())


def test_the_sweeps_rows_are_the_cached_tables_rows():
    games = [("Mastermind", 3, 3), ("coin", 12, 0)]
    fresh = tables.strategies_table(games)
    cached = tables.cached("codebreaking_strategies")
    names = set(fresh.game)
    pd.testing.assert_frame_equal(cached[cached.game.isin(names)].reset_index(drop=True),
                                  fresh, check_dtype=False)


def test_compute_writes_the_table_it_names(tmp_path, monkeypatch):
    from puzzlelab import cache

    committed = tables.cached("codebreaking_dyson")
    monkeypatch.setattr(cache, "DATA", tmp_path)
    assert cli.main(["compute", "codebreaking_dyson", "--workers", "2"]) == 0
    pd.testing.assert_frame_equal(cache.read_table("codebreaking_dyson"), committed)
    assert [p.name for p in tmp_path.glob("*.csv")] == ["codebreaking_dyson.csv"]
