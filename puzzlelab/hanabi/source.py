"""The post's example and its claims, computed for any table (odwyer2018).

The example is the post's first table of possibilities (newest card on top, as its prose
reads it); the other functions compute what the post observes about it: which single hints
are surely, possibly or never valid, the fewest valid hints a hand can leave (the post's
maximality argument), and the rows a top-to-bottom "maximal disjoint set" picks.
"""

from __future__ import annotations

import math

import pandas as pd

from .. import bitsets
from .model import (
    COLOURS, HintTable, Identity, as_table, hint_mask, possibility_table, row_masks,
)
from .solvers import sure_masks

__all__ = [
    "EXAMPLE_CARD_NAMES", "EXAMPLE_ROWS", "POST_PARTITION", "example_table", "fewest_legal_hints",
    "first_fit_rows", "hint_validity",
]

# The post's first table: one row per card (newest first), one column per colour.
EXAMPLE_ROWS: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1, 0),
    (0, 1, 1, 0, 0),
    (0, 0, 1, 1, 0),
    (1, 0, 0, 0, 0),
)
EXAMPLE_CARD_NAMES: tuple[str, ...] = ("Newest", "second", "third", "Oldest")
# The partition the post gives as its better answer: (red, blue), (white, yellow, green).
POST_PARTITION: tuple[frozenset[str], ...] = (
    frozenset({"Red", "Blue"}), frozenset({"White", "Yellow", "Green"}))


def example_table() -> HintTable:
    """The post's example table of colour possibilities.

    Returns
    -------
    HintTable
        Four cards, newest first ("Newest", "second", "third", "Oldest"), over the five
        colours, with the rows of `EXAMPLE_ROWS`.

    Examples
    --------
    >>> example_table().to_frame()
            Red  White  Yellow  Green  Blue
    Newest    1      1       1      1     0
    second    0      1       1      0     0
    third     0      0       1      1     0
    Oldest    1      0       0      0     0

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), its first table of possibilities.
    """
    return possibility_table([list(r) for r in EXAMPLE_ROWS], COLOURS, EXAMPLE_CARD_NAMES)


def hint_validity(table: HintTable) -> pd.DataFrame:
    """In how many possible hands is each hint valid (odwyer2018: 'red is definitely valid')?

    Cards are independent, so a hint is invalid in exactly the hands made of identities it
    does not touch: the counts are products over the cards, with no hand listed.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose single hints are judged.

    Returns
    -------
    pandas.DataFrame
        A row per hint: hint, legal_in_hands, hands (all possible hands) and status
        ("always", "sometimes" or "never").

    Raises
    ------
    ValueError
        If `table` is not a valid table (`as_table`).

    Examples
    --------
    The post's example has 4 x 2 x 2 x 1 = 16 hands: red is valid in all, blue in none.

    >>> validity = hint_validity(example_table())
    >>> validity.hint.tolist()
    ['Red', 'White', 'Yellow', 'Green', 'Blue']
    >>> validity.legal_in_hands.tolist(), validity.status.tolist()
    ([16, 10, 13, 10, 0], ['always', 'sometimes', 'sometimes', 'sometimes', 'never'])

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018): 'red is definitely valid', 'blue is
    definitely not'.
    """
    table = as_table(table)
    hands = math.prod(len(card) for card in table.cards)
    rows = []
    for hint in table.hints:
        missed = math.prod(sum(hint not in i for i in card) for card in table.cards)
        legal = hands - missed
        status = "always" if legal == hands else "never" if legal == 0 else "sometimes"
        rows.append({"hint": hint, "legal_in_hands": legal, "hands": hands, "status": status})
    return pd.DataFrame(rows)


def fewest_legal_hints(table: HintTable) -> tuple[int, tuple[Identity, ...]]:
    """The fewest valid hints any possible hand has, and such a hand (odwyer2018's bound).

    Parts are disjoint and each holds a valid hint, so this bounds every partition. A hand
    whose valid hints all lie in T exists exactly when the complement of T is not sure, so
    the answer is H minus the size of the largest subset of hints that is not sure.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`), at most `MAX_HINTS` hints.

    Returns
    -------
    tuple of (int, tuple of Identity)
        The number of valid hints, and a hand (an identity per card) with no more.

    Raises
    ------
    ValueError
        If `table` is not a valid table, or too large for `sure_masks`.

    Examples
    --------
    In the post's example some hand leaves only two valid hints (red, yellow), so no partition
    has more than two parts: the post's answer of two is maximum.

    >>> count, hand = fewest_legal_hints(example_table())
    >>> count, [sorted(identity) for identity in hand]
    (2, [['Red'], ['Yellow'], ['Yellow'], ['Red']])

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), the argument that its partition is
    maximal.
    """
    table = as_table(table)
    sure = sure_masks(table)
    full = bitsets.full(len(table.hints))
    unsure = [m for m in range(full + 1) if not sure[m]]
    allowed = full & ~max(unsure, key=lambda m: (m.bit_count(), -m))
    hand = tuple(min((i for i in card if hint_mask(table, i) & ~allowed == 0),
                     key=lambda i: hint_mask(table, i)) for card in table.cards)
    return allowed.bit_count(), hand


def first_fit_rows(table: HintTable) -> list[int]:
    """odwyer2018, 'once we find our maximal disjoint set': rows taken top to bottom while disjoint.

    The result is maximal (no row can be added) but need not be maximum.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        A colour-only table of possibilities (`as_table`), rows read from the top.

    Returns
    -------
    list of int
        The rows taken, as bit masks (`row_masks`).

    Raises
    ------
    ValueError
        If the table is not colour-only (a card has a two-hint identity).

    Examples
    --------
    Read from the top, the post's example takes its newest row (red to green, mask 15) and then
    nothing more: maximal, but `packing_brute` finds two disjoint rows.

    >>> first_fit_rows(example_table())
    [15]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'once we find our maximal disjoint set'.
    """
    chosen: list[int] = []
    taken = 0
    for row in row_masks(as_table(table), "first fit over rows"):
        if not row & taken:
            chosen.append(row)
            taken |= row
    return chosen
