"""Every declared table and the function that rebuilds it: the one place that finds the
declarations, by importing each puzzle's `tables` module (a top layer, above the puzzles).

The shared layer (`cache`, `declarations`) keeps what has been declared and never imports a
puzzle; `puzzlelab compute`, `puzzlelab tables` and `make reproduce` ask this module, which
imports the five `tables` modules (each declares its tables with `cache.register` and
`cache.rebuilds` when imported).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import declarations
from .declarations import Table

__all__ = ["rebuilders", "registered"]


def _declare_all() -> None:
    """Import every puzzle's table layer (each declares its tables on import)."""
    from .codebreaking import tables as codebreaking_tables  # noqa: F401
    from .hanabi import tables as hanabi_tables  # noqa: F401
    from .hats import tables as hats_tables  # noqa: F401
    from .kemps import tables as kemps_tables  # noqa: F401
    from .russian_cards import tables as russian_cards_tables  # noqa: F401


def registered() -> dict[str, Table]:
    """Every declared table by name (importing the modules that declare them)."""
    _declare_all()
    return dict(declarations.REGISTRY)


def rebuilders() -> dict[str, Callable[..., Any]]:
    """The function that rebuilds each declared table, by name (see `cache.rebuilds`)."""
    _declare_all()
    return dict(declarations.REBUILDERS)
