"""Deciding (a, b, c): a witness the verifier accepts, or a proof that none exists.

Order of attack (each step names itself in `Verdict.method`):

1. **Lemmas** (proved in the notebook, section "Four impossibility lemmas"):
   a <= c + 1 (informative hands are pairwise disjoint, so Cath always learns something);
   b <= c (two hands Cath cannot rule out share >= a - c cards, breaking Rule 1);
   b = c + 1 (the complements of the hands must form a Steiner system S(c+1, 2c+1, n);
   when its divisibility conditions fail, no announcement exists);
   a = c + 2 (hands share at most one card, so the >= c+1 hands through a card are disjoint
   elsewhere: n - 1 >= (c+1)^2).
2. **Constructions** from the literature (`constructions.py`), checked by the verifier.
3. **Random greedy packings, then the report's depth-first search**, with a node budget.
4. **CP-SAT**: first on orbits of a cyclic group of cards (`orbits.py`, witnesses only), then
   the symmetry-broken cases of `symmetry.py` one by one (largest overlap k of two hands
   fixed, lex-leader constraints): a FEASIBLE case gives a witness, INFEASIBLE in every case
   is a proof. Each call has a deterministic work limit, so verdicts do not depend on the
   machine; a case stopped by the limit leaves the cell open.
"""

from __future__ import annotations

from collections.abc import Iterable
import time
from dataclasses import dataclass
from math import comb

from ..solvers import solve as cp_solve
from .constructions import first_construction, relabel
from .model import (
    Announcement,
    cards,
    check_hand,
    check_sizes,
    is_informative,
    is_safe,
    mask,
)
from .orbits import orbit_witness
from .search import enumerate_masks, random_greedy, report_dfs
from .symmetry import case_model, case_range

WORK_LIMIT = 40.0  # CP-SAT deterministic work units per symmetry case (about 1-2 s each)
ORBIT_WORK = 5.0   # the same for each cyclic-orbit search


@dataclass(frozen=True)
class Verdict:
    """The decision for one size (a, b, c): status, how it was obtained, and a witness."""

    a: int
    b: int
    c: int
    status: str                       # "solvable", "unsolvable" or "open"
    method: str
    witness: Announcement | None = None

    @property
    def size(self) -> int | None:
        return len(self.witness) if self.witness else None


def steiner_divisible(t: int, k: int, v: int) -> bool:
    """The necessary divisibility conditions for a Steiner system S(t, k, v)."""
    return all(comb(v - i, t - i) % comb(k - i, t - i) == 0 for i in range(t))


def lemma(a: int, b: int, c: int) -> str | None:
    """The name of an impossibility lemma that applies to (a, b, c), if any."""
    n = check_sizes(a, b, c)
    if a <= c + 1:
        return "lemma: a <= c+1"
    if b <= c:
        return "lemma: b <= c"
    if b == c + 1 and not steiner_divisible(c + 1, 2 * c + 1, n):
        return f"lemma: b = c+1 needs S({c + 1},{2 * c + 1},{n}), divisibility fails"
    if a == c + 2 and n < (c + 1) ** 2 + 1:
        return "lemma: a = c+2 needs n >= (c+1)^2 + 1"
    return None


def decide(
    a: int, b: int, c: int, *, time_limit: float = 60.0, dfs_nodes: int = 2000,
    greedy_tries: int = 20, use_lemmas: bool = True, work_limit: float = WORK_LIMIT,
) -> Verdict:
    """Decide (a, b, c) for Anne's hand 0..a-1 (every hand is a relabelling of it)."""
    n = check_sizes(a, b, c)
    if use_lemmas and (name := lemma(a, b, c)):
        return Verdict(a, b, c, "unsolvable", name)
    if use_lemmas and (found := first_construction(a, b, c)):
        return _accepted(Verdict(a, b, c, "solvable", f"construction: {found[0]}", found[1]))
    if (greedy := random_greedy(a, b, c, tries=greedy_tries)) is not None:
        ann = tuple(sorted(cards(h) for h in greedy))
        return _accepted(Verdict(a, b, c, "solvable", "random greedy packing", ann))
    dfs = report_dfs(a, b, c, max_nodes=dfs_nodes)
    if dfs.announcement:
        return _accepted(Verdict(a, b, c, "solvable", "report DFS", dfs.announcement))
    if dfs.complete:
        return Verdict(a, b, c, "unsolvable", "exhaustive search (report DFS)")
    return _cpsat(a, b, c, n, time_limit, work_limit)


def _cpsat(a: int, b: int, c: int, n: int, time_limit: float, work_limit: float) -> Verdict:
    """Cyclic-orbit witnesses, then CP-SAT case by case (module `symmetry`: a proof needs all).

    Every CP-SAT call has a deterministic work limit (the same answer on every machine);
    `time_limit` (seconds, for the whole cell) is only a safety cap.
    """
    start = time.perf_counter()
    for length in (n, n - 1):  # announcements invariant under q -> q+1 mod n (or mod n-1)
        ann = orbit_witness(a, b, c, length, work_limit=ORBIT_WORK, time_limit=time_limit)
        if ann is not None:
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT on orbits of a {length}-cycle", ann))
    for k in case_range(a, b, c):  # the largest overlap k of two announced hands
        left = time_limit - (time.perf_counter() - start)
        model, x, hands = case_model(a, b, c, k)
        res = cp_solve(model, time_limit=max(left, 1.0), deterministic_limit=work_limit)
        if res.feasible:
            ann = relabel([cards(h) for h, v in zip(hands, x) if res.value(v)], tuple(range(a)), n)
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT (case k={k})", ann))
        if not res.infeasible:
            return Verdict(a, b, c, "open", f"open (limit): CP-SAT {work_limit:g} work units in case k={k}")
    return Verdict(a, b, c, "unsolvable", "CP-SAT INFEASIBLE in every symmetry case")


def _accepted(v: Verdict) -> Verdict:
    """Only return a witness the verifier accepts (a wrong witness is a bug, not an answer)."""
    if not (is_informative(v.witness, v.a, v.b, v.c) and is_safe(v.witness, v.a, v.b, v.c)):
        raise AssertionError(f"{v.method} produced an announcement the verifier rejects")
    return v


def solve(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, time_limit: float = 60.0
) -> Announcement | None:
    """One informative and safe announcement containing `hand`, or None when proven impossible.

    Raises TimeoutError when the search could neither find one nor prove that none exists.
    """
    h = check_hand(hand, a, b, c)
    v = decide(a, b, c, time_limit=time_limit)
    if v.status == "open":
        raise TimeoutError(f"({a},{b},{c}) undecided within {time_limit} s: {v.method}")
    return for_hand(v, h)


def for_hand(v: Verdict, hand: Iterable[int]) -> Announcement | None:
    """The verdict's witness (for hand 0..a-1) relabelled to contain `hand`."""
    if v.witness is None:
        return None
    h = check_hand(hand, v.a, v.b, v.c)
    first = tuple(range(v.a))
    return relabel([first, *[w for w in v.witness if w != first]], h, v.a + v.b + v.c)


def safe_announcements(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, limit: int | None = None
) -> list[Announcement]:
    """Every informative and safe announcement containing `hand` (sorted; exhaustive search).

    The number grows fast (hundreds of thousands already for (3,5,1)); `limit` keeps the
    first `limit` found (in search order) and `limit=1` decides existence exhaustively.
    """
    n = check_sizes(a, b, c)
    h = check_hand(hand, a, b, c)
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    found = enumerate_masks(n, a, c, mask(h), limit)
    return sorted(tuple(sorted(cards(m) for m in L)) for L in found)
