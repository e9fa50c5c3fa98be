"""The report's simplified three-player Kemps (group6_kemps2023, Sections 1 and 2.2), seeded.

State is plain lists of small ints (see cards.py). Knowledge bases (knowledge.py) are
updated only for the seats that need them; the public announcements PICKED, DISCARDED,
KEMPS, DEALT and NEW TABLE change every knowledge base in the same way.

End of game (report Sections 1 and 2.2, made precise): a new hand cannot be dealt
("deck exhausted"), or a *proven* stalemate: no card can ever move again (see `Game.stuck`),
or our turn valve `MAX_TURNS` for games that keep moving cards without end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import checks
from . import knowledge as K
from .cards import HAND_SIZE, PLAYERS, TABLE_SIZE, Deck, make_deck

__all__ = ["MAX_TURNS", "NO_PICK_TURNS", "Game", "GameRecord", "Turn", "four_of_a_kind"]

NO_PICK_TURNS = 3  # report Section 1: new table after three turns without a pick
# our valve against endless picking back and forth (no tournament game reaches it)
MAX_TURNS = 20_000


def four_of_a_kind(hand: Sequence[int]) -> bool:
    """A full hand of one value (it scores a Kemps at the end of its owner's next turn)."""
    hand = checks.integers(hand, "hand", low=0)
    return len(hand) == HAND_SIZE and len({c >> 2 for c in hand}) == 1


@dataclass
class Turn:
    """One row of a game trace: what the player saw, what they did and why (report Tables 1-3).

    Attributes
    ----------
    turn, round : int
        The turn (from 0) and the round (from 1: a new table starts a round).
    player : int
        The seat 0..2 (the report's players 1..3).
    table, hand : tuple of int
        The table and the player's hand before the move.
    picked, discarded : tuple of int
        The cards taken from the table and those put in their places.
    why : tuple
        The reason: ('collect', value index, group size), ('block', value index, victim seat),
        ('pass',) or ('nothing',).
    kemps : int or None
        The value index of a Kemps called at the end of this turn.
    new_table : bool
        Whether the table was replaced after this turn (three turns without a pick).

    Raises
    ------
    ValueError
        If a number is negative, the seat is not 0..2, or a 'collect' or 'block' reason is
        incomplete.

    Examples
    --------
    >>> from puzzlelab.kemps import play
    >>> record = play(["greedy", "kb-greedy", "blocking"], seed=0, deck=range(2, 9))
    >>> first = record.trace[0]
    >>> first.player, record.deck.names(first.picked), record.deck.names(first.discarded), first.why
    (0, '4♥', '3♥', ('collect', 2, 3))

    References
    ----------
    The columns of Tables 1-3 of group6_kemps2023 (source document 002).
    """

    turn: int
    round: int
    player: int
    table: tuple[int, ...]
    hand: tuple[int, ...]
    picked: tuple[int, ...]
    discarded: tuple[int, ...]
    why: tuple
    kemps: int | None = None  # value index of a Kemps called at the end of this turn
    new_table: bool = False  # the table was replaced after this turn

    def __post_init__(self) -> None:
        checks.record(self)
        for name in ("turn", "round"):
            checks.integer(getattr(self, name), f"Turn.{name}", low=0)
        checks.integer(self.player, "Turn.player", low=0, high=PLAYERS - 1)
        if self.kemps is not None:
            checks.integer(self.kemps, "Turn.kemps", low=0)
        checks.integers(self.table + self.hand + self.picked + self.discarded, "Turn's cards",
                        low=0)
        _check_why(self.why)

    def check_cards(self, n: int) -> None:
        """ValueError unless every card of the turn is one of a deck of n cards."""
        checks.integers(self.table + self.hand + self.picked + self.discarded, "Turn's cards",
                        low=0, high=n - 1)


class Game:
    """Mutable game state: hands, table, deck (drawn from the end), discard pile, scores,
    knowledge.

    Usually made by `play` or `play_scores`; `step(p, picks, discards)` plays an exchange.

    Parameters
    ----------
    deck : Deck or sequence of int
        The face values in play (`make_deck`).
    seed : int
        The seed of the deal and of every reshuffle of the discard pile.
    track : sequence of bool
        For each seat, whether to keep its knowledge base (`kb[p]`).
    public : bool
        Whether to keep the public knowledge base (what everybody knows).

    Attributes
    ----------
    hands : list of list of int
        The three hands (four cards each while the game runs).
    table : list of int
        The six table cards, by position.
    pile, discard : list of int
        The undealt cards (the top is the end) and the discard pile.
    scores : list of int
        Kemps called per seat.
    turn, round, current : int
        The turn, the round and the seat to move.
    over, end
        Whether the game is over, and how it ended ("deck exhausted", "stalemate", "turn limit").

    Raises
    ------
    ValueError
        On an invalid deck, seed or `track` (not three booleans).

    Examples
    --------
    Twelve cards dealt, six on the table, the other ten in the pile:

    >>> game = Game(range(2, 9), seed=5)
    >>> [len(h) for h in game.hands], len(game.table), len(game.pile)
    ([4, 4, 4], 6, 10)
    >>> game.cards_accounted() == list(range(28))
    True

    References
    ----------
    The simplified three-player game of group6_kemps2023 (source document 002), Sections 1 and 2.2.
    """

    __slots__ = (
        "deck", "m", "n", "rng", "hands", "table", "pile", "discard", "out", "scores",
        "no_pick", "round", "turn", "current", "kb", "public", "kbs", "listeners", "over",
        "end", "reshuffles", "agents",
    )

    def __init__(self, deck: Deck | Sequence[int], seed: int,
                 track: Sequence[bool] = (False,) * PLAYERS, public: bool = False) -> None:
        self.deck = make_deck(deck)
        self.m, self.n = self.deck.m, self.deck.n
        self.rng = np.random.default_rng(checks.seed(seed))
        track = tuple(checks.boolean(t, "track[i]") for t in _three(track, "track"))
        order = self.rng.permutation(self.n).tolist()
        self.hands = [order[HAND_SIZE * p: HAND_SIZE * (p + 1)] for p in range(PLAYERS)]
        start = HAND_SIZE * PLAYERS
        self.table = order[start: start + TABLE_SIZE]
        self.pile = order[start + TABLE_SIZE:][::-1]  # the leftover deck; its top is the end
        self.discard: list[int] = []
        self.out: list[int] = []  # value indices already scored as a Kemps
        self.scores = [0] * PLAYERS
        self.no_pick, self.round, self.turn, self.current = 0, 1, 0, 0
        self.over, self.end, self.reshuffles = False, "", 0
        self.agents: list | None = None  # built-in agents only (set by play.new_game): stalemates
        self.kb = [K.UNCHECKED.initial(self.n, p, self.hands[p], self.table) if track[p] else None
                   for p in range(PLAYERS)]
        pub = checks.boolean(public, "public")
        self.public = K.UNCHECKED.initial(self.n, None, (), self.table) if pub else None
        self.kbs = [kb for kb in (*self.kb, self.public) if kb is not None]
        self.listeners: list = []

    # ----- dealing ---------------------------------------------------------------------
    def _draw(self, k: int) -> list[int] | None:
        """Take k cards from the leftover deck, reshuffling the discard pile beneath it if short."""
        if len(self.pile) < k:
            if len(self.pile) + len(self.discard) < k:
                return None
            perm = self.rng.permutation(len(self.discard)).tolist()
            self.pile = [self.discard[i] for i in perm] + self.pile
            self.discard = []
            self.reshuffles += 1
        cards = self.pile[-k:][::-1]
        del self.pile[-k:]
        return cards

    def _replace_table(self) -> None:
        """NEW TABLE: the old table goes to the discard pile, six new cards are laid out."""
        self.discard.extend(self.table)
        self.table = self._draw(TABLE_SIZE)  # never None: the old table alone refills it
        self.round += 1
        for kb in self.kbs:
            for c in self.table:
                kb[c] = K.NOBODY
        if self.agents is not None and self.stuck():
            self.over, self.end = True, "stalemate"

    def stuck(self) -> bool:
        """A proven stalemate, checked after a table change: no card will ever move again.

        While nobody picks, the hands are fixed and a knowledge base only changes when a card
        it was unsure of appears on the table. So once (1) no hand is four of a kind, (2) every
        agent that keeps a knowledge base knows every card outside the hands is with nobody,
        and (3) no agent would pick from any table that can still be laid out, nothing can
        change again. For the built-in strategies whether an agent picks depends on each
        table value separately (more cards of a value never stop a pick of it), so (3) needs
        one table per value v: as many v cards as are outside (at most 6), filled up with other
        outside cards. (By the same monotonicity, a pick from the real table implies a pick from
        its value's table, so the real table is tried first.) tests/test_kemps.py checks this
        against every possible table.
        """
        if self.agents is None or any(_full_of_one_value(h) for h in self.hands):
            return False
        if self._anyone_picks():  # the table just laid out tempts someone: the quick answer
            return False
        outside = sorted((*self.table, *self.pile, *self.discard))
        for p, agent in enumerate(self.agents):
            kb = self.kb[p]
            if agent.needs_knowledge and any(kb[c] != K.NOBODY for c in outside):
                return False
        real = self.table
        try:
            for table in _tables_by_value(outside):
                self.table = table
                if self._anyone_picks():
                    return False
        finally:
            self.table = real
        return True

    def _anyone_picks(self) -> bool:
        """Some built-in agent would pick from the current table."""
        return any(agent.choose(self, p)[0] for p, agent in enumerate(self.agents))

    def _kemps(self, p: int, v: int) -> None:
        """KEMPS: player p scores value v, the four cards leave the game, p is dealt a new hand."""
        self.scores[p] += 1
        self.out.append(v)
        for kb in self.kbs:
            K.UNCHECKED.kemps(kb, p, v)
        cards = self._draw(HAND_SIZE)
        if cards is None:
            self.hands[p] = []
            self.over, self.end = True, "deck exhausted"
            return
        self.hands[p] = cards
        for q, kb in enumerate(self.kb):
            if kb is not None:
                if q == p:
                    for c in cards:
                        kb[c] = K.HOLDER[p]
                else:
                    K.UNCHECKED.dealt(kb, p, self.table, self.discard, self.out)
        if self.public is not None:
            K.UNCHECKED.dealt(self.public, p, self.table, self.discard, self.out)

    # ----- a turn ----------------------------------------------------------------------
    def check_move(self, p: int, picks: Sequence[int], discards: Sequence[int]) -> None:
        """ValueError unless (picks, discards) is a legal exchange for player p (see notebook)."""
        if self.over:
            raise ValueError("the game is over")
        if p != self.current:
            raise ValueError(f"it is not player {p + 1}'s turn" if isinstance(p, int)
                             else f"player must be {self.current}, got {p!r}")
        picks = checks.integers(picks, "picks")
        discards = checks.integers(discards, "discards")
        if len(picks) != len(discards):
            raise ValueError(f"an exchange picks as many cards as it discards, "
                             f"got {len(picks)} and {len(discards)}")
        if len(set(picks)) != len(picks) or any(not 0 <= i < len(self.table) for i in picks):
            raise ValueError(f"picks must be distinct table positions 0..{len(self.table) - 1}, "
                             f"got {list(picks)}")
        hand = self.hands[p]
        if len(set(discards)) != len(discards) or any(c not in hand for c in discards):
            raise ValueError(f"discards must be distinct cards of player {p + 1}'s hand, "
                             f"got {list(discards)}")

    def step(self, p: int, picks: Sequence[int], discards: Sequence[int],
             trace: list[Turn] | None = None, why: tuple = ()) -> None:
        """Play player p's exchange: table[picks] go to the hand, `discards` take their places.

        The move must be legal (`check_move`); the i-th lowest discard goes to the i-th
        lowest picked position.
        """
        hand, table = self.hands[p], self.table
        if len(picks) > 1:
            picks, discards = sorted(picks), sorted(discards)
        if trace is not None:
            trace.append(Turn(self.turn, self.round, p, tuple(table), tuple(hand),
                              tuple(table[i] for i in picks), tuple(discards), why))
        if picks:
            self._exchange(p, picks, discards)
            self.no_pick = 0
        else:
            self.no_pick += 1
        if _full_of_one_value(hand):  # a Kemps at the end of the player's own turn
            if trace is not None:
                trace[-1].kemps = hand[0] >> 2
            self._kemps(p, hand[0] >> 2)
        if self.no_pick == NO_PICK_TURNS and not self.over:
            self.no_pick = 0
            self._replace_table()
            if trace is not None:
                trace[-1].new_table = True
        self.turn += 1
        self.current = (p + 1) % PLAYERS

    def _exchange(self, p: int, picks: Sequence[int], discards: Sequence[int]) -> None:
        """PICKED and DISCARDED: table[picks] go to player p's hand, `discards` (sorted like
        `picks`) take their places."""
        hand, table = self.hands[p], self.table
        if self.listeners:  # the turn's announcements reach everyone together (3.3)
            cards = tuple(table[i] for i in picks)
            for listener in self.listeners:
                listener.observe(self, p, cards)
        mine, kbs = K.HOLDER[p], self.kbs
        for i, d in zip(picks, discards):
            c = table[i]
            hand.remove(d)
            hand.append(c)
            table[i] = d
            for kb in kbs:
                kb[c] = mine  # PICKED(p, c)
                kb[d] = K.NOBODY  # DISCARDED(p, d)

    def locations(self) -> list[int]:
        """The true holder mask of every card: HOLDER[p] in player p's hand, NOBODY elsewhere."""
        loc = [K.NOBODY] * self.n
        for p, hand in enumerate(self.hands):
            for c in hand:
                loc[c] = K.HOLDER[p]
        return loc

    def cards_accounted(self) -> list[int]:
        """Every card exactly once: hands, table, deck, discard pile and scored Kemps."""
        scored = [4 * v + s for v in self.out for s in range(4)]
        return sorted([*self.hands[0], *self.hands[1], *self.hands[2], *self.table, *self.pile,
                       *self.discard, *scored])


def _full_of_one_value(hand: list[int]) -> bool:
    """four_of_a_kind without the argument check (the game's own hands)."""
    if len(hand) != HAND_SIZE:
        return False
    v = hand[0] >> 2
    return hand[1] >> 2 == v and hand[2] >> 2 == v and hand[3] >> 2 == v


def _tables_by_value(outside: list[int]) -> Iterator[list[int]]:
    """One table per value of the sorted `outside` cards: its cards of that value (at most a
    table's worth), filled up with the other outside cards."""
    groups: dict[int, list[int]] = {}
    for c in outside:
        groups.setdefault(c >> 2, []).append(c)
    for v in sorted(groups):
        table = groups[v][:TABLE_SIZE]
        for c in outside:
            if len(table) == TABLE_SIZE:
                break
            if c >> 2 != v:
                table.append(c)
        yield table


def _three(values: object, name: str) -> tuple[Any, ...]:
    """A sequence of exactly one entry per player."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise checks.ArgumentTypeError(
            f"{name} must be a sequence of {PLAYERS} entries, got {values!r}")
    if len(values) != PLAYERS:
        raise ValueError(f"{name} must have {PLAYERS} entries (one per player), got {len(values)}")
    return tuple(values)


@dataclass
class GameRecord:
    """The result of play(): who played, the seed, the deck, the final scores and the trace.

    Attributes
    ----------
    strategies : tuple of str
        The three strategies' names, by seat.
    seed : int
        The game's seed.
    deck : Deck
        The deck played.
    scores : tuple of int
        Kemps called per seat.
    turns, rounds : int
        Turns played and rounds (tables laid out).
    end : str
        "deck exhausted", "stalemate" or "turn limit".
    trace : list of Turn
        A row per turn (empty when `play` was called with `trace=False`).
    snapshots : list of dict
        With `knowledge=True`: knowledge bases, true locations, table, hands and scores before
        the first turn and after each turn.

    Raises
    ------
    ValueError
        If strategies or scores do not have three entries, a count is negative, or a trace or
        snapshot does not fit the deck.

    Examples
    --------
    >>> from puzzlelab.kemps import play
    >>> record = play(["greedy", "kb-greedy", "blocking"], 0, range(2, 9), knowledge=True)
    >>> record.turns, len(record.trace), len(record.snapshots), record.end
    (17, 17, 18, 'deck exhausted')

    References
    ----------
    The example runs of group6_kemps2023 (source document 002), Tables 1-3.
    """

    strategies: tuple[str, ...]
    seed: int
    deck: Deck
    scores: tuple[int, ...]
    turns: int
    rounds: int
    end: str
    trace: list[Turn] = field(default_factory=list)
    snapshots: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        checks.record(self)
        _three(self.strategies, "strategies")
        _three(self.scores, "scores")
        for name in ("seed", "turns", "rounds"):
            checks.integer(getattr(self, name), f"GameRecord.{name}", low=0)
        for t in self.trace:
            t.check_cards(self.deck.n)
        for snap in self.snapshots:
            _check_snapshot(snap, self.deck.n)


WHY_KINDS = {"collect": "a value index and a group size 1..4", "block": "a value index and a seat"}


def _check_why(why: tuple) -> None:
    """A move's reason as the report's columns read it: ("collect", value, size) and
    ("block", value, seat) in full; anything else (("pass",), a custom agent's) is free."""
    if not why or not isinstance(why[0], str) or why[0] not in WHY_KINDS:
        return
    if len(why) != 3:
        raise ValueError(f"a move's reason ({why[0]!r}, ...) has {WHY_KINDS[why[0]]}, "
                         f"got {why!r}")
    checks.integer(why[1], "the value of a move's reason", low=0)
    checks.integer(why[2], "the size or seat of a move's reason",
                   low=1 if why[0] == "collect" else 0,
                   high=HAND_SIZE if why[0] == "collect" else PLAYERS - 1)


SNAPSHOT_KEYS = ("turn", "kb", "truth", "hands")


def _check_snapshot(snap: object, n: int) -> None:
    """A knowledge snapshot of a game of n cards (`play._snapshot`): turn, one knowledge base
    per player and the true location per card, each hand's cards."""
    if not isinstance(snap, dict) or any(k not in snap for k in SNAPSHOT_KEYS):
        raise checks.ArgumentTypeError(f"a snapshot is a dict with {SNAPSHOT_KEYS}, got {snap!r}")
    checks.integer(snap["turn"], "a snapshot's turn", low=0)
    for name in ("kb", "hands"):
        _three(snap[name], f"a snapshot's {name}")
    for kb in snap["kb"]:
        if len(checks.integers(kb, "a snapshot's knowledge base", low=0, high=15)) != n:
            raise ValueError(f"a snapshot's knowledge base must have one entry per card ({n})")
    truth = checks.sequence(snap["truth"], "a snapshot's truth")
    if len(truth) != n:
        raise ValueError(f"a snapshot's truth must have one entry per card ({n})")
    for where in truth:
        checks.choice(where, "a card's true holder", (K.NOBODY, *K.HOLDER))
    for hand in snap["hands"]:
        checks.integers(hand, "a snapshot's hand", low=0, high=n - 1)
