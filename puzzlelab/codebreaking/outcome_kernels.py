"""One guess against one code, compiled: outcomes and slots from packed words or a table.

Kernels over the arrays of `engine_arrays.Kernel` (numba, deferred by `puzzlelab.jit`); the
engine's public functions (`compiled`) check every argument before any of them runs.
"""

from __future__ import annotations

import numpy as np

from ..jit import intrinsic, njit

__all__ = ["outcome", "outcome_bit", "popcount", "slots", "word_slot"]


@njit(cache=True)
def outcome(mode, table, packed, pegs, multiset, common, lut, j, k):
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
def word_slot(guess, guess_colours, code, code_colours, whites):
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
def slots(F, j, live, segp, segw, lo, hi, buf):
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
            buf[i - lo] = word_slot(guess, guess_colours, segp[i], segw[i], whites)
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


@njit(cache=True)
def outcome_bit(guess, guess_colours, code, code_colours, whites):
    """The bit of a guess's outcome on a code (at most 7 pegs): bit (colours in common + 8 × pegs
    that differ), from the packed words as in `word_slot`."""
    ones, high = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    x = guess ^ code
    differ = ((((x & low7) + low7) | x) >> np.uint64(7)) & ones
    ge = (((guess_colours | high) - code_colours) >> np.uint64(7)) & ones
    keep = (ge << np.uint64(8)) - ge
    least = (code_colours & keep) | (guess_colours & ~keep)
    return np.uint64(1) << ((((least & whites) + (differ << np.uint64(3))) * ones) >> np.uint64(56))


@intrinsic
def popcount(typingctx, x):
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

