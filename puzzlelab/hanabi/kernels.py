"""Compiled pieces shared by the compiled strategies (numba): bits, card counting, sure groups.

Masks are 25-bit sets of card identities (bit 5 * colour + value - 1), hands rows of masks.
`sure_partition` is `solvers.max_hint_partition` written again over bit masks: the same
dynamic programme over the subsets of hints, the same ties, the same placement of the hints
no sure set uses (tests/test_hanabi_hat_strategies.py checks it against the solvers).
These are kernels over arrays that `hat_compiled` and `info_compiled` build themselves; their
public functions (`play_deals`, `compiled_moves`) check every argument before any kernel runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hat_strategies import ALL_CARDS, COPIES_OF, RANK_ORDER
from .rules import CARDS

__all__ = [
    "ALL", "BITS", "END", "ERRORS", "FINAL", "FUSES", "MESSAGES", "N_DISC", "N_HINTS", "POS",
    "TOKENS", "TURN", "after_move", "card_classes", "count_out", "critical_card", "dead_card",
    "end_turn", "game_stats", "low_bit", "new_game", "playable_card", "popcount", "single_card",
    "own_masks", "seen_by", "sure_partition", "take_card", "unseen_copies", "used_cards",
]

_COPIES = np.array(COPIES_OF, dtype=np.int64)
_RANK_ORDER = np.array(RANK_ORDER, dtype=np.int64)
ALL = ALL_CARDS  # a card nobody knows anything about
# The scalars of a game in play, by index into one array (`play_game`): the next card of the
# deck, cards discarded, hint tokens, fuses left, turns left once the deck is out (-1 before),
# the end (`hat_compiled.ENDS`), the turn, hints given, bits and messages they carried, errors.
POS, N_DISC, TOKENS, FUSES, FINAL, END, TURN, N_HINTS, BITS, MESSAGES, ERRORS = range(11)


@njit(cache=True)
def single_card(m: int) -> int:
    """The card of a one-card mask, -1 for any other mask."""
    if m == 0 or m & (m - 1):
        return -1
    c = 0
    while m > 1:
        m >>= 1
        c += 1
    return c


@njit(cache=True)
def popcount(m: int) -> int:
    """The number of bits set."""
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def low_bit(m: int) -> int:
    """The index of the lowest bit set (m > 0)."""
    b = 0
    while not (m >> b) & 1:
        b += 1
    return b


@njit(cache=True)
def count_out(masks: np.ndarray, lens: np.ndarray, seen: np.ndarray) -> None:
    """Card counting in place (as `hat_strategies._count_out`), over masks[p, :lens[p]]: an
    identity whose copies are all seen (`seen`) or known in some slot is struck from the others."""
    while True:
        observed = seen.copy()
        for p in range(masks.shape[0]):
            for s in range(lens[p]):
                c = single_card(masks[p, s])
                if c >= 0:
                    observed[c] += 1
        gone = 0
        for c in range(CARDS):
            if observed[c] >= _COPIES[c]:
                gone |= 1 << c
        changed = False
        for p in range(masks.shape[0]):
            for s in range(lens[p]):
                m = masks[p, s]
                if m & (m - 1) and m & gone:
                    masks[p, s] = m & ~gone
                    changed = True
        if not changed:
            return


@njit(cache=True)
def _sort_by_low_bit(parts: np.ndarray, k: int) -> None:
    """Sort parts[:k] by their lowest bit, in place (insertion sort: stable, k <= 10)."""
    for i in range(1, k):
        x = parts[i]
        j = i - 1
        while j >= 0 and (parts[j] & -parts[j]) > (x & -x):
            parts[j + 1] = parts[j]
            j -= 1
        parts[j + 1] = x


def _has_bit(n_hints: int) -> np.ndarray:
    """For each hint b, the subsets of hints containing b, as 64-subset words (bit j of word w:
    subset 64 w + j)."""
    words = max(1, (1 << n_hints) // 64)
    has = np.zeros((n_hints, words), dtype=np.uint64)
    for b in range(n_hints):
        for subset in range(1 << n_hints):
            if subset >> b & 1:
                has[b, subset // 64] |= np.uint64(1 << (subset % 64))
    return has


_HAS10, _HAS5 = _has_bit(10), _has_bit(5)


@njit(cache=True)
def _sure_words(row: np.ndarray, length: int, kind: int, has: np.ndarray) -> np.ndarray:
    """The sure subsets of hints, 64 to a word: a card certifies the subsets that meet every
    identity it may have, and a subset is sure when some card certifies it."""
    words = has.shape[1]
    sure_words = np.zeros(words, dtype=np.uint64)
    certified = np.empty(words, dtype=np.uint64)
    for s in range(length):
        certified[:] = ~np.uint64(0)
        for c in range(CARDS):
            if (row[s] >> c) & 1:
                colour, value = c // 5, c % 5
                for w in range(words):
                    if kind == 0:
                        certified[w] &= has[colour, w] | has[5 + value, w]
                    elif kind == 1:
                        certified[w] &= has[colour, w]
                    else:
                        certified[w] &= has[value, w]
        for w in range(words):
            sure_words[w] |= certified[w]
    return sure_words


@njit(cache=True)
def _minimal_buckets(sure_words: np.ndarray, n_hints: int,
                     has: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The minimal sure subsets (no hint can be dropped), bucketed by their lowest hint,
    ascending within a bucket: (buckets, sizes)."""
    words = has.shape[1]
    not_minimal = np.zeros(words, dtype=np.uint64)
    for b in range(n_hints):
        if b < 6:
            shifted = np.uint64(1 << b)
            for w in range(words):
                not_minimal[w] |= (sure_words[w] << shifted) & has[b, w]
        else:
            step = 1 << (b - 6)
            for w in range(words):
                if (w >> (b - 6)) & 1:
                    not_minimal[w] |= sure_words[w - step]
    bucket = np.empty((n_hints, 1 << n_hints), dtype=np.int64)
    n_bucket = np.zeros(n_hints, dtype=np.int64)
    for w in range(words):
        minimal = sure_words[w] & ~not_minimal[w]
        if n_hints == 5:
            minimal &= np.uint64(0xFFFFFFFF)  # 32 subsets of five hints
        while minimal:
            j = low_bit(minimal)
            minimal &= minimal - np.uint64(1)
            subset = 64 * w + j
            low = low_bit(subset)
            bucket[low, n_bucket[low]] = subset
            n_bucket[low] += 1
    return bucket, n_bucket


