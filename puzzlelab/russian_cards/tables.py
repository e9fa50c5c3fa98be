"""The named tables of Russian Cards in data/: their declarations, the functions that compute
and read them, and the command line that rebuilds the grids and smallest announcements.

Source: group11_rc §4-5 and the appendix. The only module of the puzzle that reads or writes
the cached tables in data/ (through `puzzlelab.cache`); a cached witness is re-checked by its
verifier (`grid.check_grid`, `grid.check_min_sizes`) whenever its table is read.

Command line (`main`; `python -m puzzlelab.russian_cards.grid` runs it, the command the tables
record). It writes data/russian_cards_grid.csv, the table the notebook reads; any other range of
decks or of Cath's hand sizes goes to a table of its own (`grid.grid_name`)::

    python -m puzzlelab.russian_cards.grid --max-n 16 [--workers N] [--scheduler ADDR|local]

The wider grid (decks of 17 to 20 cards; not part of `make reproduce`, resumable) writes
data/russian_cards_grid_n17_20.csv::

    python -m puzzlelab.russian_cards.grid --min-n 17 --max-n 20 [--workers 2]

The long run (`grid.longer_min_sizes`: a descent of `LONG_WORK` CP-SAT work units per step on
every unproven smallest announcement; not part of `make reproduce`) writes
data/russian_cards_min_size_long.csv::

    python -m puzzlelab.russian_cards.grid --descend --max-n 16 [--work 40] [--workers 2]

`grid.matrix_min_sizes` decides the sizes still open after the descent and the orbit search,
size by size, with the rows-by-cards model of `matrix` (a long run; writes
data/russian_cards_min_size_matrix.csv)::

    python -m puzzlelab.russian_cards.grid --matrix [--work 100] [--workers 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from itertools import combinations
from typing import Any

import pandas as pd

from .. import cache, checks, sweeps
from ..cache import Table, cached_source_table, cached_table, read_long_run, read_table
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
from .search import MAX_NODES, packings, report_dfs

__all__ = [
    "AGREEMENT", "COMMAND", "GRID", "LONG", "MATRIX", "MATRIX_TABLE", "ORBITS", "ORBIT_TABLE",
    "REPORT_DFS", "SMALLEST", "SUM_MOD", "WIDE", "WIDE_TABLE", "agreement_table",
    "appendix_table", "c1_table", "candidate_families", "grid_table", "improved_by_descent",
    "matrix_table", "orbit_table", "report_dfs_table", "report_solver_table", "smallest_table",
    "sum_mod_table", "wide_grid_table",
]  # and `main`, the command line (python -m puzzlelab.russian_cards.grid)

COMMAND = "python -m puzzlelab.russian_cards.grid"  # the command line of `main`
WIDE_TABLE = f"russian_cards_grid_n{N_MAX + 1}_{N_LIMIT}"  # the wider grid's table in data/
ORBIT_TABLE = "russian_cards_min_size_orbits"  # smaller announcements made of orbits
MATRIX_TABLE = "russian_cards_min_size_matrix"  # sizes settled by the matrix model (long run)


# -- the tables in data/ ------------------------------------------------------------------------
# The grids and smallest announcements: what makes each, and the command that rebuilds it.
GRID = cache.register(Table(GRID_TABLE, params=dict(c=C_VALUES, n_min=1, n_max=N_MAX),
                            command=f"{COMMAND} --max-n {N_MAX}", check=check_grid))
WIDE = cache.register(Table(WIDE_TABLE, params=dict(c=C_VALUES, n_min=N_MAX + 1, n_max=N_LIMIT),
                            command=f"{COMMAND} --min-n {N_MAX + 1} --max-n {N_LIMIT} --workers 2",
                            long_run=True, check=check_grid))
SMALLEST = cache.register(Table("russian_cards_min_size",
                                params=dict(c=C_VALUES, n_min=1, n_max=N_MAX, work=MIN_WORK),
                                command=f"{COMMAND} --max-n {N_MAX} --smallest",
                                check=check_min_sizes))
LONG = cache.register(Table(LONG_TABLE, params=dict(n_max=N_MAX, work=LONG_WORK),
                            command=f"{COMMAND} --descend --workers 2", long_run=True,
                            check=check_min_sizes))
ORBITS = cache.register(Table(ORBIT_TABLE, params=dict(work=ORBIT_WORK), check=check_min_sizes))
MATRIX = cache.register(Table(MATRIX_TABLE, params=dict(work=MATRIX_WORK),
                              command=f"{COMMAND} --matrix --workers 2", long_run=True,
                              check=check_min_sizes))
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
    `python -m puzzlelab.russian_cards.grid --matrix`), every witness verified."""
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
cache.rebuilds(ORBITS)(lambda: orbit_table(smallest_table(grid_table())))


