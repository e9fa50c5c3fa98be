"""The full-line lemma: a sharper upper bound than per-direction counting (ours).

Steps (a) and (b) below are proved by the argument written here; CP-SAT (`reduced_model_feasible`)
independently re-checks only the final counting step, on the grid structure that (a) and (b) leave.

Write c(k) = floor((M**N - k) / (M - 1)). A won set W with |W| = k needs a *serving* line per won
round (a line meeting W in that round only, `sets` module docstring); a serving line serves one
round, so |W| <= u_1 + ... + u_N, where u_i counts the lines of direction i that meet W exactly
once. The other M**(N-1) - u_i lines of direction i hold k - u_i rounds, at most M each, so
u_i <= c(k) (the per-direction counting bound). Now suppose

  (a) k > N (c - 1): then some direction, say the first player's, has u_1 = c exactly, and
  (b) the slack M**N - k - (M - 1) c is 0: then its other lines are *full* (all M rounds won).

Index the lines of direction 1 by *positions* p in [M]**(N-1) (the other players' hats): c
positions are *singles* (one won round, in some layer a = hat of player 1) and F = M**(N-1) - c
are *full*. The won round (a, p) of a full position is served in some other direction j: the
other M - 1 positions q on the j-line through p must be singles whose round is not in layer a.
One such *free* direction cannot serve every layer a (its singles' own layers are among them),
so each full position needs two free directions. A free j-line holds one full position and
M - 1 singles, so direction j has at most floor(c / (M - 1)) of them: if
2 F > (N - 1) floor(c / (M - 1)) no won set of size k exists. Removing a round from an
achievable won set leaves it achievable, so then the optimum is below k.

For M = 4, N = 3, k = 31 (c = 11, F = 5): 10 > 6, so the optimum is 30; for M = 3, N = 4,
k = 53 (c = 14, F = 13): 26 > 21. `reduced_model_feasible` decides the structural question left
after (a) and (b) exactly with CP-SAT, an independent check of the counting step (not of (a), (b)).
"""

from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from .. import checks
from ..solvers import solve
from .world import check_world

__all__ = ["cap", "excluded", "full_line_upper_bound", "lemma_applies", "reduced_model_feasible"]


def _world_and_size(n_players: int, n_colors: int, k: int) -> tuple[int, int, int]:
    n, m = check_world(n_players, n_colors)
    return n, m, checks.integer(k, "k", low=0, high=m**n)


def cap(n_players: int, n_colors: int, k: int) -> int:
    """c(k) = floor((M**N - k) / (M - 1)): most lines of one direction meeting k won rounds once."""
    n, m, k = _world_and_size(n_players, n_colors, k)
    return (m**n - k) // (m - 1)


def lemma_applies(n_players: int, n_colors: int, k: int) -> bool:
    """Hypotheses (a) and (b) of the lemma: a direction is forced to its cap, with no slack."""
    n, m, k = _world_and_size(n_players, n_colors, k)
    c = cap(n, m, k)
    return n * (c - 1) < k <= n * c and m**n - k - (m - 1) * c == 0


def excluded(n_players: int, n_colors: int, k: int) -> bool:
    """True when no achievable won set has k rounds (per-direction counting or the lemma)."""
    n, m, k = _world_and_size(n_players, n_colors, k)
    c = cap(n, m, k)
    if k > n * c:  # per-direction counting: k <= u_1 + ... + u_N <= N c
        return True
    if not lemma_applies(n, m, k):
        return False
    full = m ** (n - 1) - c
    return 2 * full > (n - 1) * (c // (m - 1))


def full_line_upper_bound(n_players: int, n_colors: int = 2) -> int:
    """The largest k below the smallest excluded size: an upper bound on won rounds (see above)."""
    n, m = check_world(n_players, n_colors)
    return next((k for k in range(m**n + 1) if excluded(n, m, k)), m**n + 1) - 1


def reduced_model_feasible(
    n_players: int, n_colors: int, k: int, time_limit: float = 30.0
) -> bool | None:
    """CP-SAT on the structure of (a) and (b) alone: positions full or single-in-layer-a, c singles,
    every full position's round in every layer served along a free line. False = proven impossible,
    None = undecided in the limit. Needs `lemma_applies`."""
    n, m, k = _world_and_size(n_players, n_colors, k)
    time_limit = checks.number(time_limit, "time_limit", low=0.001, high=3600)
    if not lemma_applies(n, m, k):
        raise ValueError(f"the lemma's hypotheses fail for N = {n}, M = {m}, k = {k}")
    c = cap(n, m, k)
    positions = list(itertools.product(range(m), repeat=n - 1))
    model = cp_model.CpModel()
    full = {p: model.NewBoolVar("") for p in positions}
    single = {(p, a): model.NewBoolVar("") for p in positions for a in range(m)}
    for p in positions:
        model.AddExactlyOne([full[p]] + [single[p, a] for a in range(m)])
    model.Add(sum(full.values()) == m ** (n - 1) - c)
    for p in positions:
        for a in range(m):
            ways = []
            for j in range(n - 1):
                free = model.NewBoolVar("")
                for b in range(m):
                    if b != p[j]:
                        q = p[:j] + (b,) + p[j + 1 :]
                        model.AddImplication(free, full[q].Not())
                        model.AddImplication(free, single[q, a].Not())
                ways.append(free)
            model.AddBoolOr(ways).OnlyEnforceIf(full[p])
    res = solve(model, time_limit=time_limit, deterministic_limit=time_limit)
    if res.infeasible:
        return False
    return True if res.feasible else None
