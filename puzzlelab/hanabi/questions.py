"""Questions about a hand, answered by the hat sum (numba): the heart of `info_compiled`.

Public knowledge is a 25-bit mask of possible identities per card (bit 5 * colour + value - 1)
and the copies of each identity not publicly accounted for. `hat_sum` gives each teammate a
value modulo the messages a hint carries: the answers to questions about his hand, asked in an
order everybody computes from public knowledge alone (`_ask`: the first playable or dead card
among several, is this card playable, which class of its identities), packed in mixed radix;
each teammate's own reading of the sum (`_read_value`) is checked against it. After Wu (2016,
hanabi.rs) and O'Dwyer (2019, InfoBot), written anew. These are kernels over the arrays
`info_compiled` builds; its public functions check every argument before one runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hat_strategies import COPIES_OF
from .kernels import ERRORS, single_card
from .rules import CARDS

__all__ = ["board_sets", "hat_sum", "known", "odds"]

_COPIES = np.array(COPIES_OF, dtype=np.int64)
_Q = 32  # a question: kind, slot or length, then its items (see `_ask`)


# ----- masks and weights ------------------------------------------------------------------------

@njit(cache=True)
def known(m: int) -> bool:
    """Is the card of this mask known (one identity left)?"""
    return single_card(m) >= 0


@njit(cache=True)
def board_sets(fw: np.ndarray, disc: np.ndarray) -> tuple[int, int, int]:
    """Masks of the playable, the dead and the critical identities."""
    playable, dead, critical = 0, 0, 0
    for colour in range(5):
        lost = 5  # the first value of this colour that can no longer be played
        for v in range(fw[colour], 5):
            if disc[5 * colour + v] == _COPIES[5 * colour + v]:
                lost = v
                break
        for v in range(5):
            c = 5 * colour + v
            if v < fw[colour] or v > lost:
                dead |= 1 << c
            elif v == lost:
                dead |= 1 << c
            elif disc[c] == _COPIES[c] - 1:
                critical |= 1 << c
        if fw[colour] < 5 and fw[colour] < lost:
            playable |= 1 << (5 * colour + fw[colour])
    return playable, dead, critical


@njit(cache=True)
def odds(m: int, left: np.ndarray, subset: int) -> tuple[int, int]:
    """(weight of the mask, weight of its identities in `subset`) under the counts `left`."""
    if known(m):
        return 1, 1 if m & subset else 0
    total, part = 0, 0
    for c in range(CARDS):
        if (m >> c) & 1 and left[c] > 0:
            total += left[c]
            if (subset >> c) & 1:
                part += left[c]
    if total == 0:  # counts and mask disagree: every possibility alike
        for c in range(CARDS):
            if (m >> c) & 1:
                total += 1
                part += (subset >> c) & 1
    return total, part


# ----- questions --------------------------------------------------------------------------------

@njit(cache=True)
def _combo(row: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray, know_dead: bool,
           remaining: int, q: np.ndarray) -> int:
    """'Which of these cards, in turn, is playable (then: dead)?' over the open cards; its
    questions written into q (slot, asks-dead pairs); how many (0: nothing to ask)."""
    keys = np.empty(2 * length, dtype=np.float64)
    items = np.empty(2 * length, dtype=np.int64)
    k = 0
    for kind in range(2 if not know_dead else 1):
        for s in range(length):
            total, dead = odds(row[s], left, sets[1])
            if known(row[s]) or dead == total:
                continue
            p = odds(row[s], left, sets[kind])[1] / total
            if p > 0:
                keys[k], items[k] = 2 * kind - p, 2 * s + kind
                k += 1
    if k > remaining - 1:  # keep the likeliest playables, then the likeliest dead
        _sort_by(keys, items, k)
        k = remaining - 1
    for i in range(k):  # then ask the least likely first
        s, kind = items[i] // 2, items[i] % 2
        total, part = odds(row[s], left, sets[kind])
        keys[i] = 2 * kind + part / total
    _sort_by(keys, items, k)
    q[0], q[1] = 0, k
    for i in range(k):
        q[2 + 2 * i], q[3 + 2 * i] = items[i] // 2, items[i] % 2
    return k


@njit(cache=True)
def _sort_by(keys: np.ndarray, items: np.ndarray, k: int) -> None:
    """Stable insertion sort of items[:k] by keys[:k]."""
    for i in range(1, k):
        key, item = keys[i], items[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1], items[j + 1] = keys[j], items[j]
            j -= 1
        keys[j + 1], items[j + 1] = key, item


@njit(cache=True)
def _partition_question(m: int, slot: int, dead_set: int, remaining: int, q: np.ndarray) -> int:
    """Split a card's live identities round-robin into the classes left (the dead ones in one
    class of their own); the number of classes."""
    has_dead = m & dead_set != 0
    room = remaining - 1 if has_dead else remaining
    q[0], q[1] = 2, slot
    q[3:3 + CARDS] = -1
    block, n = 0, 0
    for c in range(CARDS):
        if (m >> c) & 1 and not (dead_set >> c) & 1:
            q[3 + c] = block
            block = (block + 1) % room
            n = min(n + 1, room)
    if has_dead:
        for c in range(CARDS):
            if (m >> c) & 1 and (dead_set >> c) & 1:
                q[3 + c] = n
        n += 1
    q[2] = n
    return n


@njit(cache=True)
def _ask(row: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray, remaining: int,
         q: np.ndarray) -> int:
    """The next question about a hand, from public knowledge alone, into q; its number of
    answers (0: none left to ask). q[0] is the kind: 0 a combination of playable / dead
    questions, 1 'is slot q[1] playable?', 2 a partition of slot q[1]'s identities."""
    know_play, know_dead = False, False
    for s in range(length):
        total, play = odds(row[s], left, sets[0])
        know_play |= play == total
        know_dead |= odds(row[s], left, sets[1])[1] == total
    if not know_play:
        k = _combo(row, length, left, sets, know_dead, remaining, q)
        if k:
            return k + 1
    best, best_score, best_dead = -1, 0.2, 2.0
    for s in range(length):
        total, dead = odds(row[s], left, sets[1])
        if known(row[s]) or dead == total:
            continue
        score = abs(odds(row[s], left, sets[0])[1] / total - 0.7)
        if score < best_score:
            best, best_score = s, score
    if best >= 0:
        q[0], q[1] = 1, best
        return 2
    for s in range(length):  # the open card least likely dead
        total, dead = odds(row[s], left, sets[1])
        if not known(row[s]) and dead < total and dead / total < best_dead:
            best, best_dead = s, dead / total
    if best < 0:
        return 0
    return _partition_question(row[best], best, sets[1], remaining, q)


