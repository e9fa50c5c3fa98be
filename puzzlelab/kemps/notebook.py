"""The Kemps notebook's views: tables as the reader reads them, figures and explorations
(group6_kemps2023).

The tables themselves (`data/kemps_*.csv`) are read and computed by `tables`.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import checks
from ..figures import finish
from . import knowledge as K
from .cards import FULL, Deck, make_deck
from .game import GameRecord
from .matches import play
from .source import trace_table
from .summaries import seats_from_sums
from .tables import long_run, tournament_games
from .tournament import seat_differences

__all__ = [
    "DUELS", "LINEUPS", "MAP_LABELS", "MILLION", "STRATEGY_NAMES", "deals_curve", "explore_game",
    "explore_knowledge", "first_seed", "game_status", "game_stepper", "headline_wins",
    "knowledge_map", "million_seats", "named", "plot_deals_curve", "plot_lineup_heatmap",
    "plot_seat_effects", "plot_strategy_bars", "plot_value_submodels", "seat_grid",
    "submodel_table", "with_interval",
]

STATE_OF = {K.NOBODY: 0, **{mask: p + 1 for p, mask in enumerate(K.HOLDER)}}  # mask -> s0..s3
STRATEGY_NAMES = {"greedy": "Greedy", "kb-greedy": "KB Greedy", "blocking": "Blocking",
                  "tom": "Bold+ToM", "bold": "Bold"}  # as the reader reads them


def named(label: object) -> object:
    """A strategy or line-up as the reader reads it: 'kb-greedy/tom/tom' -> 'KB Greedy, Bold+ToM,
    Bold+ToM'. Any other label (a deck size, seats '1 - 3') comes back unchanged, so `named`
    maps over every label of a table."""
    parts = label.split("/") if isinstance(label, str) else []
    if parts and all(part in STRATEGY_NAMES for part in parts):
        return ", ".join(STRATEGY_NAMES[part] for part in parts)
    return label


# ----- tables side by side ---------------------------------------------------------------
MILLION = {28: "kemps_million_28", 52: "kemps_million_52"}  # long runs: tables.LONG_RUNS


def million_seats() -> pd.DataFrame:
    """Seat differences in win share per self-play line-up and deck: the 1,000-deal tournament
    (columns *_1000) beside a million deals (the same first 1,000 and 999,000 more)."""
    out = []
    for cards, name in MILLION.items():
        big = seats_from_sums(long_run(name))
        small = seat_differences(tournament_games(f"kemps_tournament_{cards}"))
        big = big[big["scope"] != "all line-ups"]  # there: pooled self-play, not all 64
        both = big.merge(small, on=["scope", "seats"], suffixes=("", "_1000"))
        out.append(both.assign(cards=cards, lineup=both["scope"].str.removesuffix(" self-play")))
    return pd.concat(out, ignore_index=True)[
        ["cards", "lineup", "seats", "deals_1000", "win_diff_1000", "ci_1000", "significant_1000",
         "deals", "win_diff", "ci", "significant"]]


def with_interval(means: pd.Series, cis: pd.Series, digits: int = 3) -> pd.Series:
    """'mean ± half-width' labels, e.g. '0.421 ± 0.003'."""
    digits = checks.integer(digits, "digits", low=0, high=6)
    if not (isinstance(means, pd.Series) and isinstance(cis, pd.Series)
            and means.index.equals(cis.index)):
        raise checks.ArgumentTypeError("means and cis must be Series with the same index")
    return pd.Series([f"{m:.{digits}f} ± {c:.{digits}f}" for m, c in zip(means, cis)],
                     index=means.index, dtype=object)


DUELS = (("greedy", "kb-greedy"), ("greedy", "blocking"), ("blocking", "kb-greedy"))


def headline_wins(strategies: pd.DataFrame, duels: pd.DataFrame) -> pd.DataFrame:
    """The win shares the findings quote, with 95% intervals: each strategy over all line-ups
    (rows of `by_strategy`) and a lone agent between two copies of another (rows of
    `head_to_head` for DUELS), with what each of the two others wins."""
    s = _frame(strategies, ["strategy", "win_share", "win_ci"]).set_index("strategy")
    d = _frame(duels, ["focal", "against", "focal_win", "focal_win_ci", "other_win",
                       "other_win_ci"]).set_index(["focal", "against"])
    rows = [{"who": f"{named(name)}, all line-ups", "wins": s.loc[name, "win_share"],
             "wins_ci": s.loc[name, "win_ci"], "others": np.nan, "others_ci": np.nan}
            for name in s["win_share"].sort_values(ascending=False).index]
    rows += [{"who": f"{named(f)} between two {named(o)}", "wins": d.loc[(f, o), "focal_win"],
              "wins_ci": d.loc[(f, o), "focal_win_ci"], "others": d.loc[(f, o), "other_win"],
              "others_ci": d.loc[(f, o), "other_win_ci"]} for f, o in DUELS if (f, o) in d.index]
    return pd.DataFrame(rows).set_index("who")


def seat_grid(seats: pd.DataFrame, suffix: str = "") -> pd.DataFrame:
    """Seat differences as a grid: one row per deck and line-up, one column per pair of seats,
    cells 'difference ± half-width' (* where the interval excludes 0)."""
    suffix = checks.choice(suffix, "suffix", ["", "_1000"])
    t = _frame(seats, ["cards", "lineup", "seats", f"win_diff{suffix}", f"ci{suffix}",
                       f"significant{suffix}"])
    cell = [f"{d:+.4f} ± {c:.4f}{' *' if s else ''}" for d, c, s in
            zip(t[f"win_diff{suffix}"], t[f"ci{suffix}"], t[f"significant{suffix}"])]
    return t.assign(cell=cell).pivot(index=["cards", "lineup"], columns="seats", values="cell")


def first_seed(strategies: Sequence, deck: Deck | Sequence[int],
               test: Callable[[GameRecord], bool], start: int = 0, tries: int = 10_000) -> int:
    """The first seed >= start whose game passes `test` (how the example runs are chosen)."""
    start = checks.seed(start, "start")
    tries = checks.integer(tries, "tries", low=1, high=100_000)
    if not callable(test):
        raise checks.ArgumentTypeError(f"test must be a function of a GameRecord, got {test!r}")
    deck = make_deck(deck)
    for seed in range(start, start + tries):
        if test(play(strategies, seed, deck)):
            return seed
    raise ValueError(f"no seed in [{start}, {start + tries}) gives such a game")


# ----- knowledge pictures ---------------------------------------------------------------
STATE_XY = {0: (0.0, 0.0), 1: (-1.0, 1.0), 2: (0.0, 1.6), 3: (1.0, 1.0)}
AGENT_COLORS = ("tab:blue", "tab:orange", "tab:green")


def _draw_submodel(ax: plt.Axes, kbs: Sequence[Sequence[int]], truth: int, card: int,
                   title: str) -> None:
    """One card's Kripke sub-model: states s0..s3, the true one ringed, agent i's links in its
    colour."""
    offsets = (-0.06, 0.0, 0.06)
    for i, kb in enumerate(kbs):
        states = K.possible_holders(list(kb), card)
        for a in states:
            for b in states:
                if a < b:
                    (x1, y1), (x2, y2) = STATE_XY[a], STATE_XY[b]
                    ax.plot([x1 + offsets[i], x2 + offsets[i]], [y1 + offsets[i], y2 + offsets[i]],
                            color=AGENT_COLORS[i], lw=2, alpha=0.8, label=f"R{i + 1}")
    true_state = STATE_OF[truth]
    for s, (x, y) in STATE_XY.items():
        ax.scatter([x], [y], s=700, color="white", edgecolor="black", zorder=3,
                   linewidth=3 if s == true_state else 1)
        ax.text(x, y, f"s{s}", ha="center", va="center", zorder=4, fontsize=11,
                fontweight="bold" if s == true_state else "normal")
    ax.set_title(title, fontsize=12)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-0.5, 2.1)
    ax.axis("off")


def _snapshot(rec: object, turn: object) -> dict:
    """The knowledge snapshot of a game (played with knowledge=True) after `turn` turns."""
    if not isinstance(rec, GameRecord) or not rec.snapshots:
        raise checks.ArgumentTypeError(
            f"rec must be a game played with knowledge=True, got {rec!r}")
    return rec.snapshots[checks.integer(turn, "turn", low=0, high=len(rec.snapshots) - 1)]


def _value_index(rec: GameRecord, value: object) -> int:
    """The value index of face value `value` in the game's deck."""
    value = checks.choice(checks.integer(value, "value"), "value", rec.deck.values)
    return rec.deck.values.index(value)


