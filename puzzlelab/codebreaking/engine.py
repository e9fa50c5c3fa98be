"""The compiled analysis engine: greedy strategies over all codes in memory linear in the codes
(Klimoš 2014, §3.3–3.4).

The same analysis as `analysis.analyze` (same choices, tie rules, lengths and decision tree),
computed without a codes × experiments table when the game's outcomes follow from strings:

- Mastermind, black-peg Mastermind and Bulls and Cows describe codes and guesses as strings
  of colours (`StringRule`); the answer is computed on the fly from the number of pegs in
  place (black) and the number of colours in common (black + white), one pair at a time.
- Other games (the coin game, Bags of Gold, parsed games) keep their explicit table.

At every node of the strategy's decision tree the live codes are one contiguous segment of
an array that is split in place, outcome by outcome (a stable counting sort), so the memory
is a few integers per code. Each experiment is scored by counting its outcomes over the live
codes; a count that already exceeds the best score stops early (`max-models`, `exp-models`,
`ent-models`), and a guess that may hit and splits the live codes into singletons ends the
search at once (no score can beat it).

Symmetry (§3.4): a permutation of pegs and colours that fixes every guess on the path to a
node fixes the set of live codes, so equivalent guesses score alike and only the lowest of
each orbit needs scoring (the tie rule prefers the lowest index). Colours no guess has used
are interchangeable; with pegs this gives the whole group at the first guess (52 classes of
first guesses for 5 pegs and ≥ 5 colours instead of all codes).

Inner loops are compiled with numba (`@njit(cache=True)`).
"""

from __future__ import annotations

import math
import re
import weakref
from dataclasses import dataclass
from itertools import permutations

import numpy as np
import pandas as pd
from numba import njit

from .. import checks
from ..checks import MEMORY_BUDGET, within_budget
from .analysis import Analysis
from .game import check_game

# The public face; the other functions are the compiled pieces that game.py, analysis.py and
# optimal.py call with arguments they have already checked.
__all__ = [
    "BYTES_PER_CODE", "StringRule", "analyze", "check_fits", "choose", "estimated_bytes",
    "string_rule",
]

STRATEGY_CODE = {"max-models": 0, "exp-models": 1, "ent-models": 2, "parts": 3}
TABLE, STRINGS, STRINGS_BY_COLOUR = 0, 1, 2  # how outcomes are computed (see `_outcome`)
MAX_MULTISETS = 2048  # colour multisets up to which colours in common are read from a table
BYTES_PER_CODE = 400  # engine arrays (~100 bytes) and the decision-tree table (~300 bytes) per code


@dataclass(frozen=True)
class StringRule:
    """Codes and guesses are the same strings of colours 1..colors (§2.2); outcome = lut[black,
    white]."""

    strings: np.ndarray  # (codes, pegs) int8, in the game's (lexicographic) order
    colors: int
    lut: np.ndarray  # (pegs + 1, pegs + 1) int16: outcome index of (black, white); -1 impossible


_LABEL = re.compile(r"^(\d+)B(?:(\d+)[WC])?$")


def string_rule(strings: np.ndarray, colors: int, labels: list[str]) -> StringRule:
    """The rule of a game whose outcome labels read 'bBwW' (Mastermind), 'bBcC' (Bulls and Cows)
    or 'bB' (§2.2–2.3)."""
    colors = checks.integer(colors, "colors", low=1)
    if not isinstance(labels, (list, tuple)) or not all(isinstance(x, str) for x in labels):
        raise checks.ArgumentTypeError(f"labels must be a list of outcome labels, got {labels!r}")
    if not isinstance(strings, np.ndarray) or strings.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(f"strings must be an integer array, got {strings!r}")
    if strings.ndim != 2 or strings.shape[1] > 8 or not 1 <= colors <= 127:
        raise ValueError(f"a string rule needs at most 8 pegs and 127 colours, got strings of "
                         f"shape {strings.shape} and {colors} colours")
    return StringRule(np.ascontiguousarray(strings, dtype=np.int8), int(colors),
                      marker_lut(labels, strings.shape[1]))


