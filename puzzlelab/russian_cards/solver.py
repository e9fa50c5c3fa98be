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
   is a proof. Each call stops at a deterministic work limit (`puzzlelab.solvers.solve_limited`), so verdicts
   do not depend on the machine: a case stopped by the work limit leaves the cell "open"; a
   call stopped by the wall-clock safety net raises `WallClockStop` (never a verdict).

`Verdict.detail` says what the method established (the lemma with its numbers, the CP-SAT
cases and the work each took) and `Verdict.work` the CP-SAT work units spent (deterministic).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

from .constructions import first_construction, relabel
from .model import (
    Announcement,
    cards,
    check_hand,
    is_informative,
    is_safe,
    mask,
    sizes,
)
from ..solvers import Deadline, solve_limited, work_used
from .orbits import orbit_search
from .search import enumerate_masks, random_greedy, report_dfs
from .symmetry import case_model, case_range

# CP-SAT deterministic work units (`puzzlelab.solvers`: 0.8-2.8 s of wall time per unit measured on
# the project's 2-core machine, so roughly 30-110 s for a case that reaches the limit). The
# hardest grid case needs 16.15 units ((7,6,3), k=3), so 40 leaves a margin of 2.5.
WORK_LIMIT = 40.0  # per symmetry case
ORBIT_WORK = 5.0   # per cyclic-orbit search (the largest one in the grid needs 1.5 units)


@dataclass(frozen=True)
class Verdict:
    """The decision for one size (a, b, c): status, how it was obtained, and a witness."""

    a: int
    b: int
    c: int
    status: str                       # "solvable", "unsolvable" or "open"
    method: str
    witness: Announcement | None = None
    detail: str = ""                  # what the method established (the proof's content)
    work: float = 0.0                 # CP-SAT work units spent (deterministic time)

    @property
    def size(self) -> int | None:
        return len(self.witness) if self.witness else None


def steiner_divisible(t: int, k: int, v: int) -> bool:
    """The necessary divisibility conditions for a Steiner system S(t, k, v)."""
    return all(comb(v - i, t - i) % comb(k - i, t - i) == 0 for i in range(t))


def lemma_proof(a: int, b: int, c: int) -> tuple[str, str] | None:
    """The impossibility lemma that applies to (a, b, c), if any: its name and its numbers."""
    a, b, c = sizes(a, b, c)
    n = a + b + c
    if a <= c + 1:
        why = ("only one hand can be announced" if a <= c else
               "hands share no card, so Cath's hand would be the complement of their union")
        return "lemma: a <= c+1", f"Lemma A: a = {a} <= c + 1 = {c + 1}; {why}"
    if b <= c:
        return "lemma: b <= c", (f"Lemma B: b = {b} <= c = {c}; two hands Cath keeps share >= a - b = "
                                 f"{a - b} > a - c - 1 = {a - c - 1} cards")
    if b == c + 1 and not steiner_divisible(c + 1, 2 * c + 1, n):
        t, k = c + 1, 2 * c + 1
        i = next(i for i in range(t) if comb(n - i, t - i) % comb(k - i, t - i))
        return (f"lemma: b = c+1 needs S({t},{k},{n}), divisibility fails",
                f"Lemma C: b = c + 1 = {b}, so the complements of the hands would form S({t},{k},{n}); "
                f"but C({n - i},{t - i}) = {comb(n - i, t - i)} is not divisible by C({k - i},{t - i}) = "
                f"{comb(k - i, t - i)}")
    if a == c + 2 and n < (c + 1) ** 2 + 1:
        return ("lemma: a = c+2 needs n >= (c+1)^2 + 1",
                f"Lemma D: a = c + 2 = {a} needs n >= (c+1)^2 + 1 = {(c + 1) ** 2 + 1}, but n = {n}")
    return None


def lemma(a: int, b: int, c: int) -> str | None:
    """The name of an impossibility lemma that applies to (a, b, c), if any."""
    found = lemma_proof(a, b, c)
    return found[0] if found else None


