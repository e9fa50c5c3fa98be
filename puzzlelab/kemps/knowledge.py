"""Per-card knowledge bases: the report's Kripke sub-models with states s0..s3 (Sections 3.1-3.4).

A knowledge base is a list with one 4-bit mask per card: bit 0 is state s0 (the card is with
nobody: table, discard pile, deck or out of the game), bit p + 1 is state s_{p+1} (player p,
counted from 0, holds it). The set bits are the states the agent still considers possible
for that card, so agent i's relation R_i on card c's sub-model links exactly those states.
The public knowledge base is what an outside observer knows from the announcements alone.
"""

from __future__ import annotations

from math import comb

NOBODY, ALL = 1, 15


def holder(p: int) -> int:
    """The mask of state s_{p+1}: player p holds the card."""
    return 2 << p


def initial(n: int, me: int | None, hand, table) -> list[int]:
    """Before the first turn: own hand known, table seen, every other card anywhere but my hand."""
    kb = [ALL & ~holder(me) if me is not None else ALL] * n
    for c in hand:
        kb[c] = holder(me)
    for c in table:
        kb[c] = NOBODY
    return kb


def seen(kb: list[int], cards) -> None:
    """Cards laid out face up (NEW TABLE) are with nobody."""
    for c in cards:
        kb[c] = NOBODY


def own(kb: list[int], me: int, cards) -> None:
    """I was dealt `cards`: they are mine (set_knowledge_own_deck in the report)."""
    for c in cards:
        kb[c] = holder(me)


def kemps(kb: list[int], p: int, v: int) -> None:
    """KEMPS(p, v): the four cards of value v leave the game, and p's hand is now empty."""
    keep = ~holder(p)
    for i in range(len(kb)):
        kb[i] &= keep
    for c in range(4 * v, 4 * v + 4):
        kb[c] = NOBODY


def dealt(kb: list[int], p: int, table, discard, out) -> None:
    """Player p was dealt a new hand from the deck: any card that may be in the deck may now be p's."""
    hidden = set(table) | set(discard)
    gone = set(out)
    b = holder(p)
    for c, mask in enumerate(kb):
        if mask & NOBODY and c not in hidden and (c >> 2) not in gone:
            kb[c] = mask | b


def truthful(kb: list[int], locations: list[int]) -> bool:
    """The true state of every card is still considered possible."""
    return all(k & t for k, t in zip(kb, locations))


def known_holder(kb: list[int], c: int) -> int | None:
    """The player known to hold card c, or None when the agent is unsure or it is with nobody."""
    mask = kb[c]
    for p in range(3):
        if mask == holder(p):
            return p
    return None


# lookup tables by seat: _FREE[me][mask] is True when the mask allows no opponent,
# _OPP[me][mask] is 1 when the mask names exactly one opponent (a known holder)
_FREE = [[not (mask & (ALL & ~NOBODY & ~holder(me))) for mask in range(16)] for me in range(3)]
_OPP = [[int(mask in (2, 4, 8) and mask != holder(me)) for mask in range(16)] for me in range(3)]


def available(kb: list[int], me: int, m: int) -> list[bool]:
    """Values whose four cards are, for sure, with nobody or with me (the KB Greedy test, report 2.4.2)."""
    free = _FREE[me]
    return [free[kb[4 * v]] and free[kb[4 * v + 1]] and free[kb[4 * v + 2]] and free[kb[4 * v + 3]]
            for v in range(m)]


def opponent_holds(kb: list[int], me: int, m: int) -> list[int]:
    """For each value, how many of its cards the agent knows are in an opponent's hand."""
    opp = _OPP[me]
    return [opp[kb[4 * v]] + opp[kb[4 * v + 1]] + opp[kb[4 * v + 2]] + opp[kb[4 * v + 3]]
            for v in range(m)]


def possible_holders(kb: list[int], c: int) -> tuple[int, ...]:
    """The states s0..s3 the agent considers possible for card c (0 = nobody, i = player i)."""
    return tuple(s for s in range(4) if kb[c] >> s & 1)


def deals_possible(kb: list[int], me: int | None, hand_sizes=(4, 4, 4)) -> int:
    """How many assignments of the hidden hands agree with the knowledge base (hand sizes known).

    For a player's own knowledge base the two other hands are counted; for the public one
    (me=None) all three. Cards are grouped by their mask and the groups filled by counting.
    """
    players = [p for p in range(3) if p != me]
    if len(players) == 2:
        return _count_two(kb, players, hand_sizes)
    if sum(mask != NOBODY for mask in kb) > 12:
        raise ValueError("the three-hand count enumerates hands: at most 12 undecided cards")
    return _count_brute(kb, players, hand_sizes, me)


def _count_two(kb: list[int], players: list[int], sizes) -> int:
    """Count pairs of disjoint hands (H_j, H_k) of the right sizes, each card in an allowed place."""
    j, k = players
    bj, bk = holder(j), holder(k)
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
                           groups.get(NOBODY | bk, 0), groups.get(ALL & (NOBODY | bj | bk), 0))
    total = 0
    for a in range(njk + 1):  # cards that must be in j's or k's hand: a go to j
        rj, rk = need_j - a, need_k - (njk - a)
        if rj < 0 or rk < 0:
            continue
        for d in range(min(rj, n0jk) + 1):  # from the anywhere group to j
            b = rj - d  # the rest of j's hand from the nobody-or-j group
            if b > n0j:
                continue
            for f in range(min(rk, n0jk - d) + 1):
                e = rk - f
                if e > n0k:
                    continue
                total += comb(njk, a) * comb(n0jk, d) * comb(n0j, b) * comb(n0jk - d, f) * comb(n0k, e)
    return total


def _count_brute(kb: list[int], players: list[int], sizes, me: int | None = None) -> int:
    """Count by enumeration (the public view, or a check of _count_two on small decks)."""
    from itertools import combinations

    def fill(i: int, used: frozenset) -> int:
        if i == len(players):
            # every card not in a hand must be allowed to be with nobody
            rest = NOBODY | (holder(me) if me is not None else 0)
            return int(all(kb[c] & rest for c in range(len(kb)) if c not in used))
        p = players[i]
        cand = [c for c in range(len(kb)) if kb[c] & holder(p) and c not in used]
        return sum(fill(i + 1, used | frozenset(h)) for h in combinations(cand, sizes[p]))

    return fill(0, frozenset())