def marker_lut(labels: list[str], pegs: int) -> np.ndarray:
    """lut[black, white] = the index of the label 'bBwW', 'bBcC' or 'bB' (any white); −1 if none."""
    lut = np.full((pegs + 1, pegs + 1), -1, dtype=np.int16)
    for index, label in enumerate(labels):
        match = _LABEL.match(label)
        if match is None:
            raise ValueError(f"outcome label {label!r} is not of the form 'bBwW', 'bBcC' or 'bB'")
        black, white = int(match.group(1)), match.group(2)
        if white is None:
            lut[black, :] = index  # black markers only: the whites do not matter
        else:
            lut[black, int(white)] = index
    return lut


@dataclass(frozen=True)
class Kernel:
    """The arrays the compiled loops read: a game's outcomes (table or strings), finals and hits."""

    mode: int
    table: np.ndarray  # (experiments, codes) outcome table, or a 1 × 1 dummy
    packed: np.ndarray  # (codes,) uint64: one byte per peg, or a dummy
    pegs: int
    multiset: np.ndarray  # (codes,) int32: index of the code's multiset of colours
    common: np.ndarray  # (multisets, multisets) int8: colours in common (black + white), or
    # (codes, colours) int8: each code's count of every colour (past MAX_MULTISETS multisets)
    lut: np.ndarray
    is_final: np.ndarray
    hit_code: np.ndarray  # per experiment: the code its final outcome singles out, or −1
    first_hit: np.ndarray  # per code: the lowest experiment whose final outcome holds on it, or −1
    hitters: tuple[np.ndarray, np.ndarray]  # per code, experiments hitting it (CSR: starts, list)
    clogc: np.ndarray  # c·ln c for c = 0..codes, as numpy computes it (so scores agree bit for bit)
    strings: np.ndarray
    peg_perms: np.ndarray  # every permutation of the pegs (symmetry), or a 1 × 1 dummy
    colors: int
    n_codes: int
    n_experiments: int
    n_outcomes: int
    ends_on_final: bool


_KERNELS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def estimated_bytes(n_codes: int, pegs: int = 0, colors: int = 0) -> float:
    """Memory the engine needs for a game of `n_codes` string codes (arrays, tree, colour
    counts)."""
    n_codes = checks.integer(n_codes, "n_codes", low=0)
    pegs = checks.integer(pegs, "pegs", low=0, high=8)
    colors = checks.integer(colors, "colors", low=0, high=127)
    multisets = math.comb(pegs + colors - 1, pegs) if pegs and colors else 0
    counts = multisets**2 if multisets <= MAX_MULTISETS else n_codes * colors
    return BYTES_PER_CODE * n_codes + counts + 4 * math.factorial(min(pegs, 8)) * pegs


def check_fits(name: str, n_codes: int, pegs: int, colors: int) -> None:
    """Refuse a string game whose engine arrays would not fit in `checks.MEMORY_BUDGET` (before
    any allocation)."""
    checks.text(name, "name")
    n_codes = checks.integer(n_codes, "n_codes", low=0)
    pegs = checks.integer(pegs, "pegs", low=0, high=8)
    colors = checks.integer(colors, "colors", low=0, high=127)
    per_code = BYTES_PER_CODE + pegs * (colors + 2) + colors + 100  # + codes, strings and names
    largest = (MEMORY_BUDGET - estimated_bytes(0, pegs, colors)) // per_code
    needed = estimated_bytes(n_codes, pegs, colors) + n_codes * (per_code - BYTES_PER_CODE)
    within_budget(f"the analysis of {name}", needed, MEMORY_BUDGET,
                  largest=f"{max(largest, 0):,} codes")


