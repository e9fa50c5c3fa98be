"""Scores and the choice at one node of the decision tree, compiled (Klimoš 2014, §3.3).

An experiment is scored by counting its slots over the live codes, a block at a time, and is
dropped as soon as its score must exceed the best so far, or equal it without winning the tie
(one loop in `_scan`, no call with arrays per candidate: numba counts references on each array
passed to a call); up to `engine_arrays.SMALL_NODE` live
codes (and for `parts` at any size) 64 experiments are scored at once in bit-sliced counters.
Entropy sums follow numpy's pairwise order, so that scores agree bit for bit with
`analysis.analyze`. Kernels over the arrays of `engine_arrays.Kernel`; `compiled` checks every
argument first.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from .engine_arrays import BLOCK, BY_WORD, SMALL_NODE
from .float32_ranks import mikemag_rank, single_logs
from .outcome_kernels import outcome_bit, popcount, slots, word_slot

__all__ = ["choose_at_node", "entropy_score", "pairwise_sum", "perfect_hit_at_node"]


@njit(cache=True)
def _block_sum(values, start, n):
    """Σ of at most 128 values in numpy's order (8 accumulators, then the tail)."""
    if n < 8:
        res = -0.0
        for i in range(n):
            res += values[start + i]
        return res
    r = np.empty(8)
    for q in range(8):
        r[q] = values[start + q]
    i = 8
    while i + 8 <= n:
        for q in range(8):
            r[q] += values[start + i + q]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += values[start + i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(values, n):
    """Σ values[:n] in numpy's pairwise order: halves (rounded down to 8) until blocks of ≤ 128.

    numpy recurses; this walks the same tree with an explicit stack (cached numba code must
    not recurse).
    """
    if n <= 128:
        return _block_sum(values, 0, n)
    # start, size, state (0 = split or sum, 1 = add the top two)
    todo = np.empty((192, 3), np.int64)
    sums = np.empty(64)
    todo[0] = (0, n, 0)
    top, depth = 1, 0
    while top > 0:
        top -= 1
        start, size, state = todo[top]
        if state == 1:
            depth -= 1
            sums[depth - 1] = sums[depth - 1] + sums[depth]
        elif size <= 128:
            sums[depth] = _block_sum(values, start, size)
            depth += 1
        else:
            half = size // 2
            half -= half % 8
            todo[top] = (start, size, 1)
            todo[top + 1] = (start + half, size - half, 0)
            todo[top + 2] = (start, half, 0)
            top += 3
    return sums[0]


@njit(cache=True)
def entropy_score(counts, n_out, clogc, scratch):
    """ent-models' score of the part sizes counts[0:n_out]: round(Σ c ln c, 9), as numpy
    computes it."""
    for o in range(n_out):
        scratch[o] = clogc[counts[o]]
    return np.rint(pairwise_sum(scratch, n_out) * 1e9) / 1e9


@njit(cache=True)
def _hopeless(total, squares, s, strategy, best):
    """Must the score of part sizes with Σ c ln c = total and Σ c² = squares exceed `best`?
    (entropy and mikemag's ranks, with a margin far above the rounding of numpy's pairwise sum
    and of mikemag's single-precision sums: relative 3·10⁻⁶ over at most 45 terms)."""
    if strategy == 2:
        return total > best + 1e-4 + 1e-9 * abs(best)
    if strategy == 4:  # score = round(10⁶ Σ c²/s) − 2³², or −1 past 2³²; it grows with the sum
        least = math.floor((squares / s * (1 - 1e-5) - 1e-3) * 1e6)
        return (-1.0 if least >= 4294967296 else float(least - 4294967296)) > best
    if strategy == 5:  # score = −10⁹ × the entropy ln s − total / s, to within 10⁻⁵
        return -(math.log(s) - total / s) * 1e9 > best + 1e5
    return False


@njit(cache=True)
def _entropy_of(counts, slot_of, clogc, scratch):
    """ent-models' score of the tallied part sizes, in outcome order (as `entropy_score`)."""
    for o in range(len(slot_of)):
        scratch[o] = clogc[counts[slot_of[o]]]
    return np.rint(pairwise_sum(scratch, len(slot_of)) * 1e9) / 1e9


@njit(cache=True)
def _beaten(counts, slot_of, strategy, lim, left, s, clogc, logs):
    """Must the final score exceed `lim` whatever the `left` codes still to count do? (entropy:
    exceed it by more than rounding can hide; single-precision entropy is never cut short)."""
    if strategy == 2:  # c ln c only grows with c
        total = 0.0
        for o in range(len(slot_of)):
            total += clogc[counts[slot_of[o]]]
        return total > lim + 1e-4 + 1e-9 * abs(lim)
    if strategy == 3:  # each code left can open one more part at most
        parts = 0
        for o in range(len(slot_of)):
            parts += counts[slot_of[o]] > 0
        return -(parts + min(left, len(slot_of) - parts)) > lim
    if strategy == 4:  # the single-precision sum only grows with the counts
        return -float(mikemag_rank(counts, slot_of, s, 4, logs)) > lim
    return False


@njit(cache=True)
def _scan(F, live, segp, segw, start, s, candidates, c0, c1, live_mask, hit_code, ends_final,
          strategy, perfect, clogc, slot_of, logs, counts, buf, scratch):
    """The least (score, not a possible hit, index) over candidates[c0:c1], as (score, misses,
    experiment); with `perfect`, the first that splits the live codes into singletons wins."""
    how, table, packed, words, common, whites, white_count, outcome_at = F
    bound = (1.0, float(s), 0.0, float(-s), -np.inf, -np.inf)[strategy]
    best, best_miss, best_j, end = np.inf, 2, -1, start + s
    for c in range(c0, c1):
        j = candidates[c]
        miss = 0 if ends_final and hit_code[j] >= 0 and live_mask[hit_code[j]] else 1
        lim = best - 1.0 if strategy != 2 and miss >= best_miss else best  # ties: hits first
        running, beaten, lo = 0, False, start
        while lo < end and not beaten:
            hi = min(lo + BLOCK, end)
            if how == BY_WORD:
                guess, guess_colours = packed[j], words[j]
                for i in range(lo, hi):
                    buf[i - lo] = word_slot(guess, guess_colours, segp[i], segw[i], whites)
            else:
                slots(F, j, live, segp, segw, lo, hi, buf)
            if strategy == 0:
                for i in range(hi - lo):
                    t = counts[buf[i]] + 1
                    counts[buf[i]] = t
                    if t > lim:
                        beaten = True
                        break
            elif strategy == 1:
                for i in range(hi - lo):
                    t = counts[buf[i]]
                    counts[buf[i]] = t + 1
                    running += 2 * t + 1
                beaten = running > lim
            else:
                for i in range(hi - lo):
                    counts[buf[i]] += 1
                beaten = hi < end and _beaten(counts, slot_of, strategy, lim, end - hi, s, clogc,
                                              logs)
            lo = hi
        largest, squares, parts, total = 0, 0, 0, 0.0
        for o in range(len(slot_of)):
            t = counts[slot_of[o]]
            largest, squares, parts = max(largest, t), squares + t * t, parts + (t > 0)
            total += clogc[t]
        beaten = beaten or _hopeless(total, squares, s, strategy, best)
        if not beaten and strategy == 2:
            score = _entropy_of(counts, slot_of, clogc, scratch)
        elif not beaten and strategy >= 4:
            score = -float(mikemag_rank(counts, slot_of, s, strategy, logs))
        else:
            score = (float(largest), float(squares), 0.0, float(-parts))[strategy % 4]
        for o in range(len(slot_of)):
            counts[slot_of[o]] = 0
        if not beaten and perfect and largest == 1:
            return score, miss, j
        if not beaten and (score < best or (score == best and miss < best_miss)):
            best, best_miss, best_j = score, miss, j
            if best == bound and (best_miss == 0 or not ends_final):
                break
    return best, best_miss, best_j


@njit(cache=True, inline="always")
def _count_lanes(lanes, counters, segp, segw, start, s, whites, strategy):
    """Each live code's outcome bit, for the candidate of every lane, added to the six bit-sliced
    counters (most parts: only ORed into the first); the loop the compiler vectorises."""
    width = lanes.shape[1]
    counters[:] = 0
    if strategy == 3:  # most parts needs only which outcomes occur, whatever the codes
        for i in range(start, start + s):
            code, code_colours = segp[i], segw[i]
            for b in range(width):
                counters[0, b] |= outcome_bit(lanes[0, b], lanes[1, b], code, code_colours,
                                              whites)
    else:
        for i in range(start, start + s):
            code, code_colours = segp[i], segw[i]
            for b in range(width):  # add one to this code's outcome counter, in binary
                carry = outcome_bit(lanes[0, b], lanes[1, b], code, code_colours, whites)
                for level in range(5):
                    x = counters[level, b]
                    counters[level, b] = x ^ carry
                    carry &= x
                counters[5, b] ^= carry


@njit(cache=True)
def _scan_small(F, live, segp, segw, start, s, candidates, n_cand, live_mask, hit_code,
                ends_final, strategy, perfect, clogc, logs, lanes, counters, sizes, scratch):
    """`_scan` for packed colour words and at most 7 pegs, 64 candidates at a time, the scores
    read off the bit-sliced counters of `_count_lanes` (at most 63 codes; any for most parts)."""
    packed, words, whites, outcome_at = F[2], F[3], F[5], F[7]
    width, n_out, identity = lanes.shape[1], len(sizes), np.arange(len(sizes))
    best, best_miss, best_j = np.inf, 2, -1
    for first in range(0, n_cand, width):
        m = min(width, n_cand - first)
        for b in range(width):
            j = candidates[first + min(b, m - 1)]
            lanes[0, b], lanes[1, b] = packed[j], words[j]
        _count_lanes(lanes, counters, segp, segw, start, s, whites, strategy)
        for b in range(m):
            j = candidates[first + b]
            used, largest = np.uint64(0), 0
            for level in range(6):
                used |= counters[level, b]
            top = used
            for level in range(5, -1, -1):  # the largest count: its bits from the top level down
                if top & counters[level, b]:
                    top &= counters[level, b]
                    largest += 1 << level
            squares = 0
            if strategy == 1 or strategy == 4:  # Σ c² = Σ over pairs of bit levels
                for k in range(6):
                    squares += popcount(counters[k, b]) << (2 * k)
                    for q in range(k + 1, 6):
                        squares += popcount(counters[k, b] & counters[q, b]) << (k + q + 1)
            if strategy == 0 or strategy == 1 or strategy == 3:
                score = (float(largest), float(squares), 0.0, float(-popcount(used)))[strategy]
            else:
                if strategy == 4 and _hopeless(0.0, squares, s, 4, best):
                    continue
                sizes[:] = 0
                total = 0.0
                while used:  # each outcome's count, read off its bit in the six levels
                    bit = used & (~used + np.uint64(1))
                    t = 0
                    for k in range(6):
                        t += (counters[k, b] & bit != 0) << k
                    sizes[outcome_at[popcount(bit - np.uint64(1))]] = t
                    total += clogc[t]
                    used ^= bit
                if _hopeless(total, squares, s, strategy, best):
                    continue
                if strategy == 2:
                    score = entropy_score(sizes, n_out, clogc, scratch)
                else:
                    score = -float(mikemag_rank(sizes, identity, s, strategy, logs))
            miss = 0 if ends_final and hit_code[j] >= 0 and live_mask[hit_code[j]] else 1
            if perfect and (largest == 1 if strategy != 3 else score == -s):
                return score, miss, j
            if score < best or (score == best and miss < best_miss):
                best, best_miss, best_j = score, miss, j
    return best, best_miss, best_j


@njit(cache=True)
def choose_at_node(F, live, segp, segw, start, s, candidates, n_cand, live_mask, hit_code,
                   hitters_start, hitters, ends_final, strategy, clogc, slot_of, work, hits=True):
    """The experiment the strategy picks at this node (lowest score; then a possible hit; then
    lowest index); `hits=False` when no guess that may hit splits the codes into singletons."""
    counts, buf, scratch, lanes, counters, sizes = work
    small = s <= len(slot_of)  # few enough codes for a guess to split them into singletons
    logs = single_logs(s, strategy)
    if small and hits:  # one that may hit wins
        j = perfect_hit_at_node(F, live, segp, segw, start, s, hitters_start, hitters,
                                ends_final, clogc, slot_of, counts, buf, scratch)
        if j >= 0:
            return j
    if len(F[7]) and (s <= SMALL_NODE or strategy == 3):
        return _scan_small(F, live, segp, segw, start, s, candidates, n_cand, live_mask,
                           hit_code, ends_final, strategy, small, clogc, logs, lanes, counters,
                           sizes, scratch)[2]
    return _scan(F, live, segp, segw, start, s, candidates, 0, n_cand, live_mask, hit_code,
                 ends_final, strategy, small, clogc, slot_of, logs, counts, buf, scratch)[2]


@njit(cache=True)
def perfect_hit_at_node(F, live, segp, segw, start, s, hitters_start, hitters, ends_final,
                        clogc, slot_of, counts, buf, scratch):
    """With final outcomes: the lowest experiment that may hit a live code and splits them into
    singletons, or −1."""
    if not ends_final:
        return -1
    hits = _hitters_of(live, start, s, hitters_start, hitters)
    found = _scan(F, live, segp, segw, start, s, hits, 0, len(hits), np.zeros(0, np.bool_),
                  hits, False, 0, True, clogc, slot_of, np.zeros(0, np.float32), counts, buf,
                  scratch)
    return found[2] if found[0] == 1.0 else -1


@njit(cache=True)
def _hitters_of(live, start, s, hitters_start, hitters):
    """The experiments that may hit one of the live codes, ascending."""
    total = 0
    for i in range(start, start + s):
        total += hitters_start[live[i] + 1] - hitters_start[live[i]]
    out, n = np.empty(total, np.int32), 0
    for i in range(start, start + s):
        for h in range(hitters_start[live[i]], hitters_start[live[i] + 1]):
            out[n] = hitters[h]
            n += 1
    return np.unique(out)

