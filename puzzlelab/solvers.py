"""A thin, deterministic adapter for Google OR-Tools CP-SAT (shared by the puzzle modules)."""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model


@dataclass(frozen=True)
class CpResult:
    """Outcome of one CP-SAT solve: status name, objective, proven bound, and the solver for values."""

    status: str
    objective: float | None
    bound: float | None
    solver: cp_model.CpSolver

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
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    if deterministic_limit is not None:
        solver.parameters.max_deterministic_time = float(deterministic_limit)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    status = solver.status_name(solver.Solve(model))
    has_obj = model.has_objective() and status in ("OPTIMAL", "FEASIBLE")
    return CpResult(
        status=status,
        objective=solver.ObjectiveValue() if has_obj else None,
        bound=solver.BestObjectiveBound() if has_obj else None,
        solver=solver,
    )
