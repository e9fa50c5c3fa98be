"""The strategy's decision tree walked in place, compiled: the live codes of a node are one
segment of three arrays (code, packed code, colour word) split outcome by outcome by a stable
counting sort, so memory stays a few words per code (Klimoš 2014, §3.3).

`subtree` is what the install step also builds ahead of time (`native`); it releases the GIL,
so `compiled.analyze` may play the root's subtrees on a pool of threads.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .engine_arrays import BLOCK
from .outcome_kernels import slots
from .score_kernels import choose_at_node, perfect_hit_at_node
from .symmetry_kernels import canonical_candidates, played_colours, symmetric_candidates

__all__ = ["split", "subtree", "useful"]


@njit(cache=True)
def split(F, outcome_of, j, live, segp, segw, spare, start, s, counts, rowbuf, offsets):
    """Stable counting sort of the live arrays' segment start..start+s by the outcome of
    experiment j (counts filled, offsets at each part's start)."""
    slots(F, j, live, segp, segw, start, start + s, rowbuf)
    for i in range(s):
        o = outcome_of[rowbuf[i]]
        rowbuf[i] = o
        counts[o] += 1
    total = start
    for o in range(len(counts)):
        offsets[o] = total
        total += counts[o]
    spare_live, spare_p, spare_w = spare
    for i in range(s):
        q = offsets[rowbuf[i]]
        spare_live[q], spare_p[q], spare_w[q] = live[start + i], segp[start + i], segw[start + i]
        offsets[rowbuf[i]] = q + 1
    for i in range(start, start + s):
        live[i], segp[i], segw[i] = spare_live[i], spare_p[i], spare_w[i]
    for o in range(len(counts)):
        offsets[o] -= counts[o]


@njit(cache=True)
def useful(counts, is_final, s):
    """Does an experiment with these part sizes make progress (as `analysis._useful`)?"""
    largest, finals = 0, 0
    for o in range(len(counts)):
        if is_final[o]:
            finals += counts[o]
        else:
            largest = max(largest, counts[o])
    return largest < s or finals > 0


@njit(cache=True)
def _path(nodes, parent, prefix, path):
    """The guesses made on the way to a node (its ancestors' experiments, then those above the
    subtree); returns how many."""
    npath, q = 0, parent
    while q >= 0 and npath < len(path):
        path[npath], npath, q = nodes[4, q], npath + 1, nodes[0, q]
    for g in prefix:
        if npath < len(path):
            path[npath], npath = g, npath + 1
    return npath


@njit(cache=True)
def _narrowed(strings, colors, perms, absent_rule, masks, live, start, s, npath, path, taus, used,
              everything, cand):
    """The candidates worth scoring at a node below the guesses path[:npath], and how many: the
    orbit leaders under its symmetries, then of those the ones written canonically (absent and
    free colours); `everything` when neither pays. Written into `cand`."""
    candidates, n_cand = everything, len(everything)
    found = symmetric_candidates(strings, colors, perms, path, npath, s, taus, used, cand)
    if found >= 0:
        candidates, n_cand = cand, found
    if absent_rule:
        kept = canonical_candidates(strings, masks, colors, absent_rule, live, start, s,
                                    played_colours(masks, path, npath), candidates, n_cand, cand)
        if kept >= 0:
            candidates, n_cand = cand, kept
    return candidates, n_cand


@njit(cache=True, inline="always")
def _leaf(nodes, node, k, d, ends_final, first_hit, lengths, determined):
    """Node `node` at depth d holds the one code k: its lengths, and its guess if it must be hit."""
    nodes[5, node] = k
    lengths[k], determined[k] = d + 1 if ends_final else d, d
    if ends_final:
        nodes[4, node] = first_hit[k]


@njit(cache=True, inline="always")
def _mark(live_mask, live, start, s, value):
    """live_mask[c] = value for the codes c of the segment start..start+s."""
    for i in range(start, start + s):
        live_mask[live[i]] = value


@njit(cache=True, nogil=True)
def subtree(F, strings, colors, perms, symmetry, absent_rule, masks, n_exp, is_final, hit_code,
            first_hit, hitters_start, hitters, ends_final, strategy, clogc, slot_of, outcome_of,
            live, segp, segw, spare, root, prefix, first, only_root, lengths, determined):
    """The strategy's decision tree below the node root = (start, codes, depth, parent, outcome),
    depth first as `analysis._play` builds it, numbered from 0, after the guesses `prefix`.

    `first` ≥ 0 is the root's experiment; `only_root` stops after the root and returns its
    children still to play. Returns the nodes, their count, the codes no experiment tells
    apart (if any) and the children left (start, codes, depth, parent, outcome).
    """
    n_codes, n_out, size = len(first_hit), len(is_final), root[1]
    live_mask = np.zeros(n_codes, np.bool_)
    cap = 2 * size + 2
    nodes = np.full((6, cap), -1, np.int64)  # parent, outcome, depth, codes, experiment, code
    stack = np.empty((cap, 5), np.int64)  # start, size, depth, parent, outcome
    everything, cand = np.arange(n_exp).astype(np.int32), np.empty(n_exp, np.int32)
    counts, parts = np.zeros(len(outcome_of), np.int64), np.zeros(n_out, np.int64)
    offsets, buf = np.empty(n_out, np.int64), np.empty(max(BLOCK, size), np.int64)
    work = (counts, buf, np.empty(n_out), np.empty((2, 64), np.uint64),
            np.empty((6, 64), np.uint64), np.zeros(n_out, np.int64))
    path = np.empty(256, np.int32)
    taus, used = np.zeros((perms.shape[0], colors + 1), np.int8), np.zeros(colors + 1, np.bool_)
    stack[0] = root
    sp, rows = 1, 0
    while sp > 0:
        sp -= 1
        start, s, d, par, out = stack[sp]
        node = rows
        rows += 1
        nodes[0, node], nodes[1, node], nodes[2, node], nodes[3, node] = par, out, d, s
        if s == 1:
            _leaf(nodes, node, live[start], d, ends_final, first_hit, lengths, determined)
            continue
        if node == 0 and first >= 0:
            j = first
        else:
            j = -1
            if s <= n_out:  # a guess that may hit and splits the codes into singletons wins
                j = perfect_hit_at_node(F, live, segp, segw, start, s, hitters_start, hitters,
                                        ends_final, clogc, slot_of, work[0], work[1], work[2])
            if j < 0:
                candidates, n_cand = everything, n_exp
                if symmetry:
                    candidates, n_cand = _narrowed(strings, colors, perms, absent_rule, masks,
                                                   live, start, s, _path(nodes, par, prefix, path),
                                                   path, taus, used, everything, cand)
                _mark(live_mask, live, start, s, True)
                j = choose_at_node(F, live, segp, segw, start, s, candidates, n_cand, live_mask,
                                   hit_code, hitters_start, hitters, ends_final, strategy, clogc,
                                   slot_of, work, False)
                _mark(live_mask, live, start, s, False)
        nodes[4, node] = j
        split(F, outcome_of, j, live, segp, segw, spare, start, s, parts, buf, offsets)
        if not useful(parts, is_final, s):
            return nodes, rows, np.sort(live[start : start + s]), stack[:0]
        sp, rows = _children(node, d, live, parts, offsets, is_final, nodes, rows, stack, sp,
                             lengths, determined)
        if only_root:
            break
    return nodes, rows, live[:0], stack[:sp].copy()


@njit(cache=True)
def _children(node, d, live, counts, offsets, is_final, nodes, rows, stack, sp, lengths,
              determined):
    """A node's parts, highest outcome first: a final part is a leaf at once (the code is hit),
    the others go on the stack (so they are expanded lowest outcome first); counts cleared."""
    for o in range(len(counts) - 1, -1, -1):
        c = counts[o]
        if c == 0:
            continue
        if is_final[o]:
            for i in range(offsets[o], offsets[o] + c):
                lengths[live[i]], determined[live[i]] = d + 1, d + 1
            nodes[0, rows], nodes[1, rows], nodes[2, rows], nodes[3, rows] = node, o, d + 1, 1
            nodes[5, rows] = live[offsets[o]]
            rows += 1
        else:
            stack[sp] = (offsets[o], c, d + 1, node, o)
            sp += 1
        counts[o] = 0
    return sp, rows

