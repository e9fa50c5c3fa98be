"""Fewer candidates, the same choice: symmetry and absent or free colours (Klimoš 2014, §3.4;
Ville 2013, §5.4), compiled.

A permutation of pegs and colours that fixes every guess on the path to a node fixes its live
codes, so only the lowest guess of each orbit needs scoring; colours no live code holds, or no
guess has used, may be renamed among themselves, so only guesses written canonically need
scoring. Kernels over the arrays of `engine_arrays.Kernel`; `compiled` checks every argument.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .outcome_kernels import popcount

__all__ = ["canonical_candidates", "played_colours", "symmetric_candidates"]


@njit(cache=True)
def _symmetries(strings, colors, path, npath, perms, taus, used):
    """Peg permutations that, with a forced renaming of the used colours, fix every guess on the
    path.

    Fills taus[q] (the colour map of permutation q; 0 = a free colour) and used[c]; returns the
    indices of the valid permutations.
    """
    used[:] = False
    for g in range(npath):
        for p in range(strings.shape[1]):
            used[strings[path[g], p]] = True
    valid = np.empty(perms.shape[0], np.int32)
    inverse = np.zeros(colors + 1, np.int8)
    nvalid = 0
    for q in range(perms.shape[0]):
        taus[q, :] = 0
        inverse[:] = 0
        ok = True
        for g in range(npath):
            row = strings[path[g]]
            for i in range(strings.shape[1]):
                a, b = row[perms[q, i]], row[i]
                if taus[q, a] == 0 and inverse[b] == 0:
                    taus[q, a], inverse[b] = b, a
                elif taus[q, a] != b:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            valid[nvalid] = q
            nvalid += 1
    return valid[:nvalid]


@njit(cache=True)
def _leaders(strings, colors, perms, taus, used, valid, out):
    """The experiments lowest in their orbit (lexicographic = index order) under the valid
    symmetries combined with every renaming of the free colours; writes them to `out`, returns
    how many."""
    free = np.empty(colors, np.int8)
    nfree = 0
    for c in range(1, colors + 1):
        if not used[c]:
            free[nfree] = c
            nfree += 1
    fmap = np.zeros(colors + 1, np.int8)
    pegs, count = strings.shape[1], 0
    for x in range(strings.shape[0]):
        leader = True
        for q in valid:
            fmap[:] = 0
            nxt = 0
            for i in range(pegs):
                c = strings[x, perms[q, i]]
                if used[c]:
                    y = taus[q, c]
                else:
                    if fmap[c] == 0:
                        fmap[c] = free[nxt]
                        nxt += 1
                    y = fmap[c]
                if y != strings[x, i]:
                    leader = y > strings[x, i]
                    break
            if not leader:
                break
        if leader:
            out[count] = x
            count += 1
    return count


@njit(cache=True)
def symmetric_candidates(strings, colors, perms, path, npath, s, taus, used, out):
    """Orbit leaders at a node whose live codes are fixed by the symmetries of its path, or −1 when
    the symmetry would not pay (few live codes, or no symmetry left)."""
    valid = _symmetries(strings, colors, path, npath, perms, taus, used)
    nfree = 0
    for c in range(1, colors + 1):
        if not used[c]:
            nfree += 1
    if (len(valid) <= 1 and nfree < 2) or s < 8 * len(valid) + 16:
        return -1
    return _leaders(strings, colors, perms, taus, used, valid, out)


@njit(cache=True)
def canonical_candidates(strings, masks, colors, rule, live, start, s, played, candidates, n_cand,
                         out):
    """Of candidates[:n_cand], those written canonically (see the module docstring): absent
    colours (held by no live code) are the least one (rule 1), or the least ones in order (rule
    2: distinct symbols); free colours (held by live codes, in no guess so far) are the least
    ones, in order of first use. Writes them to `out`, returns how many, or −1 if no two colours
    are absent and no two free."""
    present = np.uint64(0)
    for i in range(start, start + s):
        present |= masks[live[i]]
    everyone = ((np.uint64(1) << np.uint64(colors + 1)) - np.uint64(1)) & ~np.uint64(1)
    absent, free = everyone & ~present, everyone & present & ~played
    two_absent = popcount(absent) >= 2
    two_free = popcount(free) >= 2
    if not two_absent and not two_free:
        return -1
    others = absent & (absent - np.uint64(1))  # all but the least absent colour
    count = 0
    for c in range(n_cand):
        x = candidates[c]
        if two_absent and not ((masks[x] & others) == 0 if rule == 1 else
                               _in_order(strings[x], absent)):
            continue
        if two_free and not _in_order(strings[x], free):
            continue
        out[count] = x
        count += 1
    return count


@njit(cache=True)
def _in_order(row, colours):
    """Do the colours of the set `colours` (a bit mask) that `row` holds come first in it in
    increasing order, and are they the least of the set?"""
    left = colours
    for p in range(len(row)):
        bit = np.uint64(1) << np.uint64(row[p])
        if left & bit:
            if bit != left & (~left + np.uint64(1)):  # not the least colour still unseen
                return False
            left ^= bit
    return True


@njit(cache=True)
def played_colours(masks, path, npath):
    """The colours of the guesses on the path (a bit mask)."""
    played = np.uint64(0)
    for g in range(npath):
        played |= masks[path[g]]
    return played

