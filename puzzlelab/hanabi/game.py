"""Hanabi played: the game engine, a seeded deal (`dealt_deck`) played turn by turn under `rules`.

A `Game` deals the deck of a seed (or a stacked deck) into the hands, checks each move
against the rules (`rules.Rules`, `rules.Move`), applies it, records it as a `Turn` and ends
the game when the last fuse burns, all 25 cards are played, or every player has had one more
turn after the deck ran out; `View` is what one player sees at the start of a turn. The rules
are the standard ones as Cox et al. (2015, Section 2) and the simulators hanabi.rs and
Quuxplusone/Hanabi state them (see `rules`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from .. import checks
from .model import COLOURS
from .rules import (CARDS, DECK, HINTS, MAX_PLAYERS, PERFECT, Move, Rules, card_name, card_of,
                    touches)

__all__ = ["Game", "Turn", "View", "dealt_deck"]


@dataclass(frozen=True)
class Turn:
    """What everybody saw on one turn: the move, the card it revealed, the slots a hint touched.

    Parameters
    ----------
    turn : int
        The turn's number, from 0.
    player : int
        Who moved.
    move : Move
        The move.
    card : int
        The card played or discarded (-1 for a hint).
    success : bool
        Whether a play went on its firework.
    touched : tuple of int
        The slots a hint pointed at.
    drew : bool
        Whether a new card came from the deck into the last slot.

    Raises
    ------
    ValueError
        If a field is of the wrong kind or out of range.

    Examples
    --------
    On deal 0 with two players, player 1 holds a single red card, in slot 0:

    >>> game = Game(2, seed=0)
    >>> turn = game.apply(Move.give(1, "Red"))
    >>> turn.touched, turn.card, game.tokens
    ((0,), -1, 7)

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """

    turn: int
    player: int
    move: Move
    card: int = -1  # the card played or discarded (-1 for a hint)
    success: bool = False  # a play that went on its firework
    touched: tuple[int, ...] = ()  # the slots a hint pointed at
    drew: bool = False  # a new card came from the deck into the last slot

    def __post_init__(self) -> None:
        checks.record(self)  # each field of its kind (a move a Move, slots integers, ...)
        checks.integer(self.turn, "Turn.turn", low=0)
        checks.integer(self.player, "Turn.player", low=0, high=MAX_PLAYERS - 1)
        checks.integer(self.card, "Turn.card", low=-1, high=CARDS - 1)


@dataclass(frozen=True)
class View:
    """What `player` sees at the start of a turn: every hand but his own, and the table.

    Parameters
    ----------
    player : int
        Whose view it is.
    hand_size : int
        Cards in his own hand (which he cannot see).
    others : dict of int to tuple of int
        Every other player's hand, oldest card first.
    fireworks : tuple of int
        The height of each colour's firework.
    discards : tuple of int
        The discarded and misplayed cards.
    tokens : int
        Hint tokens left.
    fuses_left : int
        Fuses left.
    deck_left : int
        Cards left in the deck.
    history : tuple of Turn
        Every turn so far.

    Raises
    ------
    ValueError
        If a field is of the wrong kind, a count is negative, the fireworks are not one per
        colour, or `others` shows the player his own hand.

    Examples
    --------
    >>> view = Game(2, seed=0).view(1)
    >>> [card_name(card) for card in view.others[0]], view.hand_size, view.deck_left
    (['W4', 'Y2', 'G3', 'R2', 'R1'], 5, 40)

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """

    player: int
    hand_size: int
    others: dict[int, tuple[int, ...]]
    fireworks: tuple[int, ...]
    discards: tuple[int, ...]
    tokens: int
    fuses_left: int
    deck_left: int
    history: tuple[Turn, ...] = field(repr=False)

    def __post_init__(self) -> None:
        # Game.view makes one per turn and player: the kinds it makes (Python ints, tuples,
        # a dict, Turns) pass a test at C speed; any other value gets the full check by hint.
        counts = (self.player, self.hand_size, self.tokens, self.fuses_left, self.deck_left)
        if not (type(self.others) is dict and type(self.fireworks) is tuple
                and type(self.discards) is tuple and type(self.history) is tuple
                and set(map(type, (*counts, *self.fireworks, *self.discards))) <= {int}
                and all(map(isinstance, self.history, repeat(Turn)))):
            checks.record(self)  # names the field of the wrong kind
        if self.player not in range(MAX_PLAYERS) or min(counts[1:]) < 0:
            checks.integer(self.player, "View.player", low=0, high=MAX_PLAYERS - 1)
            for name in ("hand_size", "tokens", "fuses_left", "deck_left"):
                checks.integer(getattr(self, name), f"View.{name}", low=0)
        if len(self.fireworks) != len(COLOURS):
            raise ValueError(f"View.fireworks must give one height per colour "
                             f"({len(COLOURS)}), got {len(self.fireworks)}")
        if self.player in self.others:
            raise ValueError(f"View.others must not show player {self.player} his own hand")


def dealt_deck(seed: int) -> list[int]:
    """The deck of the deal `seed`, in drawing order (numpy's PCG64 permutation of `DECK`).

    Parameters
    ----------
    seed : int
        A non-negative seed; deal i of every table in data/ is `dealt_deck(i)`.

    Returns
    -------
    list of int
        The 50 cards, first drawn first.

    Raises
    ------
    ValueError
        If the seed is negative or not an integer.

    Examples
    --------
    >>> deck = dealt_deck(0)
    >>> len(deck), sorted(deck) == sorted(DECK)
    (50, True)
    >>> [card_name(c) for c in deck[:5]] == [card_name(c) for c in dealt_deck(0)[:5]]
    True

    References
    ----------
    The 50-card deck of the rules (Cox et al. 2015, Section 2).
    """
    order = np.random.default_rng(checks.seed(seed)).permutation(len(DECK))
    return [DECK[i] for i in order]


def _stacked(deck: object) -> list[int]:
    """A deck given card by card (a worked example): the 50 cards in any order."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise checks.ArgumentTypeError(f"deck must be a sequence of cards, got {deck!r}")
    cards = [card_of(c) if isinstance(c, str) else checks.integer(c, "deck[i]", low=0,
                                                                  high=CARDS - 1) for c in deck]
    if sorted(cards) != sorted(DECK):
        extra = Counter(cards) - Counter(DECK)
        short = Counter(DECK) - Counter(cards)
        raise ValueError(f"a deck holds exactly the 50 Hanabi cards; too many: "
                         f"{sorted(map(card_name, extra.elements()))}, missing: "
                         f"{sorted(map(card_name, short.elements()))}")
    return cards


class Game:
    """A game in progress: deal `seed` under `rules` (or the standard rules for a player count).

    `deck` (cards or names like 'R1', in drawing order) stacks the deck instead of the seed.

    Parameters
    ----------
    rules : Rules or int
        The rules, or a number of players (the standard rules).
    seed : int
        The deal (`dealt_deck`).
    deck : sequence of int or str, optional
        The 50 cards in drawing order, instead of the seed's deal.

    Attributes
    ----------
    hands : list of list of int
        Each player's cards, oldest first.
    fireworks : list of int
        The height of each colour's firework.
    tokens, fuses_left : int
        Hint tokens and fuses left.
    current, turn : int
        Whose turn it is, and the turn's number.
    end : str
        "" while playing; "fuses", "perfect" or "deck" once over.
    history : list of Turn
        Every turn so far.

    Raises
    ------
    ValueError
        If `rules` is neither rules nor a player count from 2 to 5, the seed is negative, or
        `deck` is not the 50 Hanabi cards.

    Examples
    --------
    On deal 0 with two players nobody may discard on the first turn (all 8 tokens are in
    hand); a red 2 played on no red firework burns a fuse.

    >>> game = Game(2, seed=0)
    >>> game.check(Move.discard(0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: illegal move 'discard slot 0' by player 0: all 8 hint tokens are in hand, ...
    >>> _ = game.apply(Move.give(1, "Red"))
    >>> turn = game.apply(Move.play(0))
    >>> card_name(turn.card), turn.success, game.fuses_left, game.score
    ('R2', False, 2, 0)

    References
    ----------
    The standard rules as Cox et al. (2015, Section 2) and the simulators state them.
    """

    def __init__(self, rules: Rules | int, seed: int = 0,
                 deck: Sequence[int | str] | None = None) -> None:
        if isinstance(rules, bool) or not isinstance(rules, (Rules, int, np.integer)):
            raise checks.ArgumentTypeError(
                f"rules must be a Rules or a player count, got {rules!r}")
        self.rules = rules if isinstance(rules, Rules) else Rules(int(rules))
        self.seed = checks.seed(seed)
        n, h = self.rules.players, self.rules.hand_size
        deck = dealt_deck(self.seed) if deck is None else _stacked(deck)
        self.hands: list[list[int]] = [deck[p * h:(p + 1) * h] for p in range(n)]
        self.deck: list[int] = deck[n * h:]  # drawn from the front
        self.fireworks = [0] * len(COLOURS)  # the height of each colour's firework
        self.discards: list[int] = []
        self.tokens, self.fuses_left = self.rules.hint_tokens, self.rules.fuses
        self.current, self.turn = 0, 0
        self.final_turns: int | None = None  # turns left once the deck is empty
        self.end = ""  # "" while playing; "fuses", "perfect" or "deck" once over
        self.history: list[Turn] = []

    # ----- what can be seen ----------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Has the game ended?"""
        return bool(self.end)

    @property
    def score(self) -> int:
        """Cards played (the score that keeps them when the last fuse burns)."""
        return sum(self.fireworks)

    @property
    def score_zero(self) -> int:
        """The score under the convention that a game losing its last fuse scores 0."""
        return 0 if self.end == "fuses" else self.score

    def view(self, player: int) -> View:
        """What `player` sees: every other hand, the fireworks, discards, tokens and history."""
        player = self._player(player, "player")
        others = {p: tuple(h) for p, h in enumerate(self.hands) if p != player}
        return View(player, len(self.hands[player]), others, tuple(self.fireworks),
                    tuple(self.discards), self.tokens, self.fuses_left, len(self.deck),
                    tuple(self.history))

    def _player(self, p: object, name: str) -> int:
        return checks.integer(p, name, low=0, high=self.rules.players - 1)

    # ----- moves ----------------------------------------------------------------------------
    def check(self, move: Move) -> None:
        """Raise a ValueError naming `move` and the rule it breaks, if it is not legal now."""
        if not isinstance(move, Move):
            raise checks.ArgumentTypeError(f"a move must be a Move, got {move!r}")
        why = self._illegal(move)
        if why:
            raise ValueError(f"illegal move '{move}' by player {self.current}: {why}")

    def _illegal(self, move: Move) -> str:
        hand = self.hands[self.current]
        if self.over:
            return f"the game is over ({self.end})"
        if move.kind == "hint":
            if not 0 <= move.target < self.rules.players:
                return f"there is no player {move.target} (players 0-{self.rules.players - 1})"
            if move.target == self.current:
                return "a player cannot hint himself"
            if self.tokens == 0:
                return "no hint token is left"
            if not any(touches(move.hint, c) for c in self.hands[move.target]):
                return f"the hint touches no card of player {move.target} (a hint must touch one)"
            return ""
        if move.slot >= len(hand):
            return f"the hand has slots 0-{len(hand) - 1}"
        if (move.kind == "discard" and self.tokens == self.rules.hint_tokens
                and not self.rules.discard_at_max_tokens):
            return f"all {self.tokens} hint tokens are in hand, so nobody may discard"
        return ""

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current player (plays, discards, then hints)."""
        if self.over:
            return []
        hand = range(len(self.hands[self.current]))
        moves = [Move.play(s) for s in hand] + [Move.discard(s) for s in hand]
        moves += [Move.give(p, h) for p in range(self.rules.players) for h in HINTS]
        return [m for m in moves if not self._illegal(m)]

    def apply(self, move: Move) -> Turn:
        """Play `move` for the current player (after `check`), and pass the turn on."""
        self.check(move)
        player, hand = self.current, self.hands[self.current]
        if move.kind == "hint":
            self.tokens -= 1
            touched = tuple(s for s, c in enumerate(self.hands[move.target])
                            if touches(move.hint, c))
            record = Turn(self.turn, player, move, touched=touched)
        else:
            card = hand.pop(move.slot)
            success = move.kind == "play" and self.fireworks[card // 5] == card % 5
            if success:
                self.fireworks[card // 5] += 1
                if card % 5 == 4:
                    self.tokens = min(self.tokens + 1, self.rules.hint_tokens)
            else:
                self.discards.append(card)
                if move.kind == "play":
                    self.fuses_left -= 1
                else:
                    self.tokens = min(self.tokens + 1, self.rules.hint_tokens)
            drew = bool(self.deck)
            if drew:
                hand.append(self.deck.pop(0))
            record = Turn(self.turn, player, move, card=card, success=success, drew=drew)
        self.history.append(record)
        self._end_turn(record)
        return record

    def _end_turn(self, record: Turn) -> None:
        if record.drew and not self.deck:
            self.final_turns = self.rules.players  # everyone plays one more turn
        elif self.final_turns is not None:
            self.final_turns -= 1
        if self.fuses_left == 0:
            self.end = "fuses"
        elif self.score == PERFECT:
            self.end = "perfect"
        elif self.final_turns == 0:
            self.end = "deck"
        self.turn += 1
        self.current = (self.current + 1) % self.rules.players
