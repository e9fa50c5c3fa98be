"""The smallest safe announcement: a covering bound below, pruned packings above, proofs between.

Source: group11_rc §4 (its smallest announcements), extended to every solvable size.

* Below: `model.covering_counts` — the complements of a safe announcement's hands cover every
  (c+1)-set of cards, so counting gives at least r_0 hands; `model.holding_counts` — every card
  is held by q_0 hands (`model.counting_lower_bound` is the larger bound).
* Above: `shrink` — maximal Rule-1 packings in random orders (`search.random_packing`), each
  cut down by `prune` to an inclusion-minimal safe announcement; the smallest is kept. Rule 1
  holds for every part of an informative announcement, so only Rule 2 is watched while hands
  are dropped: each hand *serves* the pairs (c-set X, card y) it avoids X for, by holding y or
  by missing it, and a hand may go while every pair it serves has another server.
* Between: `fewer_hands` — CP-SAT on every symmetry case (`symmetry.case_model`) with at most a
  given number of hands and both counts as redundant constraints (`symmetry.add_counting`):
  one case feasible gives a smaller announcement, all infeasible prove there is none.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

import numpy as np

from .. import checks
from ..bitsets import from_bits
from ..solvers import solve_limited, work_used
from .model import (
    Announcement, cards, check_announcement, check_sizes, counting_lower_bound,
    hands_within_budget, is_solution, max_shared, safe_masks, subset_masks,
)
from .search import random_packing
from .symmetry import add_counting, case_model, case_range

__all__ = ["MAX_TRIES", "PRUNES", "TRIES", "fewer_hands", "prune", "shrink"]

TRIES = 60   # random maximal packings `shrink` prunes, by default
PRUNES = 4   # random removal orders per packing
MAX_TRIES = 10_000  # packings (and orders of each) one call may try: minutes at most


def prune(announcement: Iterable[Iterable[int]], a: int, b: int, c: int, *, seed: int = 0
          ) -> Announcement:
    """A safe announcement cut down, hand by hand in a seeded random order, to one from which
    no single hand can be dropped without breaking Rule 2 (inclusion-minimal)."""
    n = hands_within_budget(a, b, c, "pruning")
    masks = [from_bits(h) for h in check_announcement(announcement, a, b, c)]
    checks.within_budget(f"Rule 2's pairs for {(a, b, c)}", comb(n, c) * n * len(masks),
                         10**8, unit="checks")
    if not safe_masks(masks, n, c, every_c_set=True):
        raise ValueError(f"prune needs a safe announcement for {(a, b, c)} (Rule 2 fails)")
    small = _prune(masks, n, c, np.random.default_rng(checks.seed(seed)))
    return tuple(sorted(cards(h) for h in small))


def _served_pairs(hands: list[int], n: int, c: int) -> np.ndarray:
    """Boolean matrix: hand i serves Rule 2's pair (X, y) by holding y (first half of the
    columns) or by missing it (second half), always avoiding the c-set X."""
    pairs = [(x, 1 << y) for x in subset_masks(n, c) for y in range(n) if not x >> y & 1]
    xs = np.array([x for x, _ in pairs], dtype=np.int64)
    ys = np.array([y for _, y in pairs], dtype=np.int64)
    h = np.array(hands, dtype=np.int64)[:, None]
    avoid, hold = (h & xs) == 0, (h & ys) != 0
    return np.concatenate([avoid & hold, avoid & ~hold], axis=1)


def _prune(hands: list[int], n: int, c: int, rng: np.random.Generator) -> list[int]:
    """`prune` on masks of a safe announcement (Rule 2 over every c-set)."""
    served = _served_pairs(hands, n, c)
    count = served.sum(axis=0)
    keep = np.ones(len(hands), dtype=bool)
    for i in rng.permutation(len(hands)):
        if (count[served[i]] >= 2).all():  # counts only fall: one pass leaves a minimal set
            count[served[i]] -= 1
            keep[i] = False
    return [h for h, k in zip(hands, keep) if k]


def _relabel(hands: list[int], a: int, n: int) -> Announcement:
    """The announcement with its cards renamed so that its first hand is Anne's 0..a-1."""
    first = cards(hands[0])
    order = [*first, *(q for q in range(n) if q not in first)]
    new = {q: i for i, q in enumerate(order)}
    return tuple(sorted(tuple(sorted(new[q] for q in cards(h))) for h in hands))


def shrink(a: int, b: int, c: int, start: Iterable[Iterable[int]] | None = None, *,
           tries: int = TRIES, prunes: int = PRUNES, seed: int = 0) -> Announcement | None:
    """The smallest announcement found by pruning `start` and `tries` random maximal packings,
    `prunes` random orders each (seeded: the same answer on every machine); None if none is
    safe."""
    n = hands_within_budget(a, b, c, "the pruning search")
    tries = checks.integer(tries, "tries", low=0, high=MAX_TRIES)
    prunes = checks.integer(prunes, "prunes", low=1, high=MAX_TRIES)
    rng = np.random.default_rng(checks.seed(seed))
    pool = np.array(subset_masks(n, a), dtype=np.uint64)
    starts = [] if start is None else [[from_bits(h) for h in check_announcement(start, a, b, c)]]
    best: list[int] | None = None
    for t in range(len(starts) + tries):
        hands = starts[t] if t < len(starts) else random_packing(
            pool, from_bits(range(a)), max_shared(a, c), rng)
        if not safe_masks(hands, n, c, every_c_set=True):
            continue
        for _ in range(prunes):
            small = _prune(hands, n, c, rng)
            if best is None or len(small) < len(best):
                best = small
    return None if best is None else _relabel(best, a, n)


def fewer_hands(a: int, b: int, c: int, most: int, work: float
                ) -> tuple[str, Announcement, float]:
    """Is there a safe announcement of at most `most` hands? CP-SAT on each symmetry case with
    `work` units: ("found", one, work used), ("none", (), work) when every case is infeasible,
    or ("unknown", (), work) when a case runs out of work first."""
    check_sizes(a, b, c)
    most = checks.integer(most, "most", low=0)
    work = checks.number(work, "work", low=0.01, high=10_000)
    used, answer = 0.0, "none"
    if most < counting_lower_bound(a, b, c):
        return "none", (), 0.0
    for k in case_range(a, b, c):
        model, x, hands = case_model(a, b, c, k)
        add_counting(model, x, np.array(hands, dtype=np.int64), a, b, c, most)
        res = solve_limited(model, work, what=f"announcement of <= {most} hands for {(a, b, c)}")
        used += work_used(res)
        if res.feasible:
            found = tuple(sorted(cards(h) for h, v in zip(hands, x) if res.value(v)))
            if not is_solution(found, a, b, c):
                raise AssertionError(f"the announcement found for {(a, b, c)} fails the verifier")
            return "found", found, round(used, 2)
        if not res.infeasible:
            answer = "unknown"
    return answer, (), round(used, 2)
