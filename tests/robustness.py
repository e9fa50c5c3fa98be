"""Shared tools for the property tests that throw hostile-but-fair values at public functions.

`well_behaved(f, *args, **kwargs)` calls f under a wall-clock alarm and accepts only a result,
a ValueError or a TypeError (ArgumentTypeError is both); anything else (IndexError,
AttributeError, OverflowError, MemoryError, RecursionError, a hang) fails the test.
`any_value()` draws values of every kind: integers small and huge, negative, numpy integers,
floats (NaN too), bools, None, strings, bytes, lists, tuples and dicts.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import numpy as np
from hypothesis import strategies as st

__all__ = ["CallTimedOut", "any_value", "public_callables", "well_behaved"]


class CallTimedOut(AssertionError):
    """A call ran past its time limit (it should have been refused up front)."""


@contextmanager
def alarm(seconds: float):
    """Raise CallTimedOut in this (main) thread after `seconds` of wall time."""
    def ring(signum, frame):
        raise CallTimedOut(f"call still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def well_behaved(f: Callable[..., Any], *args: Any, seconds: float = 5.0, **kwargs: Any) -> Any:
    """f(*args, **kwargs) returns, or raises ValueError/TypeError with a message, within `seconds`."""
    with alarm(seconds):
        try:
            return f(*args, **kwargs)
        except (ValueError, TypeError) as err:
            assert str(err), f"{f.__name__} raised {type(err).__name__} with no message"
            return err


def _numpy_integers() -> st.SearchStrategy:
    return st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8]).flatmap(
        lambda t: st.integers(int(np.iinfo(t).min), int(np.iinfo(t).max)).map(t))


def any_value(max_leaves: int = 4) -> st.SearchStrategy:
    """Values of every kind, small and absurd, for hostile calls."""
    scalars = st.one_of(
        st.integers(-3, 12), st.integers(-(2**70), 2**70), _numpy_integers(),
        st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
        st.text(max_size=8), st.binary(max_size=4),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                                st.dictionaries(st.text(max_size=3), inner, max_size=3)),
        max_leaves=max_leaves,
    )


def public_callables(module: Any) -> list[tuple[str, Callable[..., Any]]]:
    """The functions and classes a module exports in `__all__` (the public surface)."""
    names = getattr(module, "__all__", None)
    assert names is not None, f"{module.__name__} has no __all__"
    return [(n, getattr(module, n)) for n in names if callable(getattr(module, n))]
