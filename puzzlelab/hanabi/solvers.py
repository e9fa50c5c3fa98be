"""Maximum partitions of the hints into sure parts, by set packing (odwyer2018, 'Solution').

The key fact. A part ``S`` of the hints is *sure* (every possible hand has a card that some
hint in ``S`` touches) exactly when one card *certifies* it: every identity of that card
meets ``S``. (If every card had an identity missing ``S``, the hand made of those identities
would have no valid hint in ``S``.) A partition with ``k`` sure parts therefore contains
``k`` disjoint certified sets, and conversely any ``k`` disjoint certified sets extend to a
partition by putting the untouched hints anywhere. So the puzzle is set packing (karp1972)
over the minimal certified sets: the post's reduction, for any table.

Three exact methods, cross-checked in the tests: ``"brute"``, the post's search over all
subsets of rows (colour-only tables); ``"dp"``, dynamic programming over the 2^H subsets of
hints (any number of cards); ``"cp-sat"``, set packing over the minimal sure sets (CP-SAT).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from ortools.sat.python import cp_model

from .. import bitsets, checks, solvers
from .model import (
    COLOURS, VALUES, HintTable, as_table, hint_mask, hint_names, project, row_masks,
)

__all__ = [
    "BRUTE_FORCE_LIMIT", "METHODS", "certifies", "compare_hinting", "is_sure", "max_hint_partition",
    "minimal_sure_sets", "packing_brute", "packing_cp_sat", "packing_dp", "partition_size",
    "sure_masks",
]

METHODS = ("dp", "cp-sat", "brute")
BRUTE_FORCE_LIMIT = 2**24  # subsets of rows the post's brute force may walk


def certifies(card_masks: Sequence[int], part: int) -> bool:
    """Does one card make `part` sure (odwyer2018: 'definitely contains at least one valid hint')?

    It does when every identity of the card (a bit mask of hints) meets the part.
    """
    masks = checks.integers(card_masks, "card_masks", low=1)
    part = checks.integer(part, "part", low=0)
    return all(identity & part for identity in masks)


def sure_masks(table: HintTable) -> np.ndarray:
    """Boolean array over all 2^H hint subsets: is the subset sure to contain a valid hint?"""
    table = as_table(table)
    work = (1 << len(table.hints)) * sum(len(card) for card in table.masks)
    checks.within_budget("the sure-part test over all subsets of hints", work, 2 * 10**9,
                         unit="subset checks")
    subsets = np.arange(1 << len(table.hints), dtype=np.int64)
    sure = np.zeros(subsets.size, dtype=bool)
    for card in table.masks:
        certified = np.ones(subsets.size, dtype=bool)
        for identity in card:
            certified &= (subsets & identity) != 0
        sure |= certified
    return sure


def is_sure(table: HintTable, part: Iterable[str]) -> bool:
    """Is `part` (hint names) sure to contain a valid hint, whatever the hand?"""
    table = as_table(table)
    mask = hint_mask(table, part)
    return any(all(identity & mask for identity in card) for card in table.masks)


def minimal_sure_sets(table: HintTable) -> list[int]:
    """The inclusion-minimal sure subsets of hints, as bit masks (the sets worth packing)."""
    sure = sure_masks(table)
    minimal = []
    for mask in map(int, np.flatnonzero(sure)):
        if not any(sure[mask & ~(1 << b)] for b in bitsets.bits(mask)):
            minimal.append(mask)
    return minimal


def packing_dp(table: HintTable) -> list[int]:
    """A maximum family of disjoint sure sets by dynamic programming over subsets of hints."""
    table = as_table(table)
    by_low: dict[int, list[int]] = {}
    for s in minimal_sure_sets(table):
        by_low.setdefault(s & -s, []).append(s)
    full = bitsets.full(len(table.hints))
    best = [0] * (full + 1)
    choice = [0] * (full + 1)  # 0: the lowest hint is left unused
    for mask in range(1, full + 1):
        low = mask & -mask
        best[mask], choice[mask] = best[mask ^ low], 0
        for s in by_low.get(low, ()):
            if s & mask == s and 1 + best[mask ^ s] > best[mask]:
                best[mask], choice[mask] = 1 + best[mask ^ s], s
    parts, mask = [], full
    while mask:
        s = choice[mask] or mask & -mask
        if choice[mask]:
            parts.append(s)
        mask ^= s
    return parts


def packing_cp_sat(table: HintTable, time_limit: float = 60.0) -> list[int]:
    """A maximum family of disjoint sure sets: set packing over minimal sure sets with CP-SAT."""
    table = as_table(table)
    time_limit = checks.number(time_limit, "time_limit", low=0.001, high=3600)
    sets = minimal_sure_sets(table)
    model = cp_model.CpModel()
    pick = [model.NewBoolVar(f"s{i}") for i in range(len(sets))]
    for b in range(len(table.hints)):
        model.AddAtMostOne(p for p, s in zip(pick, sets) if s >> b & 1)
    model.Maximize(sum(pick))
    result = solvers.solve(model, time_limit=time_limit)
    if not result.optimal:
        raise ValueError(f"CP-SAT did not prove optimality within {time_limit} s ({result.status})")
    return [s for p, s in zip(pick, sets) if result.value(p)]


def packing_brute(table: HintTable) -> list[int]:
    """The post's brute force: the largest set of rows whose possibilities are pairwise disjoint."""
    rows = row_masks(as_table(table), "the brute force over rows")
    checks.within_budget(f"the brute force over the subsets of {len(rows)} rows", 2 ** len(rows),
                         BRUTE_FORCE_LIMIT, unit="subsets",
                         largest=f"{BRUTE_FORCE_LIMIT.bit_length() - 1} rows")
    for size in range(len(rows), 0, -1):
        for chosen in itertools.combinations(rows, size):
            if sum(chosen) == bitsets.union(chosen):  # disjoint rows: no bit counted twice
                return list(chosen)
    return []


