"""Slow reference definitions, for cross-checks only: everything by listing hands and partitions.

The solvers decide "sure" by one card certifying a part; here a part is sure when every
possible hand (one identity per card, cards independent) has a card it touches, and the
maximum is found by trying every partition of the hints (Bell-number many). Sizes are
refused up front beyond what can finish in seconds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence

from .. import checks
from ..checks import ArgumentTypeError
from .model import HintTable, Identity, as_table

__all__ = [
    "HAND_LIMIT", "PARTITION_CHECK_LIMIT", "max_partition_by_enumeration", "part_is_sure_by_hands",
    "possible_hands", "set_partitions",
]

HAND_LIMIT = 10**6  # hands one check may list
PARTITION_CHECK_LIMIT = 10**7  # (partition, hand) pairs the enumeration may visit
MAX_ITEMS = 20


def _hand_count(table: HintTable) -> int:
    return math.prod(len(card) for card in table.cards)


def possible_hands(table: HintTable) -> Iterator[tuple[Identity, ...]]:
    """Every hand consistent with the table: one identity per card (cards independent)."""
    table = as_table(table)
    return itertools.product(*(sorted(card, key=sorted) for card in table.cards))


def part_is_sure_by_hands(table: HintTable, part: Iterable[str]) -> bool:
    """The definition: in every possible hand some card is touched by a hint of `part`."""
    table = as_table(table)
    if isinstance(part, (str, bytes)) or not isinstance(part, Iterable):
        raise ArgumentTypeError(f"part must be a set of hint names, got {part!r}")
    part = {checks.text(h, "hint") for h in part}
    checks.within_budget("listing every possible hand", _hand_count(table), HAND_LIMIT,
                         unit="hands")
    return all(any(identity & part for identity in hand) for hand in possible_hands(table))


def _partitions(items: list) -> Iterator[list[list]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in _partitions(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1:]
        yield [[first], *smaller]


def set_partitions(items: Sequence[object]) -> Iterator[list[list[object]]]:
    """Every partition of `items` into non-empty blocks (Bell-number many), lazily."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise ArgumentTypeError(f"items must be a list or tuple, got {items!r}")
    checks.integer(len(items), "the number of items", high=MAX_ITEMS)
    return _partitions(list(items))


def _bell(n: int) -> int:
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[0]


def max_partition_by_enumeration(table: HintTable) -> int:
    """The largest partition all of whose parts are sure by the definition (tiny tables)."""
    table = as_table(table)
    checks.within_budget("trying every partition against every hand",
                         _bell(len(table.hints)) * _hand_count(table), PARTITION_CHECK_LIMIT,
                         unit="checks")
    return max(len(p) for p in set_partitions(list(table.hints))
               if all(part_is_sure_by_hands(table, b) for b in p))