def plot_value_submodels(rec: GameRecord, value: int, turns: Sequence[int],
                         name: str | None = None) -> plt.Figure:
    """The sub-models of the four cards of `value` after each of `turns` (report Section 3.4)."""
    name = _figure_name(name)
    snaps = [_snapshot(rec, t) for t in checks.integers(turns, "turns")][:8]
    if not snaps:
        raise ValueError("turns must name at least one turn")
    d, v = rec.deck, _value_index(rec, value)
    fig, axes = plt.subplots(len(snaps), 4, figsize=(12, 2.9 * len(snaps)), squeeze=False)
    for row, (turn, snap) in enumerate(zip(turns, snaps)):
        for s in range(4):
            c = 4 * v + s
            _draw_submodel(axes[row][s], snap["kb"], snap["truth"][c], c,
                          f"{d.name(c)} after turn {turn}" if turn else f"{d.name(c)}, deal")
    handles = [plt.Line2D([], [], color=c, lw=2) for c in AGENT_COLORS]
    fig.legend(handles, [f"player {i + 1} cannot tell apart" for i in range(3)],
               loc="lower center", ncol=3)
    fig.subplots_adjust(bottom=0.08)
    return finish(fig, name)


def submodel_table(rec: GameRecord, value: int, turn: int) -> pd.DataFrame:
    """For the four cards of `value` after `turn`: the true state and the states each player
    considers possible."""
    snap = _snapshot(rec, turn)
    d, v = rec.deck, _value_index(rec, value)
    rows = []
    for c in range(4 * v, 4 * v + 4):
        row = {"card": d.name(c), "true state": f"s{STATE_OF[snap['truth'][c]]}"}
        for p, kb in enumerate(snap["kb"]):
            states = K.possible_holders(list(kb), c)
            row[f"player {p + 1} considers"] = ",".join(f"s{s}" for s in states)
        rows.append(row)
    return pd.DataFrame(rows)


