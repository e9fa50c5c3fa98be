"""Lazy package exports (PEP 562): a puzzle's public names are imported when first used.

Every puzzle package's `__init__` follows one policy: it imports nothing itself and maps each
public name to the submodule that defines it, so `import puzzlelab.hats` is instant and a
command that needs one solver does not load pandas, numba or the notebook layer::

    __getattr__, __dir__ = lazy.exports(__name__, {"optimum": "optima", ...})

A submodule is an attribute of its package as well (`puzzlelab.hats.model`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from .checks import ArgumentTypeError

__all__ = ["exports"]


def exports(package: str, names: Mapping[str, str]
            ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """(__getattr__, __dir__) for `package`, whose public `names` live in the given submodules."""
    if not isinstance(package, str) or not isinstance(names, Mapping):
        raise ArgumentTypeError("exports needs a package name and a mapping name -> submodule")
    table = dict(names)

    def __getattr__(name: str) -> Any:
        if name in table:
            return getattr(import_module(f".{table[name]}", package), name)
        if not name.startswith("_"):
            try:
                return import_module(f".{name}", package)
            except ModuleNotFoundError as err:
                if err.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(table)

    return __getattr__, __dir__