@njit(cache=True)
def _most_disjoint(bucket: np.ndarray, n_bucket: np.ndarray, n_hints: int) -> np.ndarray:
    """The most pairwise-disjoint minimal sure subsets (dynamic programme over the subsets of
    hints, each step taking or leaving the lowest hint), in the order the programme finds."""
    full = (1 << n_hints) - 1
    best = np.empty(full + 1, dtype=np.int64)
    choice = np.empty(full + 1, dtype=np.int64)
    best[0], choice[0] = 0, 0
    for mask in range(1, full + 1):
        low = mask & -mask
        best[mask], choice[mask] = best[mask ^ low], 0
        b = low_bit(mask)
        for i in range(n_bucket[b]):
            s = bucket[b, i]
            if s & mask == s and 1 + best[mask ^ s] > best[mask]:
                best[mask], choice[mask] = 1 + best[mask ^ s], s
    parts = np.empty(best[full], dtype=np.int64)
    k, mask = 0, full
    while mask:
        s = choice[mask] if choice[mask] else mask & -mask
        if choice[mask]:
            parts[k] = s
            k += 1
        mask ^= s
    return parts


@njit(cache=True)
def sure_partition(row: np.ndarray, length: int, kind: int, out: np.ndarray) -> int:
    """A maximum partition of the hints into sure groups, as `solvers.max_hint_partition`.

    kind 0: the ten hints (colours and values mixed); 1: the colours; 2: the values. Writes
    each hint's group into out[:H] and returns the number of groups; a hint no sure set uses
    joins the smallest group.
    """
    n_hints = 10 if kind == 0 else 5
    has = _HAS10 if kind == 0 else _HAS5
    bucket, n_bucket = _minimal_buckets(_sure_words(row, length, kind, has), n_hints, has)
    parts = _most_disjoint(bucket, n_bucket, n_hints)
    k = parts.shape[0]
    used = 0
    for i in range(k):
        used |= parts[i]
    _sort_by_low_bit(parts, k)
    for b in range(n_hints):
        if not (used >> b) & 1:
            smallest = 0
            for i in range(1, k):
                if popcount(parts[i]) < popcount(parts[smallest]):
                    smallest = i
            parts[smallest] |= 1 << b
    _sort_by_low_bit(parts, k)
    for i in range(k):
        for b in range(n_hints):
            if (parts[i] >> b) & 1:
                out[b] = i
    return k


