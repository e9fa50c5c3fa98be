"""The information strategy compiled (numba): the same games as `hat_strategies`, fast.

`hat_strategies.InformationTeam` plays a game on the `rules.Game` engine in readable Python;
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
from .hat_strategies import ALL_CARDS, COPIES_OF, HINT_CARDS, PACKINGS, RANK_ORDER
from .kernels import count_out, low_bit, popcount, single_card, sure_partition
from .rules import CARDS, HINTS, Move, Rules, as_rules, dealt_deck

__all__ = ["BITS_SCALE", "ENDS", "MAX_TURNS", "STATS", "compiled_moves", "play_deals"]

STATS = ("score", "end", "fuses_used", "hints", "bits", "messages", "turns", "decode_errors")
ENDS = ("", "fuses", "perfect", "deck")  # the end codes of column "end"
MAX_TURNS = 256  # more than any game can last (each turn spends a token or a card)
BITS_SCALE = 1024  # column "bits": sum over hints of log2(M), in units of 1/1024 bit
_BITS = np.round(np.log2(np.maximum(np.arange(65), 1)) * BITS_SCALE).astype(np.int64)
_COPIES = np.array(COPIES_OF, dtype=np.int64)
_RANK_ORDER = np.array(RANK_ORDER, dtype=np.int64)
_HINT_CARDS = np.array(HINT_CARDS, dtype=np.int64)
_ALL = ALL_CARDS
_PACKING = {p: i for i, p in enumerate(PACKINGS)}


# ----- small pieces -----------------------------------------------------------------------------

@njit(cache=True)
def _playable(c: int, fw: np.ndarray) -> bool:
    return fw[c // 5] == c % 5


@njit(cache=True)
def _dead(c: int, fw: np.ndarray, disc: np.ndarray) -> bool:
    colour, value = c // 5, c % 5
    if value < fw[colour]:
        return True
    for v in range(fw[colour], value):
        if disc[5 * colour + v] == _COPIES[5 * colour + v]:
            return True
    return False


@njit(cache=True)
def _critical(c: int, fw: np.ndarray, disc: np.ndarray) -> bool:
    return not _dead(c, fw, disc) and disc[c] == _COPIES[c] - 1


@njit(cache=True)
def _used(fw: np.ndarray, disc: np.ndarray) -> np.ndarray:
    used = disc.copy()
    for colour in range(5):
        for v in range(fw[colour]):
            used[5 * colour + v] += 1
    return used


# ----- the hat step -----------------------------------------------------------------------------

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
                if _playable(c, fw):
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
def _card_classes(mask: int, fw: np.ndarray, disc: np.ndarray, modulus: int) -> np.ndarray:
    """Each card's class (-1: not possible), as `hat_strategies.card_classes`."""
    classes = np.full(CARDS, -1, dtype=np.int64)
    live = np.empty(CARDS, dtype=np.int64)
    n_live, any_dead = 0, False
    for c in _RANK_ORDER:
        if (mask >> c) & 1:
            if _dead(c, fw, disc):
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


@njit(cache=True)
def _remaining(fw: np.ndarray, disc: np.ndarray, masks: np.ndarray,
               lens: np.ndarray) -> np.ndarray:
    """Copies of each card not publicly accounted for (as `PublicKnowledge.remaining`)."""
    left = _COPIES - _used(fw, disc)
    for p in range(masks.shape[0]):
        for s in range(lens[p]):
            c = single_card(masks[p, s])
            if c >= 0:
                left[c] -= 1
    return left


# ----- one game ---------------------------------------------------------------------------------

