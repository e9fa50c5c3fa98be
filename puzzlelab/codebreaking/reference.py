"""Slow, obvious reference implementations (Klimoš 2014, Definitions 12–13) for cross-checks.

`analyze_table` is the vectorised table engine (one bincount over the outcome table per node),
the reference of the compiled engine; `analyze_plain` plays a strategy by recursion over Python
lists; `optimal_plain` computes the
optimal worst case and total by plain recursion over every experiment, with no bounds, no
symmetry and no merging of equal partitions. Both are for small games only.
`play_mikemag` plays Magruder's rules (github.com/mikemag/Mastermind, `algos.hpp` and
`solver_cpu_opt.inl`) the way that program does, every game at once level by level, with its
single-precision ranks computed one operation at a time (numpy's float32 scalars, the C
library's logf, an exactly rounded fused multiply-add): the reference of
`engine.analyze(..., rules="mikemag")`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from .. import checks
from .analysis import Analysis, choose_by_table, play_tree, scores
from .game import Game, check_game
from .strategies import Scoring, scoring, strategy_name

__all__ = ["PLAIN_MAX_CODES", "analyze_plain", "analyze_table", "fma32", "logf", "mikemag_rank",
           "optimal_plain", "play_mikemag"]

PLAIN_MAX_CODES = 64  # the plain recursions are exponential: small games only


def _small(game: object) -> Game:
    game = check_game(game)
    if game.n_codes > PLAIN_MAX_CODES:
        raise ValueError(f"{game.name}: {game.n_codes} codes is too many for the plain recursion "
                         f"(at most {PLAIN_MAX_CODES})")
    return game


def _parts(row: list[int], live: list[int]) -> dict[int, list[int]]:
    """The live codes grouped by their outcome in one row of the outcome table."""
    parts: dict[int, list[int]] = {}
    for k in live:
        parts.setdefault(row[k], []).append(k)
    return parts


def analyze_plain(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """The analysis of `analysis.analyze` written the slow, obvious way (recursion, lists)."""
    game, score_of = _small(game), scoring(strategy)
    table, final = game.outcome_table.tolist(), set(game.final_outcomes)
    lengths = [0] * game.n_codes

    def best(live: list[int]) -> int:
        scored = []
        for j, row in enumerate(table):
            counts = np.bincount([row[k] for k in live], minlength=game.n_outcomes)
            scored.append((float(scores(score_of, counts[None, :])[0]), j))
        low = min(s for s, _ in scored)
        ties = [j for s, j in scored if s == low]
        hitting = [j for j in ties if any(table[j][k] in final for k in live)]
        return (hitting or ties)[0]

    def solve(live: list[int], depth: int) -> None:
        if len(live) == 1 and not final:
            lengths[live[0]] = depth
            return
        parts = _parts(table[best(live)], live)
        if len(parts) == 1 and next(iter(parts)) not in final:
            raise ValueError(f"{game.name}: no experiment tells apart {len(live)} codes")
        for o, part in parts.items():
            if o in final:
                lengths[part[0]] = depth + 1
            else:
                solve(part, depth + 1)

    solve(list(range(game.n_codes)), 0)
    arr = np.array(lengths)
    return Analysis(game, strategy_name(strategy), arr, arr.copy(), pd.DataFrame())


def optimal_plain(game: Game) -> tuple[int, int]:
    """The optimal worst case and the optimal total by plain recursion over every experiment.

    The two optima may come from different strategies.
    """
    game = _small(game)
    table, final = game.outcome_table.tolist(), set(game.final_outcomes)

    @lru_cache(maxsize=None)
    def solve(live: frozenset) -> tuple[float, float]:
        if len(live) == 1:
            return (1, 1) if final else (0, 0)
        best_worst, best_total = math.inf, math.inf
        for row in table:
            parts = _parts(row, sorted(live))
            if len(parts) == 1 and next(iter(parts)) not in final:
                continue  # teaches nothing
            worst, total = 0, 0
            for o, part in parts.items():
                w, t = (1, 1) if o in final else _after(solve(frozenset(part)), len(part))
                worst, total = max(worst, w), total + t
            best_worst, best_total = min(best_worst, worst), min(best_total, total)
        return best_worst, best_total

    worst, total = solve(frozenset(range(game.n_codes)))
    if worst == math.inf:
        raise ValueError(f"{game.name}: some codes cannot be told apart")
    return int(worst), int(total)


def _after(sub: tuple[float, float], size: int) -> tuple[float, float]:
    """Worst and total of a part solved after one more experiment."""
    return 1 + sub[0], size + sub[1]


def analyze_table(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """The table engine (the compiled engine's reference): at every node every experiment is
    scored by one bincount over the codes × experiments outcome table (Klimoš 2014, §3.3)."""
    game, score_of = check_game(game), scoring(strategy)
    table_game = game if game.rule is None else game.with_final_outcomes(game.final_outcomes)
    result = play_tree(table_game, lambda live, depth: choose_by_table(table_game, live, score_of),
                       strategy_name(strategy))
    result.game = game
    return result


# --- Magruder's rules, level by level ------------------------------------------------------------
MIKEMAG_STRATEGIES = ("max-models", "parts", "exp-models", "ent-models")  # as _rank_of reads them


def play_mikemag(game: Game, strategy: str, first: int) -> dict[int, list[int]]:
    """Every code's guesses (experiment indices) under mikemag's rules after the first guess
    `first`: all games advance one guess at a time, the codes answered alike so far forming a
    region that plays one guess, chosen from the region alone (Mastermind-like string games)."""
    game = check_game(game)
    checks.choice(strategy, "strategy", MIKEMAG_STRATEGIES)
    finals = np.flatnonzero(game.is_final)
    if len(finals) != 1 or game.n_experiments != game.n_codes:
        raise ValueError(f"play_mikemag plays string games whose guesses are their codes, with one "
                         f"final outcome; {game.name!r} has {game.n_experiments} experiments for "
                         f"{game.n_codes} codes and {len(finals)} final outcomes")
    first = checks.integer(first, "first", low=0, high=game.n_experiments - 1)
    table, win = game.outcome_table, int(finals[0])
    pegs = len(game.experiments[0][1])  # a guess is a string of pegs
    regions, guesses = [(np.arange(game.n_codes), [first])], {}
    while regions:
        following = []
        for codes, path in regions:
            answers = table[path[-1], codes]
            for o in sorted(set(answers.tolist())):
                part = codes[answers == o]
                if o == win:
                    guesses[int(part[0])] = path
                else:
                    guess = _mikemag_guess(table, part, path, strategy, pegs, win)
                    following.append((part, path + [guess]))
        regions = following
    return guesses


def _mikemag_guess(table: np.ndarray, part: np.ndarray, path: list[int], strategy: str, pegs: int,
                   win: int) -> int:
    """The region's guess: its first code if it has at most two; else its first code that splits
    it into singletons if it has fewer codes than scores; else the best ranked experiment (an
    experiment splitting it into singletons at once; a possible solution first on equal ranks;
    never one already played)."""
    if len(part) <= 2:
        return int(part[0])
    if len(part) < pegs * (pegs + 3) // 2:
        for a in part:
            if len(set(table[a, part].tolist())) == len(part):
                return int(a)
    best, best_rank, best_possible = -1, 0, False
    for g in range(table.shape[0]):
        row = table[g, part]
        counts = np.bincount(row)
        if np.count_nonzero(counts) == len(part):
            return g
        rank, possible = mikemag_rank(counts, len(part), strategy), bool((row == win).any())
        if rank > best_rank or (not best_possible and possible and rank == best_rank):
            if g in path:
                continue
            best, best_rank, best_possible = g, rank, possible
    return best


def mikemag_rank(counts: np.ndarray, s: int, strategy: str) -> int:
    """The rank of a guess from its part sizes (higher is better), as algos.hpp computes it.

    Parameters
    ----------
    counts : numpy.ndarray
        The sizes of the parts the guess splits the live codes into (zeros allowed).
    s : int
        The number of live codes (the sum of `counts`).
    strategy : str
        One of `MIKEMAG_STRATEGIES`.

    Returns
    -------
    int
        The rank as an unsigned 32-bit integer; the expected size and the entropy are summed in
        single precision, term by term, and rounded as that program rounds them.

    Raises
    ------
    ValueError
        If `counts` do not sum to `s` or `strategy` is not one of `MIKEMAG_STRATEGIES`.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([3, 1, 1])
    >>> mikemag_rank(counts, 5, "max-models"), mikemag_rank(counts, 5, "parts")
    (2, 3)
    >>> mikemag_rank(counts, 5, "exp-models") == 2**32 - round(1e6 * (9 + 1 + 1) / 5)
    True

    References
    ----------
    Magruder, github.com/mikemag/Mastermind, `algos.hpp` (the strategies' ranks).
    """
    counts = np.asarray(counts)
    if strategy not in MIKEMAG_STRATEGIES:
        raise ValueError(f"strategy must be one of {MIKEMAG_STRATEGIES}, got {strategy!r}")
    if counts.ndim != 1 or counts.dtype.kind not in "iu" or int(counts.sum()) != s:
        raise ValueError(f"counts must be a 1-d integer array of part sizes summing to s={s}, "
                         f"got {counts!r}")
    return _rank_of(tuple(counts.tolist()), s, strategy)


@lru_cache(maxsize=None)
def _rank_of(counts: tuple[int, ...], s: int, strategy: str) -> int:
    counts = np.array(counts, np.int64)
    if strategy == "max-models":
        return s - int(counts.max())
    if strategy == "parts":
        return int(np.count_nonzero(counts))
    acc, n = np.float32(0.0), np.float32(s)
    for c in counts[counts > 0].tolist():
        f = np.float32(c)
        if strategy == "exp-models":
            acc = np.float32(acc + np.float32(f * f) / n)
        else:
            p = np.float32(f / n)
            acc = fma32(-p, logf(p), acc)
    if strategy == "exp-models":
        return (2**32 - _unsigned(float(acc) * 1e6)) % 2**32
    return _unsigned(float(acc) * 1e9)


def _unsigned(y: float) -> int:
    """C's round() of y ≥ 0 converted to a 32-bit unsigned integer by x86's instruction (2³² − 1
    when out of range)."""
    r = math.floor(y) + (1 if y - math.floor(y) >= 0.5 else 0)
    return r if r < 2**32 else 2**32 - 1


_LIBM = ctypes.CDLL(ctypes.util.find_library("m"))
_LIBM.logf.restype, _LIBM.logf.argtypes = ctypes.c_float, [ctypes.c_float]


def _single(x: object, name: str) -> np.float32:
    """`x` if it is a finite numpy.float32 (what Magruder's program's sums hold)."""
    if not isinstance(x, np.float32):
        raise checks.ArgumentTypeError(f"{name} must be a numpy.float32, got {x!r}")
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x!r}")
    return x


def logf(x: np.float32) -> np.float32:
    """The C library's single-precision logarithm.

    Parameters
    ----------
    x : numpy.float32
        A positive single-precision number.

    Returns
    -------
    numpy.float32
        `logf(x)` from the C library (libm), as Magruder's program computes it.

    Raises
    ------
    ArgumentTypeError
        If `x` is not a numpy.float32.
    ValueError
        If `x` is not finite.

    Examples
    --------
    >>> import numpy as np
    >>> float(logf(np.float32(1.0))), abs(float(logf(np.float32(2.0))) - 0.6931472) < 1e-7
    (0.0, True)

    References
    ----------
    ISO C `logf` (C99 §7.12.6.7); Magruder, github.com/mikemag/Mastermind, `algos.hpp`.
    """
    x = _single(x, "x")
    return np.float32(_LIBM.logf(float(x)))


def fma32(a: np.float32, b: np.float32, c: np.float32) -> np.float32:
    """a·b + c rounded once to single precision (to nearest, ties to even), exactly.

    Parameters
    ----------
    a, b, c : numpy.float32
        Single-precision numbers.

    Returns
    -------
    numpy.float32
        The exact a·b + c (in rational arithmetic) rounded once to the nearest single-precision
        number, ties to the even one.

    Raises
    ------
    ArgumentTypeError
        If an argument is not a numpy.float32.
    ValueError
        If an argument is not finite.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.float32(1 + 2**-23)
    >>> rounded = x * x  # 1 + 2**-22 + 2**-46 rounded to 1 + 2**-22
    >>> float(fma32(x, x, -rounded)) == 2**-46  # the rounding error, kept by one rounding
    True

    References
    ----------
    IEEE 754-2008, §5.4.1 (fusedMultiplyAdd); ISO C `fmaf` (C99 §7.12.13.1).
    """
    a, b, c = _single(a, "a"), _single(b, "b"), _single(c, "c")
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    near = np.float32(float(exact))
    up, down = np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))
    options = [near, up, down]
    return min(options, key=lambda f: (abs(Fraction(float(f)) - exact),
                                       int(np.float32(f).view(np.uint32)) & 1))
