"""Cache long computations as CSV tables in data/ (recomputed by `make reproduce`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from . import paths
from .paths import DATA

RECOMPUTE_ENV = "PUZZLELAB_RECOMPUTE"


def recompute_requested() -> bool:
    """True when the environment asks every cached table to be recomputed (`make reproduce`)."""
    return os.environ.get(RECOMPUTE_ENV, "") not in ("", "0", "false", "no")


def data_path(name: str) -> Path:
    """The CSV file in data/ that caches the table called `name`."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"cache name must be a plain file stem, got {name!r}")
    return DATA / f"{name}.csv"


def write_table(df: pd.DataFrame, name: str) -> Path:
    """Write `df` to data/<name>.csv in a byte-stable way (no index, '\\n' line ends, 12 digits)."""
    path = data_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, lineterminator="\n", float_format="%.12g")
    return path


def read_table(name: str) -> pd.DataFrame:
    """Read the cached table data/<name>.csv."""
    return pd.read_csv(data_path(name), keep_default_na=False, na_values=[""])


def cached_table(
    name: str, compute: Callable[[], pd.DataFrame], *, recompute: bool | None = None
) -> pd.DataFrame:
    """Return data/<name>.csv, computing and writing it first when missing or when asked to.

    `recompute=None` follows the environment variable PUZZLELAB_RECOMPUTE (set by
    `make reproduce`). The value returned is always the table as read back from the
    CSV file, so a fresh computation and a cache hit look exactly alike.
    """
    if recompute is None:
        recompute = recompute_requested()
    if recompute or not data_path(name).exists():
        df = compute()
        if not isinstance(df, pd.DataFrame):
            raise ValueError(f"cached_table({name!r}): compute() must return a DataFrame")
        write_table(df, name)
    return read_table(name)


def cached_source_table(name: str, source: str, parse: Callable[[str], pd.DataFrame]) -> pd.DataFrame:
    """A table read out of a source document's text, cached as data/<name>.csv.

    Re-parsed on request only where the source text is at hand (shared/sources/); without
    it the cached copy stands, so `make reproduce` works on a machine that has only the repository.
    """
    recompute = recompute_requested() and paths.source_available(source)
    return cached_table(name, lambda: parse(paths.source_text(source)), recompute=recompute)
