"""Solvability grids and smallest announcements over many sizes, on any executor.

Source: group11_rc §4 (its two Y/N tables: a = b against c, and a against b with c = 1),
extended to every (a, b, c) with n = a + b + c <= N_MAX and c = 1, 2, 3.

* :func:`decide_grid` — `solver.decide` on every cell (witness or proof);
* :func:`min_sizes` — the smallest announcement of every solvable cell (CP-SAT minimisation
  with a deterministic work limit, the grid's witness as a hint); :func:`longer_min_sizes`
  improves it by `descend` (one hand fewer at a time, until CP-SAT proves there is none);
* both run serially, on local processes (`workers=`) or on any `concurrent.futures.Executor`
  (`executor=`, e.g. a Dask client's) through `puzzlelab.sweeps`, with the same table whatever
  runs them (every step is deterministic and results come back in the order of the cells).

The tables these sweeps fill in data/ are declared in `tables`; `puzzlelab compute NAME`
rebuilds each.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from .. import checks, sweeps
from ..bitsets import from_bits
from ..solvers import solve_limited, work_used
from .model import Announcement, cards, counting_lower_bound, hand_lists, is_solution
from .matrix import MATRIX_WORK, settle
from .search import cpsat_model
from .orbits import group_search, witness_groups
from .smallest import fewer_hands, shrink
from .solver import Verdict, decide, lemma_proof, steiner_size

__all__ = [
    "C_VALUES", "GRID_COLUMNS", "GRID_TABLE", "LONG_TABLE", "LONG_WORK", "MIN_WORK", "N_LIMIT",
    "N_MAX", "ORBIT_WORK", "ROW_KEYS", "cells", "check_grid", "check_min_sizes", "check_table",
    "decide_grid", "descend", "fewer_hands", "fewest_on_orbits", "format_announcement",
    "grid_name", "grid_row", "longer_min_sizes", "matrix_min_sizes", "matrix_row", "min_sizes",
    "orbit_min_sizes", "parse_announcement", "short", "smallest_row", "verify_grid",
]

N_MAX = 16
N_LIMIT = 20    # the largest deck a grid sweep accepts (C(20, 10) hands: `model.MAX_HANDS`)
MIN_WORK = 3.0  # CP-SAT work units per cell for the smallest announcement
LONG_WORK = 40.0  # CP-SAT work units per symmetry case and descent step of the long run
GRID_TABLE = "russian_cards_grid"  # the notebook's grid in data/ (n <= N_MAX, c in C_VALUES)
LONG_TABLE = "russian_cards_min_size_long"  # the long run's table in data/
ORBIT_WORK = 5.0  # CP-SAT work units per group when minimising over unions of orbits
ROW_KEYS = ("a", "b", "c", "smallest", "lower_bound", "proven", "witness")  # what `descend` reads
GRID_COLUMNS = ["a", "b", "c", "n", "status", "method", "proof", "size", "work_units", "detail",
                "witness"]
C_VALUES = (1, 2, 3)  # Cath's hand sizes of the grids the notebook reads


# -- witnesses as text (for CSV caches) -------------------------------------------------------
def format_announcement(ann: Iterable[Iterable[int]] | None) -> str:
    """'0 1 2|0 3 4|...' (hands separated by '|'; '' for no announcement)."""
    if ann is None:
        return ""
    return "|".join(" ".join(map(str, h)) for h in hand_lists(ann))


def parse_announcement(text: str) -> Announcement:
    """Inverse of format_announcement."""
    if not checks.text(text, "announcement text").strip():
        raise ValueError("empty announcement text")
    try:
        return tuple(tuple(int(q) for q in h.split()) for h in text.split("|"))
    except ValueError:
        raise ValueError(f"an announcement text is '0 1 2|0 3 4|...', got {text!r}") from None


def short(ann: Iterable[Iterable[int]]) -> str:
    """Compact display '012 034 ...' (cards as digits when the deck has at most 10 cards)."""
    hs = hand_lists(ann)
    wide = any(q > 9 for h in hs for q in h)
    return " ".join(("." if wide else "").join(map(str, h)) for h in hs)


# -- the grid ---------------------------------------------------------------------------------
def cells(c: int, n_max: int = N_MAX, n_min: int = 1) -> list[tuple[int, int, int]]:
    """Every (a, b, c) with a, b >= 1 and n_min <= a + b + c <= n_max."""
    c = checks.integer(c, "c", low=1, high=64)
    n_max = checks.integer(n_max, "n_max", low=1, high=64)
    n_min = checks.integer(n_min, "n_min", low=1, high=64)
    return [(a, b, c) for a in range(1, n_max) for b in range(1, n_max)
            if n_min <= a + b + c <= n_max]


def grid_name(n_min: int = 1, n_max: int = N_MAX, c_values: Iterable[int] = C_VALUES) -> str:
    """The table in data/ of a grid: russian_cards_grid for the notebook's (n <= 16, c = 1..3),
    else russian_cards_grid_n{min}_{max}, with _c{c...} when Cath's sizes are not 1, 2, 3."""
    n_min = checks.integer(n_min, "n_min", low=1)
    n_max = checks.integer(n_max, "n_max", low=1)
    cs = checks.integers(c_values, "c_values", low=1)
    if (n_min, n_max, cs) == (1, N_MAX, C_VALUES):
        return GRID_TABLE
    return f"russian_cards_grid_n{n_min}_{n_max}" + ("" if cs == C_VALUES else
                                                     "_c" + "-".join(map(str, cs)))


