"""The named tables of Russian Cards in data/: their declarations, the functions that compute
and read them, and the runs that rebuild the grids and smallest announcements.

Source: group11_rc §4-5 and the appendix. The only module of the puzzle that reads or writes
the cached tables in data/ (through `puzzlelab.cache`); a cached witness is re-checked by its
verifier (`grid.check_grid`, `grid.check_min_sizes`) whenever its table is read.

Every table is rebuilt by `puzzlelab compute NAME` (add `--workers N` or `--scheduler ADDR`
for the sweeps, `--long-run` for the long runs): the grid data/russian_cards_grid.csv
(`grid_table`), the wider grid of decks of 17 to 20 cards (`russian_cards_grid_n17_20`, a
resumable long run: `grid_run`), the long descent (`russian_cards_min_size_long`: `descend_run`,
`LONG_WORK` CP-SAT work units per step on every unproven smallest announcement) and the matrix
model's sizes (`russian_cards_min_size_matrix`: `matrix_run`). `grid_run`, `descend_run` and
`matrix_run` with other settings write tables of their own names, never a committed one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from itertools import combinations
from typing import Any

import pandas as pd

from .. import cache, checks
from ..cache import Table, cached_source_table, cached_table, read_long_run, read_table
from ..long_runs import continue_run, continued
from . import source
from .constructions import is_prime, sum_mod
from .grid import (
    C_VALUES, GRID_COLUMNS, GRID_TABLE, LONG_TABLE, LONG_WORK, MIN_WORK, N_LIMIT, N_MAX,
    ORBIT_WORK, ROW_KEYS, cells, check_grid, check_min_sizes, check_table, decide_grid,
    grid_name, longer_min_sizes, matrix_min_sizes, min_sizes, orbit_min_sizes, short,
)
from .kripke import agreement, random_announcements
from .matrix import MATRIX_WORK
from .model import all_hands, is_solution
from .open_cases import (
    ATTEMPT_COLUMNS, ATTEMPT_WORK, FOCUS_LITERALS, FOCUS_WORK, HUNT_WORK, attempt_row,
    check_attempts, focus_row, long_attempts, open_cells, stuck_at,
)
from .sat_cases import (
    SAT_COLUMNS, SAT_CONFLICTS, SAT_LITERALS, SAT_SOLVERS, check_sat_round, sat_row,
)
from .search import MAX_NODES, packings, report_dfs

__all__ = [
    "AGREEMENT", "GRID", "LONG", "MATRIX", "MATRIX_TABLE", "OPEN_ATTEMPTS", "OPEN_FOCUS",
    "OPEN_HUNT", "OPEN_SAT", "ORBITS", "ORBIT_TABLE", "REPORT_DFS", "SMALLEST", "SUM_MOD", "WIDE",
    "WIDE_TABLE", "agreement_table", "appendix_table", "c1_table", "candidate_families",
    "grid_table", "improved_by_descent", "matrix_table", "open_attempts_table",
    "open_focus_table", "open_hunt_table", "open_sat_table", "orbit_table", "report_dfs_table",
    "report_solver_table", "smallest_table", "sum_mod_table", "wide_grid_table",
]  # the runs `grid_run`, `descend_run`, `matrix_run` write tables: tested with real arguments

WIDE_TABLE = f"russian_cards_grid_n{N_MAX + 1}_{N_LIMIT}"  # the wider grid's table in data/
ORBIT_TABLE = "russian_cards_min_size_orbits"  # smaller announcements made of orbits
MATRIX_TABLE = "russian_cards_min_size_matrix"  # sizes settled by the matrix model (long run)


# -- the tables in data/ ------------------------------------------------------------------------
# The grids and smallest announcements: what makes each, and the command that rebuilds it.
GRID = cache.register(Table(GRID_TABLE, params=dict(c=C_VALUES, n_min=1, n_max=N_MAX),
                            check=check_grid))
WIDE = cache.register(Table(WIDE_TABLE, params=dict(c=C_VALUES, n_min=N_MAX + 1, n_max=N_LIMIT),
                            long_run=True, check=check_grid))
SMALLEST = cache.register(Table("russian_cards_min_size",
                                params=dict(c=C_VALUES, n_min=1, n_max=N_MAX, work=MIN_WORK),
                                check=check_min_sizes))
LONG = cache.register(Table(LONG_TABLE, params=dict(n_max=N_MAX, work=LONG_WORK),
                            long_run=True, check=check_min_sizes))
ORBITS = cache.register(Table(ORBIT_TABLE, params=dict(work=ORBIT_WORK), check=check_min_sizes))
MATRIX = cache.register(Table(MATRIX_TABLE, params=dict(work=MATRIX_WORK),
                              long_run=True, check=check_min_sizes))
# The notebook's small tables (made by the functions that read them, below).
AGREEMENT, SUM_MOD, REPORT_DFS = (
    cache.register(Table(f"russian_cards_{name}")) for name in ("model_agreement", "sum_mod",
                                                                "report_dfs"))


# -- the grids ----------------------------------------------------------------------------------
@cache.rebuilds("russian_cards_grid")
def grid_table(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The solvability grid (c = 1, 2, 3, n <= 16): data/russian_cards_grid.csv, verified (its
    cells decided on `executor` or `workers` processes when it is computed)."""
    executor, workers = checks.sweep_options(executor, workers)
    return cached_table(GRID, lambda: decide_grid(executor=executor, workers=workers),
                        verify=check_grid)


