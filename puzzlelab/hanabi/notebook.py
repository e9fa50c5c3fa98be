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
from .knowledge import hint_capacity_study, holes
from .model import COLOURS, VALUES, HintTable, as_table, hint_mask, possibility_table
from .solvers import max_hint_partition

__all__ = [
    "CAPACITY_SAMPLES", "CAPACITY_TABLE", "capacity_summary", "describe_cards", "explore_partition",
    "hint_capacity_table", "partition_view", "plot_hint_capacity", "plot_mixing_gain",
    "toggle_table",
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
    executor, workers = checks.sweep_options(executor, workers)
    return cached_table(CAPACITY_TABLE, lambda: hint_capacity_study(
        samples=CAPACITY_SAMPLES, executor=executor, workers=workers))


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
    """Bits one hint can carry (log2 of the parts of a maximum partition) against hints received."""
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
    """Share of tables where parts mixing colours and values beat the two kinds packed apart."""
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
    """Mean bits per hint (mixed parts) by hand size and cards face up, after some hints."""
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
    """A maximum partition: each group (part), a card that certifies it, what that card may be."""
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
    """A grid of toggle buttons (one per table cell) redrawing `explore_partition` on each click."""
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
    sweeps.command_line(main)
