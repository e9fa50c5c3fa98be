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

    Parameters
    ----------
    card_masks : sequence of int
        The card's identities as bit masks (a row of `HintTable.masks`), each at least 1.
    part : int
        A set of hints as a bit mask.

    Returns
    -------
    bool
        True when every identity shares a hint with `part`: whatever the card is, some hint of
        `part` touches it.

    Raises
    ------
    ValueError
        If a mask is not a positive integer or `part` is negative.

    Examples
    --------
    The post's newest card may be red, white, yellow or green (masks 1, 2, 4, 8): red and blue
    (1 | 16) miss its white, yellow and green.

    >>> certifies([1, 2, 4, 8], 1 | 16), certifies([1, 2, 4, 8], 15)
    (False, True)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution': a sure part, and the card that
    certifies it.
    """
    masks = checks.integers(card_masks, "card_masks", low=1)
    part = checks.integer(part, "part", low=0)
    return all(identity & part for identity in masks)


def sure_masks(table: HintTable) -> np.ndarray:
    """Boolean array over all 2^H hint subsets: is the subset sure to contain a valid hint?

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`), H hints.

    Returns
    -------
    numpy.ndarray of bool
        Entry m tells whether the hints of bit mask m are sure (some card certifies them).

    Raises
    ------
    ValueError
        If the table is not valid, or the work (2^H subsets times the identities) exceeds
        2 x 10^9 subset checks.

    Examples
    --------
    In the post's example 22 of the 32 sets of colours are sure; the empty set never is, all
    five colours always are.

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> sure = sure_masks(table)
    >>> int(sure.sum()), bool(sure[0]), bool(sure[31])
    (22, False, True)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'.
    """
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
    """Is `part` (hint names) sure to contain a valid hint, whatever the hand?

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose cards may certify `part`.
    part : iterable of str
        Hint names.

    Returns
    -------
    bool
        True when some card certifies `part`.

    Raises
    ------
    ValueError
        If the table is not valid or `part` names an unknown hint.

    Examples
    --------
    The post's example: red alone is sure (the oldest card is red); blue alone is not.

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> is_sure(table, ["Red"]), is_sure(table, ["Blue"])
    (True, False)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution': 'red is definitely valid'.
    """
    table = as_table(table)
    mask = hint_mask(table, part)
    return any(all(identity & mask for identity in card) for card in table.masks)


def minimal_sure_sets(table: HintTable) -> list[int]:
    """The inclusion-minimal sure subsets of hints, as bit masks (the sets worth packing).

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose sure sets are sought.

    Returns
    -------
    list of int
        Bit masks in increasing order; every sure set contains one of them.

    Raises
    ------
    ValueError
        If the table is not valid or too large for `sure_masks`.

    Examples
    --------
    The post's example: red; white and yellow; yellow and green.

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> [hint_names(table, m) for m in minimal_sure_sets(table)]
    [['Red'], ['White', 'Yellow'], ['Yellow', 'Green']]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution': the reduction to set packing
    (Karp 1972).
    """
    sure = sure_masks(table)
    minimal = []
    for mask in map(int, np.flatnonzero(sure)):
        if not any(sure[mask & ~(1 << b)] for b in bitsets.bits(mask)):
            minimal.append(mask)
    return minimal


def packing_dp(table: HintTable) -> list[int]:
    """A maximum family of disjoint sure sets by dynamic programming over subsets of hints.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`), any number of cards.

    Returns
    -------
    list of int
        Disjoint minimal sure sets as bit masks, as many as possible.

    Raises
    ------
    ValueError
        If the table is not valid, or has too many hints for the walk over subsets (`sure_masks`).

    Examples
    --------
    The post's example packs two sets: red, and yellow with green.

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> [hint_names(table, m) for m in packing_dp(table)]
    [['Red'], ['Yellow', 'Green']]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'; set packing: Karp (1972).
    """
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
    """A maximum family of disjoint sure sets: set packing over minimal sure sets with CP-SAT.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose minimal sure sets are packed.
    time_limit : float
        Seconds CP-SAT may take, 0.001 to 3600.

    Returns
    -------
    list of int
        Disjoint minimal sure sets as bit masks, as many as possible (proved optimal).

    Raises
    ------
    ValueError
        If the table is not valid, `time_limit` is out of range, or CP-SAT does not prove
        optimality within it.

    Examples
    --------
    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> len(packing_cp_sat(table))  # as many as packing_dp
    2

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'; set packing: Karp (1972); the
    solver: OR-Tools CP-SAT.
    """
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
    """The post's brute force: the largest set of rows whose possibilities are pairwise disjoint.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`), colour-only (one hint per identity).

    Returns
    -------
    list of int
        The chosen rows as bit masks (`row_masks`), as many as possible.

    Raises
    ------
    ValueError
        If the table is not colour-only, or it has more rows than the 2^24 subsets
        (`BRUTE_FORCE_LIMIT`) allow.

    Examples
    --------
    The post's example: the second card (white or yellow) and the oldest (red).

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> [hint_names(table, m) for m in packing_brute(table)]
    [['White', 'Yellow'], ['Red']]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution', the search over all subsets of
    rows.
    """
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

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose hints are split.
    method : str
        One of `METHODS`: "dp" (dynamic programming over hint subsets), "cp-sat" (set packing
        with CP-SAT) or "brute" (the post's search over rows, colour-only tables).

    Returns
    -------
    list of set of str
        The parts, ordered by their first hint in the table's order.

    Raises
    ------
    ValueError
        If the table is not valid, `method` is not one of `METHODS`, or the method refuses the
        table (`packing_brute`: colour-only tables; `packing_cp_sat`: optimality not proved in
        time).

    Examples
    --------
    The post's example splits into two sure parts, as the post's answer (red, blue) and
    (white, yellow, green) does; no partition has three.

    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> [sorted(part) for part in max_hint_partition(table)]
    [['Blue', 'Red', 'White'], ['Green', 'Yellow']]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'.
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
    """The number of parts of a maximum partition (how many messages one hint can carry).

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose hints are split.
    method : str
        One of `METHODS` (see `max_hint_partition`).

    Returns
    -------
    int
        The number of parts: one hint can carry that many messages.

    Raises
    ------
    ValueError
        As `max_hint_partition`.

    Examples
    --------
    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> partition_size(table), partition_size(table, "brute")
    (2, 2)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'.
    """
    return len(max_hint_partition(table, method))


def compare_hinting(table: HintTable) -> dict[str, int]:
    """Parts of a maximum partition: mixed colour-and-value parts against the two kinds apart.

    Parameters
    ----------
    table : HintTable
        A full-Hanabi table (`hanabi_table`): hints the five colours and the five values.

    Returns
    -------
    dict of str to int
        "mixed" (parts of the full table), "colours" and "values" (of its projections on each
        kind) and "separate" (their sum).

    Raises
    ------
    ValueError
        If the table's hints are not the five colours and the five values.

    Examples
    --------
    The seeded state of `mixing_gain_example`: mixing colours and values gives 6 parts, the two
    kinds apart 2 + 3.

    >>> from puzzlelab.hanabi.knowledge import mixing_gain_example
    >>> table, hand, hints = mixing_gain_example()
    >>> compare_hinting(table)
    {'mixed': 6, 'colours': 2, 'values': 3, 'separate': 5}

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018), which hints colours only; hints
    by colour or value: Cox et al. (2015), Section 2.
    """
    table = as_table(table)
    if set(table.hints) != set(COLOURS + VALUES):
        raise ValueError(f"compare_hinting needs a full-Hanabi table (hints "
                         f"{list(COLOURS + VALUES)}); got {list(table.hints)}")
    colours = partition_size(project(table, COLOURS))
    values = partition_size(project(table, VALUES))
    return {"mixed": partition_size(table), "colours": colours, "values": values,
            "separate": colours + values}
