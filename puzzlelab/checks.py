"""Input checks shared by every puzzle: one place decides what a valid argument is.

Conventions (the same in every subpackage):

- an *integer* is any `numbers.Integral` (Python or numpy), never a `bool`; it is returned
  as a Python `int`;
- a *number* is any real number (not a `bool`, not NaN);
- a value of the right kind outside what is allowed raises `ValueError`; a wrong kind of
  value raises `ArgumentTypeError`, which is both a `TypeError` and a `ValueError` (so
  `except ValueError` catches every bad argument); both messages name the argument and
  what is allowed;
- work that cannot finish is refused before it starts (`within_budget`), naming the limit and
  an estimate of the cost; `binomial`, `multinomial` and `power` give such estimates at once
  for any size (10**20 included), so a budget never computes what it guards against;
- collections, tables and functions have their checks (`collection`, `sequence`, `table`,
  `function`, `sweep_options`), and record classes check every field against its type hint
  in `__post_init__` (`record`).
"""

from __future__ import annotations

import collections.abc as abc
import dataclasses
import functools
import itertools
import math
import numbers
import operator
import os
import reprlib
import sys
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from math import comb
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MEMORY_BUDGET", "ArgumentTypeError", "binomial", "boolean", "choice", "collection", "function",
    "instance", "integer", "integers", "multinomial", "number", "power", "record", "seed",
    "sequence", "sweep_options", "table", "text", "within_budget",
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
    return "(not NaN)"


