"""Long attempts on the sizes the wide grid leaves open (c = 3, n = 17..20): where each stands.

The wide grid (`grid.decide_grid`, data/russian_cards_grid_n17_20.csv) stops every CP-SAT call
at 40 work units, and builds no case model over `solver.MAX_LITERALS` literals; twelve sizes stay
open. A long attempt decides one open size again with a much larger deterministic limit
(`ATTEMPT_WORK` units per symmetry case) and records what it reached and what it cost: the
verdict, the work units, the CPU seconds of the process. Each size is one resumable chunk of a
long-run sweep (`sweeps.sweep_table`), so an interrupted run keeps the sizes it finished.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from concurrent.futures import Executor

import pandas as pd

from .. import checks, sweeps
from .grid import check_table, format_announcement, parse_announcement
from .model import hand_sizes, is_solution
from .solver import decide

__all__ = ["ATTEMPT_COLUMNS", "ATTEMPT_WORK", "attempt_row", "check_attempts", "long_attempts",
           "open_cells"]

ATTEMPT_WORK = 3_600.0  # CP-SAT work units per symmetry case of a long attempt (40 in the grid)
ATTEMPT_COLUMNS = ["a", "b", "c", "n", "status", "method", "work_limit", "work_units",
                   "cpu_seconds", "detail", "witness"]


def open_cells(grid: pd.DataFrame) -> list[tuple[int, int, int]]:
    """The sizes (a, b, c) a grid table leaves open, in its order."""
    grid = check_table(grid, ["a", "b", "c", "status"])
    rows = grid[grid.status == "open"]
    return [(int(r.a), int(r.b), int(r.c)) for r in rows.itertuples()]


def attempt_row(case: tuple[int, int, int, float]) -> dict:
    """One long attempt: `decide` on (a, b, c) with `work` units per case, its cost recorded."""
    a, b, c, work = checks.sequence(case, "case", what="a tuple (a, b, c, work)", length=4)
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    start = time.process_time()
    v = decide(a, b, c, work_limit=work)
    return dict(a=a, b=b, c=c, n=a + b + c, status=v.status, method=v.method, work_limit=work,
                work_units=round(v.work, 2), cpu_seconds=round(time.process_time() - start),
                detail=v.detail, witness=format_announcement(v.witness))


def long_attempts(cases: Iterable[tuple[int, int, int]], work: float = ATTEMPT_WORK, *,
                  name: str, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """A long attempt on every size, one resumable chunk each (data/partial/<name>/)."""
    work = checks.number(work, "work", low=0.01, high=10_000)
    todo = [(*hand_sizes(*abc), work) for abc in cases]
    table = sweeps.sweep_table(name, attempt_row, todo, executor=executor, workers=workers,
                               desc="open Russian Cards sizes")
    return table.reindex(columns=ATTEMPT_COLUMNS)


def check_attempts(table: pd.DataFrame) -> None:
    """A stored table of attempts holds: every solvable row's witness passes the verifier."""
    table = check_table(table, ATTEMPT_COLUMNS)
    for r in table.itertuples():
        if r.status == "solvable":
            if not is_solution(parse_announcement(r.witness), int(r.a), int(r.b), int(r.c)):
                raise ValueError(f"({r.a},{r.b},{r.c}): the recorded announcement is not safe "
                                 "and informative")
