"""The report's strategies Greedy, KB Greedy, Blocking (Section 2.4) and our second-order ToM agent.

An agent's `choose(game, me)` returns (table positions to pick, hand cards to discard, why).
`why` is a small tuple that display.py turns into the report's Move and Comment columns:
('collect', v, size), ('block', v, victim) or ('pass',) for no move.
Tie-breaks (the report leaves them open) are deterministic; see the notebook.
"""

from __future__ import annotations

from . import knowledge as K

NO_MOVE = ((), (), ("nothing",))


def counts(hand, table, m: int) -> tuple[list[int], list[int]]:
    """How many cards of each value are in the hand and on the table."""
    hc, tc = [0] * m, [0] * m
    for c in hand:
        hc[c >> 2] += 1
    for c in table:
        tc[c >> 2] += 1
    return hc, tc


def best_group(hc, tc, allowed=None) -> tuple[int, int]:
    """The value on the table that makes the largest group: (value, size); ties to more in hand, then higher value."""
    best = 0  # key = size, then cards already in hand, then value, packed in one int
    for v, t in enumerate(tc):
        if t and (allowed is None or allowed[v]):
            h = hc[v]
            key = ((h + (t if t < 4 - h else 4 - h)) << 8) | (h << 4) | v
            if key > best:
                best = key
    return (best & 15, best >> 8) if best else (-1, 0)


def collect_move(hand, table, v: int, hc, tc, keyfn) -> tuple[tuple, tuple]:
    """Pick every card of value v on the table; discard that many other hand cards, lowest keyfn first."""
    picks = tuple(i for i, c in enumerate(table) if c >> 2 == v)[: 4 - hc[v]]
    spare = sorted((c for c in hand if c >> 2 != v), key=keyfn)
    return picks, tuple(spare[: len(picks)])


class Agent:
    """Base class: a seat's decision rule. Subclasses set `name` and `needs_knowledge`."""

    name = "agent"
    needs_knowledge = False
    needs_public = False

    def reset(self, game, me: int) -> None:
        """Called once before the first turn."""

    def choose(self, game, me: int):
        raise NotImplementedError


class Greedy(Agent):
    """Report 2.4.1: collect the table value most frequent in hand + table; discard the least frequent."""

    name = "greedy"

    def choose(self, game, me):
        hand, table = game.hands[me], game.table
        hc, tc = counts(hand, table, game.m)
        v, size = best_group(hc, tc)
        if size < 2 or size <= max(hc):
            return NO_MOVE
        picks, discards = collect_move(hand, table, v, hc, tc, lambda c: (hc[c >> 2] + tc[c >> 2], c))
        return picks, discards, ("collect", v, size)


class KBGreedy(Agent):
    """Report 2.4.2: like Greedy, but only values the knowledge base shows no opponent can hold."""

    name = "kb-greedy"
    needs_knowledge = True

    def allowed(self, game, me) -> list[bool]:
        """The values this agent may collect."""
        return K.available(game.kb[me], me, game.m)

    def discard_key(self, game, me, hc, tc, ok):
        """Order of discards: values I cannot collect first, then the least frequent, then card id."""
        return lambda c: (ok[c >> 2], hc[c >> 2] + tc[c >> 2], c)

    def collect(self, game, me, hc, tc, ok):
        """The KB Greedy exchange, or None with the value it would like ('wait')."""
        hand, table = game.hands[me], game.table
        held = 0
        for h, a in zip(hc, ok):
            if a and h > held:
                held = h
        v, size = best_group(hc, tc, ok)
        if size >= 2 and size > held:
            picks, discards = collect_move(hand, table, v, hc, tc, self.discard_key(game, me, hc, tc, ok))
            return picks, discards, ("collect", v, size)
        return None, ("pass",)  # display.py tells 'wants v but unsure' from 'nothing to collect'

    def choose(self, game, me):
        hc, tc = counts(game.hands[me], game.table, game.m)
        move = self.collect(game, me, hc, tc, self.allowed(game, me))
        return move if move[0] is not None else ((), (), move[1])


