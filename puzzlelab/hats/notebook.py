"""The hat notebook's views: figures, explorations and display helpers (janssen2017, extended).

Figures follow the thesis's Figures 4.2 and 5.x; `explore_*` functions back the notebook's
interactive cells; the table helpers write rows of the optima table (`tables`) in the thesis's
letter notation and big counts short. The tables themselves are read through `tables`.
"""

from __future__ import annotations

import itertools
import math
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import checks
from ..figures import finish
from .chains import chain_crossings, chains
from .model import answers, deal_to_strings, parse_deal, rounds_correct, won_mask
from .optima import hamming_coset_check, hamming_lost_set
from .sets import canonical_deal, valid_lost_mask
from .tables import optimum_table
from .world import LETTERS, check_world, round_to_string, rounds

__all__ = [
    "AGENT_COLOURS", "HAMMING_BUILT", "PRESETS", "PRESET_ROUNDS", "VIEW_ORDERS",
    "best_deal_letters", "best_known_won_set", "explore_deal", "explore_hypercube",
    "hamming_row", "hypercube_layout", "power_of_two_text", "open_case_deals",
    "open_world_runs",
    "plot_chain_crossing", "plot_hypercube", "plot_maximal_distribution",
    "plot_optimal_hypercubes", "plot_win_rate", "preset_deal",
]


def _frame(table: object, name: str, columns: tuple[str, ...]) -> pd.DataFrame:
    """A DataFrame with (at least) the named columns."""
    return checks.table(table, name, columns)


AGENT_COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink",
                 "tab:olive", "tab:cyan"]


def hypercube_layout(n_players: int) -> np.ndarray:
    """2-D positions of the 2**N rounds: a sum of one skewed vector per hat (N <= 8)."""
    n = checks.integer(n_players, "n_players", low=2, high=8)
    presets = {
        2: [(1, 0), (0, 1)],
        3: [(1, 0), (0, 1), (0.45, 0.3)],
        4: [(1, 0), (0, 1), (0.45, 0.3), (2.2, 0.6)],
        5: [(1, 0), (0, 1), (0.45, 0.3), (2.2, 0.6), (0.5, 2.1)],
    }
    if n in presets:
        vec = np.array(presets[n], dtype=float)
    else:
        vec = np.array([(math.cos(math.pi * j / n) * (1 + 0.3 * j),
                         math.sin(math.pi * j / n) * (1 + 0.3 * j)) for j in range(n)])
    pts = np.array(rounds(n, 2), dtype=float) @ vec
    return pts


FONT = 12  # points: at about 100 pixels an inch, as large as the notebook's body text


def plot_chain_crossing(name: str | None = "hats_chain_crossing") -> Figure:
    """Thesis Figure 4.2: the 8 chains of N = 3 and which pairs cross (and at which player)."""
    n = 3
    pos = hypercube_layout(n)
    fig, ax = plt.subplots(figsize=(8.0, 6.0))
    for a, b, agent in chain_crossings(n):
        (x0, y0), (x1, y1) = pos[a - 1], pos[b - 1]
        ax.plot([x0, x1], [y0, y1], color=AGENT_COLOURS[agent - 1], lw=2.5, zorder=1)
    for ch in chains(n):
        x, y = pos[ch.number - 1]
        ax.scatter([x], [y], s=2300, color="white", edgecolor="black", zorder=2, clip_on=False)
        ax.text(x, y, f"{ch.number}\n{round_to_string(ch.incorrect)}", ha="center", va="center",
                fontsize=FONT, zorder=3)
    handles = [plt.Line2D([], [], color=AGENT_COLOURS[i], lw=2.5,
                          label=f"they cross at player {i + 1}") for i in range(n)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 0.7), fontsize=FONT,
              frameon=False, title="edge colour", title_fontsize=FONT)
    ax.set_title("Chain crossing for N = 3: each circle is a chain (its number and its\n"
                 "incorrect round); the crossing graph is the cube", fontsize=FONT + 1)
    ax.margins(0.18)  # room for the circles at the corners
    ax.set_axis_off()
    ax.set_aspect("equal")
    return finish(fig, name)


