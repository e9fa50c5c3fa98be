"""What a cached table is: its name, the version of its computation, its parameters, the
command that rebuilds it and its check (`Table`), and the declarations of the tables the
notebooks read (`register`) with the functions that rebuild them (`rebuilds`).

A declaration is made once, in the puzzle's `tables` module, where the table is computed; this
shared module only keeps what has been declared. Finding every declaration (importing each
puzzle's `tables`) is the job of `puzzlelab.registry`, above the puzzles. Names are plain file
stems: ASCII letters, digits, `_` and `-`, at most 100 characters, not starting with `-`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from .checks import ArgumentTypeError

__all__ = ["BENCH_ENV", "CacheWarning", "PUZZLES", "Table", "check_name", "default_command",
           "rebuilds", "register"]

MAX_NAME = 100  # characters in a table's or a sweep's name
PUZZLES = ("russian_cards", "hats", "codebreaking", "kemps", "hanabi")
BENCH_ENV = "PUZZLELAB_BENCH"  # the benchmark `puzzlelab bench` runs (its tables record it)


class CacheWarning(UserWarning):
    """A table in data/ was missing, damaged, stale or unverified, or a recompute changed it."""


NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,%d}" % (MAX_NAME - 1))


def check_name(name: object, what: str = "cache name") -> str:
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
def plain(value: Any) -> Any:
    """A parameter value as JSON understands it (numpy scalars, ranges and sets included)."""
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    if isinstance(value, range):
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise ArgumentTypeError(f"a table parameter must be plain data (numbers, text, lists, "
                            f"mappings), got {value!r} ({type(value).__name__})")


def canonical(params: object) -> dict[str, Any]:
    """Parameters as they are stored in the metadata (tuples become lists, keys are sorted)."""
    if not isinstance(params, Mapping):
        raise ArgumentTypeError(f"params must be a mapping, got {params!r}")
    try:
        text = json.dumps(dict(params), sort_keys=True, default=plain, allow_nan=False)
    except ValueError as err:  # NaN or infinity
        raise ValueError(f"table parameters must be finite: {err}") from None
    except TypeError as err:  # keys that are not text
        raise ArgumentTypeError(f"table parameters must have text keys: {err}") from None
    return json.loads(text)


def default_command(name: str, long_run: bool = False) -> str:
    """The one command that rebuilds a table: `puzzlelab bench NAME` for a benchmark's table
    (the benchmark `puzzlelab bench` runs, else the one its name says), `puzzlelab compute NAME`
    for any other (with `--long-run` for a long run)."""
    name = check_name(name, "table name")
    if not isinstance(long_run, bool):
        raise ArgumentTypeError(f"long_run must be True or False, got {long_run!r}")
    bench = os.environ.get(BENCH_ENV, "")
    if bench or name.startswith("bench_"):
        return f"puzzlelab bench {bench or name.removeprefix('bench_')}"
    return f"puzzlelab compute {name}" + (" --long-run" if long_run else "")


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
        check_name(self.name, "table name")
        if not isinstance(self.version, int) or isinstance(self.version, bool) or self.version < 1:
            raise ValueError(f"a table version is a positive integer, got {self.version!r}")
        object.__setattr__(self, "params", canonical(self.params))
        if not isinstance(self.command, str):
            raise ArgumentTypeError(f"command must be a string, got {self.command!r}")
        command = self.command or default_command(self.name, self.long_run)
        object.__setattr__(self, "command", command)
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
        changed = {k: v for k, v in canonical(params).items() if self.params.get(k) != v}
        if not changed:
            return self
        if not name:
            suffix = "_".join(f"{k}{short_value(v)}" for k, v in sorted(changed.items()))
            if len(suffix) > 40:
                suffix = hashlib.sha256(suffix.encode()).hexdigest()[:12]
            name = f"{self.name}_{suffix}"
        if name == self.name:
            raise ValueError(f"a table of other parameters needs a name other than {name}")
        return Table(name, self.version, {**self.params, **changed}, command, self.long_run,
                     self.check)


def short_value(value: Any) -> str:
    """A parameter value inside a file name: 7, 1-2-3, 2.5 ..."""
    if isinstance(value, list):
        return "-".join(short_value(v) for v in value)
    text = format(value, "g") if isinstance(value, float) else str(value)
    return "".join(ch if ch.isascii() and ch.isalnum() or ch == "-" else "p" if ch == "." else "-"
                   for ch in text)


REGISTRY: dict[str, Table] = {}  # every table declared so far (`puzzlelab.registry` finds all)


def register(*tables: Table) -> Table:
    """Declare the tables notebooks read (once, where they are computed); returns the last one."""
    if not tables:
        raise ValueError("register needs at least one Table")
    for table in tables:
        if not isinstance(table, Table):
            raise ArgumentTypeError(f"register takes Table declarations, got {table!r}")
        known = REGISTRY.get(table.name)
        if known is not None and known != table:
            raise ValueError(f"table {table.name} is declared twice, differently")
        REGISTRY[table.name] = table
    return tables[-1]


REBUILDERS: dict[str, Callable[..., Any]] = {}


def rebuilds(*tables: Table | str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the function the notebooks call to read these tables (through `cached_table`)
    is the one `puzzlelab compute` calls, inside `recomputing`, to rebuild them; it may take
    `executor=` and `workers=`. Returns the function unchanged."""
    names = [t.name if isinstance(t, Table) else check_name(t, "table name") for t in tables]
    if not names:
        raise ValueError("rebuilds needs at least one table")

    def declare(build: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(build):
            raise ArgumentTypeError(f"rebuilds decorates a function, got {build!r}")
        for name in names:
            REBUILDERS[name] = build
        return build
    return declare
