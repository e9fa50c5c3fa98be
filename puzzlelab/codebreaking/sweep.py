"""Recompute the code-breaking notebook's tables from the command line, on any executor.

    python -m puzzlelab.codebreaking.sweep codebreaking_optimal --workers 2
    python -m puzzlelab.codebreaking.sweep --scheduler tcp://host:8786   # every table, on Dask

writes data/<name>.csv (with its checksum and metadata), the same files the notebook reads; a
table that changes is reported (rows, cells). The command is `tables.main`; this module is its
name on the command line (the command every table of `tables.TABLES` records).
"""

from __future__ import annotations

__all__: list[str] = []

if __name__ == "__main__":
    from .. import sweeps
    from .tables import main

    sweeps.command_line(main)
