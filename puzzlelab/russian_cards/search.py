"""Searching for informative and safe announcements.

* :func:`report_dfs` — the report's depth-first solver (group11_rc §3), faithful to its order:
  hands in lexicographic order, add a hand when Rule 1 allows, stop as soon as Rule 2 holds,
  backtrack otherwise.
* :func:`enumerate_masks` — every informative and safe announcement containing a hand
  (depth-first over Rule-1 packings, pruned because Rule 2 is monotone, see below).
* :func:`cpsat_model` — the same question as a 0/1 model for CP-SAT: one variable per hand,
  Rule 1 as "each (a-c)-set lies in at most one announced hand", Rule 2 as covering clauses.
* :func:`packings` — every Rule-1 packing of a small deck (SMCDEL's candidate lists).

Rule 2 is *monotone*: adding hands never hurts it, once it is read over every c-set X
(``safe_masks(every_c_set=True)``). That reading equals the semantic one because a safe
announcement has no c-set meeting all its hands (proved in the notebook, tested in
``tests/test_russian_cards.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import comb

import numpy as np
from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import from_bits
from ..solvers import Deadline
from .model import (
    Announcement, cards, check_hand, check_sizes, hands_within_budget, max_shared, safe_masks,
    subset_masks,
)

__all__ = ["DfsResult", "MAX_CHECKS", "MAX_NODES", "packings", "report_dfs"]

# The search nodes an exhaustive enumeration may visit before it is refused (a few seconds).
MAX_NODES = 100_000
MAX_CHECKS = 2 * 10**7  # Rule-2 checks of one enumeration (c-set against hand): about 5 s
# The largest deck whose Rule-1 packings are listed: C(n, a) hands at most this many.
MAX_PACKING_HANDS = 35


class _Stop(Exception):
    """Raised inside a search to leave it at once (a budget ran out, or enough were found)."""


def _candidates(n: int, a: int, c: int, h0: int) -> list[int]:
    """Hands other than h0 that Rule 1 allows next to h0, in lexicographic order."""
    k = max_shared(a, c)
    return [h for h in subset_masks(n, a) if h != h0 and (h & h0).bit_count() <= k]


# -- the report's depth-first solver --------------------------------------------------------
@dataclass(frozen=True)
class DfsResult:
    """Outcome of the report's search (`report_dfs`): announcement (or None), nodes, completeness.

    Attributes
    ----------
    announcement : Announcement or None
        The first informative and safe announcement found through Anne's hand, or None.
    nodes : int
        The hands added during the search (the search tree's nodes).
    complete : bool
        False when the search stopped at `max_nodes` before it ended (then `announcement` is None
        and nothing is proven).

    Examples
    --------
    >>> result = report_dfs(3, 3, 1)
    >>> result.nodes, result.complete, len(result.announcement)
    (5, True, 6)

    References
    ----------
    The depth-first solver of group11_rc (source document 000), section 3.
    """

    announcement: Announcement | None
    nodes: int
    complete: bool  # False when stopped by max_nodes before finishing

    def __post_init__(self) -> None:
        checks.record(self)


def report_dfs(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, max_nodes: int = MAX_NODES,
    deadline: Deadline | None = None,
) -> DfsResult:
    """The report's solver (group11_rc §3): lexicographic depth-first search, Rules 1 and 2.

    Hands are tried in lexicographic order; a hand is added when Rule 1 allows it, the search
    stops as soon as Rule 2 holds and backtracks otherwise.

    Parameters
    ----------
    a, b, c : int
        The hand sizes.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), the first hand of the announcement.
    max_nodes : int
        The most nodes visited (default `MAX_NODES`, at most 100 times it).
    deadline : puzzlelab.solvers.Deadline, optional
        A wall-clock budget; when it passes, `WallClockStop` is raised (checked at every node).

    Returns
    -------
    DfsResult
        The announcement found (or None), the nodes visited and whether the search ended.

    Raises
    ------
    ValueError
        On invalid sizes or hand, more than `MAX_HANDS` hands, a `max_nodes` out of range, or a
        `deadline` that is not a Deadline.

    Examples
    --------
    The report's appendix output for (3,3,1) and its (4,4,1) example for Anne's hand 0123
    (section 4):

    >>> report_dfs(3, 3, 1).announcement
    ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6))
    >>> " ".join("".join(map(str, h)) for h in report_dfs(4, 4, 1, "0123").announcement)
    '0123 0145 0167 0246 0257 0347 0356 1247 1256 1346 1357 2345 2368 4578'

    References
    ----------
    group11_rc (source document 000), section 3 ("Search for a Solution"), section 4 and the
    appendix.
    """
    n = hands_within_budget(a, b, c, "the report's search")
    h0 = from_bits(check_hand(hand, a, b, c))
    max_nodes = checks.integer(max_nodes, "max_nodes", low=0, high=100 * MAX_NODES)
    if not isinstance(deadline, Deadline | None):
        raise checks.ArgumentTypeError(f"deadline must be a Deadline or None, got {deadline!r}")
    clock = deadline or Deadline(None)
    k = max_shared(a, c)
    order = [h for h in subset_masks(n, a) if h != h0]
    chosen = [h0]
    nodes = 0

    def extend(start: int) -> bool:
        nonlocal nodes
        for i in range(start, len(order)):
            h = order[i]
            if all((h & g).bit_count() <= k for g in chosen):
                nodes += 1
                if nodes > max_nodes:
                    raise _Stop
                clock.check(f"the report's search {(a, b, c)}, node {nodes}")
                chosen.append(h)
                if safe_masks(chosen, n, c, every_c_set=True) or extend(i + 1):
                    return True
                chosen.pop()
        return False

    try:
        found = extend(0)
    except _Stop:
        return DfsResult(None, nodes - 1, False)
    ann = tuple(sorted(cards(h) for h in chosen)) if found else None
    return DfsResult(ann, nodes, True)


# -- every solution containing a hand ----------------------------------------------------
def enumerate_masks(
    n: int, a: int, c: int, h0: int, limit: int | None = None, max_nodes: int | None = None,
    max_checks: int | None = None,
) -> list[list[int]]:
    """Every informative and safe announcement (as mask lists, h0 first) containing h0.

    `limit` stops after that many (limit=1 is an exhaustive existence test). A search that
    would visit more than `max_nodes` nodes, or make more than `max_checks` Rule-2 checks
    (c-set against hand, the work of a node), is refused with a ValueError naming the budget.
    """
    k = max_shared(a, c)
    out: list[list[int]] = []
    nodes = checks_made = 0
    c_sets = comb(n, c)

    def rec(chosen: list[int], pool: list[int]) -> None:
        nonlocal nodes, checks_made
        nodes += 1
        checks_made += c_sets * (len(chosen) + len(pool))
        if (max_nodes is not None and nodes > max_nodes) or (
                max_checks is not None and checks_made > max_checks):
            budget = (f"{max_nodes} search nodes" if max_nodes is not None and nodes > max_nodes
                      else f"{max_checks:.0e} Rule-2 checks")
            raise ValueError(
                f"the enumeration needs more than {budget} (the budget); pass "
                "limit=1 to decide existence, or use decide() for a single witness")
        if not safe_masks(chosen + pool, n, c, every_c_set=True):
            return  # Rule 2 is monotone: no subset of chosen + pool can be safe
        if safe_masks(chosen, n, c, every_c_set=True):
            out.append(chosen)
            if limit is not None and len(out) >= limit:
                raise _Stop
        for i, h in enumerate(pool):
            rec(chosen + [h], [g for g in pool[i + 1:] if (g & h).bit_count() <= k])

    try:
        rec([h0], _candidates(n, a, c, h0))
    except _Stop:
        pass
    return out


# -- CP-SAT model -----------------------------------------------------------------------
def add_clauses(model: cp_model.CpModel, lits: np.ndarray, kind: str) -> None:
    """Write one clause ('bool_or' or 'at_most_one') straight into the model's protocol buffer."""
    getattr(model.proto.constraints.add(), kind).literals.extend(lits.tolist())


