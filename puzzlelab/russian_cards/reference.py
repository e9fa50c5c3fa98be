"""Slow, obviously-correct reference implementations that the tests use to cross-check the solvers.

* :func:`brute_force_masks` — every subset of the other hands, each checked by Rules 1 and 2
  (the oracle for the pruned enumeration of `search.enumerate_masks`);
* :func:`in_case` — the conditions (i)-(iii) of a symmetry case of `symmetry.py`, checked
  directly on a set of hands (the oracle for the CP-SAT case models).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .. import checks
from .model import hands_within_budget, informative_masks, safe_masks, subset_masks
from .symmetry import case_hands, generators, permute

__all__ = ["brute_force_masks", "in_case"]


def brute_force_masks(n: int, a: int, c: int, h0: int) -> list[list[int]]:
    """Every informative and safe announcement (mask lists, h0 first), checked naively."""
    n = checks.integer(n, "n", low=1, high=12)
    a = checks.integer(a, "a", low=1, high=n)
    c = checks.integer(c, "c", low=1, high=n)
    h0 = checks.integer(h0, "h0", low=0)
    others = [h for h in subset_masks(n, a) if h != h0]
    if len(others) > 20:
        raise ValueError(f"brute force over 2^{len(others)} subsets is too large (at most 2^20)")
    out = []
    for r in range(len(others) + 1):
        for extra in combinations(others, r):
            L = [h0, *extra]
            if informative_masks(L, a, c) and safe_masks(L, n, c):
                out.append(L)
    return out


def in_case(ann_masks: Sequence[int], a: int, b: int, c: int, k: int) -> bool:
    """Conditions (i)-(iii) of case k checked directly on a set of hands (test oracle)."""
    n = hands_within_budget(a, b, c, "the case check")
    k = checks.integer(k, "k", low=0, high=a)
    chosen = set(checks.integers(ann_masks, "ann_masks", low=0))
    h0, h1 = case_hands(a, k)
    if h0 not in chosen or h1 not in chosen:
        return False
    ms = sorted(chosen)
    if any((g & h).bit_count() > k for i, g in enumerate(ms) for h in ms[i + 1:]):
        return False
    order = list(subset_masks(n, a))
    vec = [h in chosen for h in order]
    for p in generators(a, n, k):
        img = {permute(p, h) for h in chosen}
        if vec < [h in img for h in order]:
            return False
    return True