def _draw_cube_edges(ax: plt.Axes, pos: np.ndarray, n: int) -> None:
    for x in range(2**n):
        for j in range(n):
            y = x ^ (1 << (n - 1 - j))
            if x < y:
                ax.plot(*zip(pos[x], pos[y]), color="0.85", lw=0.8, zorder=0)


def _draw_guesses(ax: plt.Axes, pos: np.ndarray, ans: np.ndarray) -> list:
    """One arrow per guess, from the round it gets wrong to the one it gets right; legend handles."""
    n = ans.shape[0]
    handles = []
    for j in range(n):
        drawn = False
        for x in np.flatnonzero(ans[j] == 1):
            y = x ^ (1 << (n - 1 - j))
            if ans[j, y] == -1:
                ax.annotate("", xy=pos[x], xytext=pos[y], zorder=1,
                            arrowprops=dict(arrowstyle="->", color=AGENT_COLOURS[j], lw=1.4,
                                            shrinkA=6, shrinkB=7))
                drawn = True
        if drawn:
            handles.append(plt.Line2D([], [], color=AGENT_COLOURS[j], lw=1.6, marker=">",
                                      markersize=6, label=f"a guess of player {j + 1}"))
    return handles


def plot_hypercube(deal: object, n_colors: int = 2, title: str = "", name: str | None = None,
                   ax: plt.Axes | None = None) -> Figure:
    """A deal on the hypercube of rounds: won (green), lost (red crosses), guesses as arrows."""
    if checks.integer(n_colors, "n_colors") != 2:
        raise ValueError("the hypercube picture needs two colours")
    title = checks.text(title, "title")
    if ax is not None and not isinstance(ax, plt.Axes):
        raise checks.ArgumentTypeError(f"ax must be matplotlib Axes or None, got {ax!r}")
    d = parse_deal(deal, n_colors)
    n = d.shape[0]
    if n > 8:
        raise ValueError(f"the hypercube picture is drawn for at most 8 players, got {n}")
    pos, won = hypercube_layout(n), won_mask(d, 2)
    own_fig = ax is None
    if own_fig:
        fig, ax = plt.subplots(figsize=(4.8 + 1.1 * max(0, n - 3), 4.4 + 1.0 * max(0, n - 3)))
    fig = ax.figure
    _draw_cube_edges(ax, pos, n)
    handles = _draw_guesses(ax, pos, answers(d, 2))
    won_dots = ax.scatter(*pos[won].T, s=70, color="tab:green", zorder=2,
                          label=f"won round ({int(won.sum())})")
    lost_dots = ax.scatter(*pos[~won].T, s=80, marker="X", color="tab:red", zorder=2,
                           label=f"lost round ({int((~won).sum())})")
    if n <= 4:
        for x, r in enumerate(rounds(n, 2)):
            ax.text(pos[x, 0], pos[x, 1] + 0.13, round_to_string(r), ha="center",
                    fontsize=FONT - 2, zorder=3)
    ax.set_title(title or f"N = {n}: {rounds_correct(d, 2)} of the rounds won", fontsize=FONT,
                 pad=30)
    ax.legend(handles=[won_dots, lost_dots, *handles], loc="upper center",
              bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=FONT - 1, frameon=False)
    ax.set_axis_off()
    ax.set_aspect("equal")
    return finish(fig, name) if own_fig else fig