def grid_row(abc: tuple[int, int, int]) -> dict:
    """One grid row: `decide` on (a, b, c), its proof, witness and CP-SAT work (deterministic)."""
    a, b, c = checks.integers(abc, "cell", low=1)
    v: Verdict = decide(a, b, c)
    return dict(a=v.a, b=v.b, c=v.c, n=v.a + v.b + v.c, status=v.status, method=v.method,
                proof=v.proof.kind, size=v.size, work_units=round(v.work, 2), detail=v.detail,
                witness=format_announcement(v.witness))


def decide_grid(
    c_values: Iterable[int] = (1, 2, 3), n_max: int = N_MAX, *, n_min: int = 1,
    executor: Executor | None = None, workers: int = 1,
) -> pd.DataFrame:
    """Decide every cell (witness or proof, the method named), in the order of the cells.

    `work_units` is CP-SAT's deterministic time for the cell (the same on every machine). A
    grid other than the default one (`n_min` > 1) is resumable: finished cells are kept in
    data/partial/ until the table is complete.
    """
    n_max = checks.integer(n_max, "n_max", low=1, high=N_LIMIT)
    n_min = checks.integer(n_min, "n_min", low=1, high=n_max)
    todo = [abc for c in checks.integers(c_values, "c_values", low=1)
            for abc in cells(c, n_max, n_min)]
    if n_min > 1:
        table = sweeps.sweep_table(grid_name(n_min, n_max, c_values), grid_row, todo,
                                   executor=executor, workers=workers, desc="Russian cards grid")
        return table.reindex(columns=GRID_COLUMNS).astype({"size": "Int64"})
    rows = sweeps.sweep(grid_row, todo, executor=executor, workers=workers,
                        desc="Russian cards grid")
    return pd.DataFrame(rows, columns=GRID_COLUMNS).astype({"size": "Int64"})


def _grid_row_problem(row: Mapping[str, Any]) -> str | None:
    """Why one row of a grid table does not hold (None when it does): its witness is re-checked
    by the verifier, its lemma re-derived, and its status, proof kind and size must agree."""
    a, b, c = int(row["a"]), int(row["b"]), int(row["c"])
    status, proof, size = row["status"], row["proof"], row["size"]
    witness = "" if pd.isna(row["witness"]) else str(row["witness"])
    if int(row["n"]) != a + b + c:
        return f"has n = {row['n']}"
    if status == "solvable":
        if proof not in ("construction", "solver", "exhaustive"):
            return f"is solvable by a proof of kind {proof!r}"
        try:
            ann = parse_announcement(witness)
        except ValueError:
            return "is solvable without a witness"
        if tuple(range(a)) not in ann or not is_solution(ann, a, b, c):
            return "has a witness that fails the verifier"
        if pd.isna(size) or int(size) != len(ann):
            return f"records size {size} for a witness of {len(ann)} hands"
    elif status == "unsolvable":
        if witness:
            return "is unsolvable yet has a witness"
        if proof not in ("lemma", "exhaustive", "solver"):
            return f"is unsolvable by a proof of kind {proof!r}"
        if proof == "lemma" and lemma_proof(a, b, c) is None:
            return "is ruled out by a lemma that does not apply to it"
    elif status != "open" or proof != "open":
        return f"has status {status!r} with a proof of kind {proof!r}"
    return None


