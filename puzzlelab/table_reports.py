"""What a table's metadata records when it is computed, and how a change to a committed table
is reported (rows, columns, the first cells that changed).

The metadata of a computed table: its name, version and parameters (what it must match to be
used), the command that rebuilds it (`puzzlelab compute NAME` or `puzzlelab bench NAME`),
whether it is a long run, the seconds the computation took, when it ran (UTC) and the machine
it ran on (cores; Python, numpy and numba versions).
"""

from __future__ import annotations

import io
import os
import platform
import warnings
from datetime import datetime, timezone
from importlib import metadata as package_metadata
from typing import Any

import pandas as pd

from . import checks
from .declarations import CacheWarning, Table

__all__ = ["CHANGES_ENV", "machine"]

CHANGES_ENV = "PUZZLELAB_CHANGES"  # a file that collects change reports (tools/run_notebooks.py)


def machine() -> dict[str, Any]:
    """The machine a table is computed on: its cores and the Python, numpy and numba versions."""
    def version(package: str) -> str | None:
        try:
            return package_metadata.version(package)
        except package_metadata.PackageNotFoundError:
            return None
    return {"cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": version("numpy"), "numba": version("numba")}


def utc_now() -> str:
    """Now, in UTC, to the second (ISO 8601 with a Z)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def expected(spec: Table) -> dict[str, Any]:
    """What a table's metadata must record to be the table `spec` describes."""
    return {"name": spec.name, "version": spec.version, "params": spec.params}


def check_seconds(seconds: object) -> float | None:
    """How long a computation took: None (not known) or a finite number of seconds."""
    return checks.number(seconds, "seconds", low=0, high=1e9, allow_none=True)


def fields(spec: Table, seconds: float | None) -> dict[str, Any]:
    """The metadata of `spec` computed now in `seconds` (None: not measured) on this machine."""
    return {**expected(spec), "command": spec.command, "long_run": spec.long_run,
            "seconds": None if seconds is None else round(float(seconds), 1),
            "computed_at": utc_now(), "machine": machine()}



def report(message: str) -> None:
    """Say loudly that a committed table changed: into the file PUZZLELAB_CHANGES names when set
    (the notebook runner prints it; a notebook's output stays clean), else as a CacheWarning."""
    log = os.environ.get(CHANGES_ENV, "")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(message + "\n")
        return
    warnings.warn(message, CacheWarning, stacklevel=4)


def text_cells(data: bytes) -> pd.DataFrame:
    """A CSV file's cells as the text written in it ('' for an empty cell)."""
    if not data.strip():
        return pd.DataFrame()
    return pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)


def changes(name: str, before: bytes, after: bytes, shown: int = 5) -> str:
    """Rows before and after, columns added or removed, and the first cells that changed."""
    old, new = text_cells(before), text_cells(after)
    parts = [f"data/{name}.csv changed: {len(old)} rows before, {len(new)} after"]
    gone = [c for c in old.columns if c not in new.columns]
    added = [c for c in new.columns if c not in old.columns]
    if gone or added:
        parts.append(f"columns removed {gone}, added {added}")
    common = [c for c in new.columns if c in old.columns]
    rows = min(len(old), len(new))
    where = list(zip(*(old[common].iloc[:rows].to_numpy()
                       != new[common].iloc[:rows].to_numpy()).nonzero()))
    if where:
        def cell(i: int, j: int) -> str:
            label = ", ".join(f"{c}={new[c].iloc[i]}" for c in new.columns[:3])
            return (f"row {i} ({label}) {common[j]}: {old[common[j]].iloc[i]!r} -> "
                    f"{new[common[j]].iloc[i]!r}")
        more = f" and {len(where) - shown} more" if len(where) > shown else ""
        parts.append(f"{len(where)} cells changed: "
                     + "; ".join(cell(i, j) for i, j in where[:shown]) + more)
    return "; ".join(parts)