def plot_optimal_hypercubes(witnesses: dict[int, int],
                            name: str | None = "hats_optimal_hypercubes") -> Figure:
    """Optimal deals on the hypercube, one panel per N (witness won sets given as bitmasks)."""
    if not isinstance(witnesses, dict) or not 1 <= len(witnesses) <= 2:
        raise checks.ArgumentTypeError("witnesses must map one or two player counts to won sets")
    ns = sorted(checks.integers(list(witnesses), "witnesses (player counts)", low=2, high=6))
    fig, axes = plt.subplots(1, len(ns), figsize=(5.0 * len(ns), 6.0),
                             gridspec_kw={"width_ratios": [1, 1.5][: len(ns)]})
    for ax, n in zip(np.atleast_1d(axes), ns):
        deal = canonical_deal(witnesses[n], n)
        title = f"N = {n}: {witnesses[n].bit_count()} of {2**n} rounds won"
        plot_hypercube(deal, 2, title=title, ax=ax)
    return finish(fig, name)


def plot_win_rate(table: pd.DataFrame, name: str | None = "hats_win_rate") -> Figure:
    """Optimum win rate per N against the thesis's Table 5.3 and Theorem 6, and N/(N+1)."""
    _frame(table, "table", ("n_players", "optimum_rate", "counting_bound_rate", "thesis_rate",
                            "theorem6_rate"))
    fig, ax = plt.subplots(figsize=(8.0, 5.0))
    ax.plot(table.n_players, table.optimum_rate, "o-", color="tab:green",
            label="exact optimum (ours)")
    ax.plot(table.n_players, table.counting_bound_rate, ":", color="0.4", label="bound N/(N+1)")
    t = table.dropna(subset=["thesis_rate"])
    ax.plot(t.n_players, t.thesis_rate, "s--", color="tab:red",
            label="thesis Table 5.3 (prediction)")
    ax.plot(table.n_players, table.theorem6_rate, "^:", color="tab:orange",
            label="thesis Theorem 6 formula")
    ax.set_xlabel("players N (two colours)", fontsize=FONT)
    ax.set_ylabel("fraction of rounds won", fontsize=FONT)
    ax.tick_params(labelsize=FONT - 1)
    ax.set_ylim(0.45, 1.0)
    ax.legend(fontsize=FONT - 1, frameon=False, loc="lower right")
    ax.set_title("Best win rate per number of players", fontsize=FONT + 1)
    return finish(fig, name)


def plot_maximal_distribution(table: pd.DataFrame,
                              name: str | None = "hats_maximal_distribution") -> Figure:
    """Number of maximal won sets by rounds won, one panel per N (log scale when counts span
    more than four orders of magnitude)."""
    _frame(table, "table", ("n_players", "won_rounds", "maximal_sets"))
    if not 1 <= table.n_players.nunique() <= 3:
        raise ValueError("the distribution is drawn for one to three player counts")
    ns = sorted(table.n_players.unique())
    # as wide as a page of the site (figures.PAGE_WIDTH_PX): no text is shrunk
    fig, axes = plt.subplots(1, len(ns), figsize=(6.8, 4.2),
                             gridspec_kw={"width_ratios": [1, 1.4, 2.2][: len(ns)]})
    labels = []
    for ax, n in zip(np.atleast_1d(axes), ns):
        t = table[table.n_players == n]
        bars = ax.bar(t.won_rounds, t.maximal_sets, color="tab:blue")
        labels.append((ax, ax.bar_label(bars, labels=[f"{int(v):,}" for v in t.maximal_sets],
                                        fontsize=FONT - 3, rotation=90 if len(t) >= 5 else 0,
                                        padding=2)))
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True, nbins=4))
        if t.maximal_sets.max() > 1e4 * t.maximal_sets.min():  # billions beside tens: log scale
            ax.set_yscale("log")
            ax.set_ylim(0.5, t.maximal_sets.max() * 100)
        else:
            ax.margins(y=0.35)
        ax.tick_params(labelsize=FONT - 2)
        ax.set_title(f"N = {n}: {int(t.maximal_sets.sum()):,} sets", fontsize=FONT - 1)
        ax.set_xlabel("won rounds", fontsize=FONT - 1)
    np.atleast_1d(axes)[0].set_ylabel("maximal won sets", fontsize=FONT - 1)
    fig.tight_layout()
    _fit_labels(fig, labels)
    return finish(fig, name)


