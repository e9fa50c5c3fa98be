"""Shared tools for the property tests that throw hostile-but-fair values at public functions.

`well_behaved(f, *args, **kwargs)` calls f under a wall-clock alarm and accepts only a result
or a ValueError (the project's `ArgumentTypeError` is one); a plain TypeError passes only when
the arguments do not fit f's signature (Python's own complaint about the call, before f runs).
Anything else (a TypeError from inside, IndexError, AttributeError, OverflowError, MemoryError,
RecursionError, a hang) fails the test.
`any_value()` draws values of every kind: integers small and huge, negative, numpy integers,
floats (NaN too), bools, None, strings, bytes, lists, tuples and dicts.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import signal
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

__all__ = ["CallTimedOut", "any_value", "public_callables", "refused_quickly", "well_behaved"]


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
    """f(*args, **kwargs) returns, or raises ValueError with a message, within `seconds` (a
    TypeError only when the arguments do not fit f's signature)."""
    with alarm(seconds):
        try:
            return f(*args, **kwargs)
        except ValueError as err:
            assert str(err), f"{f.__name__} raised {type(err).__name__} with no message"
            return err
        except TypeError as err:
            assert not _fits_signature(f, args, kwargs), (
                f"{getattr(f, '__name__', f)} raised a plain TypeError, not ArgumentTypeError: "
                f"{err}")
            return err


@functools.cache
def fuzz_tool() -> Any:
    """tools/fuzz.py as a module: which names are calls, the harness."""
    path = Path(__file__).resolve().parents[1] / "tools" / "fuzz.py"
    spec = importlib.util.spec_from_file_location("puzzlelab_fuzz", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def _fits_signature(f: Callable[..., Any], args: tuple, kwargs: dict) -> bool:
    try:
        inspect.signature(f).bind(*args, **kwargs)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): give it the benefit of the doubt
        return False
    return True


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
    """The functions and classes a module exports in `__all__` (the public surface; type
    aliases such as `Hand = tuple[int, ...]` and abstract classes are not calls)."""
    names = getattr(module, "__all__", None)
    assert names is not None, f"{module.__name__} has no __all__"
    return [(n, getattr(module, n)) for n in names if fuzz_tool().is_call(getattr(module, n))]


def refused_quickly(call: Callable[[], Any], kind: type[BaseException] = ValueError,
                    words: str = "", seconds: float = 2.0) -> BaseException:
    """call() raises `kind` with a message matching `words` within `seconds` (a call still
    running then fails as CallTimedOut, so a size that is not refused up front cannot hang)."""
    import pytest

    with alarm(seconds), pytest.raises(kind, match=words) as info:
        call()
    return info.value
