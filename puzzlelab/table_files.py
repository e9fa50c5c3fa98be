"""The table store: a table's CSV file, its checksum and its metadata, read together and
changed as one unit (the storage layer of `puzzlelab.cache`).

Every table data/<name>.csv has two companions in data/checksums/: `<name>.sha256`, its checksum
in the format of `sha256sum`, and `<name>.json`, its metadata. A write prepares the new files in
a hidden folder beside the checksums, renames that folder (the moment the write counts), then
moves each file into place, all under an exclusive lock; whoever next reads or writes the table
finishes a write that counted and drops one that did not, so a process killed between any two
steps leaves the old table or the new one, never a mixture.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from . import checks
from .atomic_io import file_path, fsync_folder, read_bytes, write_error
from .checks import ArgumentTypeError

try:  # a lock per folder of checksums (POSIX); elsewhere readers rely on the checksums alone
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS
    fcntl = None  # type: ignore[assignment]

__all__ = ["CHECKSUMS", "checksum_path", "metadata_path", "read_csv_checked", "write_csv"]

CHECKSUMS = "checksums"


def checksum_path(csv: str | os.PathLike) -> Path:
    """Where the checksum of a CSV file lives: data/checksums/<stem>.sha256 beside data/."""
    csv = file_path(csv)
    return csv.parent / CHECKSUMS / f"{csv.stem}.sha256"


def metadata_path(csv: str | os.PathLike) -> Path:
    """Where the metadata of a CSV file lives: data/checksums/<stem>.json beside data/."""
    csv = file_path(csv)
    return csv.parent / CHECKSUMS / f"{csv.stem}.json"


def sha256_of(data: bytes) -> str:
    """The SHA-256 of `data`, in hex."""
    return hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def table_lock(csv: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold the lock of the checksums folder beside `csv` (shared to read, exclusive to write)."""
    folder = csv.parent / CHECKSUMS
    if exclusive:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise write_error(folder, err) from None
    if fcntl is None or not folder.is_dir():
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@dataclasses.dataclass
class Snapshot:
    """The bytes of a CSV file, its checksum and its metadata, read together under the lock."""

    data: bytes | None
    checksum: bytes | None
    metadata: bytes | None


def snapshot(csv: Path, *, locked: bool = True) -> Snapshot:
    """The table's three files read together (under the shared lock when `locked`), after
    finishing or undoing a write that was cut short (`recover`)."""
    if locked and interrupted(csv):
        with contextlib.suppress(OSError, ValueError), table_lock(csv, exclusive=True):
            recover(csv)  # a read-only folder: the files are read as they are
    with table_lock(csv, exclusive=False) if locked else contextlib.nullcontext():
        return Snapshot(read_bytes(csv), read_bytes(checksum_path(csv)),
                         read_bytes(metadata_path(csv)))


# --- one table, one atomic unit: its CSV, checksum and metadata change together ----------------
# A write puts the new files in a hidden folder beside the checksums (`.<name>.write.tmp`),
# renames that folder to `.<name>.write` (the moment the write counts), then moves each file
# into place and removes the folder. Whoever next takes the lock finishes a write that counts
# (moves what is left) and drops one that does not (the old files were never touched).
ROLES = ("csv", "sha256", "json")


def journal_dir(csv: Path) -> Path:
    """The folder of a write that counts (its files still to be moved into place)."""
    return csv.parent / CHECKSUMS / f".{csv.stem}.write"


def pending_dir(csv: Path) -> Path:
    """The folder where a write prepares its files before it counts."""
    return csv.parent / CHECKSUMS / f".{csv.stem}.write.tmp"


def destination(csv: Path, role: str) -> Path:
    """Where a table's file of `role` (csv, sha256, json) lives."""
    return {"csv": csv, "sha256": checksum_path(csv), "json": metadata_path(csv)}[role]


def interrupted(csv: Path) -> bool:
    """Is a write of this table unfinished (its folder left by a kill or a crash)?"""
    try:
        return journal_dir(csv).is_dir() or pending_dir(csv).is_dir()
    except OSError:
        return False


