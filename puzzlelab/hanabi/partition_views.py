"""What notebooks/hanabi.ipynb shows of the hint partitions (the Hanabi post, source document
003; O'Dwyer 2018): each card's possible identities, a maximum partition of the hints with the
card that certifies each part, the hint-capacity study's figures and summary, and explorers.

The hint-capacity study it shows is computed and cached in `tables` (`tables.CAPACITY`); the
views of the hat-game part (Cox et al. 2015) are in `notebook`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .. import checks
from .knowledge import holes
from .model import COLOURS, VALUES, HintTable, as_table, hint_mask, possibility_table
from .solvers import max_hint_partition

__all__ = [
    "capacity_summary", "describe_cards", "explore_partition", "partition_view",
    "plot_hint_capacity", "plot_mixing_gain", "toggle_table",
]

_STUDY_COLUMNS = ("hand_size", "public_cards", "hints_received", "mean_bits_mixed",
                  "mean_bits_separate")


def _short(identity: Iterable[str]) -> str:
    """R3 for the red 3; the hint names joined by '+' for any other identity."""
    hints = set(identity)
    colours, values = hints & set(COLOURS), hints & set(VALUES)
    if len(hints) == 2 and len(colours) == 1 and len(values) == 1:
        return f"{next(iter(colours))[0]}{next(iter(values))}"
    return "+".join(sorted(hints))


def _holes_text(card: frozenset) -> str:
    try:
        found = holes(card)
    except ValueError:  # not a full-Hanabi card: no rectangle to punch holes in
        return "–"
    return " ".join(sorted(f"{c[0]}{v}" for c, v in found)) or "–"


def describe_cards(table: HintTable) -> pd.DataFrame:
    """Each card's possible identities in short form (R3 = red 3) and the holes in its rectangle.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table (`as_table`); holes are shown for full-Hanabi cards, "–" otherwise.

    Returns
    -------
    pandas.DataFrame
        A row per card: "may be" and "holes in its rectangle".

    Raises
    ------
    ValueError
        If `table` is none of a HintTable, a 0/1 DataFrame or 0/1 rows (`as_table`).

    Examples
    --------
    A red 1, red 2 or blue 1: its rectangle {red, blue} x {1, 2} has the blue 2 as a hole.

    >>> from puzzlelab.hanabi.model import hanabi_table
    >>> describe_cards(hanabi_table([[("Red", 1), ("Red", 2), ("Blue", 1)]]))
              may be holes in its rectangle
    card 1  B1 R1 R2                     B2

    References
    ----------
    Beyond The Hanabi post (source document 003; O'Dwyer 2018); card counting: Cox et al. (2015).
    """
    table = as_table(table)
    return pd.DataFrame(
        {"may be": [" ".join(sorted(_short(i) for i in card)) for card in table.cards],
         "holes in its rectangle": [_holes_text(card) for card in table.cards]},
        index=list(table.card_names),
    )


def _check_study(study: object) -> pd.DataFrame:
    if checks.table(study, "study", _STUDY_COLUMNS, made_by="hint_capacity_study").empty:
        raise ValueError("study has no rows")
    return study


def _lines(ax, study: pd.DataFrame, column: str, scale: float = 1.0) -> None:
    """One line per (hand size, cards face up): colour by cards face up, marker by hand size."""
    import matplotlib.pyplot as plt

    colours = dict(zip(sorted(study.public_cards.unique()), plt.get_cmap("tab10").colors))
    styles = dict(zip(sorted(study.hand_size.unique()), ["o--", "s-", "^-.", "d:"]))
    for (hand_size, public_cards), line in study.groupby(["hand_size", "public_cards"]):
        ax.plot(line.hints_received, scale * line[column], styles.get(hand_size, "o-"),
                color=colours[public_cards], ms=6,
                label=f"{hand_size} cards in hand, {public_cards} face up")
    ax.set_xlabel("hints the hand has already received", fontsize=13)
    ax.tick_params(labelsize=12)
    ax.grid(alpha=0.3)


def _legend(ax, loc: str) -> None:
    ax.legend(fontsize=11, loc=loc, title="marker: hand size; colour: cards face up",
              title_fontsize=11)


def plot_hint_capacity(study: pd.DataFrame, name: str | None = "hanabi_hint_capacity"):
    """Bits one hint can carry (log2 of the parts of a maximum partition) against hints received.

    Parameters
    ----------
    study : pandas.DataFrame
        A `hint_capacity_study` table (hand_size, public_cards, hints_received and the means).
    name : str or None
        The figure's file name under figures/ (`figures.save_figure`); None saves nothing.

    Returns
    -------
    matplotlib.figure.Figure
        A line per (hand size, cards face up), under the ceiling log2(10) of ten one-hint parts.

    Raises
    ------
    ValueError
        If `study` lacks the study's columns or has no rows, or `name` is not text.

    Examples
    --------
    >>> from puzzlelab.hanabi.tables import hint_capacity_table
    >>> figure = plot_hint_capacity(hint_capacity_table(), name=None)
    >>> ceiling = figure.axes[0].lines[-1]
    >>> round(float(ceiling.get_ydata()[0]), 2)  # log2(10) bits: each hint a part
    3.32

    References
    ----------
    Beyond The Hanabi post (source document 003; O'Dwyer 2018): its set packing over realistic game
    states.
    """
    import matplotlib.pyplot as plt

    from ..figures import finish

    study = _check_study(study)
    name = None if name is None else checks.text(name, "name")
    fig, ax = plt.subplots(figsize=(9, 5.2))
    _lines(ax, study, "mean_bits_mixed")
    ceiling = np.log2(len(COLOURS) + len(VALUES))
    ax.axhline(ceiling, color="grey", lw=1, ls=":")
    ax.text(0, ceiling - 0.05, f"ceiling: each of the 10 hints a part ({ceiling:.2f} bits)",
            fontsize=12, color="dimgrey", va="top")
    ax.set_ylabel("mean bits per hint (log2 of the parts)", fontsize=13)
    ax.set_ylim(0.8, ceiling + 0.15)
    _legend(ax, "lower right")
    fig.tight_layout()
    return finish(fig, name)


def plot_mixing_gain(study: pd.DataFrame, name: str | None = "hanabi_mixing_gain"):
    """Share of tables where parts mixing colours and values beat the two kinds packed apart.

    Parameters
    ----------
    study : pandas.DataFrame
        A `hint_capacity_study` table (hand_size, public_cards, hints_received and the means).
        It needs the column share_mixed_better.
    name : str or None
        The figure's file name under figures/ (`figures.save_figure`); None saves nothing.

    Returns
    -------
    matplotlib.figure.Figure
        A line per (hand size, cards face up): the percentage of tables against hints received.

    Raises
    ------
    ValueError
        If `study` lacks the study's columns (or share_mixed_better) or has no rows, or `name`
        is not text.

    Examples
    --------
    Before any hint every card is a whole rectangle, so mixing never wins there.

    >>> from puzzlelab.hanabi.tables import hint_capacity_table
    >>> figure = plot_mixing_gain(hint_capacity_table(), name=None)
    >>> sorted({float(line.get_ydata()[0]) for line in figure.axes[0].lines})
    [0.0]

    References
    ----------
    Beyond The Hanabi post (source document 003; O'Dwyer 2018), which hints colours only.
    """
    import matplotlib.pyplot as plt

    from ..figures import finish

    study = _check_study(study)
    if "share_mixed_better" not in study.columns:
        raise ValueError("study lacks the column share_mixed_better of hint_capacity_study")
    name = None if name is None else checks.text(name, "name")
    fig, ax = plt.subplots(figsize=(9, 4.6))
    _lines(ax, study, "share_mixed_better", scale=100)
    ax.set_ylabel("tables where mixing wins (%)", fontsize=13)
    _legend(ax, "upper right")
    fig.tight_layout()
    return finish(fig, name)


def capacity_summary(study: pd.DataFrame, hints: Sequence[int] = (0, 2, 4, 8)) -> pd.DataFrame:
    """Mean bits per hint (mixed parts) by hand size and cards face up, after some hints.

    Parameters
    ----------
    study : pandas.DataFrame
        A `hint_capacity_study` table (hand_size, public_cards, hints_received and the means).
    hints : sequence of int
        The numbers of hints received shown, one column each.

    Returns
    -------
    pandas.DataFrame
        Indexed by (cards in hand, cards face up), a column "after k hints" per k, rounded to
        0.01 bit.

    Raises
    ------
    ValueError
        If `study` is not such a table, or it has no rows for some number in `hints`.

    Examples
    --------
    Before any hint a hint carries one bit (colours against values), whatever the hand.

    >>> from puzzlelab.hanabi.tables import hint_capacity_table
    >>> summary = capacity_summary(hint_capacity_table(), hints=[0, 8])
    >>> summary["after 0 hints"].tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]

    References
    ----------
    Beyond The Hanabi post (source document 003; O'Dwyer 2018): its set packing over realistic game
    states.
    """
    study = _check_study(study)
    hints = checks.integers(hints, "hints", low=0)
    if missing := sorted(set(hints) - set(study.hints_received)):
        raise ValueError(f"the study has no rows with hints_received in {missing}")
    chosen = study[study.hints_received.isin(hints)]
    table = chosen.pivot_table(index=["hand_size", "public_cards"], columns="hints_received",
                               values="mean_bits_mixed")
    table.columns = [f"after {h} hints" for h in table.columns]
    table.index.names = ["cards in hand", "cards face up"]
    return table.round(2)


def partition_view(table: HintTable) -> pd.DataFrame:
    """A maximum partition: each group (part), a card that certifies it, what that card may be.

    Parameters
    ----------
    table : HintTable, pandas.DataFrame or sequence of 0/1 rows
        The table of possibilities (`as_table`) whose partition is shown.

    Returns
    -------
    pandas.DataFrame
        A row per group ("group 1", ...): its hints, the first card certifying it, that card's
        identities.

    Raises
    ------
    ValueError
        If `table` is not a valid table, or has too many hints (`max_hint_partition`).

    Examples
    --------
    The post's example: the oldest card (surely red) certifies the first group, the third card
    (yellow or green) the second.

    >>> from puzzlelab.hanabi.source import example_table
    >>> partition_view(example_table())
                        group certified by that card may be
    group 1  Red, White, Blue       Oldest              Red
    group 2     Yellow, Green        third     Green Yellow

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'.
    """
    table = as_table(table)
    rows = []
    for part in max_hint_partition(table):
        mask = hint_mask(table, part)
        card = next(k for k, masks in enumerate(table.masks) if all(i & mask for i in masks))
        rows.append({"group": ", ".join(h for h in table.hints if h in part),
                     "certified by": table.card_names[card],
                     "that card may be": " ".join(sorted(_short(i) for i in table.cards[card]))})
    return pd.DataFrame(rows, index=[f"group {k + 1}" for k in range(len(rows))])


def explore_partition(
    rows: Sequence[Sequence[int]] | pd.DataFrame, hints: Sequence[str] | None = None
) -> pd.DataFrame:
    """A colour table with each hint's group (part) number and the groups each card certifies.

    `rows` are 0/1 rows (with `hints`, default the five colours) or a 0/1 DataFrame.

    Parameters
    ----------
    rows : sequence of sequence of int, or pandas.DataFrame
        The table of possibilities (`possibility_table`).
    hints : sequence of str, optional
        The column names of nested rows; the five colours by default.

    Returns
    -------
    pandas.DataFrame
        The table ("1" or "·"), a column "certifies group" and a last row "group →" with each
        hint's group and the number of groups.

    Raises
    ------
    ValueError
        If `rows` is not a valid possibility table (`possibility_table`).

    Examples
    --------
    Two cards each of one known colour: two groups, each certified by its card.

    >>> explore_partition([[1, 0], [0, 1]], hints=["Red", "Blue"])
            Red Blue certifies group
    card 1    1    ·               1
    card 2    ·    1               2
    group →   1    2        2 groups

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), 'Solution'.
    """
    table = possibility_table(rows, hints)
    parts = max_hint_partition(table)
    frame = table.to_frame().replace({0: "·", 1: "1"})
    part_of = {h: i + 1 for i, p in enumerate(parts) for h in p}
    certified = []
    for card in table.masks:
        hit = [i + 1 for i, p in enumerate(parts)
               if all(identity & hint_mask(table, p) for identity in card)]
        certified.append(", ".join(map(str, hit)) or "–")
    frame["certifies group"] = certified
    frame.loc["group →"] = [str(part_of[h]) for h in table.hints] + [f"{len(parts)} groups"]
    return frame


def toggle_table(
    rows: Sequence[Sequence[int]] | pd.DataFrame, hints: Sequence[str] | None = None
) -> None:
    """A grid of toggle buttons (one per table cell) redrawing `explore_partition` on each click.

    Parameters
    ----------
    rows : sequence of sequence of int, or pandas.DataFrame
        The starting table (`possibility_table`).
    hints : sequence of str, optional
        The column names of nested rows; the five colours by default.

    Returns
    -------
    None
        The widget is displayed.

    Raises
    ------
    ValueError
        If the starting table is not a valid possibility table (checked before drawing).

    Examples
    --------
    Outside a notebook the widget and its first view are printed:

    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as shown:
    ...     toggle_table([[1, 0], [0, 1]], hints=["Red", "Blue"])
    >>> "ToggleButton" in shown.getvalue(), "2 groups" in shown.getvalue()
    (True, True)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018), its table of possibilities.
    """
    import ipywidgets as w
    from IPython.display import display

    from ..widgets import show_safely

    table = possibility_table(rows, hints)  # refuse a bad start before drawing anything
    frame = table.to_frame()
    card_names = table.card_names
    buttons = [[w.ToggleButton(value=bool(v), description=h[:1], layout=w.Layout(width="42px"))
                for v, h in zip(row, table.hints)] for row in frame.to_numpy().tolist()]
    out = w.Output()

    def redraw(_=None) -> None:
        out.clear_output(wait=True)
        with out:
            current = [[int(b.value) for b in r] for r in buttons]
            show_safely(explore_partition,
                        rows=pd.DataFrame(current, index=card_names, columns=table.hints))

    for b in itertools.chain.from_iterable(buttons):
        b.observe(redraw, names="value")
    redraw()
    display(w.HBox([w.VBox([w.HBox(r) for r in buttons]), out]))
