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
    """The post's example table of colour possibilities."""
    return possibility_table([list(r) for r in EXAMPLE_ROWS], COLOURS, EXAMPLE_CARD_NAMES)


def hint_validity(table: HintTable) -> pd.DataFrame:
    """In how many possible hands is each hint valid (odwyer2018: 'red is definitely valid')?

    Cards are independent, so a hint is invalid in exactly the hands made of identities it
    does not touch: the counts are products over the cards, with no hand listed.
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
    """
    chosen: list[int] = []
    taken = 0
    for row in row_masks(as_table(table), "first fit over rows"):
        if not row & taken:
            chosen.append(row)
            taken |= row
    return chosen
