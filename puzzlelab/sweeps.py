"""Sweeps over parameters on any `concurrent.futures.Executor`, with the same answer on each.

A sweep applies one picklable task to a list of parameters. `sweep` runs it serially, on a
local process pool (`workers=`), or on any executor passed as `executor=` — for example
`dask.distributed.Client(...).get_executor()` on a `LocalCluster` or a remote scheduler —
and always returns the results in the order of the parameters, never of completion.
Randomised tasks take their seed from the parameters (`spawn_seeds`), so the answer does
not depend on which worker ran what.

`sweep_table` is the resumable form for tasks that return table rows: every finished chunk
is written to `data/partial/<name>/` as it completes, an interrupted run continues from
there, and the folder is removed once the whole table is assembled.

The progress bar counts finished tasks whatever the executor; Ctrl-C cancels what has not
started and stops the local pool's workers at once.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import shutil
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from . import checks
from .cache import partial_dir, read_csv_checked, write_csv
from .progress import tqdm

__all__ = [
    "add_executor_arguments", "command_line", "executor_from_arguments", "spawn_seeds", "sweep",
    "sweep_table",
]

P = TypeVar("P")
R = TypeVar("R")


def spawn_seeds(seed: int, count: int) -> list[int]:
    """`count` independent 63-bit seeds derived from `seed` (numpy `SeedSequence.spawn`)."""
    seed = checks.seed(seed)
    count = checks.integer(count, "count", low=0)
    children = np.random.SeedSequence(seed).spawn(count)
    return [int(c.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for c in children]


def _chunks(n: int, size: int) -> list[range]:
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


def _run_chunk(task: Callable[[Any], Any], params: Sequence[Any]) -> list[Any]:
    return [task(p) for p in params]


def _check_executor(executor: object) -> Executor | None:
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise checks.ArgumentTypeError(
            f"executor must be a concurrent.futures.Executor (or None), got {executor!r}")
    return executor  # type: ignore[return-value]


@contextlib.contextmanager
def _local_pool(executor: Executor | None, workers: int) -> Iterator[Executor | None]:
    """The executor to use: the caller's, a process pool of our own, or None (serial)."""
    if executor is not None or workers == 1:
        yield executor
        return
    pool = ProcessPoolExecutor(workers)
    try:
        yield pool
    except BaseException:
        for proc in list(getattr(pool, "_processes", {}).values()):  # stop workers now, not later
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _execute(
    task: Callable[[Any], Any], params: Sequence[Any], chunks: list[range], *,
    executor: Executor | None, workers: int, desc: str | None, done: Callable[[range, list], None],
) -> None:
    """Run every chunk, calling `done(chunk, results)` as each finishes (in completion order)."""
    total = sum(len(c) for c in chunks)
    with tqdm(total=total, desc=desc, unit="task") as bar, _local_pool(executor, workers) as pool:
        if pool is None:
            for chunk in chunks:
                done(chunk, _run_chunk(task, [params[i] for i in chunk]))
                bar.update(len(chunk))
            return
        futures: dict[Future, range] = {}
        try:
            for chunk in chunks:  # submitted inside the try: Ctrl-C here cancels what was sent
                futures[pool.submit(_run_chunk, task, [params[i] for i in chunk])] = chunk
            for fut in as_completed(futures):
                done(futures[fut], fut.result())
                bar.update(len(futures[fut]))
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise


def sweep(
    task: Callable[[P], R], params: Sequence[P], *, executor: Executor | None = None,
    workers: int = 1, chunk_size: int = 1, desc: str | None = None,
) -> list[R]:
    """[task(p) for p in params], run serially, on `workers` local processes, or on `executor`.

    Results come back in the order of `params` whatever the executor. `task` must be picklable
    (a module-level function, or a `functools.partial` of one) when it runs in other processes.
    """
    params = list(params)
    executor = _check_executor(executor)
    workers = checks.integer(workers, "workers", low=1)
    chunk_size = checks.integer(chunk_size, "chunk_size", low=1)
    results: list[Any] = [None] * len(params)

    def done(chunk: range, values: list) -> None:
        for i, v in zip(chunk, values):
            results[i] = v

    _execute(task, params, _chunks(len(params), chunk_size), executor=executor, workers=workers,
             desc=desc, done=done)
    return results


