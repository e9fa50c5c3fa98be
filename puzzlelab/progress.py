"""Progress bars (tqdm.auto) that honour TQDM_DISABLE, even for the notebook widget bar, and
durations said as a reader says them (`duration`).

tqdm's notebook bar ignores the TQDM_DISABLE environment variable; committed notebook
outputs must not contain progress bars, so every puzzle module imports `tqdm` from here.
"""

from __future__ import annotations

import os
from typing import Any

from tqdm.auto import tqdm as _tqdm

from . import checks

__all__ = ["duration", "tqdm"]


def tqdm(iterable: Any = None, **kwargs: Any) -> _tqdm:
    """`tqdm.auto.tqdm`, disabled when TQDM_DISABLE is set (as by `make reproduce` and `make test`)."""
    env_disabled = os.environ.get("TQDM_DISABLE", "") not in ("", "0", "false")
    kwargs["disable"] = bool(kwargs.get("disable", False)) or env_disabled
    return _tqdm(iterable, **kwargs)


def duration(seconds: float) -> str:
    """A duration as a reader says it: 40 s, 4 min, 1 h 10 min."""
    seconds = checks.number(seconds, "seconds", low=0, high=1e9)  # type: ignore[assignment]
    if seconds < 60:
        return f"{round(seconds)} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"
