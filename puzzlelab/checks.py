"""Input checks shared by every puzzle: one place decides what a valid argument is.

Conventions (the same in every subpackage):

- an *integer* is any `numbers.Integral` (Python or numpy), never a `bool`; it is returned
  as a Python `int`;
- a *number* is any real number (not a `bool`, not NaN);
- a value of the right kind outside what is allowed raises `ValueError`; a wrong kind of
  value raises `ArgumentTypeError`, which is both a `TypeError` and a `ValueError` (so
  `except ValueError` catches every bad argument); both messages name the argument and
  what is allowed;
- work that cannot finish is refused before it starts (`within_budget`), naming the limit.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from collections.abc import Collection, Iterable
from typing import TypeVar

__all__ = [
    "MEMORY_BUDGET", "ArgumentTypeError", "boolean", "choice", "instance", "integer", "integers",
    "number", "seed", "text", "within_budget",
    # worker processes (the one rule for `workers=` and `--workers`)
    "MAX_WORKERS_ENV", "WORKERS_PER_CORE", "worker_limit", "workers",
]

T = TypeVar("T")

# What one call may allocate: a third of the project's 24 GiB machine, so that a notebook,
# its kernel and a second worker still fit beside it.
MEMORY_BUDGET = 8 * 2**30


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong kind (a float where an integer is needed, text for a table, ...)."""


def _is_integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _range_text(low: int | float | None, high: int | float | None) -> str:
    if low is not None and high is not None:
        return f"between {low} and {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return "any value"


def integer(value: object, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """`value` as a Python int in [low, high]: numpy integers are accepted; bools, floats and text are not."""
    if not _is_integer(value):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    v = operator.index(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"{name} must be an integer {_range_text(low, high)}, got {v}")
    return v


def integers(
    values: object, name: str, *, low: int | None = None, high: int | None = None
) -> tuple[int, ...]:
    """A finite sequence of integers (each checked as by `integer`), as a tuple of Python ints."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ArgumentTypeError(f"{name} must be a sequence of integers, got {values!r}")
    return tuple(integer(v, f"{name}[{i}]", low=low, high=high) for i, v in enumerate(values))


def number(
    value: object, name: str, *, low: float | None = None, high: float | None = None,
    allow_none: bool = False,
) -> float | None:
    """`value` as a float in [low, high] (None allowed only with `allow_none`)."""
    if value is None and allow_none:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        kind = "a number or None" if allow_none else "a number"
        raise ArgumentTypeError(f"{name} must be {kind}, got {value!r} ({type(value).__name__})")
    v = float(value)
    if math.isnan(v) or (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"{name} must be a number {_range_text(low, high)}, got {value!r}")
    return v


def boolean(value: object, name: str) -> bool:
    """`value` as a bool: only True and False (numpy's too); 'no', 0 or None are refused."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    raise ArgumentTypeError(f"{name} must be True or False, got {value!r}")


def seed(value: object, name: str = "seed") -> int:
    """A random seed: a non-negative integer."""
    return integer(value, name, low=0)


def text(value: object, name: str) -> str:
    """`value` if it is a string."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a string, got {value!r} ({type(value).__name__})")
    return value


def instance(value: object, name: str, kind: type[T], what: str) -> T:
    """`value` if it is a `kind`; else ArgumentTypeError saying it must be `what`."""
    if not isinstance(value, kind):
        raise ArgumentTypeError(f"{name} must be {what}, got {value!r}")
    return value


def choice(value: object, name: str, options: Collection[T]) -> T:
    """`value` if it is one of `options` (compared by equality; the message lists them)."""
    try:
        ok = value in options
    except TypeError:  # unhashable value against a set or dict
        ok = False
    if not ok:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value  # type: ignore[return-value]


def within_budget(
    what: str, needed: float, limit: float, *, unit: str = "bytes", largest: str | None = None
) -> None:
    """Refuse work whose estimated size `needed` exceeds `limit`, before any of it is done.

    The message names the estimate, the limit and (when given) the largest size that fits,
    e.g. `within_budget("optimum(20)", 2**20 * 8 * 2**20, MEMORY_BUDGET, largest="N = 15")`.
    """
    if needed <= limit:
        return
    hint = f"; the largest that fits is {largest}" if largest else ""
    raise ValueError(f"{what} would need about {_amount(needed, unit)}, more than the limit of "
                     f"{_amount(limit, unit)}{hint}")


def _amount(x: float, unit: str) -> str:
    if unit != "bytes":
        return f"{x:.3g} {unit}"
    for scale, name in ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if x >= scale:
            return f"{x / scale:.3g} {name}"
    return f"{x:.0f} bytes"


# --- worker processes: the one rule for every `workers=` argument and `--workers` option -------
MAX_WORKERS_ENV = "PUZZLELAB_MAX_WORKERS"  # an explicit override of the limit below
WORKERS_PER_CORE = 4  # more local processes than this per core only slow a sweep down


def _cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this system
        return os.cpu_count() or 1


def worker_limit() -> int:
    """The most worker processes one call may start: PUZZLELAB_MAX_WORKERS if set, else
    WORKERS_PER_CORE times the machine's cores."""
    raw = os.environ.get(MAX_WORKERS_ENV, "").strip()
    if not raw:
        return WORKERS_PER_CORE * _cores()
    try:
        limit = int(raw)
    except ValueError:
        limit = 0
    if limit < 1:
        raise ValueError(f"{MAX_WORKERS_ENV} must be a positive integer, got {raw!r}")
    return limit


def workers(value: object, name: str = "workers") -> int:
    """A number of worker processes: a positive integer no larger than `worker_limit()`,
    checked before any process starts (the message says the limit and how to raise it)."""
    count = integer(value, name, low=1)
    limit = worker_limit()
    if count > limit:
        why = (f"set by {MAX_WORKERS_ENV}" if os.environ.get(MAX_WORKERS_ENV, "").strip()
               else f"{WORKERS_PER_CORE} per core on this machine's {_cores()} cores")
        raise ValueError(f"{name} = {count} is more than the limit of {limit} worker processes "
                         f"({why}); set the environment variable {MAX_WORKERS_ENV} to raise it")
    return count
