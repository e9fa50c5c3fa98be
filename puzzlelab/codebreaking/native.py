"""The code-breaking engine's tree walk compiled ahead of time (numba's `pycc`), for a process that
analyses one game and stops.

numba's on-disk cache still costs a fresh process numba's import and its code's loading (about
0.8 s of CPU and 100 MiB here) before the first analysis; the install step
(`puzzlelab warm`) also builds the walk (`tree_walk.subtree`, with the
functions it calls) for the argument types of the string games (Mastermind and the like) into
an extension module beside this file, for this machine's processor. `compiled.analyze` calls it
when the arguments have those types and the module was built from the current engine (`SOURCES`:
their hash is recorded beside it); otherwise numba's code, the same analysis.
PUZZLELAB_NATIVE=0 turns it off.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..checks import ArgumentTypeError

__all__ = ["MODULE", "SOURCES", "available", "build", "solver", "type_key"]

MODULE = "native_walk"  # the extension module's name (beside this file; not in the repository)
HERE = Path(__file__).parent
# the engine's modules the walk is compiled from (beside this file): a change to any rebuilds it
SOURCES = ("compiled.py", "engine_arrays.py", "float32_ranks.py", "outcome_kernels.py",
           "score_kernels.py", "symmetry_kernels.py", "tree_walk.py")
RECORD = HERE / f"{MODULE}.json"  # what it was built from: source hash and argument types


def type_key(value: Any) -> str:
    """The numba type of an argument as a short string (arrays: dtype, dimensions, layout)."""
    if isinstance(value, np.ndarray):
        layout = "C" if value.flags.c_contiguous else "A"
        return f"{value.dtype.str}{value.ndim}{layout}{'' if value.flags.writeable else 'r'}"
    if isinstance(value, tuple):
        return "(" + ",".join(type_key(v) for v in value) + ")"
    if isinstance(value, (bool, np.bool_)):
        return "b"
    if isinstance(value, np.generic):
        return value.dtype.str
    return type(value).__name__


def _source_hash() -> str:
    """One hash of the engine's modules (`SOURCES`), in that order."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((HERE / name).read_bytes())
    return digest.hexdigest()


@cache
def _loaded() -> tuple[Callable, str] | None:
    """The built walk and the argument types it takes, if built from the current source."""
    if os.environ.get("PUZZLELAB_NATIVE", "1") == "0":
        return None
    try:
        record = json.loads(RECORD.read_text())
        if record["source"] != _source_hash():
            return None
        module = importlib.import_module(f"{__package__}.{MODULE}")
        return module.subtree, record["types"]
    except (OSError, ImportError, ValueError, KeyError, AttributeError):
        return None


def available() -> bool:
    """Is the walk built from the current engine (`SOURCES`, and not turned off)?"""
    return _loaded() is not None


def solver(args: tuple) -> Callable | None:
    """The ahead-of-time walk if it takes these arguments, else None (numba's then)."""
    if not isinstance(args, tuple):
        raise ArgumentTypeError(f"args must be the walk's tuple of arguments, got {args!r}")
    loaded = _loaded()
    return loaded[0] if loaded is not None and loaded[1] == type_key(args) else None


def build(function: Any, args: tuple) -> str:
    """Compile the numba function `function` for the types of `args` (which it has been called
    with) into the extension module beside this file; the module's path."""
    import llvmlite.binding as llvm
    import numba
    from numba.pycc import CC

    signature = function.overloads[tuple(numba.typeof(a) for a in args)].signature
    with tempfile.TemporaryDirectory() as scratch, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc = CC(MODULE)
        cc.output_dir, cc.verbose, cc.target_cpu = scratch, False, llvm.get_host_cpu_name()
        cc.export("subtree", signature)(function.py_func)
        cc.compile()
        built = next(Path(scratch).glob(f"{MODULE}*"))
        target, fresh = HERE / built.name, HERE / f".{built.name}.new"
        shutil.copy(built, fresh)
        os.replace(fresh, target)  # a new file: a process that loaded the old one keeps it
    RECORD.write_text(json.dumps({"source": _source_hash(), "types": type_key(args)}))
    _loaded.cache_clear()
    return str(target)
