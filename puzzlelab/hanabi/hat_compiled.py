"""The information strategy compiled (numba): the same games as `hat_strategies`, fast.

`hat_strategies.InformationTeam` plays a game on the `game.Game` engine in readable Python;
this module plays the same game, move for move, on arrays, for the study over tens of
thousands of deals (the tests replay dozens of deals both ways and compare every move).
Its sure groups are `kernels.sure_partition`, `solvers.max_hint_partition` written again over
bit masks.

`play_deals(rules, seeds, packing)` returns one row of integer statistics per deal (`STATS`);
`compiled_moves(rules, seed, packing)` the moves of one deal, as `rules.Move`s.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .. import checks
from .hat_strategies import ALL_CARDS, HINT_CARDS, PACKINGS
from .kernels import (
    BITS, END, ERRORS, MESSAGES, N_DISC, N_HINTS, TOKENS, TURN, after_move, card_classes,
    critical_card, dead_card, game_stats, new_game, own_masks, playable_card, popcount, seen_by,
    single_card, sure_partition, unseen_copies,
)
from .game import dealt_deck
from .rules import CARDS, HINTS, Move, Rules, as_rules

__all__ = ["BITS_SCALE", "ENDS", "MAX_TURNS", "STATS", "compiled_moves", "play_deals"]

STATS = ("score", "end", "fuses_used", "hints", "bits", "messages", "turns", "decode_errors")
ENDS = ("", "fuses", "perfect", "deck")  # the end codes of column "end"
MAX_TURNS = 256  # more than any game can last (each turn spends a token or a card)
BITS_SCALE = 1024  # column "bits": sum over hints of log2(M), in units of 1/1024 bit
_BITS = np.round(np.log2(np.maximum(np.arange(65), 1)) * BITS_SCALE).astype(np.int64)
_HINT_CARDS = np.array(HINT_CARDS, dtype=np.int64)
_ALL = ALL_CARDS
_PACKING = {p: i for i, p in enumerate(PACKINGS)}


# ----- small pieces -----------------------------------------------------------------------------

@njit(cache=True)
def _target_slot(row: np.ndarray, length: int, left: np.ndarray, fw: np.ndarray) -> int:
    best, best_p, best_t = -1, 0, 1
    for s in range(length):
        m = row[s]
        if single_card(m) >= 0:
            continue
        total, good = 0, 0
        for c in range(CARDS):
            if (m >> c) & 1:
                w = max(left[c], 0)
                total += w
                if playable_card(c, fw):
                    good += w
        if total and good * best_t > best_p * total:
            best, best_p, best_t = s, good, total
    if best >= 0:
        return best
    for s in range(length):
        if single_card(row[s]) < 0:
            return s
    return 0


@njit(cache=True)
def _groups(row: np.ndarray, length: int, packing: int, out: np.ndarray) -> int:
    """Each hint's group for one hand (as `hat_strategies.hint_groups`); the number of groups."""
    if packing == 0:
        for h in range(10):
            out[h] = 0 if h < 5 else 1
        return 2
    if packing == 1:
        return sure_partition(row, length, 0, out)
    colours = sure_partition(row, length, 1, out)
    values = np.empty(5, dtype=np.int64)
    k = sure_partition(row, length, 2, values)
    for v in range(5):
        out[5 + v] = colours + values[v]
    return colours + k


# ----- one game ---------------------------------------------------------------------------------

@njit(cache=True)
def _first_sure(own: np.ndarray, length: int, fw: np.ndarray, disc: np.ndarray,
                dead: bool) -> int:
    """The first card surely playable (with `dead`: surely dead), or -1."""
    for s in range(length):
        ok = True
        for c in range(CARDS):
            if (own[s] >> c) & 1 and not (dead_card(c, fw, disc) if dead else playable_card(c, fw)):
                ok = False
                break
        if ok:
            return s
    return -1


@njit(cache=True)
def _least_needed(me: int, own: np.ndarray, hands: np.ndarray, lens: np.ndarray,
                  fw: np.ndarray, disc: np.ndarray) -> int:
    """The discard when no card is known dead: a known card held twice, else a known card
    that is not critical, else the first unknown card."""
    for s in range(lens[me]):
        c = single_card(own[s])
        if c < 0:
            continue
        for p in range(hands.shape[0]):
            for s2 in range(lens[p]):
                if (p != me and hands[p, s2] == c) or (p == me and s2 != s
                                                        and single_card(own[s2]) == c):
                    return s
    for s in range(lens[me]):
        c = single_card(own[s])
        if c >= 0 and not critical_card(c, fw, disc):
            return s
    for s in range(lens[me]):
        if single_card(own[s]) < 0:
            return s
    return 0


@njit(cache=True)
def _message_target(me: int, n_groups: np.ndarray, message: int) -> tuple[int, int]:
    """The teammate and the group a message names (teammates in turn order, groups in order)."""
    n = n_groups.shape[0]
    for k in range(1, n):
        p = (me + k) % n
        if message < n_groups[p]:
            return p, message
        message -= n_groups[p]
    return -1, -1


