"""The code-breaking notebook's views: figures, widgets, `explore_*` functions and sentences
(Klimoš 2014); the cached tables are read from `tables`. What the notebook shows of the benchmark
tables is made in `bench_tables`, and its small computed studies in `game_studies`; both are
named here too, where the notebook calls them.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from .. import checks
from ..figures import finish
from .analysis import analyze
from .bench_tables import (PEER, PEER_MEMORY, PEER_SPEED, cobra_answers, cobra_times, peer_memory,
                           peer_speed, peer_version, scaling_speed)
from .game import Analysis, Game, check_game
from .game_studies import coin_average_check, explore_game_text, final_outcome_effect, lambda_table
from .strategies import STRATEGIES, scoring
from .tables import GAME_KINDS, make_game

__all__ = [
    "GREEDY", "PEER", "SIZE_CONTROLS", "cobra_answers", "cobra_times", "coin_average_check",
    "describe_greedy_gaps", "explore_game_text", "explore_play", "explore_strategy",
    "final_outcome_effect", "greedy_average_gaps", "hidden_code", "histogram_views",
    "lambda_table", "PEER_MEMORY", "PEER_SPEED", "peer_memory", "peer_speed", "peer_version",
    "play_widgets", "plot_histograms", "plot_scaling", "scaling_speed", "strategy_widgets", "summarize_greedy_gaps", "tree_text",
]


def tree_text(a: Analysis, max_depth: int = 2, max_children: int = 6) -> str:
    """The top of a strategy's decision tree as indented text (experiment, a line per outcome)."""
    if not isinstance(a, Analysis) or a.tree.empty:
        raise checks.ArgumentTypeError(f"tree_text needs an Analysis with its tree, got {a!r}")
    max_depth = checks.integer(max_depth, "max_depth", low=0)
    max_children = checks.integer(max_children, "max_children", low=1)
    t = a.tree
    children = {p: grp for p, grp in t.groupby("parent")}
    lines: list[str] = []

    def walk(node: int, indent: str) -> None:
        row = t.loc[node]
        if row.experiment:
            lines.append(f"{indent}{row.experiment}  [{row.codes} codes]")
        if row.depth >= max_depth or node not in children:
            return
        kids = children[node]
        for _, kid in kids.head(max_children).iterrows():
            label = kid.code or f"{kid.codes} codes"
            lines.append(f"{indent}  {kid.outcome} → {label}")
            if kid.experiment and kid.codes > 1:
                walk(int(kid.node), indent + "    ")
        if len(kids) > max_children:
            lines.append(f"{indent}  … {len(kids) - max_children} more outcomes")

    walk(0, "")
    return "\n".join(lines)


def plot_histograms(analyses: list[Analysis], name: str | None = None) -> Figure:
    """Codes solved in d experiments, one group of bars per strategy."""
    if not isinstance(analyses, (list, tuple)) or not analyses \
            or not all(isinstance(a, Analysis) for a in analyses):
        raise checks.ArgumentTypeError("plot_histograms needs a non-empty list of Analysis results")
    fig, ax = plt.subplots(figsize=(7, 3.4))
    depths = sorted({d for a in analyses for d in a.histogram()})
    width = 0.8 / len(analyses)
    for i, a in enumerate(analyses):
        hist = a.histogram()
        ax.bar(np.array(depths) + (i - (len(analyses) - 1) / 2) * width,
               [hist.get(d, 0) for d in depths], width, label=f"{a.strategy} (avg {a.average:.3f})")
    ax.set_xticks(depths)
    ax.set_xlabel("experiments needed")
    ax.set_ylabel("codes")
    ax.set_title(analyses[0].game.name)
    ax.legend(fontsize=8)
    return finish(fig, name)


# --- widgets ---------------------------------------------------------------------------------
def _slider(low: int, high: int, value: int, description: str):
    """An integer slider that recomputes only when released (slow settings take seconds)."""
    import ipywidgets

    return ipywidgets.IntSlider(
        value=value, min=low, max=high, description=description, continuous_update=False
    )


