"""The rules of Hanabi and its moves: the cards, the hints, the rules a game is played under.

This module holds the cards (`card_name`, `card_of`, `DECK`), the hints (`HINTS`, `touches`),
the rules a game is played under (`Rules`, `cox_rules`) and the moves (`Move`); the game
engine that deals and plays them (a seeded deal, legal moves, turns, the end and the score:
`Game`, its `Turn`s and each player's `View`) is `game`.

The standard game (the rules that come in the box, as Cox et al. 2015 and the simulators
hanabi.rs and Quuxplusone/Hanabi state them): 50 cards, five colours with three 1s, two each
of 2-4 and one 5; hands of 5 cards with 2-3 players, 4 with 4-5; 8 hint tokens and 3 fuses.
On a turn a player either

- **hints** a teammate (costs a token; names one colour or one value and points at *every*
  card of it in that hand; a hint must touch at least one card),
- **discards** a card (returns a token; not allowed while all tokens are in hand), or
- **plays** a card: it goes on its colour's firework if it is the next value there (a played
  5 returns a token), otherwise it is discarded and burns a fuse.

A played or discarded card is replaced from the deck while cards remain. The game ends when
the last fuse burns, when all 25 cards are played, or when every player, the one who drew the
last card included, has played one more turn after the deck ran out. The score is the cards
played; under the stricter convention a game that burns its last fuse scores 0 (`score_zero`).

A hand is a tuple of cards, oldest first: a new card goes to the end, later cards move down
one slot when a card leaves. A card is an integer 5 * colour + (value - 1), colours in the
order of `model.COLOURS`; `card_name(12)` is 'Y3'. `Rules` varies the counts (`cox_rules()`:
the simulator of Cox et al., where the game ends at the fourth misplay and discarding is
allowed with all tokens in hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from .. import checks
from .model import COLOURS, COPIES, VALUES

__all__ = [
    "CARDS", "DECK", "HINTS", "PERFECT", "Move", "Rules", "as_rules", "card_name", "card_of",
    "cox_rules", "touches",
]

CARDS = len(COLOURS) * len(VALUES)  # 25 identities
HINTS: tuple[str, ...] = COLOURS + VALUES  # the ten hints a player can name
PERFECT = CARDS  # every firework complete
DECK: tuple[int, ...] = tuple(5 * c + v for c in range(5) for v in range(5)
                              for _ in range(COPIES[v + 1]))
MIN_PLAYERS, MAX_PLAYERS = 2, 5
Kind = Literal["play", "discard", "hint"]


def card_name(card: int) -> str:
    """'R1' for the red 1: the colour's initial and the value.

    Parameters
    ----------
    card : int
        A card identity, 5 * colour + (value - 1), colours in the order of `model.COLOURS`.

    Returns
    -------
    str
        The colour's initial and the value.

    Raises
    ------
    ValueError
        If `card` is not an identity from 0 to 24.

    Examples
    --------
    >>> card_name(0), card_name(12), card_name(24)
    ('R1', 'Y3', 'B5')

    References
    ----------
    The cards of the Hanabi post (source document 003, the possibility table).
    """
    card = checks.integer(card, "card", low=0, high=CARDS - 1)
    return f"{COLOURS[card // 5][0]}{card % 5 + 1}"


def card_of(name: str) -> int:
    """The card named 'R1' (colour initial and value), the inverse of `card_name`.

    Parameters
    ----------
    name : str
        A colour initial (R, W, Y, G, B) and a value 1 to 5.

    Returns
    -------
    int
        The card identity, 5 * colour + (value - 1).

    Raises
    ------
    ValueError
        If `name` is not of that form.

    Examples
    --------
    >>> card_of("Y3")
    12
    >>> all(card_of(card_name(c)) == c for c in range(25))
    True

    References
    ----------
    The cards of the Hanabi post (source document 003, the possibility table).
    """
    name = checks.text(name, "name")
    initials = [c[0] for c in COLOURS]
    if len(name) != 2 or name[0] not in initials or name[1] not in VALUES:
        raise ValueError(f"a card is named by a colour initial ({', '.join(initials)}) and a "
                         f"value 1-5, like 'R1'; got {name!r}")
    return 5 * initials.index(name[0]) + int(name[1]) - 1


def touches(hint: str, card: int) -> bool:
    """Does the hint (a colour or a value name) point at the card?

    Parameters
    ----------
    hint : str
        One of `HINTS`: a colour name ("Red") or a value ("3").
    card : int
        A card identity, 0 to 24.

    Returns
    -------
    bool
        True when the card has that colour or that value.

    Raises
    ------
    ValueError
        If the hint or the card is not one.

    Examples
    --------
    >>> touches("Yellow", card_of("Y3")), touches("3", card_of("Y3")), touches("4", card_of("Y3"))
    (True, True, False)

    References
    ----------
    The rules of a hint: the Hanabi post (source document 003) and Cox et al. (2015), Section 2.
    """
    hint = checks.choice(hint, "hint", HINTS)
    card = checks.integer(card, "card", low=0, high=CARDS - 1)
    if hint in COLOURS:
        return COLOURS.index(hint) == card // 5
    return VALUES.index(hint) == card % 5


@dataclass(frozen=True)
class Rules:
    """The counts of a game: players, hint tokens, fuses, and whether a full hand of tokens
    may still discard.

    Parameters
    ----------
    players : int
        Players, 2 to 5; the hand size follows (`hand_size`: 5 cards with 2-3 players, 4 with
        4-5).
    hint_tokens : int
        Hint tokens at the start and at most, 1 to 99 (8 in the box).
    fuses : int
        Fuses: each misplay burns one, and the game ends when the last burns (3 in the box).
    discard_at_max_tokens : bool
        Whether a player may discard while all tokens are in hand (not in the box's rules).

    Raises
    ------
    ValueError
        If `players` is not 2 to 5, a count is out of range or not an integer, or
        `discard_at_max_tokens` is not a bool.

    Examples
    --------
    >>> Rules(4).hand_size, Rules(4).hint_tokens, Rules(4).fuses
    (4, 8, 3)
    >>> Rules(6)
    Traceback (most recent call last):
    ...
    ValueError: Hanabi is played by 2 to 5 players, got 6

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """

    players: int
    hint_tokens: int = 8
    fuses: int = 3
    discard_at_max_tokens: bool = False

    def __post_init__(self) -> None:
        if checks.integer(self.players, "players") not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise ValueError(f"Hanabi is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"got {self.players}")
        checks.integer(self.hint_tokens, "hint_tokens", low=1, high=99)
        checks.integer(self.fuses, "fuses", low=1, high=99)
        checks.boolean(self.discard_at_max_tokens, "discard_at_max_tokens")

    @property
    def hand_size(self) -> int:
        """5 cards with 2-3 players, 4 with 4-5."""
        return 5 if self.players <= 3 else 4


def as_rules(rules: Rules | int) -> Rules:
    """The rules given, or the standard rules for a player count.

    Parameters
    ----------
    rules : Rules or int
        A `Rules`, or a number of players from 2 to 5.

    Returns
    -------
    Rules
        `rules` itself, or ``Rules(rules)``.

    Raises
    ------
    ValueError
        If the number of players is not 2 to 5 (an `ArgumentTypeError` if it is no number).

    Examples
    --------
    >>> as_rules(3).hand_size, as_rules(4).hand_size
    (5, 4)
    >>> as_rules(cox_rules(5)).fuses
    4

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, bool) or not isinstance(rules, (int, np.integer)):
        raise checks.ArgumentTypeError(f"rules must be a Rules or a player count, got {rules!r}")
    return Rules(int(rules))


