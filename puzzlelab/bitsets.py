"""Finite sets of small non-negative integers as Python int bit masks (bit i set <=> i in the set).

Shared by the puzzles that pack sets into integers: Hanabi (sets of hints and of rows),
the hats (sets of rounds) and Russian Cards (hands as sets of cards). Each function checks its
argument at a glance (a plain non-negative int passes at the cost of one type test), so the
solvers' inner loops pay nothing for the checks.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Iterator

from . import checks

__all__ = ["MAX_BITS", "bits", "full", "from_bits", "union"]

# The largest set index: a mask of 2**36 bits takes 8 GiB, the project's memory budget.
MAX_BITS = 8 * checks.MEMORY_BUDGET


# Collections taken at a glance (anything else is checked by `checks.collection` first).
_PLAIN = (list, tuple, range, set, frozenset, types.GeneratorType)


def _element(i: object, name: str) -> int:
    """A set element: an integer in 0 .. MAX_BITS - 1 (a mask with bit i takes i / 8 bytes)."""
    i = checks.integer(i, name, low=0)
    checks.within_budget(f"a bit mask with element {i}", i / 8, checks.MEMORY_BUDGET,
                         largest=f"elements below {MAX_BITS}")
    return i


def from_bits(items: Iterable[int]) -> int:
    """The mask of a set of indices: {0, 2} -> 0b101."""
    if type(items) not in _PLAIN:
        checks.collection(items, "items", what="a collection of set elements")
    mask = 0
    for i in items:
        if type(i) is not int or i < 0 or i >= MAX_BITS:
            i = _element(i, "an element of items")
        mask |= 1 << i
    return mask


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, ascending: 0b101 -> 0, 2."""
    if type(mask) is not int or mask < 0:
        mask = checks.integer(mask, "mask", low=0)
    return _bits(mask)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def full(size: int) -> int:
    """The mask of {0, ..., size - 1}."""
    if type(size) is not int or not 0 <= size <= MAX_BITS:
        size = _element(size, "size")
    return (1 << size) - 1


def union(masks: Iterable[int]) -> int:
    """The union (bitwise or) of masks; 0 for none."""
    if type(masks) not in _PLAIN:
        checks.collection(masks, "masks", what="a collection of bit masks")
    out = 0
    for m in masks:
        if type(m) is not int or m < 0:
            m = checks.integer(m, "a mask of masks", low=0)
        out |= m
    return out
