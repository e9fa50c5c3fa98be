"""The grid and smallest-announcement sweeps give the same table on any executor."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest

from puzzlelab.russian_cards import grid as rg
from puzzlelab.russian_cards import tables as rt


def _small(executor=None, workers=1) -> tuple[pd.DataFrame, pd.DataFrame]:
    grid = rg.decide_grid((1, 2), 9, executor=executor, workers=workers)
    return grid, rg.min_sizes(grid, 8, 0.5, executor=executor, workers=workers)


@pytest.fixture(scope="module")
def serial() -> tuple[pd.DataFrame, pd.DataFrame]:
    return _small()


def test_serial_sweep_is_verified(serial):
    grid, smallest = serial
    assert rg.verify_grid(grid).all() and len(smallest) == (grid[grid.n <= 8].status
                                                            == "solvable").sum()
    rg.check_min_sizes(smallest)
    assert list(grid.columns) == rg.GRID_COLUMNS


def test_process_pool_gives_the_serial_tables(serial):
    with ProcessPoolExecutor(2) as pool:
        got = _small(executor=pool)
    for ours, theirs in zip(got, serial):
        pd.testing.assert_frame_equal(ours, theirs)
    pd.testing.assert_frame_equal(_small(workers=2)[0], serial[0])


def test_dask_local_cluster_gives_the_serial_tables(serial):
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = _small(executor=client.get_executor())
    for ours, theirs in zip(got, serial):
        pd.testing.assert_frame_equal(ours, theirs)


def test_a_grid_of_other_settings_gets_its_own_name(tmp_path, monkeypatch):
    from puzzlelab import cache

    monkeypatch.setattr(cache, "DATA", tmp_path)
    grid = rt.grid_run(n_max=7, c=[1], workers=1)
    written = cache.read_csv_checked(tmp_path / "russian_cards_grid_n1_7_c1.csv")
    assert len(written) == len(grid) == len(rg.cells(1, 7))
    assert list(written.columns) == rg.GRID_COLUMNS
    assert not (tmp_path / "russian_cards_grid.csv").exists()  # a smaller grid has its own name
