"""Sweeps serially, on a 2-process local pool and on a 2-worker Dask LocalCluster: wall and CPU.

One sweep of each puzzle (a Russian Cards grid, hat optima, Hanabi capacity samples, code-breaking
analyses over coin games, and the Kemps sums over deals of Greedy self-play on 28 cards, the long
one: about 70 s serial), each run serially, on `workers=2` (the library's local pool) and on a
2-worker cluster given as `executor=`: `sweeps.local_cluster(2)`, the LocalCluster
(threads_per_worker=1, processes) that `--scheduler local` runs on. The Kemps sums also run on a
LocalCluster with Dask's default settings, in tasks of 500 deals (the old task size),
and on a 1-worker cluster (against serial). Methods take turns, `REPEATS` times; every run must
give the serial table.

Every run is a fresh interpreter (`--run CASE METHOD`), so that a pool forked from this process
inherits no module caches filled by an earlier run and no idle cluster shares the cores. Wall
time is the sweep call. CPU time is the run's process (getrusage; the Dask scheduler, nannies
and client live there) plus the pool's processes (getrusage of the reaped children) or the Dask
workers (getrusage in each, before and after). A Dask run starts its cluster before the clock
starts (the start-up is noted, not counted) and includes what its fresh workers do first
(imports, compiled code loaded from numba's cache). The load average is noted with every run.

Writes data/bench_sweeps.csv (schema `puzzlelab.timing.COLUMNS`; warm_min_s and warm_median_s
are wall times, the note lists every run's wall, CPU and load). One command:
`python benchmarks/bench_sweeps.py`, about 17 minutes on a quiet 2-core machine
(PUZZLELAB_BENCH_QUICK=1: 40,000 deals for the Kemps sums and one repetition, about 4 minutes).
`python benchmarks/bench_sweeps.py kemps` measures only the cases named (keys of `CASES`) and
keeps the other cases' rows; PUZZLELAB_BENCH_REPEATS sets the repetitions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from puzzlelab.timing import COLUMNS, add_ratios, quick, write_rows

REPEATS = int(os.environ.get("PUZZLELAB_BENCH_REPEATS", 1 if quick() else 2))
KEMPS_DEALS = 40_000 if quick() else 400_000
KEMPS_NAME = "bench_sweeps_kemps"  # the sums' chunks wait in data/partial/<this> during a run
SERIAL, POOL = "serial, one process", "2-process local pool (workers=2)"
DASK, DASK_DEFAULT = "2-worker Dask cluster (sweeps.local_cluster)", \
    "2-worker Dask LocalCluster, Dask's default settings"
DASK1 = "1-worker Dask cluster (sweeps.local_cluster)"
DASK_OLD = "2-worker Dask cluster (sweeps.local_cluster), in tasks of 500 deals (the old task size)"
COMPARED = {DASK: POOL, DASK_DEFAULT: POOL, DASK_OLD: POOL, DASK1: SERIAL}  # for a row's note
CLUSTERS = {DASK: 2, DASK_DEFAULT: 2, DASK_OLD: 2, DASK1: 1}  # workers of each Dask method
KEMPS = "kemps"
CASES = {  # key: (case name, methods)
    "russian_cards": ("Russian Cards grid, c = 1..3, n <= 14 (a task per cell)", ()),
    "hats": ("hat optima, M = 2 (N = 2..6), 3 and 4 (N = 2, 3): a task per M", ()),
    "hanabi": ("Hanabi hint capacity, 2 x 5 x 2 points x 60 tables", ()),
    "codebreaking": ("code breaking, greedy strategies over coin games of 1..10 coins", ()),
    KEMPS: (f"Kemps sums over {KEMPS_DEALS:,} deals, Greedy self-play, 28 cards",
            (DASK_DEFAULT, DASK_OLD, DASK1)),
}


@dataclass
class Run:
    """One timed sweep: wall and CPU seconds (its process, its workers), load, table digest."""

    wall: float
    cpu_here: float
    cpu_workers: float
    load: float
    digest: str = ""
    startup: float | None = None  # seconds to start the Dask cluster (not in `wall`)

    @property
    def cpu(self) -> float:
        return self.cpu_here + self.cpu_workers


def _sweep(key: str) -> Callable[..., pd.DataFrame]:
    """The sweep of a case as f(**executor arguments) -> table (imports here: a puzzle may be
    slow to load)."""
    if key == "russian_cards":
        from puzzlelab.russian_cards.grid import decide_grid
        return lambda **kw: decide_grid((1, 2, 3), 14, **kw)
    if key == "hats":
        from puzzlelab.hats.tables import optimum_rows
        worlds = [(n, 2) for n in range(2, 7)] + [(2, 3), (3, 3), (2, 4), (3, 4)]
        return lambda **kw: optimum_rows(worlds, **kw)
    if key == "hanabi":
        from puzzlelab.hanabi.knowledge import hint_capacity_study
        return lambda **kw: hint_capacity_study((4, 5), tuple(range(5)), (0, 25), samples=60,
                                                **kw)
    if key == "codebreaking":
        from puzzlelab.codebreaking.tables import coin_greedy_table
        return lambda **kw: coin_greedy_table(10, **kw)
    return _kemps_sums


def _kemps_sums(**kw: Any) -> pd.DataFrame:
    """Exact sums over KEMPS_DEALS deals of Greedy self-play on 28 cards, never resumed."""
    from puzzlelab.cache import partial_dir
    from puzzlelab.kemps.streaming import deal_sums
    from puzzlelab.kemps.tournament import MEDIUM

    shutil.rmtree(partial_dir(KEMPS_NAME), ignore_errors=True)
    return deal_sums([("greedy",) * 3], KEMPS_DEALS, MEDIUM, name=KEMPS_NAME, **kw)


def _cpu_seconds() -> float:
    """User and system CPU seconds of the calling process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children_seconds() -> float:
    """User and system CPU seconds of this process's reaped children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _digest(table: pd.DataFrame) -> str:
    """A fingerprint of a table: its columns, types and values."""
    text = f"{list(table.columns)}|{list(table.dtypes.astype(str))}|{table.to_csv(index=False)}"
    return hashlib.sha256(text.encode()).hexdigest()


@contextlib.contextmanager
def _cluster(method: str) -> Iterator[tuple[Any, float]]:
    """A fresh Dask cluster's client for `method`, and the seconds it took to start."""
    from dask.distributed import Client, LocalCluster

    from puzzlelab.sweeps import local_cluster

    workers, start = CLUSTERS[method], time.perf_counter()
    cluster = (LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=None) if method == DASK_DEFAULT
               else local_cluster(workers))
    with cluster, Client(cluster) as client:
        client.wait_for_workers(workers)
        yield client, time.perf_counter() - start


