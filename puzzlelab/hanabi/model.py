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
    """Public knowledge about a hand (odwyer2018): the hint names and each card's identities.

    Parameters
    ----------
    hints : tuple of str
        The hint names (columns of the post's table), distinct, 1 to `MAX_HINTS` of them.
    cards : tuple of Card
        Per card, the identities it may still have, each a non-empty set of names from `hints`.
    card_names : tuple of str
        A name per card (rows of the table). The property `masks` gives each card's
        identities as bit masks.

    Raises
    ------
    ValueError
        If there is no hint or more than `MAX_HINTS`, hint names repeat, there is no card, the
        card names do not match the cards in number, or a card has no identity or one naming an
        unknown hint.

    Examples
    --------
    The post's example: its oldest card can only be red, its newest anything but blue.

    >>> rows = [[1, 1, 1, 1, 0], [1, 0, 0, 0, 0]]
    >>> table = possibility_table(rows, card_names=["Newest", "Oldest"])
    >>> table.masks
    ((1, 2, 4, 8), (1,))
    >>> table.to_frame().loc["Oldest"].tolist()
    [1, 0, 0, 0, 0]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), its table of possibilities.
    """

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
        """Each card's identities as bit masks over `hints` (bit i: `hints[i]`), sorted.

        Examples
        --------
        A red 1 (Red: bit 0, "1": bit 5) or a blue 2 (Blue: bit 4, "2": bit 6):

        >>> hanabi_table([[("Red", 1), ("Blue", 2)]]).masks
        ((33, 80),)
        """
        bit = {h: 1 << i for i, h in enumerate(self.hints)}
        return tuple(tuple(sorted(sum(bit[h] for h in identity) for identity in card))
                     for card in self.cards)

    def to_frame(self) -> pd.DataFrame:
        """A 0/1 view: which hints could touch each card (the post's table of possibilities).

        Returns
        -------
        pandas.DataFrame
            A row per card (indexed by `card_names`), a column per hint, 1 where some identity of
            the card is touched by the hint.

        Examples
        --------
        >>> hanabi_table([[("Red", 1), ("Blue", 1)]]).to_frame().loc["card 1"].tolist()
        [1, 0, 0, 0, 1, 1, 0, 0, 0, 0]
        """
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

    Parameters
    ----------
    rows : sequence of sequence of int, or pandas.DataFrame
        A 0/1 row per card: 1 where the card may have that hint's colour.
    hints : sequence of str, optional
        The column names; `COLOURS` by default.
    card_names : sequence of str, optional
        The row names; "card 1", "card 2", ... by default.

    Returns
    -------
    HintTable
        Each card with one single-hint identity per 1 in its row.

    Raises
    ------
    ValueError
        If there is no row, a row's length differs from the number of hints, a row holds values
        other than 0/1 or no 1 at all, the hints are empty, repeated or more than `MAX_HINTS`,
        the card names do not match the rows, or a DataFrame comes with `hints` or `card_names`.

    Examples
    --------
    The post's first row: the newest card may be red, white, yellow or green, not blue.

    >>> table = possibility_table([[1, 1, 1, 1, 0]])
    >>> table.card_names, sorted(next(iter(i)) for i in table.cards[0])
    (('card 1',), ['Green', 'Red', 'White', 'Yellow'])

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), its first table of possibilities.
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
    """`table` as a HintTable: a HintTable itself, or one built from a DataFrame or 0/1 rows.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        A table in any of the forms the public functions accept (rows: `possibility_table`).
    name : str
        The argument's name, for the error message.

    Returns
    -------
    HintTable
        `table` itself if it is one, else the colour-only table its rows describe.

    Raises
    ------
    ValueError
        If `table` is none of these kinds (an `ArgumentTypeError`), or its rows are not a
        valid possibility table (`possibility_table`).

    Examples
    --------
    >>> as_table([[1, 0, 0, 0, 0]]).hints
    ('Red', 'White', 'Yellow', 'Green', 'Blue')
    >>> from puzzlelab.hanabi.source import example_table
    >>> table = example_table()
    >>> as_table(table) is table
    True

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), its table of possibilities.
    """
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
    """A full-Hanabi table: each card a collection of possible (colour, value) identities.

    A hint names a colour or a value, so the table's hints are the five colours and the five
    values, and each identity is touched by two of them.

    Parameters
    ----------
    cards : sequence of collections of (str, str or int)
        Per card, the (colour, value) pairs it may be, e.g. `[("Red", 1), ("Red", 2)]`.
    card_names : sequence of str, optional
        The row names; "card 1", "card 2", ... by default.

    Returns
    -------
    HintTable
        Hints `COLOURS + VALUES`; each identity the set {colour, value}.

    Raises
    ------
    ValueError
        If there is no card, a card is empty or not a collection of pairs, a pair names an
        unknown colour or a value outside 1-5, or the card names do not match the cards.

    Examples
    --------
    A card known to be a red 1 or a red 2: "Red" surely touches it, "1" only maybe.

    >>> table = hanabi_table([[("Red", 1), ("Red", 2)]])
    >>> row = table.to_frame().loc["card 1"]
    >>> row[row == 1].index.tolist()
    ['Red', '1', '2']

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), which hints colours only; the game's
    hints by colour or value: Cox et al. (2015), Section 2.
    """
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
    """The table seen through the hints in `keep` only (e.g. colours only).

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table (`as_table`).
    keep : sequence of str
        The hint names kept, in any order; the result keeps the table's order.

    Returns
    -------
    HintTable
        Each identity cut down to its hints in `keep`.

    Raises
    ------
    ValueError
        If `keep` names a hint the table does not have, or some identity of a card has no hint
        in `keep` (the card would have an identity no kept hint can touch).

    Examples
    --------
    A red 1, red 2 or blue 1 seen through colours: red or blue.

    >>> table = hanabi_table([[("Red", 1), ("Red", 2), ("Blue", 1)]])
    >>> project(table, COLOURS).to_frame().loc["card 1"].tolist()
    [1, 0, 0, 0, 1]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018) hints colours only: the full game's
    table projected on `COLOURS`.
    """
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
    """The bit mask over `table.hints` of a set of hint names.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table whose hint order sets the bits (bit i: `table.hints[i]`).
    part : iterable of str
        Hint names.

    Returns
    -------
    int
        The sum of `1 << i` over the hints of `part`.

    Raises
    ------
    ValueError
        If `part` is not a collection of names or names a hint the table does not have.

    Examples
    --------
    >>> from puzzlelab.hanabi.source import example_table
    >>> hint_mask(example_table(), ["Red", "Blue"])  # bits 0 and 4
    17

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018): parts of the hints, here as bit sets.
    """
    table = as_table(table)
    if isinstance(part, (str, bytes)) or not isinstance(part, Iterable):
        raise ArgumentTypeError(f"part must be a set of hint names, got {part!r}")
    index = {h: i for i, h in enumerate(table.hints)}
    names = [checks.text(h, "hint") for h in part]
    if unknown := [h for h in names if h not in index]:
        raise ValueError(f"unknown hint {unknown[0]!r}; hints are {list(table.hints)}")
    return bitsets.from_bits(index[h] for h in names)