GRID_CHECKED = ["a", "b", "c", "n", "status", "proof", "size", "witness"]


def verify_grid(grid: pd.DataFrame) -> pd.Series:
    """Re-check every row of a grid table (True where it holds): each witness by the verifier,
    each lemma re-derived, and status, proof kind and size consistent."""
    rows = check_table(grid, GRID_CHECKED).to_dict("records")
    return pd.Series([_grid_row_problem(r) is None for r in rows], index=grid.index, dtype=bool)


def check_grid(grid: pd.DataFrame) -> None:
    """Raise ValueError naming the first cell of a grid table that does not hold, and why."""
    for row in check_table(grid, GRID_CHECKED).to_dict("records"):
        problem = _grid_row_problem(row)
        if problem is not None:
            raise ValueError(f"the cell ({row['a']},{row['b']},{row['c']}) {problem}")


def check_table(df: object, columns: Sequence[str]) -> pd.DataFrame:
    """`df` if it is a DataFrame with these columns (TypeError / ValueError otherwise)."""
    return checks.table(df, "the table", columns)


# -- the smallest announcement ---------------------------------------------------------------
def smallest_row(cell: tuple[int, int, int, str], work_limit: float = MIN_WORK) -> dict:
    """The smallest announcement found for one cell (a, b, c, grid witness), and its bounds.

    The grid's witness and random maximal packings are pruned (`smallest.shrink`); CP-SAT then
    minimises over the whole model with the smallest of them as a hint, which is kept when
    nothing smaller is found within the work limit. The lower bound is the larger of CP-SAT's
    bound, the counting lemmas' bound (`model.counting_lower_bound`) and Lemma C's exact size
    (b = c + 1); `proven` when the lower bound meets the size found.
    """
    if not isinstance(cell, (tuple, list)) or len(cell) != 4:
        raise checks.ArgumentTypeError(f"a cell is (a, b, c, grid witness), got {cell!r}")
    a, b, c, witness = cell
    given = parse_announcement(witness)
    if not is_solution(given, a, b, c):
        raise ValueError(f"the grid witness of {(a, b, c)} is not an informative and safe "
                         f"announcement: {witness!r}")
    grid_size = len(given)
    start = shrink(a, b, c, given)
    model, x = cpsat_model(a, b, c, minimize=True)
    hint = {from_bits(h) for h in start}
    for h, v in x.items():
        model.add_hint(v, int(h in hint))
    res = solve_limited(model, work_limit, what=f"smallest announcement {(a, b, c)}")
    ann = start
    if res.feasible and res.objective < len(ann):
        ann = tuple(sorted(cards(h) for h, v in x.items() if res.value(v)))
    if not is_solution(ann, a, b, c):
        raise AssertionError(f"the smallest announcement found for {(a, b, c)} fails the verifier")
    bound = int(np.ceil(res.bound - 1e-9)) if res.feasible else 0
    low = max(bound, counting_lower_bound(a, b, c), steiner_size(a, b, c) or 0)
    return dict(a=a, b=b, c=c, n=a + b + c, grid_size=grid_size, smallest=len(ann),
                lower_bound=low, proven=res.optimal or low == len(ann),
                work_units=round(work_used(res), 2), witness=format_announcement(ann))


