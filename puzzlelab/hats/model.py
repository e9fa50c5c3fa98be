"""The Leprechaun hat game: worlds, rounds, views, deals, the thesis's string notation, evaluation.

Source: Janssen, *The Leprechaun Hatting Problem* (bachelor thesis, LIACS 2017), Section 2.1.
A world has N players and M colours. A *round* is one assignment of hats, a tuple of colour
indices (0 = the first colour, Red; 1 = Blue; ...). A player's *view* is the round with his own
hat removed. A *strategy* gives, for each view, a colour or a pass; a *deal* is one strategy per
player. A round is won when somebody guesses right and nobody guesses wrong (Section 2.1.5).

Internally a deal is an int8 array of shape (N, M**(N-1)): entry [i, v] is player i's guess at
view number v (views in lexicographic order, see `views`), -1 meaning pass.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import numpy as np

LETTERS = "RBGYOCKW"  # colour letters in thesis notation: Red, Blue, then more colours
PASS = "P"
MAX_ROUNDS = 1 << 22  # a guard against worlds too large to enumerate round by round

Round = tuple[int, ...]


def check_world(n_players: int, n_colors: int = 2) -> tuple[int, int]:
    """Validate N ≥ 2 players and M ≥ 2 colours (thesis Section 2.1.1, extended to N = 2)."""
    for name, value in (("n_players", n_players), ("n_colors", n_colors)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    n, m = int(n_players), int(n_colors)
    if n < 2:
        raise ValueError(f"n_players must be at least 2, got {n}")
    if m < 2:
        raise ValueError(f"n_colors must be at least 2, got {m}")
    if m > len(LETTERS):
        raise ValueError(f"n_colors must be at most {len(LETTERS)} (colour letters {LETTERS}), got {m}")
    if m**n > MAX_ROUNDS:
        raise ValueError(f"world too large: {m}**{n} rounds exceeds {MAX_ROUNDS}")
    return n, m


@lru_cache(maxsize=None)
def rounds(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """All M**N rounds in lexicographic order (player 1 most significant), thesis Section 2.1.5."""
    n, m = check_world(n_players, n_colors)
    return tuple(itertools.product(range(m), repeat=n))


@lru_cache(maxsize=None)
def views(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """The M**(N-1) views of a player, in the thesis's order (Table 5.4: RRR, RRB, RBR, ...)."""
    n, m = check_world(n_players, n_colors)
    return tuple(itertools.product(range(m), repeat=n - 1))


def round_index(rnd: Sequence[int], n_colors: int = 2) -> int:
    """Position of a round in `rounds` (base-M number, first player most significant)."""
    idx = 0
    for c in rnd:
        idx = idx * n_colors + int(c)
    return idx


def view_of(rnd: Sequence[int], player: int) -> Round:
    """What player `player` (0-based) sees in round `rnd`: all hats but his own."""
    return tuple(rnd[:player]) + tuple(rnd[player + 1 :])


