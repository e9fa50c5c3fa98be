"""Sweeps serially and on a 2-worker Dask LocalCluster: time, speed-up, and the same answer.

One sweep of each kind (a grid of Russian Cards cells, hat optima, Hanabi capacity samples,
Kemps tournament games, code-breaking analyses over coin-game sizes), each run serially and then on
the cluster's executor, interleaved (serial, cluster, serial, cluster). Writes
data/bench_sweeps.csv. The cluster's start-up is timed once, apart. Needs puzzlelab[cluster].
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import pandas as pd

from puzzlelab.timing import COLUMNS, _add_ratios, write_rows

REPEATS = 1 if os.environ.get("PUZZLELAB_BENCH_QUICK") else 2


def _sweeps() -> dict[str, Callable[..., pd.DataFrame]]:
    """Each kind of sweep as f(executor) -> table (imports here: a puzzle may be slow to load)."""
    from puzzlelab.codebreaking.notebook import coin_greedy_table
    from puzzlelab.hanabi.knowledge import hint_capacity_study
    from puzzlelab.hats.notebook import optimum_rows
    from puzzlelab.kemps import tournament
    from puzzlelab.russian_cards.grid import decide_grid

    return {
        "Russian Cards grid, c = 1, n <= 11 (cells)": lambda ex: decide_grid((1,), 11, executor=ex),
        "hat optima, M = 2, N = 2..6 (worlds)": lambda ex: optimum_rows(
            [(n, 2) for n in range(2, 7)], executor=ex),
        "Hanabi hint capacity, 2 x 5 x 2 points x 60 tables": lambda ex: hint_capacity_study(
            (4, 5), tuple(range(5)), (0, 25), samples=60, executor=ex),
        "Kemps tournament, 300 games per line-up": lambda ex: tournament(
            games=300, executor=ex),
        "code breaking, greedy strategies over coin games of 1..10 coins": lambda ex: (
            coin_greedy_table(10, executor=ex)),
    }


def _timed(f: Callable[[], pd.DataFrame]) -> tuple[float, pd.DataFrame]:
    start = time.perf_counter()
    table = f()
    return time.perf_counter() - start, table


def _row(case: str, method: str, role: str, times: list[float], same: bool, note: str) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`), warm figures only."""
    row = dict.fromkeys(COLUMNS)
    row.update(puzzle="sweeps", case=case, method=method, role=role, like_for_like="yes",
               result="same table" if same else "DIFFERENT TABLE", finished="yes",
               cold_reps=0, warm_min_s=min(times), warm_median_s=statistics.median(times),
               reps=len(times), cores=os.cpu_count(), load_1min=round(os.getloadavg()[0], 2),
               note=note)
    return row


def main() -> None:
    from dask.distributed import Client, LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    client = Client(cluster)
    startup = time.perf_counter() - start
    executor = client.get_executor()
    rows = []
    try:
        for name, run in _sweeps().items():
            serial, parallel, same = [], [], True
            for _ in range(REPEATS):  # interleaved: serial, cluster, serial, cluster
                t, expected = _timed(lambda: run(None))
                serial.append(t)
                t, got = _timed(lambda: run(executor))
                parallel.append(t)
                same = same and got.equals(expected)
            if not same:
                raise SystemExit(f"{name}: the cluster's table differs from the serial one")
            rows.append(_row(name, "2-worker Dask LocalCluster", "subject", parallel, same,
                             f"cluster started once beforehand in {startup:.1f} s"))
            rows.append(_row(name, "serial, one process", "baseline", serial, same,
                             "the same sweep with executor=None"))
            print(f"{name}: serial {min(serial):.2f} s, cluster {min(parallel):.2f} s", flush=True)
    finally:
        client.close()
        cluster.close()
    for case in {r["case"] for r in rows}:
        _add_ratios([r for r in rows if r["case"] == case])
    write_rows(rows, "bench_sweeps")


if __name__ == "__main__":
    main()
