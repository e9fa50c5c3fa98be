"""Lower bounds on how many experiments a code-breaking game needs (Klimoš 2014, §3.2).

- `ceil_log(b, n)`: the least k with b**k >= n, the counting bound for n codes told apart by
  experiments of at most b outcomes;
- `lemma14_bound(game)`: Lemma 14's bound for a game, `ceil_log` of its largest number of
  outcomes of one experiment type and its number of codes.
"""

from __future__ import annotations

import math

from .. import checks
from .game import Game, check_game

__all__ = ["ceil_log", "lemma14_bound"]


def lemma14_bound(game: Game) -> float:
    """Lemma 14: ⌈log_b #φ0⌉ experiments are needed to determine the code, b = max_t |Φ(t)|.

    b is the most outcome formulas one experiment type has (not the number of labels over
    all types). The bound is on the thesis's length |σ|_v (until determined), so it is to
    be compared with `Analysis.determined`; math.inf if b = 1 and there are several codes.

    Parameters
    ----------
    game : Game
        The game, with #φ0 = `Game.n_codes` codes.

    Returns
    -------
    int or float
        The bound, an integer (math.inf when no experiment can tell codes apart).

    Raises
    ------
    ValueError
        If `game` is not a `Game` (an `ArgumentTypeError`).

    Examples
    --------
    Twelve coins: 24 codes, 3 outcomes a weighing, so at least 3 weighings; Mastermind 4×6:
    1,296 codes and 15 answers, at least 3 guesses before the code is known.

    >>> from puzzlelab.codebreaking.games import counterfeit_coin, mastermind
    >>> lemma14_bound(counterfeit_coin(12)), lemma14_bound(mastermind(4, 6))
    (3, 3)

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Lemma 14.
    """
    game = check_game(game)
    return ceil_log(game.max_type_outcomes, game.n_codes)


def ceil_log(b: int, n: int) -> float:
    """⌈log_b n⌉ in exact integer arithmetic (the least k with b^k ≥ n); math.inf if b = 1 < n.

    Parameters
    ----------
    b : int
        The base, at least 1.
    n : int
        The number, at least 1.

    Returns
    -------
    int or float
        The least k with b^k ≥ n (math.inf when b = 1 < n).

    Raises
    ------
    ValueError
        If `b` or `n` is not a positive integer.

    Examples
    --------
    >>> ceil_log(3, 27), ceil_log(3, 28), ceil_log(1, 2)
    (3, 4, inf)

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), Lemma 14 (the bound it computes).
    """
    b, n = checks.integer(b, "b", low=1), checks.integer(n, "n", low=1)
    if b == 1:
        return 0 if n == 1 else math.inf
    k = 0
    while b**k < n:
        k += 1
    return k
