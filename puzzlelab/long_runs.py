"""Long runs that record where they stand: a table of cases, written to data/ after every batch.

A run of many cases that take a solver half an hour or more each may be stopped at any point
and continued later, on this machine or another. `continue_run` keeps the rows its table in
data/ already holds, takes at once the cases whose finished chunk is saved in data/partial/
(`sweeps.sweep_table`, one case a chunk), and runs the rest `workers` at a time, writing the
table (its rows so far, in the order of the cases) after each batch. The table in data/ is so
the record of the run: each case done with its verdict and cost; the cases missing from it are
the ones still to run. It says where it stands when it starts and after each batch: the cases
done, the time the batch took, and the time left at the pace measured so far (at the start,
from the CPU seconds its rows record when a `cost` column names them).
"""

from __future__ import annotations

import math
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from . import cache, checks, sweeps
from .cache import Table
from .progress import duration
from .sweep_chunks import chunk_key, chunk_record, code_hash, saved_chunk

__all__ = ["continue_run", "continued", "is_continued", "pace", "saved_cases"]

_CONTINUED: set[str] = set()


def continued(table: Table) -> Table:
    """Declare that the long run `table` is built by `continue_run` (so that a caller knows the
    run estimates its time left itself, after each batch); returns the table."""
    if not isinstance(table, Table) or not table.long_run:
        raise ValueError(f"table must be the declaration of a long run (Table(..., long_run=True))"
                         f", got {table!r}")
    _CONTINUED.add(table.name)
    return table


def is_continued(name: str) -> bool:
    """Is the table `name` a long run built by `continue_run` (declared with `continued`)?"""
    return checks.text(name, "name") in _CONTINUED


def saved_cases(name: str, task: Callable[[Any], Any], params: Sequence[Any]) -> list[Any]:
    """The parameters of the sweep `name` whose one-parameter chunk is saved and checks."""
    checks.function(task, "task")
    params = checks.sequence(params, "params", what="a list of cases")
    folder, code = cache.partial_dir(name), code_hash(task)
    return [p for p in params
            if saved_chunk(folder / f"{chunk_key(name, task, [p])}.csv",
                           chunk_record(name, task, [p], code)) is not None]


def pace(seconds: Sequence[float], left: int, workers: int) -> float | None:
    """The wall seconds `left` cases should take, `workers` at a time, when the cases run so
    far took `seconds` each (None before any has run)."""
    seconds = [checks.number(s, "a case's seconds", low=0, high=1e9)
               for s in checks.sequence(seconds, "seconds", what="a list of seconds")]
    left = checks.integer(left, "left", low=0)
    workers = checks.integer(workers, "workers", low=1)
    if not seconds:
        return None
    return sum(seconds) / len(seconds) * math.ceil(left / workers)


def _standing(name: str, done: int, total: int, left: int, workers: int,
              seconds: Sequence[float], batch: float | None = None) -> str:
    """One line: how far the run `name` is, and how long the rest should take at this pace."""
    line = f"  {name}: {done} of {total} cases in data/{name}.csv"
    if batch is not None:
        line += f"; this batch took {duration(batch)}"
    if left:
        line += f"; {left} to run, {min(workers, left)} at a time"
        rest = pace(seconds, left, workers)
        line += (f", about {duration(rest)} more at the pace so far" if rest is not None
                 else " (no case timed yet to estimate the time left)")
    return line


def continue_run(table: Table, task: Callable[[Any], dict], params: Sequence[Any],
                 columns: Sequence[str], key: int, *, executor: Executor | None = None,
                 workers: int = 1, desc: str | None = None, cost: str | None = None,
                 isolate: bool = False) -> pd.DataFrame:
    """The table (`columns`) of task(p) for every case p, continued from its rows in data/ and
    from the saved chunks, written after each batch (module docstring). The first `key` entries
    of a case name it, as the first `key` columns of its row do; `cost`, if given, is the
    column of a case's CPU seconds, which estimates the time left before a case has run;
    `isolate` runs each case in a process of its own, even one at a time (`sweeps.sweep_table`)."""
    if not isinstance(table, Table) or not table.long_run:
        raise ValueError(f"table must be the declaration of a long run (Table(..., long_run=True))"
                         f", got {table!r}")
    checks.function(task, "task")
    columns = [checks.text(c, "a column") for c in checks.sequence(
        columns, "columns", what="a list of column names")]
    width = checks.integer(key, "key", low=1, high=max(1, len(columns)))
    params = [tuple(checks.sequence(p, "a case", what=f"a tuple of at least {width} entries"))
              for p in checks.collection(params, "params", what="a list of cases")]
    if any(len(p) < width for p in params) or len(set(columns)) < len(columns):
        raise ValueError(f"every case must start with its key ({width} entries), named by the "
                         f"first {width} of the distinct columns {columns}")
    if cost is not None and checks.text(cost, "cost") not in columns:
        raise ValueError(f"cost must be one of the columns {columns}, got {cost!r}")
    isolate = checks.boolean(isolate, "isolate")
    key_columns = columns[:width]
    spec = cache.check_writable(table)
    executor, workers = checks.sweep_options(executor, workers)
    order = {tuple(p[:width]): i for i, p in enumerate(params)}
    done: dict[tuple, dict] = {}
    old = cache.read_long_run(spec)
    for row in ([] if old is None else old.to_dict("records")):
        case = tuple(row[c] for c in key_columns)
        if case in order:
            done[case] = row
    todo = [p for p in params if tuple(p[:width]) not in done]
    ready = saved_cases(spec.name, task, todo)
    rest = [p for p in todo if p not in ready]
    batches = [ready] if ready else []
    batches += [rest[i:i + workers] for i in range(0, len(rest), workers)]
    seconds = [float(r[cost]) for r in done.values()
               if cost is not None and pd.notna(r.get(cost))]
    print(_standing(spec.name, len(done), len(params), len(todo), workers, seconds), flush=True)
    out, timed = old, []
    for batch in batches:
        start = time.perf_counter()
        rows = sweeps.sweep_table(spec.name, task, batch, executor=executor, workers=workers,
                                  desc=desc, keep_partial=True, isolate=isolate)
        for row in rows.to_dict("records"):
            done[tuple(row[c] for c in key_columns)] = row
        so_far = pd.DataFrame(sorted(done.values(), key=lambda r: order[
            tuple(r[c] for c in key_columns)]), columns=columns)
        out = cache.compute_table(spec, lambda: so_far)
        took = time.perf_counter() - start
        if batch is not ready:  # a batch's cases run side by side, each for about `took`;
            timed += [took] * len(batch)  # saved chunks are read, not run: no pace from them
        print(_standing(spec.name, len(done), len(params), len(params) - len(done), workers,
                        timed or seconds, took), flush=True)
    shutil.rmtree(cache.partial_dir(spec.name), ignore_errors=True)
    return out if out is not None else pd.DataFrame(columns=columns)
