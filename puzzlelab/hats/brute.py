"""The Brute Force Method of janssen2017 (Sections 2.1.9, 5.1.3), vectorised with numpy.

Every strategy of player i is turned once into two bitmasks over the rounds: where it answers
right and where it answers wrong. A deal wins round r iff some player is right at r and none is
wrong, so the won set of every deal is (R_1 | ... | R_N) & ~(W_1 | ... | W_N), computed for all
(M+1)**(N * M**(N-1)) deals at once by broadcasting.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import checks
from .world import check_world, rounds, view_table

__all__ = [
    "MAX_DEALS", "BruteForce", "all_strategies", "brute_force", "feasible", "n_deals",
    "n_strategies",
    "strategy_masks",
]

MAX_DEALS = 5_000_000


def _count_bits(n: int, m: int, per_player: bool) -> float:
    """log2 of the number of strategies (or deals), without computing it."""
    bits = m ** (n - 1) * math.log2(m + 1)
    return bits if per_player else n * bits


def n_strategies(n_players: int, n_colors: int = 2) -> int:
    """(M + 1) ** (M ** (N - 1)) strategies per player (Section 2.1.9)."""
    n, m = check_world(n_players, n_colors)
    return (m + 1) ** (m ** (n - 1))


def n_deals(n_players: int, n_colors: int = 2) -> int:
    """Strategies ** N deals (Section 2.1.9, Theorem 2)."""
    n, m = check_world(n_players, n_colors)
    return n_strategies(n, m) ** n


def all_strategies(n_players: int, n_colors: int = 2) -> np.ndarray:
    """Array [strategy, view] of guesses (-1 = pass), lexicographic with pass first."""
    n, m = check_world(n_players, n_colors)
    if _count_bits(n, m, per_player=True) > 20:
        raise ValueError(f"too many strategies per player for N = {n}, M = {m} (more than 2**20)")
    return np.array(list(itertools.product(range(-1, m), repeat=m ** (n - 1))), dtype=np.int8)


def strategy_masks(n_players: int, n_colors: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """uint64 arrays [player, strategy]: bitmask of rounds answered right, and answered wrong."""
    n, m = check_world(n_players, n_colors)
    if m**n > 64:
        raise ValueError(f"brute force needs at most 64 rounds, N = {n}, M = {m} has {m**n}")
    strat = all_strategies(n, m).astype(np.int64)  # [s, view]
    own = np.array(rounds(n, m), dtype=np.int64).reshape(-1, n)  # [round, player]
    weight = np.left_shift(np.uint64(1), np.arange(m**n, dtype=np.uint64))
    right = np.zeros((n, len(strat)), dtype=np.uint64)
    wrong = np.zeros((n, len(strat)), dtype=np.uint64)
    vt = view_table(n, m)
    for i in range(n):
        g = strat[:, vt[i]]  # [s, round]
        right[i] = ((g == own[:, i]) * weight).sum(axis=1, dtype=np.uint64)
        wrong[i] = (((g >= 0) & (g != own[:, i])) * weight).sum(axis=1, dtype=np.uint64)
    return right, wrong


@dataclass(frozen=True)
class BruteForce:
    """Won-set bitmask of every deal, deals ordered by (strategy of player 1, 2, ...)."""

    n_players: int
    n_colors: int
    won: np.ndarray  # uint64 [deal]

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def wins(self) -> np.ndarray:
        """Number of won rounds of every deal."""
        return np.bitwise_count(self.won)

    def win_distribution(self) -> pd.DataFrame:
        """How many deals win k rounds, for every k."""
        k, count = np.unique(self.wins, return_counts=True)
        return pd.DataFrame({"won_rounds": k.astype(int), "deals": count.astype(int)})

    def distinct_won_sets(self) -> np.ndarray:
        """The distinct won sets (bitmasks), ascending."""
        return np.unique(self.won)

    def maximal_won_sets(self) -> list[int]:
        """Inclusion-maximal won sets among all deals (Theorem 1), as bitmasks."""
        sets = [int(x) for x in self.distinct_won_sets()]
        return sorted(a for a in sets if not any(a != b and a & b == a for b in sets))

    def deals_winning(self, mask: int) -> np.ndarray:
        """Indices of the deals whose won set is exactly `mask`."""
        mask = checks.integer(mask, "mask", low=0, high=(1 << self.n_colors**self.n_players) - 1)
        return np.flatnonzero(self.won == np.uint64(mask))

    def deal(self, index: int) -> np.ndarray:
        """The deal (array) with this index."""
        index = checks.integer(index, "index", low=0, high=len(self.won) - 1)
        s = n_strategies(self.n_players, self.n_colors)
        strat = all_strategies(self.n_players, self.n_colors)
        digits = np.unravel_index(int(index), (s,) * self.n_players)
        return np.vstack([strat[d] for d in digits])


def feasible(n_players: int, n_colors: int = 2) -> bool:
    """Whether `brute_force` takes this world: at most MAX_DEALS deals and 64 rounds."""
    n, m = check_world(n_players, n_colors)
    return _count_bits(n, m, per_player=False) <= math.log2(MAX_DEALS) and m**n <= 64


def brute_force(n_players: int = 3, n_colors: int = 2) -> BruteForce:
    """Evaluate every deal at once (the thesis's 531,441 deals for N = 3, M = 2)."""
    n, m = check_world(n_players, n_colors)
    if not feasible(n, m):
        raise ValueError(f"about 2**{_count_bits(n, m, False):.1f} deals for N = {n}, M = {m}: "
                         f"the brute force takes at most {MAX_DEALS} deals and 64 rounds "
                         "(N = 3 for two colours, N = 2 for three or four)")
    right, wrong = strategy_masks(n, m)
    any_right = np.zeros(1, dtype=np.uint64)
    any_wrong = np.zeros(1, dtype=np.uint64)
    for i in range(n):
        any_right = (any_right[:, None] | right[i][None, :]).ravel()
        any_wrong = (any_wrong[:, None] | wrong[i][None, :]).ravel()
    return BruteForce(n, m, any_right & ~any_wrong)

