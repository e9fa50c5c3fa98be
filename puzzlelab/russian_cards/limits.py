"""CP-SAT calls whose answers are cached: a deterministic work limit decides, the clock only guards.

Source: the project charter's determinism rule (answers in data/ must not depend on machine
speed). CP-SAT's *deterministic time* counts work, not seconds: with one worker and a fixed
seed, a run stopped by `max_deterministic_time` ends in the same state on every machine, and
the work it reports is the same number on every run (the tests check this). The wall clock
is only a safety net: when it, rather than the work limit, stopped a call, the answer would
depend on the machine, so :func:`solve_limited` raises :class:`WallClockStop` instead of
returning it (nothing that depends on the clock is ever cached).

Measured on the 2-core machine this project is built on (shared with other jobs): one work
unit took 0.8-2.8 s of wall time depending on the load and the model (the case k=3 of (7,6,3)
used 16.15 units in 18-42 s; its whole cell took 46 s in the benchmark run), so the cap of
60 s + 10 s per unit is 3.5-12 times what a call needs.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from ..solvers import CpResult
from ..solvers import solve as cp_solve

BASE_SECONDS = 60.0       # wall-clock safety net: a fixed allowance (model loading, presolve) ...
SECONDS_PER_UNIT = 10.0   # ... plus 10 s per work unit (measured: 0.8-2.8 s per unit)


class WallClockStop(TimeoutError):
    """A CP-SAT call stopped by the wall clock before its work limit: its answer is machine-dependent."""


def wall_cap(work_limit: float) -> float:
    """The safety-net time limit (seconds) for a call with this work limit."""
    return BASE_SECONDS + SECONDS_PER_UNIT * work_limit


def work_used(res: CpResult) -> float:
    """CP-SAT's deterministic time (work units) spent by the call."""
    return float(res.solver.response_proto.deterministic_time)


def seconds_used(res: CpResult) -> float:
    """The wall time of the call (machine-dependent: for benchmarks, never for cached tables)."""
    return float(res.solver.wall_time)


def stopped_by_work(res: CpResult, work_limit: float) -> bool:
    """True when the call ended because it reached its work limit (CP-SAT stops at >= the limit)."""
    return work_used(res) >= 0.999 * work_limit


class Deadline:
    """An optional wall-clock budget shared by several calls (None: each call gets its own cap)."""

    def __init__(self, seconds: float | None):
        self.end = None if seconds is None else time.perf_counter() + seconds

    def cap(self, work_limit: float, what: str) -> float:
        """The time limit for the next call; raises WallClockStop when the budget is spent."""
        cap = wall_cap(work_limit)
        if self.end is None:
            return cap
        left = self.end - time.perf_counter()
        if left <= 0:
            raise WallClockStop(f"{what}: the wall-clock budget ran out before the call")
        return min(cap, left)


def solve_limited(
    model: cp_model.CpModel, work_limit: float, *, deadline: Deadline | None = None, what: str = "CP-SAT"
) -> CpResult:
    """Solve with a deterministic work limit; raise WallClockStop if the clock stopped it first.

    The result is OPTIMAL/FEASIBLE/INFEASIBLE as found, or (UNKNOWN/FEASIBLE) stopped by the work
    limit; in every returned case the answer is the same on every machine.
    """
    cap = (deadline or Deadline(None)).cap(work_limit, what)
    res = cp_solve(model, time_limit=cap, deterministic_limit=work_limit)
    if res.status == "MODEL_INVALID":
        raise AssertionError(f"{what}: CP-SAT rejects the model as invalid")
    finished = res.infeasible or res.optimal
    if not finished and not stopped_by_work(res, work_limit):
        raise WallClockStop(
            f"{what}: stopped by the {cap:.0f} s wall-clock cap after {work_used(res):.2f} of "
            f"{work_limit:g} work units; the answer would depend on the machine, so none is given"
        )
    return res
