"""Public knowledge about a Hanabi hand as a possibility table (odwyer2018): hints, cards, checks.

A *card* is the set of identities it may still have; an *identity* is the set of hints that
would touch it: ``{"Red"}`` when only colours are hinted (as in the post), ``{"Red", "3"}``
in full Hanabi, where a card is hinted by its colour or by its value. Cards are independent,
as in the post's table of possibilities. Every public function here takes a `HintTable`, a
0/1 DataFrame (columns = hints, index = cards) or nested lists of 0/1 rows (`as_table`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .. import bitsets, checks
from ..checks import ArgumentTypeError

__all__ = [
    "COLOURS", "COPIES", "MAX_HINTS", "VALUES", "Card", "HintTable", "Identity", "as_table",
    "hanabi_table", "hint_mask", "hint_names", "possibility_table", "project", "row_masks",
]

COLOURS: tuple[str, ...] = ("Red", "White", "Yellow", "Green", "Blue")
VALUES: tuple[str, ...] = ("1", "2", "3", "4", "5")
COPIES: dict[int, int] = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}  # copies of each value per colour
MAX_HINTS = 20  # the solvers walk the 2^H subsets of hints

Identity = frozenset  # of hint names
Card = frozenset  # of identities

_TABLE_KINDS = ("a HintTable, a 0/1 DataFrame (columns = hints, index = cards) "
                "or nested lists of 0/1 rows")


def _sequence(value: object, name: str) -> list:
    """`value` as a list if it is a finite sequence (list, tuple, array), never a string."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise ArgumentTypeError(f"{name} must be a list or tuple, got {value!r}")
    return list(value)


def _names(values: object, name: str, *, distinct: bool = True) -> tuple[str, ...]:
    names = tuple(checks.text(v, f"{name}[{i}]") for i, v in enumerate(_sequence(values, name)))
    if distinct and len(set(names)) != len(names):
        raise ValueError(f"{name} must be distinct, got {list(names)}")
    return names


def _hints(hints: object) -> tuple[str, ...]:
    names = _names(hints, "hints")
    if not names:
        raise ValueError("a table needs at least one hint column")
    if len(names) > MAX_HINTS:
        raise ValueError(f"at most {MAX_HINTS} hints are supported, got {len(names)}")
    return names


def _card(value: object, name: str, known: set[str]) -> Card:
    """One card: a non-empty collection of identities, each a non-empty set of known hints."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(f"card {name!r} must be a set of identities, got {value!r}")
    identities = set()
    for identity in value:
        if isinstance(identity, (str, bytes)) or not isinstance(identity, Iterable):
            raise ArgumentTypeError(f"card {name!r}: identity {identity!r} is not a set of hints")
        hints = frozenset(identity)
        if not hints or not hints <= known:
            raise ValueError(f"card {name!r}: identity {set(hints)} is not a set of hints "
                             f"among {sorted(known)}")
        identities.add(hints)
    if not identities:
        raise ValueError(f"card {name!r} has no possible identity")
    return Card(identities)


@dataclass(frozen=True)
class HintTable:
    """Public knowledge about a hand (odwyer2018): the hint names and each card's identities."""

    hints: tuple[str, ...]
    cards: tuple[Card, ...]
    card_names: tuple[str, ...]

    def __post_init__(self) -> None:
        hints = _hints(self.hints)
        names = _names(self.card_names, "card_names", distinct=False)
        cards = _sequence(self.cards, "cards")
        if not cards:
            raise ValueError("a table needs at least one card")
        if len(names) != len(cards):
            raise ValueError(f"{len(names)} card names for {len(cards)} cards")
        known = set(hints)
        object.__setattr__(self, "hints", hints)
        object.__setattr__(self, "card_names", names)
        object.__setattr__(self, "cards", tuple(_card(c, n, known) for n, c in zip(names, cards)))

    @cached_property
    def masks(self) -> tuple[tuple[int, ...], ...]:
        """Each card's identities as bit masks over `hints`."""
        bit = {h: 1 << i for i, h in enumerate(self.hints)}
        return tuple(tuple(sorted(sum(bit[h] for h in identity) for identity in card))
                     for card in self.cards)

    def to_frame(self) -> pd.DataFrame:
        """A 0/1 view: which hints could touch each card (the post's table of possibilities)."""
        rows = [[int(any(h in i for i in card)) for h in self.hints] for card in self.cards]
        return pd.DataFrame(rows, index=list(self.card_names), columns=list(self.hints))


def _default_names(count: int, card_names: object) -> tuple[str, ...]:
    if card_names is None:
        return tuple(f"card {i + 1}" for i in range(count))
    names = _names(card_names, "card_names", distinct=False)
    if len(names) != count:
        raise ValueError(f"{len(names)} card names for {count} cards")
    return names


def _zero_one_row(row: object, name: str, width: int) -> list[int]:
    values = _sequence(row, f"row {name!r}")
    if len(values) != width:
        raise ValueError(f"row {name!r} has {len(values)} entries, expected {width} (one per hint)")
    if any(isinstance(v, (str, bytes)) or v not in (0, 1) for v in values):
        raise ValueError(f"row {name!r} has values other than 0/1: {values}")
    if not any(values):
        raise ValueError(f"row {name!r} has no possibility: every card has some colour")
    return [int(v) for v in values]


