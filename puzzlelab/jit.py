"""numba's `njit` and `intrinsic`, deferred: importing a module of compiled functions does not
import numba; its functions are made (loaded from numba's cache, or compiled) when the first of
them is called, all at once, so that they find each other as numba functions.

A process that never calls one (the code-breaking engine's ahead-of-time path) never pays
numba's import (about 0.35 s of CPU and 70 MiB here).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from .checks import ArgumentTypeError

__all__ = ["Deferred", "intrinsic", "materialize", "njit"]

_PENDING: dict[str, list[Deferred]] = {}
_LOCK = threading.RLock()
_OWN = ("func", "kind", "options")
KINDS = ("njit", "intrinsic")


class Deferred:
    """A function that its module's first call of a compiled function hands to numba."""

    def __init__(self, func: Callable, kind: str, options: dict[str, Any]) -> None:
        if not callable(func) or not hasattr(func, "__module__") or kind not in KINDS or \
                not isinstance(options, dict):
            raise ArgumentTypeError(f"Deferred takes a function, a kind of {KINDS} and a dict of "
                                    f"options, got {func!r}, {kind!r}, {options!r}")
        self.func, self.kind, self.options = func, kind, options
        self.__name__, self.__doc__, self.__wrapped__ = func.__name__, func.__doc__, func
        _PENDING.setdefault(func.__module__, []).append(self)

    def real(self) -> Any:
        """The numba function this stands for (its module's functions made first)."""
        return materialize(self.func.__module__)[self.__name__]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.real()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name in _OWN or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.real(), name)


def njit(**options: Any) -> Callable[[Callable], Deferred]:
    """`numba.njit(**options)`, applied when the module's compiled functions are first needed."""
    return lambda func: Deferred(func, "njit", options)


def intrinsic(func: Callable) -> Deferred:
    """`numba.extending.intrinsic`, applied with the module's other compiled functions."""
    return Deferred(func, "intrinsic", {})


def materialize(module: str) -> dict[str, Any]:
    """Replace the module's deferred functions by numba's (importing numba), and those it imported
    from other modules by theirs (their modules made first); its namespace."""
    if not isinstance(module, str) or module not in sys.modules:
        raise ArgumentTypeError(f"module must name an imported module, got {module!r}")
    namespace = sys.modules[module].__dict__
    with _LOCK:
        pending = _PENDING.pop(module, [])
        if pending:
            import numba
            from numba.extending import intrinsic as numba_intrinsic

            for deferred in pending:
                if namespace.get(deferred.__name__) is deferred:
                    namespace[deferred.__name__] = (
                        numba.njit(**deferred.options)(deferred.func)
                        if deferred.kind == "njit" else numba_intrinsic(deferred.func))
        for name, value in list(namespace.items()):  # imported: numba must find its own kind
            if isinstance(value, Deferred) and value.func.__module__ != module:
                namespace[name] = value.real()
    return namespace