def cox_rules(players: int = 5) -> Rules:
    """The rules of Cox et al.'s simulator: the fourth misplay ends the game, and a player may
    discard with all tokens in hand.

    Parameters
    ----------
    players : int
        Players, 2 to 5.

    Returns
    -------
    Rules
        Four fuses, discarding allowed with all tokens in hand.

    Raises
    ------
    ValueError
        If `players` is not 2 to 5.

    Examples
    --------
    >>> rules = cox_rules()
    >>> rules.players, rules.fuses, rules.discard_at_max_tokens
    (5, 4, True)

    References
    ----------
    Cox et al. (2015), the rules of their simulator HanSim.
    """
    return Rules(players, fuses=4, discard_at_max_tokens=True)


@dataclass(frozen=True)
class Move:
    """One move: play or discard the card in `slot`, or hint `target` about `hint`.

    Made by `Move.play`, `Move.discard`, `Move.give` or `Move.from_code`; `code` writes it in a
    few characters.

    Parameters
    ----------
    kind : {"play", "discard", "hint"}
        What the move does.
    slot : int
        The hand's slot played or discarded (0 = oldest card); -1 for a hint.
    target : int
        The player hinted; -1 for a play or a discard.
    hint : str
        The colour or value named (one of `HINTS`); "" for a play or a discard.

    Raises
    ------
    ValueError
        If `kind` is unknown, a hint has no target or names no colour or value, or a play or
        discard has no slot.

    Examples
    --------
    >>> move = Move.give(1, "Red")
    >>> str(move), move.code, Move.from_code("h1:Red") == move
    ('hint player 1: Red', 'h1:Red', True)
    >>> Move.from_code("d3")
    Move(kind='discard', slot=3, target=-1, hint='')

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """

    kind: Kind
    slot: int = -1
    target: int = -1
    hint: str = ""

    def __post_init__(self) -> None:
        checks.choice(self.kind, "kind", ("play", "discard", "hint"))
        checks.integer(self.slot, "slot", low=-1)
        checks.integer(self.target, "target", low=-1)
        checks.text(self.hint, "hint")
        if self.kind == "hint":
            checks.choice(self.hint, "hint", HINTS)
            if self.target < 0:
                raise ValueError("a hint needs a target player")
        elif self.slot < 0:
            raise ValueError(f"a {self.kind} needs a slot of the hand (0 = oldest card)")

    @classmethod
    def play(cls, slot: int) -> Move:
        """Play the card in `slot`."""
        return cls("play", slot=slot)

    @classmethod
    def discard(cls, slot: int) -> Move:
        """Discard the card in `slot`."""
        return cls("discard", slot=slot)

    @classmethod
    def give(cls, target: int, hint: str) -> Move:
        """Hint player `target` about a colour or a value."""
        return cls("hint", target=target, hint=hint)

    def __str__(self) -> str:
        if self.kind == "hint":
            return f"hint player {self.target}: {self.hint}"
        return f"{self.kind} slot {self.slot}"

    @property
    def code(self) -> str:
        """The move in a few characters: 'p0' (play slot 0), 'd3' (discard), 'h2:Red' (hint)."""
        if self.kind == "hint":
            return f"h{self.target}:{self.hint}"
        return f"{self.kind[0]}{self.slot}"

    @classmethod
    def from_code(cls, code: str) -> Move:
        """The move written `code` ('p0', 'd3', 'h2:Red', 'h1:5'), the inverse of `Move.code`."""
        code = checks.text(code, "code")
        kind, rest = code[:1], code[1:]
        target, colon, hint = rest.partition(":")
        if kind in ("p", "d") and rest.isdecimal() and rest.isascii():
            return cls("play" if kind == "p" else "discard", slot=int(rest))
        if kind == "h" and colon and target.isdecimal() and target.isascii() and hint in HINTS:
            return cls.give(int(target), hint)
        raise ValueError(f"a move code is p<slot>, d<slot> or h<player>:<hint> (a hint among "
                         f"{', '.join(HINTS)}), like 'p0' or 'h2:Red'; got {code!r}")
