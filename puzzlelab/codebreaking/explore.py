"""Tables, figures and widgets for the code-breaking notebook (Klimoš, thesis Chapters 2–4)."""

from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..figures import finish
from . import coins
from .analysis import STRATEGIES, Analysis, analyze, check_strategy, lemma14_bound
from .game import Game
from .games import bags_of_gold, black_peg_mastermind, bulls_and_cows, counterfeit_coin, mastermind

GAME_KINDS = ("Mastermind", "black-peg Mastermind", "Bulls and Cows", "coin", "coin + genuine", "bags of gold")


@lru_cache(maxsize=6)
def make_game(kind: str, a: int, b: int = 0) -> Game:
    """A built-in game by kind and size: (pegs, colours), (positions, symbols), (coins,) or (bags, take)."""
    if kind == "Mastermind":
        return mastermind(a, b)
    if kind == "black-peg Mastermind":
        return black_peg_mastermind(a, b)
    if kind == "Bulls and Cows":
        return bulls_and_cows(a, b)
    if kind == "coin":
        return counterfeit_coin(a)
    if kind == "coin + genuine":
        return counterfeit_coin(a, extra_genuine=True)
    if kind == "bags of gold":
        return bags_of_gold(a, b)
    raise ValueError(f"unknown game {kind!r}; choose one of {', '.join(GAME_KINDS)}")


def summary_row(a: Analysis) -> dict:
    """One line of a results table: worst, total, average, Lemma 14 bound and the depth histogram."""
    hist = a.histogram()
    return {"game": a.game.name, "strategy": a.strategy, "codes": a.game.n_codes,
            "worst": a.worst, "total": a.total, "average": round(a.average, 4),
            "Lemma 14": lemma14_bound(a.game),
            "histogram": " ".join(f"{d}:{n}" for d, n in sorted(hist.items()))}


def strategy_table(games: list[Game]) -> pd.DataFrame:
    """Every strategy on every game."""
    return pd.DataFrame([summary_row(analyze(g, s)) for g in games for s in STRATEGIES])


def tree_text(a: Analysis, max_depth: int = 2, max_children: int = 6) -> str:
    """The top of a strategy's decision tree as indented text (experiment, then one line per outcome)."""
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


def plot_timings(bench: pd.DataFrame, name: str | None = None) -> Figure:
    """Analysis time per strategy against the number of codes (read from data/bench_codebreaking.csv)."""
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    fast = bench[bench.method == "vectorised"]
    for strategy, grp in fast.groupby("strategy"):
        grp = grp.sort_values("codes")
        ax.plot(grp.codes, grp.seconds, "o-", label=strategy)
    base = bench[bench.method == "plain"].sort_values("codes")
    if len(base):
        ax.plot(base.codes, base.seconds, "k--", marker="x", label="plain recursion (max-models)")
    for _, row in fast[fast.strategy == "max-models"].iterrows():
        ax.annotate(row.game.replace("Mastermind ", ""), (row.codes, row.seconds), fontsize=7,
                    textcoords="offset points", xytext=(3, -9))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("codes (Mastermind pegs × colours)")
    ax.set_ylabel("seconds for all codes")
    ax.legend(fontsize=8)
    return finish(fig, name)


def coin_table(ws: tuple[int, ...] = (2, 3, 4)) -> pd.DataFrame:
    """The most coins solvable in w weighings, by search, beside Dyson's closed form."""
    rows = []
    for w in ws:
        for genuine in (False, True):
            rows.append({"weighings": w, "extra genuine coin": genuine,
                         "most coins (search)": coins.max_coins(w, genuine),
                         "Dyson (1946)": coins.dyson_bound(w, genuine)})
    return pd.DataFrame(rows)


