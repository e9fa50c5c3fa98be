"""The compiled analysis engine: greedy strategies over all codes in memory linear in the codes
(Klimoš 2014, §3.3–3.4).

The same analysis as `analysis.analyze` (same choices, tie rules, lengths and decision tree),
computed without a codes × experiments table when the game's outcomes follow from strings:

- Mastermind, black-peg Mastermind and Bulls and Cows describe codes and guesses as strings
  of colours (`strings.StringRule`). A code is packed into one 64-bit word (a byte per peg) and so
  are its colour counts (a byte per colour, up to 8 colours): the pegs in place (black) and
  the colours in common (black + white) of a guess and a code then take a dozen word
  operations and no table (past 8 colours, a table of colour multisets or a loop over the
  colours). The pair gives an outcome *slot*, colours in common + 16 × pegs that differ.
- Other games (the coin game, Bags of Gold, parsed games) keep their explicit table.

At every node of the strategy's decision tree the live codes are one contiguous segment of
three arrays (code, packed code, colour word) split in place outcome by outcome (a stable
counting sort), so the memory is a few words per code and the inner loop reads them in order.
An experiment is scored by counting its slots over the live codes, a block at a time; it stops
as soon as its score must exceed the best so far, or equal it without winning the tie
(`max-models`, `exp-models`, `parts`; `ent-models` on a margin). Up to 63 live codes (and for
`parts` at any size) 64 experiments are scored at once: each code adds its outcome's bit to
bit-sliced counters, one lane per experiment, a loop the compiler vectorises (`parts` only
ORs the bits). The choice is the least (score, not a possible hit, index) over the candidates,
which does not depend on the order they are scored in. A guess that may hit and splits the
live codes into singletons wins at once; with none, the first guess that splits them so.

Fewer candidates, the same choice (§3.4; Ville 2013, §5.4):

- Symmetry: a permutation of pegs and colours that fixes every guess on the path to a node
  fixes the set of live codes, so equivalent guesses score alike and only the lowest of each
  orbit needs scoring. Colours no guess has used are interchangeable; with pegs this gives the
  whole group at the first guess.
- Absent colours: colours that no live code holds answer alike, so a guess keeps its outcome
  on every live code when they are replaced by the least absent colour (in Bulls and Cows, by
  the least absent colours in increasing order); only guesses so written need scoring.
- Free colours (held by live codes, in no guess so far) may be renamed among themselves, as
  above; only guesses using the least of them, in order of first use, need scoring.

`rules="mikemag"` plays by the rules of Magruder's C++ program (github.com/mikemag/Mastermind,
`algos.hpp`, `solver_cpu_opt.inl`): the same ties (first best in index order, a possible
hit first), but expected size and entropy ranked by its single-precision sums rounded to
integers (`rank`), so totals can be compared like for like with its runs; its preset first
guess is given with `first`.

Inner loops are compiled with numba (`@njit(cache=True)`, deferred by `puzzlelab.jit`: importing
this module does not import numba). The install step (`python -m puzzlelab.codebreaking.warm`)
fills numba's cache and builds the tree walk ahead of time for string games (`native`), which a
one-thread analysis calls without importing numba at all; otherwise a fresh process imports numba
and loads the code from its cache. `analysis.analyze` comes here for a game of at most
`analysis.TABLE_CODES` codes only once this module is loaded, as
`benchmarks/bench_codebreaking_cold.py` measures; the decision tree is tabulated (with
pandas) only when an analysis's `tree` is first read. The whole-tree loop releases the GIL, so
`threads > 1` plays the root's subtrees, largest first, on a pool of threads with numba's code
(the same tree, numbered as one walk).
"""

from __future__ import annotations

import math
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import permutations
from typing import TYPE_CHECKING

import numpy as np

from .. import checks
from ..jit import intrinsic, materialize, njit
from . import native
from .game import Analysis, check_game
from .strings import MAX_MULTISETS, StringRule, check_fits

if TYPE_CHECKING:
    import pandas as pd

# The public face; the other functions are the compiled pieces that analysis.py and exhaustive.py
# call with arguments they have already checked.
__all__ = ["RULES", "analyze", "choose"]