def rule2_clauses(arr: np.ndarray, n: int, c: int) -> Iterator[np.ndarray]:
    """Rule 2 as clauses over hands `arr` (each clause the indices of its hands, one of which
    must be announced): every (c+1)-set is avoided by a hand, and for every c-set X and card y
    outside X some hand avoiding X contains y."""
    for z in subset_masks(n, c + 1):
        yield np.nonzero((arr & z) == 0)[0]
    for xs in subset_masks(n, c):
        avoid = (arr & xs) == 0
        for y in range(n):
            if not xs >> y & 1:
                yield np.nonzero(avoid & ((arr >> y) & 1).astype(bool))[0]


def add_rule2(model: cp_model.CpModel, arr: np.ndarray, n: int, c: int) -> None:
    """Rule 2's clauses (`rule2_clauses`) in a CP-SAT model (literal i = hand i)."""
    for clause in rule2_clauses(arr, n, c):
        add_clauses(model, clause, "bool_or")


def rule2_size(arr: np.ndarray, n: int, a: int, c: int) -> int:
    """The literals `add_rule2` writes for hands `arr` of a cards, counted without writing them:
    a (c+1)-set's clause lists the hands avoiding it, and the clauses of a c-set X list each
    hand avoiding X once per card it holds (every card of such a hand lies outside X)."""
    return (sum(int(((arr & z) == 0).sum()) for z in subset_masks(n, c + 1))
            + a * sum(int(((arr & xs) == 0).sum()) for xs in subset_masks(n, c)))


def packing_groups(arr: np.ndarray, n: int, t: int) -> Iterator[np.ndarray]:
    """For every t-set of cards held by two hands or more of `arr`, the indices of those hands:
    at most one of each group may be announced."""
    for s in subset_masks(n, t):
        lits = np.nonzero((arr & s) == s)[0]
        if len(lits) > 1:
            yield lits