def recover(csv: Path) -> None:
    """Finish a write that counts, drop one that does not (under the exclusive lock)."""
    journal, pending = journal_dir(csv), pending_dir(csv)
    if journal.is_dir():
        for role in ROLES:
            source = journal / role
            if source.exists():
                os.replace(source, destination(csv, role))
        os.rmdir(journal)
    if pending.is_dir():
        shutil.rmtree(pending)


def commit(csv: Path, files: dict[str, bytes]) -> None:
    """Replace some of a table's files (by role) as one unit (under the exclusive lock)."""
    recover(csv)
    pending = pending_dir(csv)
    pending.mkdir()
    for role, data in files.items():
        with open(pending / role, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(pending / role, 0o644)
    fsync_folder(pending)
    os.replace(pending, journal_dir(csv))  # from here on the new table is the table
    fsync_folder(pending.parent)
    recover(csv)
    fsync_folder(csv.parent)


def parse_metadata(snap: Snapshot) -> dict | None:
    """A snapshot's metadata as a mapping (None when it has none or it is not a JSON object)."""
    try:
        meta = json.loads(snap.metadata or b"")
    except (ValueError, UnicodeDecodeError):
        return None
    return meta if isinstance(meta, dict) else None


def difference(recorded: Any, expected: Any) -> str:
    """What differs between two parameter mappings, shortly."""
    if not isinstance(recorded, dict):
        return f"{recorded!r} instead of {expected!r}"
    keys = [k for k in sorted(set(recorded) | set(expected)) if recorded.get(k) != expected.get(k)]
    parts = [f"{k}: {brief(recorded.get(k, '(none)'))} instead of "
             f"{brief(expected.get(k, '(none)'))}" for k in keys]
    return "; ".join(parts)


def brief(value: Any, width: int = 60) -> str:
    """A value as JSON text, cut to `width` characters."""
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 3] + "..."


def bytes_damage(csv: Path, snap: Snapshot) -> str | None:
    """Why the bytes of the CSV at `csv` cannot be trusted (None when they match its checksum)."""
    if snap.data is None:
        return "is missing"
    if snap.checksum is None:
        return f"has no checksum ({CHECKSUMS}/{csv.stem}.sha256)"
    recorded = snap.checksum.decode("utf-8", "replace").split()
    if not recorded or recorded[0] != sha256_of(snap.data):
        return "does not match its checksum (truncated, edited or corrupted)"
    return None


def damage(csv: Path, snap: Snapshot, expect: Mapping[str, Any] | None = None) -> str | None:
    """Why the CSV at `csv` cannot be trusted (None when bytes, checksum and metadata agree
    and the metadata records what `expect` asks for)."""
    problem = bytes_damage(csv, snap)
    if problem is not None:
        return problem
    where = f"{CHECKSUMS}/{csv.stem}.json"
    if snap.metadata is None:
        return f"has no metadata ({where}): what made it is not known"
    meta = parse_metadata(snap)
    if meta is None:
        return f"has unreadable metadata ({where})"
    if meta.get("sha256") != sha256_of(snap.data):  # type: ignore[arg-type]
        return f"does not match its metadata ({where} describes another table)"
    for key, value in (expect or {}).items():
        if key == "version" and meta.get(key) != value:
            return (f"was made by version {meta.get(key)} of its computation, not version "
                    f"{value}")
        if meta.get(key) != value:
            return f"was made with another {key} ({difference(meta.get(key), value)})"
    return None


def parse(data: bytes) -> pd.DataFrame:
    """A CSV file's bytes as a DataFrame (an empty table has no columns and no rows)."""
    if not data.strip():
        return pd.DataFrame()
    return pd.read_csv(io.BytesIO(data), keep_default_na=False, na_values=[""])