@njit(cache=True)
def _answer(q: np.ndarray, hand: np.ndarray, sets: np.ndarray) -> int:
    """The answer the cards in `hand` give to the question q."""
    if q[0] == 0:
        for i in range(q[1]):
            if (sets[q[3 + 2 * i]] >> hand[q[2 + 2 * i]]) & 1:
                return i + 1
        return 0
    if q[0] == 1:
        return (sets[0] >> hand[q[1]]) & 1
    return q[3 + hand[q[1]]]


@njit(cache=True)
def _acknowledge(q: np.ndarray, a: int, row: np.ndarray, sets: np.ndarray) -> None:
    """Narrow the hand's masks by the answer a to the question q."""
    if q[0] == 0:
        for i in range(q[1]):
            s, subset = q[2 + 2 * i], sets[q[3 + 2 * i]]
            if a == i + 1:
                row[s] &= subset
                return
            row[s] &= ~subset
    elif q[0] == 1:
        row[q[1]] &= sets[0] if a else ~sets[0]
    else:
        allowed = 0
        for c in range(CARDS):
            if q[3 + c] == a:
                allowed |= 1 << c
        row[q[1]] &= allowed


# ----- the hat ----------------------------------------------------------------------------------

@njit(cache=True)
def _hat_value(row: np.ndarray, length: int, hand: np.ndarray, left: np.ndarray,
               sets: np.ndarray, total: int, q: np.ndarray) -> int:
    """A teammate's value modulo `total`: the answers to the questions about his hand, packed
    in mixed radix; his masks narrowed by them, in place."""
    modulus, value = 1, 0
    while True:
        remaining = (total - value - 1) // modulus + 1
        if remaining <= 1:
            return value
        amount = _ask(row, length, left, sets, remaining, q)
        if amount == 0:
            return value
        a = _answer(q, hand, sets)
        _acknowledge(q, a, row, sets)
        value += modulus * a
        modulus = min(total, modulus * amount)


@njit(cache=True)
def _read_value(row: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray, total: int,
                value: int, q: np.ndarray) -> bool:
    """What the teammate does with his value: split it question by question, narrowing his
    masks; False if the value does not split exactly (a broken code)."""
    modulus = total
    while modulus > 1:
        amount = _ask(row, length, left, sets, modulus, q)
        if amount == 0:
            break
        a = value % amount
        value //= amount
        modulus = (modulus - a - 1) // amount + 1
        _acknowledge(q, a, row, sets)
    return value == 0


@njit(cache=True)
def hat_sum(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray, left: np.ndarray,
             sets: np.ndarray, total: int, st: np.ndarray) -> int:
    """The sum of every teammate's value modulo `total`; each teammate's masks narrowed as his
    own reading of the sum narrows them (checked: a mismatch counts as an error)."""
    n, q = masks.shape[0], np.empty(_Q, dtype=np.int64)
    message = 0
    for k in range(1, n):
        p = (me + k) % n
        before = masks[p].copy()
        value = _hat_value(masks[p], lens[p], hands[p], left, sets, total, q)
        message += value
        ok = _read_value(before, lens[p], left, sets, total, value, q)
        for s in range(lens[p]):
            ok &= before[s] == masks[p, s] and (masks[p, s] >> hands[p, s]) & 1 == 1
        st[ERRORS] += not ok
    return message % total