# --- widgets ---------------------------------------------------------------------------------
def explore_strategy(kind: str = "Mastermind", a: int = 3, b: int = 4, strategy: str = "max-models") -> Figure:
    """Worst, average and depth histogram of one strategy on one game (kind and size)."""
    check_strategy(strategy)
    game = make_game(kind, a, b)
    result = analyze(game, strategy)
    fig = plot_histograms([result])
    fig.axes[0].set_title(f"{game.name}, {strategy}: worst {result.worst}, average {result.average:.4f}")
    return fig


def hidden_code(game: Game, seed: int) -> int:
    """The codemaker's secret: a code drawn with numpy's default_rng(seed)."""
    return int(np.random.default_rng(seed).integers(game.n_codes))


def explore_play(pegs: int = 4, colors: int = 6, seed: int = 1, guesses: str = "1122, 1344") -> pd.DataFrame:
    """Play Mastermind against a hidden code (chosen by the seed): your guesses, the answers, codes left."""
    game = make_game("Mastermind", pegs, colors)
    secret = hidden_code(game, seed)
    live = np.arange(game.n_codes)
    rows = []
    for text in [g.strip() for g in guesses.split(",") if g.strip()]:
        if len(text) != pegs or not text.isdigit() or not all(1 <= int(c) <= colors for c in text):
            raise ValueError(f"guess {text!r} must be {pegs} digits from 1 to {colors}")
        j = game.experiment_index(("g", tuple(int(c) for c in text)))
        o = int(game.outcome_table[j, secret])
        live = live[game.outcome_table[j, live] == o]
        rows.append({"guess": text, "answer": game.outcome_labels[o], "codes still possible": len(live),
                     "solved": bool(game.is_final[o])})
        if game.is_final[o]:
            break
    return pd.DataFrame(rows, columns=["guess", "answer", "codes still possible", "solved"])


# --- the notebook's cached tables --------------------------------------------------------------
def _progress(items, desc: str):
    """A progress bar (puzzlelab.progress), off when TQDM_DISABLE is set."""
    from ..progress import tqdm

    return tqdm(items, desc=desc)


STRATEGY_GAMES = [("Mastermind", 3, 3), ("Mastermind", 4, 4), ("Mastermind", 4, 6),
                  ("black-peg Mastermind", 4, 6), ("Bulls and Cows", 4, 10), ("coin", 12, 0),
                  ("coin + genuine", 12, 0), ("coin", 13, 0), ("coin + genuine", 13, 0),
                  ("bags of gold", 5, 2), ("bags of gold", 5, 4)]


def strategies_table() -> pd.DataFrame:
    """Every strategy on the games of Chapter 2 (worst, total, average, Lemma 14, histogram)."""
    rows = []
    for kind, a, b in _progress(STRATEGY_GAMES, "games"):
        game = make_game(kind, a, b)
        rows += [summary_row(analyze(game, s)) for s in STRATEGIES]
    return pd.DataFrame(rows)


OPTIMAL_RUNS = [("Mastermind", 2, 3, "worst"), ("Mastermind", 2, 3, "average"),
                ("Mastermind", 3, 3, "worst"), ("Mastermind", 3, 3, "average"),
                ("Mastermind", 3, 4, "worst"), ("Mastermind", 3, 4, "average"),
                ("Mastermind", 4, 4, "worst"), ("Mastermind", 4, 4, "average"),
                ("Mastermind", 4, 5, "worst"), ("Mastermind", 4, 5, "average"),
                ("Mastermind", 4, 6, "worst"), ("Mastermind", 4, 6, "average"),
                ("black-peg Mastermind", 3, 3, "worst"), ("black-peg Mastermind", 3, 3, "average"),
                ("coin", 12, 0, "worst"), ("coin", 12, 0, "average"),
                ("coin + genuine", 12, 0, "worst"), ("coin", 13, 0, "worst"),
                ("coin + genuine", 13, 0, "worst")]


