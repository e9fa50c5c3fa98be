"""The strong information strategy, compiled (numba): questions answered by the hat sum.

Cox et al. (2015) send every teammate one number with each hint: the hinter sees all the other
hands, adds up one value per teammate modulo the number of messages M the choice of hint can
carry, and picks the hint that names the sum; each teammate subtracts what he sees and reads
his own value. This module plays the refinement of that idea due to Wu (hanabi.rs, 2016) and
O'Dwyer (Quuxplusone/Hanabi's InfoBot, 2018), written anew over 25-bit possibility masks:

- **Public knowledge** of every hand: one mask of possible identities per card, narrowed by
  hints, by every answer a hat sum carried, and by counting the cards played, discarded or
  known in some hand (`kernels.count_out`); the weight of an identity is its copies not
  publicly accounted for.
- **Questions** asked of a teammate's hand, in an order everyone computes from public knowledge
  alone (`_ask`): first "which of these cards, taken in turn, is playable (or else dead)?", then
  "is this card playable?" for a card near 70 % playable, then a partition of one card's
  identities into as many classes as messages remain. The answers are packed in mixed radix
  into the teammate's value modulo M, as many as M holds.
- **M**, the messages per teammate (`HINT_COUNTS`): ``"cox"`` two (a colour hint or a value
  hint); ``"index"`` three or four, by whether the hint touches one chosen card and is of colour
  or value (hanabi.rs, InfoBot); ``"packing"`` the largest partition of the ten hints into sure
  groups (the post's set packing, `kernels.sure_partition`); ``"best"`` the larger of index
  and packing for each teammate.
- **Moves**: play a card surely playable (the lowest value held by fewest teammates first); risk
  a play above 75 % when it cannot waste a needed card and a fuse can be spared; hint while a
  teammate holds a playable card he does not know of, or tokens are full; discard a card known
  useless (when several, the choice among them is one more hat sum), else the card most likely
  seen elsewhere, dispensable and high. A discard with tokens in hand tells everyone that no
  teammate needed a hint.

`play_deals(rules, seeds, hints)` returns one row of `hat_compiled.STATS` per deal;
`compiled_moves(rules, seed, hints)` the moves of one deal, which `rules.Game` replays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .. import checks
from .hat_compiled import BITS_SCALE, ENDS, MAX_TURNS, STATS, moves_of
from .kernels import count_out, single_card, sure_partition
from .hat_strategies import ALL_CARDS, COPIES_OF, HINT_CARDS
from .rules import CARDS, Move, Rules, as_rules, dealt_deck

__all__ = ["BITS_SCALE", "ENDS", "HINT_COUNTS", "STATS", "compiled_moves", "play_deals"]

HINT_COUNTS = ("cox", "index", "packing", "best")  # how many messages a hint carries, per mate
_COPIES = np.array(COPIES_OF, dtype=np.int64)
_HINT_CARDS = np.array(HINT_CARDS, dtype=np.int64)
_BITS = np.round(np.log2(np.maximum(np.arange(257), 1)) * BITS_SCALE).astype(np.int64)
_ALL = ALL_CARDS
_Q = 32  # a question: kind, slot or length, then its items (see `_ask`)
# the scalars of a game, by index into one array
POS, N_DISC, TOKENS, FUSES, FINAL, END, TURN, N_HINTS, BITS, MESSAGES, ERRORS = range(11)


# ----- masks and weights ------------------------------------------------------------------------

@njit(cache=True)
def _known(m: int) -> bool:
    """Is the card of this mask known (one identity left)?"""
    return single_card(m) >= 0


@njit(cache=True)
def _board_sets(fw: np.ndarray, disc: np.ndarray) -> tuple[int, int, int]:
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
def _odds(m: int, left: np.ndarray, subset: int) -> tuple[int, int]:
    """(weight of the mask, weight of its identities in `subset`) under the counts `left`."""
    if _known(m):
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


@njit(cache=True)
def _public_left(fw: np.ndarray, disc: np.ndarray, masks: np.ndarray,
                 lens: np.ndarray) -> np.ndarray:
    """Copies of each identity not publicly accounted for (played, discarded, known in a hand)."""
    left = _COPIES - disc
    for colour in range(5):
        for v in range(fw[colour]):
            left[5 * colour + v] -= 1
    for p in range(masks.shape[0]):
        for s in range(lens[p]):
            if _known(masks[p, s]):
                left[single_card(masks[p, s])] -= 1
    return left


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
            total, dead = _odds(row[s], left, sets[1])
            if _known(row[s]) or dead == total:
                continue
            p = _odds(row[s], left, sets[kind])[1] / total
            if p > 0:
                keys[k], items[k] = 2 * kind - p, 2 * s + kind
                k += 1
    if k > remaining - 1:  # keep the likeliest playables, then the likeliest dead
        _sort_by(keys, items, k)
        k = remaining - 1
    for i in range(k):  # then ask the least likely first
        s, kind = items[i] // 2, items[i] % 2
        total, part = _odds(row[s], left, sets[kind])
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
        total, play = _odds(row[s], left, sets[0])
        know_play |= play == total
        know_dead |= _odds(row[s], left, sets[1])[1] == total
    if not know_play:
        k = _combo(row, length, left, sets, know_dead, remaining, q)
        if k:
            return k + 1
    best, best_score, best_dead = -1, 0.2, 2.0
    for s in range(length):
        total, dead = _odds(row[s], left, sets[1])
        if _known(row[s]) or dead == total:
            continue
        score = abs(_odds(row[s], left, sets[0])[1] / total - 0.7)
        if score < best_score:
            best, best_score = s, score
    if best >= 0:
        q[0], q[1] = 1, best
        return 2
    for s in range(length):  # the open card least likely dead
        total, dead = _odds(row[s], left, sets[1])
        if not _known(row[s]) and dead < total and dead / total < best_dead:
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
def _hat_sum(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray, left: np.ndarray,
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


# ----- the hint that names the sum --------------------------------------------------------------

@njit(cache=True)
def _index_card(row: np.ndarray, length: int, dead_set: int) -> int:
    """The card the index count hints about: the open card with most colours and values
    still possible (the first on ties)."""
    best, best_score = 0, -1
    for s in range(length):
        m, score = row[s], 0
        if not _known(m) and m & ~dead_set:
            for h in range(10):
                score += (m & _HINT_CARDS[h]) != 0
        if score > best_score:
            best, best_score = s, score
    return best


@njit(cache=True)
def _one_kind_possible(row: np.ndarray, length: int, first: int) -> bool:
    """May the whole hand be of one colour (first = 0) or of one value (first = 5)?"""
    for h in range(first, first + 5):
        every = True
        for s in range(length):
            every &= (row[s] & _HINT_CARDS[h]) != 0
        if every:
            return True
    return False


@njit(cache=True)
def _scheme(row: np.ndarray, length: int, sets: np.ndarray, mode: int,
            groups: np.ndarray) -> tuple[int, int, int]:
    """How a teammate's hints are read, from public knowledge: (messages, kind, card), kind
    0 colour or value, 1 and 2 the index count of 3 or 4, 3 the sure groups in `groups`."""
    common = _ALL
    for s in range(length):
        common &= row[s]
    index_kind, index_count = 0, 2
    if length >= 4 or common == 0:  # some card surely differs from the chosen one
        index_kind, index_count = 1, 3
        if not _one_kind_possible(row, length, 0) and not _one_kind_possible(row, length, 5):
            index_kind, index_count = 2, 4
    card = _index_card(row, length, sets[1])
    if mode == 0:
        return 2, 0, card
    if mode == 1:
        return index_count, index_kind, card
    k = sure_partition(row, length, 0, groups)
    if mode == 2 or k > index_count:
        return k, 3, card
    return index_count, index_kind, card


@njit(cache=True)
def _hint_type(kind: int, card: int, groups: np.ndarray, h: int, held: int) -> int:
    """The message a hint h carries to a teammate whose chosen card is `held`."""
    if kind == 0:
        return 0 if h < 5 else 1
    if kind == 3:
        return groups[h]
    if (_HINT_CARDS[h] >> held) & 1:
        return 0 if h >= 5 else 1
    if kind == 1:
        return 2
    return 2 if h >= 5 else 3


@njit(cache=True)
def _goodness(row: np.ndarray, length: int, hand: np.ndarray, h: int, left: np.ndarray,
              dead_set: int) -> float:
    """How much a hint's own information narrows the open cards (bonus for settling one)."""
    g = 1.0
    for s in range(length):
        m = row[s]
        if _known(m) or m & ~dead_set == 0:
            continue
        after = m & _HINT_CARDS[h] if (_HINT_CARDS[h] >> hand[s]) & 1 else m & ~_HINT_CARDS[h]
        bonus = 2.0 if _known(after) or after & ~dead_set == 0 else 1.0
        g *= bonus * _odds(m, left, 0)[0] / _odds(after, left, 0)[0]
    return g