def wide_grid_table() -> pd.DataFrame:
    """The grid for 17 <= n <= 20 (the long run's data/russian_cards_grid_n17_20.csv), its
    witnesses verified; an empty grid when that run is not in data/."""
    wide = read_long_run(WIDE, verify=check_grid)
    return pd.DataFrame(columns=GRID_COLUMNS) if wide is None else wide


# -- the smallest announcements ----------------------------------------------------------------
def improved_by_descent() -> pd.DataFrame:
    """Rows of the long descent (data/russian_cards_min_size_long.csv, verified) that improve the
    default table, beside the default's values (suffix `_short`); empty when the run is absent."""
    long = read_long_run(LONG, verify=check_min_sizes)
    if long is None:
        return pd.DataFrame(columns=["a", "b", "c"])
    both = long.merge(read_table(SMALLEST), on=["a", "b", "c"],
                      suffixes=("", "_short"))
    return both[(both.smallest < both.smallest_short)
                | (both.lower_bound > both.lower_bound_short)].reset_index(drop=True)


def smallest_table(grid: pd.DataFrame, matrix: bool = True) -> pd.DataFrame:
    """Smallest announcements of the grid's solvable cells: data/russian_cards_min_size.csv,
    with each cell the long descent improved (data/russian_cards_min_size_long.csv, when that
    run is in data/) replaced by its row, then each cell a union of orbits improves
    (data/russian_cards_min_size_orbits.csv), then (with `matrix`) each size the matrix model
    settled (data/russian_cards_min_size_matrix.csv, when that run is in data/); `by_descent`,
    `by_orbits` and `by_matrix` mark them."""
    grid = check_table(grid, ["a", "b", "c", "n", "status", "witness"])  # what min_sizes reads
    matrix = checks.boolean(matrix, "matrix")
    out = cached_table(SMALLEST, lambda: min_sizes(grid),
                       verify=check_min_sizes).assign(by_descent=False, by_orbits=False,
                                                      by_matrix=False)
    index = out.set_index(["a", "b", "c"]).index
    for r in improved_by_descent().itertuples():
        i = index.get_loc((r.a, r.b, r.c))
        for column in ("smallest", "lower_bound", "proven", "witness"):
            out.loc[i, column] = getattr(r, column)
        out.loc[i, "by_descent"] = True
    done = out.drop(columns=["by_descent", "by_orbits", "by_matrix"])
    for r in orbit_table(done).itertuples():
        i = index.get_loc((r.a, r.b, r.c))
        if r.smallest < out.loc[i, "smallest"] and r.lower_bound == out.loc[i, "lower_bound"]:
            for column in ("smallest", "proven", "witness"):
                out.loc[i, column] = getattr(r, column)
            out.loc[i, "by_orbits"] = True
    settled = read_long_run(MATRIX, verify=check_min_sizes) if matrix else None
    if settled is not None:
        for r in settled.itertuples():  # its bounds are facts: keep the better of each
            i = index.get_loc((r.a, r.b, r.c))
            out.loc[i, "lower_bound"] = max(out.loc[i, "lower_bound"], r.lower_bound)
            if r.smallest < out.loc[i, "smallest"]:
                out.loc[i, "smallest"], out.loc[i, "witness"] = r.smallest, r.witness
            out.loc[i, "proven"] = out.loc[i, "lower_bound"] == out.loc[i, "smallest"]
            out.loc[i, "by_matrix"] = True
    return out