def min_sizes(
    grid: pd.DataFrame, n_max: int = N_MAX, work_limit: float = MIN_WORK, *,
    executor: Executor | None = None, workers: int = 1,
) -> pd.DataFrame:
    """Smallest announcement per solvable cell with n <= n_max (`smallest_row` on each)."""
    grid = check_table(grid, ["a", "b", "c", "n", "status", "witness"])
    n_max = checks.integer(n_max, "n_max", low=1, high=N_LIMIT)
    work_limit = checks.number(work_limit, "work_limit", low=0.01, high=1000)
    todo = grid[(grid.status == "solvable") & (grid.n <= n_max)].sort_values(["n", "c", "a", "b"])
    params = [(int(r.a), int(r.b), int(r.c), r.witness) for r in todo.itertuples()]
    task = functools.partial(smallest_row, work_limit=work_limit)
    return pd.DataFrame(sweeps.sweep(task, params, executor=executor, workers=workers,
                                     desc="smallest announcements"))


def descend(row: dict, work: float = LONG_WORK) -> dict:
    """Improve one row of the smallest-announcement table by descent (group11_rc §4, extended).

    While unproven: ask CP-SAT for a safe announcement with one hand fewer than the best known
    (`smallest.fewer_hands`: every symmetry case, `work` units each). One found replaces the
    witness; none proves the best known smallest (any smaller announcement has at most that
    many hands); the first step that runs out of work ends the descent. Adds `descent_steps`,
    `descent_work` (the limit per case) and `last_step_work` (the work units of the last step:
    a proof's cost).
    """
    work = checks.number(work, "work", low=0.01, high=10_000)
    if not isinstance(row, Mapping):
        raise checks.ArgumentTypeError(f"a row is a mapping (dict), got {type(row).__name__}")
    missing = [k for k in ROW_KEYS if k not in row]
    if missing:
        raise ValueError(f"the row lacks the keys {missing}")
    out = dict(row)
    ann = parse_announcement(str(out["witness"]))
    a, b, c = int(out["a"]), int(out["b"]), int(out["c"])
    steps, last = 0, 0.0
    while not out["proven"]:
        steps += 1
        answer, smaller, last = fewer_hands(a, b, c, len(ann) - 1, work)
        if answer == "unknown":
            break
        if answer == "none":
            out.update(lower_bound=len(ann), proven=True)
            break
        if not is_solution(smaller, a, b, c):
            raise AssertionError(f"the announcement found for {(a, b, c)} fails the verifier")
        ann = smaller
        out.update(smallest=len(ann), witness=format_announcement(ann),
                   proven=int(out["lower_bound"]) == len(ann))
    return out | {"descent_steps": steps, "descent_work": work, "last_step_work": last}


def longer_min_sizes(table: pd.DataFrame, n_max: int = N_MAX, work: float = LONG_WORK, *,
                     executor: Executor | None = None, workers: int = 1,
                     name: str = LONG_TABLE) -> pd.DataFrame:
    """`descend` on every row of a smallest-announcement table with n <= n_max (resumable:
    finished rows wait in data/partial/<name>/)."""
    table = check_table(table, ["n", *ROW_KEYS])
    n_max = checks.integer(n_max, "n_max", low=1, high=N_LIMIT)
    rows = [r for r in table.to_dict("records") if r["n"] <= n_max]
    task = functools.partial(descend, work=checks.number(work, "work", low=0.01, high=10_000))
    return sweeps.sweep_table(name, task, rows, executor=executor, workers=workers,
                              desc="smallest announcements, descent")


def fewest_on_orbits(row: Mapping, work: float = ORBIT_WORK) -> dict | None:
    """A smaller announcement for one unproven row of a smallest-announcement table, made of
    whole orbits of a card group (`orbits.witness_groups`, CP-SAT minimising the hands with
    `work` units per group), or None when no group gives fewer hands than the row."""
    if not isinstance(row, Mapping):
        raise checks.ArgumentTypeError(f"a row is a mapping (dict), got {type(row).__name__}")
    a, b, c = (checks.integer(row.get(k), k, low=1) for k in "abc")
    before = checks.integer(row.get("smallest"), "smallest", low=1)
    low = checks.integer(row.get("lower_bound"), "lower_bound", low=0, high=before)
    ann, best, group, used = None, before, "", 0.0
    for name, _, gens in witness_groups(a + b + c):
        found, spent = group_search(a, b, c, gens, work_limit=work, what=name, fewest=True)
        used += spent
        if found is not None and len(found) < best:
            ann, best, group = found, len(found), name
    if ann is None:
        return None
    return dict(a=a, b=b, c=c, n=a + b + c, before=before, smallest=best,
                lower_bound=low, proven=best == low, group=group, work_units=round(used, 2),
                witness=format_announcement(ann))


