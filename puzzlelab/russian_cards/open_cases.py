"""Long attempts on the sizes the wide grid leaves open (c = 3, n = 17..20): where each stands.

The wide grid (`grid.decide_grid`, data/russian_cards_grid_n17_20.csv) stops every CP-SAT call
at 40 work units, and builds no case model over `solver.MAX_LITERALS` literals; twelve sizes stay
open. A long attempt spends `ATTEMPT_WORK` units on one open size, in two phases, and records
what it reached and what it cost (the verdict, the work units, the CPU seconds of the process):

1. **A witness hunt on orbits** (`orbits.orbit_model`, Kramer-Mesner) under every group of
   `orbits.witness_groups` and smaller ones down to products of 3-cycles (`attempt_groups`),
   whose models stay below the literal limit, in rounds of doubling limits (`orbit_hunt`): the
   whole budget when the case model would be too large, a quarter otherwise;
2. **the symmetry cases** (`solver.decide`) with the rest as the limit per case, when the case
   model holds at most `solver.MAX_LITERALS` literals.

Each size is one resumable chunk of a long-run sweep (`sweeps.sweep_table`), so an interrupted
run keeps the sizes it finished.

**A second round** (`focus_row`) gives each size the first attempt left open `FOCUS_WORK` more
units, all on the symmetry cases from where that attempt stopped (`stuck_at`): the case CP-SAT
left undecided, or the first case when the whole model was too large to build. A case's own
model is often far smaller than the whole (`symmetry.case_literals`), so each case is built when
*its* model holds at most `FOCUS_LITERALS` literals, and a model above `solver.MAX_LITERALS` is
built by one worker of the machine at a time (`one_large_case`: about 150 bytes a literal, so
12 GB at the limit). A case the first attempt proved infeasible stays proved, so the two rounds
together make one proof when the second closes every case left.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd

from .. import checks, sweeps
from .grid import check_table, format_announcement, parse_announcement
from ..solvers import solve_limited, work_used
from .model import Announcement, cards, hand_sizes, is_solution
from .orbits import cycle, orbit_model, verified_witness, witness_groups
from .solver import MAX_LITERALS, decide, rule2_literals
from .symmetry import case_literals, case_model, case_range

__all__ = ["ATTEMPT_COLUMNS", "ATTEMPT_WORK", "FOCUS_LITERALS", "FOCUS_WORK", "FocusEnd",
           "HUNT_WORK", "LARGE_CASE_LOCK", "attempt_groups", "attempt_row", "check_attempts",
           "cycles_of", "focus_cases", "focus_row", "hunt_row", "long_attempts", "model_allowance",
           "one_large_case", "open_cells", "orbit_hunt", "round_method", "stuck_at"]

ATTEMPT_WORK = 3_600.0  # CP-SAT work units per open size in a long attempt (40 per case in the grid)
HUNT_WORK = 120.0       # CP-SAT work units per open size in the witness hunt alone
FOCUS_WORK = 3_600.0    # CP-SAT work units per size in the second round, where the first stopped
FOCUS_LITERALS = 80_000_000  # the largest case model the second round builds (about 12 GB)
LARGE_CASE_LOCK = Path(tempfile.gettempdir()) / "puzzlelab-large-case.lock"  # one_large_case's
ATTEMPT_COLUMNS = ["a", "b", "c", "n", "status", "method", "work_limit", "work_units",
                   "cpu_seconds", "detail", "witness"]


def open_cells(grid: pd.DataFrame) -> list[tuple[int, int, int]]:
    """The sizes (a, b, c) a grid table leaves open, in its order."""
    grid = check_table(grid, ["a", "b", "c", "status"])
    rows = grid[grid.status == "open"]
    return [(int(r.a), int(r.b), int(r.c)) for r in rows.itertuples()]


def cycles_of(n: int, d: int) -> list[int]:
    """The permutation made of n // d disjoint d-cycles on the first cards (the rest fixed)."""
    n = checks.integer(n, "n", low=1, high=64)
    d = checks.integer(d, "d", low=1, high=n)
    top = n // d * d
    return [q - q % d + (q + 1) % d if q < top else q for q in range(n)]