def optimal_row(kind: str, a: int, b: int, measure: str, symmetry: bool = True,
                max_worst: int | None = None) -> dict:
    """One optimal search: the optimum, the strategy's total, and the size of the search."""
    from .optimal import optimal

    game = make_game(kind, a, b)
    res = optimal(game, measure, symmetry=symmetry, max_worst=max_worst)
    return {"game": game.name, "measure": measure if max_worst is None else f"{measure}, worst ≤ {max_worst}",
            "symmetry": symmetry, "codes": game.n_codes,
            "worst": res.worst, "total": res.total, "average": round(res.average, 4),
            "states": res.stats["states"], "experiments tried": res.stats["experiments tried"]}


def optimal_table() -> pd.DataFrame:
    """Optimal worst and average cases by the generic search (with symmetry reduction)."""
    return pd.DataFrame([optimal_row(*run) for run in _progress(OPTIMAL_RUNS, "searches")])


SYMMETRY_RUNS = [("Mastermind", 3, 3, "average"), ("Mastermind", 3, 4, "average"),
                 ("Mastermind", 4, 6, "worst"), ("black-peg Mastermind", 3, 3, "average"),
                 ("coin", 6, 0, "average"), ("coin + genuine", 6, 0, "average"), ("coin", 12, 0, "worst")]


def symmetry_table() -> pd.DataFrame:
    """The same searches with and without the symmetry reduction."""
    rows = [optimal_row(*run, symmetry=s) for run in _progress(SYMMETRY_RUNS, "searches") for s in (True, False)]
    return pd.DataFrame(rows)


def coin_greedy_table(max_coins: int = 13) -> pd.DataFrame:
    """Greedy strategies (generic engine) against the optimum (class counting) for 1..max_coins coins."""
    rows = []
    for genuine in (False, True):
        for n in _progress(range(1 if genuine else 3, max_coins + 1), "coins"):
            game = counterfeit_coin(n, genuine)
            state = coins.initial(n, genuine)
            row = {"coins": n, "extra genuine coin": genuine, "codes": game.n_codes,
                   "Lemma 14": lemma14_bound(game),
                   "optimal worst": coins.fewest_weighings(n, genuine),
                   "optimal total": coins.least_total(state)}
            for s in STRATEGIES:
                a = analyze(game, s)
                row[f"{s} worst"], row[f"{s} total"] = a.worst, a.total
            rows.append(row)
    return pd.DataFrame(rows)


SHIPPED = {"coin4": ("coin", 4, 8), "coin4_genuine": ("coin + genuine", 4, 8),
           "coin12": ("coin", 12, 8), "coin12_alt": ("coin", 12, 9), "coin13": ("coin", 13, 8),
           "coin13_genuine": ("coin + genuine", 13, 8), "mastermind_3x3": ("Mastermind", 3, 3),
           "mastermind": ("Mastermind", 4, 6), "mastermind_black": ("black-peg Mastermind", 4, 6)}


def built_in_twin(stem: str) -> Game:
    """The built-in game a shipped file under data/games/ describes."""
    kind, a, b = SHIPPED[stem]
    if kind.startswith("coin"):
        return counterfeit_coin(a, kind.endswith("genuine"), formalization=b)
    return make_game(kind, a, b)


def language_table() -> pd.DataFrame:
    """Each shipped game file parsed and analysed beside its built-in twin: every strategy's numbers."""
    from .language import load
    from ..paths import DATA

    rows = []
    for path in _progress(sorted((DATA / "games").glob("*.cobra")), "files"):
        if path.stem not in SHIPPED:
            continue
        parsed, built = load(path), built_in_twin(path.stem)
        for s in STRATEGIES:
            p, q = analyze(parsed, s), analyze(built, s)
            rows.append({"file": path.name, "built-in": built.name, "codes": parsed.n_codes,
                         "experiments": parsed.n_experiments, "same experiments": parsed.experiments == built.experiments,
                         "strategy": s, "worst (file)": p.worst, "worst (built-in)": q.worst,
                         "total (file)": p.total, "total (built-in)": q.total,
                         "same histogram": p.histogram() == q.histogram()})
    return pd.DataFrame(rows)