def matrix_table() -> pd.DataFrame:
    """The sizes the matrix model settled (data/russian_cards_min_size_matrix.csv, the long run
    `puzzlelab compute russian_cards_min_size_matrix --long-run`), every witness verified."""
    table = read_long_run(MATRIX, verify=check_min_sizes)
    if table is None:
        raise ValueError(f"data/{MATRIX.name}.csv is missing; build it with: "
                         f"{MATRIX.command}")
    return table


def orbit_table(smallest: pd.DataFrame) -> pd.DataFrame:
    """The unproven sizes of `smallest` that unions of orbits of a card group improve:
    data/russian_cards_min_size_orbits.csv (`grid.orbit_min_sizes`), verified."""
    smallest = check_table(smallest, ["proven", *ROW_KEYS])  # what orbit_min_sizes reads
    return cached_table(ORBITS, lambda: orbit_min_sizes(smallest), verify=check_min_sizes)


# -- the source's tables and the notebook's small tables ----------------------------------------
@cache.rebuilds("russian_cards_appendix")
def appendix_table() -> pd.DataFrame:
    """The appendix's view lines (`source.parse_appendix`): data/russian_cards_appendix.csv."""
    return cached_source_table("russian_cards_appendix", source.SOURCE, source.parse_appendix)


@cache.rebuilds("russian_cards_report_table")
def c1_table() -> pd.DataFrame:
    """The report's c = 1 table, cell by cell: data/russian_cards_report_table.csv."""
    return cached_source_table("russian_cards_report_table", source.SOURCE,
                               source.c1_table_cells)


def candidate_families() -> dict[str, list]:
    """The (3,3,1) families the model check is compared on (see the notebook)."""
    others = [h for h in all_hands(7, 3) if h != (0, 1, 2)]
    return {
        "(3,3,1) Rule-1 packings through 012": packings(3, 3, 1, hand=(0, 1, 2)),
        "(3,3,1) <= 3 hands through 012": [((0, 1, 2), *e) for k in range(3)
                                           for e in combinations(others, k)],
        "(3,3,1) SMCDEL's non-crossing 5-7 hand lists": packings(3, 3, 1, sizes=(5, 6, 7)),
    }


@cache.rebuilds("russian_cards_model_agreement")
def agreement_table() -> pd.DataFrame:
    """Model check against Rules 1 and 2: data/russian_cards_model_agreement.csv."""
    def rows() -> pd.DataFrame:
        out = [dict(family=name, **agreement(anns, 3, 3, 1))
               for name, anns in candidate_families().items()]
        for abc in [(4, 4, 1), (3, 4, 1), (4, 2, 1), (4, 3, 2), (5, 2, 2)]:
            anns = random_announcements(*abc, count=300, seed=sum(abc))
            out.append(dict(family=f"{abc} 300 random", **agreement(anns, *abc)))
        return pd.DataFrame(out)
    return cached_table(AGREEMENT, rows)


@cache.rebuilds("russian_cards_sum_mod")
def sum_mod_table() -> pd.DataFrame:
    """Sum modulo n and modulo the least prime >= n on every c = 1 cell with a, b >= 3."""
    def rows() -> pd.DataFrame:
        out = []
        for a, b, c in cells(1):
            if a >= 3 and b >= 3:
                n = a + b + c
                p = next(q for q in range(n, 2 * n + 2) if is_prime(q))
                out.append(dict(a=a, b=b, n=n, mod_n=is_solution(sum_mod(a, b, c, m=n), a, b, c),
                                p=p, mod_p=is_solution(sum_mod(a, b, c, m=p), a, b, c)))
        return pd.DataFrame(out)
    return cached_table(SUM_MOD, rows)