STRATEGY_CODE = {"max-models": 0, "exp-models": 1, "ent-models": 2, "parts": 3}
# mikemag's rules rank expected size and entropy in single precision (codes 4, 5); its Knuth and
# most-parts ranks order the guesses exactly as max-models and parts do
MIKEMAG_CODE = {"max-models": 0, "exp-models": 4, "ent-models": 5, "parts": 3}
RULES = {"puzzlelab": STRATEGY_CODE, "mikemag": MIKEMAG_CODE}
TABLE, STRINGS, STRINGS_BY_COLOUR = 0, 1, 2  # how `_outcome` finds colours in common
BY_TABLE, BY_MULTISET, BY_WORD, BY_LOOP = 0, 1, 2, 3  # how `_slots` does (Kernel.how)
WORD_COLOURS = 8  # colours whose counts fit in one 64-bit word, a byte each
BLOCK = 256  # codes scored between two checks of a score against the best
PARALLEL_CODES = 2000  # fewer codes than this are analysed on one thread whatever `threads` says
SMALL_NODE = 63  # live codes up to which candidates are scored 64 at a time (`_scan_small`)


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
    how: int  # how `_slots` finds an outcome slot (BY_TABLE, BY_MULTISET, BY_WORD, BY_LOOP)
    words: np.ndarray  # (codes,) uint64: colour counts a byte each (BY_WORD), the multiset
    # index (BY_MULTISET), or a dummy
    whites: tuple[int, int]  # masks keeping the colours in common in a slot: in a word, in a count
    slot_of: np.ndarray  # (outcomes,) int64: each outcome's slot
    outcome_of: np.ndarray  # (slots,) int16: each slot's outcome, or −1
    masks: np.ndarray  # (codes,) uint64: bit c set if the code holds colour c (< 64), or a dummy
    absent_rule: int  # 0: no absent-colour reduction, 1: repeats allowed, 2: distinct symbols
    symmetric: bool  # codes = all strings (or all of distinct symbols), lexicographic


_KERNELS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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
    identity = np.arange(game.n_outcomes)
    return Kernel(TABLE, table, dummy64, 0, np.zeros(1, np.int32), dummy8,
                  np.zeros((1, 1), np.int16),
                  game.is_final.copy(), hit_code, first_hit, _csr(hit_code, game.n_codes),
                  _clogc(game.n_codes), dummy8, dummy8, 0, game.n_codes, game.n_experiments,
                  game.n_outcomes, game.ends_on_final, BY_TABLE, dummy64, (0, 0),
                  identity.astype(np.int64), identity.astype(np.int16), dummy64, 0, False)


def _string_kernel(game, rule: StringRule) -> Kernel:
    strings, pegs = rule.strings, rule.strings.shape[1]
    n = len(strings)
    if game.n_codes != n or game.n_experiments != n:
        raise ValueError(f"{game.name}: the string rule has {n} strings for {game.n_codes} codes")
    check_fits(game.name, n, pegs, rule.colors)
    if pegs > 8:
        raise ValueError(f"{game.name}: the string engine handles at most 8 pegs, got {pegs}")
    packed = _bytes_word(strings)
    counts = np.stack([(strings == c).sum(axis=1) for c in range(1, rule.colors + 1)], axis=1)
    mode, common, multiset = STRINGS_BY_COLOUR, counts.astype(np.int8), np.zeros(n, np.int32)
    how, words = BY_LOOP, np.zeros(1, np.uint64)
    if math.comb(pegs + rule.colors - 1, pegs) <= MAX_MULTISETS:
        shapes, multiset = np.unique(counts, axis=0, return_inverse=True)
        mode, common = STRINGS, _common_table(shapes.astype(np.int8))
        how, words = BY_MULTISET, multiset.ravel().astype(np.uint64)
    if rule.colors <= WORD_COLOURS:
        how, words = BY_WORD, _bytes_word(counts)
    codes = np.arange(n, dtype=np.int32)
    final = np.flatnonzero(game.is_final)
    hit_code = codes if len(final) else np.full(n, -1, np.int32)
    perms = np.array(list(permutations(range(pegs))), dtype=np.int8)
    whites = bool((rule.lut != rule.lut[:, :1]).any())  # do the whites tell outcomes apart?
    slot_of, outcome_of = _slot_tables(rule.lut, game.n_outcomes)
    symmetric, distinct = _all_strings(strings, rule.colors)
    masks = (np.bitwise_or.reduce(np.uint64(1) << strings.astype(np.uint64), axis=1)
             if rule.colors < 64 else np.zeros(1, np.uint64))
    return Kernel(mode, np.zeros((1, 1), np.int8), packed, pegs,
                  multiset.ravel().astype(np.int32), common, rule.lut, game.is_final.copy(),
                  hit_code, hit_code.copy(), _csr(hit_code, n), _clogc(n), rule.strings, perms,
                  rule.colors, n, n, game.n_outcomes, game.ends_on_final, how, words,
                  (0x0F0F0F0F0F0F0F0F, 0xFF) if whites else (0, 0), slot_of, outcome_of,
                  masks.astype(np.uint64),
                  (2 if distinct else 1) if symmetric and rule.colors < 64 else 0, symmetric)