def deals_curve(rec: GameRecord) -> pd.DataFrame:
    """log10 of the number of deals each agent still considers possible, after every turn."""
    _snapshot(rec, 0)
    rows = []
    for snap in rec.snapshots:
        sizes = [len(h) for h in snap["hands"]]
        row = {"turn": snap["turn"]}
        for p, kb in enumerate(snap["kb"]):
            count = K.deals_possible(list(kb), p, sizes)
            row[f"player {p + 1}"] = math.log10(count) if count else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def plot_deals_curve(rec: GameRecord, name: str | None = None) -> plt.Figure:
    """The deals-still-possible curve, with table changes and Kemps marked."""
    name = _figure_name(name)
    df = deals_curve(rec)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for p in range(3):
        ax.step(df["turn"], df[f"player {p + 1}"], where="post", color=AGENT_COLORS[p],
                label=f"player {p + 1} ({named(rec.strategies[p])})")
    for t in rec.trace:
        if t.new_table:
            ax.axvline(t.turn + 1, color="grey", lw=0.6, ls=":")
        if t.kemps is not None:
            ax.axvline(t.turn + 1, color="red", lw=0.8)
    ax.set_xlabel("turn (dotted: new table, red: Kemps)")
    ax.set_ylabel("log10(deals considered possible)")
    ax.set_title(f"{rec.deck.n}-card deck, seed {rec.seed}")
    ax.legend(fontsize=8)
    return finish(fig, name)


# ----- knowledge map and widgets --------------------------------------------------------
def knowledge_map(kb: Sequence[int], me: int) -> np.ndarray:
    """For agent `me` and each card: 0 mine, 1 with nobody, 2..4 known with player 1..3, 5
    unsure."""
    kb = K.check_kb(list(kb) if isinstance(kb, tuple) else kb)
    mine = K.holder(me)
    return np.array([0 if mask == mine else 1 + STATE_OF[mask] if mask in STATE_OF else 5
                     for mask in kb])


MAP_LABELS = ("mine", "nobody", "player 1", "player 2", "player 3", "unsure")
MAP_COLORS = ("black", "lightgrey", *AGENT_COLORS, "khaki")


