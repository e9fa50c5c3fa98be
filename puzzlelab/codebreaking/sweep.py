"""Recompute the code-breaking notebook's tables from the command line, on any executor.

    python -m puzzlelab.codebreaking.sweep codebreaking_optimal --workers 2
    python -m puzzlelab.codebreaking.sweep --scheduler tcp://host:8786   # every table, on Dask

writes data/<name>.csv (with its checksum and metadata), the same files the notebook reads; a
table that changes is reported (rows, cells). The tables and how each is computed are in
`tables`; this is their command line.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cache, sweeps
from .tables import TABLES, VERIFY

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> list[str]:
    """Recompute the tables the command line names (all by default); return their names."""
    parser = sweeps.CommandParser(prog="python -m puzzlelab.codebreaking.sweep",
                                  description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", metavar="TABLE",
                        help=f"tables to recompute (default: all of {', '.join(TABLES)})")
    sweeps.add_executor_arguments(parser)
    args = parser.parse_args(None if argv is None else [str(a) for a in argv])
    unknown = [t for t in args.tables if t not in TABLES]
    if unknown:
        raise ValueError(f"unknown table {unknown[0]!r}; choose from {', '.join(TABLES)}")
    names = list(dict.fromkeys(args.tables)) or list(TABLES)
    for name in names:
        cache.check_writable(name)
    with sweeps.executor_from_arguments(args) as (executor, workers):
        for name in names:
            out = cache.compute_table(name, lambda: TABLES[name](executor=executor,
                                                                 workers=workers),
                                      verify=VERIFY.get(name))
            print(f"wrote {cache.data_path(name)} ({len(out)} rows)")
    return names


if __name__ == "__main__":
    sweeps.command_line(main)