def add_packing(model: cp_model.CpModel, arr: np.ndarray, n: int, t: int) -> None:
    """Every t-set of cards lies in at most one chosen hand (literal i = hand i)."""
    for lits in packing_groups(arr, n, t):
        add_clauses(model, lits, "at_most_one")


def cpsat_model(
    a: int, b: int, c: int, *, minimize: bool = False
) -> tuple[cp_model.CpModel, dict[int, cp_model.IntVar]]:
    """0/1 model: x_h = 1 iff hand h is announced; Anne's hand 0..a-1 is announced.

    Rule 1: every (a-c)-set of cards lies in at most one announced hand. Rule 2: `add_rule2`.
    This is the whole model (no symmetry breaking): `decide` uses the cases of `symmetry.py`;
    the smallest-announcement sweep minimises over it.
    """
    n = hands_within_budget(a, b, c, "the CP-SAT model")
    t = a - c
    hands = subset_masks(n, a)
    arr = np.array(hands, dtype=np.int64)
    model = cp_model.CpModel()
    x = {h: model.new_bool_var(f"h{h}") for h in hands}
    model.add(x[from_bits(range(a))] == 1)
    if t <= 0:
        model.add(sum(x.values()) <= 1)
    else:
        add_packing(model, arr, n, t)
    add_rule2(model, arr, n, c)
    if minimize:
        model.minimize(sum(x.values()))
    return model, x


# -- randomized greedy packings ------------------------------------------------------------
def random_greedy(a: int, b: int, c: int, *, tries: int = 50, seed: int = 0) -> list[int] | None:
    """Maximal Rule-1 packings through Anne's hand 0..a-1 in random orders; the first safe one.

    A heuristic (it can only find witnesses): since Rule 2 is monotone, a maximal packing is
    the best chance of a given order. Hands are bit masks; conflicts are found with numpy.
    """
    n = hands_within_budget(a, b, c, "the greedy search")
    hands = np.array(subset_masks(n, a), dtype=np.uint64)
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        chosen = random_packing(hands, from_bits(range(a)), max_shared(a, c), rng)
        if safe_masks(chosen, n, c, every_c_set=True):
            return chosen
    return None


def random_packing(hands: np.ndarray, h0: int, k: int, rng: np.random.Generator) -> list[int]:
    """One maximal packing through h0 (hands pairwise sharing <= k cards): the hands (uint64
    masks) tried in a random order, each kept when it fits."""
    allowed = np.bitwise_count(hands & np.uint64(h0)) <= k
    allowed[hands == h0] = False
    chosen = [h0]
    for i in rng.permutation(len(hands)):
        if allowed[i]:
            h = int(hands[i])
            chosen.append(h)
            allowed &= np.bitwise_count(hands & np.uint64(h)) <= k
    return chosen


# -- families of candidate announcements ----------------------------------------------------
def packings(
    a: int, b: int, c: int, sizes: Iterable[int] | None = None, hand: Iterable[int] | None = None,
) -> list[Announcement]:
    """Every Rule-1 packing (hands pairwise sharing <= a-c-1 cards) with a size in `sizes`.

    With `hand`, only packings through that hand (listed first); otherwise hands within a
    packing are in lexicographic order (the shape of SMCDEL's `allHandLists` for (3,3,1), sizes
    5, 6, 7). Small decks only: C(n, a) <= `MAX_PACKING_HANDS`.

    Parameters
    ----------
    a, b, c : int
        The hand sizes (a deck of at most 7 cards).
    sizes : iterable of int, optional
        The numbers of hands wanted (default: every size).
    hand : iterable of int, optional
        A hand every packing must contain.

    Returns
    -------
    list of Announcement
        The packings, in the order of a depth-first search over the hands.

    Raises
    ------
    ValueError
        On invalid sizes, a size below 1, an invalid hand, or more than `MAX_PACKING_HANDS`
        hands (decks of more than 7 cards).

    Examples
    --------
    The 7-hand packings of (3,3,1) are the 30 labellings of the Fano plane (7! / 168):

    >>> sevens = packings(3, 3, 1, sizes=[7])
    >>> len(sevens), sevens[0]
    (30, ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)))

    References
    ----------
    Rule 1 of group11_rc (source document 000), section 3; the candidate lists of SMCDEL
    (Gattinger 2018) for van Ditmarsch (2003), Studia Logica 75.
    """
    n = check_sizes(a, b, c)
    checks.within_budget(f"every Rule-1 packing of {(a, b, c)}", comb(n, a), MAX_PACKING_HANDS,
                         unit="hands", largest="decks of 7 cards")
    want = None if sizes is None else set(checks.integers(sizes, "sizes", low=1))
    start = None if hand is None else from_bits(check_hand(hand, a, b, c))
    out = [tuple(cards(h) for h in L) for L in _packing_masks(n, a, c, want, start)]
    return out


def _packing_masks(n: int, a: int, c: int, want: set[int] | None, start: int | None) -> list:
    """The packings of `packings` as lists of masks."""
    k = max_shared(a, c)
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

    if start is None:
        rec([], hands)
    else:
        rec([start], [h for h in hands if h != start and (h & start).bit_count() <= k])
    return out