def decide(
    a: int, b: int, c: int, *, time_limit: float | None = None, dfs_nodes: int = 2000,
    greedy_tries: int = 20, use_lemmas: bool = True, work_limit: float = WORK_LIMIT,
) -> Verdict:
    """Decide (a, b, c) for Anne's hand 0..a-1 (every hand is a relabelling of it).

    CP-SAT stops at `work_limit` units per case (deterministic); `time_limit` (seconds, whole
    cell, default: only each call's own generous cap) is a safety net that raises WallClockStop.
    """
    a, b, c = sizes(a, b, c)
    n = a + b + c
    if use_lemmas and (found := lemma_proof(a, b, c)):
        return Verdict(a, b, c, "unsolvable", found[0], detail=found[1])
    if use_lemmas and (found := first_construction(a, b, c)):
        return _accepted(Verdict(a, b, c, "solvable", f"construction: {found[0]}", found[1], detail=found[0]))
    if (greedy := random_greedy(a, b, c, tries=greedy_tries)) is not None:
        ann = tuple(sorted(cards(h) for h in greedy))
        return _accepted(Verdict(a, b, c, "solvable", "random greedy packing", ann,
                                 detail=f"a maximal Rule-1 packing (seeded, {greedy_tries} tries at most)"))
    dfs = report_dfs(a, b, c, max_nodes=dfs_nodes)
    if dfs.announcement:
        return _accepted(Verdict(a, b, c, "solvable", "report DFS", dfs.announcement,
                                 detail=f"found after {dfs.nodes} nodes"))
    if dfs.complete:
        return Verdict(a, b, c, "unsolvable", "exhaustive search (report DFS)",
                       detail=f"the report's DFS tried every Rule-1 packing through Anne's hand "
                              f"({dfs.nodes} nodes): none satisfies Rule 2")
    return _cpsat(a, b, c, n, Deadline(time_limit), work_limit)


def _cpsat(a: int, b: int, c: int, n: int, deadline: Deadline, work_limit: float) -> Verdict:
    """Cyclic-orbit witnesses, then CP-SAT case by case (module `symmetry`: a proof needs all).

    Every CP-SAT call has a deterministic work limit (the same answer on every machine).
    """
    work = 0.0
    for length in (n, n - 1):  # announcements invariant under q -> q+1 mod n (or mod n-1)
        ann, used = orbit_search(a, b, c, length, work_limit=ORBIT_WORK, deadline=deadline)
        work += used
        if ann is not None:
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT on orbits of a {length}-cycle", ann,
                                     detail=f"invariant under q -> q+1 mod {length} ({used:.2f} work units)",
                                     work=work))
    done = [f"no witness on orbits of the {n}- and {n - 1}-cycles ({work:.2f} units)"]
    for k in case_range(a, b, c):  # the largest overlap k of two announced hands
        model, x, hands = case_model(a, b, c, k)
        res = solve_limited(model, work_limit, deadline=deadline, what=f"{(a, b, c)} case k={k}")
        used = work_used(res)
        work += used
        if res.feasible:
            ann = relabel([cards(h) for h, v in zip(hands, x) if res.value(v)], tuple(range(a)), n)
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT (case k={k})", ann,
                                     detail="; ".join([*done, f"case k={k} FEASIBLE ({used:.2f} units)"]),
                                     work=work))
        if not res.infeasible:
            return Verdict(a, b, c, "open", f"open (limit): CP-SAT {work_limit:g} work units in case k={k}",
                           detail="; ".join([*done, f"case k={k} undecided at the work limit"]), work=work)
        done.append(f"largest overlap k={k}: INFEASIBLE ({used:.2f} units)")
    return Verdict(a, b, c, "unsolvable", "CP-SAT INFEASIBLE in every symmetry case",
                   detail="; ".join([*done, "hence no announcement exists (case lemma, symmetry.py)"]),
                   work=work)


def _accepted(v: Verdict) -> Verdict:
    """Only return a witness the verifier accepts (a wrong witness is a bug, not an answer)."""
    if not (is_informative(v.witness, v.a, v.b, v.c) and is_safe(v.witness, v.a, v.b, v.c)):
        raise AssertionError(f"{v.method} produced an announcement the verifier rejects")
    return v


def solve(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, time_limit: float | None = None
) -> Announcement | None:
    """One informative and safe announcement containing `hand`, or None when proven impossible.

    Raises TimeoutError when the search could neither find one nor prove that none exists
    (the work limit, or the wall-clock `time_limit`, ran out).
    """
    h = check_hand(hand, a, b, c)
    v = decide(a, b, c, time_limit=time_limit)
    if v.status == "open":
        raise TimeoutError(f"({a},{b},{c}) undecided within the work limit: {v.method}")
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
    a, b, c = sizes(a, b, c)
    n = a + b + c
    h = check_hand(hand, a, b, c)
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    found = enumerate_masks(n, a, c, mask(h), limit)
    return sorted(tuple(sorted(cards(m) for m in L)) for L in found)
