"""How many maximal won sets there are for two colours, counted without listing them (ours).

A maximal won set is the complement of a *minimal* lost set, i.e. of a minimal dominating set
of the hypercube Q_N (`sets`). Listing them ends at N = 5 (46,432 sets); N = 6 has billions.
Two symmetries of the hat game turn the count into a few small searches:

- *any round can be round 0* (the game looks the same from every round): counting the pairs
  (L, r) with r in L in two ways, the number of minimal lost sets of size k is
  N_k = 2**N / k * A_k, where A_k counts those that lose round 0 = (a, a, ..., a);
- *players can be renamed* (this fixes round 0): among those sets, the number depends only on
  how many of round 0's N neighbours (one hat changed) are lost, not on which, so
  A_k = sum_j C(N, j) B_{k,j}, where B_{k,j} counts the sets that lose round 0 and exactly
  the neighbours in which one of players 1..j changes hat (`pattern_counts`).

Each B_{.,j} is one compiled branch search: the branching of `sets.minimal_dominating_sets`
(lowest undominated round, each set once, pruned as soon as a lost round has no round of its
own left) on 64-bit masks, so N <= 6. That the quotients are whole numbers is checked, and the
tests compare the counts with the listing for N <= 5 and the symmetries with other choices of
round and players.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
import pandas as pd
from numba import njit

from .. import checks
from ..bitsets import bits
from .sets import closed_neighbourhoods

__all__ = ["MAX_CENSUS_PLAYERS", "MAX_NODES", "census_cases", "count_minimal_lost_sets", "maximal_counts",
           "pattern_counts"]

MAX_CENSUS_PLAYERS = 6  # 2**6 = 64 rounds: one uint64 mask per set of rounds
NODES_PER_SECOND = 10**6  # branch nodes a second of the compiled search, at least (busy core)
MAX_NODES = 10**7  # the search nodes a count may visit unless told otherwise (seconds)


@lru_cache(maxsize=8)
def _tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
    """Closed neighbourhoods, balls of radius 2, the masks of rounds with hat j = a, all rounds."""
    size = 2**n
    near = closed_neighbourhoods(n)
    ball2 = [0] * size  # the union of the closed neighbourhoods of v's closed neighbourhood
    for v in range(size):
        for u in bits(near[v]):
            ball2[v] |= near[u]
    closed, ball2 = np.array(near, dtype=np.uint64), np.array(ball2, dtype=np.uint64)
    low = np.array([sum(1 << x for x in range(size) if not x >> j & 1) for j in range(n)],
                   dtype=np.uint64)
    return closed, ball2, low, np.uint64((1 << size) - 1)


@njit(cache=True)
def _lowest(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    i = 0
    while not (x >> np.uint64(i)) & np.uint64(1):
        i += 1
    return i


@njit(cache=True)
def _popcount(x: np.uint64) -> int:
    c = 0
    while x:
        x &= x - np.uint64(1)
        c += 1
    return c


@njit(cache=True)
def _flip(mask: np.uint64, j: int, low: np.ndarray) -> np.uint64:
    """The rounds of `mask` with player j's hat changed (a bit permutation of the mask)."""
    s = np.uint64(1 << j)
    return ((mask >> s) & low[j]) | ((mask & low[j]) << s)


@njit(cache=True)
def _dominate(lost, closed):  # pragma: no cover
    """(rounds the lost rounds dominate, rounds they dominate exactly once)."""
    one = np.uint64(1)
    dom = np.uint64(0)
    once = np.uint64(0)
    x = lost
    while x:
        v = _lowest(x)
        x &= x - one
        once = (once & ~closed[v]) | (closed[v] & ~dom)
        dom |= closed[v]
    return dom, once


@njit(cache=True)
def _each_keeps_its_own(lost, once, closed):  # pragma: no cover
    """Does every round of `lost` dominate some round that no other lost round does?"""
    one = np.uint64(1)
    x = lost
    while x:
        v = _lowest(x)
        x &= x - one
        if not closed[v] & once:
            return False
    return True


@njit(cache=True)
def _blocked(kept, dom, n, low):  # pragma: no cover
    """Is some round not yet dominated whose whole closed neighbourhood must stay won?"""
    blocked = kept
    for j in range(n):
        blocked &= _flip(kept, j, low)
    return (blocked & ~dom) != 0