# -- command line -----------------------------------------------------------------------------
def _grid_table(args: Any, command: str) -> Table:
    """The table a grid run writes: the notebook's grid, the wide grid, or one of its own."""
    cs, n_min, n_max = tuple(args.c), args.min_n, args.max_n
    if not any(cells(c, n_max, n_min) for c in checks.integers(cs, "--c", low=1)):
        raise ValueError(f"no cell has c in {list(cs)} and {n_min} <= n <= {n_max} "
                         f"(a, b >= 1: n >= c + 2)")
    for table in (GRID, WIDE):
        if table.params == dict(c=list(cs), n_min=n_min, n_max=n_max):
            return table
    return GRID.variant(name=grid_name(n_min, n_max, cs), command=command, c=cs, n_min=n_min,
                        n_max=n_max)


def main(argv: Sequence[str] | None = None) -> pd.DataFrame:
    """Decide the grid for --min-n <= n <= --max-n and write data/russian_cards_grid.csv
    (for other decks or values of c, a table of its own: `grid.grid_name`), or, with --descend,
    improve data/russian_cards_min_size.csv into data/russian_cards_min_size_long.csv, or, with
    --matrix, decide the sizes still open with the matrix model
    (data/russian_cards_min_size_matrix.csv). Other settings than the notebook's write tables
    of their own names; a committed table is never replaced by a different one."""
    parser = sweeps.CommandParser(prog=COMMAND, description=main.__doc__)
    parser.add_argument("--max-n", type=int, default=N_MAX, help="largest deck (default 16)")
    parser.add_argument("--min-n", type=int, default=1,
                        help="smallest deck (default 1); with a value > 1 the run is resumable "
                             "and writes data/russian_cards_grid_n{min}_{max}.csv")
    parser.add_argument("--c", type=int, nargs="+", default=list(C_VALUES),
                        help="Cath's hand sizes")
    parser.add_argument("--smallest", action="store_true",
                        help="also write data/russian_cards_min_size.csv")
    only = parser.add_mutually_exclusive_group()  # one long run at a time
    only.add_argument("--descend", action="store_true",
                        help="only run the long descent on the cached smallest-announcement table "
                             f"and write data/{LONG_TABLE}.csv (resumable)")
    only.add_argument("--matrix", action="store_true",
                        help="only decide the open smallest sizes with the matrix model and "
                             f"write data/{MATRIX_TABLE}.csv")
    parser.add_argument("--work", type=float, default=None,
                        help=f"CP-SAT work units per descent step (default {LONG_WORK:g}) or, "
                             f"with --matrix, per size (default {MATRIX_WORK:g})")
    sweeps.add_executor_arguments(parser)
    args = parser.parse_args(argv)
    command = sweeps.invocation(parser, argv)
    if args.matrix:
        return _matrix_command(args, MATRIX.variant(command=command,
                                                    work=args.work or MATRIX_WORK))
    if args.descend:
        return _descend_command(args, LONG.variant(command=command, n_max=args.max_n,
                                                   work=args.work or LONG_WORK))
    target = cache.check_writable(_grid_table(args, command))
    smallest = None
    if args.smallest:
        smallest = cache.check_writable(SMALLEST.variant(
            name=target.name.replace("_grid", "_min_size"), command=command, c=args.c,
            n_min=args.min_n, n_max=args.max_n))
    with sweeps.executor_from_arguments(args) as (executor, workers):
        grid = cache.compute_table(target, lambda: decide_grid(
            args.c, args.max_n, n_min=args.min_n, executor=executor, workers=workers),
            verify=check_grid)
        print(f"wrote {cache.data_path(target.name)} ({len(grid)} cells)")
        if smallest is not None:
            table = cache.compute_table(smallest, lambda: min_sizes(
                grid, args.max_n, executor=executor, workers=workers), verify=check_min_sizes)
            print(f"wrote {cache.data_path(smallest.name)} ({len(table)} sizes)")
    return grid


def _matrix_command(args: Any, table: Table) -> pd.DataFrame:
    """--matrix: the open smallest sizes decided by the matrix model."""
    cache.check_writable(table)
    with sweeps.executor_from_arguments(args) as (executor, workers):
        out = cache.compute_table(table, lambda: matrix_min_sizes(
            smallest_table(grid_table(), matrix=False), table.params["work"],
            executor=executor, workers=workers), verify=check_min_sizes)
    print(f"wrote {cache.data_path(table.name)} ({int(out.proven.sum())} of {len(out)} sizes "
          f"changed now exact)")
    return out


def _descend_command(args: Any, table: Table) -> pd.DataFrame:
    """--descend: the long descent on the cached smallest-announcement table."""
    cache.check_writable(table)
    with sweeps.executor_from_arguments(args) as (executor, workers):
        out = cache.compute_table(table, lambda: longer_min_sizes(
            read_table(SMALLEST), table.params["n_max"], table.params["work"],
            executor=executor, workers=workers, name=table.name), verify=check_min_sizes)
    print(f"wrote {cache.data_path(table.name)} ({int(out.proven.sum())} of {len(out)} cells "
          f"proven)")
    return out
