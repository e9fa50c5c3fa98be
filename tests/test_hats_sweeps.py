"""The hats sweeps (optima over (N, M), maximal-set counts) give the serial answer anywhere."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest

from puzzlelab import cache
from puzzlelab.hats import tables

SMALL = [(2, 2), (3, 2), (2, 3), (3, 3), (2, 4)]


def test_optima_sweep_on_a_process_pool_equals_the_serial_sweep():
    serial = tables.optimum_rows(SMALL)
    with ProcessPoolExecutor(2) as pool:
        pooled = tables.optimum_rows(SMALL, executor=pool)
    pd.testing.assert_frame_equal(serial, pooled)
    assert list(zip(serial.n_players, serial.n_colors)) == SMALL  # ordered by case, not completion
    cached = tables.optimum_table().set_index(["n_players", "n_colors"])
    for row in serial.to_dict("records"):  # and equal to the rows of the cached table
        assert cached.loc[(row["n_players"], row["n_colors"])].lower == row["lower"]


def test_maximal_set_rows_are_the_same_on_two_workers(tmp_path, monkeypatch):
    committed = tables.maximal_distribution()  # data/hats_maximal_sets.csv, as committed
    monkeypatch.setattr(cache, "DATA", tmp_path)  # an empty data/: the table is computed anew
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    monkeypatch.delenv(cache.CHANGES_ENV, raising=False)
    with pytest.warns(cache.CacheWarning, match="missing: computing it now"):
        pooled = tables.maximal_distribution(workers=2)
    pd.testing.assert_frame_equal(pooled, committed)


def test_optima_sweep_on_a_dask_local_cluster_equals_the_serial_sweep():
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = tables.optimum_rows(SMALL[:3], executor=client.get_executor())
    pd.testing.assert_frame_equal(tables.optimum_rows(SMALL[:3]), on_dask)


def test_other_cases_are_written_under_their_own_name(tmp_path, monkeypatch):
    cached = tables.optimum_table()  # the default cases are the cached table's worlds
    assert list(zip(cached.n_players, cached.n_colors)) == tables.optimum_cases()
    monkeypatch.setattr(cache, "DATA", tmp_path)
    tables.optima_run(max_n=2, workers=2)
    table = cache.read_table("hats_optima_max_n2")
    assert list(zip(table.n_players, table.n_colors)) == tables.optimum_cases(2)
    pd.testing.assert_frame_equal(table, tables.optimum_rows(tables.optimum_cases(2)))
    assert not (tmp_path / "hats_optima.csv").exists()  # the notebook's table is never a subset
