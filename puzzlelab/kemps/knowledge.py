"""Per-card knowledge bases: the Kripke sub-models with states s0..s3 (group6_kemps2023, 3.1-3.4).

A knowledge base is a list with one 4-bit mask per card: bit 0 is state s0 (the card is with
nobody: table, discard pile, deck or out of the game), bit p + 1 is state s_{p+1} (player p,
counted from 0, holds it). The set bits are the states the agent still considers possible
for that card, so agent i's relation R_i on card c's sub-model links exactly those states.
The public knowledge base is what an outside observer knows from the announcements alone.

The announcements (report 3.2-3.3, plus DEALT) and what they do to every knowledge base:
PICKED(p, c) sets kb[c] = holder(p); DISCARDED(p, c) sets kb[c] = NOBODY; NEW TABLE (`seen`);
KEMPS(p, v) (`kemps`); DEALT(p) (`dealt`). The functions here check their arguments; the
game and the agents apply the same updates and queries to their own valid state through
`UNCHECKED`, which skips the checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from math import comb
from types import SimpleNamespace

from .. import checks
from .cards import HAND_SIZE, PLAYERS

__all__ = [
    "ALL", "HOLDER", "NOBODY", "UNCHECKED", "available", "check_kb", "dealt", "deals_possible",
    "discarded", "holder",
    "initial", "kemps", "known_holder", "opponent_holds", "own", "picked", "possible_holders",
    "seen",
    "truthful",
]

NOBODY, ALL = 1, 15
HOLDER = tuple(2 << p for p in range(PLAYERS))  # HOLDER[p]: the mask of state s_{p+1}
MAX_CARDS = 52


def holder(p: int) -> int:
    """The mask of state s_{p+1}: player p holds the card."""
    return HOLDER[checks.integer(p, "player", low=0, high=PLAYERS - 1)]


# ----- argument checks ------------------------------------------------------------------------
def check_kb(kb: object, name: str = "kb") -> list[int]:
    """A knowledge base: a list of masks 0..15, four per value, at most 52 cards."""
    if not isinstance(kb, list):
        raise checks.ArgumentTypeError(f"{name} must be a list of masks 0..15, got {kb!r}")
    if len(kb) % 4 or not 0 < len(kb) <= MAX_CARDS:
        raise ValueError(f"{name} must have four masks per card value (at most 52), got {len(kb)}")
    checks.integers(kb, name, low=0, high=ALL)
    return kb


def _cards(kb: list[int], cards: object, name: str = "cards") -> tuple[int, ...]:
    return checks.integers(cards, name, low=0, high=len(kb) - 1)


def _seat(me: object, name: str = "me", allow_none: bool = False) -> int | None:
    if me is None and allow_none:
        return None
    return checks.integer(me, name, low=0, high=PLAYERS - 1)


# ----- announcements --------------------------------------------------------------------------
def initial(n: int, me: int | None, hand: Iterable[int], table: Iterable[int]) -> list[int]:
    """Before the first turn: own hand known, table seen, every other card anywhere but my hand."""
    n = checks.integer(n, "n", low=4, high=MAX_CARDS)
    me = _seat(me, allow_none=True)
    kb = [ALL] * n
    hand = _cards(kb, hand, "hand")
    if me is None and hand:
        raise ValueError("a hand needs its holder: pass me (the seat), or no hand")
    return _initial(n, me, hand, _cards(kb, table, "table"))


def _initial(n: int, me: int | None, hand: Iterable[int], table: Iterable[int]) -> list[int]:
    """`initial` without its checks."""
    kb = [ALL & ~HOLDER[me] if me is not None else ALL] * n
    for c in hand:
        kb[c] = HOLDER[me]  # type: ignore[index]
    for c in table:
        kb[c] = NOBODY
    return kb


def seen(kb: list[int], cards: Iterable[int]) -> None:
    """NEW TABLE: cards laid out face up are with nobody."""
    for c in _cards(check_kb(kb), cards):
        kb[c] = NOBODY


def own(kb: list[int], me: int, cards: Iterable[int]) -> None:
    """I was dealt `cards`: they are mine (set_knowledge_own_deck in the report)."""
    mine = holder(me)
    for c in _cards(check_kb(kb), cards):
        kb[c] = mine


def picked(kb: list[int], p: int, card: int) -> None:
    """PICKED(p, card): player p took `card` from the table, so p holds it."""
    kb[checks.integer(card, "card", low=0, high=len(check_kb(kb)) - 1)] = holder(p)


def discarded(kb: list[int], card: int) -> None:
    """DISCARDED(p, card): the card lies face up on the table, so it is with nobody."""
    kb[checks.integer(card, "card", low=0, high=len(check_kb(kb)) - 1)] = NOBODY


def kemps(kb: list[int], p: int, v: int) -> None:
    """KEMPS(p, v): the four cards of value v leave the game, and p's hand is now empty."""
    _kemps(check_kb(kb), _seat(p, "p"), checks.integer(v, "v", low=0, high=len(kb) // 4 - 1))


def _kemps(kb: list[int], p: int, v: int) -> None:
    """`kemps` without its checks."""
    keep = ~HOLDER[p]
    for i in range(len(kb)):
        kb[i] &= keep
    for c in range(4 * v, 4 * v + 4):
        kb[c] = NOBODY


def dealt(kb: list[int], p: int, table: Iterable[int], discard: Iterable[int],
          out: Iterable[int]) -> None:
    """DEALT(p): player p was dealt from the deck; any card that may be in the deck may be p's."""
    check_kb(kb)
    _dealt(kb, _seat(p, "p"), _cards(kb, table, "table"), _cards(kb, discard, "discard"),
           checks.integers(out, "out", low=0, high=len(kb) // 4 - 1))


def _dealt(kb: list[int], p: int, table: Iterable[int], discard: Iterable[int],
           out: Iterable[int]) -> None:
    """`dealt` without its checks."""
    hidden = set(table) | set(discard)
    gone = set(out)
    b = HOLDER[p]
    for c, mask in enumerate(kb):
        if mask & NOBODY and c not in hidden and (c >> 2) not in gone:
            kb[c] = mask | b


# ----- what a knowledge base says -------------------------------------------------------------
def truthful(kb: list[int], locations: Sequence[int]) -> bool:
    """The true state of every card (`locations`, one holder mask each) is still considered
    possible."""
    locations = checks.integers(locations, "locations", low=0, high=ALL)
    if len(locations) != len(check_kb(kb)):
        raise ValueError(f"locations must have one mask per card ({len(kb)}), got {len(locations)}")
    return all(k & t for k, t in zip(kb, locations))


def known_holder(kb: list[int], c: int) -> int | None:
    """The player known to hold card c, or None when the agent is unsure or it is with nobody."""
    return _known_holder(check_kb(kb), checks.integer(c, "card", low=0, high=len(kb) - 1))


def _known_holder(kb: list[int], c: int) -> int | None:
    """`known_holder` without its checks."""
    return _OWNER.get(kb[c])


_OWNER = {mask: p for p, mask in enumerate(HOLDER)}
# lookup tables by seat: _FREE[me][mask] is True when the mask allows no opponent,
# _OPP[me][mask] is 1 when the mask names exactly one opponent (a known holder)
_FREE = [[not (mask & (ALL & ~NOBODY & ~HOLDER[me])) for mask in range(ALL + 1)] for me in range(3)]
_OPP = [[int(mask in HOLDER and mask != HOLDER[me]) for mask in range(ALL + 1)] for me in range(3)]


def available(kb: list[int], me: int) -> list[bool]:
    """Values whose four cards are, for sure, with nobody or with me (KB Greedy's test, report
    2.4.2)."""
    return _available(check_kb(kb), _seat(me), len(kb) // 4)


def _available(kb: list[int], me: int, m: int) -> list[bool]:
    """`available` without its checks (m values)."""
    free = _FREE[me]
    return [free[kb[4 * v]] and free[kb[4 * v + 1]] and free[kb[4 * v + 2]] and free[kb[4 * v + 3]]
            for v in range(m)]


def opponent_holds(kb: list[int], me: int) -> list[int]:
    """For each value, how many of its cards the agent knows are in an opponent's hand."""
    return _opponent_holds(check_kb(kb), _seat(me), len(kb) // 4)


def _opponent_holds(kb: list[int], me: int, m: int) -> list[int]:
    """`opponent_holds` without its checks (m values)."""
    opp = _OPP[me]
    return [opp[kb[4 * v]] + opp[kb[4 * v + 1]] + opp[kb[4 * v + 2]] + opp[kb[4 * v + 3]]
            for v in range(m)]


def possible_holders(kb: list[int], c: int) -> tuple[int, ...]:
    """The states s0..s3 the agent considers possible for card c (0 = nobody, i = player i)."""
    mask = check_kb(kb)[checks.integer(c, "card", low=0, high=len(kb) - 1)]
    return tuple(s for s in range(4) if mask >> s & 1)


def deals_possible(kb: list[int], me: int | None,
                   hand_sizes: Sequence[int] = (HAND_SIZE,) * PLAYERS) -> int:
    """How many assignments of the hidden hands agree with the knowledge base (hand sizes known).

    For a player's own knowledge base the two other hands are counted; for the public one
    (me=None) all three. Cards are grouped by their mask and the groups filled by counting.
    """
    kb, me = check_kb(kb), _seat(me, allow_none=True)
    sizes = checks.integers(hand_sizes, "hand_sizes", low=0, high=HAND_SIZE)
    if len(sizes) != PLAYERS:
        raise ValueError(f"hand_sizes must give {PLAYERS} hand sizes, got {sizes}")
    players = [p for p in range(PLAYERS) if p != me]
    if len(players) == 2:
        return _count_two(kb, players, sizes)
    if sum(mask != NOBODY for mask in kb) > 12:
        raise ValueError("the three-hand count enumerates hands: at most 12 undecided cards")
    return _count_brute(kb, players, sizes, me)


def _count_two(kb: list[int], players: list[int], sizes: Sequence[int]) -> int:
    """Count pairs of disjoint hands (H_j, H_k) of the right sizes, each card in an allowed
    place."""
    j, k = players
    bj, bk = HOLDER[j], HOLDER[k]
    groups: dict[int, int] = {}
    for mask in kb:
        if mask == 0:
            return 0  # a card with no possible place: the knowledge base is inconsistent
        key = mask & (NOBODY | bj | bk)
        if key:  # key 0: the card is the owner's own
            groups[key] = groups.get(key, 0) + 1
    need_j = sizes[j] - groups.get(bj, 0)
    need_k = sizes[k] - groups.get(bk, 0)
    njk, n0j, n0k, n0jk = (groups.get(bj | bk, 0), groups.get(NOBODY | bj, 0),
                           groups.get(NOBODY | bk, 0), groups.get(NOBODY | bj | bk, 0))
    total = 0
    for a in range(njk + 1):  # cards that must be in j's or k's hand: a go to j
        rj, rk = need_j - a, need_k - (njk - a)
        for d in range(min(rj, n0jk) + 1):  # from the anywhere group to j
            b = rj - d  # the rest of j's hand from the nobody-or-j group
            for f in range(min(rk, n0jk - d) + 1):
                e = rk - f
                if b <= n0j and e <= n0k:
                    total += (comb(njk, a) * comb(n0jk, d) * comb(n0j, b) * comb(n0jk - d, f)
                              * comb(n0k, e))
    return total


def _count_brute(kb: list[int], players: list[int], sizes: Sequence[int],
                 me: int | None = None) -> int:
    """Count by enumeration (the public view, or a check of _count_two on small decks)."""
    def fill(i: int, used: frozenset) -> int:
        if i == len(players):
            # every card not in a hand must be allowed to be with nobody
            rest = NOBODY | (HOLDER[me] if me is not None else 0)
            return int(all(kb[c] & rest for c in range(len(kb)) if c not in used))
        p = players[i]
        cand = [c for c in range(len(kb)) if kb[c] & HOLDER[p] and c not in used]
        return sum(fill(i + 1, used | frozenset(h)) for h in combinations(cand, sizes[p]))

    return fill(0, frozenset())


# The updates and queries above without their checks, for the game and the agents, which keep
# valid state and call them on every turn.
UNCHECKED = SimpleNamespace(initial=_initial, kemps=_kemps, dealt=_dealt,
                            known_holder=_known_holder, available=_available,
                            opponent_holds=_opponent_holds)