@lru_cache(maxsize=None)
def view_table(n_players: int, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] -> index of the view that player has in that round."""
    n, m = check_world(n_players, n_colors)
    r = np.array(rounds(n, m), dtype=np.int64).reshape(-1, n)
    table = np.zeros((n, m**n), dtype=np.int64)
    for i in range(n):
        others = np.delete(r, i, axis=1)
        weights = m ** np.arange(n - 2, -1, -1, dtype=np.int64)
        table[i] = others @ weights
    table.flags.writeable = False
    return table


def round_to_string(rnd: Sequence[int]) -> str:
    """A round in letters, e.g. (0, 1, 1) -> 'RBB' (thesis Table 4.1)."""
    return "".join(LETTERS[c] for c in rnd)


def string_to_round(text: str, n_colors: int = 2) -> Round:
    """'RBB' -> (0, 1, 1); unknown letters raise ValueError."""
    out = []
    for ch in text.strip().upper():
        k = LETTERS.find(ch)
        if k < 0 or k >= n_colors:
            raise ValueError(f"unknown colour letter {ch!r} in round {text!r} (colours {LETTERS[:n_colors]})")
        out.append(k)
    return tuple(out)


# --- strategies and deals -------------------------------------------------------------------


def parse_strategy(text: str, n_players: int, n_colors: int = 2) -> np.ndarray:
    """Thesis notation 'BPPR' (one letter per view, Table 5.2) -> guesses (-1 = pass)."""
    n, m = check_world(n_players, n_colors)
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    body = body.strip().upper()
    want = m ** (n - 1)
    if len(body) != want:
        raise ValueError(
            f"strategy {text!r} has {len(body)} letters, expected {want} (one per view, M**(N-1))"
        )
    allowed = LETTERS[:m] + PASS
    out = np.empty(want, dtype=np.int8)
    for k, ch in enumerate(body):
        if ch not in allowed:
            raise ValueError(f"unknown letter {ch!r} in strategy {text!r} (allowed: {allowed})")
        out[k] = -1 if ch == PASS else LETTERS.index(ch)
    return out


def strategy_to_string(guesses: Sequence[int]) -> str:
    """Guesses (-1 = pass) -> thesis notation, e.g. [1, -1, -1, 0] -> 'BPPR'."""
    return "".join(PASS if g < 0 else LETTERS[g] for g in guesses)


def _strategy_from_mapping(strategy: Mapping, n: int, m: int) -> np.ndarray:
    out = np.full(m ** (n - 1), -1, dtype=np.int8)
    for view, guess in strategy.items():
        v = string_to_round(view, m) if isinstance(view, str) else tuple(int(c) for c in view)
        if len(v) != n - 1 or any(not 0 <= c < m for c in v):
            raise ValueError(f"view {view!r} is not a view of {n - 1} hats in {m} colours")
        out[round_index(v, m)] = _guess(guess, m)
    return out


def _guess(guess, m: int) -> int:
    if guess is None:
        return -1
    if isinstance(guess, str):
        g = guess.strip().upper()
        if g == PASS:
            return -1
        if len(g) == 1 and g in LETTERS[:m]:
            return LETTERS.index(g)
        raise ValueError(f"unknown guess {guess!r} (allowed: {LETTERS[:m]}{PASS})")
    if isinstance(guess, (bool, np.bool_)):
        raise ValueError(f"guess {guess!r} is a boolean, not a colour index")
    if isinstance(guess, (float, np.floating)):
        raise ValueError(f"guess {guess!r} is not an integer colour index (floats are not truncated)")
    if isinstance(guess, (int, np.integer)) and -1 <= int(guess) < m:
        return int(guess)
    raise ValueError(f"guess {guess!r} must be a colour index 0..{m - 1}, -1/None (pass) or a letter")


def _strategy_from_array(strategy, player: int, n: int, m: int) -> np.ndarray:
    """One player's guesses given as a sequence or array: integer colour indices, -1/None or letters."""
    arr = np.asarray(strategy, dtype=object) if not isinstance(strategy, np.ndarray) else strategy
    if arr.shape != (m ** (n - 1),):
        raise ValueError(f"strategy of player {player} must have {m ** (n - 1)} guesses, got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.integer):
        bad = (arr < -1) | (arr >= m)
        if bad.any():
            raise ValueError(f"guess {arr[bad][0]!r} of player {player} must be a colour index 0..{m - 1} or -1 (pass)")
        return arr.astype(np.int8)
    if arr.dtype.kind in "fcb":  # floats, complex numbers, booleans: never silently truncated
        raise ValueError(f"guesses of player {player} must be integers, -1/None (pass) or letters, got dtype {arr.dtype}")
    return np.array([_guess(g, m) for g in arr], dtype=np.int8)


def parse_deal(deal, n_colors: int = 2) -> np.ndarray:
    """A deal as strings, per-view mappings or arrays, per player (list or {1: ..., 2: ...}) -> array."""
    if isinstance(deal, np.ndarray) and deal.ndim == 2:
        strategies = list(deal)
    elif isinstance(deal, Mapping):
        keys = sorted(deal)
        if keys != list(range(1, len(keys) + 1)):
            raise ValueError(f"a deal mapping must have the players 1..N as keys, got {keys}")
        strategies = [deal[k] for k in keys]
    elif isinstance(deal, (str, bytes)):
        raise ValueError("a deal is one strategy per player, not a single string")
    elif isinstance(deal, Sequence):
        strategies = list(deal)
    else:
        raise ValueError(f"cannot read a deal from {type(deal).__name__}")
    n, m = check_world(len(strategies), n_colors)
    rows = []
    for k, s in enumerate(strategies, start=1):
        if isinstance(s, str):
            rows.append(parse_strategy(s, n, m))
        elif isinstance(s, Mapping):
            rows.append(_strategy_from_mapping(s, n, m))
        else:
            rows.append(_strategy_from_array(s, k, n, m))
    return np.vstack(rows).astype(np.int8)


def deal_to_strings(deal, n_colors: int = 2) -> tuple[str, ...]:
    """A deal in the thesis's notation, one string per agent (Tables 5.2, 5.5-5.8)."""
    return tuple(strategy_to_string(row) for row in parse_deal(deal, n_colors))


# --- evaluation -------------------------------------------------------------------------------


def answers(deal, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] of answers: +1 right, -1 wrong, 0 pass (Section 2.1.5)."""
    d = parse_deal(deal, n_colors)
    n, m = d.shape[0], n_colors
    r = np.array(rounds(n, m), dtype=np.int8).reshape(-1, n)
    vt = view_table(n, m)
    guess = np.take_along_axis(d.astype(np.int64), vt, axis=1)  # [player, round]
    own = r.T.astype(np.int64)
    return np.where(guess < 0, 0, np.where(guess == own, 1, -1)).astype(np.int8)


def won_mask(deal, n_colors: int = 2) -> np.ndarray:
    """Boolean per round (in `rounds` order): somebody right and nobody wrong."""
    a = answers(deal, n_colors)
    return (a == 1).any(axis=0) & ~(a == -1).any(axis=0)


def evaluate(deal, n_colors: int = 2) -> frozenset[Round]:
    """The set of won rounds of a deal: the thesis's *Set Correct* fitness (Section 2.1.7)."""
    d = parse_deal(deal, n_colors)
    mask = won_mask(d, n_colors)
    allr = rounds(d.shape[0], n_colors)
    return frozenset(allr[k] for k in np.flatnonzero(mask))


def naive_evaluate(deal, n_colors: int = 2) -> frozenset[Round]:
    """Round-by-round, player-by-player evaluation in plain Python (the per-deal baseline)."""
    d = parse_deal(deal, n_colors)
    n = d.shape[0]
    won = set()
    for rnd in rounds(n, n_colors):
        right = wrong = False
        for i in range(n):
            g = int(d[i, round_index(view_of(rnd, i), n_colors)])
            if g >= 0:
                right |= g == rnd[i]
                wrong |= g != rnd[i]
        if right and not wrong:
            won.add(rnd)
    return frozenset(won)


def rounds_correct(deal, n_colors: int = 2) -> Fraction:
    """*Rounds Correct* fitness: won rounds / M**N (Section 2.1.7)."""
    d = parse_deal(deal, n_colors)
    return Fraction(int(won_mask(d, n_colors).sum()), n_colors ** d.shape[0])


def strong_answering(deal, n_colors: int = 2, pass_value: Fraction | int = 0) -> Fraction:
    """*Strong Answering* fitness (Section 2.1.7): mean answer score over all players and rounds.

    Our documented choice: a right answer scores +1, a wrong one -1 and a pass `pass_value`
    (0 by default, 'neither good nor bad', Section 2.1.1 rule 4).
    """
    a = answers(deal, n_colors)
    score = Fraction(int((a == 1).sum()) - int((a == -1).sum())) + Fraction(pass_value) * int((a == 0).sum())
    return score / a.size


def set_correct_order(a: frozenset, b: frozenset) -> str:
    """Compare two won sets under *Set Correct* (Theorem 1): 'better', 'worse', 'equal' or 'incomparable'."""
    if a == b:
        return "equal"
    if b < a:
        return "better"
    if a < b:
        return "worse"
    return "incomparable"
