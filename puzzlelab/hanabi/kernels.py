"""Compiled pieces shared by the compiled strategies (numba): bits, card counting, sure groups.

Masks are 25-bit sets of card identities (bit 5 * colour + value - 1), hands rows of masks.
`sure_partition` is `solvers.max_hint_partition` written again over bit masks: the same
dynamic programme over the subsets of hints, the same ties, the same placement of the hints
no sure set uses (tests/test_hanabi_hat_strategies.py checks it against the solvers).
These are kernels over arrays that `hat_compiled` and `info_compiled` build themselves; their
public functions (`play_deals`, `compiled_moves`) check every argument before any kernel runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hat_strategies import COPIES_OF
from .rules import CARDS

__all__ = ["count_out", "low_bit", "popcount", "single_card", "sure_partition"]

_COPIES = np.array(COPIES_OF, dtype=np.int64)


@njit(cache=True)
def single_card(m: int) -> int:
    """The card of a one-card mask, -1 for any other mask."""
    if m == 0 or m & (m - 1):
        return -1
    c = 0
    while m > 1:
        m >>= 1
        c += 1
    return c


@njit(cache=True)
def popcount(m: int) -> int:
    """The number of bits set."""
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def low_bit(m: int) -> int:
    """The index of the lowest bit set (m > 0)."""
    b = 0
    while not (m >> b) & 1:
        b += 1
    return b


@njit(cache=True)
def count_out(masks: np.ndarray, lens: np.ndarray, seen: np.ndarray) -> None:
    """Card counting in place (as `hat_strategies._count_out`), over masks[p, :lens[p]]: an
    identity whose copies are all seen (`seen`) or known in some slot is struck from the others."""
    while True:
        observed = seen.copy()
        for p in range(masks.shape[0]):
            for s in range(lens[p]):
                c = single_card(masks[p, s])
                if c >= 0:
                    observed[c] += 1
        gone = 0
        for c in range(CARDS):
            if observed[c] >= _COPIES[c]:
                gone |= 1 << c
        changed = False
        for p in range(masks.shape[0]):
            for s in range(lens[p]):
                m = masks[p, s]
                if m & (m - 1) and m & gone:
                    masks[p, s] = m & ~gone
                    changed = True
        if not changed:
            return


@njit(cache=True)
def _sort_by_low_bit(parts: np.ndarray, k: int) -> None:
    """Sort parts[:k] by their lowest bit, in place (insertion sort: stable, k <= 10)."""
    for i in range(1, k):
        x = parts[i]
        j = i - 1
        while j >= 0 and (parts[j] & -parts[j]) > (x & -x):
            parts[j + 1] = parts[j]
            j -= 1
        parts[j + 1] = x


def _has_bit(n_hints: int) -> np.ndarray:
    """For each hint b, the subsets of hints containing b, as 64-subset words (bit j of word w:
    subset 64 w + j)."""
    words = max(1, (1 << n_hints) // 64)
    has = np.zeros((n_hints, words), dtype=np.uint64)
    for b in range(n_hints):
        for subset in range(1 << n_hints):
            if subset >> b & 1:
                has[b, subset // 64] |= np.uint64(1 << (subset % 64))
    return has


_HAS10, _HAS5 = _has_bit(10), _has_bit(5)


@njit(cache=True)
def sure_partition(row: np.ndarray, length: int, kind: int, out: np.ndarray) -> int:
    """A maximum partition of the hints into sure groups, as `solvers.max_hint_partition`.

    kind 0: the ten hints (colours and values mixed); 1: the colours; 2: the values. Writes
    each hint's group into out[:H] and returns the number of groups. The sure subsets are
    found 64 at a time: a card certifies the subsets that meet every identity it may have.
    """
    n_hints = 10 if kind == 0 else 5
    full = (1 << n_hints) - 1
    has = _HAS10 if kind == 0 else _HAS5
    words = has.shape[1]
    sure_words = np.zeros(words, dtype=np.uint64)
    certified = np.empty(words, dtype=np.uint64)
    for s in range(length):
        certified[:] = ~np.uint64(0)
        for c in range(CARDS):
            if (row[s] >> c) & 1:
                colour, value = c // 5, c % 5
                for w in range(words):
                    if kind == 0:
                        certified[w] &= has[colour, w] | has[5 + value, w]
                    elif kind == 1:
                        certified[w] &= has[colour, w]
                    else:
                        certified[w] &= has[value, w]
        for w in range(words):
            sure_words[w] |= certified[w]
    # a sure subset is minimal unless dropping one of its hints leaves a sure subset
    not_minimal = np.zeros(words, dtype=np.uint64)
    for b in range(n_hints):
        if b < 6:
            shifted = np.uint64(1 << b)
            for w in range(words):
                not_minimal[w] |= (sure_words[w] << shifted) & has[b, w]
        else:
            step = 1 << (b - 6)
            for w in range(words):
                if (w >> (b - 6)) & 1:
                    not_minimal[w] |= sure_words[w - step]
    # the minimal sure subsets, bucketed by their lowest hint (ascending within a bucket)
    bucket = np.empty((n_hints, full + 1), dtype=np.int64)
    n_bucket = np.zeros(n_hints, dtype=np.int64)
    for w in range(words):
        minimal = sure_words[w] & ~not_minimal[w]
        if kind != 0:
            minimal &= np.uint64(0xFFFFFFFF)  # 32 subsets of five hints
        while minimal:
            j = low_bit(minimal)
            minimal &= minimal - np.uint64(1)
            subset = 64 * w + j
            low = low_bit(subset)
            bucket[low, n_bucket[low]] = subset
            n_bucket[low] += 1
    best = np.empty(full + 1, dtype=np.int64)
    choice = np.empty(full + 1, dtype=np.int64)
    best[0], choice[0] = 0, 0
    for mask in range(1, full + 1):
        low = mask & -mask
        best[mask], choice[mask] = best[mask ^ low], 0
        b = low_bit(mask)
        for i in range(n_bucket[b]):
            s = bucket[b, i]
            if s & mask == s and 1 + best[mask ^ s] > best[mask]:
                best[mask], choice[mask] = 1 + best[mask ^ s], s
    parts = np.empty(n_hints, dtype=np.int64)
    k, mask, used = 0, full, 0
    while mask:
        s = choice[mask] if choice[mask] else mask & -mask
        if choice[mask]:
            parts[k] = s
            k += 1
            used |= s
        mask ^= s
    _sort_by_low_bit(parts, k)
    for b in range(n_hints):
        if not (used >> b) & 1:
            smallest = 0
            for i in range(1, k):
                if popcount(parts[i]) < popcount(parts[smallest]):
                    smallest = i
            parts[smallest] |= 1 << b
    _sort_by_low_bit(parts, k)
    for i in range(k):
        for b in range(n_hints):
            if (parts[i] >> b) & 1:
                out[b] = i
    return k