def attempt_groups(a: int, b: int, c: int) -> list[tuple[str, list[list[int]]]]:
    """The groups of the witness hunt, largest first: `orbits.witness_groups(n)`, the cycles mod
    n - 2 and n - 3, then products of disjoint d-cycles (orbits of about d hands, so models
    about 1/d of the full one) for d = n // 2 down to 3 while such a model holds at most half
    of `solver.MAX_LITERALS` literals."""
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    if n < 4:
        raise ValueError(f"the witness hunt needs at least 4 cards, got n = {n}")
    groups = [(name, gens) for name, _, gens in witness_groups(n)]
    groups += [(f"a {m}-cycle", [cycle(n, m)]) for m in (n - 2, n - 3)]
    for d in range(n // 2, 2, -1):
        if d not in (n - 2, n - 3) and rule2_literals(a, b, c) / d <= MAX_LITERALS / 2:
            groups.append((f"{n // d} disjoint {d}-cycles", [cycles_of(n, d)]))
    return groups


def orbit_hunt(a: int, b: int, c: int, work: float) -> tuple[Announcement | None, float, str]:
    """The witness hunt: rounds over the groups of `attempt_groups` with a doubling limit (10
    units first), dropping the groups CP-SAT proves have no invariant witness, until a verified
    announcement, `work` units spent or `model_allowance(work)` models built; returns it (or
    None), the units spent and a summary. One model is held at a time (rebuilt each round), so
    memory stays that of the largest."""
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    spent, limit, built, allowance = 0.0, min(10.0, work), 0, model_allowance(work)
    groups = attempt_groups(a, b, c)
    left = list(groups)
    while left and spent < work and built < allowance:
        for name, gens in list(left):
            model, y, orbits = orbit_model(a, b, c, gens)
            built += 1
            res = solve_limited(model, max(0.01, min(limit, work - spent)),
                                what=f"orbit hunt {(a, b, c)}, {name}")
            spent += work_used(res)
            if res.feasible:
                hands = [cards(h) for i, orb in enumerate(orbits) if res.value(y[i]) for h in orb]
                ann = verified_witness(a, b, c, hands, f"the orbit hunt on {name}")
                return ann, spent, f"orbits of {name}: a witness (limit {limit:g} units)"
            if res.infeasible:
                left.remove((name, gens))
            if spent >= work or built >= allowance:
                break
        limit *= 2
    names = ", ".join(name for name, _ in left) or "no group"
    cap = f"; all {allowance} models allowed built" if built >= allowance and left else ""
    return None, spent, (f"no witness on orbits of {len(groups)} groups ({len(groups) - len(left)}"
                         f" proved to have none; {names} undecided at {limit / 2:g} units{cap})")


def model_allowance(work: float) -> int:
    """The most orbit models the hunt builds on a budget of `work` units: one a unit, at least
    one. Groups CP-SAT proves empty cost almost no units, while a model takes up to seconds to
    build at n = 20, so without it a tiny budget would still build every group's model."""
    work = checks.number(work, "work", low=0.01, high=10_000)
    return max(1, int(work))


def hunt_row(case: tuple[int, int, int, float]) -> dict:
    """The witness hunt alone on (a, b, c) with `work` units (`orbit_hunt`), its cost recorded."""
    a, b, c, work = checks.sequence(case, "case", what="a tuple (a, b, c, work)", length=4)
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    start = time.process_time()
    ann, spent, hunt = orbit_hunt(a, b, c, work)
    found = ann is not None
    return dict(a=a, b=b, c=c, n=a + b + c, status="solvable" if found else "open",
                method="CP-SAT on orbits (witness hunt)" if found else "open: no witness found",
                work_limit=work, work_units=round(spent, 2),
                cpu_seconds=round(time.process_time() - start), detail=hunt,
                witness=format_announcement(ann))


def attempt_row(case: tuple[int, int, int, float]) -> dict:
    """One long attempt on (a, b, c) with `work` units: the orbit hunt, then the symmetry cases
    when their model fits (module docstring), its cost recorded."""
    a, b, c, work = checks.sequence(case, "case", what="a tuple (a, b, c, work)", length=4)
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    start = time.process_time()
    fits = rule2_literals(a, b, c) <= MAX_LITERALS
    ann, spent, hunt = orbit_hunt(a, b, c, max(0.01, work / 4) if fits else work)
    row = dict(a=a, b=b, c=c, n=a + b + c, work_limit=work)
    if ann is not None:
        row.update(status="solvable", method="CP-SAT on orbits (long attempt)", detail=hunt)
    elif fits:
        v = decide(a, b, c, work_limit=max(0.01, work - spent))
        ann, spent = v.witness, spent + v.work
        row.update(status=v.status, method=v.method, detail=f"{hunt}; {v.detail}")
    else:
        row.update(status="open", method="open (size): orbit hunt only",
                   detail=f"{hunt}; a case model would hold {rule2_literals(a, b, c):,} literals")
    return row | dict(work_units=round(spent, 2), cpu_seconds=round(time.process_time() - start),
                      witness=format_announcement(ann))


def long_attempts(cases: Iterable[tuple[int, int, int]], work: float = ATTEMPT_WORK, *,
                  name: str, executor: Executor | None = None, workers: int = 1,
                  hunt_only: bool = False) -> pd.DataFrame:
    """A long attempt (with `hunt_only`, the witness hunt alone) on every size, one resumable
    chunk each (data/partial/<name>/)."""
    work = checks.number(work, "work", low=0.01, high=10_000)
    task = hunt_row if checks.boolean(hunt_only, "hunt_only") else attempt_row
    todo = [(*hand_sizes(*checks.sequence(abc, "a case", what="a size (a, b, c)", length=3)), work)
            for abc in checks.collection(cases, "cases", what="a list of sizes (a, b, c)")]
    table = sweeps.sweep_table(name, task, todo, executor=executor, workers=workers,
                               desc="open Russian Cards sizes")
    return table.reindex(columns=ATTEMPT_COLUMNS)


def stuck_at(row: Mapping) -> int:
    """The symmetry case where an attempt (`attempt_row`, `focus_row`, `sat_cases.sat_row`) left
    an open size: the case the solver left undecided or did not reach, the case whose model was
    too large, or the first case when the whole model was too large to build."""
    if not isinstance(row, Mapping) or not {"a", "b", "c", "status", "method"} <= set(row):
        raise checks.ArgumentTypeError(f"row must be a row of the long attempts, got {row!r}")
    a, b, c = hand_sizes(row["a"], row["b"], row["c"])
    if row["status"] != "open":
        raise ValueError(f"{(a, b, c)} is {row['status']}, not open: nothing to go on with")
    method = str(row["method"])
    if case := re.fullmatch(r"open \(limit\): .+ in case k=(\d+)|"
                            r"open \(size\): case k=(\d+)'s model too large", method):
        return int(case[1] or case[2])
    if method.startswith("open (size)"):
        return case_range(a, b, c).start
    raise ValueError(f"{(a, b, c)}: the attempt's method {method!r} does not say where it stopped")


def one_large_case(literals: int) -> contextlib.AbstractContextManager:
    """While a case model of more than `solver.MAX_LITERALS` literals is built and solved, hold
    a lock of this machine (a file in its temporary folder), so that the workers of a run build
    one such model at a time; smaller models need none."""
    literals = checks.integer(literals, "literals", low=0)
    return _machine_lock() if literals > MAX_LITERALS else contextlib.nullcontext()


@contextlib.contextmanager
def _machine_lock() -> Iterator[None]:
    """The exclusive lock on `LARGE_CASE_LOCK` (where fcntl is)."""
    try:
        import fcntl
    except ImportError:  # no file locks here: the run's workers bound the memory instead
        yield
        return
    with open(LARGE_CASE_LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield  # closing the file releases the lock


@dataclass(frozen=True)
class FocusEnd:
    """How a second round on the symmetry cases ended (`focus_cases`).

    Attributes
    ----------
    status : str
        "solvable", "unsolvable" or "open".
    witness : Announcement or None
        The verified announcement, when solvable.
    work : float
        The work spent: CP-SAT work units (`focus_cases`), or the SAT solver's CPU seconds
        (`sat_cases.sat_cases`: Kissat reports no count of its conflicts).
    detail : str
        What each case gave.
    stopped : int or None
        The case it stopped at, when open.
    why : str or None
        Why there, when open: "too large" (its model), "limit" (CP-SAT left it undecided) or
        "not reached" (the budget was spent on the cases before).
    """

    status: Literal["solvable", "unsolvable", "open"]
    witness: Announcement | None
    work: float
    detail: str
    stopped: int | None = None
    why: Literal["too large", "limit", "not reached", None] = None

    def __post_init__(self) -> None:
        checks.record(self)


def focus_cases(a: int, b: int, c: int, k: int, work: float, *,
                literals: int = FOCUS_LITERALS) -> FocusEnd:
    """The symmetry cases k, k+1, ... of (a, b, c), `work` units in all, each built when its
    model holds at most `literals` literals: "solvable" with a verified witness, "unsolvable"
    when every one is INFEASIBLE (the cases below k proved so before), else "open" at the case
    it stopped, and why."""
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    literals = checks.integer(literals, "literals", low=0)
    cases = case_range(a, b, c)
    k = checks.integer(k, "k", low=cases.start, high=max(cases.start, cases.stop - 1))
    spent, done = 0.0, []

    def open_at(j: int, why: str, said: str) -> FocusEnd:
        return FocusEnd("open", None, spent, "; ".join([*done, said]), j, why)

    for j in range(k, cases.stop):
        if spent >= work:
            return open_at(j, "not reached", f"case k={j} not reached")
        if (size := case_literals(a, b, c, j)) > literals:
            return open_at(j, "too large", f"case k={j}'s model would hold {size:,} literals, "
                                           "so none was built")
        verdict, used, chosen = _solve_case(a, b, c, j, max(0.01, work - spent), size)
        spent += used
        if verdict == "FEASIBLE":
            ann = verified_witness(a, b, c, chosen, f"{(a, b, c)} case k={j}")
            return FocusEnd("solvable", ann, spent,
                            "; ".join([*done, f"case k={j} FEASIBLE ({used:.2f} units)"]))
        if verdict != "INFEASIBLE":
            return open_at(j, "limit", f"case k={j} undecided at the work limit")
        done.append(f"largest overlap k={j}: INFEASIBLE ({used:.2f} units)")
    below = f"the cases below k={k} proved INFEASIBLE before; " if k > cases.start else ""
    return FocusEnd("unsolvable", None, spent, below + "; ".join(
        [*done, "hence no announcement exists (case lemma, symmetry.py)"]))


def _solve_case(a: int, b: int, c: int, k: int, work: float, size: int
                ) -> tuple[str, float, list[tuple[int, ...]] | None]:
    """Case k's model built and solved (`one_large_case` when large): FEASIBLE, INFEASIBLE or
    UNKNOWN, the units used and the chosen hands; the model is freed on return."""
    with one_large_case(size):
        model, x, hands = case_model(a, b, c, k)
        res = solve_limited(model, work, what=f"{(a, b, c)} case k={k}")
        verdict = "FEASIBLE" if res.feasible else "INFEASIBLE" if res.infeasible else "UNKNOWN"
        chosen = [cards(h) for h, v in zip(hands, x) if res.value(v)] if res.feasible else None
        return verdict, work_used(res), chosen


def focus_row(case: tuple[int, int, int, float, int]) -> dict:
    """The second round on (a, b, c): `work` units on the symmetry cases from case k on
    (`focus_cases`), its cost recorded (module docstring)."""
    a, b, c, work, k = checks.sequence(case, "case", what="a tuple (a, b, c, work, k)", length=5)
    a, b, c = hand_sizes(a, b, c)
    work = checks.number(work, "work", low=0.01, high=10_000)
    start = time.process_time()
    end = focus_cases(a, b, c, k, work, literals=FOCUS_LITERALS)
    method = round_method(end, k, solver="CP-SAT", limit=f"{work:g} work units",
                          proof="INFEASIBLE", round_name="second")
    return dict(a=a, b=b, c=c, n=a + b + c, status=end.status, method=method, work_limit=work,
                work_units=round(end.work, 2), cpu_seconds=round(time.process_time() - start),
                detail=f"from case k={k}; {end.detail}", witness=format_announcement(end.witness))


def round_method(end: FocusEnd, k: int, *, solver: str, limit: str, proof: str,
                 round_name: str) -> str:
    """The method of a later round's row (`focus_row`, `sat_cases.sat_row`), begun at case k:
    where it stopped and why (as `stuck_at` reads it), or how it decided the size."""
    end = checks.instance(end, "end", FocusEnd, "a FocusEnd")
    k = checks.integer(k, "k", low=0)
    solver, limit, proof, round_name = (checks.text(v, name) for v, name in (
        (solver, "solver"), (limit, "limit"), (proof, "proof"), (round_name, "round_name")))
    if end.status == "open":
        if end.why == "too large":
            return f"open (size): case k={end.stopped}'s model too large"
        return f"open (limit): {solver} {limit} in case k={end.stopped}"
    if end.status == "solvable":
        return f"{solver} ({round_name} round, from case k={k})"
    return f"{solver} {proof} in every symmetry case ({round_name} round)"


def check_attempts(table: pd.DataFrame, columns: Sequence[str] = ATTEMPT_COLUMNS) -> None:
    """A stored table of attempts holds: its `columns`, and every solvable row's witness passes
    the verifier."""
    columns = [checks.text(c, "a column") for c in checks.sequence(columns, "columns")]
    if not {"a", "b", "c", "status", "witness"} <= set(columns):
        raise ValueError(f"columns must include a, b, c, status and witness, got {columns}")
    table = check_table(table, columns)
    for r in table.itertuples():
        if r.status == "solvable":
            if not is_solution(parse_announcement(r.witness), int(r.a), int(r.b), int(r.c)):
                raise ValueError(f"({r.a},{r.b},{r.c}): the recorded announcement is not safe "
                                 "and informative")
