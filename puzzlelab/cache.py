"""Cache long computations as CSV tables in data/ (recomputed by `make reproduce`).

Every table data/<name>.csv has two companions in data/checksums/: `<name>.sha256`, its
checksum in the format of `sha256sum` (so `cd data && sha256sum -c checksums/*.sha256`
checks them all), and `<name>.json`, its metadata: the name, the `version` of the computation
that made it (an integer its author bumps when the computation's meaning changes), the
parameters, the rows, the checksum, the seconds the computation took, when it ran (UTC) and
the command that rebuilds it. A `Table` says what a caller expects of a table; one that every
notebook reads is declared once with `register`.

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
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from . import checks, paths
from .checks import ArgumentTypeError
from .paths import DATA

try:  # a lock per folder of checksums (POSIX); elsewhere readers rely on the checksums alone
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CHANGES_ENV", "CacheWarning", "RECOMPUTE_ENV", "Table", "atomic_write", "cached_source_table",
    "cached_table", "check_writable", "checksum_path", "compute_table", "data_path",
    "metadata_path", "partial_dir", "read_csv_checked", "read_long_run", "read_table",
    "rebuilders", "rebuilds", "recompute_requested", "recomputing", "record_metadata",
    "register", "registered", "table_metadata", "write_csv", "write_table",
]

RECOMPUTE_ENV = "PUZZLELAB_RECOMPUTE"
CHANGES_ENV = "PUZZLELAB_CHANGES"  # a file that collects change reports (tools/run_notebooks.py)
CHECKSUMS = "checksums"
PARTIAL = "partial"
MAX_NAME = 100  # characters in a table's or a sweep's name
PUZZLES = ("russian_cards", "hats", "codebreaking", "kemps", "hanabi")
# The modules that declare (`register`) the named tables: each puzzle's table layer. `registered`
# imports them by name (the one place where a shared piece reaches up into the puzzles).
DECLARING_MODULES = tuple(f"puzzlelab.{p}.tables" for p in PUZZLES)


class CacheWarning(UserWarning):
    """A table in data/ was missing, damaged, stale or unverified, or a recompute changed it."""


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
    added = {_check_name(n, "table name") for n in names} - _RECOMPUTING
    _RECOMPUTING.update(added)
    try:
        yield
    finally:
        _RECOMPUTING.difference_update(added)


NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,%d}" % (MAX_NAME - 1))


def _check_name(name: object, what: str = "cache name") -> str:
    """A name that is safe as a file stem everywhere: ASCII letters, digits, `_` and `-`, at
    most `MAX_NAME` characters, not starting with `-` (no spaces, wildcards, line breaks)."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"{what} must be a string, got {name!r} ({type(name).__name__})")
    if NAME_PATTERN.fullmatch(name) is None:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise ValueError(f"{what} must be a plain file stem (letters, digits, _ and -, at most "
                         f"{MAX_NAME} characters, not starting with -), got {shown!r}")
    return name


# --- what a table is: name, version, parameters, the command that rebuilds it --------------------
def _plain(value: Any) -> Any:
    """A parameter value as JSON understands it (numpy scalars, ranges and sets included)."""
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    if isinstance(value, range):
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise ArgumentTypeError(f"a table parameter must be plain data (numbers, text, lists, "
                            f"mappings), got {value!r} ({type(value).__name__})")


def _canonical(params: object) -> dict[str, Any]:
    """Parameters as they are stored in the metadata (tuples become lists, keys are sorted)."""
    if not isinstance(params, Mapping):
        raise ArgumentTypeError(f"params must be a mapping, got {params!r}")
    try:
        text = json.dumps(dict(params), sort_keys=True, default=_plain, allow_nan=False)
    except ValueError as err:  # NaN or infinity
        raise ValueError(f"table parameters must be finite: {err}") from None
    except TypeError as err:  # keys that are not text
        raise ArgumentTypeError(f"table parameters must have text keys: {err}") from None
    return json.loads(text)