# What the two size controls of `explore_strategy` mean for each kind of game, and their ranges:
# (name, lowest, highest) for a and for b (None: the game has no second size).
SIZE_CONTROLS = {
    "Mastermind": (("pegs", 1, 4), ("colours", 1, 8)),
    "black-peg Mastermind": (("pegs", 1, 4), ("colours", 1, 8)),
    "Bulls and Cows": (("positions", 1, 4), ("symbols", 1, 10)),
    "coin": (("coins", 3, 13), None),
    "coin + genuine": (("coins", 1, 13), None),
    "bags of gold": (("bags", 1, 6), ("coins per bag", 1, 4)),
}


def _explorable(kind: str, a: int, b: int) -> tuple[str, int, int]:
    """A game the explorers show: its sizes within the controls' ranges (`SIZE_CONTROLS`), so
    that an exploration takes seconds, not hours (Mastermind 8 x 4 has 65,536 codes)."""
    kind = checks.choice(kind, "kind of game", GAME_KINDS)
    (a_name, a_low, a_high), second = SIZE_CONTROLS[kind]
    a = checks.integer(a, f"{a_name} (a)", low=a_low, high=a_high)
    if second is not None:
        b = checks.integer(b, f"{second[0]} (b)", low=second[1], high=second[2])
    return kind, a, b


def _fit_sizes(kind: str, a, b) -> None:
    """Name, range and show the size sliders for this kind of game (b hidden when unused)."""
    (a_name, a_low, a_high), second = SIZE_CONTROLS[kind]
    a.description = a_name
    a.min, a.max = min(a.min, a_low), max(a.max, a_high)  # widen first, then narrow
    a.value = min(max(a.value, a_low), a_high)
    a.min, a.max = a_low, a_high
    b.layout.display = "none" if second is None else None
    if second is not None:
        b_name, b_low, b_high = second
        b.description = b_name
        b.min, b.max = min(b.min, b_low), max(b.max, b_high)
        b.value = min(max(b.value, b_low), b_high)
        b.min, b.max = b_low, b_high


def strategy_widgets() -> dict:
    """Controls for `explore_strategy`, named per game (pegs and colours, coins, bags, ...);
    sliders act on release, so a drag does not queue slow analyses."""
    import ipywidgets

    kind = ipywidgets.Dropdown(options=list(GAME_KINDS), value="Mastermind", description="game")
    a, b = _slider(1, 4, 3, "pegs"), _slider(1, 8, 4, "colours")
    strategy = ipywidgets.Dropdown(options=list(STRATEGIES), value="max-models",
                                   description="strategy")
    _fit_sizes(kind.value, a, b)
    kind.observe(lambda change: _fit_sizes(change["new"], a, b), names="value")
    return {"kind": kind, "a": a, "b": b, "strategy": strategy}