def _timed(call: Callable[[], pd.DataFrame], workers_cpu: Callable[[], float]) -> Run:
    """Run call() once: wall, CPU here and in the workers, load and the table's digest."""
    load = os.getloadavg()[0]
    before, here = workers_cpu(), _cpu_seconds()
    start = time.perf_counter()
    table = call()
    wall = time.perf_counter() - start
    here = _cpu_seconds() - here
    return Run(wall, here, workers_cpu() - before, load, _digest(table))


def run_once(key: str, method: str) -> Run:
    """One run of a case by one method, in this process."""
    sweep = _sweep(key)
    if method == SERIAL:
        return _timed(sweep, lambda: 0.0)
    if method == POOL:
        return _timed(lambda: sweep(workers=2), _children_seconds)
    sizes = {"deals_per_task": 500} if method == DASK_OLD else {}
    with _cluster(method) as (client, startup):
        run = _timed(lambda: sweep(executor=client.get_executor(), **sizes),
                     lambda: sum(client.run(_cpu_seconds).values()))
    run.startup = startup
    return run


def _fresh(key: str, method: str) -> Run:
    """One run in a fresh interpreter (`--run KEY METHOD`)."""
    env = dict(os.environ, TQDM_DISABLE="1", MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, __file__, "--run", key, method], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{key} by {method} failed:\n{done.stderr[-3000:]}")
    return Run(**json.loads(done.stdout.strip().splitlines()[-1]))


