"""Figures and explorations for the hat problem notebook (thesis Figures 4.2 and 5.x, extended)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..figures import finish
from .chains import chain_crossings, chains
from .model import (
    LETTERS, answers, check_world, deal_to_strings, parse_deal, round_to_string, rounds, rounds_correct,
    won_mask,
)
from .sets import canonical_deal

AGENT_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan"]


def hypercube_layout(n_players: int) -> np.ndarray:
    """2-D positions of the 2**N rounds: a sum of one skewed vector per hat (distinct for N <= 8)."""
    n, _ = check_world(n_players, 2)
    presets = {
        2: [(1, 0), (0, 1)],
        3: [(1, 0), (0, 1), (0.45, 0.3)],
        4: [(1, 0), (0, 1), (0.45, 0.3), (2.2, 0.6)],
        5: [(1, 0), (0, 1), (0.45, 0.3), (2.2, 0.6), (0.5, 2.1)],
    }
    if n in presets:
        vec = np.array(presets[n], dtype=float)
    else:
        vec = np.array([(math.cos(math.pi * j / n) * (1 + 0.3 * j), math.sin(math.pi * j / n) * (1 + 0.3 * j)) for j in range(n)])
    pts = np.array(rounds(n, 2), dtype=float) @ vec
    return pts


def plot_chain_crossing(name: str | None = "hats_chain_crossing") -> Figure:
    """Thesis Figure 4.2: the 8 chains of N = 3 and which pairs cross (and at which agent)."""
    n = 3
    pos = hypercube_layout(n)
    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    for a, b, agent in chain_crossings(n):
        (x0, y0), (x1, y1) = pos[a - 1], pos[b - 1]
        ax.plot([x0, x1], [y0, y1], color=AGENT_COLOURS[agent - 1], lw=2.2, zorder=1)
        ax.text((x0 + x1) / 2, (y0 + y1) / 2, f"{agent}", fontsize=8, color=AGENT_COLOURS[agent - 1],
                ha="center", va="center", bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"))
    for ch in chains(n):
        x, y = pos[ch.number - 1]
        ax.scatter([x], [y], s=900, color="white", edgecolor="black", zorder=2)
        ax.text(x, y, f"{ch.number}\n{round_to_string(ch.incorrect)}", ha="center", va="center", fontsize=8, zorder=3)
    handles = [plt.Line2D([], [], color=AGENT_COLOURS[i], lw=2.2, label=f"cross at agent {i + 1}") for i in range(n)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.6), fontsize=8, frameon=False)
    ax.set_title("Chain crossing for N = 3 (chains named by their incorrect round):\nthe crossing graph is the cube Q3")
    ax.set_axis_off()
    ax.set_aspect("equal")
    return finish(fig, name)


def plot_hypercube(deal, n_colors: int = 2, title: str = "", name: str | None = None, ax=None) -> Figure:
    """A deal on the hypercube of rounds: won rounds (green dots), lost (red crosses), guesses as arrows."""
    d = parse_deal(deal, n_colors)
    n = d.shape[0]
    if n_colors != 2:
        raise ValueError("the hypercube picture needs two colours")
    pos = hypercube_layout(n)
    won = won_mask(d, 2)
    ans = answers(d, 2)
    own_fig = ax is None
    if own_fig:
        fig, ax = plt.subplots(figsize=(4.2 + 0.9 * max(0, n - 3), 3.6 + 0.8 * max(0, n - 3)))
    else:
        fig = ax.figure
    for x in range(2**n):
        for j in range(n):
            y = x ^ (1 << (n - 1 - j))
            if x < y:
                ax.plot(*zip(pos[x], pos[y]), color="0.85", lw=0.8, zorder=0)
    for j in range(n):  # a guess by agent j+1: an arrow from the round it gets wrong to the one it gets right
        for x in np.flatnonzero(ans[j] == 1):
            y = x ^ (1 << (n - 1 - j))
            if ans[j, y] == -1:
                ax.annotate("", xy=pos[x], xytext=pos[y], zorder=1,
                            arrowprops=dict(arrowstyle="->", color=AGENT_COLOURS[j], lw=1.2, shrinkA=5, shrinkB=6))
    ax.scatter(*pos[won].T, s=60, color="tab:green", zorder=2, label=f"won ({int(won.sum())})")
    ax.scatter(*pos[~won].T, s=70, marker="X", color="tab:red", zorder=2, label=f"lost ({int((~won).sum())})")
    if n <= 4:
        for x, r in enumerate(rounds(n, 2)):
            ax.text(pos[x, 0], pos[x, 1] + 0.12, round_to_string(r), ha="center", fontsize=6.5, zorder=3)
    ax.set_title(title or f"N = {n}: {rounds_correct(d, 2)} of the rounds won", fontsize=9, pad=14)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=8, frameon=False)
    ax.set_axis_off()
    ax.set_aspect("equal")
    return finish(fig, name) if own_fig else fig


def plot_optimal_hypercubes(witnesses: dict[int, int], name: str | None = "hats_optimal_hypercubes") -> Figure:
    """Optimal deals for N = 3, 4, 5 on the hypercube (witness won sets given as bitmasks)."""
    ns = sorted(witnesses)
    fig, axes = plt.subplots(1, len(ns), figsize=(5.0 * len(ns), 5.2), gridspec_kw={"width_ratios": [1, 1.5, 2][: len(ns)]})
    for ax, n in zip(np.atleast_1d(axes), ns):
        deal = canonical_deal(witnesses[n], n)
        plot_hypercube(deal, 2, title=f"N = {n}: {witnesses[n].bit_count()} of {2**n} rounds won", ax=ax)
    fig.suptitle("Optimal deals (arrow: a guess, from the round it gets wrong to the round it gets right);\n"
                 "the lost rounds (red) form a minimum covering code of radius 1", fontsize=11)
    return finish(fig, name)


def plot_win_rate(table: pd.DataFrame, name: str | None = "hats_win_rate") -> Figure:
    """Optimum win rate per N against the thesis's Table 5.3 and Theorem 6, and the N/(N+1) bound."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(table.n_players, table.optimum_rate, "o-", color="tab:green", label="exact optimum (ours)")
    ax.plot(table.n_players, table.counting_bound_rate, ":", color="0.4", label="bound N/(N+1)")
    t = table.dropna(subset=["thesis_rate"])
    ax.plot(t.n_players, t.thesis_rate, "s--", color="tab:red", label="thesis Table 5.3 (prediction)")
    ax.plot(table.n_players, table.theorem6_rate, "^:", color="tab:orange", label="thesis Theorem 6 formula")
    ax.set_xlabel("players N (two colours)")
    ax.set_ylabel("fraction of rounds won")
    ax.set_ylim(0.45, 1.0)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.set_title("Best win rate per number of players")
    return finish(fig, name)