@cache.rebuilds("russian_cards_report_dfs")
def report_dfs_table() -> pd.DataFrame:
    """The report's solver on the sizes of its two tables: data/russian_cards_report_dfs.csv."""
    def rows() -> pd.DataFrame:
        sizes = [(a, a, c) for a in range(2, 6) for c in range(1, 5) if a > c]
        sizes += [(a, b, 1) for a in range(2, 7) for b in range(2, 7) if a != b]
        return report_solver_table(sizes, max_nodes=50000)
    return cached_table(REPORT_DFS, rows)


# -- the report's tables with the report's own solver -----------------------------------------
def report_solver_table(
    sizes: Iterable[tuple[int, int, int]], max_nodes: int = 20000,
) -> pd.DataFrame:
    """Run the report's depth-first solver on each size (node budget): Y, N, or '?' (budget out)."""
    sizes = [checks.integers(s, "a size (a, b, c)") for s in checks.sequence(sizes, "sizes")]
    max_nodes = checks.integer(max_nodes, "max_nodes", low=0, high=100 * MAX_NODES)
    if any(len(s) != 3 for s in sizes):
        raise ValueError(f"each size is (a, b, c), got {sizes}")
    rows = []
    for a, b, c in sizes:
        r = report_dfs(a, b, c, max_nodes=max_nodes)
        verdict = "Y" if r.announcement else ("N" if r.complete else "?")
        rows.append(dict(a=a, b=b, c=c, report_dfs=verdict, nodes=r.nodes,
                         found=short(r.announcement) if r.announcement else ""))
    return pd.DataFrame(rows)


# What `puzzlelab compute` runs for the tables the notebook reads from other tables.
cache.rebuilds(SMALLEST)(lambda: smallest_table(grid_table()))
# ORBITS from the smallest announcements before the orbits improve them (`smallest_table` asks
# `orbit_table` for exactly that), not from a table they already improved (nothing left to find)
cache.rebuilds(ORBITS)(lambda: smallest_table(grid_table()))


# -- the runs `puzzlelab compute` calls for the grids and the long runs ------------------------
def _call(function: str, **arguments: Any) -> str:
    """The Python call that wrote a table of its own settings (what its metadata records)."""
    shown = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return f"puzzlelab.russian_cards.tables.{function}({shown})"


def _grid_table(cs: tuple[int, ...], n_min: int, n_max: int) -> Table:
    """The table a grid run writes: the notebook's grid, the wide grid, or one of its own."""
    if not any(cells(c, n_max, n_min) for c in checks.integers(cs, "c", low=1)):
        raise ValueError(f"no cell has c in {list(cs)} and {n_min} <= n <= {n_max} "
                         f"(a, b >= 1: n >= c + 2)")
    for table in (GRID, WIDE):
        if table.params == dict(c=list(cs), n_min=n_min, n_max=n_max):
            return table
    return GRID.variant(name=grid_name(n_min, n_max, cs), c=cs, n_min=n_min, n_max=n_max,
                        command=_call("grid_run", n_min=n_min, n_max=n_max, c=list(cs)))


def grid_run(*, n_min: int = 1, n_max: int = N_MAX, c: Sequence[int] = C_VALUES,
             smallest: bool = False, executor: Executor | None = None,
             workers: int = 1) -> pd.DataFrame:
    """Decide the grid for `n_min` <= n <= `n_max` and write it: data/russian_cards_grid.csv
    for the notebook's settings, the wide grid's table for 17..20, else a table of its own
    (`grid.grid_name`), never a committed table replaced by a different one; with `smallest`,
    also its smallest announcements (beside it, `_min_size` for `_grid`)."""
    n_min = checks.integer(n_min, "n_min", low=1)
    n_max = checks.integer(n_max, "n_max", low=1)
    cs = checks.integers(c, "c", low=1)
    smallest = checks.boolean(smallest, "smallest")
    executor, workers = checks.sweep_options(executor, workers)
    target = cache.check_writable(_grid_table(cs, n_min, n_max))
    small = None
    if smallest:
        small = cache.check_writable(SMALLEST.variant(
            name=target.name.replace("_grid", "_min_size"), c=cs, n_min=n_min, n_max=n_max,
            command=_call("grid_run", n_min=n_min, n_max=n_max, c=list(cs), smallest=True)))
    grid = cache.compute_table(target, lambda: decide_grid(
        cs, n_max, n_min=n_min, executor=executor, workers=workers), verify=check_grid)
    if small is not None:
        cache.compute_table(small, lambda: min_sizes(grid, n_max, executor=executor,
                                                     workers=workers), verify=check_min_sizes)
    return grid


