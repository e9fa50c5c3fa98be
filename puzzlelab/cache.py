"""Cache long computations as CSV tables in data/ (recomputed by `make reproduce`).

Every table data/<name>.csv has two companions in data/checksums/: `<name>.sha256`, its
checksum in the format of `sha256sum` (so `cd data && sha256sum -c checksums/*.sha256`
checks them all), and `<name>.json`, its metadata: the name, the `version` of the computation
that made it (an integer its author bumps when the computation's meaning changes), the
parameters, the rows, the checksum, the seconds the computation took, when it ran (UTC) and
the command that rebuilds it. A `Table` says what a caller expects of a table; one that every
notebook reads is declared once with `register` (`puzzlelab.declarations`).

A table is used only when its bytes match its checksum and its metadata matches the `Table`
expected: a truncated, edited or corrupted file, one without checksum or metadata, or one made
by another version or with other parameters is reported with a `CacheWarning` naming the file
and recomputed, or, for a long run that `make reproduce` does not recompute, refused with a
`ValueError` naming the command that rebuilds it. `verify=` re-checks what a table claims (a
witness, a proof's bounds) when it is read.

Nothing is lost: a table's CSV, checksum and metadata change as one unit. A write prepares the
new files in a hidden folder beside the checksums, renames that folder (the moment the write
counts), then moves each file into place, all under an exclusive lock; whoever next reads or
writes the table finishes a write that counted and drops one that did not, so a process killed
between any two steps leaves the old table or the new one, never a mixture. A table of the same
name and other parameters is never replaced; a recompute that changes a table says which rows
and cells changed; one that gives the same bytes leaves every file untouched.

Every failure is one line naming the file: a write that fails (a full disk, a read-only folder,
`ulimit -f`) is a ValueError and leaves the old files as they were; a folder, FIFO or link loop
where a file belongs is refused without being opened for a blocking read. Names are plain file
stems: ASCII letters, digits, `_` and `-`, at most 100 characters, not starting with `-`.

The pieces: `atomic_io` (files written whole), `table_files` (a table's three files as one
unit), `table_reports` (the metadata a computation records, change reports), `declarations`
(what a table is); this module reads and writes tables by name and keeps their public names.
"""

from __future__ import annotations

import contextlib
import os
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd

from . import atomic_io, checks, declarations, paths, table_files as store, table_reports as reports
from .atomic_io import atomic_write
from .checks import ArgumentTypeError
from .declarations import CacheWarning, Table, rebuilds, register
from .paths import DATA
from .table_files import CHECKSUMS, checksum_path, metadata_path, read_csv_checked, write_csv
from .table_reports import CHANGES_ENV

__all__ = [
    "CHANGES_ENV", "CacheWarning", "RECOMPUTE_ENV", "Table", "atomic_write", "cached_source_table",
    "cached_table", "check_writable", "checksum_path", "compute_table", "data_path",
    "metadata_path", "partial_dir", "read_csv_checked", "read_long_run", "read_table",
    "rebuilds", "recompute_requested", "recomputing", "record_metadata", "register",
    "table_metadata", "write_csv", "write_table",
]

RECOMPUTE_ENV = "PUZZLELAB_RECOMPUTE"
BENCH_START_ENV = "PUZZLELAB_BENCH_START"  # when `puzzlelab bench` started the benchmark (epoch s)
PARTIAL = "partial"
PUZZLES = declarations.PUZZLES


_RECOMPUTING: set[str] = set()  # the tables `recomputing` asks for, whatever the environment


def recompute_requested(name: str | None = None) -> bool:
    """True when the environment asks every cached table to be recomputed (`make reproduce`),
    or when the table `name` is being rebuilt (`recomputing`)."""
    if name is not None and type(name) is not str:
        checks.text(name, "name")  # the ArgumentTypeError naming it
    return name in _RECOMPUTING or os.environ.get(RECOMPUTE_ENV, "") not in ("", "0", "false", "no")


@contextlib.contextmanager
def recomputing(*names: str) -> Iterator[None]:
    """Within this block the tables `names`, and no others, are recomputed when read through
    `cached_table` (what `puzzlelab compute NAME` does); the tables they read stay cached."""
    added = {declarations.check_name(n, "table name") for n in names} - _RECOMPUTING
    _RECOMPUTING.update(added)
    try:
        yield
    finally:
        _RECOMPUTING.difference_update(added)


def _declared(name: str) -> Table | None:
    """The table declared under `name` so far (None when none is)."""
    return declarations.REGISTRY.get(name)


def _spec(table: str | Table) -> Table:
    """The declared table of a name (a plain Table of that name when none is declared)."""
    if isinstance(table, Table):
        return table
    name = declarations.check_name(table, "table name")
    return _declared(name) or Table(name)


def data_path(name: str) -> Path:
    """The CSV file in data/ that caches the table called `name`."""
    return DATA / f"{declarations.check_name(name)}.csv"