@njit(cache=True)
def _choose_hint(row: np.ndarray, length: int, hand: np.ndarray, kind: int, card: int,
                 groups: np.ndarray, t: int, left: np.ndarray, dead_set: int) -> int:
    """The legal hint that carries message t and narrows most (-1: none carries it)."""
    best, best_g = -1, -1.0
    for h in range(10):
        legal = False
        for s in range(length):
            legal |= (_HINT_CARDS[h] >> hand[s]) & 1 == 1
        if legal and _hint_type(kind, card, groups, h, hand[card]) == t:
            g = _goodness(row, length, hand, h, left, dead_set)
            if g > best_g:
                best, best_g = h, g
    return best


@njit(cache=True)
def _give_hint(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray,
               fw: np.ndarray, disc: np.ndarray, sets: np.ndarray, mode: int,
               st: np.ndarray) -> int:
    """Hint the sum of every teammate's value; the move's code (200 + 10 target + hint)."""
    n = masks.shape[0]
    left = _public_left(fw, disc, masks, lens)
    counts, kinds, cards = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    groups = np.zeros((n, 10), dtype=np.int64)
    total = 0
    for k in range(1, n):
        p = (me + k) % n
        counts[p], kinds[p], cards[p] = _scheme(masks[p], lens[p], sets, mode, groups[p])
        total += counts[p]
    t = _hat_sum(me, hands, masks, lens, left, sets, total, st)
    target = (me + 1) % n
    for k in range(1, n):
        target = (me + k) % n
        if t < counts[target]:
            break
        t -= counts[target]
    h = _choose_hint(masks[target], lens[target], hands[target], kinds[target], cards[target],
                     groups[target], t, left, sets[1])
    if h < 0:
        st[ERRORS] += 1
        h = 5 + hands[target, 0] % 5  # a legal hint, whatever it says
    for s in range(lens[target]):
        touched = (_HINT_CARDS[h] >> hands[target, s]) & 1
        masks[target, s] &= _HINT_CARDS[h] if touched else ~_HINT_CARDS[h]
    st[N_HINTS] += 1
    st[BITS] += _BITS[total]
    st[MESSAGES] += total
    return 200 + 10 * target + h


