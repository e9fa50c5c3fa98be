"""What notebooks/hanabi.ipynb shows: tables, figures, explorations, and the cached study.

Also a command line that (re)computes the hint-capacity table the notebook reads:
``python -m puzzlelab.hanabi.notebook --samples 400 [--workers N] [--scheduler ADDR|local]``.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from .. import checks, sweeps
from ..cache import cached_table, write_table
from ..checks import ArgumentTypeError
from .knowledge import hint_capacity_study, holes
from .model import COLOURS, VALUES, HintTable, as_table, hint_mask, possibility_table
from .solvers import max_hint_partition

__all__ = [
    "CAPACITY_SAMPLES", "CAPACITY_TABLE", "describe_cards", "explore_partition",
    "hint_capacity_table", "plot_hint_capacity", "toggle_table",
]

CAPACITY_TABLE = "hanabi_hint_capacity"
CAPACITY_SAMPLES = 400  # random tables per point of the study the notebook shows
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
    """Each card's possible identities in short form (R3 = red 3) and the holes in its rectangle."""
    table = as_table(table)
    return pd.DataFrame(
        {"may be": [" ".join(sorted(_short(i) for i in card)) for card in table.cards],
         "holes in its rectangle": [_holes_text(card) for card in table.cards]},
        index=list(table.card_names),
    )


def hint_capacity_table(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The hint-capacity study, 400 tables per point, cached as data/hanabi_hint_capacity.csv."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ArgumentTypeError(f"executor must be a concurrent.futures.Executor, got {executor!r}")
    workers = checks.integer(workers, "workers", low=1)
    return cached_table(CAPACITY_TABLE, lambda: hint_capacity_study(
        samples=CAPACITY_SAMPLES, executor=executor, workers=workers))


def _check_study(study: object) -> pd.DataFrame:
    if not isinstance(study, pd.DataFrame):
        raise ArgumentTypeError(f"study must be a hint_capacity_study DataFrame, got {study!r}")
    if missing := [c for c in _STUDY_COLUMNS if c not in study.columns]:
        raise ValueError(f"study lacks the columns {missing} of hint_capacity_study")
    if study.empty:
        raise ValueError("study has no rows")
    return study


def plot_hint_capacity(study: pd.DataFrame, name: str | None = "hanabi_hint_capacity"):
    """Bits a hint can carry against hints received: mixed parts vs colours and values apart."""
    import matplotlib.pyplot as plt

    from ..figures import finish

    study = _check_study(study)
    name = None if name is None else checks.text(name, "name")
    panels = sorted(study["public_cards"].unique())
    fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 3.6), sharey=True,
                             squeeze=False)
    for ax, public_cards in zip(axes[0], panels):
        _capacity_panel(ax, study[study.public_cards == public_cards], public_cards)
    axes[0][0].set_ylabel("mean bits per hint  (log2 parts)")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return finish(fig, name)


def _capacity_panel(ax, part: pd.DataFrame, public_cards: int) -> None:
    """One panel: mixed and separate bits per hand size, with the ceiling of ten hints."""
    import matplotlib.pyplot as plt

    palette = plt.get_cmap("tab10").colors
    for k, hand_size in enumerate(sorted(part["hand_size"].unique())):
        colour = palette[k % len(palette)]
        line = part[part.hand_size == hand_size]
        ax.plot(line.hints_received, line.mean_bits_mixed, "o-", color=colour,
                label=f"{hand_size} cards: mixed")
        ax.plot(line.hints_received, line.mean_bits_separate, "x--", color=colour, alpha=0.7,
                label=f"{hand_size} cards: colours + values")
    ceiling = np.log2(len(COLOURS) + len(VALUES))
    ax.axhline(ceiling, color="grey", lw=0.8, ls=":")
    ax.text(0, ceiling - 0.04, "ceiling: log2 10 (every hint its own group)", fontsize=7,
            color="grey", va="top")
    ax.set_title(f"{public_cards} cards face up (card counting)")
    ax.set_xlabel("hints already received by the hand")
    ax.grid(alpha=0.3)


def explore_partition(
    rows: Sequence[Sequence[int]], hints: Sequence[str] = COLOURS
) -> pd.DataFrame:
    """The table with each hint's part number and the parts each card certifies."""
    table = possibility_table(rows, hints)
    parts = max_hint_partition(table)
    frame = table.to_frame().replace({0: "·", 1: "1"})
    part_of = {h: i + 1 for i, p in enumerate(parts) for h in p}
    certified = []
    for card in table.masks:
        hit = [i + 1 for i, p in enumerate(parts)
               if all(identity & hint_mask(table, p) for identity in card)]
        certified.append(", ".join(map(str, hit)) or "–")
    frame["certifies part"] = certified
    frame.loc["part →"] = [str(part_of[h]) for h in table.hints] + [f"{len(parts)} parts"]
    return frame


def toggle_table(rows: Sequence[Sequence[int]], hints: Sequence[str] = COLOURS) -> None:
    """A grid of toggle buttons (one per table cell) redrawing `explore_partition` on each click."""
    import ipywidgets as w
    from IPython.display import display

    from ..widgets import show_safely

    table = possibility_table(rows, hints)  # refuse a bad start before drawing anything
    frame = table.to_frame()
    buttons = [[w.ToggleButton(value=bool(v), description=h[:1], layout=w.Layout(width="42px"))
                for v, h in zip(row, table.hints)] for row in frame.to_numpy().tolist()]
    out = w.Output()

    def redraw(_=None) -> None:
        out.clear_output(wait=True)
        with out:
            show_safely(explore_partition, rows=[[int(b.value) for b in r] for r in buttons],
                        hints=table.hints)

    for b in itertools.chain.from_iterable(buttons):
        b.observe(redraw, names="value")
    redraw()
    display(w.HBox([w.VBox([w.HBox(r) for r in buttons]), out]))


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: recompute data/hanabi_hint_capacity.csv on any executor."""
    parser = argparse.ArgumentParser(prog="python -m puzzlelab.hanabi.notebook",
                                     description=main.__doc__)
    parser.add_argument("--samples", type=int, default=CAPACITY_SAMPLES,
                        help=f"random tables per point (default {CAPACITY_SAMPLES}, "
                             "as in the notebook)")
    sweeps.add_executor_arguments(parser)
    args = parser.parse_args(argv)
    with sweeps.executor_from_arguments(args) as (executor, workers):
        study = hint_capacity_study(samples=args.samples, executor=executor, workers=workers)
    print(f"wrote {write_table(study, CAPACITY_TABLE)}")


if __name__ == "__main__":
    main()