def plot_maximal_distribution(table: pd.DataFrame, name: str | None = "hats_maximal_distribution") -> Figure:
    """Number of maximal won sets by fraction of rounds won, one panel per N."""
    ns = sorted(table.n_players.unique())
    fig, axes = plt.subplots(1, len(ns), figsize=(3.3 * len(ns), 3.0))
    for ax, n in zip(np.atleast_1d(axes), ns):
        t = table[table.n_players == n]
        bars = ax.bar(t.won_rounds, t.maximal_sets, color="tab:blue")
        ax.bar_label(bars, fontsize=7)
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
        ax.margins(y=0.15)
        ax.set_title(f"N = {n} ({int(t.maximal_sets.sum())} sets)", fontsize=9)
        ax.set_xlabel("won rounds")
    np.atleast_1d(axes)[0].set_ylabel("maximal won sets")
    fig.tight_layout()
    return finish(fig, name)


# --- explorations ------------------------------------------------------------------------------

PRESETS = ("equal views: guess the other colour", "one player always guesses the first colour",
           "parity: everybody bets on an even number of Blue hats", "best known (optimal where proven)", "always pass", "custom")


def best_known_won_set(n_players: int, n_colors: int = 2) -> int:
    """The won set of the best deal we know: the cached optima table's witness (optimal where proven).

    Worlds outside that table (up to 256 rounds) run `optimum_bounds` with a small deterministic
    CP-SAT limit and a fixed local search, so the preset never depends on the machine's speed.
    """
    from .optima import optimum_bounds
    from .results import optimum_table

    n, m = check_world(n_players, n_colors)
    if m**n > 256:
        raise ValueError(f"optimal presets are offered up to 256 rounds; N = {n}, M = {m} has {m**n}")
    table = optimum_table().set_index(["n_players", "n_colors"])
    if (n, m) in table.index:
        return int(table.witness_hex[(n, m)], 16)
    return optimum_bounds(n, m, time_limit=600, search_steps=2000, deterministic_limit=2.0).witness