def _fit_labels(fig: Figure, labels: list) -> None:
    """Raise each panel's top until its bar labels stay inside the frame."""
    for _ in range(20):
        fig.canvas.draw()
        over = [ax for ax, texts in labels
                if any(t.get_window_extent().y1 > ax.get_window_extent().y1 for t in texts)]
        if not over:
            return
        for ax in over:
            low, high = ax.get_ylim()
            ax.set_ylim(low, high * 10 if ax.get_yscale() == "log" else high * 1.15)
    raise ValueError("the bar labels do not fit in the figure")


# --- table helpers ------------------------------------------------------------------------------

HAMMING_BUILT = 15  # the largest Hamming code built round by round (2**15 rounds)
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_two_text(number: int) -> str:
    """A whole number written exactly and short for a table: with thousands separators, or, from
    a million on and when 2¹⁰ divides it, as an odd number times a power of two: 31 · 2²⁶ (2³¹
    when the odd part is 1)."""
    n = checks.integer(number, "number", low=0)
    power = (n & -n).bit_length() - 1
    if n < 10**6 or power < 10:
        return f"{n:,}"
    odd = n >> power
    return (f"{odd:,} · " if odd > 1 else "") + "2" + str(power).translate(_SUPERSCRIPT)


def hamming_row(n_players: int) -> dict:
    """For N = 2**k - 1 (two colours): the Hamming code's won rounds, checked, vs the sphere bound.

    N <= 15: the lost set is built and checked with `sets.valid_lost_mask`; larger N (2**N rounds)
    by `optima.hamming_coset_check`, the syndrome argument for linear codes. The sphere bound
    N 2**N / (N + 1) is met, so that number of won rounds is the optimum.
    """
    n = checks.integer(n_players, "n_players", low=3, high=63)
    if n <= HAMMING_BUILT:
        lost_set = hamming_lost_set(n)
        lost, covers = lost_set.bit_count(), valid_lost_mask(lost_set, n, 2)
        how = f"Hamming code built, checked round by round ({power_of_two_text(lost)} lost)"
    else:
        lost, covers = hamming_coset_check(n)
        how = f"Hamming code checked by its syndromes ({power_of_two_text(lost)} lost)"
    if not covers:
        raise AssertionError(f"the Hamming code of length {n} must cover every round")
    won, sphere = 2**n - lost, n * 2**n // (n + 1)
    if won != sphere:
        raise AssertionError("a perfect code meets the sphere bound")
    return {"true optimum": won, "how we know": f"{how}: meets the sphere bound"}





def best_deal_letters(table: pd.DataFrame, n_players: int, n_colors: int) -> pd.DataFrame:
    """The best deal of one row of the optima table, one row per player, in letter notation.

    Letters follow `model.views` order (the last other player's hat changes fastest) and are
    grouped in blocks of M: one block per colour combination of the other players but the last.
    """
    _frame(table, "table", ("n_players", "n_colors", "lower", "upper", "proven", "witness_hex"))
    n, m = check_world(n_players, n_colors)
    match = table[(table.n_players == n) & (table.n_colors == m)]
    if match.empty:
        raise ValueError(f"the table has no row for N = {n}, M = {m}")
    r = match.iloc[0]
    deal = canonical_deal(int(str(r.witness_hex), 16), n, m)
    rows = []
    for player, strategy in enumerate(deal_to_strings(deal, m), start=1):
        blocks = " ".join(strategy[k : k + m] for k in range(0, len(strategy), m))
        rows.append({"M": m, "N": n, "best deal (won rounds)": int(r.lower),
                     "upper bound": int(r.upper), "player": player, "strategy": blocks})
    return pd.DataFrame(rows)