def _default_command(name: str) -> str:
    """How a table is rebuilt when its declaration does not say: make bench, or its notebook."""
    if name.startswith("bench_") or name == "mastermind_scale":
        return "make bench"
    for puzzle in PUZZLES:
        if name.startswith(f"{puzzle}_"):
            return f"{RECOMPUTE_ENV}=1 make notebook NB=notebooks/{puzzle}.ipynb"
    return "make reproduce"


@dataclasses.dataclass(frozen=True, eq=True)
class Table:
    """What a cached table must be: its name, the version of its computation (bumped by hand
    when the meaning changes), the parameters that made it, and the command that rebuilds it;
    a `long_run` is not recomputed by `make reproduce`, only by its command. `check(df)`
    raises ValueError when a table's rows contradict themselves (a witness, a proof's bounds);
    it runs whenever the table is computed or read through `cached_table` or `read_long_run`."""

    name: str
    version: int = 1
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    command: str = ""
    long_run: bool = False
    check: Callable[[pd.DataFrame], None] | None = dataclasses.field(
        default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_name(self.name, "table name")
        if not isinstance(self.version, int) or isinstance(self.version, bool) or self.version < 1:
            raise ValueError(f"a table version is a positive integer, got {self.version!r}")
        object.__setattr__(self, "params", _canonical(self.params))
        if not isinstance(self.command, str):
            raise ArgumentTypeError(f"command must be a string, got {self.command!r}")
        object.__setattr__(self, "command", self.command or _default_command(self.name))
        if not isinstance(self.long_run, bool):
            raise ArgumentTypeError(f"long_run must be True or False, got {self.long_run!r}")
        if self.check is not None and not callable(self.check):
            raise ArgumentTypeError(f"check must be a function of a table, got {self.check!r}")

    def variant(self, name: str = "", command: str = "", **params: Any) -> Table:
        """The table made with `params` in place of some of this one's: this table when they
        change nothing, else one named `name` (by default `<name>_<key><value>...`, shortened
        to a hash when long), never this one's name."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"table {self.name} has no parameters {unknown}")
        changed = {k: v for k, v in _canonical(params).items() if self.params.get(k) != v}
        if not changed:
            return self
        if not name:
            suffix = "_".join(f"{k}{_short_value(v)}" for k, v in sorted(changed.items()))
            if len(suffix) > 40:
                suffix = hashlib.sha256(suffix.encode()).hexdigest()[:12]
            name = f"{self.name}_{suffix}"
        if name == self.name:
            raise ValueError(f"a table of other parameters needs a name other than {name}")
        return Table(name, self.version, {**self.params, **changed}, command, self.long_run,
                     self.check)


def _short_value(value: Any) -> str:
    """A parameter value inside a file name: 7, 1-2-3, 2.5 ..."""
    if isinstance(value, list):
        return "-".join(_short_value(v) for v in value)
    text = format(value, "g") if isinstance(value, float) else str(value)
    return "".join(ch if ch.isascii() and ch.isalnum() or ch == "-" else "p" if ch == "." else "-"
                   for ch in text)


_REGISTRY: dict[str, Table] = {}
_DECLARED = False


def register(*tables: Table) -> Table:
    """Declare the tables notebooks read (once, where they are computed); returns the last one."""
    if not tables:
        raise ValueError("register needs at least one Table")
    for table in tables:
        if not isinstance(table, Table):
            raise ArgumentTypeError(f"register takes Table declarations, got {table!r}")
        known = _REGISTRY.get(table.name)
        if known is not None and known != table:
            raise ValueError(f"table {table.name} is declared twice, differently")
        _REGISTRY[table.name] = table
    return tables[-1]


def registered() -> dict[str, Table]:
    """Every declared table by name (importing the modules that declare them)."""
    global _DECLARED
    if not _DECLARED:
        _DECLARED = True
        for module in DECLARING_MODULES:
            importlib.import_module(module)
    return dict(_REGISTRY)


_REBUILDERS: dict[str, Callable[..., Any]] = {}


def rebuilds(*tables: Table | str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the function the notebooks call to read these tables (through `cached_table`)
    is the one `puzzlelab compute` calls, inside `recomputing`, to rebuild them; it may take
    `executor=` and `workers=`. Returns the function unchanged."""
    names = [t.name if isinstance(t, Table) else _check_name(t, "table name") for t in tables]
    if not names:
        raise ValueError("rebuilds needs at least one table")

    def declare(build: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(build):
            raise ArgumentTypeError(f"rebuilds decorates a function, got {build!r}")
        for name in names:
            _REBUILDERS[name] = build
        return build
    return declare


def rebuilders() -> dict[str, Callable[..., Any]]:
    """The function that rebuilds each table that has one, by name (see `rebuilds`)."""
    registered()
    return dict(_REBUILDERS)


def _declared(name: str) -> Table | None:
    return _REGISTRY.get(name) or registered().get(name)


def _spec(table: str | Table) -> Table:
    """The declared table of a name (a plain Table of that name when none is declared)."""
    if isinstance(table, Table):
        return table
    name = _check_name(table, "table name")
    return _declared(name) or Table(name)


# --- files ---------------------------------------------------------------------------------------
def data_path(name: str) -> Path:
    """The CSV file in data/ that caches the table called `name`."""
    return DATA / f"{_check_name(name)}.csv"


def _csv_path(csv: object, what: str = "csv") -> Path:
    """A path naming a file (not empty, not a folder)."""
    if not isinstance(csv, (str, os.PathLike)):
        raise ArgumentTypeError(f"{what} must be a path, got {csv!r}")
    path = Path(csv)
    if not os.fspath(csv) or path.is_dir():
        raise ValueError(f"{what} must name a file, got {os.fspath(csv)!r} (a folder)")
    return path


def checksum_path(csv: str | os.PathLike) -> Path:
    """Where the checksum of a CSV file lives: data/checksums/<stem>.sha256 beside data/."""
    csv = _csv_path(csv)
    return csv.parent / CHECKSUMS / f"{csv.stem}.sha256"


def metadata_path(csv: str | os.PathLike) -> Path:
    """Where the metadata of a CSV file lives: data/checksums/<stem>.json beside data/."""
    csv = _csv_path(csv)
    return csv.parent / CHECKSUMS / f"{csv.stem}.json"


def partial_dir(name: str) -> Path:
    """The folder of a resumable sweep's finished chunks (data/partial/<name>/, not committed)."""
    return DATA / PARTIAL / _check_name(name, "sweep name")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _atomic_write(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: a temporary file in the same folder, then a rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file where a folder must be
        raise ValueError(f"cannot write {path}: a file stands where a folder of its path "
                         f"must be") from None
    except OSError as err:
        raise _write_error(path.parent, err) from None
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as err:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(err, OSError):
            raise _write_error(path, err) from None
        raise


def _write_error(path: Path, err: OSError) -> ValueError:
    """A failed write as one line naming the file."""
    why = err.strerror or type(err).__name__
    if isinstance(err, IsADirectoryError) or path.is_dir():
        why = "a folder stands where the file must be"
    return ValueError(f"cannot write {path}: {why}")


def atomic_write(path: str | os.PathLike, data: bytes) -> Path:
    """Write the bytes `data` to `path` whole or not at all (a temporary file, then a rename)."""
    if not isinstance(data, bytes):
        raise ArgumentTypeError(f"data must be bytes, got {type(data).__name__}")
    path = _csv_path(path, "path")
    _atomic_write(path, data)
    return path


@contextlib.contextmanager
def _locked(csv: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold the lock of the checksums folder beside `csv` (shared to read, exclusive to write)."""
    folder = csv.parent / CHECKSUMS
    if exclusive:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _write_error(folder, err) from None
    if fcntl is None or not folder.is_dir():
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock


KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def _read_bytes(path: Path) -> bytes | None:
    """A file's bytes (None when there is none); a path that is not a regular file (a folder, a
    FIFO, a link loop) or cannot be read is a ValueError naming it. Never waits on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or type(err).__name__}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((k for test, k in KINDS if test(mode)), "not a regular file")
            raise ValueError(f"cannot read {path}: it is {kind}, not a file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or type(err).__name__}") from None
    finally:
        os.close(fd)


@dataclasses.dataclass
class _Snapshot:
    """The bytes of a CSV file, its checksum and its metadata, read together under the lock."""

    data: bytes | None
    checksum: bytes | None
    metadata: bytes | None


def _snapshot(csv: Path, *, locked: bool = True) -> _Snapshot:
    """The table's three files read together (under the shared lock when `locked`), after
    finishing or undoing a write that was cut short (`_recover`)."""
    if locked and _interrupted(csv):
        with contextlib.suppress(OSError, ValueError), _locked(csv, exclusive=True):
            _recover(csv)  # a read-only folder: the files are read as they are
    with _locked(csv, exclusive=False) if locked else contextlib.nullcontext():
        return _Snapshot(_read_bytes(csv), _read_bytes(checksum_path(csv)),
                         _read_bytes(metadata_path(csv)))


# --- one table, one atomic unit: its CSV, checksum and metadata change together ----------------
# A write puts the new files in a hidden folder beside the checksums (`.<name>.write.tmp`),
# renames that folder to `.<name>.write` (the moment the write counts), then moves each file
# into place and removes the folder. Whoever next takes the lock finishes a write that counts
# (moves what is left) and drops one that does not (the old files were never touched).
ROLES = ("csv", "sha256", "json")


def _journal(csv: Path) -> Path:
    """The folder of a write that counts (its files still to be moved into place)."""
    return csv.parent / CHECKSUMS / f".{csv.stem}.write"


def _pending(csv: Path) -> Path:
    """The folder where a write prepares its files before it counts."""
    return csv.parent / CHECKSUMS / f".{csv.stem}.write.tmp"


def _destination(csv: Path, role: str) -> Path:
    return {"csv": csv, "sha256": checksum_path(csv), "json": metadata_path(csv)}[role]


def _interrupted(csv: Path) -> bool:
    """Is a write of this table unfinished (its folder left by a kill or a crash)?"""
    try:
        return _journal(csv).is_dir() or _pending(csv).is_dir()
    except OSError:
        return False


def _recover(csv: Path) -> None:
    """Finish a write that counts, drop one that does not (under the exclusive lock)."""
    journal, pending = _journal(csv), _pending(csv)
    if journal.is_dir():
        for role in ROLES:
            source = journal / role
            if source.exists():
                os.replace(source, _destination(csv, role))
        os.rmdir(journal)
    if pending.is_dir():
        shutil.rmtree(pending)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _commit(csv: Path, files: dict[str, bytes]) -> None:
    """Replace some of a table's files (by role) as one unit (under the exclusive lock)."""
    _recover(csv)
    pending = _pending(csv)
    pending.mkdir()
    for role, data in files.items():
        with open(pending / role, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(pending / role, 0o644)
    _fsync_folder(pending)
    os.replace(pending, _journal(csv))  # from here on the new table is the table
    _fsync_folder(pending.parent)
    _recover(csv)
    _fsync_folder(csv.parent)


def _metadata(snap: _Snapshot) -> dict | None:
    try:
        meta = json.loads(snap.metadata or b"")
    except (ValueError, UnicodeDecodeError):
        return None
    return meta if isinstance(meta, dict) else None


def _difference(recorded: Any, expected: Any) -> str:
    """What differs between two parameter mappings, shortly."""
    if not isinstance(recorded, dict):
        return f"{recorded!r} instead of {expected!r}"
    keys = [k for k in sorted(set(recorded) | set(expected)) if recorded.get(k) != expected.get(k)]
    parts = [f"{k}: {_brief(recorded.get(k, '(none)'))} instead of "
             f"{_brief(expected.get(k, '(none)'))}" for k in keys]
    return "; ".join(parts)


def _brief(value: Any, width: int = 60) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 3] + "..."


def _bytes_damage(csv: Path, snap: _Snapshot) -> str | None:
    """Why the bytes of the CSV at `csv` cannot be trusted (None when they match its checksum)."""
    if snap.data is None:
        return "is missing"
    if snap.checksum is None:
        return f"has no checksum ({CHECKSUMS}/{csv.stem}.sha256)"
    recorded = snap.checksum.decode("utf-8", "replace").split()
    if not recorded or recorded[0] != _digest(snap.data):
        return "does not match its checksum (truncated, edited or corrupted)"
    return None


def _damage(csv: Path, snap: _Snapshot, expect: Mapping[str, Any] | None = None) -> str | None:
    """Why the CSV at `csv` cannot be trusted (None when bytes, checksum and metadata agree
    and the metadata records what `expect` asks for)."""
    problem = _bytes_damage(csv, snap)
    if problem is not None:
        return problem
    where = f"{CHECKSUMS}/{csv.stem}.json"
    if snap.metadata is None:
        return f"has no metadata ({where}): what made it is not known"
    meta = _metadata(snap)
    if meta is None:
        return f"has unreadable metadata ({where})"
    if meta.get("sha256") != _digest(snap.data):  # type: ignore[arg-type]
        return f"does not match its metadata ({where} describes another table)"
    for key, value in (expect or {}).items():
        if key == "version" and meta.get(key) != value:
            return (f"was made by version {meta.get(key)} of its computation, not version "
                    f"{value}")
        if meta.get(key) != value:
            return f"was made with another {key} ({_difference(meta.get(key), value)})"
    return None


def _parse(data: bytes) -> pd.DataFrame:
    """A CSV file's bytes as a DataFrame (an empty table has no columns and no rows)."""
    if not data.strip():
        return pd.DataFrame()
    return pd.read_csv(io.BytesIO(data), keep_default_na=False, na_values=[""])


def _load(csv: Path, expect: Mapping[str, Any] | None = None
          ) -> tuple[pd.DataFrame | None, str | None]:
    """(the table, None) when the CSV at `csv` can be trusted, else (None, why not)."""
    snap = _snapshot(csv)
    problem = _damage(csv, snap, expect)
    if problem is not None:
        return None, problem
    try:
        df = _parse(snap.data)  # type: ignore[arg-type]
    except (ValueError, UnicodeDecodeError) as err:  # pandas' parser errors are ValueErrors
        return None, f"cannot be read as a table ({err})"
    rows = (_metadata(snap) or {}).get("rows")
    if rows is not None and rows != len(df):
        return None, f"has {len(df)} rows where its metadata records {rows}"
    return df, None


def _encode(df: pd.DataFrame) -> bytes:
    """A table's bytes: no index, '\\n' line ends, 12 significant digits (byte-stable)."""
    buffer = io.StringIO()
    df.to_csv(buffer, index=False, lineterminator="\n", float_format="%.12g")
    return buffer.getvalue().encode("utf-8")


def _utc_now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _json_bytes(meta: Mapping[str, Any]) -> bytes:
    return (json.dumps(meta, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def _store(csv: Path, data: bytes, fields: Mapping[str, Any]) -> _Snapshot:
    """Write a CSV file's bytes, checksum and metadata in one locked step; return what was there.

    When the bytes are those already there, the file is left as it is and the metadata keeps
    the time of the computation that made them; only files whose bytes change are rewritten.
    """
    digest = _digest(data)
    with _locked(csv, exclusive=True):
        try:
            _recover(csv)
        except OSError as err:
            raise _write_error(Path(err.filename2 or err.filename or csv), err) from None
        old = _snapshot(csv, locked=False)
        meta = {"name": csv.stem, **fields, "rows": len(_parse(data)), "sha256": digest}
        previous = _metadata(old) if old.data == data else None
        if previous is not None and previous.get("sha256") == digest:
            for key in ("seconds", "computed_at"):
                if key in previous:
                    meta[key] = previous[key]
        checksum = f"{digest}  {csv.name}\n".encode("utf-8")
        files = {role: new for role, new, before in (("csv", data, old.data),
                                                     ("sha256", checksum, old.checksum),
                                                     ("json", _json_bytes(meta), old.metadata))
                 if new != before}
        if files:
            try:
                _commit(csv, files)
            except OSError as err:
                with contextlib.suppress(OSError):
                    shutil.rmtree(_pending(csv))
                raise _write_error(Path(err.filename2 or csv), err) from None
    return old


def write_csv(df: pd.DataFrame, path: str | os.PathLike,
              metadata: Mapping[str, Any] | None = None) -> Path:
    """Write `df` byte-stably (no index, '\\n' line ends, 12 digits) with its checksum and
    metadata (`metadata` adds fields) beside it, atomically."""
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    path = _csv_path(path, "path")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise ArgumentTypeError(f"metadata must be a mapping, got {metadata!r}")
    try:  # before any file is written
        _json_bytes(dict(metadata or {}))
    except (TypeError, ValueError) as err:
        raise ArgumentTypeError(f"metadata must be plain data (text keys; numbers, text, lists, "
                                f"mappings): {err}") from None
    _store(path, _encode(df), dict(metadata or {}))
    return path


def read_csv_checked(path: str | os.PathLike,
                     expect: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Read a CSV written by `write_csv`, refusing it (ValueError naming the file) when its
    bytes, checksum and metadata disagree or the metadata lacks what `expect` asks for."""
    path = _csv_path(path, "path")
    if expect is not None and not isinstance(expect, Mapping):
        raise checks.ArgumentTypeError(f"expect must be a mapping of metadata fields to the values "
                                       f"they must have, or None; got {type(expect).__name__}")
    df, problem = _load(path, expect)
    if problem is not None:
        raise ValueError(f"{path} {problem}")
    return df  # type: ignore[return-value]


# --- tables by name ------------------------------------------------------------------------------
def _expected(spec: Table) -> dict[str, Any]:
    """What a table's metadata must record to be the table `spec` describes."""
    return {"name": spec.name, "version": spec.version, "params": spec.params}


def _check_seconds(seconds: object) -> float | None:
    """How long a computation took: None (not known) or a finite number of seconds."""
    return checks.number(seconds, "seconds", low=0, high=1e9, allow_none=True)


def _fields(spec: Table, seconds: float | None) -> dict[str, Any]:
    return {**_expected(spec), "command": spec.command, "long_run": spec.long_run,
            "seconds": None if seconds is None else round(float(seconds), 1),
            "computed_at": _utc_now()}


def record_metadata(table: str | Table, *, computed_at: str | None = None,
                    seconds: float | None = None) -> Path:
    """Write the metadata of a table already in data/ that has none (or metadata of other
    bytes), after checking it: its bytes must match its checksum, it must read as a table and
    pass its declared check (ValueError otherwise). Nothing is recomputed; `computed_at` is when
    it was computed (UTC, ISO 8601), `seconds` how long it took, when known."""
    seconds = _check_seconds(seconds)
    if computed_at is not None:
        checks.text(computed_at, "computed_at")
    spec = _spec(table)
    path = data_path(spec.name)
    snap = _snapshot(path)
    problem = _bytes_damage(path, snap)
    if problem is not None:
        raise ValueError(f"{path} {problem}")
    df = _parse(snap.data)  # type: ignore[arg-type]
    if spec.check is not None:
        spec.check(df)
    fields = _fields(spec, seconds)
    fields["computed_at"] = computed_at or fields["computed_at"]
    with _locked(path, exclusive=True):
        if _snapshot(path, locked=False).data != snap.data:
            raise ValueError(f"{path} changed while its metadata was being recorded")
        meta = {"name": spec.name, **fields, "rows": len(df),
                "sha256": _digest(snap.data)}  # type: ignore[arg-type]
        _atomic_write(metadata_path(path), _json_bytes(meta))
    return metadata_path(path)


def table_metadata(name: str) -> dict | None:
    """The metadata recorded for data/<name>.csv (None when it has none or it is unreadable)."""
    path = data_path(name)
    try:
        return _metadata(_snapshot(path))
    except ValueError:  # a folder or a FIFO in place of a file: no metadata to read
        return None


def check_writable(table: str | Table) -> Table:
    """The table `table` if a computation may write it, checked before any work: a declared
    table only with its declared version and parameters, any other never over a table of
    the same name made with other parameters (ValueError naming both)."""
    spec = _spec(table)
    _snapshot(data_path(spec.name))  # a folder, FIFO or link loop in its place: refused now
    declared = _declared(spec.name)
    if declared is not None and (declared.version, declared.params) != (spec.version, spec.params):
        raise ValueError(f"data/{spec.name}.csv is the table of version {declared.version} with "
                         f"{_brief(declared.params, 200)}; a table of other parameters "
                         f"({_difference(spec.params, declared.params)}) needs a name of its own")
    if declared is None:
        meta = table_metadata(spec.name)
        if meta is not None and meta.get("params") != spec.params and _damage(
                data_path(spec.name), _snapshot(data_path(spec.name))) is None:
            raise ValueError(f"data/{spec.name}.csv holds a table made with other parameters "
                             f"({_difference(meta.get('params'), spec.params)}); give this one "
                             f"another name or delete that file first")
    return spec


def _report(message: str) -> None:
    """Say loudly that a committed table changed: into the file PUZZLELAB_CHANGES names when set
    (the notebook runner prints it; a notebook's output stays clean), else as a CacheWarning."""
    log = os.environ.get(CHANGES_ENV, "")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(message + "\n")
        return
    warnings.warn(message, CacheWarning, stacklevel=4)


def _text_cells(data: bytes) -> pd.DataFrame:
    """A CSV file's cells as the text written in it ('' for an empty cell)."""
    if not data.strip():
        return pd.DataFrame()
    return pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)


def _changes(name: str, before: bytes, after: bytes, shown: int = 5) -> str:
    """Rows before and after, columns added or removed, and the first cells that changed."""
    old, new = _text_cells(before), _text_cells(after)
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


def write_table(df: pd.DataFrame, table: str | Table, *, seconds: float | None = None) -> Path:
    """Write `df` to data/<name>.csv with its checksum and metadata (`seconds`: how long its
    computation took), atomically; refused over a table of other parameters (`check_writable`),
    and a change to the table there before is reported (rows, cells)."""
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    seconds = _check_seconds(seconds)
    spec = check_writable(table)
    path = data_path(spec.name)
    data = _encode(df)
    old = _store(path, data, _fields(spec, seconds))
    if old.data is not None and old.data != data and _damage(path, old) is None:
        _report(_changes(spec.name, old.data, data))
    return path


def _remedy(spec: Table) -> str:
    return f"rebuild it with: {spec.command}"


def read_table(table: str | Table) -> pd.DataFrame:
    """Read the cached table data/<name>.csv, refused (ValueError naming the file and the command
    that rebuilds it) when it is damaged or its metadata is not that of the table expected (the
    `Table` given, or the one declared under that name)."""
    spec = table if isinstance(table, Table) else _declared(_check_name(table, "table name"))
    if spec is None:  # a table nobody declared (a benchmark's): its bytes must match, no more
        spec, expect = Table(table), None  # type: ignore[arg-type]
    else:
        expect = _expected(spec)
    df, problem = _load(data_path(spec.name), expect)
    if problem is not None:
        raise ValueError(f"{data_path(spec.name)} {problem}; {_remedy(spec)}")
    return df  # type: ignore[return-value]


def _usable(spec: Table, verify: Callable[[pd.DataFrame], None] | None
            ) -> tuple[pd.DataFrame | None, str | None]:
    """(the table, None) when data/<name>.csv is the table `spec` and passes `verify`."""
    df, problem = _load(data_path(spec.name), _expected(spec))
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
    out = _parse(_encode(df))
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
    if _snapshot(data_path(table.name)).data is None:
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