# ----- cards on the board ----------------------------------------------------------------------

@njit(cache=True)
def playable_card(c: int, fw: np.ndarray) -> bool:
    """Is card c the next of its colour on the fireworks `fw`?"""
    return fw[c // 5] == c % 5


@njit(cache=True)
def dead_card(c: int, fw: np.ndarray, disc: np.ndarray) -> bool:
    """Can card c never be played (played already, or a lower card all discarded)?"""
    colour, value = c // 5, c % 5
    if value < fw[colour]:
        return True
    for v in range(fw[colour], value):
        if disc[5 * colour + v] == _COPIES[5 * colour + v]:
            return True
    return False


@njit(cache=True)
def critical_card(c: int, fw: np.ndarray, disc: np.ndarray) -> bool:
    """Is card c needed and its last copy?"""
    return not dead_card(c, fw, disc) and disc[c] == _COPIES[c] - 1


@njit(cache=True)
def card_classes(mask: int, fw: np.ndarray, disc: np.ndarray, modulus: int) -> np.ndarray:
    """Each card's class (-1: not possible), as `hat_strategies.card_classes`."""
    classes = np.full(CARDS, -1, dtype=np.int64)
    live = np.empty(CARDS, dtype=np.int64)
    n_live, any_dead = 0, False
    for c in _RANK_ORDER:
        if (mask >> c) & 1:
            if dead_card(c, fw, disc):
                classes[c] = 0
                any_dead = True
            else:
                live[n_live] = c
                n_live += 1
    first, room = (1, modulus - 1) if any_dead else (0, modulus)
    if n_live <= room:
        for i in range(n_live):
            classes[live[i]] = first + i
        return classes
    singles = 0
    for i in range(room):
        if i + modulus * (room - i) >= n_live:
            singles = i
    blocks = room - singles
    size, extra = divmod(n_live - singles, blocks)
    for i in range(singles):
        classes[live[i]] = first + i
    start = singles
    for b in range(blocks):
        end = start + size + (1 if b < extra else 0)
        for i in range(start, end):
            classes[live[i]] = first + singles + b
        start = end
    return classes


# ----- a game in play ---------------------------------------------------------------------------

@njit(cache=True)
def used_cards(fw: np.ndarray, disc: np.ndarray) -> np.ndarray:
    """Copies of each identity played (on the fireworks) or discarded."""
    used = disc.copy()
    for colour in range(5):
        for v in range(fw[colour]):
            used[5 * colour + v] += 1
    return used


@njit(cache=True)
def unseen_copies(fw: np.ndarray, disc: np.ndarray, masks: np.ndarray,
                  lens: np.ndarray) -> np.ndarray:
    """Copies of each identity not publicly accounted for: played, discarded or known in a
    hand (as `hat_strategies.PublicKnowledge.remaining`)."""
    left = _COPIES - used_cards(fw, disc)
    for p in range(masks.shape[0]):
        for s in range(lens[p]):
            c = single_card(masks[p, s])
            if c >= 0:
                left[c] -= 1
    return left


@njit(cache=True)
def seen_by(me: int, hands: np.ndarray, lens: np.ndarray, fw: np.ndarray,
            disc: np.ndarray) -> np.ndarray:
    """Copies of each identity player `me` sees: played, discarded and in the other hands."""
    seen = used_cards(fw, disc)
    for p in range(hands.shape[0]):
        if p != me:
            for s in range(lens[p]):
                seen[hands[p, s]] += 1
    return seen


@njit(cache=True)
def own_masks(me: int, masks: np.ndarray, lens: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Player `me`'s public masks with every card he sees (`seen`) counted out."""
    own = masks[me:me + 1].copy()
    count_out(own, lens[me:me + 1], seen)
    return own[0]


@njit(cache=True)
def take_card(me: int, slot: int, played: bool, deck: np.ndarray, hands: np.ndarray,
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
        hands[me, lens[me] - 1], masks[me, lens[me] - 1] = deck[st[POS]], ALL
        st[POS] += 1
        if st[POS] == deck.shape[0]:
            st[FINAL] = hands.shape[0] + 1  # one more turn each, this one's end counted below
    else:
        lens[me] -= 1
        hands[me, lens[me]] = -1


@njit(cache=True)
def end_turn(st: np.ndarray, fw: np.ndarray, moves: np.ndarray) -> None:
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
def new_game(deck: np.ndarray, n: int, h: int, max_tokens: int, fuses: int, moves: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A deal's start: hands, public masks (nothing known), hand lengths, fireworks, discards
    (counts by identity) and the game's scalars (`POS` ... `ERRORS`); no move yet."""
    moves[:] = -1
    hands = deck[:n * h].copy().reshape(n, h)
    masks = np.full((n, h), ALL, dtype=np.int64)
    lens = np.full(n, h, dtype=np.int64)
    fw, disc = np.zeros(5, dtype=np.int64), np.zeros(CARDS, dtype=np.int64)
    st = np.zeros(11, dtype=np.int64)
    st[POS], st[TOKENS], st[FUSES], st[FINAL] = n * h, max_tokens, fuses, -1
    return hands, masks, lens, fw, disc, st


@njit(cache=True)
def after_move(code: int, deck: np.ndarray, hands: np.ndarray, masks: np.ndarray,
               lens: np.ndarray, fw: np.ndarray, disc: np.ndarray, st: np.ndarray,
               moves: np.ndarray, max_tokens: int) -> None:
    """The current player's move (coded kind * 100 + detail; -1: the strategy broke) on the
    table; public knowledge counted out and checked true of every hand; the turn's end."""
    if code < 0:
        st[ERRORS] += 1
        st[END] = 3
        return
    moves[st[TURN]] = code
    if code < 200:
        take_card(st[TURN] % hands.shape[0], code % 100, code < 100, deck, hands, masks, lens,
                  fw, disc, st, max_tokens)
    else:
        st[TOKENS] -= 1
    count_out(masks, lens, used_cards(fw, disc))
    for p in range(hands.shape[0]):
        for s in range(lens[p]):
            st[ERRORS] += not (masks[p, s] >> hands[p, s]) & 1
    end_turn(st, fw, moves)


@njit(cache=True)
def game_stats(fw: np.ndarray, st: np.ndarray, fuses: int, stats: np.ndarray) -> None:
    """A finished game's row of `hat_compiled.STATS`."""
    stats[0], stats[1], stats[2], stats[3] = fw.sum(), st[END], fuses - st[FUSES], st[N_HINTS]
    stats[4], stats[5], stats[6], stats[7] = st[BITS], st[MESSAGES], st[TURN], st[ERRORS]