def open_case_deals(table: pd.DataFrame) -> pd.DataFrame:
    """The best deal found for every unproven case (`best_deal_letters` of each)."""
    _frame(table, "table", ("n_players", "n_colors", "lower", "upper", "proven", "witness_hex"))
    parts = [best_deal_letters(table, int(r.n_players), int(r.n_colors))
             for r in table[~table.proven.astype(bool)].itertuples()]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def open_world_runs(attempts: pd.DataFrame) -> pd.DataFrame:
    """Where each open world stands after its long attempt (`open_cases`, one row a world): the
    bounds before and after, CP-SAT's verdict, and the work units and CPU hours it took."""
    from .open_cases import ATTEMPT_COLUMNS
    t = _frame(attempts, "the attempts table", tuple(ATTEMPT_COLUMNS))
    verdicts = {"OPTIMAL": "optimum proven", "INFEASIBLE": "no better deal",
                "FEASIBLE": "stopped at the limit", "UNKNOWN": "stopped at the limit"}
    return pd.DataFrame({
        "N": t.n_players.astype(int), "M": t.n_colors.astype(int),
        "before": [f"{lo}–{up}" for lo, up in zip(t.lower_before, t.upper_before)],
        "after": [f"{lo}–{up}" if lo < up else str(lo) for lo, up in zip(t.lower, t.upper)],
        "CP-SAT": [verdicts.get(str(v), str(v)) for v in t.status],
        "work units": t.work_units.round().astype(int),
        "CPU hours": (t.cpu_seconds / 3600).round(2),
    })


# --- explorations ------------------------------------------------------------------------------

PRESETS = ("equal views: guess the other colour", "one player always guesses the first colour",
           "parity: everybody bets on an even number of Blue hats",
           "best known (optimal where proven)", "always pass", "custom")
PRESET_ROUNDS = 256  # presets and round-by-round tables are offered up to this many rounds
# How a strategy string lists a player's views: by the other players' hats, read with the
# lower-numbered players first (our order, that of Table 5.2 and Figure 5.1) or the
# higher-numbered first (the order that makes the thesis's N = 4 Tables 5.5-5.8 maximal).
VIEW_ORDERS = ("lower players first (Table 5.2)", "higher players first (Tables 5.5-5.8)")


def best_known_won_set(n_players: int, n_colors: int = 2) -> int:
    """The won set of the best deal we know: the optima table's witness (optimal where proven).

    Offered for the worlds of that table only (data/hats_optima.csv, every world the widgets
    reach): elsewhere `optimum_bounds` finds one, in seconds to minutes.
    """
    n, m = _explorable(n_players, n_colors, "optimal presets are")
    table = optimum_table().set_index(["n_players", "n_colors"])
    if (n, m) not in table.index:
        worlds = ", ".join(f"N = {a}, M = {b}" for a, b in table.index)
        raise ValueError(f"the best known deal is offered for the worlds of the optima table "
                         f"({worlds}); for N = {n}, M = {m} run hats.optimum_bounds({n}, {m})")
    return int(table.witness_hex[(n, m)], 16)


def _explorable(n_players: int, n_colors: int, what: str) -> tuple[int, int]:
    n, m = check_world(n_players, n_colors)
    if m**n > PRESET_ROUNDS:
        raise ValueError(f"{what} offered up to {PRESET_ROUNDS} rounds; N = {n}, M = {m} has "
                         f"{m**n}")
    return n, m


def _equal_views_deal(n: int, m: int) -> np.ndarray:
    """The thesis's Section 2.2 deal generalised: seeing one colour only, guess the next one."""
    deal = np.full((n, m ** (n - 1)), -1, dtype=np.int8)
    for k, v in enumerate(itertools.product(range(m), repeat=n - 1)):
        if len(set(v)) == 1:
            deal[:, k] = (v[0] + 1) % m
    return deal


