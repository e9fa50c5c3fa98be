"""Exact integer sums over deals: means and 95% intervals in constant memory, on any executor.

A study over many seeded deals often needs, for each per-deal quantity x = S / den (S an
integer, den a fixed positive denominator), only three numbers: the deals, the sum of S and
the sum of S squared. A block of deals is summarised by one *sums row* of exact integers, and
blocks add up exactly, so a table is the same whatever the block size, the executor or the
order in which blocks finish. Used by the Kemps long runs (`kemps.streaming`) and the Hanabi
games (`hanabi.hat_sweep`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from . import checks

__all__ = [
    "COUNTS", "Z95", "mean_ci_from_sums", "merge_sums", "ratio_ci_from_sums", "sum_row",
]

Z95 = 1.959963984540054  # two-sided 95% normal quantile
COUNTS = ["deals", "total", "squares", "denominator"]  # the integer columns of a sums row
INT64_MAX = 2**63 - 1


def sum_row(keys: Mapping[str, Any], s: np.ndarray | Sequence[int], den: int) -> dict:
    """One sums row for the per-deal integers `s` of the quantity s / den, after its `keys`."""
    if not isinstance(keys, Mapping):
        raise checks.ArgumentTypeError(f"keys must be a mapping of key columns, got {keys!r}")
    s = np.asarray(s)
    if s.ndim != 1 or (s.size and s.dtype.kind not in "biu"):
        raise checks.ArgumentTypeError(f"s must be a one-dimensional array of integers, got {s!r}")
    values = [int(x) for x in s.tolist()]  # Python integers: no overflow
    den = checks.integer(den, "den", low=1)
    row = {**keys, "deals": len(values), "total": sum(values),
           "squares": sum(x * x for x in values), "denominator": den}
    _fits(row["total"], row["squares"])
    return row


def _fits(*sums: int) -> None:
    """Sums are kept as 64-bit integers in tables: refuse any that would not fit."""
    if any(abs(x) > INT64_MAX for x in sums):
        raise ValueError(f"sums beyond 64-bit integers ({max(map(abs, sums)):.3g}): split the "
                         f"deals into more rows or use a coarser unit")


def merge_sums(parts: pd.DataFrame, keys: Sequence[str],
               text_keys: Sequence[str] = ()) -> pd.DataFrame:
    """Add up blocks' sums row by row (rows with the same `keys`); checks the parts.

    `text_keys` are key columns read back from CSV as text: an empty entry (NaN) becomes "".
    """
    if not isinstance(parts, pd.DataFrame):
        raise checks.ArgumentTypeError(f"parts must be a DataFrame of sums, got {parts!r}")
    keys = [checks.text(k, "keys[i]") for k in checks.sequence(keys, "keys")]
    text_keys = [checks.text(k, "text_keys[i]") for k in checks.sequence(text_keys, "text_keys")]
    if not keys or not set(text_keys) <= set(keys):
        raise ValueError(f"keys must name at least one column and hold every text key; got "
                         f"keys {keys}, text_keys {text_keys}")
    columns = [*keys, *COUNTS]
    missing = [c for c in columns if c not in parts.columns]
    if missing or parts.empty:
        raise ValueError(f"sums need the columns {columns}; missing {missing}")
    parts = parts[columns].fillna({k: "" for k in text_keys}).astype({k: str for k in text_keys})
    dens = parts.groupby(keys, sort=False)["denominator"].nunique()
    if (dens > 1).any():
        raise ValueError(f"blocks disagree on the denominator of {list(dens[dens > 1].index)}")
    for col in COUNTS:
        if not pd.api.types.is_integer_dtype(parts[col]):
            raise ValueError(f"sums must be integers; column {col!r} is {parts[col].dtype}")
    exact = parts.astype({c: object for c in ("deals", "total", "squares")})  # Python ints
    out = exact.groupby(keys, sort=False, as_index=False).agg(
        deals=("deals", "sum"), total=("total", "sum"), squares=("squares", "sum"),
        denominator=("denominator", "first"))
    _fits(*out["total"], *out["squares"], *out["deals"])
    out = out.astype({c: np.int64 for c in ("deals", "total", "squares")})
    if (out["deals"] < 1).any() or (out["denominator"] < 1).any():
        raise ValueError("sums need at least one deal and a positive denominator per row")
    return out


def mean_ci_from_sums(deals: int, total: int, squares: int, den: int) -> tuple[float, float]:
    """Mean and 95% normal half-width of x = S / den over deals, from exact integer sums."""
    n = checks.integer(deals, "deals", low=1)
    total = checks.integer(total, "total")
    squares = checks.integer(squares, "squares", low=0)
    den = checks.integer(den, "den", low=1)
    mean = float(Fraction(total, n * den))
    if n < 2:
        return mean, float("nan")
    var = Fraction(n * squares - total**2, n * (n - 1) * den**2)
    if var < 0:
        raise ValueError("sums are inconsistent: the sum of squares is too small")
    return mean, Z95 * math.sqrt(float(var) / n)



def _pair(value: object, name: str) -> tuple[int, int]:
    """(sum, sum of squares): two integers."""
    pair = checks.sequence(value, name, what="a pair (sum, sum of squares)")
    if len(pair) != 2:
        raise ValueError(f"{name} must be a pair (sum, sum of squares), got {len(pair)} items")
    return checks.integer(pair[0], f"{name}[0]"), checks.integer(pair[1], f"{name}[1]", low=0)


def ratio_ci_from_sums(deals: int, a: tuple[int, int], b: tuple[int, int], ab: int,
                       den: int = 1) -> tuple[float, float]:
    """sum(A) / sum(B) / den over deals, and its 95% half-width (delta method).

    `a` and `b` are (sum, sum of squares) of per-deal integers A and B, `ab` the sum of their
    products: for bits per hint, A is a deal's bits and B its number of hints.
    """
    n = checks.integer(deals, "deals", low=1)
    sa, qa = _pair(a, "a")
    sb, qb = _pair(b, "b")
    ab, den = checks.integer(ab, "ab"), checks.integer(den, "den", low=1)
    if sb <= 0:
        raise ValueError(f"a ratio needs a positive sum of B, got {sb}")
    ratio = Fraction(sa, sb)
    if n < 2:
        return float(ratio / den), float("nan")
    spread = qa - 2 * ratio * ab + ratio**2 * qb  # sum of (A - ratio B)^2, whose sum is 0
    if spread < 0:
        raise ValueError("sums are inconsistent: the sums of squares are too small")
    var = spread / (n - 1) / n / Fraction(sb, n) ** 2
    return float(ratio / den), Z95 * math.sqrt(float(var)) / den
