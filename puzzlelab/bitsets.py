"""Finite sets of small non-negative integers as Python int bit masks (bit i set <=> i in the set).

Shared by the puzzles that pack sets into integers: Hanabi (sets of hints and of rows),
the hats (sets of rounds) and Russian Cards (hands as sets of cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["bits", "full", "from_bits", "union"]


def from_bits(items: Iterable[int]) -> int:
    """The mask of a set of indices: {0, 2} -> 0b101."""
    mask = 0
    for i in items:
        mask |= 1 << i
    return mask


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, ascending: 0b101 -> 0, 2."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def full(size: int) -> int:
    """The mask of {0, ..., size - 1}."""
    return (1 << size) - 1


def union(masks: Iterable[int]) -> int:
    """The union (bitwise or) of masks; 0 for none."""
    out = 0
    for m in masks:
        out |= m
    return out