def _parity_deal(n: int, m: int) -> np.ndarray:
    """Everybody guesses the colour that makes the number of Blue (1) hats even."""
    if m != 2:
        raise ValueError("the parity deal is defined for two colours")
    return np.array([[sum(v) % 2 for v in itertools.product(range(2), repeat=n - 1)]] * n,
                    dtype=np.int8)


def preset_deal(preset: str, n_players: int, n_colors: int = 2) -> np.ndarray:
    """A named deal: the Section 2.2 example generalised, single guesser, parity, optimal, pass."""
    preset = checks.choice(preset, "preset", PRESETS[:-1])
    n, m = _explorable(n_players, n_colors, "preset deals are")
    deal = np.full((n, m ** (n - 1)), -1, dtype=np.int8)
    if preset == PRESETS[0]:
        deal = _equal_views_deal(n, m)
    elif preset == PRESETS[1]:
        deal[0, :] = 0
    elif preset == PRESETS[2]:
        deal = _parity_deal(n, m)
    elif preset == PRESETS[3]:
        deal = canonical_deal(best_known_won_set(n, m), n, m)
    return deal


def _reversed_views(strategy: str, n: int, m: int, *, to_ours: bool) -> str:
    """Re-index a strategy between our view order and the higher-players-first order."""
    views = list(itertools.product(range(m), repeat=n - 1))
    if len(strategy) != len(views):
        return strategy  # parse_strategy names the problem
    out = list(strategy)
    for k, view in enumerate(views):
        ours = sum(c * m**e for e, c in enumerate(view))  # the view's digits read backwards
        if to_ours:
            out[ours] = strategy[k]
        else:
            out[k] = strategy[ours]
    return "".join(out)


def _chosen_deal(preset: str, custom: str, n: int, m: int, view_order: str) -> np.ndarray:
    """The preset deal, or the custom strings (one per player, separated by spaces or commas)."""
    preset = checks.choice(preset, "preset", PRESETS)
    view_order = checks.choice(view_order, "view_order", VIEW_ORDERS)
    custom = checks.text(custom, "custom")  # checked even when a preset is chosen
    if preset != "custom":
        return preset_deal(preset, n, m)
    parts = [p for p in custom.replace(",", " ").split() if p]
    if len(parts) != n:
        raise ValueError(f"custom deal needs {n} strategies separated by spaces, got {len(parts)}")
    if view_order != VIEW_ORDERS[0]:
        parts = [_reversed_views(p.strip("{}").upper(), n, m, to_ours=True) for p in parts]
    return parse_deal(parts, m)


def _deal_strings(deal: np.ndarray, m: int, view_order: str) -> tuple[str, ...]:
    """The deal's strategy strings, listing the views in `view_order`."""
    strings = deal_to_strings(deal, m)
    if view_order == VIEW_ORDERS[0]:
        return strings
    return tuple(_reversed_views(x, deal.shape[0], m, to_ours=False) for x in strings)


def _order_name(view_order: str) -> str:
    """'lower players first' or 'higher players first': how strategy strings list the views."""
    return view_order.split(" (")[0]


