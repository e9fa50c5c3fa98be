"""Slow reference implementations, kept only to cross-check the fast ones (not public API).

Plain Python loops in the thesis's own terms (janssen2017, Sections 2.1.5 and 2.1.9): evaluate
a deal round by round and player by player, and run the brute force deal after deal.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import checks
from .model import parse_deal
from .world import Round, check_world, round_index, rounds, view_of

__all__ = ["naive_brute_force", "naive_evaluate"]


def naive_evaluate(deal: object, n_colors: int = 2) -> frozenset[Round]:
    """Round-by-round, player-by-player evaluation in plain Python (the per-deal baseline)."""
    d = parse_deal(deal, n_colors)
    n = d.shape[0]
    won = set()
    for rnd in rounds(n, n_colors):
        right = wrong = False
        for i in range(n):
            g = int(d[i, round_index(view_of(rnd, i), n_colors)])
            if g >= 0:
                right |= g == rnd[i]
                wrong |= g != rnd[i]
        if right and not wrong:
            won.add(rnd)
    return frozenset(won)


def naive_brute_force(n_players: int = 3, n_colors: int = 2,
                      limit: int | None = None) -> np.ndarray:
    """Evaluate deal after deal in plain Python (optionally only the first `limit` deals)."""
    from .brute import all_strategies
    from .sets import to_mask

    n, m = check_world(n_players, n_colors)
    if limit is not None:
        limit = checks.integer(limit, "limit", low=0)
    strat = all_strategies(n, m)
    out = []
    for k, combo in enumerate(itertools.product(range(len(strat)), repeat=n)):
        if limit is not None and k >= limit:
            break
        out.append(to_mask(naive_evaluate(strat[list(combo)], m), n, m))
    return np.array(out, dtype=np.uint64)
