"""The greedy strategies of code breaking as scoring functions (Klimoš 2014, §3.3, Definition 21).

A scoring function takes the part sizes `counts[j, o]` (how many live codes experiment j
sends to outcome o) and returns one score per experiment; the strategy performs an
experiment with the lowest score. `STRATEGIES` maps each name to its function:

| name         | picks the experiment with                 | known as              |
|--------------|-------------------------------------------|-----------------------|
| `max-models` | the smallest largest part                 | Knuth (1977)          |
| `exp-models` | the smallest expected part, Σ c²/n        | Irving (1979)         |
| `ent-models` | the largest entropy of the outcome        | Neuwirth (1982)       |
| `parts`      | the most (non-empty) parts                | Kooi (2005)           |

Anywhere a strategy is asked for, a name from `STRATEGIES` or such a function may be given.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from .. import checks

__all__ = ["STRATEGIES", "Scoring", "entropy", "expected_size", "largest_part", "most_parts",
           "strategy_name", "scoring"]

Scoring = Callable[[np.ndarray], np.ndarray]


def _counts(counts: object) -> np.ndarray:
    """Part sizes as a 2-d array of non-negative integers (experiments × outcomes)."""
    arr = np.asarray(counts) if not isinstance(counts, (str, bytes, dict)) else np.array(None)
    if arr.ndim != 2 or arr.shape[1] == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise checks.ArgumentTypeError("part sizes must be a 2-d array of integers "
                                       f"(experiments × outcomes), got {counts!r}")
    if arr.size and arr.min() < 0:
        raise ValueError("part sizes must be non-negative")
    return arr


def largest_part(counts: np.ndarray) -> np.ndarray:
    """Knuth (1977): the size of the largest part (lower is better)."""
    return _counts(counts).max(axis=1).astype(np.float64)


def expected_size(counts: np.ndarray) -> np.ndarray:
    """Irving (1979): Σ c², the expected part size times the number of live codes."""
    return (_counts(counts).astype(np.int64) ** 2).sum(axis=1).astype(np.float64)


def entropy(counts: np.ndarray) -> np.ndarray:
    """Neuwirth (1982): max entropy ⇔ min Σ c ln c (n fixed); rounded so that ties are ties."""
    c = _counts(counts).astype(np.float64)
    return np.round((c * np.log(np.where(c > 0, c, 1.0))).sum(axis=1), 9)


def most_parts(counts: np.ndarray) -> np.ndarray:
    """Kooi (2005): minus the number of non-empty parts."""
    return -(_counts(counts) > 0).sum(axis=1).astype(np.float64)


STRATEGIES: dict[str, Scoring] = {
    "max-models": largest_part,
    "exp-models": expected_size,
    "ent-models": entropy,
    "parts": most_parts,
}


def scoring(strategy: str | Scoring) -> Scoring:
    """The scoring function of a strategy given by name (one of `STRATEGIES`) or as a function."""
    if callable(strategy):
        return _one_argument(strategy)
    if not isinstance(strategy, str):
        raise checks.ArgumentTypeError(
            f"strategy must be a name ({', '.join(STRATEGIES)}) or a scoring function, "
            f"got {strategy!r}")
    return STRATEGIES[checks.choice(strategy, "strategy", STRATEGIES)]


def _one_argument(f: Scoring) -> Scoring:
    """`f` if it can be called with one argument (the part sizes), else a ValueError naming it."""
    try:
        inspect.signature(f).bind(None)
    except TypeError:
        raise ValueError(f"a scoring function takes one argument (every experiment's part "
                         f"sizes); {getattr(f, '__name__', repr(f))} does not") from None
    except ValueError:  # no signature to read (some built-ins): it is tried when called
        pass
    return f


def strategy_name(strategy: str | Scoring) -> str:
    """How results name a strategy: its registry name, else the function's name."""
    scoring(strategy)
    if isinstance(strategy, str):
        return strategy
    return next((n for n, f in STRATEGIES.items() if f is strategy),
                getattr(strategy, "__name__", repr(strategy)))
