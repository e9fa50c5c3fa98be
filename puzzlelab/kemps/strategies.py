"""The report's Greedy, KB Greedy and Blocking (group6_kemps2023, Section 2.4), and our agents.

An agent's `choose(game, me)` returns a `Move`: (table positions to pick, hand cards to
discard, why). `why` is a small tuple that the notebook layer turns into the report's Move and
Comment columns: ('collect', v, size), ('block', v, victim) or ('pass',) for no move.
Tie-breaks (the report leaves them open) are deterministic; see the notebook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import checks
from . import knowledge as K
from .cards import HAND_SIZE, PLAYERS, TABLE_SIZE

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "ABLATIONS", "STRATEGIES", "Agent", "Blocking", "Bold", "Greedy", "KBGreedy", "Move",
    "TheoryOfMind", "best_group", "make_agent", "value_counts",
]

Move = tuple[tuple[int, ...], tuple[int, ...], tuple]
NO_MOVE: Move = ((), (), ("nothing",))
# A group's sort key packed in one int: its size, then cards already in hand, then the value.
SIZE_SHIFT, HELD_SHIFT, VALUE_MASK = 8, 4, 15
CARD_BITS = 6  # card ids are below 2**6 = 64 (at most 52 cards): a discard key packs (count, card)
CARD_MASK = (1 << CARD_BITS) - 1
# GROUP_KEY[h][t]: a group's key without its value, for h cards in hand and t on the table
GROUP_KEY = tuple(tuple(((h + min(t, HAND_SIZE - h)) << SIZE_SHIFT) | (h << HELD_SHIFT)
                        for t in range(TABLE_SIZE + 1)) for h in range(HAND_SIZE + 1))
DiscardKey = Callable[[int], Any]


def _counts(hand: Sequence[int], table: Sequence[int], m: int) -> tuple[list[int], list[int]]:
    """How many cards of each of the m values are in the hand and on the table."""
    hc, tc = [0] * m, [0] * m
    for c in hand:
        hc[c >> 2] += 1
    for c in table:
        tc[c >> 2] += 1
    return hc, tc


def _best_group(hc: Sequence[int], tc: Sequence[int], table: Sequence[int],
               allowed: Sequence[bool] | None = None) -> tuple[int, int]:
    """The table value that makes the largest group: (value, size); ties to more in hand, then
    the higher value; (-1, 0) if no allowed value is on the table."""
    best = 0
    for c in table:
        v = c >> 2
        if allowed is None or allowed[v]:
            key = GROUP_KEY[hc[v]][tc[v]] | v
            if key > best:
                best = key
    return (best & VALUE_MASK, best >> SIZE_SHIFT) if best else (-1, 0)


def _hand_and_table(hand: object, table: object,
                    m: object) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Checked (hand, table, m): distinct cards of a deck of m values (at most 13), at most 4 in
    each."""
    m = checks.integer(m, "m", low=1, high=13)
    hand = checks.integers(hand, "hand", low=0, high=4 * m - 1)
    table = checks.integers(table, "table", low=0, high=4 * m - 1)
    if len(hand) > HAND_SIZE or len(table) > TABLE_SIZE or len({*hand, *table}) != len(hand) + \
            len(table):
        raise ValueError(f"hand and table must be distinct cards, at most {HAND_SIZE} and "
                         f"{TABLE_SIZE}, got {hand} and {table}")
    return hand, table, m


def value_counts(hand: Sequence[int], table: Sequence[int], m: int) -> tuple[list[int], list[int]]:
    """How many cards of each of the m values are in the hand and on the table."""
    hand, table, m = _hand_and_table(hand, table, m)
    return _counts(hand, table, m)


def best_group(hand: Sequence[int], table: Sequence[int], m: int) -> tuple[int, int]:
    """The table value that makes the largest group with the hand: (value, size); ties to more
    in hand, then the higher value; (-1, 0) for an empty table (Section 2.4, Greedy's choice)."""
    hand, table, m = _hand_and_table(hand, table, m)
    return _best_group(*_counts(hand, table, m), table)


