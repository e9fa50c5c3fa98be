"""Recompute the code-breaking notebook's tables from the command line, on any executor.

    python -m puzzlelab.codebreaking.sweep codebreaking_optimal --workers 2
    python -m puzzlelab.codebreaking.sweep --scheduler tcp://host:8786   # every table, on Dask

writes data/<name>.csv (with its checksum), the same files the notebook reads.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..cache import write_table
from ..sweeps import add_executor_arguments, command_line, executor_from_arguments
from .notebook import TABLES

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser raising ValueError on a bad command line (shown as an error by main)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def main(argv: Sequence[str] | None = None) -> list[str]:
    """Recompute the tables the command line names (all by default); return their names."""
    parser = _Parser(prog="python -m puzzlelab.codebreaking.sweep",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", metavar="TABLE",
                        help=f"tables to recompute (default: all of {', '.join(TABLES)})")
    add_executor_arguments(parser)
    args = parser.parse_args(None if argv is None else [str(a) for a in argv])
    unknown = [t for t in args.tables if t not in TABLES]
    if unknown:
        raise ValueError(f"unknown table {unknown[0]!r}; choose from {', '.join(TABLES)}")
    names = list(args.tables) or list(TABLES)
    with executor_from_arguments(args) as (executor, workers):
        for name in names:
            write_table(TABLES[name](executor=executor, workers=workers), name)
    return names


if __name__ == "__main__":
    command_line(main)
