"""A lean fast path for Greedy self-play: the same rules and tie-breaks as engine + Greedy, inlined.

No objects, no trace, no knowledge: ints and lists only. tests/test_kemps.py checks that it
returns exactly the scores of play(['greedy'] * 3, seed, deck) for many seeds.
"""

from __future__ import annotations

import numpy as np

from .cards import FULL, make_deck
from .engine import MAX_TURNS
from .play import check_seed


def greedy_stuck(hands, outside, m: int) -> bool:
    """engine.Game.stuck for three Greedy agents: no hand is a Kemps and no table can tempt anyone."""
    o = [0] * m
    for c in outside:
        o[c >> 2] += 1
    for hand in hands:
        hc = [0] * m
        for c in hand:
            hc[c >> 2] += 1
        top = max(hc)
        if top == 4:
            return False
        for v in range(m):
            if o[v]:
                h = hc[v]
                size = h + min(o[v], 6, 4 - h)
                if size >= 2 and size > top:
                    return False
    return True


def greedy_selfplay(seed: int, deck=FULL, max_turns: int = MAX_TURNS) -> tuple[int, int, int]:
    """Final scores of one Greedy x 3 game (identical to play(['greedy'] * 3, seed, deck).scores)."""
    return greedy_game(seed, deck, max_turns)[0]


def greedy_game(seed: int, deck=FULL, max_turns: int = MAX_TURNS) -> tuple[tuple[int, int, int], int, str]:
    """(scores, turns, how it ended) of one Greedy x 3 game, by the lean fast path."""
    d = make_deck(deck)
    n, m = d.n, d.m
    rng = np.random.default_rng(check_seed(seed))
    order = rng.permutation(n).tolist()
    hands = [order[0:4], order[4:8], order[8:12]]
    table = order[12:18]
    pile = order[18:][::-1]
    discard: list[int] = []
    scores = [0, 0, 0]
    no_pick = turn = p = 0
    while True:
        hand = hands[p]
        hc, tc = [0] * m, [0] * m
        for c in hand:
            hc[c >> 2] += 1
        for c in table:
            tc[c >> 2] += 1
        best = 0
        for c in table:  # key = size, then cards already in hand, then value
            v = c >> 2
            h = hc[v]
            t = tc[v]
            key = ((h + (t if t < 4 - h else 4 - h)) << 8) | (h << 4) | v
            if key > best:
                best = key
        size = best >> 8
        picked = False
        if size >= 2 and size > max(hc):
            v = best & 15
            spare = sorted(((hc[c >> 2] + tc[c >> 2]) << 6) | c for c in hand if c >> 2 != v)
            pos = [i for i in range(6) if table[i] >> 2 == v]
            chosen = sorted(x & 63 for x in spare[: len(pos)])
            for i, dcard in zip(pos, chosen):
                hand.remove(dcard)
                hand.append(table[i])
                table[i] = dcard
            picked = True
        if hand[0] >> 2 == hand[1] >> 2 == hand[2] >> 2 == hand[3] >> 2:
            # Kemps (also for a hand dealt as four of a kind): the cards leave, a new hand is dealt
                scores[p] += 1
                if len(pile) < 4:
                    if len(pile) + len(discard) < 4:
                        return tuple(scores), turn + 1, "deck exhausted"
                    perm = rng.permutation(len(discard)).tolist()
                    pile = [discard[i] for i in perm] + pile
                    discard = []
                hands[p] = pile[-4:][::-1]
                del pile[-4:]
        if picked:
            no_pick = 0
        else:
            no_pick += 1
            if no_pick == 3:
                no_pick = 0
                discard.extend(table)
                if len(pile) < 6:
                    perm = rng.permutation(len(discard)).tolist()
                    pile = [discard[i] for i in perm] + pile
                    discard = []
                table = pile[-6:][::-1]
                del pile[-6:]
                if greedy_stuck(hands, (*table, *pile, *discard), m):
                    return tuple(scores), turn + 1, "stalemate"
        turn += 1
        if turn >= max_turns:
            return tuple(scores), turn, "turn limit"
        p = 0 if p == 2 else p + 1