@njit(cache=True)
def _hint_in_group(row: np.ndarray, length: int, hand: np.ndarray, groups: np.ndarray,
                   group: int) -> int:
    """The hint of the group that touches a card and rules out most possibilities, or -1."""
    hint, best_out = -1, -1
    for hh in range(10):
        if groups[hh] != group:
            continue
        out, touched_any = 0, False
        for s in range(length):
            m = row[s]
            if (_HINT_CARDS[hh] >> hand[s]) & 1:
                touched_any = True
                out += popcount(m) - popcount(m & _HINT_CARDS[hh])
            else:
                out += popcount(m) - popcount(m & ~_HINT_CARDS[hh])
        if touched_any and out > best_out:
            hint, best_out = hh, out
    return hint


@njit(cache=True)
def _decode(me: int, message: int, values: np.ndarray, classes: np.ndarray,
            slots: np.ndarray, modulus: int, masks: np.ndarray, st: np.ndarray) -> None:
    """Every teammate takes the values he sees from the message and narrows his told-about
    card to the class left (a wrong value counts as an error)."""
    n = masks.shape[0]
    for k in range(1, n):
        p = (me + k) % n
        decoded = message
        for k2 in range(1, n):
            q = (me + k2) % n
            if q != p:
                decoded -= values[q]
        decoded %= modulus
        st[ERRORS] += decoded != values[p]
        allowed = 0
        for c in range(CARDS):
            if classes[p, c] == decoded:
                allowed |= 1 << c
        masks[p, slots[p]] &= allowed


@njit(cache=True)
def _hat_hint(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray,
              fw: np.ndarray, disc: np.ndarray, packing: int, st: np.ndarray) -> int:
    """The hat hint: each teammate's value (the class of his told-about card) summed modulo M,
    sent by a hint of the message's group; the move's code (-1: the group has no hint)."""
    n = masks.shape[0]
    groups, n_groups = np.zeros((n, 10), dtype=np.int64), np.zeros(n, dtype=np.int64)
    slots, values = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    classes = np.zeros((n, CARDS), dtype=np.int64)
    modulus, total = 0, 0
    for k in range(1, n):
        p = (me + k) % n
        n_groups[p] = _groups(masks[p], lens[p], packing, groups[p])
        modulus += n_groups[p]
    left = unseen_copies(fw, disc, masks, lens)
    for k in range(1, n):
        p = (me + k) % n
        slots[p] = _target_slot(masks[p], lens[p], left, fw)
        classes[p, :] = card_classes(masks[p, slots[p]], fw, disc, modulus)
        values[p] = classes[p, hands[p, slots[p]]]
        total += values[p]
    message = total % modulus
    target, group = _message_target(me, n_groups, message)
    hint = _hint_in_group(masks[target], lens[target], hands[target], groups[target], group)
    if hint < 0:
        return -1
    _decode(me, message, values, classes, slots, modulus, masks, st)
    for s in range(lens[target]):
        touched = (_HINT_CARDS[hint] >> hands[target, s]) & 1
        masks[target, s] &= _HINT_CARDS[hint] if touched else ~_HINT_CARDS[hint] & _ALL
    st[N_HINTS] += 1
    st[BITS] += _BITS[modulus]
    st[MESSAGES] += modulus
    return 200 + 10 * target + hint


@njit(cache=True)
def _hat_move(me: int, hands: np.ndarray, masks: np.ndarray, lens: np.ndarray,
              fw: np.ndarray, disc: np.ndarray, st: np.ndarray, params: np.ndarray) -> int:
    """The information strategy's move, coded kind * 100 + detail: 0 + slot (play), 100 + slot
    (discard), 200 + 10 * target + hint index (hint); params: hint tokens, deck size, packing,
    discarding with all tokens allowed."""
    own = own_masks(me, masks, lens, seen_by(me, hands, lens, fw, disc))
    slot = _first_sure(own, lens[me], fw, disc, False)  # 1. a card known to be playable
    if slot >= 0:
        return slot
    first_dead = _first_sure(own, lens[me], fw, disc, True)
    may_discard = st[TOKENS] < params[0] or params[3] == 1
    if first_dead >= 0 and st[N_DISC] < 5 and may_discard:  # 2. early dead
        return 100 + first_dead
    if st[TOKENS] > 0:  # 3. the hat hint
        return _hat_hint(me, hands, masks, lens, fw, disc, params[2], st)
    if first_dead >= 0:  # 4. discard what is least needed
        return 100 + first_dead
    return 100 + _least_needed(me, own, hands, lens, fw, disc)


