"""Cards as small ints (group6_kemps2023, Section 2.1): card c has value c >> 2 and suit c & 3."""

from __future__ import annotations

import functools
import itertools
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .. import checks

__all__ = ["FACE", "FULL", "HAND_SIZE", "PLAYERS", "SUITS", "TABLE_SIZE", "Deck", "make_deck"]

SUITS = "♥♦♣♠"
FACE = {1: "A", 11: "J", 12: "Q", 13: "K"}  # report 2.1: Ace, Jack, Queen, King are 1, 11, 12, 13
HAND_SIZE, TABLE_SIZE, PLAYERS = 4, 6, 3
FULL = range(1, 14)  # the standard 52-card deck
"""The standard 52-card deck: face values 1 (Ace) to 13 (King), the default of `make_deck`."""
_SUIT_LETTERS = {"h": 0, "d": 1, "c": 2, "s": 3}


@dataclass(frozen=True)
class Deck:
    """The card values in play: card c (0 <= c < 4 * len(values)) has face value values[c >> 2]
    and suit c & 3.

    Parameters
    ----------
    values : iterable of int
        Distinct face values 1..13 (1 = Ace, 11..13 = J, Q, K), enough for three hands of four
        and a table of six (at least 5 values); stored sorted.

    Attributes
    ----------
    values : tuple of int
        The sorted face values (`n` cards, `m` values: the properties below).
    
    Raises
    ------
    ValueError
        If the values are not integers, not distinct, outside 1..13, or too few to deal.

    Examples
    --------
    >>> deck = Deck(range(2, 7))  # the 20 cards 2..6 of four suits
    >>> deck.n, deck.name(0), deck.name(19), deck.card("5d"), deck.names([0, 1, 2, 3])
    (20, '2♥', '6♠', 13, '2♥,2♦,2♣,2♠')
    >>> Deck(range(2, 6))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: deck too small to deal: 16 cards, but 3 hands of 4 and a table of 6 need 18 ...

    References
    ----------
    The cards of group6_kemps2023 (the Kemps report, source document 002), Section 2.1.
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", _deck_values(self.values))

    @property
    def n(self) -> int:
        """Number of cards."""
        return 4 * len(self.values)

    @property
    def m(self) -> int:
        """Number of values."""
        return len(self.values)

    def _card(self, card: object) -> int:
        return checks.integer(card, "card", low=0, high=self.n - 1)

    def value(self, card: int) -> int:
        """The face value of `card` (2..10, 1 = Ace, 11..13 = J, Q, K)."""
        return self.values[self._card(card) >> 2]

    def value_label(self, v: int) -> str:
        """The label of value index `v`, e.g. 'A', '7', 'Q'."""
        face = self.values[checks.integer(v, "value index", low=0, high=self.m - 1)]
        return FACE.get(face, str(face))

    def name(self, card: int) -> str:
        """A card as the report writes it, e.g. '5♦'."""
        c = self._card(card)
        return self.value_label(c >> 2) + SUITS[c & 3]

    def names(self, cards: Iterable[int]) -> str:
        """Cards as a comma-separated string, in the order given."""
        return ",".join(self.name(c) for c in checks.integers(cards, "cards"))

    def card(self, text: str) -> int:
        """Parse '5♦' (or '5d', '10s', 'Qh') back into a card id."""
        text = checks.text(text, "card text").strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        label, suit = text[:-1].upper(), text[-1]
        s = SUITS.find(suit) if suit in SUITS else _SUIT_LETTERS.get(suit.lower(), -1)
        faces = {name: v for v, name in FACE.items()}
        v = faces.get(label, int(label) if label.isdigit() and len(label) <= 2 else None)
        if s < 0 or v not in self.values:
            raise ValueError(f"not a card of this deck: {text!r}")
        return 4 * self.values.index(v) + s


def _deck_values(deck: object) -> tuple[int, ...]:
    """The sorted card values of `deck`, each an integer 1..13, distinct, enough to deal."""
    if isinstance(deck, (str, bytes, Mapping)) or not isinstance(deck, Iterable):
        raise checks.ArgumentTypeError(
            f"deck must be a range of card values such as range(2, 7), got {deck!r}")
    values = list(itertools.islice(iter(deck), 14))
    if len(values) > 13:
        raise ValueError(f"deck values must be distinct values in 1..13, got {len(values)} values")
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
        raise checks.ArgumentTypeError(
            f"deck values must be integers 1..13 (Ace = 1, King = 13), got {values!r}")
    values = sorted(checks.integers(values, "deck", low=1, high=13))
    if len(set(values)) != len(values):
        raise ValueError(f"deck values must be distinct, got {tuple(values)}")
    needed = PLAYERS * HAND_SIZE + TABLE_SIZE
    if 4 * len(values) < needed:
        raise ValueError(
            f"deck too small to deal: {4 * len(values)} cards, but 3 hands of 4 and a table of 6 "
            f"need {needed} (use 5 or more values)")
    return tuple(values)


def make_deck(deck: Iterable[int] | Deck = FULL) -> Deck:
    """The Deck of a value range such as range(2, 7) (20 cards); ValueError/TypeError if unusable.

    Parameters
    ----------
    deck : iterable of int or Deck
        The face values (default `FULL`, the 52-card deck), or a Deck, returned as it is.

    Returns
    -------
    Deck
        The deck (one object per range: ranges are checked once and cached).

    Raises
    ------
    ValueError
        If the values are not distinct integers 1..13 or too few to deal (a wrong kind of value
        raises `checks.ArgumentTypeError`, both a TypeError and a ValueError).

    Examples
    --------
    >>> make_deck().n, make_deck(range(2, 9)).values
    (52, (2, 3, 4, 5, 6, 7, 8))
    >>> make_deck(range(2, 9)) is make_deck(range(2, 9))
    True

    References
    ----------
    group6_kemps2023 (source document 002), Section 2.1.
    """
    if isinstance(deck, Deck):
        return deck
    if isinstance(deck, range):
        return _range_deck(deck)
    return Deck(_deck_values(deck))


@functools.lru_cache(maxsize=None)
def _range_deck(deck: range) -> Deck:
    """The Deck of a range of values, checked once per range."""
    return Deck(_deck_values(deck))
