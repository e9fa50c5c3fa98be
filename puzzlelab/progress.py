"""Progress bars (tqdm.auto) that honour TQDM_DISABLE, even for the notebook widget bar.

tqdm's notebook bar ignores the TQDM_DISABLE environment variable; committed notebook
outputs must not contain progress bars, so every puzzle module imports `tqdm` from here.
"""

from __future__ import annotations

import os
from typing import Any

from tqdm.auto import tqdm as _tqdm

__all__ = ["tqdm"]


def tqdm(iterable: Any = None, **kwargs: Any) -> _tqdm:
    """`tqdm.auto.tqdm`, disabled when TQDM_DISABLE is set (as by `make reproduce` and `make test`)."""
    env_disabled = os.environ.get("TQDM_DISABLE", "") not in ("", "0", "false")
    kwargs["disable"] = bool(kwargs.get("disable", False)) or env_disabled
    return _tqdm(iterable, **kwargs)