@njit(cache=True)
def _play(deck: np.ndarray, n: int, h: int, packing: int, max_tokens: int, fuses: int,
          discard_at_max: bool, moves: np.ndarray, stats: np.ndarray) -> None:
    """Play one deal with the information strategy in every seat; moves and stats filled in.

    A move is coded kind * 100 + detail: 0 + slot (play), 100 + slot (discard),
    200 + 10 * target + hint index (hint).
    """
    hands = np.full((n, h), -1, dtype=np.int64)
    masks = np.full((n, h), _ALL, dtype=np.int64)
    lens = np.full(n, h, dtype=np.int64)
    for p in range(n):
        hands[p, :] = deck[p * h:(p + 1) * h]
    pos = n * h
    fw = np.zeros(5, dtype=np.int64)
    disc = np.zeros(CARDS, dtype=np.int64)
    n_disc, tokens, fuses_left, current, turn, final, end = 0, max_tokens, fuses, 0, 0, -1, 0
    hints, bits, messages, errors = 0, 0, 0, 0
    groups = np.zeros((n, 10), dtype=np.int64)
    n_groups = np.zeros(n, dtype=np.int64)
    slots = np.zeros(n, dtype=np.int64)
    values = np.zeros(n, dtype=np.int64)
    classes = np.zeros((n, CARDS), dtype=np.int64)
    moves[:] = -1
    while end == 0:
        me = current
        # --- the player's own cards, with every card he sees counted out
        seen = _used(fw, disc)
        for p in range(n):
            if p != me:
                for s in range(lens[p]):
                    seen[hands[p, s]] += 1
        own = masks[me:me + 1, :].copy()
        count_out(own, lens[me:me + 1], seen)
        kind, slot, target, hint = -1, -1, -1, -1
        for s in range(lens[me]):  # 1. a card known to be playable
            ok = True
            for c in range(CARDS):
                if (own[0, s] >> c) & 1 and not _playable(c, fw):
                    ok = False
                    break
            if ok:
                kind, slot = 0, s
                break
        first_dead = -1
        for s in range(lens[me]):
            ok = True
            for c in range(CARDS):
                if (own[0, s] >> c) & 1 and not _dead(c, fw, disc):
                    ok = False
                    break
            if ok:
                first_dead = s
                break
        may_discard = tokens < max_tokens or discard_at_max
        if kind < 0 and first_dead >= 0 and n_disc < 5 and may_discard:  # 2. early dead
            kind, slot = 1, first_dead
        if kind < 0 and tokens > 0:  # 3. the hat hint
            kind = 2
            left = _remaining(fw, disc, masks, lens)
            modulus = 0
            for k in range(1, n):
                p = (me + k) % n
                n_groups[p] = _groups(masks[p], lens[p], packing, groups[p])
                modulus += n_groups[p]
            total = 0
            for k in range(1, n):
                p = (me + k) % n
                slots[p] = _target_slot(masks[p], lens[p], left, fw)
                classes[p, :] = _card_classes(masks[p, slots[p]], fw, disc, modulus)
                values[p] = classes[p, hands[p, slots[p]]]
                total += values[p]
            message = total % modulus
            offset = message
            for k in range(1, n):  # the (player, group) of the message
                p = (me + k) % n
                if offset < n_groups[p]:
                    target = p
                    break
                offset -= n_groups[p]
            best_out = -1
            for hh in range(10):
                if groups[target, hh] != offset:
                    continue
                out, touched_any = 0, False
                for s in range(lens[target]):
                    m = masks[target, s]
                    if (_HINT_CARDS[hh] >> hands[target, s]) & 1:
                        touched_any = True
                        out += popcount(m) - popcount(m & _HINT_CARDS[hh])
                    else:
                        out += popcount(m) - popcount(m & ~_HINT_CARDS[hh])
                if touched_any and out > best_out:
                    hint, best_out = hh, out
            if hint < 0:
                errors += 1
                break
            # everybody decodes his own value and narrows his told-about card
            for k in range(1, n):
                p = (me + k) % n
                decoded = message
                for k2 in range(1, n):
                    q = (me + k2) % n
                    if q != p:
                        decoded -= values[q]
                decoded %= modulus
                if decoded != values[p]:
                    errors += 1
                allowed = 0
                for c in range(CARDS):
                    if classes[p, c] == decoded:
                        allowed |= 1 << c
                masks[p, slots[p]] &= allowed
            hints += 1
            bits += _BITS[modulus]
            messages += modulus
        if kind < 0:  # 4. discard what is least needed
            kind = 1
            if first_dead >= 0:
                slot = first_dead
            else:
                slot = -1
                for s in range(lens[me]):
                    c = single_card(own[0, s])
                    if c < 0:
                        continue
                    twice = False
                    for p in range(n):
                        if p != me:
                            for s2 in range(lens[p]):
                                if hands[p, s2] == c:
                                    twice = True
                    for s2 in range(lens[me]):
                        if s2 != s and single_card(own[0, s2]) == c:
                            twice = True
                    if twice:
                        slot = s
                        break
                if slot < 0:
                    for s in range(lens[me]):
                        c = single_card(own[0, s])
                        if c >= 0 and not _critical(c, fw, disc):
                            slot = s
                            break
                if slot < 0:
                    slot = 0
                    for s in range(lens[me]):
                        if single_card(own[0, s]) < 0:
                            slot = s
                            break
        # --- the move, on the table
        drew = False
        if kind == 2:
            tokens -= 1
            moves[turn] = 200 + 10 * target + hint
            for s in range(lens[target]):
                if (_HINT_CARDS[hint] >> hands[target, s]) & 1:
                    masks[target, s] &= _HINT_CARDS[hint]
                else:
                    masks[target, s] &= ~_HINT_CARDS[hint] & _ALL
        else:
            moves[turn] = 100 * kind + slot
            card = hands[me, slot]
            for s in range(slot, lens[me] - 1):
                hands[me, s] = hands[me, s + 1]
                masks[me, s] = masks[me, s + 1]
            if kind == 0 and fw[card // 5] == card % 5:
                fw[card // 5] += 1
                if card % 5 == 4:
                    tokens = min(tokens + 1, max_tokens)
            else:
                disc[card] += 1
                n_disc += 1
                if kind == 0:
                    fuses_left -= 1
                else:
                    tokens = min(tokens + 1, max_tokens)
            if pos < deck.shape[0]:
                hands[me, lens[me] - 1] = deck[pos]
                masks[me, lens[me] - 1] = _ALL
                pos += 1
                drew = True
            else:
                lens[me] -= 1
                hands[me, lens[me]] = -1
        count_out(masks, lens, _used(fw, disc))
        # --- the end of the turn
        if drew and pos == deck.shape[0]:
            final = n
        elif final >= 0:
            final -= 1
        if fuses_left == 0:
            end = 1
        elif fw.sum() == CARDS:
            end = 2
        elif final == 0:
            end = 3
        turn += 1
        current = (current + 1) % n
        if turn >= moves.shape[0]:
            errors += 1
            break
    stats[0], stats[1], stats[2], stats[3] = fw.sum(), end, fuses - fuses_left, hints
    stats[4], stats[5], stats[6], stats[7] = bits, messages, turn, errors


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
    """One row of `STATS` per deal: the information strategy in every seat, compiled."""
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
    """The moves of one deal played by the compiled information strategy."""
    rules = as_rules(rules)
    packing = checks.choice(packing, "packing", PACKINGS)
    deck = np.array(dealt_deck(checks.seed(seed)), dtype=np.int64)
    moves, stats = np.empty(MAX_TURNS, dtype=np.int64), np.zeros(8, dtype=np.int64)
    _play(deck, rules.players, rules.hand_size, _PACKING[packing], rules.hint_tokens,
          rules.fuses, rules.discard_at_max_tokens, moves, stats)
    return moves_of(moves[moves >= 0].tolist())


def moves_of(codes: Sequence[int]) -> list[Move]:
    """The moves coded kind * 100 + detail by the compiled strategies: 0 + slot (play),
    100 + slot (discard), 200 + 10 * target + hint index (hint)."""
    out = []
    for code in checks.integers(codes, "codes", low=0, high=299):
        kind, detail = divmod(code, 100)
        if kind == 2:
            out.append(Move.give(detail // 10, HINTS[detail % 10]))
        else:
            out.append(Move("play" if kind == 0 else "discard", slot=detail))
    return out