@njit(cache=True)
def _play(deck: np.ndarray, n: int, h: int, packing: int, max_tokens: int, fuses: int,
          discard_at_max: bool, moves: np.ndarray, stats: np.ndarray) -> None:
    """Play one deal with the information strategy in every seat; moves and stats filled in."""
    params = np.array([max_tokens, deck.shape[0], packing, discard_at_max], dtype=np.int64)
    hands, masks, lens, fw, disc, st = new_game(deck, n, h, max_tokens, fuses, moves)
    while st[END] == 0:
        code = _hat_move(st[TURN] % n, hands, masks, lens, fw, disc, st, params)
        after_move(code, deck, hands, masks, lens, fw, disc, st, moves, max_tokens)
    game_stats(fw, st, fuses, stats)


@njit(cache=True)
def _play_block(decks: np.ndarray, n: int, h: int, packing: int, max_tokens: int, fuses: int,
                discard_at_max: bool) -> np.ndarray:
    stats = np.zeros((decks.shape[0], 8), dtype=np.int64)
    moves = np.empty(MAX_TURNS, dtype=np.int64)
    for i in range(decks.shape[0]):
        _play(decks[i], n, h, packing, max_tokens, fuses, discard_at_max, moves, stats[i])
    return stats


# ----- the public face --------------------------------------------------------------------------

def play_deals(rules: Rules | int, seeds: Sequence[int], packing: str = "plain") -> np.ndarray:
    """One row of `STATS` per deal: the information strategy in every seat, compiled.

    Parameters
    ----------
    rules : Rules or int
        The rules, or a number of players (2 to 5) for the standard rules.
    seeds : sequence of int
        The deals: deal i is `game.dealt_deck(seeds[i])`.
    packing : str
        How the messages are counted (`hat_strategies.PACKINGS`): "plain" two groups per
        teammate as published, "mixed" the largest partition, "separate" colours and values
        packed apart.

    Returns
    -------
    numpy.ndarray
        An integer row per deal, columns `STATS`.

    Raises
    ------
    ValueError
        On a bad packing, seed or number of players, or a broken hat step.

    Examples
    --------
    >>> stats = play_deals(5, range(3), "plain")
    >>> stats.shape, [int(m) for m in stats[:, 5] // stats[:, 3]]  # M = 2 (5 - 1) a hint
    ((3, 8), [8, 8, 8])

    References
    ----------
    Cox et al. (2015), the information strategy; the Hanabi post (source document 003).
    """
    rules = as_rules(rules)
    packing = checks.choice(packing, "packing", PACKINGS)
    seeds = checks.integers(seeds, "seeds", low=0)
    decks = np.array([dealt_deck(s) for s in seeds], dtype=np.int64).reshape(len(seeds), -1)
    stats = _play_block(decks, rules.players, rules.hand_size, _PACKING[packing],
                        rules.hint_tokens, rules.fuses, rules.discard_at_max_tokens)
    if stats[:, 7].any():
        raise ValueError(f"a compiled game broke the hat step (decoding or a sure group failed) "
                         f"in deals {[s for s, e in zip(seeds, stats[:, 7]) if e]}")
    return stats


def compiled_moves(rules: Rules | int, seed: int, packing: str = "plain") -> list[Move]:
    """The moves of one deal played by the compiled information strategy.

    Examples
    --------
    >>> from puzzlelab.hanabi.hat_strategies import play
    >>> team = play(4, 2, "information", "mixed")  # the readable strategy on the engine
    >>> compiled_moves(4, 2, "mixed") == [t.move for t in team.game.history]
    True
    """
    rules = as_rules(rules)
    packing = checks.choice(packing, "packing", PACKINGS)
    deck = np.array(dealt_deck(checks.seed(seed)), dtype=np.int64)
    moves, stats = np.empty(MAX_TURNS, dtype=np.int64), np.zeros(8, dtype=np.int64)
    _play(deck, rules.players, rules.hand_size, _PACKING[packing], rules.hint_tokens,
          rules.fuses, rules.discard_at_max_tokens, moves, stats)
    return moves_of(moves[moves >= 0].tolist())


def moves_of(codes: Sequence[int]) -> list[Move]:
    """The moves coded kind * 100 + detail by the compiled strategies: 0 + slot (play),
    100 + slot (discard), 200 + 10 * target + hint index (hint).

    Parameters
    ----------
    codes : sequence of int
        Coded moves, each 0 to 299.

    Returns
    -------
    list of rules.Move

    Raises
    ------
    ValueError
        If a code is out of range.

    Examples
    --------
    >>> [m.code for m in moves_of([3, 101, 212, 207])]
    ['p3', 'd1', 'h1:Yellow', 'h0:3']
    """
    out = []
    for code in checks.integers(codes, "codes", low=0, high=299):
        kind, detail = divmod(code, 100)
        if kind == 2:
            out.append(Move.give(detail // 10, HINTS[detail % 10]))
        else:
            out.append(Move("play" if kind == 0 else "discard", slot=detail))
    return out
