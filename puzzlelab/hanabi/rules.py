"""The rules of Hanabi, played: a seeded deal, legal moves, turns, the end and the score.

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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Literal

import numpy as np

from .. import checks
from .model import COLOURS, COPIES, VALUES

__all__ = [
    "CARDS", "DECK", "HINTS", "PERFECT", "Game", "Move", "Rules", "Turn", "View", "as_rules",
    "card_name", "card_of", "cox_rules", "dealt_deck", "touches",
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