def histogram_views(strategies: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """For a static explorer: 'game · strategy' -> the codes solved in d experiments, one row."""
    _table(strategies, ["game", "strategy", "histogram"], "strategies_table")
    views = {}
    for row in strategies.itertuples():
        pairs = [item.split(":") for item in str(row.histogram).split()]
        counts = {f"{d}": int(n) for d, n in pairs}
        weighed = str(row.game).startswith(("coin", "bags"))
        what = "codes found in d weighings" if weighed else "codes solved in d guesses"
        name = f"{row.game} · {row.strategy}"  # in the view too: two rules may tie
        views[name] = pd.DataFrame([counts], index=[f"{name}: {what}"]).rename_axis(columns="d")
    return views


def play_widgets() -> dict:
    """Controls for `explore_play`: guesses are read on Enter or when the box is left."""
    import ipywidgets

    return {
        "pegs": _slider(1, 4, 4, "pegs"),
        "colors": _slider(1, 6, 6, "colors"),
        "seed": _slider(0, 100, 1, "seed"),
        "guesses": ipywidgets.Text(value="1122", description="guesses", continuous_update=False),
    }


def explore_strategy(
    kind: str = "Mastermind", a: int = 3, b: int = 4, strategy: str = "max-models"
) -> Figure:
    """Worst, average and depth histogram of one strategy on one game (kind and size)."""
    scoring(strategy)
    game = make_game(*_explorable(kind, a, b))
    result = analyze(game, strategy)
    fig = plot_histograms([result])
    fig.axes[0].set_title(
        f"{game.name}, {strategy}: worst {result.worst}, average {result.average:.4f}"
    )
    return fig


def hidden_code(game: Game, seed: int) -> int:
    """The codemaker's secret: a code drawn with numpy's default_rng(seed)."""
    game, seed = check_game(game), checks.seed(seed)
    return int(np.random.default_rng(seed).integers(game.n_codes))


def explore_play(
    pegs: int = 4, colors: int = 6, seed: int = 1, guesses: str = "1122, 1344"
) -> pd.DataFrame:
    """Play Mastermind against a hidden code (from the seed): guesses, answers, codes left."""
    game = make_game(*_explorable("Mastermind", pegs, colors))
    secret = hidden_code(game, seed)
    live = np.arange(game.n_codes)
    rows = []
    for text in [g.strip() for g in checks.text(guesses, "guesses").split(",") if g.strip()]:
        if len(text) != pegs or not text.isdigit() or not all(1 <= int(c) <= colors for c in text):
            raise ValueError(f"guess {text!r} must be {pegs} digits from 1 to {colors}")
        j = game.experiment_index(("g", tuple(int(c) for c in text)))
        o = int(game.outcome_table[j, secret])
        live = live[game.outcome_table[j, live] == o]
        rows.append(
            {
                "guess": text,
                "answer": game.outcome_labels[o],
                "codes still possible": len(live),
                "solved": bool(game.is_final[o]),
            }
        )
        if game.is_final[o]:
            break
    table = pd.DataFrame(rows, columns=["guess", "answer", "codes still possible", "solved"])
    table.columns.name = f"seed {seed}"  # which hidden code: a new seed is a new game
    table.index = pd.RangeIndex(1, len(table) + 1, name="turn")
    return table


def plot_scaling(bench: pd.DataFrame, name: str | None = None,
                 outside: pd.DataFrame | None = None) -> Figure:
    """Seconds and peak memory of whole-tree analyses of Mastermind against the number of codes,
    compiled engine (solid) and table engine (dashed), per strategy (data/mastermind_scale
    .csv).

    `outside` (columns strategy, codes, seconds, source) adds timings measured elsewhere as
    crosses, labelled by their source.
    """
    need = {"engine", "strategy", "codes", "warm min s", "peak MB"}
    if not isinstance(bench, pd.DataFrame) or not need <= set(bench.columns):
        raise checks.ArgumentTypeError(
            "plot_scaling needs the table data/mastermind_scale.csv")
    timed = {"strategy", "codes", "seconds", "source"}
    if outside is not None and (not isinstance(outside, pd.DataFrame)
                                or not timed <= set(outside.columns)):
        raise checks.ArgumentTypeError(
            f"outside must be None or a table with the columns {sorted(timed)} (as "
            "data/bench_outside.csv)")
    # one panel above the other, as wide as a page of the site (figures.PAGE_WIDTH_PX)
    fig, (left, right) = plt.subplots(2, 1, figsize=(6.8, 7.2), sharex=True)
    colours = dict(zip(STRATEGIES, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for (engine_name, strategy), grp in bench.dropna(subset=["warm min s"]).groupby(
            ["engine", "strategy"]):
        grp, style = grp.sort_values("codes"), "o-" if engine_name == "compiled" else "s--"
        for ax, column in ((left, "warm min s"), (right, "peak MB")):
            ax.plot(grp.codes, grp[column], style, color=colours.get(strategy),
                    label=f"{strategy} ({engine_name})")
    if outside is not None:
        for (strategy, source), grp in outside.groupby(["strategy", "source"]):
            left.plot(grp.codes, grp.seconds, "x", ms=9, color=colours.get(strategy),
                      label=f"{strategy} ({source})")
    sizes = sorted(bench.codes.unique())
    for ax, what in ((left, "seconds per analysis\n(fastest run)"),
                     (right, "peak memory of\nthe process (MB)")):
        ax.set_xscale("log")
        ax.set_xticks(sizes, [f"{n:,}" for n in sizes], fontsize=9, rotation=45)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel(what)
        ax.tick_params(axis="y", labelsize=10)  # 10 pt: a log axis's exponents stay legible
    right.set_xlabel("codes")
    left.set_yscale("log")
    right.set_ylim(0, None)
    left.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    return finish(fig, name)


GREEDY = ("max-models", "exp-models", "ent-models")


def _table(df: object, columns: Sequence[str], made_by: str) -> pd.DataFrame:
    """`df` if it is a DataFrame with these columns (the message names where it comes from)."""
    return checks.table(df, "the table", columns, made_by=made_by)


def greedy_average_gaps(table: pd.DataFrame) -> pd.DataFrame:
    """Greedy total minus optimal total per game of `coin_greedy_table` (0: optimal)."""
    _table(table, ["coins", "extra genuine coin", "optimal total", *(f"{s} total" for s in GREEDY)],
           "coin_greedy_table")
    out = table[["coins", "extra genuine coin", "optimal total"]].copy()
    for s in GREEDY:
        out[s] = table[f"{s} total"] - table["optimal total"]
    return out


def _ranges(ns: list) -> str:
    """[7, 8, 9, 11] → '7–9 and 11'; names are just listed: ['a', 'b', 'c'] → 'a, b and c'."""
    runs: list[list] = []
    for n in ns:
        if runs and isinstance(n, (int, np.integer)) and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _failing_sets(sub: pd.DataFrame) -> dict[tuple, list[str]]:
    """Coin counts where each greedy strategy misses the optimal total (equal sets together)."""
    by_set: dict[tuple, list[str]] = {}
    for s in GREEDY:
        by_set.setdefault(tuple(sub.coins[sub[s] > 0]), []).append(s)
    return by_set


def _first_failure(sub: pd.DataFrame) -> str:
    """'7 coins (38 against 36 weighings in total)': the smallest game a greedy strategy misses."""
    first = sub[(sub[list(GREEDY)] > 0).any(axis=1)]
    if not len(first):
        return "none"
    r = first.iloc[0]
    return (f"{r.coins} coins ({int(r['optimal total'] + r[list(GREEDY)].max())} against "
            f"{int(r['optimal total'])} weighings in total)")


def _gaps(gaps: object) -> pd.DataFrame:
    df = _table(
        gaps, ["coins", "extra genuine coin", "optimal total", *GREEDY], "greedy_average_gaps"
    )
    if not df["extra genuine coin"].isin([False, True]).all() or set(df["extra genuine coin"]) != {
        False,
        True,
    }:
        raise ValueError("the gaps table needs games with and without a genuine coin")
    return df


def describe_greedy_gaps(gaps: pd.DataFrame) -> str:
    """Which greedy strategy misses the optimal average for which coin counts (bullets)."""
    _gaps(gaps)
    lines = []
    for genuine in (False, True):
        sub = gaps[gaps["extra genuine coin"] == genuine].sort_values("coins")
        case = "with an extra genuine coin" if genuine else "without a genuine coin"
        clauses = [
            f"{_ranges(names)} {'is' if len(names) == 1 else 'are'} "
            + (
                f"above the optimum for {_ranges(list(ns))} coins "
                "and optimal for every other number"
                if ns
                else "optimal for every number of coins"
            )
            for ns, names in _failing_sets(sub).items()
        ]
        clauses.append(f"the first failure is at {_first_failure(sub)}")
        lines.append(
            f"- {case} ({sub.coins.min()}–{sub.coins.max()} coins): " + "; ".join(clauses) + "."
        )
    return "\n".join(lines)


def summarize_greedy_gaps(gaps: pd.DataFrame) -> str:
    """The same in one line: failing coin counts per strategy, with and without a genuine coin."""
    _gaps(gaps)
    parts = []
    for genuine in (False, True):
        sub = gaps[gaps["extra genuine coin"] == genuine].sort_values("coins")
        sets = "; ".join(f"{_ranges(names)} for n = {_ranges(list(ns)) if ns else 'none'}"
                         for ns, names in _failing_sets(sub).items())
        parts.append(
            f"{'with' if genuine else 'without'} a genuine coin, above the optimum: {sets} "
            f"(first: {_first_failure(sub)})"
        )
    return "; ".join(parts)


# --- speed: our benchmark summarised, and COBRA's figures (data/bench_outside.csv) beside ours ---