def integer(value: object, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """`value` as a Python int in [low, high]: numpy integers are accepted; bools, floats and text are not."""
    if type(value) is not int:  # the common case costs one type test
        if not _is_integer(value):
            raise ArgumentTypeError(
                f"{name} must be an integer, got {value!r} ({type(value).__name__})")
        value = operator.index(value)
    try:
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{name} must be an integer {_range_text(low, high)}, got {value}")
    except TypeError:  # a bound that is not a number: an error of the calling code
        raise ArgumentTypeError(f"the bounds of {name} must be numbers or None, got "
                                f"low={low!r}, high={high!r}") from None
    return value  # type: ignore[return-value]


def integers(
    values: object, name: str, *, low: int | None = None, high: int | None = None
) -> tuple[int, ...]:
    """A finite sequence of integers (each checked as by `integer`), as a tuple of Python ints."""
    out = tuple(collection(values, name, what="a sequence of integers"))
    try:  # the common case, plain ints within the bounds, in a few C-level passes
        if all(type(v) is int for v in out) and (not out or (
                (low is None or min(out) >= low) and (high is None or max(out) <= high))):
            return out
    except TypeError:
        pass  # a bound of the wrong kind: the item by item check below names it
    return tuple(integer(v, f"{name}[{i}]", low=low, high=high) for i, v in enumerate(out))


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
    try:
        if math.isnan(v) or (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(f"{name} must be a number {_range_text(low, high)}, got {value!r}")
    except TypeError:  # a bound that is not a number: an error of the calling code
        raise ArgumentTypeError(f"the bounds of {name} must be numbers or None, got "
                                f"low={low!r}, high={high!r}") from None
    return v


def boolean(value: object, name: str) -> bool:
    """`value` as a bool: only True and False (numpy's too); 'no', 0 or None are refused."""
    if isinstance(value, bool) or _is_bool(value):
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
    if not isinstance(kind, type) and not (
            isinstance(kind, tuple) and kind and all(isinstance(k, type) for k in kind)):
        raise ArgumentTypeError(f"kind must be a type or a tuple of types, got {kind!r}")
    if not isinstance(value, kind):
        name, what = text(name, "name"), text(what, "what")
        raise ArgumentTypeError(f"{name} must be {what}, got {value!r}")
    return value


def choice(value: object, name: str, options: Collection[T]) -> T:
    """`value` if it is one of `options` (compared by equality; the message lists them). A float
    or a bool matches only options of its own kind: 28.0 and True are not the 28 or 1 asked for."""
    try:
        ok = value in options
    except TypeError:  # unhashable value against a set or dict
        ok = False
    if not ok or (isinstance(value, (float, bool)) or _is_bool(value)) and not any(
            type(o) is type(value) for o in options):
        options = list(options) if isinstance(options, Mapping) else collection(
            options, f"the options of {name}")  # a mapping's options are its keys
        listed = ", ".join(repr(o) for o in options)
        kind = ArgumentTypeError if ok else ValueError
        raise kind(f"{name} must be one of {listed}; got {value!r} ({type(value).__name__})")
    return value  # type: ignore[return-value]


def _is_bool(value: object) -> bool:
    return type(value).__name__ in ("bool_", "bool")


def within_budget(
    what: str, needed: float, limit: float, *, unit: str = "bytes", largest: str | None = None
) -> None:
    """Refuse work whose estimated size `needed` exceeds `limit`, before any of it is done.

    The message names the estimate, the limit and (when given) the largest size that fits,
    e.g. `within_budget("optimum(20)", 2**20 * 8 * 2**20, MEMORY_BUDGET, largest="N = 15")`.
    """
    needed = number(needed, "needed (the estimate)")
    if needed <= number(limit, "limit"):
        return
    hint = f"; the largest that fits is {largest}" if largest else ""
    about = "more than 1e+300 " + unit if needed == math.inf else "about " + _amount(needed, unit)
    raise ValueError(f"{what} would need {about}, more than the limit of "
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


_workers = workers  # for `sweep_options`, whose argument of that name hides the function


# --- shapes and sizes: containers, tables, functions, and size estimates that cost nothing
# whatever the size, so that a budget can refuse 10**20 before computing with it.


def collection(value: object, name: str, *, what: str = "a list or tuple") -> Iterable:
    """`value` if it is a collection of items (list, tuple, range, set, array, generator, ...).

    Text, bytes and mappings are refused: they are never meant as a list of items (a string
    would be read letter by letter, a dict by its keys)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} must be {what}, got {_shown(value)}")
    return value


def sequence(value: object, name: str, *, what: str = "a list or tuple",
             length: int | None = None) -> list:
    """`value` as a list, if it is a collection of items (as `collection` says) and, when
    `length` is given, of exactly that many."""
    items = list(collection(value, name, what=what))
    if length is not None and len(items) != length:
        raise ValueError(f"{name} must be {what}, got {len(items)} items")
    return items


def table(value: object, name: str, columns: Iterable[str] = (), *,
          made_by: str | None = None) -> "pd.DataFrame":
    """`value` if it is a pandas DataFrame with (at least) `columns`; the message names the
    function that makes such a table (`made_by`) when given."""
    import pandas as pd

    source = f" (from {made_by})" if made_by else ""
    if not isinstance(value, pd.DataFrame):
        raise ArgumentTypeError(f"{name} must be a table (a pandas DataFrame){source}, "
                                f"got {type(value).__name__}")
    missing = [c for c in sequence(columns, "columns") if c not in value.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {missing}{source}")
    return value


def function(value: object, name: str) -> Callable[..., object]:
    """`value` if it can be called."""
    if not callable(value):
        raise ArgumentTypeError(f"{name} must be a function, got {_shown(value)}")
    return value


def sweep_options(executor: object, workers: object) -> tuple[object, int]:
    """A sweep's `executor=` (None, or an object with `submit`, as every concurrent.futures and
    Dask executor has) and `workers=` (as `workers` says: at most `worker_limit()`), checked
    before any cached table is read or any process starts."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ArgumentTypeError(f"executor must be a concurrent.futures.Executor (or None), "
                                f"got {_shown(executor)}")
    return executor, _workers(workers, "workers")


def binomial(n: int, k: int) -> float:
    """C(n, k) for a budget, at once for any size: exact (as a float, inf beyond floats) when
    min(k, n - k) <= 64 or n < 4096, else an estimate of a number above 2**64, beyond every
    budget (computing C(10**20, 10**10) exactly would take longer than the work it guards)."""
    n, k = integer(n, "n", low=0), integer(k, "k")
    if k < 0 or k > n:
        return 0.0
    k = min(k, n - k)
    if k <= 64 or n < 4096:
        exact = comb(n, k)
        return float(exact) if exact.bit_length() <= 1000 else math.inf
    if n < 10**12:  # lgamma's rounding is still far below one unit of the logarithm
        log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    else:  # C(n, k) >= (n / k)**k
        log = k * math.log(n / k)
    return math.exp(log) if log < 700 else math.inf


def power(base: int, exponent: int) -> float:
    """base**exponent (base >= 0) for a budget, at once for any size (inf beyond 2**1000)."""
    base, exponent = integer(base, "base", low=0), integer(exponent, "exponent")
    if base <= 1 or exponent <= 0:
        return float(base**max(exponent, 0))
    return float(base**exponent) if exponent * math.log2(base) <= 1000 else math.inf


def multinomial(parts: Iterable[int]) -> float:
    """(sum of parts)! / (product of part!) for a budget, as a product of `binomial`s."""
    out, total = 1.0, 0
    for p in integers(parts, "parts", low=0):
        total += p
        out *= binomial(total, p)
    return out


def _shown(value: object) -> str:
    """A short description of a value for a message: its repr cut to 60 characters and its kind
    (a value too deep or too odd to print is shown by its kind alone)."""
    try:
        text = reprlib.repr(value)
    except Exception:  # noqa: BLE001 - a repr that recurses without end or fails
        return f"a {type(value).__name__}"
    return f"{text if len(text) <= 60 else text[:57] + '...'} ({type(value).__name__})"


# --- record classes: every field checked against its type hint ------------------------------------


def record(obj: object) -> None:
    """Check each field of a dataclass instance against its type hint (call it in
    `__post_init__`): int, float, bool, str, Literal, None, unions, tuples and sequences of
    these, mappings, callables and classes; a field whose hint says nothing more is not checked."""
    for name, label, check in _field_checks(type(obj)):
        check(getattr(obj, name), label)


@functools.cache
def _field_checks(cls: type) -> tuple[tuple[str, str, Callable[[object, str], object]], ...]:
    """Each field's name, its label in a message (Class.field) and its check (made once)."""
    if not dataclasses.is_dataclass(cls):
        raise ArgumentTypeError(f"obj must be a dataclass instance, got a {cls.__name__}")
    hints = _hints(cls)
    return tuple((f.name, f"{cls.__name__}.{f.name}", _kind_check(hints.get(f.name, Any)))
                 for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                 if _kind_check(hints.get(f.name, Any)) is not _anything)


def _hints(cls: type) -> dict[str, object]:
    """The class's field hints, evaluated (one by one where some name is only for type checkers)."""
    try:
        return typing.get_type_hints(cls)
    except Exception:
        space = vars(sys.modules[cls.__module__])
        out = {}
        for name, hint in getattr(cls, "__annotations__", {}).items():
            try:
                out[name] = eval(hint, space) if isinstance(hint, str) else hint
            except Exception:
                out[name] = Any
        return out


def _kind_check(hint: object) -> Callable[[object, str], object]:
    """A function(value, name) that raises ArgumentTypeError unless value is of the kind `hint`."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _SIMPLE:
        return _SIMPLE[hint]  # type: ignore[index]
    if hint in (Any, object) or isinstance(hint, (typing.TypeVar, str)):
        return _anything
    if hint is None or hint is type(None):
        return _none
    if origin in (typing.Union, types.UnionType):
        return _union(args, hint)
    if origin is typing.Literal:
        return lambda value, name: choice(value, name, args)
    if origin in (tuple, list, abc.Sequence, abc.Iterable, abc.Collection, set, frozenset):
        return _items(origin, args)
    if origin in (dict, abc.Mapping) or hint in (dict, abc.Mapping):
        return _instance(abc.Mapping, "a mapping")
    if origin is abc.Callable or hint is abc.Callable:
        return function
    if isinstance(hint, type):
        return _instance(hint, f"a {hint.__name__}")
    return _anything


_SIMPLE: dict[object, Callable[..., object]] = {int: integer, float: number, bool: boolean,
                                                str: text}


_EXACT: dict[object, type] = {integer: int, text: str}  # a value of this very type passes at once


def _anything(value: object, name: str) -> object:
    return value


def _none(value: object, name: str) -> None:
    if value is not None:
        raise ArgumentTypeError(f"{name} must be None, got {_shown(value)}")


def _instance(cls: type, what: str) -> Callable[[object, str], object]:
    plain = dict if cls is abc.Mapping else cls  # the type most values have: one `is` test

    def check(value: object, name: str) -> object:
        if type(value) is not plain and not isinstance(value, cls):
            raise ArgumentTypeError(f"{name} must be {what}, got {_shown(value)}")
        return value
    check.kind = cls  # type: ignore[attr-defined]  # lets `_items` test many items at once
    return check


def _union(members: tuple, hint: object) -> Callable[[object, str], object]:
    """Any of the members: classes by one isinstance test, the other kinds in turn."""
    classes = tuple(a for a in members if isinstance(a, type) and a not in _SIMPLE
                    and a is not type(None))
    others = tuple(_kind_check(a) for a in members if a not in classes)

    def check(value: object, name: str) -> object:
        if classes and isinstance(value, classes):
            return value
        for one in others:
            try:
                return one(value, name)
            except ArgumentTypeError:
                continue
        raise ArgumentTypeError(f"{name} must be {_hint_text(hint)}, got {_shown(value)}")
    return check


def _items(origin: object, args: tuple) -> Callable[[object, str], object]:
    """A collection (a tuple if the hint says tuple), each item of the kind its hint says."""
    fixed = origin is tuple and args and args[-1] is not Ellipsis and args != ((),)
    item_checks = [_kind_check(a) for a in args[: len(args) if fixed else 1]]
    kind = tuple if origin is tuple else (set, frozenset) if origin in (set, frozenset) else None
    each = None if fixed or not item_checks or item_checks[0] is _anything else \
        _each(item_checks[0])

    def check(value: object, name: str) -> object:
        if kind is not None and not isinstance(value, kind):
            raise ArgumentTypeError(f"{name} must be a {_hint_text(origin)}, got {_shown(value)}")
        items = value if type(value) in (tuple, list) else collection(value, name)
        if fixed:
            if len(items) != len(item_checks):  # type: ignore[arg-type]
                raise ValueError(f"{name} must have {len(item_checks)} items, got {len(items)}")
            for i, (one, v) in enumerate(zip(item_checks, items)):
                one(v, f"{name}[{i}]")
        elif each is not None:
            each(items, name)
        return value
    return check


def _each(one: Callable[[object, str], object]) -> Callable[[Iterable, str], None]:
    """A check of every item by `one`; the message of a refused item names its index (made only
    then), and a list or tuple of plain ints, texts or instances costs one test at C speed."""
    kind = getattr(one, "kind", None)
    exact = {_EXACT[one]} if one in _EXACT else None

    def check(items: Iterable, name: str) -> None:
        if type(items) in (tuple, list) and (
                (exact is not None and set(map(type, items)) <= exact)  # type: ignore[arg-type]
                or (kind is not None and all(map(isinstance, items, itertools.repeat(kind))))):
            return
        for i, v in enumerate(items):
            if kind is not None and isinstance(v, kind):
                continue
            try:
                one(v, name)
            except ValueError:
                one(v, f"{name}[{i}]")
                raise
    return check


def _hint_text(hint: object) -> str:
    """How a message names a kind: int, str | None, Var | Param | Not, tuple[int, ...]."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " | ".join(_hint_text(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