def explore_knowledge(seed: int = 0, deck_values: int = 7,
                      lineup: str = "greedy/kb-greedy/blocking", turn: int = 0) -> plt.Figure:
    """Each agent's knowledge of every card after `turn` of a seeded game (a grid of cards by
    agent)."""
    from matplotlib.colors import ListedColormap

    turn = checks.integer(turn, "turn", low=0)
    rec = _game(seed, deck_values, lineup)
    turn = min(turn, len(rec.snapshots) - 1)  # past the end: the final position
    snap, d = rec.snapshots[turn], rec.deck
    truth = [1 + STATE_OF[t] for t in snap["truth"]]
    grid = np.array([*(knowledge_map(snap["kb"][p], p) for p in range(3)), truth])
    # as wide as a page of the site (figures.PAGE_WIDTH_PX), so that no label is shrunk
    fig, ax = plt.subplots(figsize=(6.8, 3.4))
    ax.imshow(grid, cmap=ListedColormap(MAP_COLORS), vmin=0, vmax=5, aspect="auto")
    ax.axhline(2.5, color="white", lw=3)
    ax.set_yticks(range(4), [*(f"P{p + 1} {named(rec.strategies[p])}" for p in range(3)),
                             "true holder"],
                  fontsize=9)
    ax.set_xticks(range(d.n), [d.name(c) for c in range(d.n)], rotation=90,
                  fontsize=9 if d.n <= 32 else 7)
    ax.set_title(f"what each player knows after turn {turn} (scores {snap['scores']})",
                 fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in MAP_COLORS]
    fig.legend(handles, MAP_LABELS, ncol=6, fontsize=9, loc="lower center", frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return finish(fig)


RECENT = 10  # turns shown by the step-through view
LINEUPS = ["/".join(t) for t in itertools.product(("greedy", "kb-greedy", "blocking", "tom"),
                                                   repeat=3)]


def explore_game(seed: int = 0, deck_values: int = 5, lineup: str = "greedy/greedy/greedy",
                 turn: int = 3) -> pd.DataFrame:
    """The last turns (at most RECENT) of a seeded game up to `turn`, as the report's tables;
    the index is the turn number. A turn past the end shows the game's last turns."""
    turn = checks.integer(turn, "turn", low=1)
    rec = _game(seed, deck_values, lineup)
    turn = min(turn, rec.turns)
    table = trace_table(rec, turn).iloc[-RECENT:]
    table.index = pd.RangeIndex(turn - len(table) + 1, turn + 1, name="turn")
    return table


def game_status(seed: int = 0, deck_values: int = 5, lineup: str = "greedy/greedy/greedy",
                turn: int = 3) -> str:
    """'turn t of T', and when t is the last turn, how the game ended and the scores."""
    turn = checks.integer(turn, "turn", low=1)
    rec = _game(seed, deck_values, lineup)
    if turn < rec.turns:
        return f"turn {turn} of {rec.turns}"
    return (f"turn {rec.turns} of {rec.turns}: the game is over ({rec.end}); "
            f"Kemps per player {rec.scores}")


def game_stepper(seed: int = 0, deck_values: int = 5,
                 lineup: str = "kb-greedy/kb-greedy/kb-greedy") -> None:
    """Step through a seeded game: the turn slider's range follows the chosen game's length."""
    import ipywidgets as w
    from IPython.display import display

    from ..widgets import Message

    seed_box = w.IntText(checks.seed(seed), description="seed")
    deck_box = w.IntSlider(checks.integer(deck_values, "deck_values", low=5, high=13), 5, 13,
                           description="card values")
    lineup_box = w.Dropdown(options=LINEUPS, value=checks.choice(lineup, "lineup", LINEUPS),
                            description="line-up")
    turn_box = w.IntSlider(1, 1, 1, description="turn")
    out = w.Output()

    def show(change: object = None) -> None:
        args = (seed_box.value, deck_box.value, lineup_box.value)
        out.clear_output(wait=True)
        with out:
            try:
                turns = _game(*args).turns
            except ValueError as err:
                display(Message(str(err)))
                return
            if turn_box.max != turns:  # the new game's length; keeps the turn when it fits
                turn_box.unobserve(show, "value")
                turn_box.max, turn_box.value = turns, min(turn_box.value, turns)
                turn_box.observe(show, "value")
            display(Message(game_status(*args, turn_box.value)))
            display(explore_game(*args, turn_box.value))

    for box in (seed_box, deck_box, lineup_box, turn_box):
        box.observe(show, "value")
    show()
    display(w.VBox([w.HBox([seed_box, deck_box, lineup_box]), turn_box, out]))


@functools.lru_cache(maxsize=64)
def _played(seed: int, deck_values: int, lineup: str) -> GameRecord:
    deck = FULL if deck_values == 13 else range(2, 2 + deck_values)
    return play(lineup.split("/"), seed, make_deck(deck), knowledge=True, max_turns=300)


def _game(seed: int, deck_values: int, lineup: str) -> GameRecord:
    """A seeded game with knowledge snapshots (at most 300 turns); deck_values counts values
    from 2 up (13: the full deck)."""
    deck_values = checks.integer(deck_values, "deck_values", low=5, high=13)
    return _played(checks.seed(seed), deck_values, checks.text(lineup, "lineup"))


# ----- tournament plots -------------------------------------------------------------------
def _figure_name(name: object) -> str | None:
    """None (not saved) or a figure file name such as 'kemps_seats_52'."""
    if name is not None and not re.fullmatch(r"kemps_[a-z0-9_]{1,40}", checks.text(name, "name")):
        raise ValueError(f"name must look like 'kemps_strategies_52' (or be None), got {name!r}")
    return name


def _frame(table: object, columns: Sequence[str]) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame) or not set(columns) <= set(table.columns) or table.empty:
        raise checks.ArgumentTypeError(f"expected a non-empty table with columns {list(columns)}")
    return table


