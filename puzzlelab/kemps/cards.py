"""Cards as small ints (Kemps report, Section 2.1): card c has value index c >> 2 and suit c & 3."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SUITS = "♥♦♣♠"
SUIT_NAMES = ("hearts", "diamonds", "clubs", "spades")
FACE = {1: "A", 11: "J", 12: "Q", 13: "K"}  # report 2.1: Ace, Jack, Queen, King are 1, 11, 12, 13
HAND_SIZE, TABLE_SIZE, PLAYERS = 4, 6, 3
FULL = range(1, 14)  # the standard 52-card deck


@dataclass(frozen=True)
class Deck:
    """The card values in play; card c (0 <= c < 4 * len(values)) is value values[c >> 2], suit c & 3."""

    values: tuple[int, ...]

    @property
    def n(self) -> int:
        return 4 * len(self.values)

    @property
    def m(self) -> int:
        return len(self.values)

    def value(self, card: int) -> int:
        """The face value of `card` (2..10, 1 = Ace, 11..13 = J, Q, K)."""
        return self.values[card >> 2]

    def value_label(self, v_index: int) -> str:
        """The label of value index `v_index`, e.g. 'A', '7', 'Q'."""
        v = self.values[v_index]
        return FACE.get(v, str(v))

    def name(self, card: int) -> str:
        """A card as the report writes it, e.g. '5♦'."""
        return self.value_label(card >> 2) + SUITS[card & 3]

    def names(self, cards: Iterable[int]) -> str:
        """Cards as a comma-separated string, in the order given."""
        return ",".join(self.name(c) for c in cards)

    def card(self, text: str) -> int:
        """Parse '5♦' (or '5d', '10s', 'Qh') back into a card id."""
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        label, suit = text[:-1], text[-1]
        letters = {"h": 0, "d": 1, "c": 2, "s": 3}
        s = SUITS.find(suit) if suit in SUITS else letters.get(suit.lower(), -1)
        faces = {name: v for v, name in FACE.items()}
        v = faces.get(label.upper()) if label.upper() in faces else (int(label) if label.isdigit() else None)
        if s < 0 or v not in self.values:
            raise ValueError(f"not a card of this deck: {text!r}")
        return 4 * self.values.index(v) + s


def make_deck(deck: Iterable[int] | Deck = FULL) -> Deck:
    """Validate a value range such as range(2, 7) (20 cards) and return the Deck; ValueError if unusable."""
    if isinstance(deck, Deck):
        return deck
    try:
        values = tuple(sorted(int(v) for v in deck))
    except (TypeError, ValueError):
        raise ValueError(f"deck must be a range of card values such as range(2, 7), got {deck!r}") from None
    if len(set(values)) != len(values):
        raise ValueError(f"deck values must be distinct, got {values}")
    if any(v < 1 or v > 13 for v in values):
        raise ValueError(f"deck values must lie in 1..13 (Ace = 1, King = 13), got {values}")
    needed = PLAYERS * HAND_SIZE + TABLE_SIZE
    if 4 * len(values) < needed:
        raise ValueError(
            f"deck too small to deal: {4 * len(values)} cards, but 3 hands of 4 and a table of 6 "
            f"need {needed} (use 5 or more values)"
        )
    return Deck(values)
