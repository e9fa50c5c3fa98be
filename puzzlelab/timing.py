"""Wall-clock helpers for the benchmarks in `benchmarks/` (never used in tests)."""

from __future__ import annotations

import time
from typing import Any, Callable


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Seconds taken by one call f(*args), and its result."""
    start = time.perf_counter()
    result = f(*args)
    return time.perf_counter() - start, result


def best_of(f: Callable[[], Any], repeat: int = 3) -> float:
    """Fastest wall time of `repeat` calls of f() (the usual timeit convention)."""
    return min(timed(f)[0] for _ in range(repeat))