def load(csv: Path, expect: Mapping[str, Any] | None = None
          ) -> tuple[pd.DataFrame | None, str | None]:
    """(the table, None) when the CSV at `csv` can be trusted, else (None, why not)."""
    snap = snapshot(csv)
    problem = damage(csv, snap, expect)
    if problem is not None:
        return None, problem
    try:
        df = parse(snap.data)  # type: ignore[arg-type]
    except (ValueError, UnicodeDecodeError) as err:  # pandas' parser errors are ValueErrors
        return None, f"cannot be read as a table ({err})"
    rows = (parse_metadata(snap) or {}).get("rows")
    if rows is not None and rows != len(df):
        return None, f"has {len(df)} rows where its metadata records {rows}"
    return df, None


def encode(df: pd.DataFrame) -> bytes:
    """A table's bytes: no index, '\\n' line ends, 12 significant digits (byte-stable)."""
    buffer = io.StringIO()
    df.to_csv(buffer, index=False, lineterminator="\n", float_format="%.12g")
    return buffer.getvalue().encode("utf-8")


def json_bytes(meta: Mapping[str, Any]) -> bytes:
    """Metadata as the bytes of its file (sorted keys, one space of indent, a final newline)."""
    return (json.dumps(meta, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def store(csv: Path, data: bytes, fields: Mapping[str, Any]) -> Snapshot:
    """Write a CSV file's bytes, checksum and metadata in one locked step; return what was there.

    When the bytes are those already there, the file is left as it is and the metadata keeps
    the time, seconds and machine of the computation that made them (when it recorded its
    seconds); only files whose bytes change are rewritten.
    """
    digest = sha256_of(data)
    with table_lock(csv, exclusive=True):
        try:
            recover(csv)
        except OSError as err:
            raise write_error(Path(err.filename2 or err.filename or csv), err) from None
        old = snapshot(csv, locked=False)
        meta = {"name": csv.stem, **fields, "rows": len(parse(data)), "sha256": digest}
        previous = parse_metadata(old) if old.data == data else None
        if previous is not None and previous.get("sha256") == digest:
            if previous.get("seconds") is not None:  # keep the run that made these bytes
                for key in ("seconds", "computed_at", "machine"):
                    if key in previous:
                        meta[key] = previous[key]
        checksum = f"{digest}  {csv.name}\n".encode("utf-8")
        files = {role: new for role, new, before in (("csv", data, old.data),
                                                     ("sha256", checksum, old.checksum),
                                                     ("json", json_bytes(meta), old.metadata))
                 if new != before}
        if files:
            try:
                commit(csv, files)
            except OSError as err:
                with contextlib.suppress(OSError):
                    shutil.rmtree(pending_dir(csv))
                raise write_error(Path(err.filename2 or csv), err) from None
    return old


def write_csv(df: pd.DataFrame, path: str | os.PathLike,
              metadata: Mapping[str, Any] | None = None) -> Path:
    """Write `df` byte-stably (no index, '\\n' line ends, 12 digits) with its checksum and
    metadata (`metadata` adds fields) beside it, atomically."""
    if not isinstance(df, pd.DataFrame):
        raise ArgumentTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    path = file_path(path, "path")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise ArgumentTypeError(f"metadata must be a mapping, got {metadata!r}")
    try:  # before any file is written
        json_bytes(dict(metadata or {}))
    except (TypeError, ValueError) as err:
        raise ArgumentTypeError(f"metadata must be plain data (text keys; numbers, text, lists, "
                                f"mappings): {err}") from None
    store(path, encode(df), dict(metadata or {}))
    return path


def read_csv_checked(path: str | os.PathLike,
                     expect: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Read a CSV written by `write_csv`, refusing it (ValueError naming the file) when its
    bytes, checksum and metadata disagree or the metadata lacks what `expect` asks for."""
    path = file_path(path, "path")
    if expect is not None and not isinstance(expect, Mapping):
        raise checks.ArgumentTypeError(f"expect must be a mapping of metadata fields to the values "
                                       f"they must have, or None; got {type(expect).__name__}")
    df, problem = load(path, expect)
    if problem is not None:
        raise ValueError(f"{path} {problem}")
    return df  # type: ignore[return-value]