class Blocking(KBGreedy):
    """Report 2.4.3: KB Greedy, and else swap an inconsequential card for a card an opponent collects."""

    name = "blocking"

    opp: list[int] = []

    def discard_key(self, game, me, hc, tc, ok):
        """Keep blocking cards (values an opponent is known to hold) to the very last."""
        opp = self.opp
        return lambda c: (opp[c >> 2] > 0, ok[c >> 2], hc[c >> 2] + tc[c >> 2], c)

    def choose(self, game, me):
        hand, table = game.hands[me], game.table
        hc, tc = counts(hand, table, game.m)
        ok = self.allowed(game, me)
        # for each value, how many of its cards opponents are known to hold (what they collect)
        self.opp = opp = K.opponent_holds(game.kb[me], me, game.m)
        move = self.collect(game, me, hc, tc, ok)
        if move[0] is not None:
            return move
        # inconsequential cards only: never a blocking card, never one of a pair or more of my
        # own (blocking "should not prevent the player from forming their own Kemps", 2.4.3)
        spare = sorted((c for c in hand if hc[c >> 2] < 2 and opp[c >> 2] == 0),
                       key=lambda c: (ok[c >> 2], hc[c >> 2] + tc[c >> 2], c))
        if not spare:
            return (), (), move[1]
        best, key = -1, (0, 0)
        for i, c in enumerate(table):
            w = c >> 2
            if opp[w] and not hc[w] and (opp[w], w) > key:  # a value I hold none of
                best, key = i, (opp[w], w)
        if best < 0:
            return (), (), move[1]
        w = table[best] >> 2
        holders = [K.known_holder(game.kb[me], c) for c in range(4 * w, 4 * w + 4)]
        victim = max((p for p in range(3) if p != me), key=lambda p: (holders.count(p), -p))
        return (best,), (spare[0],), ("block", w, victim)


class Bold(Blocking):
    """Ablation of our agent (first order only): Blocking that collects any value no opponent is *known* to hold.

    KB Greedy waits until every card of a value is accounted for; Bold only avoids values of
    which its knowledge base places a card in an opponent's hand.
    """

    name = "bold"

    def allowed(self, game, me):
        return [o == 0 for o in K.opponent_holds(game.kb[me], me, game.m)]


class TheoryOfMind(Bold):
    """Our second-order agent: Bold, plus reasoning about what the others know about *my* hand.

    The public knowledge base is exactly what every opponent knows about my cards. When an
    opponent picks a card of a value that everybody knows I collect, and it was not known to
    collect that value itself, I read the pick as a *block* (report 2.4.3, last paragraph): it
    was not picked for a Kemps and will come back, so I keep collecting that value.
    """

    name = "tom"
    needs_public = True

    def reset(self, game, me):
        self.me = me
        self.blocked: dict[int, int] = {}  # card -> the opponent who picked it to block me
        game.listeners.append(self)

    def observe(self, game, p, picked):
        """Called before player p's PICKED announcements of this turn: which picks are blocks against me?

        Every card of the exchange is judged on the public knowledge before the turn (the
        report's agents broadcast a turn's announcements together when it ends, 3.3).
        """
        if p == self.me:
            return
        pub, mine, theirs = game.public, K.holder(self.me), K.holder(p)
        for c in picked:
            same = range(4 * (c >> 2), 4 * (c >> 2) + 4)
            they_know_i_collect = any(pub[x] == mine for x in same)
            it_collects = any(pub[x] == theirs for x in same)
            if they_know_i_collect and not it_collects:
                self.blocked[c] = p

    def allowed(self, game, me):
        kb = game.kb[me]
        for c in [c for c, p in self.blocked.items() if kb[c] != K.holder(p)]:
            del self.blocked[c]  # the blocker let the card go
        opp = K.opponent_holds(kb, me, game.m)
        for c in self.blocked:
            opp[c >> 2] -= 1  # a block card will come back: not a competitor's card
        return [o == 0 for o in opp]


STRATEGIES = {cls.name: cls for cls in (Greedy, KBGreedy, Blocking, TheoryOfMind)}
ABLATIONS = {Bold.name: Bold}


def make_agent(strategy) -> Agent:
    """An agent from a strategy name ('greedy', 'kb-greedy', 'blocking', 'tom') or an Agent object."""
    if isinstance(strategy, Agent):
        return strategy
    if isinstance(strategy, str) and strategy in STRATEGIES | ABLATIONS:
        return (STRATEGIES | ABLATIONS)[strategy]()
    if hasattr(strategy, "choose") and callable(strategy.choose):
        return strategy
    raise ValueError(f"unknown strategy {strategy!r}; choose from {sorted(STRATEGIES)} or pass an agent object")