_PACKERS = {"dp": packing_dp, "cp-sat": packing_cp_sat, "brute": packing_brute}


def max_hint_partition(table: HintTable, method: str = "dp") -> list[set[str]]:
    """A maximum-cardinality partition of the hints into sure parts (odwyer2018, 'Solution').

    `table` is a HintTable, a 0/1 DataFrame or nested 0/1 rows. Untouched hints are dealt to
    the parts, each to the currently smallest part (first on ties), so parts stay balanced;
    any placement keeps every part sure.
    """
    table = as_table(table)
    method = checks.choice(method, "method", METHODS)
    packed = sorted(_PACKERS[method](table), key=lambda m: m & -m)
    parts = [set(hint_names(table, m)) for m in packed]  # never empty: all hints form a sure set
    untouched = bitsets.full(len(table.hints)) & ~bitsets.union(packed)
    for hint in hint_names(table, untouched):
        min(parts, key=len).add(hint)
    order = {h: i for i, h in enumerate(table.hints)}
    return sorted(parts, key=lambda p: min(order[h] for h in p))


def partition_size(table: HintTable, method: str = "dp") -> int:
    """The number of parts of a maximum partition (how many messages one hint can carry)."""
    return len(max_hint_partition(table, method))


def compare_hinting(table: HintTable) -> dict[str, int]:
    """Parts of a maximum partition: mixed colour-and-value parts against the two kinds apart."""
    table = as_table(table)
    if set(table.hints) != set(COLOURS + VALUES):
        raise ValueError(f"compare_hinting needs a full-Hanabi table (hints "
                         f"{list(COLOURS + VALUES)}); got {list(table.hints)}")
    colours = partition_size(project(table, COLOURS))
    values = partition_size(project(table, VALUES))
    return {"mixed": partition_size(table), "colours": colours, "values": values,
            "separate": colours + values}
