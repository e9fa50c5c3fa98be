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
`compiled_moves(rules, seed, hints)` the moves of one deal, which `game.Game` replays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .. import checks
from .hat_compiled import BITS_SCALE, ENDS, MAX_TURNS, STATS, moves_of
from .hat_strategies import ALL_CARDS, COPIES_OF, HINT_CARDS
from .kernels import (
    BITS, END, ERRORS, FINAL, FUSES, MESSAGES, N_DISC, N_HINTS, POS, TOKENS, TURN, after_move,
    game_stats, new_game, own_masks, popcount, seen_by, single_card, sure_partition,
    unseen_copies,
)
from .questions import board_sets, hat_sum, known, odds
from .game import dealt_deck
from .rules import CARDS, Move, Rules, as_rules

__all__ = ["BITS_SCALE", "ENDS", "HINT_COUNTS", "STATS", "compiled_moves", "play_deals"]

HINT_COUNTS = ("cox", "index", "packing", "best")  # how many messages a hint carries, per mate
_COPIES = np.array(COPIES_OF, dtype=np.int64)
_HINT_CARDS = np.array(HINT_CARDS, dtype=np.int64)
_BITS = np.round(np.log2(np.maximum(np.arange(257), 1)) * BITS_SCALE).astype(np.int64)
_ALL = ALL_CARDS


# ----- the hint that names the sum --------------------------------------------------------------

