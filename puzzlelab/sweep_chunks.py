"""The saved chunks of a resumable sweep (`sweeps.sweep_table`): what names a chunk, what its file
records, and whether a saved one can be trusted.

A chunk is keyed by the sweep's name, its task (function and plain bound settings) and its
parameters (`chunk_key`); its file records those and a hash of the code the task runs
(`code_hash`: the module defining its function, every module of this package that one
imports, and the package version). A saved chunk that is damaged, unverified or made for other
parameters or other code is deleted with a warning and computed again (`saved_chunk`).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.metadata
import os
import shutil
import sys
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd

from .cache import CacheWarning, checksum_path, metadata_path, read_csv_checked

__all__ = ["PACKAGE", "PACKAGE_DIR", "chunk_key", "chunk_record", "code_hash", "saved_chunk"]

def _unwrapped(task: Callable) -> Callable:
    while isinstance(task, functools.partial):
        task = task.func
    return task


def _task_id(task: Callable) -> str:
    """What identifies a task across runs: its function and the plain settings bound to it."""
    settings = ""
    while isinstance(task, functools.partial):
        plain = (int, float, str, bool, tuple, type(None))
        kept = {k: v for k, v in task.keywords.items() if isinstance(v, plain)}
        settings += f"{[a for a in task.args if isinstance(a, plain)]}{sorted(kept.items())}"
        task = task.func
    return f"{getattr(task, '__module__', '')}.{getattr(task, '__qualname__', '?')}{settings}"


PACKAGE = __name__.rpartition(".")[0]  # "puzzlelab": the modules a chunk's code hash follows
PACKAGE_DIR = Path(__file__).resolve().parent


def _module_file(module: str) -> Path | None:
    """The source file of a module: of this package, found by its name without importing it;
    of any other, the file it was loaded from (None when there is none, as for built-ins)."""
    if module == PACKAGE or module.startswith(PACKAGE + "."):
        base = PACKAGE_DIR.joinpath(*module.split(".")[1:])
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
        return None
    found = getattr(sys.modules.get(module), "__file__", None)
    return Path(found) if found and str(found).endswith(".py") else None


def _parse(source: str, tries: int = 3) -> ast.Module:
    """`ast.parse`, tried again when CPython 3.11's parser refuses with SystemError ("AST
    constructor recursion depth mismatch": a finalizer run by the garbage collector in the middle
    of the parse can upset its depth count); the source itself is fine, so a retry parses it."""
    for attempt in range(tries):
        try:
            return ast.parse(source)
        except SystemError:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def _imported(module: str, source: str, is_package: bool) -> set[str]:
    """The modules of this package that `source` imports anywhere (inside functions too)."""
    try:
        tree = _parse(source)
    except SyntaxError:
        return set()
    here = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return {n for n in names if (n == PACKAGE or n.startswith(PACKAGE + "."))
            and _module_file(n) is not None}


def _code_modules(module: str) -> dict[str, bytes]:
    """The source of `module` and of every module of this package it runs (what it imports,
    directly or not, lazily or not), by name: what a chunk's code hash covers."""
    sources: dict[str, bytes] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        if name in sources:
            continue
        path = _module_file(name)
        try:
            sources[name] = path.read_bytes() if path is not None else name.encode()
        except OSError:
            sources[name] = name.encode()
        if path is not None:
            text = sources[name].decode("utf-8", "replace")
            todo.extend(_imported(name, text, path.name == "__init__.py"))
    return sources


def _version() -> str:
    """This package's installed version ('unknown' outside an installation)."""
    try:
        return importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def code_hash(task: Callable) -> str:
    """A hash of the code a task runs: the source of the module defining its function and of
    every module of this package that module imports (its strategies, engine, rules...), and
    the package's version. Read afresh on each call, so an edit made since counts."""
    module = getattr(_unwrapped(task), "__module__", None) or "?"
    # read on a thread of its own: CPython 3.11's parser can refuse (SystemError) on a thread
    # that has just unwound a RecursionError
    with ThreadPoolExecutor(1) as reader:
        sources = reader.submit(_code_modules, module).result()
    digest = hashlib.sha256(_version().encode())
    for name, source in sorted(sources.items()):
        digest.update(f"\0{name}\0{len(source)}\0".encode() + source)
    return digest.hexdigest()[:16]


def chunk_key(name: str, task: Callable, params: Sequence[Any]) -> str:
    what = f"{name}|{_task_id(task)}|{params!r}"
    return hashlib.sha256(what.encode()).hexdigest()[:16]


def chunk_record(name: str, task: Callable, params: Sequence[Any], code: str) -> dict[str, str]:
    """What a chunk file records about itself: the sweep, its task, parameters and code."""
    return {"sweep": name, "task": _task_id(task), "params": repr(list(params)), "code": code}


def _discard(path: Any) -> None:
    """Remove a chunk's files, whatever stands in their place (a folder too)."""
    for p in (path, checksum_path(path), metadata_path(path)):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                p.unlink()


def saved_chunk(path: Any, record: dict[str, str]) -> pd.DataFrame | None:
    """A finished chunk read back, or None when there is none or it cannot be trusted (then it
    is deleted, with a warning, and computed again)."""
    if not any(os.path.lexists(p) for p in (path, checksum_path(path), metadata_path(path))):
        return None
    try:
        return read_csv_checked(path, expect=record)
    except ValueError as err:
        warnings.warn(f"a finished chunk of the sweep {record['sweep']} cannot be used ({err}): "
                      f"computing it again", CacheWarning, stacklevel=3)
        _discard(path)
        return None
