"""The Leprechaun hat game: worlds, rounds, views, deals, the thesis's notation, evaluation.

Source: janssen2017 (Janssen, *The Leprechaun Hatting Problem*, 2017), Section 2.1.
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

from .. import checks

__all__ = [
    "LETTERS", "MAX_ROUNDS", "PASS", "Round", "answers", "check_two_colours", "check_world",
    "check_world_within",
    "deal_to_strings", "evaluate", "largest_players", "parse_deal", "parse_strategy", "round_index",
    "round_to_string", "rounds", "rounds_correct", "set_correct_order", "strategy_to_string",
    "string_to_round", "strong_answering", "view_of", "view_table", "views", "won_mask",
]

LETTERS = "RBGYOCKW"  # colour letters in thesis notation: Red, Blue, then more colours
PASS = "P"
MAX_ROUNDS = 1 << 16  # the largest world (M**N rounds) that is enumerated round by round

Round = tuple[int, ...]


def largest_players(n_colors: int, limit: int = MAX_ROUNDS) -> int:
    """The most players N with M**N <= limit rounds (computed without large powers)."""
    m = checks.integer(n_colors, "n_colors", low=2)
    limit = checks.integer(limit, "limit (rounds)", low=1, high=2**64)
    n = 0
    while m ** (n + 1) <= limit:
        n += 1
    return n


def check_world(n_players: int, n_colors: int = 2) -> tuple[int, int]:
    """Validate N >= 2 players, 2 <= M <= 8 colours, at most MAX_ROUNDS rounds (Section 2.1.1)."""
    n = checks.integer(n_players, "n_players", low=2)
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    most = largest_players(m)
    if n > most:  # compared before M**N is ever computed
        raise ValueError(f"world too large: {m}**{n} rounds is more than {MAX_ROUNDS}; with "
                         f"{m} colours the largest world has N = {most} players")
    return n, m


def check_world_within(n_players: int, n_colors: int, limit: int, what: str) -> tuple[int, int]:
    """`check_world`, and at most `limit` rounds for `what` (ValueError naming the largest N)."""
    n, m = check_world(n_players, n_colors)
    limit, what = checks.integer(limit, "limit", low=1), checks.text(what, "what")
    if m**n > limit:
        raise ValueError(f"{what} in worlds of at most {limit} rounds; with {m} colours the "
                         f"largest has N = {largest_players(m, limit)} players, got N = {n}")
    return n, m


def check_two_colours(n_players: int, most: int, what: str) -> int:
    """N of a two-colour world of at most `most` players, which `what` handles (ValueError
    naming both otherwise)."""
    n, _ = check_world(n_players, 2)
    most = checks.integer(most, "most", low=2)
    what = checks.text(what, "what")  # checked whether or not N is refused
    if n > most:
        raise ValueError(f"{what} handles at most N = {most} players (two colours), got N = {n}")
    return n


# The memoised tables below are behind their checks: a cache keyed by (3, 2.0) would answer
# for (3, 2) without a word, so each public function validates, then asks its private cache.
def rounds(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """All M**N rounds in lexicographic order (player 1 most significant), Section 2.1.5."""
    return _rounds(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _rounds(n: int, m: int) -> tuple[Round, ...]:
    return tuple(itertools.product(range(m), repeat=n))


def views(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """The M**(N-1) views of a player, in the thesis's order (Table 5.4: RRR, RRB, RBR, ...)."""
    return _views(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _views(n: int, m: int) -> tuple[Round, ...]:
    return tuple(itertools.product(range(m), repeat=n - 1))


def _colours(rnd: object, n_colors: int, name: str = "round") -> tuple[int, ...]:
    """A sequence of colour indices 0..M-1 (integers only), as a tuple."""
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    if isinstance(rnd, np.ndarray):
        rnd = rnd.tolist()
    return checks.integers(rnd, name, low=0, high=m - 1)


def round_index(rnd: Sequence[int], n_colors: int = 2) -> int:
    """Position of a round in `rounds` (base-M number, first player most significant)."""
    idx = 0
    for c in _colours(rnd, n_colors):
        idx = idx * n_colors + c
    return idx


def view_of(rnd: Sequence[int], player: int) -> Round:
    """What player `player` (0-based) sees in round `rnd`: all hats but his own."""
    colours = _colours(rnd, len(LETTERS))
    i = checks.integer(player, "player", low=0, high=max(len(colours) - 1, 0))
    if not colours:
        raise ValueError("a round has at least one hat")
    return colours[:i] + colours[i + 1 :]


def view_table(n_players: int, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] -> index of the view that player has in that round."""
    return _view_table(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _view_table(n: int, m: int) -> np.ndarray:
    r = np.array(_rounds(n, m), dtype=np.int64).reshape(-1, n)
    table = np.zeros((n, m**n), dtype=np.int64)
    weights = m ** np.arange(n - 2, -1, -1, dtype=np.int64)
    for i in range(n):
        table[i] = np.delete(r, i, axis=1) @ weights
    table.flags.writeable = False
    return table


def round_to_string(rnd: Sequence[int]) -> str:
    """A round in letters, e.g. (0, 1, 1) -> 'RBB' (thesis Table 4.1)."""
    return "".join(LETTERS[c] for c in _colours(rnd, len(LETTERS)))


def string_to_round(text: str, n_colors: int = 2) -> Round:
    """'RBB' -> (0, 1, 1); unknown letters raise ValueError."""
    text = checks.text(text, "text")
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    out = []
    for ch in text.strip().upper():
        k = LETTERS.find(ch)
        if k < 0 or k >= m:
            raise ValueError(f"unknown colour letter {ch!r} in round {text!r} "
                             f"(colours {LETTERS[:m]})")
        out.append(k)
    return tuple(out)


# --- strategies and deals -------------------------------------------------------------------


def parse_strategy(text: str, n_players: int, n_colors: int = 2) -> np.ndarray:
    """Thesis notation 'BPPR' (one letter per view, Table 5.2) -> guesses (-1 = pass)."""
    text = checks.text(text, "strategy")
    n, m = check_world(n_players, n_colors)
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    body = body.strip().upper()
    want = m ** (n - 1)
    if len(body) != want:
        raise ValueError(f"strategy {text!r} has {len(body)} letters, expected {want} "
                         "(one per view, M**(N-1))")
    allowed = LETTERS[:m] + PASS
    out = np.empty(want, dtype=np.int8)
    for k, ch in enumerate(body):
        if ch not in allowed:
            raise ValueError(f"unknown letter {ch!r} in strategy {text!r} (allowed: {allowed})")
        out[k] = -1 if ch == PASS else LETTERS.index(ch)
    return out


def strategy_to_string(guesses: Sequence[int], n_colors: int = len(LETTERS)) -> str:
    """Guesses (-1 = pass) -> thesis notation, e.g. [1, -1, -1, 0] -> 'BPPR'."""
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    if isinstance(guesses, np.ndarray):
        guesses = guesses.tolist()
    gs = checks.integers(guesses, "guesses", low=-1, high=m - 1)
    return "".join(PASS if g < 0 else LETTERS[g] for g in gs)


def _strategy_from_mapping(strategy: Mapping, n: int, m: int) -> np.ndarray:
    out = np.full(m ** (n - 1), -1, dtype=np.int8)
    for view, guess in strategy.items():
        v = string_to_round(view, m) if isinstance(view, str) else _colours(view, m, "view")
        if len(v) != n - 1:
            raise ValueError(f"view {view!r} is not a view of {n - 1} hats in {m} colours")
        out[round_index(v, m)] = _guess(guess, m)
    return out


def _guess(guess: object, m: int) -> int:
    """One guess: a colour index, -1 or None (pass), or a letter."""
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
        raise checks.ArgumentTypeError(f"guess {guess!r} is a boolean, not a colour index")
    if isinstance(guess, (float, np.floating)):
        raise checks.ArgumentTypeError(
            f"guess {guess!r} is not an integer colour index (floats are not truncated)")
    g = checks.integer(guess, "guess")
    if not -1 <= g < m:
        raise ValueError(f"guess {guess!r} must be a colour index 0..{m - 1}, -1/None (pass) "
                         "or a letter")
    return g


def _strategy_from_array(strategy: object, player: int, n: int, m: int) -> np.ndarray:
    """One player's guesses as a sequence or array: colour indices, -1/None or letters."""
    if isinstance(strategy, np.ndarray):
        arr = strategy
    elif isinstance(strategy, Sequence) and not isinstance(strategy, (str, bytes)):
        arr = np.empty(len(strategy), dtype=object)
        arr[:] = list(strategy)
    else:
        raise checks.ArgumentTypeError(
            f"strategy of player {player} must be a string, a mapping or a sequence of guesses, "
            f"got {type(strategy).__name__}")
    if arr.shape != (m ** (n - 1),):
        raise ValueError(f"strategy of player {player} must have {m ** (n - 1)} guesses, "
                         f"got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.integer):
        bad = (arr < -1) | (arr >= m)
        if bad.any():
            raise ValueError(f"guess {arr[bad][0]!r} of player {player} must be a colour index "
                             f"0..{m - 1} or -1 (pass)")
        return arr.astype(np.int8)
    if arr.dtype.kind in "fcb":  # floats, complex numbers, booleans: never silently truncated
        raise checks.ArgumentTypeError(
            f"guesses of player {player} must be integers, -1/None (pass) or letters, "
            f"got dtype {arr.dtype}")
    return np.array([_guess(g, m) for g in arr], dtype=np.int8)


def _strategies(deal: object) -> list:
    """The per-player strategies of a deal given as an array, a mapping {1: ..} or a sequence."""
    if isinstance(deal, np.ndarray) and deal.ndim == 2:
        return list(deal)
    if isinstance(deal, Mapping):
        keys = list(deal)
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in keys) or \
                sorted(keys) != list(range(1, len(keys) + 1)):
            raise ValueError(f"a deal mapping must have the players 1..N as keys, got {keys}")
        return [deal[k] for k in sorted(keys)]
    if isinstance(deal, (str, bytes)):
        raise ValueError("a deal is one strategy per player, not a single string")
    if isinstance(deal, Sequence):
        return list(deal)
    raise checks.ArgumentTypeError(f"cannot read a deal from {type(deal).__name__}: pass one "
                                   "strategy per player (strings, mappings or arrays)")


def parse_deal(deal: object, n_colors: int = 2) -> np.ndarray:
    """A deal as strings, per-view mappings or arrays, per player (list or {1: ..}) -> array."""
    strategies = _strategies(deal)
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


def deal_to_strings(deal: object, n_colors: int = 2) -> tuple[str, ...]:
    """A deal in the thesis's notation, one string per agent (Tables 5.2, 5.5-5.8)."""
    return tuple(strategy_to_string(row) for row in parse_deal(deal, n_colors))


# --- evaluation -------------------------------------------------------------------------------


def answers(deal: object, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] of answers: +1 right, -1 wrong, 0 pass (Section 2.1.5)."""
    d = parse_deal(deal, n_colors)
    n, m = d.shape[0], n_colors
    r = np.array(rounds(n, m), dtype=np.int8).reshape(-1, n)
    guess = np.take_along_axis(d.astype(np.int64), view_table(n, m), axis=1)  # [player, round]
    own = r.T.astype(np.int64)
    return np.where(guess < 0, 0, np.where(guess == own, 1, -1)).astype(np.int8)


def won_mask(deal: object, n_colors: int = 2) -> np.ndarray:
    """Boolean per round (in `rounds` order): somebody right and nobody wrong."""
    a = answers(deal, n_colors)
    return (a == 1).any(axis=0) & ~(a == -1).any(axis=0)


def evaluate(deal: object, n_colors: int = 2) -> frozenset[Round]:
    """The set of won rounds of a deal: the thesis's *Set Correct* fitness (Section 2.1.7)."""
    d = parse_deal(deal, n_colors)
    allr = rounds(d.shape[0], n_colors)
    return frozenset(allr[k] for k in np.flatnonzero(won_mask(d, n_colors)))


def rounds_correct(deal: object, n_colors: int = 2) -> Fraction:
    """*Rounds Correct* fitness: won rounds / M**N (Section 2.1.7)."""
    d = parse_deal(deal, n_colors)
    return Fraction(int(won_mask(d, n_colors).sum()), n_colors ** d.shape[0])


def strong_answering(deal: object, n_colors: int = 2, pass_value: Fraction | int = 0) -> Fraction:
    """*Strong Answering* fitness (Section 2.1.7): mean answer score over all players and rounds.

    Our documented choice: a right answer scores +1, a wrong one -1 and a pass `pass_value`
    (0 by default, 'neither good nor bad', Section 2.1.1 rule 4).
    """
    if not isinstance(pass_value, Fraction):
        checks.number(pass_value, "pass_value", low=-1, high=1)
    pass_value = Fraction(pass_value)
    if not -1 <= pass_value <= 1:
        raise ValueError(f"pass_value must lie between -1 and 1, got {pass_value}")
    a = answers(deal, n_colors)
    score = Fraction(int((a == 1).sum()) - int((a == -1).sum())) + pass_value * int((a == 0).sum())
    return score / a.size


def set_correct_order(a: frozenset, b: frozenset) -> str:
    """Compare two won sets under *Set Correct* (Theorem 1): better, worse, equal, incomparable."""
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, (set, frozenset)):
            raise checks.ArgumentTypeError(f"{name} must be a set of rounds, got {value!r}")
    if a == b:
        return "equal"
    if b < a:
        return "better"
    if a < b:
        return "worse"
    return "incomparable"