def _bytes_word(values: np.ndarray) -> np.ndarray:
    """Each row of small non-negative integers (at most 8) packed into a word, a byte each."""
    shifts = 8 * np.arange(values.shape[1], dtype=np.uint64)
    return (values.astype(np.uint64) << shifts).sum(axis=1).astype(np.uint64)


def _slot_tables(lut: np.ndarray, n_outcomes: int) -> tuple[np.ndarray, np.ndarray]:
    """Each outcome's slot (colours in common + 16 × pegs that differ; colours in common left out
    where the whites do not matter) and each slot's outcome."""
    pegs = lut.shape[0] - 1
    whites = bool((lut != lut[:, :1]).any())
    slot_of = np.zeros(n_outcomes, np.int64)
    outcome_of = np.full(16 * (pegs + 1), -1, np.int16)
    for black in range(pegs + 1):
        for white in range(pegs + 1 - black) if whites else [0]:
            o = int(lut[black, white])
            if o >= 0:
                slot = (black + white if whites else 0) + 16 * (pegs - black)
                slot_of[o], outcome_of[slot] = slot, o
    return slot_of, outcome_of


def _all_strings(strings: np.ndarray, colors: int) -> tuple[bool, bool]:
    """Are the codes every string over the colours (or every one of distinct symbols), in
    lexicographic order? (the symmetries and the absent-colour reduction need that), and are
    they of distinct symbols?"""
    n, pegs = strings.shape
    ordered_pegs = np.sort(strings, axis=1)
    distinct = bool(n) and bool((ordered_pegs[:, 1:] != ordered_pegs[:, :-1]).all())
    expected = math.perm(colors, pegs) if distinct and pegs > 1 else colors**pegs
    ordered = n < 2 or bool((np.diff(_bytes_word(strings[:, ::-1]).astype(np.int64)) > 0).all())
    in_range = bool(n) and int(strings.min()) >= 1 and int(strings.max()) <= colors
    return n == expected and ordered and in_range, distinct and pegs > 1


def _common_table(shapes: np.ndarray) -> np.ndarray:
    """common[a, b] = Σ_c min(shapes[a, c], shapes[b, c]): colours two multisets have in common
    (numpy, a row at a time: no compiled code to load while the game is built)."""
    common = np.empty((len(shapes), len(shapes)), np.int8)
    for a, shape in enumerate(shapes):
        common[a] = np.minimum(shape, shapes).sum(axis=1)
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


def _fast_args(k: Kernel) -> tuple:
    """What `_slots` and the scans read: how, table, packed codes, colour words, colours in
    common, white masks, and the outcome of each bit of `_outcome_bit` (empty past 7 pegs)."""
    return (k.how, k.table, k.packed, k.words, k.common, np.uint64(k.whites[0]),
            np.int64(k.whites[1]), _bit_outcomes(k))