@njit(cache=True)
def _search(n, closed, ball2, low, full, lost0, kept0, counts, max_nodes):  # pragma: no cover
    """Count minimal dominating sets L with lost0 <= L, L & kept0 = 0 into counts[|L|]; the
    nodes visited, or -1 once more than `max_nodes` (0: no limit) would be needed."""
    one = np.uint64(1)
    depth = 2**n + 2
    st_lost, st_dom = np.zeros(depth, np.uint64), np.zeros(depth, np.uint64)
    st_once, st_kept = np.zeros(depth, np.uint64), np.zeros(depth, np.uint64)
    st_cand = np.zeros(depth, np.uint64)
    dom, once = _dominate(lost0, closed)
    if not _each_keeps_its_own(lost0, once, closed):
        return 0  # a forced lost round without a round of its own: no minimal set
    if dom == full:
        counts[_popcount(lost0)] += 1
        return 1
    nodes, d = 0, 0
    st_lost[0], st_dom[0], st_once[0], st_kept[0] = lost0, dom, once, kept0
    st_cand[0] = closed[_lowest(full & ~dom)] & ~kept0
    while d >= 0:
        cand = st_cand[d]
        if cand == 0:
            d -= 1
            continue
        w = _lowest(cand)
        wb = one << np.uint64(w)
        st_cand[d] = cand & ~wb
        lost, dom, once, kept = st_lost[d], st_dom[d], st_once[d], st_kept[d]
        st_kept[d] = kept | wb  # later siblings keep w won: each set is found once
        nodes += 1
        if max_nodes and nodes > max_nodes:
            return -1
        once = (once & ~closed[w]) | (closed[w] & ~dom)
        lost |= wb
        # only lost rounds within distance 2 of w can lose their own round
        if not _each_keeps_its_own(lost & ball2[w], once, closed):
            continue
        dom |= closed[w]
        if dom == full:
            counts[_popcount(lost)] += 1
            continue
        if _blocked(kept, dom, n, low):
            continue
        d += 1
        st_lost[d], st_dom[d], st_once[d], st_kept[d] = lost, dom, once, kept
        st_cand[d] = closed[_lowest(full & ~dom)] & ~kept
    return nodes


def _players(n_players: object) -> int:
    return checks.integer(n_players, "n_players", low=2, high=MAX_CENSUS_PLAYERS)


def count_minimal_lost_sets(n_players: int, lost: int = 0, kept: int = 0, *,
                            max_nodes: int | None = MAX_NODES) -> dict[int, int]:
    """Minimal lost sets (M = 2) that contain the rounds `lost` and avoid `kept`, by size.

    A search of more than `max_nodes` branch nodes (None: no limit, as the census's own
    searches) is refused with a ValueError naming that budget."""
    n = _players(n_players)
    budget = 0 if max_nodes is None else checks.integer(max_nodes, "max_nodes", low=1)
    budget = min(budget, np.iinfo(np.int64).max)  # past the search's counter: no limit at all
    everything = (1 << 2**n) - 1
    lost = checks.integer(lost, "lost", low=0, high=everything)
    kept = checks.integer(kept, "kept", low=0, high=everything)
    if lost & kept:
        raise ValueError("a round cannot be both lost and kept")
    closed, ball2, low, full = _tables(n)
    counts = np.zeros(2**n + 1, dtype=np.int64)
    if _search(n, closed, ball2, low, full, np.uint64(lost), np.uint64(kept), counts,
               budget) < 0:
        raise ValueError(f"counting the minimal lost sets of N = {n} with these rounds fixed "
                         f"needs more than {budget:,} search nodes (the budget, about "
                         f"{budget // NODES_PER_SECOND} s); fix more rounds, or pass "
                         "max_nodes=None to run it anyway")
    return {k: int(c) for k, c in enumerate(counts) if c}


def pattern_counts(case: tuple[int, int]) -> list[dict]:
    """B_{k,j} for case (N, j): sets losing round 0 and exactly its neighbours for players 1..j."""
    if not isinstance(case, tuple | list) or len(case) != 2:
        raise checks.ArgumentTypeError(f"a census case is a pair (N, j), got {case!r}")
    n, j = case
    n = _players(n)
    j = checks.integer(j, "j", low=0, high=n)
    lost = 1 | sum(1 << (1 << i) for i in range(j))
    kept = sum(1 << (1 << i) for i in range(j, n))
    return [{"n_players": n, "lost_neighbours": j, "lost_rounds": k, "sets": c}
            for k, c in sorted(count_minimal_lost_sets(n, lost, kept, max_nodes=None).items())]


def census_cases(max_players: int = MAX_CENSUS_PLAYERS) -> list[tuple[int, int]]:
    """The (N, j) searches of the census for N = 2..max_players, hardest (j = 0) last per N."""
    top = _players(max_players)
    return [(n, j) for n in range(2, top + 1) for j in range(n, -1, -1)]


def maximal_counts(pieces: pd.DataFrame) -> pd.DataFrame:
    """Maximal won sets per N and won rounds, from the pieces B_{k,j} by the two symmetries."""
    if not isinstance(pieces, pd.DataFrame):
        raise checks.ArgumentTypeError(
            f"the census pieces must be a DataFrame, got {type(pieces).__name__}")
    missing = {"n_players", "lost_neighbours", "lost_rounds", "sets"} - set(pieces.columns)
    if missing:
        raise ValueError(f"the census pieces lack the columns {sorted(missing)}")
    rows = []
    for n, part in pieces.groupby("n_players", sort=True):
        n = int(n)
        if not set(part.lost_neighbours) <= set(range(n + 1)):
            raise ValueError(f"N = {n}: lost_neighbours outside 0..{n}")
        through = {}  # A_k: sets of size k that lose round 0
        for r in part.itertuples():
            through[int(r.lost_rounds)] = (through.get(int(r.lost_rounds), 0)
                                           + comb(n, int(r.lost_neighbours)) * int(r.sets))
        for k, a in sorted(through.items()):
            total, rest = divmod(2**n * a, k)
            if rest:
                raise ValueError(f"N = {n}: 2**N * {a} sets through round 0 of size {k} is not "
                                 f"a multiple of {k}: the pieces are not a census")
            rows.append({"n_players": n, "won_rounds": 2**n - k, "maximal_sets": total})
    return pd.DataFrame(rows).sort_values(["n_players", "won_rounds"], ignore_index=True)