def _collect_move(hand: Sequence[int], table: Sequence[int], v: int, hc: Sequence[int],
                 keyfn: DiscardKey) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Pick every card of value v on the table (up to a full hand); discard as many other hand
    cards, lowest keyfn first."""
    picks = _picks(table, v, hc)
    spare = sorted((c for c in hand if c >> 2 != v), key=keyfn)
    return picks, tuple(spare[: len(picks)])


def _picks(table: Sequence[int], v: int, hc: Sequence[int]) -> tuple[int, ...]:
    """The table positions of value v, up to a full hand."""
    return tuple([i for i, c in enumerate(table) if c >> 2 == v][: HAND_SIZE - hc[v]])


class Agent:
    """Base class: a seat's decision rule. Subclasses set `name` and `needs_knowledge`.

    Any object with a `choose(game, me)` method can sit at the table; a custom agent's moves
    are checked (`play` names the agent and the illegal move).

    Attributes
    ----------
    name : str
        The strategy's name in tables and traces.
    needs_knowledge : bool
        Whether the game must keep this seat's knowledge base (`game.kb[me]`).
    needs_public : bool
        Whether the game must keep the public knowledge base (what everybody knows).

    Examples
    --------
    An agent that never exchanges scores only a hand dealt as four of a kind:

    >>> from puzzlelab.kemps import play
    >>> class Passer(Agent):
    ...     name = "passer"
    ...     def choose(self, game, me):
    ...         return (), (), ("pass",)
    >>> play([Passer(), "greedy", "greedy"], seed=0, deck=range(2, 9)).scores
    (0, 1, 2)

    References
    ----------
    The agents of group6_kemps2023 (source document 002), Section 2.4.
    """

    name = "agent"
    needs_knowledge = False
    needs_public = False

    def reset(self, game: Game, me: int) -> None:
        """Called once before the first turn."""

    def choose(self, game: Game, me: int) -> Move:
        """The agent's move for seat `me` in the current position."""
        raise NotImplementedError


class Greedy(Agent):
    """Report 2.4.1: collect the table value most frequent in hand + table; discard the least
    frequent.

    It exchanges only when the group (hand and table cards of that value, up to four) is larger
    than the largest group in its hand; ties go to more cards in hand, then the higher value.

    Attributes
    ----------
    name : str
        'greedy'.

    Examples
    --------
    Seed 5 on the 28 cards 2..8 deals player 1 a 6 with three 6s on the table: Greedy takes them
    (positions 1-3) for a Kemps.

    >>> from puzzlelab.kemps.matches import new_game
    >>> game = new_game(["greedy", "greedy", "greedy"], 5, range(2, 9))
    >>> game.deck.names(game.hands[0]), game.deck.names(game.table)
    ('3♠,7♥,6♥,2♣', '7♠,6♠,6♦,6♣,8♣,3♥')
    >>> picks, discards, why = Greedy().choose(game, 0)
    >>> picks, game.deck.names(discards), why
    ((1, 2, 3), '2♣,3♠,7♥', ('collect', 4, 4))

    References
    ----------
    group6_kemps2023 (source document 002), Section 2.4.1.
    """

    name = "greedy"

    def choose(self, game: Game, me: int) -> Move:
        hand, table = game.hands[me], game.table
        hc, tc = _counts(hand, table, game.m)
        v, size = _best_group(hc, tc, table)
        if size < 2 or size <= max(hc):
            return NO_MOVE
        picks = _picks(table, v, hc)
        # discards: the least frequent in hand + table first, then by card id (packed keys)
        spare = sorted([((hc[c >> 2] + tc[c >> 2]) << CARD_BITS) | c for c in hand if c >> 2 != v])
        return picks, tuple([key & CARD_MASK for key in spare[: len(picks)]]), ("collect", v, size)


PASS: Move = ((), (), ("pass",))  # a knowledge-base agent that passes (it may want a value)