def explore_deal(n_players: int = 3, n_colors: int = 2, preset: str = PRESETS[0],
                 custom: str = "", view_order: str = VIEW_ORDERS[0]) -> pd.DataFrame:
    """Every round of a deal: each player's answer, won or lost, and the deal's score last.

    Rows are labelled by the round (the last row by the deal); `custom` strategies (preset
    "custom") and the deal row list the views in `view_order`.

    Parameters
    ----------
    n_players, n_colors : int
        The world: N players, M colours, at most `PRESET_ROUNDS` rounds.
    preset : str
        One of `PRESETS`: the thesis's Section 2.2 deal generalised (seeing one colour only,
        guess the next), a single guesser, parity, the best known deal (read from the optima
        table), always pass, or "custom".
    custom : str
        With preset "custom": one strategy string per player, separated by spaces or commas.
    view_order : str
        One of `VIEW_ORDERS`: how a strategy string lists the views.

    Returns
    -------
    pandas.DataFrame
        A row per round (columns "player 1".."player N": right, wrong or pass; "won": won or
        lost) and a last row with the strategies and the share of rounds won; `attrs["deal"]`
        holds the strategy strings.

    Raises
    ------
    ValueError
        If the world is refused or has more than `PRESET_ROUNDS` rounds, `preset` or
        `view_order` is not one of the choices, a custom deal has not N readable strategies, or
        the best known deal is asked for a world outside the optima table.

    Examples
    --------
    The thesis's Section 2.2 deal for N = 3 wins all but RRR and BBB:

    >>> table = explore_deal(3)
    >>> table.loc["RRB"].tolist(), table.loc["BBB", "won"]
    (['pass', 'pass', 'right', 'won'], 'lost')
    >>> table.attrs["deal"], table.iloc[-1]["won"]
    (('BPPR', 'BPPR', 'BPPR'), '3/4 = 75.0%')

    References
    ----------
    janssen2017 (source document 004), Sections 2.1.5 and 2.2, Table 5.2.
    """
    n, m = _explorable(n_players, n_colors, "explore_deal lists rounds:")
    deal = _chosen_deal(preset, custom, n, m, view_order)
    ans = answers(deal, m)
    mark = {1: "right", -1: "wrong", 0: "pass"}
    rows = []
    for x, r in enumerate(rounds(n, m)):
        row = {"round": "".join(LETTERS[c] for c in r)}
        for i in range(n):
            row[f"player {i + 1}"] = mark[int(ans[i, x])]
        row["won"] = "won" if (ans[:, x] == 1).any() and not (ans[:, x] == -1).any() else "lost"
        rows.append(row)
    df = pd.DataFrame(rows)
    strings = _deal_strings(deal, m, view_order)
    score = rounds_correct(deal, m)
    footer = {"round": f"deal, {_order_name(view_order)}",
              **{f"player {i + 1}": strings[i] for i in range(n)},
              "won": f"{score} = {float(score):.1%}"}
    shown = pd.concat([df, pd.DataFrame([footer])], ignore_index=True).set_index("round")
    shown.attrs["deal"] = strings
    return shown


def explore_hypercube(n_players: int = 4, preset: str = PRESETS[3], custom: str = "",
                      view_order: str = VIEW_ORDERS[0]) -> Figure:
    """A two-colour deal (preset or custom strings) drawn on the hypercube of rounds.

    Parameters
    ----------
    n_players : int
        N, 2 to 6 (two colours).
    preset, custom, view_order : str
        The deal, as `explore_deal` takes it (default preset: the best known deal, read from
        the optima table).

    Returns
    -------
    matplotlib.figure.Figure
        The rounds as the vertices of Q_N (`plot_hypercube`), titled with the share won and the
        strategies.

    Raises
    ------
    ValueError
        If N is not 2 to 6, `preset` or `view_order` is not one of the choices, or a custom deal
        has not N readable strategies.

    Examples
    --------
    The best known deal for N = 4 wins 12 of the 16 rounds:

    >>> figure = explore_hypercube(4)
    >>> figure.axes[0].get_title().splitlines()[0]
    'N = 4: 3/4 of the rounds won'
    >>> plt.close(figure)

    References
    ----------
    The hypercube pictures of janssen2017 (source document 004), Figures 5.1-5.7; covering codes:
    Lenstra and Seroussi (2002), On hats and other covers, ISIT 2002.
    """
    n, _ = check_world(n_players, 2)
    if n > 6:
        raise ValueError("the hypercube picture is drawn for at most 6 players")
    deal = _chosen_deal(preset, custom, n, 2, view_order)
    strings = " ".join(_deal_strings(deal, 2, view_order))
    title = (f"N = {n}: {rounds_correct(deal, 2)} of the rounds won\n"
             + textwrap.fill(f"strategies (views listed {_order_name(view_order)}): {strings}", 64))
    return plot_hypercube(deal, 2, title=title, name=None)