def possibility_table(
    rows: Sequence[Sequence[int]] | pd.DataFrame,
    hints: Sequence[str] | None = None,
    card_names: Sequence[str] | None = None,
) -> HintTable:
    """A colour-only table of possibilities (odwyer2018, first table) from 0/1 rows or a DataFrame.

    Nested lists take `hints` (default: the five colours) and `card_names`; a DataFrame
    brings its own (columns = hints, index = cards), so passing them as well is an error.
    """
    if isinstance(rows, pd.DataFrame):
        if hints is not None or card_names is not None:
            raise ValueError("a DataFrame names its hints (columns) and cards (index); "
                             "do not pass hints or card_names")
        hints, card_names = [str(c) for c in rows.columns], [str(i) for i in rows.index]
        rows = rows.to_numpy().tolist()
    hints = _hints(COLOURS if hints is None else hints)
    rows = _sequence(rows, "rows")
    if not rows:
        raise ValueError("a possibility table needs at least one row (card)")
    names = _default_names(len(rows), card_names)
    cards = [Card(Identity([h]) for h, v in zip(hints, _zero_one_row(row, name, len(hints))) if v)
             for name, row in zip(names, rows)]
    return HintTable(hints, tuple(cards), names)


def as_table(table: object, name: str = "table") -> HintTable:
    """`table` as a HintTable: a HintTable itself, or one built from a DataFrame or 0/1 rows."""
    checks.text(name, "name")
    if isinstance(table, HintTable):
        return table
    if isinstance(table, (pd.DataFrame, list, tuple, np.ndarray)):
        return possibility_table(table)
    raise ArgumentTypeError(f"{name} must be {_TABLE_KINDS}; got {table!r}")


def _identity(pair: object, name: str) -> Identity:
    if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
        raise ArgumentTypeError(f"card {name!r}: an identity is a (colour, value) pair, "
                                f"got {pair!r}")
    colour, value = pair
    if isinstance(value, bool) or colour not in COLOURS or str(value) not in VALUES:
        raise ValueError(f"card {name!r}: unknown identity ({colour!r}, {value!r}); colours are "
                         f"{list(COLOURS)}, values 1-5")
    return Identity([colour, str(value)])


def hanabi_table(
    cards: Sequence[Iterable[tuple[str, str | int]]], card_names: Sequence[str] | None = None
) -> HintTable:
    """A full-Hanabi table: each card a collection of possible (colour, value) identities."""
    cards = _sequence(cards, "cards")
    if not cards:
        raise ValueError("a table needs at least one card")
    names = _default_names(len(cards), card_names)
    built = []
    for name, card in zip(names, cards):
        if isinstance(card, (str, bytes)) or not isinstance(card, Iterable):
            raise ArgumentTypeError(f"card {name!r} must be a collection of (colour, value) pairs")
        built.append(Card(_identity(pair, name) for pair in card))
    return HintTable(COLOURS + VALUES, tuple(built), names)


def project(table: HintTable, keep: Sequence[str]) -> HintTable:
    """The table seen through the hints in `keep` only (e.g. colours only)."""
    table = as_table(table)
    keep_set = set(_names(keep, "keep", distinct=False))
    if unknown := keep_set - set(table.hints):
        raise ValueError(f"cannot keep unknown hints {sorted(unknown)}; "
                         f"hints are {list(table.hints)}")
    for name, card in zip(table.card_names, table.cards):
        for identity in card:
            if not identity & keep_set:
                raise ValueError(f"card {name!r}: identity {sorted(identity)} has no hint among "
                                 f"{sorted(keep_set)}")
    cards = tuple(Card(Identity(i & keep_set) for i in card) for card in table.cards)
    return HintTable(tuple(h for h in table.hints if h in keep_set), cards, table.card_names)


def hint_mask(table: HintTable, part: Iterable[str]) -> int:
    """The bit mask over `table.hints` of a set of hint names."""
    table = as_table(table)
    if isinstance(part, (str, bytes)) or not isinstance(part, Iterable):
        raise ArgumentTypeError(f"part must be a set of hint names, got {part!r}")
    index = {h: i for i, h in enumerate(table.hints)}
    names = [checks.text(h, "hint") for h in part]
    if unknown := [h for h in names if h not in index]:
        raise ValueError(f"unknown hint {unknown[0]!r}; hints are {list(table.hints)}")
    return bitsets.from_bits(index[h] for h in names)


def hint_names(table: HintTable, mask: int) -> list[str]:
    """The hint names of a bit mask over `table.hints`."""
    table = as_table(table)
    mask = checks.integer(mask, "mask", low=0, high=bitsets.full(len(table.hints)))
    return [table.hints[b] for b in bitsets.bits(mask)]


def row_masks(table: HintTable, what: str = "a row view") -> list[int]:
    """Each card's row of the table as one bit mask (colour-only tables: one hint per identity)."""
    table = as_table(table)
    what = checks.text(what, "what")
    rows = []
    for name, card in zip(table.card_names, table.masks):
        if any(identity & (identity - 1) for identity in card):
            raise ValueError(f"{what} needs a colour-only table; card {name!r} has "
                             f"two-hint identities")
        rows.append(bitsets.union(card))
    return rows
