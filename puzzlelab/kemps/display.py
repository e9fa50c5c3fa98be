"""Tables in the form of the report's Tables 1-3, knowledge pictures (Section 3.4), tournament plots."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..figures import finish
from . import knowledge as K
from .cards import FULL, make_deck
from .engine import GameRecord, Turn
from .play import play
from .strategies import best_group, counts

WORDS = {1: "One", 2: "Pair", 3: "Three of a kind", 4: "Four of a kind"}


def move_text(rec: GameRecord, t: Turn) -> str:
    """The report's Move column: 'Collects 5', 'Collects 3 Discards 6♠ and 8♠', 'Picks 4♠ Discards 8♦', 'No move'."""
    d = rec.deck
    if not t.picked:
        return "No move"
    discards = " and ".join(d.name(c) for c in t.discarded)
    if t.why and t.why[0] == "collect":
        return f"Collects {d.value_label(t.why[1])} Discards {discards}"
    return f"Picks {d.names(t.picked)} Discards {discards}"


def comment_text(rec: GameRecord, t: Turn) -> str:
    """The report's Comment column, from the agent's reason for its move."""
    d, why = rec.deck, t.why
    if t.kemps is not None:
        return "Kemps!"
    kind = why[0] if why else "nothing"
    if kind == "collect":
        if rec.strategies[t.player] == "greedy":
            return f"{WORDS[why[2]]} is the highest"
        if rec.strategies[t.player] in ("kb-greedy", "blocking"):
            return f"Knows that all {d.value_label(why[1])} are available"
        return f"No opponent known to hold a {d.value_label(why[1])}"
    if kind == "block":
        return f"Blocks player {why[2] + 1}"
    if rec.strategies[t.player] != "greedy":  # a KB agent passed: did it want something?
        hc, tc = counts(t.hand, t.table, d.m)
        want, size = best_group(hc, tc)
        if size >= 2 and size > max(hc):
            return f"Wants {d.value_label(want)} but not sure if available"
    return "Nothing to collect"


def trace_table(rec: GameRecord, turns: int | None = None) -> pd.DataFrame:
    """A game as the report's Tables 1-3: Player, Table cards, Hand cards, Move, Comment (+ round)."""
    rows = []
    for t in rec.trace[:turns]:
        rows.append({
            "round": t.round, "Player": f"Player {t.player + 1}", "Table cards": rec.deck.names(t.table),
            "Hand cards": rec.deck.names(sorted(t.hand)), "Move": move_text(rec, t),
            "Comment": comment_text(rec, t),
        })
    return pd.DataFrame(rows)


def first_seed(strategies: Sequence, deck, test: Callable[[GameRecord], bool], start: int = 0,
               tries: int = 10_000) -> int:
    """The first seed >= start whose game passes `test` (how the example runs are chosen)."""
    for seed in range(start, start + tries):
        if test(play(strategies, seed, deck)):
            return seed
    raise ValueError(f"no seed in [{start}, {start + tries}) gives such a game")


# ----- knowledge pictures ---------------------------------------------------------------
STATE_XY = {0: (0.0, 0.0), 1: (-1.0, 1.0), 2: (0.0, 1.6), 3: (1.0, 1.0)}
AGENT_COLORS = ("tab:blue", "tab:orange", "tab:green")


def draw_submodel(ax, kbs: Sequence[Sequence[int]], truth: int, card: int, title: str) -> None:
    """One card's Kripke sub-model: states s0..s3, the true one ringed, agent i's links in its colour."""
    offsets = (-0.06, 0.0, 0.06)
    for i, kb in enumerate(kbs):
        states = K.possible_holders(list(kb), card)
        for a in states:
            for b in states:
                if a < b:
                    (x1, y1), (x2, y2) = STATE_XY[a], STATE_XY[b]
                    ax.plot([x1 + offsets[i], x2 + offsets[i]], [y1 + offsets[i], y2 + offsets[i]],
                            color=AGENT_COLORS[i], lw=2, alpha=0.8, label=f"R{i + 1}")
    true_state = {1: 0, 2: 1, 4: 2, 8: 3}[truth]
    for s, (x, y) in STATE_XY.items():
        ax.scatter([x], [y], s=700, color="white", edgecolor="black", zorder=3,
                   linewidth=3 if s == true_state else 1)
        ax.text(x, y, f"s{s}", ha="center", va="center", zorder=4, fontsize=11,
                fontweight="bold" if s == true_state else "normal")
    ax.set_title(title, fontsize=12)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-0.5, 2.1)
    ax.axis("off")