@cache.rebuilds(MATRIX)
def matrix_run(*, work: float = MATRIX_WORK, executor: Executor | None = None,
               workers: int = 1) -> pd.DataFrame:
    """The open smallest sizes decided by the matrix model, `work` CP-SAT work units per size:
    data/russian_cards_min_size_matrix.csv (another `work`: a table of its own)."""
    executor, workers = checks.sweep_options(executor, workers)
    table = cache.check_writable(MATRIX.variant(work=work, command=_call("matrix_run", work=work)))
    return cache.compute_table(table, lambda: matrix_min_sizes(
        smallest_table(grid_table(), matrix=False), table.params["work"],
        executor=executor, workers=workers), verify=check_min_sizes)


@cache.rebuilds(LONG)
def descend_run(*, n_max: int = N_MAX, work: float = LONG_WORK,
                executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The long descent (`work` CP-SAT work units per step) on the cached smallest-announcement
    table: data/russian_cards_min_size_long.csv (other settings: a table of their own)."""
    executor, workers = checks.sweep_options(executor, workers)
    table = cache.check_writable(LONG.variant(n_max=n_max, work=work, command=_call(
        "descend_run", n_max=n_max, work=work)))
    return cache.compute_table(table, lambda: longer_min_sizes(
        read_table(SMALLEST), table.params["n_max"], table.params["work"],
        executor=executor, workers=workers, name=table.name), verify=check_min_sizes)


cache.rebuilds(WIDE)(functools.partial(grid_run, n_min=N_MAX + 1, n_max=N_LIMIT))


# -- the sizes the wide grid leaves open: long attempts (`open_cases`) ---------------------------
OPEN_ATTEMPTS = continued(cache.register(Table("russian_cards_open_attempts",
                                               params=dict(work=ATTEMPT_WORK), long_run=True,
                                               check=check_attempts)))


@cache.rebuilds(OPEN_ATTEMPTS)
def open_attempts_run(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """A long attempt (`ATTEMPT_WORK` CP-SAT units per case) on every size the wide grid leaves
    open, `workers` sizes at a time: data/russian_cards_open_attempts.csv, written after each
    batch and continued from the sizes it holds (`long_runs.continue_run`)."""
    executor, workers = checks.sweep_options(executor, workers)
    cases = [(*abc, ATTEMPT_WORK) for abc in open_cells(wide_grid_table())]
    return continue_run(OPEN_ATTEMPTS, attempt_row, cases, ATTEMPT_COLUMNS, 3,
                        executor=executor, workers=workers, desc="open Russian Cards sizes",
                        cost="cpu_seconds")


def open_attempts_table() -> pd.DataFrame | None:
    """The long attempts on the open sizes (data/russian_cards_open_attempts.csv, checked), or
    None when that run is not in data/."""
    return read_long_run(OPEN_ATTEMPTS, verify=check_attempts)


OPEN_FOCUS = continued(cache.register(Table(
    "russian_cards_open_focus", params=dict(work=FOCUS_WORK, literals=FOCUS_LITERALS),
    long_run=True, check=check_attempts)))


@cache.rebuilds(OPEN_FOCUS)
def open_focus_run(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The second round (`FOCUS_WORK` CP-SAT units per size, where the long attempt stopped) on
    every size the long attempts left open, `workers` sizes at a time:
    data/russian_cards_open_focus.csv, written after each batch and continued like them. The
    sizes on which the attempt built no case (the whole model too large) run first."""
    executor, workers = checks.sweep_options(executor, workers)
    if (attempts := open_attempts_table()) is None:
        raise ValueError("the second round goes on where the long attempts stopped: compute "
                         "russian_cards_open_attempts first")
    rows = [r for r in attempts.to_dict("records") if r["status"] == "open"]
    rows.sort(key=lambda r: not r["method"].startswith("open (size)"))  # stable: table order
    cases = [(int(r["a"]), int(r["b"]), int(r["c"]), FOCUS_WORK, stuck_at(r)) for r in rows]
    return continue_run(OPEN_FOCUS, focus_row, cases, ATTEMPT_COLUMNS, 3,
                        executor=executor, workers=workers, desc="open Russian Cards sizes, "
                        "second round", cost="cpu_seconds")


def open_focus_table() -> pd.DataFrame | None:
    """The second round on the open sizes (data/russian_cards_open_focus.csv, checked), or None
    when that run is not in data/."""
    return read_long_run(OPEN_FOCUS, verify=check_attempts)


OPEN_SAT = continued(cache.register(Table(
    "russian_cards_open_sat", params=dict(conflicts=SAT_CONFLICTS, literals=SAT_LITERALS,
                                          solver=SAT_SOLVERS[0]),
    long_run=True, check=check_sat_round)))


@cache.rebuilds(OPEN_SAT)
def open_sat_run(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The third round (`SAT_CONFLICTS` Kissat conflicts per case, where the second round
    stopped) on every size the second round left open, `workers` sizes at a time:
    data/russian_cards_open_sat.csv, written after each batch and continued like them. The
    sizes stopped by a case too large for CP-SAT run first, then those with the least CPU time
    in the first two rounds. Each size runs in a process of its own, even one at a time: PySAT
    holds the GIL while it solves and would otherwise silence the run's heartbeat for an hour."""
    executor, workers = checks.sweep_options(executor, workers)
    if (focus := open_focus_table()) is None or (attempts := open_attempts_table()) is None:
        raise ValueError("the third round goes on where the second stopped: compute "
                         "russian_cards_open_attempts and russian_cards_open_focus first")
    spent = {(r.a, r.b, r.c): r.cpu_seconds for r in attempts.itertuples()}
    rows = [r for r in focus.to_dict("records") if r["status"] == "open"]
    rows.sort(key=lambda r: (not r["method"].startswith("open (size)"),
                             r["cpu_seconds"] + spent.get((r["a"], r["b"], r["c"]), 0)))
    cases = [(int(r["a"]), int(r["b"]), int(r["c"]), SAT_CONFLICTS, stuck_at(r)) for r in rows]
    return continue_run(OPEN_SAT, sat_row, cases, SAT_COLUMNS, 3, executor=executor,
                        workers=workers, desc="open Russian Cards sizes, third round (SAT)",
                        cost="cpu_seconds", isolate=True)


def open_sat_table() -> pd.DataFrame | None:
    """The third round on the open sizes (data/russian_cards_open_sat.csv, checked), or None
    when that run is not in data/."""
    return read_long_run(OPEN_SAT, verify=check_sat_round)


OPEN_HUNT = cache.register(Table("russian_cards_open_hunt", params=dict(work=HUNT_WORK),
                                 long_run=True, check=check_attempts))


@cache.rebuilds(OPEN_HUNT)
def open_hunt_run(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The witness hunt alone (`HUNT_WORK` CP-SAT units per size) on every size the wide grid
    leaves open, one resumable chunk each: data/russian_cards_open_hunt.csv."""
    executor, workers = checks.sweep_options(executor, workers)
    table = cache.check_writable(OPEN_HUNT)
    return cache.compute_table(table, lambda: long_attempts(
        open_cells(wide_grid_table()), HUNT_WORK, name=table.name, executor=executor,
        workers=workers, hunt_only=True), verify=check_attempts)


def open_hunt_table() -> pd.DataFrame | None:
    """The witness hunt on the open sizes (data/russian_cards_open_hunt.csv, checked), or None
    when that run is not in data/."""
    return read_long_run(OPEN_HUNT, verify=check_attempts)
