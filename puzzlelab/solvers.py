"""A thin, deterministic adapter for Google OR-Tools CP-SAT (shared by the puzzle modules).

`solve` is the plain call. `solve_limited` is for answers that are cached in data/: CP-SAT's
*deterministic time* counts work, not seconds, so with one worker and a fixed seed a run
stopped by `max_deterministic_time` ends in the same state on every machine. The wall clock
is then only a safety net: when it, rather than the work limit, stopped a call, the answer
would depend on the machine, so `solve_limited` raises `WallClockStop` instead of returning it.
The cap (60 s plus 10 s per work unit) is several times what a work unit takes on a small
machine, so it only fires on a machine that is badly overloaded.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from . import checks

__all__ = [
    "MAX_THREADS", "PATIENCE_ENV", "CpResult", "Deadline", "WallClockStop", "check_model",
    "patience", "solve", "solve_limited", "stopped_by_work", "wall_cap", "work_used",
]


MAX_THREADS = 64  # CP-SAT search threads of one call (they share this process's memory)


@dataclass(frozen=True)
class CpResult:
    """Outcome of one CP-SAT solve: status name, objective, proven bound, and the solver for values."""

    status: str
    objective: float | None
    bound: float | None
    solver: cp_model.CpSolver

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def optimal(self) -> bool:
        return self.status == "OPTIMAL"

    @property
    def feasible(self) -> bool:
        return self.status in ("OPTIMAL", "FEASIBLE")

    @property
    def infeasible(self) -> bool:
        """True only when CP-SAT *proved* that no solution exists."""
        return self.status == "INFEASIBLE"

    def value(self, var) -> int:
        return int(self.solver.Value(var))


def check_model(model: object, name: str = "model") -> cp_model.CpModel:
    """`model` if it is a CP-SAT model (`cp_model.CpModel`)."""
    if not isinstance(model, cp_model.CpModel):
        raise checks.ArgumentTypeError(f"{name} must be a CP-SAT CpModel, got {model!r}")
    return model


def solve(
    model: cp_model.CpModel,
    *,
    time_limit: float = 60.0,
    workers: int = 1,
    seed: int = 0,
    deterministic_limit: float | None = None,
) -> CpResult:
    """Solve `model` with a time limit; one worker and a fixed seed keep answers reproducible.

    `deterministic_limit` caps CP-SAT's deterministic time (work units, not seconds): a run
    stopped by it gives the same answer on every machine, so cached results do not depend on
    the speed of the computer that made them.
    """
    check_model(model)
    time_limit = checks.number(time_limit, "time_limit (seconds)", low=0)
    workers = checks.integer(workers, "workers (CP-SAT threads)", low=1, high=MAX_THREADS)
    seed = checks.integer(seed, "seed (CP-SAT's, 32 bits)", low=0, high=2**31 - 1)
    deterministic_limit = checks.number(deterministic_limit, "deterministic_limit (work units)",
                                        low=0, allow_none=True)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    if deterministic_limit is not None:
        solver.parameters.max_deterministic_time = deterministic_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.status_name(solver.Solve(model))
    has_obj = model.has_objective() and status in ("OPTIMAL", "FEASIBLE")
    return CpResult(
        status=status,
        objective=solver.ObjectiveValue() if has_obj else None,
        bound=solver.BestObjectiveBound() if has_obj else None,
        solver=solver,
    )


# --- work-limited calls whose answers are cached ------------------------------------------------

BASE_SECONDS = 60.0       # wall-clock safety net: a fixed allowance (model loading, presolve) ...
SECONDS_PER_UNIT = 10.0   # ... plus 10 s per work unit


class WallClockStop(TimeoutError):
    """A CP-SAT call stopped by the wall clock before its work limit: its answer is machine-dependent."""


PATIENCE_ENV = "PUZZLELAB_WALL_PATIENCE"  # a factor >= 1 on the net, for runs left in the background


def patience() -> float:
    """The factor on the safety net: PUZZLELAB_WALL_PATIENCE (a number >= 1) if set, else 1.

    A long run left running at low priority (`puzzlelab compute --long-run`, which sets 100)
    gets little of the processor, so its calls need more wall-clock time for the same work;
    the answers do not change, as every call stops at its work limit.
    """
    raw = os.environ.get(PATIENCE_ENV)
    if raw is None:
        return 1.0
    try:
        factor = float(raw)
    except ValueError:
        factor = float("nan")
    if not 1.0 <= factor < float("inf"):
        raise ValueError(f"{PATIENCE_ENV} must be a number >= 1, got {raw!r}")
    return factor


def wall_cap(work_limit: float) -> float:
    """The safety-net time limit (seconds) for a call with this work limit (times `patience`)."""
    work_limit = checks.number(work_limit, "work_limit", low=0)
    return (BASE_SECONDS + SECONDS_PER_UNIT * work_limit) * patience()


def _checked(res: object) -> CpResult:
    if not isinstance(res, CpResult):
        raise checks.ArgumentTypeError(f"expected the CpResult of a solve call, got {res!r}")
    return res


def work_used(res: CpResult) -> float:
    """CP-SAT's deterministic time (work units) spent by the call."""
    return float(_checked(res).solver.response_proto.deterministic_time)


def stopped_by_work(res: CpResult, work_limit: float) -> bool:
    """True when the call ended because it reached its work limit (CP-SAT stops at >= the limit)."""
    return work_used(res) >= 0.999 * checks.number(work_limit, "work_limit", low=0)


class Deadline:
    """An optional wall-clock budget shared by several calls (None: each call gets its own cap)."""

    def __init__(self, seconds: float | None):
        seconds = checks.number(seconds, "seconds", low=0, allow_none=True)
        self.end = None if seconds is None else time.perf_counter() + seconds

    def check(self, what: str) -> None:
        """Raise WallClockStop (naming `what`) when the budget is spent."""
        if self.end is not None and time.perf_counter() >= self.end:
            raise WallClockStop(f"{checks.text(what, 'what')}: the wall-clock budget ran out")

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
    work_limit = checks.number(work_limit, "work_limit (CP-SAT work units)", low=1e-6)
    if deadline is not None and not isinstance(deadline, Deadline):
        raise checks.ArgumentTypeError(f"deadline must be a Deadline or None, got {deadline!r}")
    cap = (deadline or Deadline(None)).cap(work_limit, checks.text(what, "what"))
    res = solve(model, time_limit=cap, deterministic_limit=work_limit)
    if res.status == "MODEL_INVALID":
        raise ValueError(f"{what}: CP-SAT rejects the model as invalid")
    finished = res.infeasible or res.optimal
    if not finished and not stopped_by_work(res, work_limit):
        raise WallClockStop(
            f"{what}: stopped by the {cap:.0f} s wall-clock cap after {work_used(res):.2f} of "
            f"{work_limit:g} work units; the answer would depend on the machine, so none is given"
        )
    return res
