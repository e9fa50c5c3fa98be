"""Cache long computations as CSV tables in data/ (recomputed by `make reproduce`).

Every table written here gets a checksum in `data/checksums/<name>.sha256` (the format of
`sha256sum`, so `cd data && sha256sum -c checksums/*.sha256` checks them all). A table is
used only when its bytes match: a truncated, edited or corrupted file, or one without its
checksum, is reported with a `CacheWarning` naming the file and recomputed (or, where it
cannot be recomputed, refused with a `ValueError`). A missing table is announced before it
is computed, so nobody waits for minutes without knowing why. A caller can also pass
`verify=` to re-check what a table claims (a witness deal, an announcement) when it is read.
"""

from __future__ import annotations

import hashlib
import io
import os
import warnings
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from . import paths
from .checks import ArgumentTypeError
from .paths import DATA

__all__ = [
    "CacheWarning", "RECOMPUTE_ENV", "cached_source_table", "cached_table", "checksum_path",
    "data_path", "partial_dir", "read_csv_checked", "read_table", "recompute_requested",
    "write_csv", "write_table",
]

RECOMPUTE_ENV = "PUZZLELAB_RECOMPUTE"
CHECKSUMS = "checksums"
PARTIAL = "partial"


class CacheWarning(UserWarning):
    """A cached table in data/ was missing, damaged or unverified and is being recomputed."""


def recompute_requested() -> bool:
    """True when the environment asks every cached table to be recomputed (`make reproduce`)."""
    return os.environ.get(RECOMPUTE_ENV, "") not in ("", "0", "false", "no")


def _check_name(name: str, what: str = "cache name") -> str:
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"{what} must be a plain file stem, got {name!r}")
    return name


def data_path(name: str) -> Path:
    """The CSV file in data/ that caches the table called `name`."""
    return DATA / f"{_check_name(name)}.csv"


def checksum_path(csv: Path) -> Path:
    """Where the checksum of a CSV file lives: data/checksums/<stem>.sha256 beside data/."""
    if not isinstance(csv, (str, os.PathLike)):
        raise ArgumentTypeError(f"csv must be a path, got {csv!r}")
    csv = Path(csv)
    return csv.parent / CHECKSUMS / f"{csv.stem}.sha256"


def partial_dir(name: str) -> Path:
    """The folder of a resumable sweep's finished chunks (data/partial/<name>/, not committed)."""
    return DATA / PARTIAL / _check_name(name, "sweep name")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_csv(df: pd.DataFrame, path: Path) -> Path:
    """Write `df` byte-stably (no index, '\\n' line ends, 12 digits) with its checksum beside it."""
    buffer = io.StringIO()
    df.to_csv(buffer, index=False, lineterminator="\n", float_format="%.12g")
    data = buffer.getvalue().encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    checksum_path(path).parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    checksum_path(path).write_text(f"{_digest(data)}  {path.name}\n", encoding="utf-8")
    return path


def _damage(path: Path) -> str | None:
    """Why the CSV at `path` cannot be trusted (None when its bytes match its checksum)."""
    if not path.exists():
        return "is missing"
    if not checksum_path(path).exists():
        return f"has no checksum ({checksum_path(path).relative_to(path.parent.parent)})"
    recorded = checksum_path(path).read_text(encoding="utf-8").split()
    if not recorded or recorded[0] != _digest(path.read_bytes()):
        return "does not match its checksum (truncated, edited or corrupted)"
    return None


def read_csv_checked(path: Path) -> pd.DataFrame:
    """Read a CSV written by `write_csv`, refusing it (ValueError naming the file) if damaged."""
    problem = _damage(path)
    if problem:
        raise ValueError(f"{path} {problem}; delete it or recompute with {RECOMPUTE_ENV}=1")
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def write_table(df: pd.DataFrame, name: str) -> Path:
    """Write `df` to data/<name>.csv (byte-stable, with its checksum)."""
    return write_csv(df, data_path(name))


def read_table(name: str) -> pd.DataFrame:
    """Read the cached table data/<name>.csv (ValueError naming the file if it is damaged)."""
    return read_csv_checked(data_path(name))


def _usable(name: str, verify: Callable[[pd.DataFrame], None] | None) -> str | None:
    """Why data/<name>.csv cannot be used as it is (None when it can)."""
    path = data_path(name)
    problem = _damage(path)
    if problem is None and verify is not None:
        try:
            verify(read_table(name))
        except ValueError as err:
            problem = f"fails its check: {err}"
    return problem


def cached_table(
    name: str, compute: Callable[[], pd.DataFrame], *, recompute: bool | None = None,
    verify: Callable[[pd.DataFrame], None] | None = None,
) -> pd.DataFrame:
    """Return data/<name>.csv, computing and writing it first when missing, damaged or asked to.

    `recompute=None` follows the environment variable PUZZLELAB_RECOMPUTE (set by
    `make reproduce`). `verify(df)` raises ValueError when a read table is wrong (it is then
    recomputed). The value returned is always the table as read back from the CSV file, so
    a fresh computation and a cache hit look exactly alike.
    """
    if recompute is None:
        recompute = recompute_requested()
    if not recompute:
        problem = _usable(name, verify)
        if problem is None:
            return read_table(name)
        warnings.warn(f"data/{name}.csv {problem}: computing it now", CacheWarning, stacklevel=2)
    df = compute()
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"cached_table({name!r}): compute() must return a DataFrame")
    write_table(df, name)
    out = read_table(name)
    if verify is not None:
        verify(out)
    return out


def cached_source_table(name: str, source: str, parse: Callable[[str], pd.DataFrame]) -> pd.DataFrame:
    """A table read out of a source document's text, cached as data/<name>.csv.

    `source` is the document's citation key (`puzzlelab.sources`). Re-parsed on request only
    where the source text is at hand (shared/sources/); without it the cached copy stands, so
    `make reproduce` works on a machine that has only the repository. A damaged copy with no
    source at hand is refused with a ValueError naming the file.
    """
    if not paths.source_available(source):
        problem = _damage(data_path(name))
        if problem is None:
            return read_table(name)
        try:
            paths.source_text(source)
        except ValueError as err:
            raise ValueError(f"data/{name}.csv {problem}, and it cannot be re-read: {err}") from None
    return cached_table(name, lambda: parse(paths.source_text(source)),
                        recompute=recompute_requested())
