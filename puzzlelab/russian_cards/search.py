"""Searching for informative and safe announcements.

* :func:`report_dfs` — the report's depth-first solver (§3 "Search for a Solution"), faithful
  to its order: hands in lexicographic order, add a hand when Rule 1 allows, stop as soon as
  Rule 2 holds, backtrack otherwise.
* :func:`enumerate_masks` — every informative and safe announcement containing a hand
  (depth-first over Rule-1 packings, pruned because Rule 2 is monotone, see below).
* :func:`cpsat_model` — the same question as a 0/1 model for CP-SAT: one variable per hand,
  Rule 1 as "each (a-c)-set lies in at most one announced hand", Rule 2 as covering clauses.

Rule 2 is *monotone*: adding hands never hurts it, once it is read over every c-set X
(``safe_masks(every_c_set=True)``). That reading equals the semantic one because a safe
announcement has no c-set meeting all its hands (proved in the notebook, tested in
``tests/test_russian_cards.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from ortools.sat.python import cp_model

from .model import cards, check_hand, check_sizes, mask, max_shared, safe_masks, subset_masks


def _candidates(n: int, a: int, c: int, h0: int) -> list[int]:
    """Hands other than h0 that Rule 1 allows next to h0, in lexicographic order."""
    k = max_shared(a, c)
    return [h for h in subset_masks(n, a) if h != h0 and (h & h0).bit_count() <= k]


# -- the report's depth-first solver --------------------------------------------------------
@dataclass(frozen=True)
class DfsResult:
    """Outcome of the report's search: the announcement (or None), nodes visited, completeness."""

    announcement: tuple[tuple[int, ...], ...] | None
    nodes: int
    complete: bool  # False when stopped by max_nodes before finishing


def report_dfs(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, max_nodes: int | None = None
) -> DfsResult:
    """The report's solver (§3): lexicographic depth-first search with Rules 1 and 2."""
    n = check_sizes(a, b, c)
    h0 = mask(check_hand(hand, a, b, c))
    k = max_shared(a, c)
    order = [h for h in subset_masks(n, a) if h != h0]
    chosen = [h0]
    nodes = 0

    class Stop(Exception):
        pass

    def extend(start: int) -> bool:
        nonlocal nodes
        for i in range(start, len(order)):
            h = order[i]
            if all((h & g).bit_count() <= k for g in chosen):
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    raise Stop
                chosen.append(h)
                if safe_masks(chosen, n, c, every_c_set=True) or extend(i + 1):
                    return True
                chosen.pop()
        return False

    try:
        found = extend(0)
    except Stop:
        return DfsResult(None, nodes - 1, False)
    ann = tuple(sorted(cards(h) for h in chosen)) if found else None
    return DfsResult(ann, nodes, True)


# -- every solution containing a hand ----------------------------------------------------
def enumerate_masks(n: int, a: int, c: int, h0: int, limit: int | None = None) -> list[list[int]]:
    """Every informative and safe announcement (as mask lists, h0 first) containing h0.

    `limit` stops after that many (limit=1 is an exhaustive existence test).
    """
    k = max_shared(a, c)
    out: list[list[int]] = []

    class Enough(Exception):
        pass

    def rec(chosen: list[int], pool: list[int]) -> None:
        if not safe_masks(chosen + pool, n, c, every_c_set=True):
            return  # Rule 2 is monotone: no subset of chosen + pool can be safe
        if safe_masks(chosen, n, c, every_c_set=True):
            out.append(chosen)
            if limit is not None and len(out) >= limit:
                raise Enough
        for i, h in enumerate(pool):
            rec(chosen + [h], [g for g in pool[i + 1:] if (g & h).bit_count() <= k])

    try:
        rec([h0], _candidates(n, a, c, h0))
    except Enough:
        pass
    return out


def brute_force_masks(n: int, a: int, c: int, h0: int) -> list[list[int]]:
    """Every subset of the other hands, checked naively: the test oracle (tiny n only)."""
    from .model import informative_masks

    others = [h for h in subset_masks(n, a) if h != h0]
    if len(others) > 20:
        raise ValueError(f"brute force over 2^{len(others)} subsets is too large")
    out = []
    for r in range(len(others) + 1):
        for extra in combinations(others, r):
            L = [h0, *extra]
            if informative_masks(L, a, c) and safe_masks(L, n, c):
                out.append(L)
    return out