def _measure(key: str) -> dict[str, list[Run]]:
    """Every method of a case, taking turns; refuses a table other than the serial one."""
    name, extra = CASES[key]
    runs: dict[str, list[Run]] = {m: [] for m in (SERIAL, POOL, DASK, *extra)}
    for _ in range(REPEATS):
        for method, done in runs.items():
            run = _fresh(key, method)
            if run.digest != (runs[SERIAL] or [run])[0].digest:
                raise SystemExit(f"{name}: {method} gives another table than serial")
            done.append(run)
            print(f"{name} | {method}: wall {run.wall:.2f} s, CPU {run.cpu:.2f} s "
                  f"(process {run.cpu_here:.2f}), load {run.load:.1f}", flush=True)
    return runs


def _note(runs: list[Run], against: str | None, base: list[Run]) -> str:
    """Every run's wall, CPU and load; the minimum CPU split; the ratios to method `against`."""
    best = min(runs, key=lambda r: r.cpu)
    parts = ["runs (wall s / CPU s / load): " + ", ".join(
        f"{r.wall:.2f}/{r.cpu:.2f}/{r.load:.1f}" for r in runs),
        f"CPU min {best.cpu:.2f} s ({best.cpu_here:.2f} in the run's process, "
        f"{best.cpu_workers:.2f} in its workers)"]
    if against:
        wall = min(r.wall for r in runs) / min(r.wall for r in base)
        cpu = best.cpu / min(r.cpu for r in base)
        parts.append(f"against '{against}': wall min x{wall:.3f}, CPU min x{cpu:.3f}")
    started = [r.startup for r in runs if r.startup is not None]
    if started:
        parts.append(f"cluster started in {min(started):.1f}-{max(started):.1f} s, not counted")
    return "; ".join(parts)


def _row(name: str, method: str, runs: dict[str, list[Run]]) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`)."""
    mine, against = runs[method], COMPARED.get(method)
    walls = [r.wall for r in mine]
    row = dict.fromkeys(COLUMNS)
    row.update(puzzle="sweeps", case=name, method=method,
               role="subject" if method == DASK else "baseline", like_for_like="yes",
               result="same table as serial", finished="yes", cold_reps=0,
               warm_min_s=min(walls), warm_median_s=statistics.median(walls), reps=len(mine),
               cores=os.cpu_count(), load_1min=round(max(r.load for r in mine), 2),
               note=_note(mine, against, runs.get(against, [])))
    return row


def main(keys: list[str]) -> None:
    """Measure the cases named (every case when none is) and write data/bench_sweeps.csv,
    keeping the rows of the other cases."""
    unknown = sorted(set(keys) - set(CASES))
    if unknown:
        raise SystemExit(f"unknown cases {unknown}; choose from {sorted(CASES)}")
    rows = {}
    for key, (name, _) in CASES.items():
        if key in keys or not keys:
            runs = _measure(key)
            rows[key] = [_row(name, m, runs) for m in (DASK, *[m for m in runs if m != DASK])]
            add_ratios(rows[key])
    kept = _kept_rows() if keys else {}
    write_rows([r for key in CASES for r in rows.get(key, kept.get(CASES[key][0], []))],
               "bench_sweeps")


def _kept_rows() -> dict[str, list[dict]]:
    """The rows of data/bench_sweeps.csv by case (none when there is no such table)."""
    from puzzlelab.cache import data_path, read_csv_checked

    if not data_path("bench_sweeps").exists():
        return {}
    table = read_csv_checked(data_path("bench_sweeps")).astype(object)
    table = table.where(table.notna(), None)
    return {case: part.to_dict("records") for case, part in table.groupby("case", sort=False)}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run"]:
        print(json.dumps(asdict(run_once(sys.argv[2], sys.argv[3]))))
    else:
        main(sys.argv[1:])
