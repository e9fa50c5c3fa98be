"""The arrays the code-breaking engine's compiled loops read, built once per game (`kernel`).

A string game (Mastermind, black-peg Mastermind, Bulls and Cows) packs each code into one 64-bit
word (a byte per peg) and its colour counts into another (a byte per colour, up to 8 colours),
or indexes its colour multisets; other games keep their explicit outcome table. Each outcome
has a *slot*, colours in common + 16 × pegs that differ (Klimoš 2014, §3.3; the engine is
described in `compiled`).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from .strings import MAX_MULTISETS, StringRule, check_fits

__all__ = ["BLOCK", "BY_LOOP", "BY_MULTISET", "BY_TABLE", "BY_WORD", "Kernel", "SMALL_NODE",
           "STRINGS", "STRINGS_BY_COLOUR", "TABLE", "WORD_COLOURS", "clogc_table", "kernel"]

TABLE, STRINGS, STRINGS_BY_COLOUR = 0, 1, 2  # how `outcome_kernels.outcome` finds colours in common
BY_TABLE, BY_MULTISET, BY_WORD, BY_LOOP = 0, 1, 2, 3  # how `outcome_kernels.slots` does it (how)
WORD_COLOURS = 8  # colours whose counts fit in one 64-bit word, a byte each
BLOCK = 256  # codes scored between two checks of a score against the best
SMALL_NODE = 63  # live codes up to which candidates are scored 64 at a time (`score_kernels`)


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
    how: int  # how `slots` finds an outcome slot (BY_TABLE, BY_MULTISET, BY_WORD, BY_LOOP)
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


def clogc_table(n: int) -> np.ndarray:
    """c·ln c for c = 0..n, as numpy computes it (so that entropy scores agree bit for bit)."""
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
                  clogc_table(game.n_codes), dummy8, dummy8, 0, game.n_codes, game.n_experiments,
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
                  hit_code, hit_code.copy(), _csr(hit_code, n), clogc_table(n), rule.strings, perms,
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

