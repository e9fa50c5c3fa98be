"""Tables for the reader: readable column names, no meaningless 0, 1, 2, ... index column.

`table(frame, names, index=...)` is what a notebook shows in place of a raw DataFrame:

    table(strategies, {"win_share": "share of wins", "win_ci": "± (95%)"}, index="strategy")

- `names` renames columns (words, units in words: "seconds", "MiB", "share of deals");
  columns it does not name keep their names, so name every raw one (`kemps_ci`, ...).
- A default 0..n-1 index is never shown; `index="col"` makes a column the row labels, and an
  index that means something (named, or not 0..n-1) is kept.
- `digits` rounds floats for display only.

The result shows as an HTML table in JupyterLab and on the site, and as aligned text in a
plain-text output; `.frame` is the DataFrame shown, for `assert`s next to it.
"""

from __future__ import annotations

from collections.abc import Mapping

import hashlib

import pandas as pd
from pandas.io.formats.style import Styler

from . import checks

__all__ = ["Table", "table", "meaningless_index"]


def meaningless_index(frame: pd.DataFrame) -> bool:
    """True for an unnamed index that only counts rows: 0, 1, ..., n-1."""
    index = checks.table(frame, "frame").index
    if index.nlevels != 1 or index.name is not None:
        return False
    return bool(index.equals(pd.RangeIndex(len(frame))))


def _places(column: pd.Series, most: int = 6) -> int:
    """The decimal places a float column needs (at most `most`), as pandas would print it."""
    texts = [f"{v:.{most}f}".rstrip("0") for v in column.dropna()]
    return max([len(t.split(".")[1]) for t in texts] or [0])


class Table:
    """A DataFrame as the reader sees it (see `table`)."""

    def __init__(self, frame: pd.DataFrame, digits: int | None = None):
        self.frame = checks.table(frame, "frame")
        self.digits = None if digits is None else checks.integer(digits, "digits", low=0, high=15)
        self.show_index = not meaningless_index(frame)

    def _shown(self) -> pd.DataFrame:
        return self.frame.round(self.digits) if self.digits is not None else self.frame

    def __repr__(self) -> str:
        return self._shown().to_string(index=self.show_index)

    def _repr_html_(self) -> str:
        shown = self._shown()
        # ids from the content, not random: re-running a notebook changes no output
        digest = hashlib.sha256(shown.to_csv().encode()).hexdigest()[:10]
        styler = Styler(shown, uuid=digest, cell_ids=False).set_table_attributes(
            'class="dataframe"').format(na_rep="")
        for column in shown.columns:  # floats as pandas prints them: the places they need
            if pd.api.types.is_float_dtype(shown[column]):
                places = self.digits if self.digits is not None else _places(shown[column])
                styler = styler.format(precision=places, subset=[column], na_rep="")
        if not self.show_index:
            styler = styler.hide(axis="index")
        return styler.to_html()

    def __len__(self) -> int:
        return len(self.frame)


def table(frame: pd.DataFrame, names: Mapping[str, str] | None = None, *,
          index: str | None = None, digits: int | None = None) -> Table:
    """`frame` for the reader: columns renamed by `names`, `index` (a column) as row labels,
    a 0..n-1 index hidden, floats shown to `digits` places."""
    if not isinstance(frame, pd.DataFrame):
        raise checks.ArgumentTypeError(f"table needs a pandas DataFrame, got {type(frame).__name__}")
    if names is not None and not isinstance(names, Mapping):
        raise checks.ArgumentTypeError(f"names must map column names to words, got {names!r}")
    names = dict(names or {})
    unknown = sorted(set(names) - set(frame.columns) - {frame.index.name})
    if unknown:
        raise ValueError(f"names for columns the table does not have: {unknown}; "
                         f"its columns: {list(frame.columns)}")
    if index is not None:
        if not isinstance(index, str):
            raise checks.ArgumentTypeError(f"index must name a column (a string), got {index!r}")
        if index not in frame.columns:
            raise ValueError(f"index {index!r} is not a column of the table: {list(frame.columns)}")
        frame = frame.set_index(index)
    frame = frame.rename(columns=names)
    if frame.index.name in names:
        frame = frame.rename_axis(index=names[frame.index.name])
    if digits is not None:
        digits = checks.integer(digits, "digits", low=0, high=15)
    return Table(frame, digits)
