"""Files written whole or not at all, and read without blocking: the file layer of the table
cache (`puzzlelab.cache`).

A write goes to a temporary file in the same folder, is flushed to disk, then renamed over the
target, so a reader sees the old bytes or the new ones. A failed write (a full disk, a read-only
folder, `ulimit -f`) is one ValueError naming the file; a folder, FIFO or link loop where a file
belongs is refused without being opened for a blocking read.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .checks import ArgumentTypeError

__all__ = ["atomic_write"]


def file_path(csv: object, what: str = "csv") -> Path:
    """A path naming a file (not empty, not a folder)."""
    if not isinstance(csv, (str, os.PathLike)):
        raise ArgumentTypeError(f"{what} must be a path, got {csv!r}")
    path = Path(csv)
    if not os.fspath(csv) or path.is_dir():
        raise ValueError(f"{what} must name a file, got {os.fspath(csv)!r} (a folder)")
    return path


def write_whole(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: a temporary file in the same folder, then a rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file where a folder must be
        raise ValueError(f"cannot write {path}: a file stands where a folder of its path "
                         f"must be") from None
    except OSError as err:
        raise write_error(path.parent, err) from None
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
            raise write_error(path, err) from None
        raise


def write_error(path: Path, err: OSError) -> ValueError:
    """A failed write as one line naming the file."""
    why = err.strerror or type(err).__name__
    if isinstance(err, IsADirectoryError) or path.is_dir():
        why = "a folder stands where the file must be"
    return ValueError(f"cannot write {path}: {why}")


def atomic_write(path: str | os.PathLike, data: bytes) -> Path:
    """Write the bytes `data` to `path` whole or not at all (a temporary file, then a rename)."""
    if not isinstance(data, bytes):
        raise ArgumentTypeError(f"data must be bytes, got {type(data).__name__}")
    path = file_path(path, "path")
    write_whole(path, data)
    return path


KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def read_bytes(path: Path) -> bytes | None:
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


def fsync_folder(folder: Path) -> None:
    """Flush a folder's entries to disk (a rename there then survives a crash), if it can."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