def hint_names(table: HintTable, mask: int) -> list[str]:
    """The hint names of a bit mask over `table.hints`.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table whose hint order gives the bits their names.
    mask : int
        A bit mask, 0 to 2^H - 1 for H hints.

    Returns
    -------
    list of str
        The names of the set bits, in the table's order (the inverse of `hint_mask`).

    Raises
    ------
    ValueError
        If `mask` is not an integer in that range.

    Examples
    --------
    >>> from puzzlelab.hanabi.source import example_table
    >>> hint_names(example_table(), 17)
    ['Red', 'Blue']

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018): parts of the hints, here as bit sets.
    """
    table = as_table(table)
    mask = checks.integer(mask, "mask", low=0, high=bitsets.full(len(table.hints)))
    return [table.hints[b] for b in bitsets.bits(mask)]


def row_masks(table: HintTable, what: str = "a row view") -> list[int]:
    """Each card's row of the table as one bit mask (colour-only tables: one hint per identity).

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        A colour-only table (every identity a single hint).
    what : str
        What needs the rows, for the error message.

    Returns
    -------
    list of int
        Per card, the union of its identities' masks: its 0/1 row read as bits.

    Raises
    ------
    ValueError
        If a card has an identity of two hints (a full-Hanabi table).

    Examples
    --------
    The post's example, newest card first: red to green (15), white or yellow (6), yellow or
    green (12), red (1).

    >>> from puzzlelab.hanabi.source import example_table
    >>> row_masks(example_table())
    [15, 6, 12, 1]

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), the rows of its table of
    possibilities.
    """
    table = as_table(table)
    what = checks.text(what, "what")
    rows = []
    for name, card in zip(table.card_names, table.masks):
        if any(identity & (identity - 1) for identity in card):
            raise ValueError(f"{what} needs a colour-only table; card {name!r} has "
                             f"two-hint identities")
        rows.append(bitsets.union(card))
    return rows