def orbit_min_sizes(table: pd.DataFrame, work: float = ORBIT_WORK, *,
                    executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """`fewest_on_orbits` on every unproven row of a smallest-announcement table: the rows it
    improves (columns `before`, `smallest`, `group`, ...), in the table's order."""
    table = check_table(table, ["proven", *ROW_KEYS])
    rows = [r for r in table.to_dict("records") if not r["proven"]]
    task = functools.partial(fewest_on_orbits,
                             work=checks.number(work, "work", low=0.01, high=1000))
    found = sweeps.sweep(task, rows, executor=executor, workers=workers,
                         desc="smallest announcements on orbits")
    columns = ["a", "b", "c", "n", "before", "smallest", "lower_bound", "proven", "group",
               "work_units", "witness"]
    return pd.DataFrame([f for f in found if f is not None], columns=columns)


def matrix_row(row: Mapping, work: float = MATRIX_WORK) -> dict | None:
    """`matrix.settle` on one unproven row: its new bounds and the sizes ruled out, or None when
    it decides no size."""
    settled = settle(row, work)
    if not settled["ruled_out"] and settled["witness"] is None:
        return None
    witness = settled["witness"] or parse_announcement(checks.text(row.get("witness"), "witness"))
    return dict(a=row["a"], b=row["b"], c=row["c"], n=row["a"] + row["b"] + row["c"],
                lower_before=row["lower_bound"], smallest_before=row["smallest"],
                lower_bound=settled["lower_bound"], smallest=settled["smallest"],
                proven=settled["proven"], ruled_out=" ".join(map(str, settled["ruled_out"])),
                work_units=settled["work_units"], witness=format_announcement(witness))


def matrix_min_sizes(table: pd.DataFrame, work: float = MATRIX_WORK, *,
                     executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """`matrix_row` on every unproven row of a smallest-announcement table: the rows it changes,
    in the table's order (data/russian_cards_min_size_matrix.csv, a long run)."""
    table = check_table(table, ["proven", *ROW_KEYS])
    rows = [r for r in table.to_dict("records") if not r["proven"]]
    task = functools.partial(matrix_row, work=checks.number(work, "work", low=0.01, high=1000))
    found = sweeps.sweep(task, rows, executor=executor, workers=workers,
                         desc="smallest announcements as matrices")
    columns = ["a", "b", "c", "n", "lower_before", "smallest_before", "lower_bound", "smallest",
               "proven", "ruled_out", "work_units", "witness"]
    return pd.DataFrame([f for f in found if f is not None], columns=columns)


def check_min_sizes(table: pd.DataFrame) -> None:
    """Raise ValueError naming the first row whose witness or bounds do not hold (a row marked
    proven needs its lower bound to meet its size, and an unproven one needs a gap)."""
    table = check_table(table, ["a", "b", "c", "smallest", "lower_bound", "witness"])
    for r in table.itertuples():
        ann = parse_announcement(r.witness)
        if len(ann) != r.smallest or r.lower_bound > r.smallest or not is_solution(
                ann, r.a, r.b, r.c):
            raise ValueError(f"the smallest announcement of ({r.a},{r.b},{r.c}) fails its check")
        if "proven" in table.columns and bool(r.proven) != (r.lower_bound == r.smallest):
            raise ValueError(f"the smallest announcement of ({r.a},{r.b},{r.c}) is marked "
                             f"{'proven' if r.proven else 'unproven'} with bounds "
                             f"{r.lower_bound}..{r.smallest}")