class KBGreedy(Agent):
    """Report 2.4.2: like Greedy, but only values the knowledge base shows no opponent can hold.

    Attributes
    ----------
    name : str
        'kb-greedy'.
    needs_knowledge : bool
        True: the game keeps this seat's knowledge base.

    Examples
    --------
    Seed 0 deals player 1 two 4s with a third on the table; the fourth 4 is unseen, so KB Greedy
    passes where Greedy collects:

    >>> from puzzlelab.kemps.matches import new_game
    >>> game = new_game(["kb-greedy", "greedy", "greedy"], 0, range(2, 9))
    >>> game.deck.names(game.hands[0]), game.deck.names(game.table)
    ('6♠,3♥,4♣,4♠', '4♥,2♥,7♥,5♥,6♣,5♦')
    >>> Greedy().choose(game, 0)[2], KBGreedy().choose(game, 0)[2]
    (('collect', 2, 3), ('pass',))

    References
    ----------
    group6_kemps2023 (source document 002), Sections 2.3 (knowledge bases) and 2.4.2.
    """

    name = "kb-greedy"
    needs_knowledge = True

    def allowed(self, game: Game, me: int) -> list[bool]:
        """The values this agent may collect."""
        return K.UNCHECKED.available(game.kb[me], me, game.m)

    def collect(self, game: Game, me: int, hc: list[int], tc: list[int], ok: list[bool],
                keyfn: DiscardKey) -> Move | None:
        """The KB Greedy exchange among the values in `ok`, or None."""
        held = max((h for h, a in zip(hc, ok) if a), default=0)
        v, size = _best_group(hc, tc, game.table, ok)
        if size < 2 or size <= held:
            return None
        picks, discards = _collect_move(game.hands[me], game.table, v, hc, keyfn)
        return picks, discards, ("collect", v, size)

    def choose(self, game: Game, me: int) -> Move:
        hc, tc = _counts(game.hands[me], game.table, game.m)
        ok = self.allowed(game, me)
        # discards: values I cannot collect first, then the least frequent, then by card id
        move = self.collect(game, me, hc, tc, ok,
                            lambda c: (ok[c >> 2], hc[c >> 2] + tc[c >> 2], c))
        return move or PASS


class Blocking(KBGreedy):
    """Report 2.4.3: KB Greedy, and else swap an inconsequential card for a card an opponent
    collects.

    The blocking card is a table card of the value an opponent is known to hold most of (and
    this agent holds none of); the card given up is never one of a pair of its own.

    Attributes
    ----------
    name : str
        'blocking'.

    Examples
    --------
    See `play`: in turn 12 of seed 0 on the 28-card deck, Blocking takes the 2♦ from player 2.

    >>> from puzzlelab.kemps import play
    >>> record = play(["blocking", "greedy", "greedy"], seed=0, deck=range(2, 9))
    >>> [(t.turn, t.why) for t in record.trace if t.why[0] == "block"]
    [(12, ('block', 0, 1))]

    References
    ----------
    group6_kemps2023 (source document 002), Section 2.4.3.
    """

    name = "blocking"

    def choose(self, game: Game, me: int) -> Move:
        hc, tc = _counts(game.hands[me], game.table, game.m)
        ok = self.allowed(game, me)
        # for each value, how many of its cards opponents are known to hold (what they collect)
        opp = K.UNCHECKED.opponent_holds(game.kb[me], me, game.m)
        # keep blocking cards (values an opponent is known to hold) to the very last
        move = self.collect(game, me, hc, tc, ok,
                            lambda c: (opp[c >> 2] > 0, ok[c >> 2], hc[c >> 2] + tc[c >> 2], c))
        return move or self.block(game, me, hc, tc, ok, opp) or PASS

    def block(self, game: Game, me: int, hc: list[int], tc: list[int], ok: list[bool],
              opp: list[int]) -> Move | None:
        """Swap an inconsequential card for the table card an opponent most needs, or None."""
        hand, table = game.hands[me], game.table
        # inconsequential cards only: never a blocking card, never one of a pair or more of my
        # own (blocking "should not prevent the player from forming their own Kemps", 2.4.3)
        spare = sorted((c for c in hand if hc[c >> 2] < 2 and opp[c >> 2] == 0),
                       key=lambda c: (ok[c >> 2], hc[c >> 2] + tc[c >> 2], c))
        best, key = -1, (0, 0)
        for i, c in enumerate(table):
            w = c >> 2
            if opp[w] and not hc[w] and (opp[w], w) > key:  # a value I hold none of
                best, key = i, (opp[w], w)
        if not spare or best < 0:
            return None
        w = table[best] >> 2
        holders = [K.UNCHECKED.known_holder(game.kb[me], c) for c in range(4 * w, 4 * w + 4)]
        victim = max((p for p in range(PLAYERS) if p != me), key=lambda p: (holders.count(p), -p))
        return (best,), (spare[0],), ("block", w, victim)