def kernel(game) -> Kernel:
    """The game's kernel arrays, built once per game (from `game.rule` if it has one, else its
    table)."""
    if game not in _KERNELS:
        rule = getattr(game, "rule", None)
        _KERNELS[game] = _string_kernel(game, rule) if rule is not None else _table_kernel(game)
    return _KERNELS[game]


def _clogc(n: int) -> np.ndarray:
    c = np.arange(n + 1, dtype=np.float64)
    return c * np.log(np.where(c > 0, c, 1.0))


def _table_kernel(game) -> Kernel:
    table = game.outcome_table
    finals = game.is_final[table]
    hit_code = np.where(finals.any(axis=1), finals.argmax(axis=1), -1).astype(np.int32)
    first_hit = np.where(finals.any(axis=0), finals.argmax(axis=0), -1).astype(np.int32)
    dummy8, dummy64 = np.zeros((1, 1), np.int8), np.zeros(1, np.uint64)
    return Kernel(TABLE, table, dummy64, 0, np.zeros(1, np.int32), dummy8,
                  np.zeros((1, 1), np.int16),
                  game.is_final.copy(), hit_code, first_hit, _csr(hit_code, game.n_codes),
                  _clogc(game.n_codes), dummy8, dummy8, 0, game.n_codes, game.n_experiments,
                  game.n_outcomes, game.ends_on_final)


def _string_kernel(game, rule: StringRule) -> Kernel:
    strings, pegs = rule.strings, rule.strings.shape[1]
    n = len(strings)
    if game.n_codes != n or game.n_experiments != n:
        raise ValueError(f"{game.name}: the string rule has {n} strings for {game.n_codes} codes")
    check_fits(game.name, n, pegs, rule.colors)
    if pegs > 8:
        raise ValueError(f"{game.name}: the string engine handles at most 8 pegs, got {pegs}")
    packed = (strings.astype(np.uint64) << (8 * np.arange(pegs, dtype=np.uint64))).sum(axis=1)
    counts = np.stack([(strings == c).sum(axis=1) for c in range(1, rule.colors + 1)], axis=1)
    mode, common, multiset = STRINGS_BY_COLOUR, counts.astype(np.int8), np.zeros(n, np.int32)
    if math.comb(pegs + rule.colors - 1, pegs) <= MAX_MULTISETS:
        shapes, multiset = np.unique(counts, axis=0, return_inverse=True)
        mode, common = STRINGS, _common_table(shapes.astype(np.int8))
    codes = np.arange(n, dtype=np.int32)
    final = np.flatnonzero(game.is_final)
    hit_code = codes if len(final) else np.full(n, -1, np.int32)
    perms = np.array(list(permutations(range(pegs))), dtype=np.int8)
    return Kernel(mode, np.zeros((1, 1), np.int8), packed.astype(np.uint64), pegs,
                  multiset.ravel().astype(np.int32), common, rule.lut, game.is_final.copy(),
                  hit_code, hit_code.copy(), _csr(hit_code, n), _clogc(n), rule.strings, perms,
                  rule.colors, n, n, game.n_outcomes, game.ends_on_final)


@njit(cache=True)
def _common_table(shapes):
    """common[a, b] = Σ_c min(shapes[a, c], shapes[b, c]): colours two multisets have in common."""
    m = shapes.shape[0]
    common = np.empty((m, m), np.int8)
    for a in range(m):
        for b in range(m):
            total = 0
            for c in range(shapes.shape[1]):
                total += min(shapes[a, c], shapes[b, c])
            common[a, b] = total
    return common