# -- CP-SAT model -----------------------------------------------------------------------
def cpsat_model(
    a: int, b: int, c: int, *, minimize: bool = False
) -> tuple[cp_model.CpModel, dict[int, cp_model.IntVar]]:
    """0/1 model: x_h = 1 iff hand h is announced; Anne's hand 0..a-1 is announced.

    Rule 1: every (a-c)-set of cards lies in at most one announced hand.
    Rule 2: every (c+1)-set is avoided by an announced hand, and for every c-set X and card
    y outside X some announced hand contains y and avoids X.
    This is the whole model (no symmetry breaking): `decide` uses the cases of `symmetry.py`;
    the tests and the benchmark use this one as an independent cross-check and baseline.
    Clauses are written straight into the model's protocol buffer (numpy builds the lists).
    """
    import numpy as np

    n = check_sizes(a, b, c)
    t = a - c
    hands = subset_masks(n, a)
    arr = np.array(hands, dtype=np.int64)
    h0 = mask(range(a))
    model = cp_model.CpModel()
    x = {h: model.new_bool_var(f"h{h}") for h in hands}
    index = {h: v.index for h, v in x.items()}
    proto = model.proto

    def clause(lits: np.ndarray, kind: str) -> None:
        ct = proto.constraints.add()
        getattr(ct, kind).literals.extend(lits.tolist())

    model.add(x[h0] == 1)
    if t <= 0:
        model.add(sum(x.values()) <= 1)
    else:
        for s_ in subset_masks(n, t):
            lits = np.nonzero((arr & s_) == s_)[0]
            if len(lits) > 1:
                clause(lits, "at_most_one")
    for z in subset_masks(n, c + 1):
        clause(np.nonzero((arr & z) == 0)[0], "bool_or")
    for xs in subset_masks(n, c):
        avoid = (arr & xs) == 0
        for y in range(n):
            if not xs >> y & 1:
                clause(np.nonzero(avoid & ((arr >> y) & 1).astype(bool))[0], "bool_or")
    if minimize:
        model.minimize(sum(x.values()))
    assert all(index[h] == i for i, h in enumerate(hands))  # literal i is hand i
    return model, x


# -- randomized greedy packings ------------------------------------------------------------
def random_greedy(a: int, b: int, c: int, *, tries: int = 50, seed: int = 0) -> list[int] | None:
    """Maximal Rule-1 packings through Anne's hand 0..a-1 in random orders; the first safe one.

    A heuristic (it can only find witnesses): since Rule 2 is monotone, a maximal packing is
    the best chance of a given order. Hands are bit masks; conflicts are found with numpy.
    """
    import numpy as np

    n = check_sizes(a, b, c)
    k = max_shared(a, c)
    hands = np.array(subset_masks(n, a), dtype=np.uint64)
    h0 = mask(range(a))
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        allowed = np.bitwise_count(hands & np.uint64(h0)) <= k
        allowed[hands == h0] = False
        chosen = [h0]
        for i in rng.permutation(len(hands)):
            if allowed[i]:
                h = int(hands[i])
                chosen.append(h)
                allowed &= np.bitwise_count(hands & np.uint64(h)) <= k
        if safe_masks(chosen, n, c, every_c_set=True):
            return chosen
    return None


# -- families of candidate announcements ----------------------------------------------------
def packings(n: int, a: int, c: int, sizes: Iterable[int] | None = None, containing: int | None = None) -> list[list[int]]:
    """Every Rule-1 packing (hands pairwise sharing <= a-c-1 cards) with a size in `sizes`.

    With `containing` (a mask) only packings through that hand; lists are in lexicographic
    order of hands (the shape of SMCDEL's ``allHandLists`` for (3,3,1) with sizes 5, 6, 7).
    """
    k = max_shared(a, c)
    want = None if sizes is None else set(sizes)
    top = max(want) if want else None
    hands = list(subset_masks(n, a))
    out: list[list[int]] = []

    def rec(chosen: list[int], pool: list[int]) -> None:
        if chosen and (want is None or len(chosen) in want):
            out.append(chosen)
        if top is not None and len(chosen) >= top:
            return
        for i, h in enumerate(pool):
            rec(chosen + [h], [g for g in pool[i + 1:] if (g & h).bit_count() <= k])

    if containing is None:
        rec([], hands)
    else:
        rec([containing], [h for h in hands if h != containing and (h & containing).bit_count() <= k])
    return out
