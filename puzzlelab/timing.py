"""Wall-clock helpers for the benchmarks in `benchmarks/` (never used in tests)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["best_of", "speed_table", "timed"]


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Seconds taken by one call f(*args), and its result."""
    start = time.perf_counter()
    result = f(*args)
    return time.perf_counter() - start, result


def best_of(f: Callable[[], Any], repeat: int = 3) -> float:
    """Fastest wall time of `repeat` calls of f() (the usual timeit convention)."""
    return min(timed(f)[0] for _ in range(repeat))


def speed_table(name: str, columns: Sequence[str] | None = None) -> "pd.DataFrame":
    """The benchmark table data/<name>.csv narrowed for a notebook (at most 8 columns).

    `columns` picks and orders the columns to show; by default the first eight.
    """
    from .cache import read_table

    table = read_table(name)
    keep = [c for c in (columns or table.columns) if c in table.columns][:8]
    return table[keep]