def _rows(value: Any) -> pd.DataFrame:
    """A task's result as table rows: a DataFrame, a dict (one row) or a list of dicts."""
    if isinstance(value, pd.DataFrame):
        return value
    if isinstance(value, dict):
        return pd.DataFrame([value])
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return pd.DataFrame(value)
    raise TypeError(f"a sweep_table task must return a DataFrame, a dict or a list of dicts, "
                    f"got {type(value).__name__}")


def _task_id(task: Callable) -> str:
    """What identifies a task across runs: its function and the plain settings bound to it."""
    settings = ""
    while isinstance(task, functools.partial):
        plain = (int, float, str, bool, tuple, type(None))
        kept = {k: v for k, v in task.keywords.items() if isinstance(v, plain)}
        settings += f"{[a for a in task.args if isinstance(a, plain)]}{sorted(kept.items())}"
        task = task.func
    return f"{getattr(task, '__module__', '')}.{getattr(task, '__qualname__', '?')}{settings}"


def _chunk_key(name: str, task: Callable, params: Sequence[Any]) -> str:
    what = f"{name}|{_task_id(task)}|{params!r}"
    return hashlib.sha256(what.encode()).hexdigest()[:16]


def sweep_table(
    name: str, task: Callable[[P], Any], params: Sequence[P], *, executor: Executor | None = None,
    workers: int = 1, chunk_size: int = 1, desc: str | None = None, keep_partial: bool = False,
) -> pd.DataFrame:
    """A table made of the rows of task(p) for every p, resumable after an interruption.

    Each finished chunk is saved in data/partial/<name>/ (keyed by the task and the chunk's
    parameters); a later call with the same sweep reuses the saved chunks and runs only the
    rest. The result is the concatenation in the order of `params`, identical whatever the
    executor and the number of workers. The partial folder is removed at the end unless
    `keep_partial`.
    """
    params = list(params)
    executor = _check_executor(executor)
    workers = checks.integer(workers, "workers", low=1)
    chunk_size = checks.integer(chunk_size, "chunk_size", low=1)
    folder = partial_dir(name)
    chunks = _chunks(len(params), chunk_size)
    keys = {c: _chunk_key(name, task, [params[i] for i in c]) for c in chunks}
    parts: dict[range, pd.DataFrame] = {}
    for chunk, key in keys.items():
        if (folder / f"{key}.csv").exists():
            parts[chunk] = read_csv_checked(folder / f"{key}.csv")

    def done(chunk: range, values: list) -> None:
        frames = [_rows(v) for v in values]
        table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        write_csv(table, folder / f"{keys[chunk]}.csv")
        parts[chunk] = read_csv_checked(folder / f"{keys[chunk]}.csv")

    todo = [c for c in chunks if c not in parts]
    _execute(task, params, todo, executor=executor, workers=workers, desc=desc, done=done)
    frames = [parts[c] for c in chunks if len(parts[c].columns)]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if not keep_partial:
        shutil.rmtree(folder, ignore_errors=True)
    return table


# --- command lines ------------------------------------------------------------------------------

def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """--workers N (local processes) and --scheduler ADDRESS|local (Dask) for a sweep's command line."""
    parser.add_argument("--workers", type=int, default=1,
                        help="local worker processes (default 1: serial)")
    parser.add_argument("--scheduler", default=None,
                        help="a Dask scheduler address (tcp://host:8786), or 'local' for a "
                             "LocalCluster with --workers workers (needs puzzlelab[cluster])")


@contextlib.contextmanager
def executor_from_arguments(args: argparse.Namespace) -> Iterator[tuple[Executor | None, int]]:
    """(executor, workers) for `sweep(..., executor=, workers=)` from the parsed arguments."""
    if args.scheduler is None:
        yield None, args.workers
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - depends on the installed extra
        raise SystemExit("--scheduler needs Dask: pip install 'puzzlelab[cluster]'") from err
    if args.scheduler == "local":
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client.get_executor(), 1
    else:
        with Client(args.scheduler) as client:
            yield client.get_executor(), 1


def command_line(main: Callable[[], Any]) -> None:
    """Run a sweep's `main()` as a command: a bad argument ends it with one line, no traceback."""
    try:
        main()
    except ValueError as err:
        raise SystemExit(f"error: {err}") from None