@njit(cache=True)
def _index_card(row: np.ndarray, length: int, dead_set: int) -> int:
    """The card the index count hints about: the open card with most colours and values
    still possible (the first on ties)."""
    best, best_score = 0, -1
    for s in range(length):
        m, score = row[s], 0
        if not known(m) and m & ~dead_set:
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
def _few_legal_hints(row: np.ndarray, length: int) -> int:
    """The legal hints of one possible hand, its cards picked greedily to need few: no
    partition has more sure groups (the post's upper bound, on one hand)."""
    used, done = 0, 0
    for _ in range(length):  # the card with fewest possibilities first
        s_best, fewest = 0, 99
        for s in range(length):
            k = popcount(row[s])
            if not (done >> s) & 1 and k < fewest:
                s_best, fewest = s, k
        done |= 1 << s_best
        add_best, hints_best = 99, 0
        for c in range(CARDS):
            if (row[s_best] >> c) & 1:
                hints = (1 << (c // 5)) | (1 << (5 + c % 5))
                add = popcount(hints & ~used)
                if add < add_best:
                    add_best, hints_best = add, hints
        used |= hints_best
    return popcount(used)


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
    if mode == 1 or (mode == 3 and _few_legal_hints(row, length) <= index_count):
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
        if known(m) or m & ~dead_set == 0:
            continue
        after = m & _HINT_CARDS[h] if (_HINT_CARDS[h] >> hand[s]) & 1 else m & ~_HINT_CARDS[h]
        bonus = 2.0 if known(after) or after & ~dead_set == 0 else 1.0
        g *= bonus * odds(m, left, 0)[0] / odds(after, left, 0)[0]
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
    left = unseen_copies(fw, disc, masks, lens)
    counts, kinds, cards = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    groups = np.zeros((n, 10), dtype=np.int64)
    total = 0
    for k in range(1, n):
        p = (me + k) % n
        counts[p], kinds[p], cards[p] = _scheme(masks[p], lens[p], sets, mode, groups[p])
        total += counts[p]
    t = hat_sum(me, hands, masks, lens, left, sets, total, st)
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
    seen = seen_by(me, hands, lens, fw, disc)
    own = own_masks(me, masks, lens, seen)
    left = _COPIES - seen
    for s in range(lens[me]):
        if known(own[s]):
            left[single_card(own[s])] -= 1
    return own, left


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
        total, play = odds(own[s], left, sets[0])
        if play != total:
            continue
        score, weight = 0.0, 0
        for c in range(CARDS):
            if (own[s] >> c) & 1:
                w = max(left[c], 1) if not known(own[s]) else 1
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
        total, play = odds(own[s], left, sets[0])
        if wasteless and odds(own[s], left, sets[0] | sets[1])[1] != total:
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
        elif known(row[s]):
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
                w = 1 if known(own[s]) else max(left[c], 0)
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
        pub = unseen_copies(fw, disc, masks, lens)
        return public_useless[hat_sum(me, hands, masks, lens, pub, sets,
                                       len(public_useless), st)]
    if len(useless):
        return useless[0]
    return _safest_discard(own, lens[me], left, sets, _held_by_others(me, hands, lens))


@njit(cache=True)
def _strong_move(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray,
                 fw: np.ndarray, disc: np.ndarray, st: np.ndarray, params: np.ndarray) -> int:
    """The player's move, coded kind * 100 + detail (play, discard, hint 200 + 10 t + h);
    params: hint tokens, deck size, count of M."""
    max_tokens, mode, deck_left = params[0], params[2], st[POS] < params[1]
    n, h = hands.shape
    sets = np.array(board_sets(fw, disc), dtype=np.int64)
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
def _play(deck: np.ndarray, n: int, h: int, mode: int, max_tokens: int, fuses: int,
          moves: np.ndarray, stats: np.ndarray) -> None:
    """Play one deal with the strategy in every seat; moves and stats filled in."""
    params = np.array([max_tokens, deck.shape[0], mode], dtype=np.int64)
    hands, masks, lens, fw, disc, st = new_game(deck, n, h, max_tokens, fuses, moves)
    while st[END] == 0:
        code = _strong_move(st[TURN] % n, hands, masks, lens, fw, disc, st, params)
        after_move(code, deck, hands, masks, lens, fw, disc, st, moves, max_tokens)
    game_stats(fw, st, fuses, stats)


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
    """One row of `STATS` per deal: the strong information strategy in every seat.

    Parameters
    ----------
    rules : Rules or int
        The rules of play; a number of players (2 to 5) stands for the standard rules.
    seeds : sequence of int
        Which deals: row i plays `game.dealt_deck(seeds[i])`.
    hints : str
        How many messages a hint carries to each teammate (`HINT_COUNTS`): "cox" two, "index"
        three or four read from a named card, "packing" the largest partition into sure
        groups, "best" the larger of the last two.

    Returns
    -------
    numpy.ndarray
        An integer row per deal, columns `STATS` (score, end, fuses used, hints, bits in
        1/`BITS_SCALE`, messages, turns, errors).

    Raises
    ------
    ValueError
        On a bad count, seed or number of players, or if a game broke the hat code (never
        seen: each hat value is read back, and knowledge checked true, every turn).

    Examples
    --------
    >>> stats = play_deals(3, range(4))
    >>> stats.shape, bool((stats[:, 0] <= 25).all()), bool((stats[:, 7] == 0).all())
    ((4, 8), True, True)
    >>> bool((play_deals(3, range(4)) == stats).all())  # seeded: the same games again
    True

    References
    ----------
    Cox et al. (2015), the information strategy; Wu (2016, hanabi.rs) and O'Dwyer (2019,
    InfoBot), questions in the hat; the Hanabi post (source document 003), sure groups.
    """
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
    """The moves of one deal played by the strong information strategy.

    Parameters
    ----------
    rules : Rules or int
        The rules, or a number of players (2 to 5).
    seed : int
        The deal, `game.dealt_deck(seed)`.
    hints : str
        The count of messages per teammate (`HINT_COUNTS`).

    Returns
    -------
    list of rules.Move
        Every move in turn order; `game.Game` replays them to the same end.

    Raises
    ------
    ValueError
        On a bad count, seed or number of players.

    Examples
    --------
    >>> from puzzlelab.hanabi.game import Game
    >>> game = Game(2, seed=7)
    >>> for move in compiled_moves(2, 7):
    ...     _ = game.apply(move)
    >>> game.over, game.score == int(play_deals(2, [7])[0, 0])
    (True, True)

    References
    ----------
    Wu (2016, hanabi.rs) and O'Dwyer (2019, InfoBot); Cox et al. (2015).
    """
    rules = as_rules(rules)
    mode = HINT_COUNTS.index(checks.choice(hints, "hints", HINT_COUNTS))
    deck = np.array(dealt_deck(checks.seed(seed)), dtype=np.int64)
    moves, stats = np.empty(MAX_TURNS, dtype=np.int64), np.zeros(len(STATS), dtype=np.int64)
    _play(deck, rules.players, rules.hand_size, mode, rules.hint_tokens, rules.fuses, moves,
          stats)
    return moves_of(moves[moves >= 0].tolist())