def _bit_outcomes(k: Kernel) -> np.ndarray:
    """outcome_at[colours in common + 8 × pegs that differ] = the outcome (string games of at most
    7 pegs and 8 colours, else empty)."""
    if k.how != BY_WORD or k.pegs > 7:
        return np.zeros(0, np.int16)
    outcome_at = np.full(64, -1, np.int16)
    for slot, o in enumerate(k.outcome_of):
        if o >= 0:
            outcome_at[slot % 16 + 8 * (slot // 16)] = o
    return outcome_at


# --- one guess against one code ------------------------------------------------------------------
@njit(cache=True)
def _outcome(mode, table, packed, pegs, multiset, common, lut, j, k):
    """Outcome index of experiment j on code k: a table entry, or lut[black, white] from the
    strings."""
    if mode == 0:
        return table[j, k]
    black = pegs - _differ(packed[j] ^ packed[k])
    if mode == 1:
        return lut[black, common[multiset[j], multiset[k]] - black]
    total = 0
    for c in range(common.shape[1]):
        total += min(common[j, c], common[k, c])
    return lut[black, total - black]


@njit(cache=True)
def _differ(x):
    """How many bytes of x are not zero (bytes below 128): pegs out of place, from a ^ b."""
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    t = ((x & low7) + low7) | x  # the top bit of each byte: is the byte non-zero?
    t = (t >> np.uint64(7)) & np.uint64(0x0101010101010101)
    return np.int64((t * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _word_slot(guess, guess_colours, code, code_colours, whites):
    """Slot of a guess on a code from packed pegs and colour counts: Σ min(colour counts)
    (masked by `whites`) + 16 × pegs that differ, all in one word (a byte per peg or colour)."""
    ones, high = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    x = guess ^ code
    differ = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones  # 1 in each byte that differs
    ge = (((guess_colours | high) - code_colours) >> np.uint64(7)) & ones  # guess's count ≥ code's
    keep = ge * np.uint64(0xFF)
    least = (code_colours & keep) | (guess_colours & ~keep)  # byte-wise minimum
    return np.int64((((least & whites) + (differ << np.uint64(4))) * ones) >> np.uint64(56))


@njit(cache=True)
def _slots(F, j, live, segp, segw, lo, hi, buf):
    """buf[i − lo] = the slot of experiment j on the code at position i of the live arrays, for
    lo ≤ i < hi (live: code, segp: packed code, segw: colour word)."""
    how, table, packed, words, common, whites, white_count, outcome_at = F
    if how == 0:
        for i in range(lo, hi):
            buf[i - lo] = table[j, live[i]]
        return
    guess, guess_colours = packed[j], words[j]
    if how == 2:
        for i in range(lo, hi):
            buf[i - lo] = _word_slot(guess, guess_colours, segp[i], segw[i], whites)
    elif how == 1:
        row = common[np.int64(guess_colours)]
        for i in range(lo, hi):
            in_common = row[np.int64(segw[i])] & white_count
            buf[i - lo] = in_common + 16 * _differ(guess ^ segp[i])
    else:
        for i in range(lo, hi):
            k, in_common = live[i], 0
            for c in range(common.shape[1]):
                in_common += min(common[j, c], common[k, c])
            buf[i - lo] = (in_common & white_count) + 16 * _differ(guess ^ segp[i])


# --- scores ------------------------------------------------------------------------------------
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


@intrinsic
def _fma32(typingctx, a, b, c):
    """a·b + c in single precision with one rounding (as a compiler contracts it into an FMA)."""
    from llvmlite import ir
    from numba import types

    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        single = ir.FloatType()
        fma = builder.module.declare_intrinsic("llvm.fma", [single],
                                               ir.FunctionType(single, [single] * 3))
        return builder.call(fma, args)

    return sig, codegen


@intrinsic
def _popcount(typingctx, x):
    """The number of bits set in a 64-bit word (one instruction where the processor has it)."""
    from llvmlite import ir
    from numba import types

    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [word],
                                                 ir.FunctionType(word, [word]))
        return builder.call(ctpop, args)

    return sig, codegen


@njit(cache=True)
def _rank_u32(y):
    """C's round(y) for y ≥ 0 converted to a 32-bit unsigned rank (2³² − 1 when out of range, as
    x86's conversion instruction gives)."""
    r = math.floor(y)
    if y - r >= 0.5:
        r += 1.0
    if not r < 4294967296.0:
        return 4294967295
    return np.int64(r)


@njit(cache=True)
def _mikemag_rank(counts, slot_of, s, strategy, logs):
    """mikemag's rank of the part sizes (higher is better), in its single precision: expected
    size −round(10⁶ Σ c²/s) mod 2³², entropy round(10⁹ · −Σ p log p), p = c/s, in slot order
    (logs[c] = log p, see `_logs`)."""
    acc, size = np.float32(0.0), np.float32(s)
    for o in range(len(slot_of)):
        c = counts[slot_of[o]]
        if c > 0:
            f = np.float32(c)
            if strategy == 4:
                acc = acc + (f * f) / size
            else:
                acc = _fma32(-(f / size), logs[c], acc)
    if strategy == 4:
        return (4294967296 - _rank_u32(np.float64(acc) * 1e6)) % 4294967296
    return _rank_u32(np.float64(acc) * 1e9)


@njit(cache=True)
def _logs(s, strategy):
    """logs[c] = log(c / s) in single precision (the C library's logf), for mikemag's entropy."""
    logs = np.zeros(s + 1 if strategy == 5 else 0, np.float32)
    for c in range(1, len(logs)):
        logs[c] = math.log(np.float32(c) / np.float32(s))
    return logs


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
    """ent-models' score of the tallied part sizes, in outcome order (as `_entropy_score`)."""
    for o in range(len(slot_of)):
        scratch[o] = clogc[counts[slot_of[o]]]
    return np.rint(_pairwise(scratch, len(slot_of)) * 1e9) / 1e9


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
        return -float(_mikemag_rank(counts, slot_of, s, 4, logs)) > lim
    return False


# --- the choice at one node ----------------------------------------------------------------------
@njit(cache=True)
def _scan(F, live, segp, segw, start, s, candidates, c0, c1, live_mask, hit_code, ends_final,
          strategy, perfect, clogc, slot_of, logs, counts, buf, scratch):
    """The least (score, not a possible hit, index) over candidates[c0:c1] (ascending), as
    (score, misses, experiment). With `perfect` (no guess that may hit splits the live codes
    into singletons), the first candidate that does is the least: it ends the scan.

    A candidate's slots are tallied a block at a time and it is dropped as soon as its score
    must exceed the best, or equal it without winning the tie. One loop, no calls with arrays
    per candidate: numba counts references on each array passed to a call.
    """
    how, table, packed, words, common, whites, white_count, outcome_at = F
    bound = (1.0, float(s), 0.0, float(-s), -np.inf, -np.inf)[strategy]
    best, best_miss, best_j, end = np.inf, 2, -1, start + s
    for c in range(c0, c1):
        j = candidates[c]
        miss = 0 if ends_final and hit_code[j] >= 0 and live_mask[hit_code[j]] else 1
        # a later candidate wins a tie only as a possible hit against a best that misses
        lim = best - 1.0 if strategy != 2 and miss >= best_miss else best
        running, beaten, lo = 0, False, start
        while lo < end and not beaten:
            hi = min(lo + BLOCK, end)
            if how == BY_WORD:
                guess, guess_colours = packed[j], words[j]
                for i in range(lo, hi):
                    buf[i - lo] = _word_slot(guess, guess_colours, segp[i], segw[i], whites)
            else:
                _slots(F, j, live, segp, segw, lo, hi, buf)
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
            score = -float(_mikemag_rank(counts, slot_of, s, strategy, logs))
        else:
            score = (float(largest), float(squares), 0.0, float(-parts))[strategy % 4]
        for o in range(len(slot_of)):
            counts[slot_of[o]] = 0
        if beaten:
            continue
        if perfect and largest == 1:
            return score, miss, j
        if score < best or (score == best and miss < best_miss):
            best, best_miss, best_j = score, miss, j
            if best == bound and (best_miss == 0 or not ends_final):
                break
    return best, best_miss, best_j


@njit(cache=True)
def _outcome_bit(guess, guess_colours, code, code_colours, whites):
    """The bit of a guess's outcome on a code (at most 7 pegs): bit (colours in common + 8 × pegs
    that differ), from the packed words as in `_word_slot`."""
    ones, high = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    x = guess ^ code
    differ = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones
    ge = (((guess_colours | high) - code_colours) >> np.uint64(7)) & ones
    keep = (ge << np.uint64(8)) - ge
    least = (code_colours & keep) | (guess_colours & ~keep)
    return np.uint64(1) << ((((least & whites) + (differ << np.uint64(3))) * ones) >> np.uint64(56))


@njit(cache=True)
def _scan_small(F, live, segp, segw, start, s, candidates, n_cand, live_mask, hit_code,
                ends_final, strategy, perfect, clogc, logs, lanes, counters, sizes, scratch):
    """`_scan` for packed colour words and at most 7 pegs, 64 candidates at a time: each code's
    outcome bit is added to six bit-sliced counters (a bit per outcome, a lane per candidate:
    the loop is vectorised), at most 63 codes, and the scores are read off the counters; most
    parts only ORs the bits, for any number of codes."""
    packed, words, whites, outcome_at = F[2], F[3], F[5], F[7]
    width, n_out, identity = lanes.shape[1], len(sizes), np.arange(len(sizes))
    best, best_miss, best_j = np.inf, 2, -1
    for first in range(0, n_cand, width):
        m = min(width, n_cand - first)
        for b in range(width):
            j = candidates[first + min(b, m - 1)]
            lanes[0, b], lanes[1, b] = packed[j], words[j]
        counters[:] = 0
        if strategy == 3:  # most parts needs only which outcomes occur, whatever the codes
            for i in range(start, start + s):
                code, code_colours = segp[i], segw[i]
                for b in range(width):
                    counters[0, b] |= _outcome_bit(lanes[0, b], lanes[1, b], code, code_colours,
                                                   whites)
        else:
            for i in range(start, start + s):
                code, code_colours = segp[i], segw[i]
                for b in range(width):  # add one to this code's outcome counter, in binary
                    carry = _outcome_bit(lanes[0, b], lanes[1, b], code, code_colours, whites)
                    for level in range(5):
                        x = counters[level, b]
                        counters[level, b] = x ^ carry
                        carry &= x
                    counters[5, b] ^= carry
        for b in range(m):
            j = candidates[first + b]
            used, largest, top = np.uint64(0), 0, np.uint64(0)
            for level in range(6):
                used |= counters[level, b]
            top = used
            for level in range(5, -1, -1):
                if top & counters[level, b]:
                    top &= counters[level, b]
                    largest += 1 << level
            squares = 0
            if strategy == 1 or strategy == 4:  # Σ c² = Σ over pairs of bit levels
                for k in range(6):
                    squares += _popcount(counters[k, b]) << (2 * k)
                    for q in range(k + 1, 6):
                        squares += _popcount(counters[k, b] & counters[q, b]) << (k + q + 1)
            if strategy == 0:
                score = float(largest)
            elif strategy == 3:
                score = float(-_popcount(used))
            elif strategy == 1:
                score = float(squares)
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
                    sizes[outcome_at[_popcount(bit - np.uint64(1))]] = t
                    total += clogc[t]
                    used ^= bit
                if _hopeless(total, squares, s, strategy, best):
                    continue
                if strategy == 2:
                    score = _entropy_score(sizes, n_out, clogc, scratch)
                else:
                    score = -float(_mikemag_rank(sizes, identity, s, strategy, logs))
            miss = 0 if ends_final and hit_code[j] >= 0 and live_mask[hit_code[j]] else 1
            if perfect and (largest == 1 if strategy != 3 else score == -s):
                return score, miss, j
            if score < best or (score == best and miss < best_miss):
                best, best_miss, best_j = score, miss, j
    return best, best_miss, best_j


@njit(cache=True)
def _choose(F, live, segp, segw, start, s, candidates, n_cand, live_mask, hit_code, hitters_start,
            hitters, ends_final, strategy, clogc, slot_of, work, hits=True):
    """The experiment the strategy picks at this node (lowest score; then a possible hit; then
    lowest index); `hits=False` when no guess that may hit splits the codes into singletons."""
    counts, buf, scratch, lanes, counters, sizes = work
    small = s <= len(slot_of)  # few enough codes for a guess to split them into singletons
    logs = _logs(s, strategy)
    if small and hits:  # one that may hit wins
        j = _first_perfect_hit(F, live, segp, segw, start, s, hitters_start, hitters,
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
def _first_perfect_hit(F, live, segp, segw, start, s, hitters_start, hitters, ends_final, clogc,
                       slot_of, counts, buf, scratch):
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


# --- fewer candidates: symmetry and absent colours ----------------------------------------------
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
def _canonical(strings, masks, colors, rule, live, start, s, played, candidates, n_cand, out):
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
    two_absent = _popcount(absent) >= 2
    two_free = _popcount(free) >= 2
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
def _played(masks, path, npath):
    """The colours of the guesses on the path (a bit mask)."""
    played = np.uint64(0)
    for g in range(npath):
        played |= masks[path[g]]
    return played


# --- the decision tree ---------------------------------------------------------------------------
@njit(cache=True)
def _split(F, outcome_of, j, live, segp, segw, spare, start, s, counts, rowbuf, offsets):
    """Stable counting sort of the live arrays' segment start..start+s by the outcome of
    experiment j (counts filled, offsets at each part's start)."""
    _slots(F, j, live, segp, segw, start, start + s, rowbuf)
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


@njit(cache=True, nogil=True)
def _subtree(F, strings, colors, perms, symmetry, absent_rule, masks, n_exp, is_final, hit_code,
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
            k = live[start]
            nodes[5, node] = k
            lengths[k], determined[k] = d + 1 if ends_final else d, d
            if ends_final:
                nodes[4, node] = first_hit[k]
            continue
        if node == 0 and first >= 0:
            j = first
        else:
            j = -1
            if s <= n_out:  # a guess that may hit and splits the codes into singletons wins
                j = _first_perfect_hit(F, live, segp, segw, start, s, hitters_start, hitters,
                                       ends_final, clogc, slot_of, work[0], work[1], work[2])
            if j < 0:
                candidates, n_cand = everything, n_exp
                if symmetry:
                    npath = _path(nodes, par, prefix, path)
                    found = _candidates(strings, colors, perms, path, npath, s, taus, used, cand)
                    if found >= 0:
                        candidates, n_cand = cand, found
                    if absent_rule:
                        kept = _canonical(strings, masks, colors, absent_rule, live, start, s,
                                          _played(masks, path, npath), candidates, n_cand, cand)
                        if kept >= 0:
                            candidates, n_cand = cand, kept
                for i in range(start, start + s):
                    live_mask[live[i]] = True
                j = _choose(F, live, segp, segw, start, s, candidates, n_cand, live_mask,
                            hit_code, hitters_start, hitters, ends_final, strategy, clogc,
                            slot_of, work, False)
                for i in range(start, start + s):
                    live_mask[live[i]] = False
        nodes[4, node] = j
        _split(F, outcome_of, j, live, segp, segw, spare, start, s, parts, buf, offsets)
        if not _useful(parts, is_final, s):
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


# --- the Python face ---------------------------------------------------------------------------
def analyze(game, strategy: str = "max-models", *, symmetry: bool = True, threads: int = 1,
            first: int | str | None = None, rules: str = "puzzlelab") -> Analysis:
    """Play `strategy` against every code (compiled; the same `Analysis` as `analysis.analyze`).

    `threads` > 1 plays the subtrees below the first guess on that many threads (the same
    analysis); `first` fixes the first guess (an experiment index, name or code name);
    `rules="mikemag"` ranks guesses as Magruder's program does (see the module docstring).
    """
    game = check_game(game)
    checks.choice(strategy, "strategy", STRATEGY_CODE)
    checks.choice(rules, "rules", RULES)
    threads = checks.integer(threads, "threads", low=1, high=256)
    k = kernel(game)
    use = checks.boolean(symmetry, "symmetry") and k.mode != TABLE and k.symmetric
    first = -1 if first is None else _experiment(game, first)
    arrays = _live_arrays(k, np.arange(k.n_codes, dtype=np.int32))
    lengths, determined = np.zeros(k.n_codes, np.int64), np.zeros(k.n_codes, np.int64)
    one = threads == 1 or k.n_codes < PARALLEL_CODES
    play = _player(k, RULES[rules][strategy], use, arrays, lengths, determined, one)
    root = (0, k.n_codes, 0, -1, -1)
    if one:
        nodes, rows, stuck, _ = play(root, np.zeros(0, np.int32), first, False)
        tree = nodes[:, :rows]
    else:
        tree, stuck = _threaded(play, root, first, threads)
    if len(stuck):
        names = ", ".join(game.code_names[int(c)] for c in stuck[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    label = strategy if rules == "puzzlelab" else f"{strategy} ({rules})"
    return Analysis(game, label, lengths, determined, partial(_tree_frame, game, tree))


def _experiment(game, first: int | str) -> int:
    """The index of an experiment given by index, name ('g(1,1,2,2)') or code name ('1122')."""
    if isinstance(first, str):
        for j in range(game.n_experiments):
            if game.experiment_name(j) == first:
                return j
        if game.rule is not None and first in game.code_names:
            return game.code_index(first)
        raise ValueError(f"{game.name}: no experiment or code named {first!r}")
    return checks.integer(first, "first (an experiment index or name)", low=0,
                          high=game.n_experiments - 1)


def _live_arrays(k: Kernel, codes: np.ndarray) -> tuple:
    """The live arrays the compiled loops split in place (codes, packed codes, colour words) and
    spare arrays of the same size."""
    n = len(codes)
    live = np.ascontiguousarray(codes, dtype=np.int32).copy()
    segp = k.packed[live] if k.mode != TABLE else np.zeros(n, np.uint64)
    segw = k.words[live] if k.how in (BY_WORD, BY_MULTISET) else np.zeros(n, np.uint64)
    spare = (np.empty(n, np.int32), np.empty(n, np.uint64), np.empty(n, np.uint64))
    return live, np.ascontiguousarray(segp), np.ascontiguousarray(segw), spare


def _player(k: Kernel, code: int, symmetry: bool, arrays: tuple, lengths: np.ndarray,
            determined: np.ndarray, ahead: bool = True):
    """`_subtree` with everything but the root, the guesses above it, the first guess and
    whether to stop after the root bound; run by the ahead-of-time build where it fits (`ahead`:
    it holds the GIL, so not on a pool of threads)."""

    def play(root, prefix, first, only_root):
        args = _subtree_args(k, code, symmetry, arrays, lengths, determined) + (
            root, prefix, first, only_root, lengths, determined)
        solve = native.solver(args) if ahead else None
        return (solve or _subtree)(*args)

    return play


def _subtree_args(k: Kernel, code: int, symmetry: bool, arrays: tuple, lengths: np.ndarray,
                  determined: np.ndarray) -> tuple:
    """`_subtree`'s arguments before the root: the game's arrays, the rank and the live arrays."""
    live, segp, segw, spare = arrays
    return (_fast_args(k), k.strings, k.colors, k.peg_perms, symmetry, k.absent_rule, k.masks,
            k.n_experiments, k.is_final, k.hit_code, k.first_hit, k.hitters[0], k.hitters[1],
            k.ends_on_final, code, k.clogc, k.slot_of, k.outcome_of, live, segp, segw, spare)


def load() -> None:
    """Make this module's numba functions now (numba imported; cached code loaded when called)."""
    materialize(__name__)


def build_native() -> str:
    """Compile `_subtree` ahead of time for string games (Mastermind's argument types) beside
    this file (`native`); the module's path. Run by the install step (`codebreaking.warm`)."""
    from .games import mastermind

    k = kernel(mastermind(3, 3))
    arrays = _live_arrays(k, np.arange(k.n_codes, dtype=np.int32))
    lengths, determined = np.zeros(k.n_codes, np.int64), np.zeros(k.n_codes, np.int64)
    args = _subtree_args(k, 0, True, arrays, lengths, determined) + (
        (0, k.n_codes, 0, -1, -1), np.zeros(0, np.int32), -1, False, lengths, determined)
    load()
    _subtree(*args)  # numba's own build of these types first: the signature to export
    return native.build(_subtree, args, __file__)


def _threaded(play, root: tuple, first: int, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """The tree played root first, then the root's subtrees on `threads` threads (largest
    first), numbered as one depth-first walk: the root, its final leaves, then each subtree."""
    nodes, rows, stuck, children = play(root, np.zeros(0, np.int32), first, True)
    if len(stuck):
        return nodes[:, :rows], stuck
    prefix = np.array([nodes[4, 0]], np.int32)
    order = children[::-1]  # popped lowest outcome first
    with ThreadPoolExecutor(threads) as pool:
        jobs = {i: pool.submit(play, (*(int(x) for x in order[i, :3]), -1, int(order[i, 4])),
                               prefix, -1, False)  # numbered from 0: the root's parent is −1
                for i in np.argsort(-order[:, 1], kind="stable")}
        parts = [jobs[i].result() for i in range(len(order))]
    blocks = [nodes[:, :rows]]
    for (sub, count, lost, _), child in zip(parts, order):
        if len(lost):
            return nodes[:, :rows], lost
        sub = sub[:, :count].copy()
        offset = sum(b.shape[1] for b in blocks)
        sub[0] += offset
        sub[0, 0] = child[3]  # the subtree's root hangs below the root
        blocks.append(sub)
    return np.concatenate(blocks, axis=1), stuck


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
    codes, segp, segw, _ = _live_arrays(k, live)
    mask = np.zeros(k.n_codes, np.bool_)
    mask[codes] = True
    j = int(_choose(_fast_args(k), codes, segp, segw, 0, len(codes),
                    np.arange(k.n_experiments, dtype=np.int32), k.n_experiments, mask, k.hit_code,
                    k.hitters[0], k.hitters[1], k.ends_on_final, STRATEGY_CODE[strategy], k.clogc,
                    k.slot_of, _work(k, len(codes))))
    sizes = np.bincount(outcome_row(game, j, codes), minlength=k.n_outcomes)
    if len(codes) > 1 and not _useful(sizes, k.is_final, len(codes)):
        names = ", ".join(game.code_names[int(c)] for c in codes[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return j


def _work(k: Kernel, size: int) -> tuple:
    """Scratch arrays of the choice at a node of `size` codes (as `_subtree` makes them)."""
    return (np.zeros(len(k.outcome_of), np.int64), np.empty(max(BLOCK, size), np.int64),
            np.empty(k.n_outcomes), np.empty((2, 64), np.uint64), np.empty((6, 64), np.uint64),
            np.zeros(k.n_outcomes, np.int64))


def _tree_frame(game, nodes: np.ndarray) -> pd.DataFrame:
    """The decision tree as `analysis._play` tabulates it (node, parent, outcome, depth, codes,
    experiment, code); made when the analysis's tree is first read (pandas is imported then)."""
    import pandas as pd

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


# --- pieces of the optimal search (exhaustive.Search), compiled ------------------------------------
def parts(game, live: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The codes `live` split by experiment j: (outcomes present, ascending; part sizes; codes by
    part)."""
    k = kernel(game)
    codes, segp, segw, spare = _live_arrays(k, live)
    counts = np.zeros(k.n_outcomes, np.int64)
    _split(_fast_args(k), k.outcome_of, int(j), codes, segp, segw, spare, 0, len(codes), counts,
           np.empty(len(codes), np.int64), np.empty(k.n_outcomes, np.int64))
    present = np.flatnonzero(counts)
    return present, counts[present], codes.astype(np.intp)


def first_perfect_hit(game, live: np.ndarray) -> int:
    """The lowest experiment that may hit a code of `live` and splits them into singletons, or
    −1."""
    k = kernel(game)
    if not k.ends_on_final:
        return -1
    codes, segp, segw, _ = _live_arrays(k, live)
    return int(_first_perfect_hit(_fast_args(k), codes, segp, segw, 0, len(codes), k.hitters[0],
                                  k.hitters[1], True, k.clogc, k.slot_of,
                                  np.zeros(len(k.outcome_of), np.int64),
                                  np.empty(BLOCK, np.int64), np.empty(k.n_outcomes)))


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