def _csr(hit_code: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """For each code, the experiments whose final outcome singles it out (ascending), as starts +
    list."""
    j = np.flatnonzero(hit_code >= 0)
    order = np.argsort(hit_code[j], kind="stable")
    starts = np.zeros(n_codes + 1, dtype=np.int32)
    np.add.at(starts, hit_code[j] + 1, 1)
    return np.cumsum(starts).astype(np.int32), j[order].astype(np.int32)


def _args(k: Kernel) -> tuple:
    return (k.mode, k.table, k.packed, k.pegs, k.multiset, k.common, k.lut)


# --- compiled pieces -----------------------------------------------------------------------------
@njit(cache=True)
def _outcome(mode, table, packed, pegs, multiset, common, lut, j, k):
    """Outcome index of experiment j on code k: a table entry, or lut[black, white] from the
    strings."""
    if mode == 0:
        return table[j, k]
    x = packed[j] ^ packed[k]
    # bytes of x that are non-zero get their top bit set (values < 128), then they are added up
    t = ((x & np.uint64(0x7F7F7F7F7F7F7F7F)) + np.uint64(0x7F7F7F7F7F7F7F7F)) | x
    t = (t >> np.uint64(7)) & np.uint64(0x0101010101010101)
    differ = (t * np.uint64(0x0101010101010101)) >> np.uint64(56)
    black = pegs - np.int64(differ)
    if mode == 1:
        return lut[black, common[multiset[j], multiset[k]] - black]
    total = 0
    for c in range(common.shape[1]):
        total += min(common[j, c], common[k, c])
    return lut[black, total - black]


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
def _pairwise(values, n):
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
def _entropy_score(counts, n_out, clogc, scratch):
    """ent-models' score of the part sizes counts[0:n_out]: round(Σ c ln c, 9), as numpy
    computes it."""
    for o in range(n_out):
        scratch[o] = clogc[counts[o]]
    return np.rint(_pairwise(scratch, n_out) * 1e9) / 1e9


@njit(cache=True)
def _count(args, j, live, start, s, counts, touched, strategy, clogc, best):
    """Count experiment j's outcomes over live[start:start+s] into counts.

    Returns (touched outcomes, score), or (−1, inf) as soon as the score must exceed `best`
    (counts are then cleared). The score is exact for max-models, exp-models and parts; for
    ent-models it is a running estimate, and `_score` gives the exact value.
    """
    mode, table, packed, pegs, multiset, common, lut = args
    nt, running, largest, slack = 0, 0.0, 0, 1e-4 + 1e-9 * abs(best)
    for i in range(s):
        o = _outcome(mode, table, packed, pegs, multiset, common, lut, j, live[start + i])
        c = counts[o]
        if c == 0:
            touched[nt] = o
            nt += 1
        counts[o] = c + 1
        if strategy == 0:
            largest = max(largest, c + 1)
            stop = largest > best
        elif strategy == 1:
            running += 2 * c + 1
            stop = running > best
        elif strategy == 2:
            running += clogc[c + 1] - clogc[c]
            stop = running > best + slack
        else:
            stop = False
        if stop:
            for q in range(nt):
                counts[touched[q]] = 0
            return -1, np.inf
    if strategy == 0:
        return nt, float(largest)
    if strategy == 3:
        return nt, float(-nt)
    return nt, running


@njit(cache=True)
def _choose(args, live, start, s, candidates, n_cand, live_mask, hit_code, hitters_start,
            hitters, ends_final, strategy, clogc, n_out, counts, touched, scratch):
    """The experiment the strategy picks at this node (lowest score; then a possible hit; then
    lowest index)."""
    if s <= n_out:  # a guess that may hit and splits the codes into singletons cannot be beaten
        perfect = _first_perfect_hit(args, live, start, s, hitters_start, hitters, counts, touched,
                                     ends_final, clogc)
        if perfect >= 0:
            return perfect
    # the least score s codes can have (all singletons): max 1, Σc² s, Σ c ln c 0, parts −s
    bound = 1.0 if strategy == 0 else (float(s) if strategy == 1 else
                                       (0.0 if strategy == 2 else -s))
    best, first, first_hit = np.inf, -1, -1
    for c in range(n_cand):
        j = candidates[c]
        nt, score = _count(args, j, live, start, s, counts, touched, strategy, clogc, best)
        if nt < 0:
            continue
        if strategy == 2:
            score = _entropy_score(counts, n_out, clogc, scratch)
        for q in range(nt):
            counts[touched[q]] = 0
        hit = hit_code[j] >= 0 and live_mask[hit_code[j]]
        if score < best:
            best, first, first_hit = score, j, (j if hit else -1)
        elif score == best and first_hit < 0 and hit:
            first_hit = j
        if best == bound and (first_hit >= 0 or not ends_final):
            break
    if ends_final and first_hit >= 0:
        return first_hit
    return first


@njit(cache=True)
def _first_perfect_hit(args, live, start, s, hitters_start, hitters, counts, touched, ends_final,
                       clogc):
    """With final outcomes: the lowest experiment that may hit a live code and splits them into
    singletons."""
    if not ends_final:
        return -1
    found = -1
    for i in range(s):
        k = live[start + i]
        for h in range(hitters_start[k], hitters_start[k + 1]):
            j = hitters[h]
            if found >= 0 and j >= found:
                break
            nt, _ = _count(args, j, live, start, s, counts, touched, 0, clogc, 1.0)
            if nt >= 0:
                for q in range(nt):
                    counts[touched[q]] = 0
                found = j
                break
    return found


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
def _candidates(strings, colors, perms, path, npath, s, taus, used, out):
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
def _split(args, j, live, start, s, counts, rowbuf, buffer, offsets):
    """Stable counting sort of live[start:start+s] by the outcome of experiment j (counts
    filled)."""
    mode, table, packed, pegs, multiset, common, lut = args
    for i in range(s):
        o = _outcome(mode, table, packed, pegs, multiset, common, lut, j, live[start + i])
        rowbuf[i] = o
        counts[o] += 1
    total = start
    for o in range(len(counts)):
        offsets[o] = total
        total += counts[o]
    for i in range(s):
        o = rowbuf[i]
        buffer[offsets[o]] = live[start + i]
        offsets[o] += 1
    for i in range(s):
        live[start + i] = buffer[start + i]
    for o in range(len(counts)):
        offsets[o] -= counts[o]


@njit(cache=True)
def _useful(counts, is_final, s):
    """Does an experiment with these part sizes make progress (as `analysis._useful`)?"""
    largest, finals = 0, 0
    for o in range(len(counts)):
        if is_final[o]:
            finals += counts[o]
        else:
            largest = max(largest, counts[o])
    return largest < s or finals > 0


@njit(cache=True)
def _path(nodes, parent, path):
    """The guesses made on the way to a node (its ancestors' experiments); returns how many."""
    npath, q = 0, parent
    while q >= 0 and npath < len(path):
        path[npath], npath, q = nodes[4, q], npath + 1, nodes[0, q]
    return npath


@njit(cache=True)
def _tree(args, strings, colors, perms, use_symmetry, n_exp, is_final, hit_code, first_hit,
          hitters_start, hitters, ends_final, strategy, clogc):
    """The strategy's decision tree, depth first as `analysis._play` builds it (same node
    numbers)."""
    n, n_out = len(first_hit), len(is_final)
    live, buffer = np.arange(n).astype(np.int32), np.empty(n, np.int32)
    live_mask = np.zeros(n, np.bool_)
    lengths, determined = np.zeros(n, np.int64), np.zeros(n, np.int64)
    cap = 2 * n + 2
    nodes = np.full((6, cap), -1, np.int64)  # parent, outcome, depth, codes, experiment, code
    stack = np.empty((cap, 5), np.int64)  # start, size, depth, parent, outcome
    everything, cand = np.arange(n_exp).astype(np.int32), np.empty(n_exp, np.int32)
    counts, touched = np.zeros(n_out, np.int64), np.empty(n_out, np.int64)
    scratch, offsets = np.empty(n_out), np.empty(n_out, np.int64)
    rowbuf = np.empty(n, np.int16)
    path = np.empty(256, np.int32)
    taus, used = np.zeros((perms.shape[0], colors + 1), np.int8), np.zeros(colors + 1, np.bool_)
    stack[0] = (0, n, 0, -1, -1)
    sp, rows = 1, 0
    while sp > 0:
        sp -= 1
        start, s, d, par, out = stack[sp]
        node = rows
        rows += 1
        nodes[0, node], nodes[1, node], nodes[2, node], nodes[3, node] = par, out, d, s
        if s == 1:
            k = live[start]
            nodes[5, node] = k
            lengths[k], determined[k] = d + 1 if ends_final else d, d
            if ends_final:
                nodes[4, node] = first_hit[k]
            continue
        candidates, n_cand = everything, n_exp
        if use_symmetry:
            found = _candidates(strings, colors, perms, path, _path(nodes, par, path), s, taus,
                                used, cand)
            if found >= 0:
                candidates, n_cand = cand, found
        for i in range(s):
            live_mask[live[start + i]] = True
        j = _choose(args, live, start, s, candidates, n_cand, live_mask, hit_code, hitters_start,
                    hitters, ends_final, strategy, clogc, n_out, counts, touched, scratch)
        for i in range(s):
            live_mask[live[start + i]] = False
        nodes[4, node] = j
        _split(args, j, live, start, s, counts, rowbuf, buffer, offsets)
        if not _useful(counts, is_final, s):
            return nodes, rows, lengths, determined, np.sort(live[start : start + s])
        sp, rows = _children(node, d, live, counts, offsets, is_final, nodes, rows, stack, sp,
                             lengths, determined)
    return nodes, rows, lengths, determined, live[:0]


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


# --- the Python face ---------------------------------------------------------------------------
def analyze(game, strategy: str = "max-models", *, symmetry: bool = True) -> Analysis:
    """Play `strategy` against every code (compiled; the same `Analysis` as `analysis.analyze`)."""
    game = check_game(game)
    checks.choice(strategy, "strategy", STRATEGY_CODE)
    k = kernel(game)
    use = checks.boolean(symmetry, "symmetry") and k.mode != TABLE
    nodes, rows, lengths, determined, stuck = _tree(
        _args(k), k.strings, k.colors, k.peg_perms, use, k.n_experiments, k.is_final, k.hit_code,
        k.first_hit, k.hitters[0], k.hitters[1], k.ends_on_final, STRATEGY_CODE[strategy], k.clogc)
    if len(stuck):
        names = ", ".join(game.code_names[int(c)] for c in stuck[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return Analysis(game, strategy, lengths, determined, _tree_frame(game, nodes[:, :rows]))


def choose(game, live: np.ndarray, strategy: str) -> int:
    """The experiment a built-in strategy performs when `live` are the codes still possible
    (compiled; the same choice and the same refusal as `analysis._choose`)."""
    game = check_game(game)
    checks.choice(strategy, "strategy", STRATEGY_CODE)
    k = kernel(game)
    live = np.asarray(live)
    if live.ndim != 1 or live.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(f"live must be a 1-d array of code indices, got {live!r}")
    if len(live) == 0 or live.min() < 0 or live.max() >= k.n_codes:
        raise ValueError(f"live must list codes still possible, indices 0..{k.n_codes - 1}")
    codes = np.ascontiguousarray(live, dtype=np.int32)
    mask = np.zeros(k.n_codes, np.bool_)
    mask[codes] = True
    counts, touched = np.zeros(k.n_outcomes, np.int64), np.empty(k.n_outcomes, np.int64)
    j = int(_choose(_args(k), codes, 0, len(codes), np.arange(k.n_experiments, dtype=np.int32),
                    k.n_experiments, mask, k.hit_code, k.hitters[0], k.hitters[1], k.ends_on_final,
                    STRATEGY_CODE[strategy], k.clogc, k.n_outcomes, counts, touched,
                    np.empty(k.n_outcomes)))
    sizes = np.bincount(outcome_row(game, j, codes), minlength=k.n_outcomes)
    if len(codes) > 1 and not _useful(sizes, k.is_final, len(codes)):
        names = ", ".join(game.code_names[int(c)] for c in codes[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return j


def _tree_frame(game, nodes: np.ndarray) -> pd.DataFrame:
    """The decision tree as `analysis._play` tabulates it (node, parent, outcome, depth, codes,
    experiment, code)."""
    parent, outcome, depth, codes, experiment, code = nodes
    experiments, code_names = _names(game)
    labels = np.array(game.outcome_labels + [""], dtype=object)
    return pd.DataFrame({
        "node": np.arange(nodes.shape[1], dtype=np.int64), "parent": parent,
        "outcome": labels[outcome], "depth": depth, "codes": codes,
        "experiment": experiments[experiment], "code": code_names[code],
    })


_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _names(game) -> tuple[np.ndarray, np.ndarray]:
    """Experiment and code names as object arrays ending in "" (index −1), built once per game."""
    if game not in _NAMES:
        exps = [game.experiment_name(j) for j in range(game.n_experiments)]
        codes = list(game.code_names) + [""]
        _NAMES[game] = (np.array(exps + [""], dtype=object), np.array(codes, dtype=object))
    return _NAMES[game]


def outcome_table(game) -> np.ndarray:
    """The whole experiments × codes outcome table of a string game (refused past the memory
    budget)."""
    k = kernel(game)
    within_budget(f"the outcome table of {game.name}", 2.0 * k.n_experiments * k.n_codes,
                  MEMORY_BUDGET, largest="about 60,000 codes")
    return _table_of(_args(k), k.n_experiments, k.n_codes)


@njit(cache=True)
def _table_of(args, n_exp, n_codes):
    mode, table, packed, pegs, multiset, common, lut = args
    out = np.empty((n_exp, n_codes), np.int16)
    for j in range(n_exp):
        for k in range(n_codes):
            out[j, k] = _outcome(mode, table, packed, pegs, multiset, common, lut, j, k)
    return out


def outcome_row(game, j: int, live: np.ndarray) -> np.ndarray:
    """Outcomes of experiment j on the codes `live` (compiled, no table needed)."""
    k = kernel(game)
    return _row(_args(k), int(j), np.ascontiguousarray(live, dtype=np.int32))


@njit(cache=True)
def _row(args, j, live):
    mode, table, packed, pegs, multiset, common, lut = args
    out = np.empty(len(live), np.int16)
    for i in range(len(live)):
        out[i] = _outcome(mode, table, packed, pegs, multiset, common, lut, j, live[i])
    return out


def partition_sizes(game, live: np.ndarray, experiments: np.ndarray | None = None) -> np.ndarray:
    """counts[j, o] = #live codes on which experiment j has outcome o (as `Game.partition_sizes`,
    compiled)."""
    k = kernel(game)
    exps = np.arange(k.n_experiments, dtype=np.int32) if experiments is None else experiments
    return _sizes(_args(k), np.ascontiguousarray(exps, dtype=np.int32),
                  np.ascontiguousarray(live, dtype=np.int32), k.n_outcomes)


@njit(cache=True)
def _sizes(args, experiments, live, n_out):
    mode, table, packed, pegs, multiset, common, lut = args
    counts = np.zeros((len(experiments), n_out), np.int64)
    for r in range(len(experiments)):
        j = experiments[r]
        for i in range(len(live)):
            counts[r, _outcome(mode, table, packed, pegs, multiset, common, lut, j, live[i])] += 1
    return counts


# --- pieces of the optimal search (optimal.Search), compiled ------------------------------------
def parts(game, live: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The codes `live` split by experiment j: (outcomes present, ascending; part sizes; codes by
    part)."""
    k = kernel(game)
    codes = np.ascontiguousarray(live, dtype=np.int32).copy()
    counts = np.zeros(k.n_outcomes, np.int64)
    offsets = np.empty(k.n_outcomes, np.int64)
    _split(_args(k), int(j), codes, 0, len(codes), counts, np.empty(len(codes), np.int16),
           np.empty(len(codes), np.int32), offsets)
    present = np.flatnonzero(counts)
    return present, counts[present], codes.astype(np.intp)


def first_perfect_hit(game, live: np.ndarray) -> int:
    """The lowest experiment that may hit a code of `live` and splits them into singletons, or
    −1."""
    k = kernel(game)
    codes = np.ascontiguousarray(live, dtype=np.int32)
    counts, touched = np.zeros(k.n_outcomes, np.int64), np.empty(k.n_outcomes, np.int64)
    return int(_first_perfect_hit(_args(k), codes, 0, len(codes), k.hitters[0], k.hitters[1],
                                  counts, touched, k.ends_on_final, k.clogc))


def distinct_partitions(game, live: np.ndarray, experiments: np.ndarray) -> np.ndarray:
    """Of `experiments`, the lowest of each class splitting `live` into the same parts (final parts
    kept apart), ascending: one move per class (Definition 28)."""
    k = kernel(game)
    rows = _canonical_rows(_args(k), k.is_final, np.ascontiguousarray(experiments, dtype=np.int32),
                           np.ascontiguousarray(live, dtype=np.int32), k.n_outcomes)
    return np.asarray(experiments)[_first_of_equal(rows)]


@njit(cache=True)
def _canonical_rows(args, is_final, experiments, live, n_out):
    """Each experiment's outcomes on `live`, relabelled by first appearance; final outcomes −1."""
    mode, table, packed, pegs, multiset, common, lut = args
    rows = np.empty((len(experiments), len(live)), np.int16)
    relabel = np.empty(n_out, np.int16)
    for r in range(len(experiments)):
        relabel[:] = -1
        nxt = 0
        for i in range(len(live)):
            o = _outcome(mode, table, packed, pegs, multiset, common, lut, experiments[r], live[i])
            if is_final[o]:
                rows[r, i] = -1
            else:
                if relabel[o] < 0:
                    relabel[o] = nxt
                    nxt += 1
                rows[r, i] = relabel[o]
    return rows


@njit(cache=True)
def _first_of_equal(rows):
    """Indices (ascending) of the first row of each group of equal rows: hashed, then compared
    exactly."""
    m, s = rows.shape
    keys = np.empty(m, np.uint64)
    for r in range(m):
        h = np.uint64(14695981039346656037)
        for i in range(s):
            h = (h ^ np.uint64(rows[r, i] + 1)) * np.uint64(1099511628211)
        keys[r] = h
    order = np.argsort(keys, kind="mergesort")  # stable: equal keys stay in index order
    keep = np.zeros(m, np.bool_)
    reps = np.empty(m, np.int64)
    i = 0
    while i < m:
        e = i + 1
        while e < m and keys[order[e]] == keys[order[i]]:
            e += 1
        nreps = 0
        for t in range(i, e):
            r, new = order[t], True
            for q in range(nreps):
                if (rows[r] == rows[reps[q]]).all():
                    new = False
                    break
            if new:
                reps[nreps] = r
                nreps += 1
                keep[r] = True
        i = e
    return np.flatnonzero(keep)


@njit(cache=True)
def fixing_permutations(code_perms, live, n_codes):
    """Which rows of `code_perms` map the codes `live` into themselves (the set's stabilizer)."""
    mask = np.zeros(n_codes, np.bool_)
    for k in live:
        mask[k] = True
    out = np.ones(code_perms.shape[0], np.bool_)
    for q in range(code_perms.shape[0]):
        for k in live:
            if not mask[code_perms[q, k]]:
                out[q] = False
                break
    return out