def partial_dir(name: str) -> Path:
    """The folder of a resumable sweep's finished chunks (data/partial/<name>/, not committed)."""
    return DATA / PARTIAL / declarations.check_name(name, "sweep name")


def record_metadata(table: str | Table, *, computed_at: str | None = None,
                    seconds: float | None = None) -> Path:
    """Write the metadata of a table already in data/ that has none (or metadata of other
    bytes), after checking it: its bytes must match its checksum, it must read as a table and
    pass its declared check (ValueError otherwise). Nothing is recomputed; `computed_at` is when
    it was computed (UTC, ISO 8601), `seconds` how long it took, when known; the machine it was
    computed on is recorded as not known."""
    seconds = reports.check_seconds(seconds)
    if computed_at is not None:
        checks.text(computed_at, "computed_at")
    spec = _spec(table)
    path = data_path(spec.name)
    snap = store.snapshot(path)
    problem = store.bytes_damage(path, snap)
    if problem is not None:
        raise ValueError(f"{path} {problem}")
    df = store.parse(snap.data)  # type: ignore[arg-type]
    if spec.check is not None:
        spec.check(df)
    fields = reports.fields(spec, seconds)
    fields["computed_at"] = computed_at or fields["computed_at"]
    fields["machine"] = None  # not computed here: the machine that did is not known
    with store.table_lock(path, exclusive=True):
        if store.snapshot(path, locked=False).data != snap.data:
            raise ValueError(f"{path} changed while its metadata was being recorded")
        meta = {"name": spec.name, **fields, "rows": len(df),
                "sha256": store.sha256_of(snap.data)}  # type: ignore[arg-type]
        atomic_io.write_whole(metadata_path(path), store.json_bytes(meta))
    return metadata_path(path)


def table_metadata(name: str) -> dict | None:
    """The metadata recorded for data/<name>.csv (None when it has none or it is unreadable)."""
    path = data_path(name)
    try:
        return store.parse_metadata(store.snapshot(path))
    except ValueError:  # a folder or a FIFO in place of a file: no metadata to read
        return None


def check_writable(table: str | Table) -> Table:
    """The table `table` if a computation may write it, checked before any work: a declared
    table only with its declared version and parameters, any other never over a table of
    the same name made with other parameters (ValueError naming both)."""
    spec = _spec(table)
    store.snapshot(data_path(spec.name))  # a folder, FIFO or link loop in its place: refused now
    declared = _declared(spec.name)
    if declared is not None and (declared.version, declared.params) != (spec.version, spec.params):
        raise ValueError(f"data/{spec.name}.csv is the table of version {declared.version} with "
                         f"{store.brief(declared.params, 200)}; a table of other parameters "
                         f"({store.difference(spec.params, declared.params)}) needs a name of "
                         f"its own")
    if declared is None:
        meta = table_metadata(spec.name)
        if meta is not None and meta.get("params") != spec.params and store.damage(
                data_path(spec.name), store.snapshot(data_path(spec.name))) is None:
            raise ValueError(f"data/{spec.name}.csv holds a table made with other parameters "
                             f"({store.difference(meta.get('params'), spec.params)}); give this "
                             f"one another name or delete that file first")
    return spec


def write_table(df: pd.DataFrame, table: str | Table, *, seconds: float | None = None) -> Path:
    """Write `df` to data/<name>.csv with its checksum and metadata (`seconds`: how long its
    computation took), atomically; refused over a table of other parameters (`check_writable`),
    and a change to the table there before is reported (rows, cells)."""
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    seconds = reports.check_seconds(seconds)
    if seconds is None:
        seconds = _bench_seconds()
    spec = check_writable(table)
    path = data_path(spec.name)
    data = store.encode(df)
    old = store.store(path, data, reports.fields(spec, seconds))
    if old.data is not None and old.data != data and store.damage(path, old) is None:
        reports.report(reports.changes(spec.name, old.data, data))
    return path


def _bench_seconds() -> float | None:
    """The seconds since `puzzlelab bench` started the running benchmark (None outside one)."""
    start = os.environ.get(BENCH_START_ENV, "")
    try:
        return max(0.0, time.time() - float(start)) if start else None
    except ValueError:
        return None


def _remedy(spec: Table) -> str:
    return f"rebuild it with: {spec.command}"


def read_table(table: str | Table) -> pd.DataFrame:
    """Read the cached table data/<name>.csv, refused (ValueError naming the file and the command
    that rebuilds it) when it is damaged or its metadata is not that of the table expected (the
    `Table` given, or the one declared under that name)."""
    spec = (table if isinstance(table, Table)
            else _declared(declarations.check_name(table, "table name")))
    if spec is None:  # a table nobody declared (a benchmark's): its bytes must match, no more
        spec, expect = Table(table), None  # type: ignore[arg-type]
    else:
        expect = reports.expected(spec)
    df, problem = store.load(data_path(spec.name), expect)
    if problem is not None:
        raise ValueError(f"{data_path(spec.name)} {problem}; {_remedy(spec)}")
    return df  # type: ignore[return-value]