def plot_value_submodels(rec: GameRecord, value: int, turns: Sequence[int], name: str | None = None):
    """The sub-models of the four cards of `value` after each of `turns` (report Section 3.4)."""
    d = rec.deck
    v = d.values.index(value)
    fig, axes = plt.subplots(len(turns), 4, figsize=(12, 2.9 * len(turns)), squeeze=False)
    for row, turn in enumerate(turns):
        snap = rec.snapshots[turn]
        for s in range(4):
            c = 4 * v + s
            draw_submodel(axes[row][s], snap["kb"], snap["truth"][c], c,
                          f"{d.name(c)} after turn {turn}" if turn else f"{d.name(c)}, deal")
    handles = [plt.Line2D([], [], color=c, lw=2) for c in AGENT_COLORS]
    fig.legend(handles, [f"player {i + 1} cannot tell apart" for i in range(3)], loc="lower center", ncol=3)
    fig.subplots_adjust(bottom=0.08)
    return finish(fig, name)


def submodel_table(rec: GameRecord, value: int, turn: int) -> pd.DataFrame:
    """For the four cards of `value` after `turn`: the true state and the states each player considers possible."""
    d, snap = rec.deck, rec.snapshots[turn]
    v = d.values.index(value)
    rows = []
    for c in range(4 * v, 4 * v + 4):
        row = {"card": d.name(c), "true state": "s" + str({1: 0, 2: 1, 4: 2, 8: 3}[snap["truth"][c]])}
        for p, kb in enumerate(snap["kb"]):
            row[f"player {p + 1} considers"] = ",".join(f"s{s}" for s in K.possible_holders(list(kb), c))
        rows.append(row)
    return pd.DataFrame(rows)


def deals_curve(rec: GameRecord) -> pd.DataFrame:
    """log10 of the number of deals each agent still considers possible, after every turn."""
    rows = []
    for snap in rec.snapshots:
        sizes = [len(h) for h in snap["hands"]]
        row = {"turn": snap["turn"]}
        for p, kb in enumerate(snap["kb"]):
            count = K.deals_possible(list(kb), p, sizes)
            row[f"player {p + 1}"] = math.log10(count) if count else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def plot_deals_curve(rec: GameRecord, name: str | None = None):
    """The deals-still-possible curve, with table changes and Kemps marked."""
    df = deals_curve(rec)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for p in range(3):
        ax.step(df["turn"], df[f"player {p + 1}"], where="post", color=AGENT_COLORS[p],
                label=f"player {p + 1} ({rec.strategies[p]})")
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
def knowledge_map(snap: dict, me: int) -> np.ndarray:
    """For agent `me` and each card: 0 mine, 1 with nobody, 2..4 known with player 1..3, 5 unsure."""
    out = []
    for c, mask in enumerate(snap["kb"][me]):
        if mask == K.holder(me):
            out.append(0)
        elif mask == K.NOBODY:
            out.append(1)
        elif mask in (2, 4, 8):
            out.append(2 + {2: 0, 4: 1, 8: 2}[mask])
        else:
            out.append(5)
    return np.array(out)


MAP_LABELS = ("mine", "nobody", "player 1", "player 2", "player 3", "unsure")
MAP_COLORS = ("black", "lightgrey", *AGENT_COLORS, "khaki")


def explore_knowledge(seed: int = 0, deck_values: int = 7, lineup: str = "greedy/kb-greedy/blocking",
                      turn: int = 0):
    """Each agent's knowledge of every card after `turn` of a seeded game (a grid of cards by agent)."""
    from matplotlib.colors import ListedColormap

    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise ValueError(f"turn must be a non-negative int, got {turn!r}")
    rec = _game(seed, deck_values, lineup)
    turn = min(turn, len(rec.snapshots) - 1)  # past the end: the final position
    snap, d = rec.snapshots[turn], rec.deck
    truth = [1 if t == 1 else 2 + {2: 0, 4: 1, 8: 2}[t] for t in snap["truth"]]
    grid = np.array([*(knowledge_map(snap, p) for p in range(3)), truth])
    fig, ax = plt.subplots(figsize=(max(6, d.n * 0.28), 2.8))
    ax.imshow(grid, cmap=ListedColormap(MAP_COLORS), vmin=0, vmax=5, aspect="auto")
    ax.axhline(2.5, color="white", lw=3)
    ax.set_yticks(range(4), [*(f"P{p + 1} {rec.strategies[p]}" for p in range(3)), "true holder"])
    ax.set_xticks(range(d.n), [d.name(c) for c in range(d.n)], rotation=90, fontsize=7)
    ax.set_title(f"what each player knows after turn {turn} (scores {snap['scores']})", fontsize=9)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in MAP_COLORS]
    ax.legend(handles, MAP_LABELS, ncol=6, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.3))
    return finish(fig)