# ----- the player's own cards -------------------------------------------------------------------

@njit(cache=True)
def _private(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray, fw: np.ndarray,
             disc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The player's masks with every card he sees counted out, and the copies left unseen."""
    seen = disc.copy()
    for colour in range(5):
        for v in range(fw[colour]):
            seen[5 * colour + v] += 1
    for p in range(masks.shape[0]):
        if p != me:
            for s in range(lens[p]):
                seen[hands[p, s]] += 1
    own = masks[me:me + 1].copy()
    count_out(own, lens[me:me + 1], seen)
    left = _COPIES - seen
    for s in range(lens[me]):
        if _known(own[0, s]):
            left[single_card(own[0, s])] -= 1
    return own[0], left


@njit(cache=True)
def _held_by_others(me: int, hands: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """How many teammates hold each identity."""
    held = np.zeros(CARDS, dtype=np.int64)
    for p in range(hands.shape[0]):
        if p != me:
            seen = 0
            for s in range(lens[p]):
                if not (seen >> hands[p, s]) & 1:
                    held[hands[p, s]] += 1
                seen |= 1 << hands[p, s]
    return held


@njit(cache=True)
def _sure_play(own: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray,
               held: np.ndarray, deck_left: bool) -> int:
    """The surely playable card to play first (low values held by few teammates), or -1."""
    best, best_score = -1, -1.0
    for s in range(length):
        total, play = _odds(own[s], left, sets[0])
        if play != total:
            continue
        score, weight = 0.0, 0
        for c in range(CARDS):
            if (own[s] >> c) & 1:
                w = max(left[c], 1) if not _known(own[s]) else 1
                score += w * (9 - c % 5) / (1 + (held[c] if deck_left else 0))
                weight += w
        if score / weight > best_score:
            best, best_score = s, score / weight
    return best


@njit(cache=True)
def _likeliest_play(own: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray,
                    floor: float, wasteless: bool) -> int:
    """The card most likely playable, above `floor` (and, if `wasteless`, surely playable or
    dead), or -1."""
    best, best_p = -1, floor
    for s in range(length):
        total, play = _odds(own[s], left, sets[0])
        if wasteless and _odds(own[s], left, sets[0] | sets[1])[1] != total:
            continue
        if play / total > best_p:
            best, best_p = s, play / total
    return best


@njit(cache=True)
def _useless(row: np.ndarray, length: int, dead_set: int) -> np.ndarray:
    """The cards surely dead or surely a copy of another card in the hand, in slot order."""
    flag = np.zeros(length, dtype=np.bool_)
    for s in range(length):
        if row[s] & ~dead_set == 0:
            flag[s] = True
        elif _known(row[s]):
            for s2 in range(s):
                if row[s2] == row[s]:
                    flag[s] = flag[s2] = True
    return np.nonzero(flag)[0]


@njit(cache=True)
def _safest_discard(own: np.ndarray, length: int, left: np.ndarray, sets: np.ndarray,
                    held: np.ndarray) -> int:
    """The card most likely seen in another hand, dispensable, and high."""
    best, best_v = 0, -1.0
    for s in range(length):
        total, seen, safe, value = 0, 0, 0, 0
        for c in range(CARDS):
            if (own[s] >> c) & 1:
                w = 1 if _known(own[s]) else max(left[c], 0)
                total += w
                seen += w * (held[c] > 0)
                safe += w * (not (sets[2] >> c) & 1)
                value += w * (c % 5 + 1)
        if total == 0:
            continue
        v = (20.0 * seen + 10.0 * safe + value) / total
        if v > best_v:
            best, best_v = s, v
    return best


# ----- a turn -----------------------------------------------------------------------------------

@njit(cache=True)
def _needs_hint(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray,
                playable: int, movers: int) -> tuple[bool, bool]:
    """(does a teammate who moves again hold a playable card he does not know of, can any
    teammate play?); `movers` teammates move after this turn (all of them while cards are
    left to draw)."""
    needs, can = False, False
    n = hands.shape[0]
    for k in range(1, n):
        p = (me + k) % n
        holds, knows = False, False
        for s in range(lens[p]):
            holds |= (playable >> hands[p, s]) & 1 == 1
            knows |= masks[p, s] & ~playable == 0
        can |= holds
        needs |= holds and not knows and k <= movers
    return needs, can


@njit(cache=True)
def _nobody_needed_a_hint(me: int, masks: np.ndarray, lens: np.ndarray, playable: int) -> None:
    """What a discard with tokens in hand tells: a teammate who knows of no playable card
    holds none."""
    for p in range(masks.shape[0]):
        if p == me:
            continue
        knows = False
        for s in range(lens[p]):
            knows |= masks[p, s] & ~playable == 0
        if not knows:
            for s in range(lens[p]):
                masks[p, s] &= ~playable


@njit(cache=True)
def _will_hint(st: np.ndarray, max_tokens: int, needs: bool, can: bool, useless: bool,
               threshold: int) -> bool:
    """Hint rather than discard (hanabi.rs's rule)."""
    if st[TOKENS] == max_tokens or (st[TOKENS] > 0 and needs):
        return True
    if st[N_DISC] <= threshold and useless:
        return False
    if st[TOKENS] > 0 and can:
        return True
    return st[TOKENS] > 4


@njit(cache=True)
def _discard(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray, fw: np.ndarray,
             disc: np.ndarray, sets: np.ndarray, own: np.ndarray, left: np.ndarray,
             st: np.ndarray) -> int:
    """The card to discard; several publicly useless ones are chosen among by a hat sum."""
    public_useless = _useless(masks[me], lens[me], sets[1])
    useless = _useless(own, lens[me], sets[1])
    if st[TOKENS] > 0:
        _nobody_needed_a_hint(me, masks, lens, sets[0])
    if len(public_useless) > 1:
        pub = _public_left(fw, disc, masks, lens)
        return public_useless[_hat_sum(me, hands, masks, lens, pub, sets,
                                       len(public_useless), st)]
    if len(useless):
        return useless[0]
    return _safest_discard(own, lens[me], left, sets, _held_by_others(me, hands, lens))


@njit(cache=True)
def _move(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray, fw: np.ndarray,
          disc: np.ndarray, st: np.ndarray, max_tokens: int, mode: int, deck_left: bool) -> int:
    """The player's move, coded kind * 100 + detail (play, discard, hint 200 + 10 t + h)."""
    n, h = hands.shape
    sets = np.array(_board_sets(fw, disc), dtype=np.int64)
    own, left = _private(me, hands, masks, lens, fw, disc)
    held = _held_by_others(me, hands, lens)
    slot = _sure_play(own, lens[me], left, sets, held, deck_left)
    if slot >= 0:
        return slot
    threshold = 2 * CARDS - CARDS - n * h
    if st[FUSES] > 1 and st[N_DISC] <= threshold:
        slot = _likeliest_play(own, lens[me], left, sets, 0.75, True)
        if slot >= 0:
            return slot
    movers = n - 1 if deck_left else st[FINAL] - 1
    needs, can = _needs_hint(me, hands, masks, lens, sets[0], movers)
    if not deck_left and st[FUSES] > 1 and not (needs and st[TOKENS] > 0):
        slot = _likeliest_play(own, lens[me], left, sets, 0.0, False)  # its last turn
        if slot >= 0:
            return slot
    useless = len(_useless(own, lens[me], sets[1])) > 0
    if _will_hint(st, max_tokens, needs, can, useless, threshold):
        return _give_hint(me, hands, masks, lens, fw, disc, sets, mode, st)
    return 100 + _discard(me, hands, masks, lens, fw, disc, sets, own, left, st)


@njit(cache=True)
def _take(me: int, slot: int, played: bool, deck: np.ndarray, hands: np.ndarray,
          masks: np.ndarray, lens: np.ndarray, fw: np.ndarray, disc: np.ndarray,
          st: np.ndarray, max_tokens: int) -> None:
    """A card leaves the hand (played or discarded) and the deck's next card comes in."""
    card = hands[me, slot]
    for s in range(slot, lens[me] - 1):
        hands[me, s], masks[me, s] = hands[me, s + 1], masks[me, s + 1]
    if played and fw[card // 5] == card % 5:
        fw[card // 5] += 1
        if card % 5 == 4:
            st[TOKENS] = min(st[TOKENS] + 1, max_tokens)
    else:
        disc[card] += 1
        st[N_DISC] += 1
        if played:
            st[FUSES] -= 1
        else:
            st[TOKENS] = min(st[TOKENS] + 1, max_tokens)
    if st[POS] < deck.shape[0]:
        hands[me, lens[me] - 1], masks[me, lens[me] - 1] = deck[st[POS]], _ALL
        st[POS] += 1
        if st[POS] == deck.shape[0]:
            st[FINAL] = hands.shape[0] + 1  # one more turn each, this one's end counted below
    else:
        lens[me] -= 1
        hands[me, lens[me]] = -1


@njit(cache=True)
def _turn_end(st: np.ndarray, fw: np.ndarray, moves: np.ndarray) -> None:
    """Count the turn and decide whether the game is over (fuses, perfect, deck)."""
    if st[FINAL] >= 0:
        st[FINAL] -= 1
    if st[FUSES] == 0:
        st[END] = 1
    elif fw.sum() == CARDS:
        st[END] = 2
    elif st[FINAL] == 0:
        st[END] = 3
    st[TURN] += 1
    if st[END] == 0 and st[TURN] >= moves.shape[0]:
        st[ERRORS] += 1
        st[END] = 3


@njit(cache=True)
def _play(deck: np.ndarray, n: int, h: int, mode: int, max_tokens: int, fuses: int,
          moves: np.ndarray, stats: np.ndarray) -> None:
    """Play one deal with the strategy in every seat; moves and stats filled in."""
    hands = deck[:n * h].copy().reshape(n, h)
    masks = np.full((n, h), _ALL, dtype=np.int64)
    lens = np.full(n, h, dtype=np.int64)
    fw, disc = np.zeros(5, dtype=np.int64), np.zeros(CARDS, dtype=np.int64)
    st = np.zeros(11, dtype=np.int64)
    st[POS], st[TOKENS], st[FUSES], st[FINAL] = n * h, max_tokens, fuses, -1
    moves[:] = -1
    while st[END] == 0:
        me = st[TURN] % n
        code = _move(me, hands, masks, lens, fw, disc, st, max_tokens, mode,
                     st[POS] < deck.shape[0])
        moves[st[TURN]] = code
        if code < 200:
            _take(me, code % 100, code < 100, deck, hands, masks, lens, fw, disc, st,
                  max_tokens)
        else:
            st[TOKENS] -= 1
        used = disc.copy()
        for colour in range(5):
            for v in range(fw[colour]):
                used[5 * colour + v] += 1
        count_out(masks, lens, used)
        for p in range(n):  # public knowledge stays true of every hand
            for s in range(lens[p]):
                st[ERRORS] += not (masks[p, s] >> hands[p, s]) & 1
        _turn_end(st, fw, moves)
    stats[0], stats[1], stats[2], stats[3] = fw.sum(), st[END], fuses - st[FUSES], st[N_HINTS]
    stats[4], stats[5], stats[6], stats[7] = st[BITS], st[MESSAGES], st[TURN], st[ERRORS]


@njit(cache=True)
def _play_block(decks: np.ndarray, n: int, h: int, mode: int, max_tokens: int,
                fuses: int) -> np.ndarray:
    stats = np.zeros((decks.shape[0], len(STATS)), dtype=np.int64)
    moves = np.empty(MAX_TURNS, dtype=np.int64)
    for i in range(decks.shape[0]):
        _play(decks[i], n, h, mode, max_tokens, fuses, moves, stats[i])
    return stats


# ----- the public face --------------------------------------------------------------------------

def play_deals(rules: Rules | int, seeds: Sequence[int], hints: str = "best") -> np.ndarray:
    """One row of `STATS` per deal (deal i is `rules.dealt_deck(seeds[i])`): the strong
    information strategy in every seat, its messages counted by `hints` (`HINT_COUNTS`)."""
    rules = as_rules(rules)
    mode = HINT_COUNTS.index(checks.choice(hints, "hints", HINT_COUNTS))
    seeds = checks.integers(seeds, "seeds", low=0)
    decks = np.array([dealt_deck(s) for s in seeds], dtype=np.int64).reshape(len(seeds), -1)
    stats = _play_block(decks, rules.players, rules.hand_size, mode, rules.hint_tokens,
                        rules.fuses)
    if stats[:, 7].any():
        raise ValueError(f"a game broke the hat code (a value read wrongly, no hint to carry a "
                         f"message, or knowledge that excludes a card held) in deals "
                         f"{[s for s, e in zip(seeds, stats[:, 7]) if e]}")
    return stats


def compiled_moves(rules: Rules | int, seed: int, hints: str = "best") -> list[Move]:
    """The moves of one deal played by the strong information strategy."""
    rules = as_rules(rules)
    mode = HINT_COUNTS.index(checks.choice(hints, "hints", HINT_COUNTS))
    deck = np.array(dealt_deck(checks.seed(seed)), dtype=np.int64)
    moves, stats = np.empty(MAX_TURNS, dtype=np.int64), np.zeros(len(STATS), dtype=np.int64)
    _play(deck, rules.players, rules.hand_size, mode, rules.hint_tokens, rules.fuses, moves,
          stats)
    return moves_of(moves[moves >= 0].tolist())