def _usable(spec: Table, verify: Callable[[pd.DataFrame], None] | None
            ) -> tuple[pd.DataFrame | None, str | None]:
    """(the table, None) when data/<name>.csv is the table `spec` and passes `verify`."""
    df, problem = store.load(data_path(spec.name), reports.expected(spec))
    if problem is None and verify is not None:
        try:
            verify(df)
        except ValueError as err:
            return None, f"fails its check: {err}"
    return df, problem


def compute_table(table: str | Table, compute: Callable[[], pd.DataFrame], *,
                  verify: Callable[[pd.DataFrame], None] | None = None) -> pd.DataFrame:
    """Compute a table, check it (`verify`, else its declared check), write it with its metadata
    and the seconds it took, and return it as read back (the same values a later read gives)."""
    _check_functions(compute, verify)
    spec = check_writable(table)
    verify = verify or spec.check
    start = time.perf_counter()
    df = compute()
    seconds = time.perf_counter() - start
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"computing {spec.name}: compute() must return a DataFrame")
    out = store.parse(store.encode(df))
    if verify is not None:
        verify(out)
    write_table(df, spec, seconds=seconds)
    return out


def _check_functions(compute: object, verify: object) -> None:
    """A table's `compute` (a function of no argument) and `verify` (a function of a table, or
    None), checked before any table is read or computed."""
    checks.function(compute, "compute")
    if verify is not None:
        checks.function(verify, "verify")


def cached_table(
    name: str | Table, compute: Callable[[], pd.DataFrame], *, recompute: bool | None = None,
    verify: Callable[[pd.DataFrame], None] | None = None,
) -> pd.DataFrame:
    """Return data/<name>.csv, computing and writing it first when missing, damaged, stale or
    asked to.

    `name` is a table's name (its declaration is used when there is one) or a `Table`.
    `recompute=None` follows the environment variable PUZZLELAB_RECOMPUTE (set by
    `make reproduce`). `verify(df)` raises ValueError when a read table is wrong (it is then
    recomputed). The value returned is always the table as read back from the CSV file, so
    a fresh computation and a cache hit look exactly alike.
    """
    _check_functions(compute, verify)
    if recompute is not None:
        recompute = checks.boolean(recompute, "recompute")
    spec = _spec(name)
    verify = verify or spec.check
    if recompute is None:
        recompute = recompute_requested(spec.name)
    if not recompute:
        df, problem = _usable(spec, verify)
        if problem is None:
            return df  # type: ignore[return-value]
        warnings.warn(f"data/{spec.name}.csv {problem}: computing it now", CacheWarning,
                      stacklevel=2)
    return compute_table(spec, compute, verify=verify)


def read_long_run(table: Table, verify: Callable[[pd.DataFrame], None] | None = None
                  ) -> pd.DataFrame | None:
    """A long run's table (one `make reproduce` does not recompute), or None when it was never
    run here; refused with a ValueError naming the command that rebuilds it when it is
    damaged, stale or fails `verify`. PUZZLELAB_RECOMPUTE does not recompute it."""
    if not isinstance(table, Table):
        raise ArgumentTypeError(f"table must be a Table declaration, got {table!r}")
    if verify is not None:
        checks.function(verify, "verify")
    if store.snapshot(data_path(table.name)).data is None:
        return None
    df, problem = _usable(table, verify or table.check)
    if problem is not None:
        raise ValueError(f"data/{table.name}.csv {problem}; {_remedy(table)}")
    return df


def cached_source_table(name: str, source: str, parse: Callable[[str], pd.DataFrame]) -> pd.DataFrame:
    """A table read out of a source document's text, cached as data/<name>.csv.

    `source` is the document's citation key (`puzzlelab.sources`). Re-parsed on request only
    where the source text is at hand (shared/sources/); without it the cached copy stands, so
    `make reproduce` works on a machine that has only the repository. A damaged copy with no
    source at hand is refused with a ValueError naming the file.
    """
    checks.text(source, "source")
    checks.function(parse, "parse")
    spec = _spec(name)
    if not paths.source_available(source):
        if spec.name in _RECOMPUTING:  # asked to rebuild it: say that it cannot be re-read
            paths.source_text(source)  # the ValueError naming where the source was looked for
        df, problem = _usable(spec, None)
        if problem is None:
            return df  # type: ignore[return-value]
        try:
            paths.source_text(source)
        except ValueError as err:
            raise ValueError(f"data/{name}.csv {problem}, and it cannot be re-read: {err}") from None
    return cached_table(spec, lambda: parse(paths.source_text(source)),
                        recompute=recompute_requested(spec.name))