def explore_game(seed: int = 0, deck_values: int = 5, lineup: str = "greedy/greedy/greedy",
                 turn: int = 3) -> pd.DataFrame:
    """The trace table of a seeded game up to `turn` (the widget that steps through a game)."""
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise ValueError(f"turn must be a positive int, got {turn!r}")
    return trace_table(_game(seed, deck_values, lineup), turn)


def _game(seed: int, deck_values: int, lineup: str) -> GameRecord:
    """A seeded game with knowledge snapshots; deck_values counts values from 2 up (13 = the full deck)."""
    if isinstance(deck_values, bool) or not isinstance(deck_values, int) or not 5 <= deck_values <= 13:
        raise ValueError(f"deck_values must be an int in 5..13, got {deck_values!r}")
    deck = FULL if deck_values == 13 else range(2, 2 + deck_values)
    return play(lineup.split("/"), seed, make_deck(deck), knowledge=True, max_turns=300)


# ----- tournament plots -------------------------------------------------------------------
def plot_strategy_bars(table: pd.DataFrame, title: str, name: str | None = None):
    """Mean Kemps and win share per strategy with 95% CIs (one row per strategy)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2))
    for ax, col, ci, label in ((axes[0], "kemps_mean", "kemps_ci", "mean Kemps per game"),
                               (axes[1], "win_share", "win_ci", "win share")):
        ax.barh(table["strategy"], table[col], xerr=table[ci], color="tab:blue", alpha=0.7, capsize=4)
        ax.set_xlabel(label)
    axes[1].axvline(1 / 3, color="grey", ls=":", lw=1)
    fig.suptitle(title)
    fig.tight_layout()
    return finish(fig, name)


def plot_lineup_heatmap(table: pd.DataFrame, focal: str, name: str | None = None):
    """Win share of `focal` in seat 1 against every pair of opponents (seats 2 and 3); `table` from lineup_table."""
    sub = table[(table["seat"] == 1) & (table["strategy"] == focal)].copy()
    sub["s2"] = sub["lineup"].map(lambda s: s.split("/")[1])
    sub["s3"] = sub["lineup"].map(lambda s: s.split("/")[2])
    grid = sub.pivot(index="s2", columns="s3", values="win_share").sort_index().sort_index(axis=1)
    fig, ax = plt.subplots(figsize=(5, 4))
    im = ax.imshow(grid.values, cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(grid.columns)), grid.columns, rotation=30)
    ax.set_yticks(range(len(grid.index)), grid.index)
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            ax.text(j, i, f"{grid.values[i, j]:.2f}", ha="center", va="center", color="white", fontsize=9)
    ax.set_xlabel("seat 3")
    ax.set_ylabel("seat 2")
    ax.set_title(f"win share of {focal} in seat 1")
    fig.colorbar(im, ax=ax, fraction=0.046)
    return finish(fig, name)


def plot_seat_effects(diffs: pd.DataFrame, name: str | None = None):
    """Paired seat differences in win share over the same deals, with 95% CIs (from seat_differences)."""
    fig, ax = plt.subplots(figsize=(7, 0.32 * len(diffs) + 1))
    y = np.arange(len(diffs))[::-1]
    for yi, d, ci, sig in zip(y, diffs["win_diff"], diffs["ci"], diffs["significant"]):
        ax.errorbar([d], [yi], xerr=[ci], fmt="o", color="tab:red" if sig else "tab:blue", capsize=3)
    ax.axvline(0, color="grey", lw=1, ls=":")
    ax.set_yticks(y, [f"{s}: seat {p}" for s, p in zip(diffs["scope"], diffs["seats"])], fontsize=8)
    ax.set_xlabel("win share difference between seats, same deals (red: 95% CI excludes 0)")
    fig.tight_layout()
    return finish(fig, name)