def plot_strategy_bars(table: pd.DataFrame, title: str, name: str | None = None) -> plt.Figure:
    """Mean Kemps and win share per strategy with 95% CIs (one row per strategy, by_strategy)."""
    name = _figure_name(name)
    table = _frame(table, ["strategy", "kemps_mean", "kemps_ci", "win_share", "win_ci"])
    title = checks.text(title, "title")
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))  # shown at most 688 px wide: text >= 9 px
    for ax, col, ci, label in ((axes[0], "kemps_mean", "kemps_ci", "Kemps per game"),
                               (axes[1], "win_share", "win_ci", "share of wins")):
        ax.barh(table["strategy"].map(named), table[col], xerr=table[ci], color="tab:blue",
                alpha=0.7, capsize=4)
        ax.set_xlabel(label)
    axes[1].axvline(1 / 3, color="grey", ls=":", lw=1)
    fig.suptitle(title)
    fig.tight_layout()
    return finish(fig, name)


def plot_lineup_heatmap(table: pd.DataFrame, focal: str, name: str | None = None) -> plt.Figure:
    """Win share of `focal` in seat 1 against every pair of opponents (seats 2 and 3);
    `table` from lineup_table."""
    name = _figure_name(name)
    table = _frame(table, ["lineup", "seat", "strategy", "win_share"])
    focal = checks.choice(focal, "focal", sorted(set(table["strategy"])))
    sub = table[(table["seat"] == 1) & (table["strategy"] == focal)].copy()
    sub["s2"] = sub["lineup"].map(lambda s: s.split("/")[1])
    sub["s3"] = sub["lineup"].map(lambda s: s.split("/")[2])
    grid = sub.pivot(index="s2", columns="s3", values="win_share").sort_index().sort_index(axis=1)
    fig, ax = plt.subplots(figsize=(5, 4))
    im = ax.imshow(grid.values, cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(grid.columns)), grid.columns.map(named), rotation=30)
    ax.set_yticks(range(len(grid.index)), grid.index.map(named))
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            ax.text(j, i, f"{grid.values[i, j]:.2f}", ha="center", va="center", color="white",
                    fontsize=9)
    ax.set_xlabel("seat 3")
    ax.set_ylabel("seat 2")
    ax.set_title(f"{named(focal)}'s share of wins in seat 1")
    fig.colorbar(im, ax=ax, fraction=0.046)
    return finish(fig, name)


def plot_seat_effects(diffs: pd.DataFrame, name: str | None = None) -> plt.Figure:
    """Paired seat differences in win share over the same deals, with 95% CIs (seat_differences)."""
    name = _figure_name(name)
    diffs = _frame(diffs, ["scope", "seats", "win_diff", "ci", "significant"])
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(diffs) + 1))
    y = np.arange(len(diffs))[::-1]
    for yi, d, ci, sig in zip(y, diffs["win_diff"], diffs["ci"], diffs["significant"]):
        ax.errorbar([d], [yi], xerr=[ci], fmt="o", color="tab:red" if sig else "tab:blue",
                    capsize=3)
    ax.axvline(0, color="grey", lw=1, ls=":")
    scopes = [" ".join(str(named(word)) for word in s.split(" ")) for s in diffs["scope"]]
    ax.set_yticks(y, [f"{s}: seats {p}" for s, p in zip(scopes, diffs["seats"])], fontsize=8)
    ax.set_xlabel("difference in share of wins between seats, same deals "
                  "(red: 95% interval excludes 0)")
    fig.tight_layout()
    return finish(fig, name)