class Bold(Blocking):
    """The first-order half of our agent: Blocking that collects any value no opponent is *known*
    to hold (KB Greedy waits until every card of a value is accounted for).

    Not in the report: an ablation of `TheoryOfMind` (in `ABLATIONS`, not `STRATEGIES`).

    Attributes
    ----------
    name : str
        'bold'.

    Examples
    --------
    At the deal nobody is known to hold anything, so every value is allowed to Bold and none to
    KB Greedy (no value has all four cards in sight of player 1):

    >>> from puzzlelab.kemps.matches import new_game
    >>> game = new_game(["bold", "greedy", "greedy"], 0, range(2, 9))
    >>> Bold().allowed(game, 0), KBGreedy().allowed(game, 0)
    ([True, True, True, True, True, True, True], [False, False, False, False, False, False, False])

    References
    ----------
    Built on the knowledge bases of group6_kemps2023 (source document 002), Sections 2.3-2.4.
    """

    name = "bold"

    def allowed(self, game: Game, me: int) -> list[bool]:
        return [o == 0 for o in K.UNCHECKED.opponent_holds(game.kb[me], me, game.m)]


class TheoryOfMind(Bold):
    """Our second-order agent: Bold, plus reasoning about what the others know about *my* hand.

    The public knowledge base is exactly what every opponent knows about my cards. When an
    opponent picks a card of a value that everybody knows I collect, and it was not known to
    collect that value itself, I read the pick as a *block* (report 2.4.3, last paragraph): it
    was not picked for a Kemps and will come back, so I keep collecting that value.

    Attributes
    ----------
    name : str
        'tom'.
    needs_public : bool
        True: the game keeps the public knowledge base.
    blocked : dict
        After `reset`: each card read as a block against this agent, mapped to its blocker.

    Examples
    --------
    >>> from puzzlelab.kemps import play
    >>> record = play(["tom", "greedy", "kb-greedy"], seed=0, deck=range(2, 9))
    >>> record.strategies, record.scores, record.end
    (('tom', 'greedy', 'kb-greedy'), (2, 1, 0), 'deck exhausted')

    References
    ----------
    Higher-order knowledge as group6_kemps2023 (source document 002) proposes it, Section 2.4.3
    and the conclusion.
    """

    name = "tom"
    needs_public = True

    def reset(self, game: Game, me: int) -> None:
        self.me = me
        self.blocked: dict[int, int] = {}  # card -> the opponent who picked it to block me
        game.listeners.append(self)

    def observe(self, game: Game, p: int, picked: Sequence[int]) -> None:
        """Before player p's PICKED announcements of this turn: which picks are blocks against me?

        Every card of the exchange is judged on the public knowledge before the turn (the
        report's agents broadcast a turn's announcements together when it ends, 3.3).
        """
        if p == self.me:
            return
        pub, mine, theirs = game.public, K.HOLDER[self.me], K.HOLDER[p]
        for c in picked:
            same = range(4 * (c >> 2), 4 * (c >> 2) + 4)
            they_know_i_collect = any(pub[x] == mine for x in same)
            it_collects = any(pub[x] == theirs for x in same)
            if they_know_i_collect and not it_collects:
                self.blocked[c] = p

    def allowed(self, game: Game, me: int) -> list[bool]:
        kb = game.kb[me]
        for c in [c for c, p in self.blocked.items() if kb[c] != K.HOLDER[p]]:
            del self.blocked[c]  # the blocker let the card go
        opp = K.UNCHECKED.opponent_holds(kb, me, game.m)
        for c in self.blocked:
            opp[c >> 2] -= 1  # a block card will come back: not a competitor's card
        return [o == 0 for o in opp]


STRATEGIES: dict[str, type[Agent]] = {
    cls.name: cls for cls in (Greedy, KBGreedy, Blocking, TheoryOfMind)}
"""The strategies by name: the report's 'greedy', 'kb-greedy' and 'blocking' (group6_kemps2023,
Section 2.4) and our 'tom' (`TheoryOfMind`); `play` takes these names."""
ABLATIONS: dict[str, type[Agent]] = {Bold.name: Bold}


def make_agent(strategy: str | Agent | Any) -> Agent:
    """An agent from a strategy name ('greedy', 'kb-greedy', 'blocking', 'tom', 'bold') or an
    agent object (anything with a `choose(game, me)` method)."""
    if isinstance(strategy, Agent):
        return strategy
    known = STRATEGIES | ABLATIONS
    if isinstance(strategy, str):
        if strategy not in known:
            raise ValueError(f"unknown strategy {strategy!r}; choose from {sorted(known)}")
        return known[strategy]()
    if callable(getattr(strategy, "choose", None)):
        return strategy
    raise checks.ArgumentTypeError(
        f"unknown strategy {strategy!r}; choose from {sorted(STRATEGIES)} or pass an agent object")
