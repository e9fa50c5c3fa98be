"""Long attempts on the worlds whose optimum is still open: where each stands.

`optima.optimum_bounds` gives CP-SAT 20 deterministic work units per world. A long attempt runs
CP-SAT on the whole model (`optima.cpsat_model`, its won rounds capped at the table's upper
bound) from the committed best deal, on one worker, under a much larger deterministic limit
(`ATTEMPT_WORK` units), and records the bounds it leaves, the work units and the CPU seconds it
took. The committed optima table leaves no world open (`slack` and `rigid` closed the last,
N = 4, M = 4); data/hats_open_attempts.csv keeps the attempt made on it at 136..137, which
stopped at its limit. Each world is one resumable chunk of a long-run sweep
(`sweeps.sweep_table`). A larger won set is kept only when the plain check
(`sets.achievable_mask`) accepts it.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import Executor

import pandas as pd

from .. import checks, sweeps
from ..bitsets import from_bits
from ..solvers import Deadline, solve_limited, wall_cap, work_used
from .world import check_world
from .optima import cpsat_model
from .sets import achievable_mask, check_mask

__all__ = ["ATTEMPT_COLUMNS", "ATTEMPT_WORK", "attempt_row", "check_attempts", "long_attempts",
           "open_worlds"]

ATTEMPT_WORK = 3_600.0  # CP-SAT work units per world of a long attempt (20 in the optima)
ATTEMPT_COLUMNS = ["n_players", "n_colors", "lower_before", "upper_before", "lower", "upper",
                   "status", "work_limit", "work_units", "cpu_seconds", "witness_hex"]
OPTIMA_COLUMNS = ["n_players", "n_colors", "lower", "upper", "proven", "witness_hex"]


def open_worlds(optima: pd.DataFrame) -> list[tuple[int, int, int, int, str]]:
    """(N, M, lower, upper, best deal in hex) of every world an optima table leaves open."""
    optima = checks.table(optima, "the optima table", OPTIMA_COLUMNS)
    rows = optima[~optima.proven.astype(bool)]
    return [(int(r.n_players), int(r.n_colors), int(r.lower), int(r.upper), str(r.witness_hex))
            for r in rows.itertuples()]


def attempt_row(case: tuple[int, int, int, int, str, float]) -> dict:
    """One long attempt on a world from its best known deal: the bounds CP-SAT leaves."""
    n, m, lower, upper, witness_hex, work = checks.sequence(
        case, "case", what="a tuple (N, M, lower, upper, deal, work)", length=6)
    n, m = check_world(n, m)
    lower, upper = checks.integer(lower, "lower", low=0), checks.integer(upper, "upper", low=0)
    witness_hex = checks.text(witness_hex, "witness_hex")
    work = checks.number(work, "work", low=0.01, high=100_000)
    try:
        hint = check_mask(int(witness_hex, 16), n, m, "witness")
    except ValueError as err:
        raise ValueError(f"N = {n}, M = {m}: the recorded deal {witness_hex!r} is not a set of "
                         f"rounds in hex ({err})") from None
    if not achievable_mask(hint, n, m) or hint.bit_count() != lower:
        raise ValueError(f"N = {n}, M = {m}: the recorded deal is not a won set of {lower} rounds")
    model, won = cpsat_model(n, m)
    model.Add(sum(won) <= upper)  # a proven bound (optima table): CP-SAT's objective starts there
    for x, v in enumerate(won):
        model.AddHint(v, bool(hint >> x & 1))
    start = time.process_time()
    res = solve_limited(model, work, deadline=Deadline(wall_cap(work)),
                        what=f"hats N = {n}, M = {m}")
    found = from_bits(x for x, v in enumerate(won) if res.value(v)) if res.feasible else 0
    best = found if found.bit_count() > lower and achievable_mask(found, n, m) else hint
    bound = int(math.floor(res.bound + 1e-9)) if res.feasible else upper
    return dict(n_players=n, n_colors=m, lower_before=lower, upper_before=upper,
                lower=best.bit_count(), upper=min(upper, bound), status=res.status,
                work_limit=work, work_units=round(work_used(res), 2),
                cpu_seconds=round(time.process_time() - start), witness_hex=f"{best:x}")


def long_attempts(optima: pd.DataFrame, work: float = ATTEMPT_WORK, *, name: str,
                  executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """A long attempt on every open world of `optima`, one resumable chunk each."""
    work = checks.number(work, "work", low=0.01, high=100_000)
    todo = [(*world, work) for world in open_worlds(optima)]
    if not todo:
        raise ValueError("the optima table leaves no world open: there is nothing to attempt, "
                         "and the attempts already recorded stay as they are")
    table = sweeps.sweep_table(name, attempt_row, todo, executor=executor, workers=workers,
                               desc="open hat worlds")
    return table.reindex(columns=ATTEMPT_COLUMNS)


def check_attempts(table: pd.DataFrame) -> None:
    """A stored table of attempts holds: each best deal is a won set of `lower` rounds, and
    the bounds only tighten what was known."""
    table = checks.table(table, "the attempts table", ATTEMPT_COLUMNS)
    for r in table.itertuples():
        n, m = int(r.n_players), int(r.n_colors)
        won = check_mask(int(str(r.witness_hex), 16), n, m, "witness_hex")
        if won.bit_count() != r.lower or not achievable_mask(won, n, m):
            raise ValueError(f"N = {n}, M = {m}: the recorded deal is not a won set of "
                             f"{r.lower} rounds")
        if not r.lower_before <= r.lower <= r.upper <= r.upper_before:
            raise ValueError(f"N = {n}, M = {m}: bounds {r.lower}..{r.upper} do not lie within "
                             f"{r.lower_before}..{r.upper_before}")