def preset_deal(preset: str, n_players: int, n_colors: int = 2) -> np.ndarray:
    """A named deal: the thesis's Section 2.2 example generalised, single guesser, parity, optimal, pass."""
    n, m = check_world(n_players, n_colors)
    vs = list(__import__("itertools").product(range(m), repeat=n - 1))
    deal = np.full((n, m ** (n - 1)), -1, dtype=np.int8)
    if preset == PRESETS[0]:
        for k, v in enumerate(vs):
            if len(set(v)) == 1:
                deal[:, k] = (v[0] + 1) % m
    elif preset == PRESETS[1]:
        deal[0, :] = 0
    elif preset == PRESETS[2]:
        if m != 2:
            raise ValueError("the parity deal is defined for two colours")
        for k, v in enumerate(vs):
            deal[:, k] = sum(v) % 2  # the colour that makes the number of Blue (1) hats even
    elif preset == PRESETS[3]:
        deal = canonical_deal(best_known_won_set(n, m), n, m)
    elif preset == PRESETS[4]:
        pass
    else:
        raise ValueError(f"unknown preset {preset!r}; choose from {PRESETS}")
    return deal


def explore_deal(n_players: int = 3, n_colors: int = 2, preset: str = PRESETS[0], custom: str = "") -> pd.DataFrame:
    """Every round of a deal: each player's answer, won or lost, and the deal's scores in the last rows."""
    n, m = check_world(n_players, n_colors)
    if m**n > 256:
        raise ValueError(f"explore_deal lists at most 256 rounds; N = {n}, M = {m} has {m**n}")
    if preset == "custom":
        parts = [p for p in custom.replace(",", " ").split() if p]
        if len(parts) != n:
            raise ValueError(f"custom deal needs {n} strategies separated by spaces, got {len(parts)}")
        deal = parse_deal(parts, m)
    else:
        deal = preset_deal(preset, n, m)
    ans = answers(deal, m)
    mark = {1: "right", -1: "wrong", 0: "pass"}
    rows = []
    for x, r in enumerate(rounds(n, m)):
        row = {"round": "".join(LETTERS[c] for c in r)}
        for i in range(n):
            row[f"agent {i + 1}"] = mark[int(ans[i, x])]
        row["won"] = "won" if (ans[:, x] == 1).any() and not (ans[:, x] == -1).any() else "lost"
        rows.append(row)
    df = pd.DataFrame(rows)
    strings = deal_to_strings(deal, m)
    df.attrs["deal"] = strings
    score = rounds_correct(deal, m)
    footer = {"round": "deal", **{f"agent {i + 1}": strings[i] for i in range(n)}, "won": f"{score} = {float(score):.1%}"}
    return pd.concat([df, pd.DataFrame([footer])], ignore_index=True)


def explore_hypercube(n_players: int = 4, preset: str = PRESETS[3], custom: str = "") -> Figure:
    """A two-colour deal (preset or custom strings) drawn on the hypercube of rounds."""
    n, _ = check_world(n_players, 2)
    if n > 6:
        raise ValueError("the hypercube picture is drawn for at most 6 players")
    if preset == "custom":
        parts = [p for p in custom.replace(",", " ").split() if p]
        if len(parts) != n:
            raise ValueError(f"custom deal needs {n} strategies separated by spaces, got {len(parts)}")
        deal = parse_deal(parts, 2)
    else:
        deal = preset_deal(preset, n, 2)
    return plot_hypercube(deal, 2, name=None)
