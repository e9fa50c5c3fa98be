"""Magruder's single-precision ranks of a guess, compiled (github.com/mikemag/Mastermind,
`algos.hpp`): expected size and entropy summed in float32 term by term, with a fused
multiply-add, and rounded to unsigned 32-bit integers as that program does.

`reference.mikemag_rank` computes the same ranks one operation at a time, exactly rounded, for
the tests.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import intrinsic, njit

__all__ = ["fma32", "mikemag_rank", "single_logs"]


@intrinsic
def fma32(typingctx, a, b, c):
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
def mikemag_rank(counts, slot_of, s, strategy, logs):
    """mikemag's rank of the part sizes (higher is better), in its single precision: expected
    size −round(10⁶ Σ c²/s) mod 2³², entropy round(10⁹ · −Σ p log p), p = c/s, in slot order
    (logs[c] = log p, see `single_logs`)."""
    acc, size = np.float32(0.0), np.float32(s)
    for o in range(len(slot_of)):
        c = counts[slot_of[o]]
        if c > 0:
            f = np.float32(c)
            if strategy == 4:
                acc = acc + (f * f) / size
            else:
                acc = fma32(-(f / size), logs[c], acc)
    if strategy == 4:
        return (4294967296 - _rank_u32(np.float64(acc) * 1e6)) % 4294967296
    return _rank_u32(np.float64(acc) * 1e9)


@njit(cache=True)
def single_logs(s, strategy):
    """logs[c] = log(c / s) in single precision (the C library's logf), for mikemag's entropy."""
    logs = np.zeros(s + 1 if strategy == 5 else 0, np.float32)
    for c in range(1, len(logs)):
        logs[c] = math.log(np.float32(c) / np.float32(s))
    return logs

