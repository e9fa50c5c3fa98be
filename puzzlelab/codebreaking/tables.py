"""The code-breaking tables by name (Klimoš 2014): what `data/` holds, how each is computed, and
what `puzzlelab compute NAME` runs to recompute each.

Each table is a sweep over game sizes that runs on any executor (`executor=` / `workers=`,
the same rows whatever runs it), declared once (`cache.Table`, `TABLES`, `VERIFY`) and read
through `cached`, the only place that calls `cached_table`. `sizes_run` writes the optimal
sizes (`frontier.optimal_sizes`) of a run list, `table_run` any other table by name, on any
executor: what `puzzlelab compute NAME` calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from functools import lru_cache

import pandas as pd

from .. import cache, checks
from ..cache import Table, cached_source_table, cached_table, read_long_run
from ..sweeps import sweep
from . import coins, frontier
from .analysis import analyze
from .bounds import lemma14_bound
from .frontier import ALL_RUNS, COLUMNS, DEFAULT_RUNS, LONG_RUNS, TABLE, TABLE_LONG, check_sizes
from .game import Analysis, Game
from .games import bags_of_gold, black_peg_mastermind, bulls_and_cows, counterfeit_coin, mastermind
from .language import GAMES_DIR, load
from .exhaustive import optimal
from .source import clause_report, printed_outcome_1_1
from .strategies import STRATEGIES

__all__ = [
    "FIVE_PEG_GAMES", "GAME_KINDS", "OPTIMAL_RUNS", "OPTIMAL_SIZES", "OPTIMAL_SIZES_LONG",
    "SHIPPED", "STRATEGY_GAMES", "SYMMETRY_RUNS", "TABLES", "VERIFY", "built_in_twin", "cached",
    "coin_greedy_table", "coin_table", "five_peg_rows", "language_table", "make_game",
    "optimal_row", "optimal_sizes_long", "optimal_table", "printed_clause_checks",
    "strategies_5peg_table", "strategies_table", "strategy_rows", "summary_row", "symmetry_table",
]  # `sizes_run` and `table_run` write tables: tested with real arguments

# --- the games the tables name ---------------------------------------------------------------
GAME_KINDS = (
    "Mastermind",
    "black-peg Mastermind",
    "Bulls and Cows",
    "coin",
    "coin + genuine",
    "bags of gold",
)


def make_game(kind: str, a: int, b: int = 0) -> Game:
    """A built-in game by kind and size: pegs × colours, positions × symbols, coins, bags × take."""
    return _make_game(*_game_args(kind, a, b))


def _game_args(kind: str, a: int, b: int) -> tuple[str, int, int]:
    """`make_game`'s arguments checked (their kinds; each game checks its own sizes)."""
    return (checks.choice(kind, "kind of game", GAME_KINDS), checks.integer(a, "a (size)"),
            checks.integer(b, "b (size)"))


@lru_cache(maxsize=6)  # behind the checks above: ("coin", 4.0) must not hit the entry of 4
def _make_game(kind: str, a: int, b: int) -> Game:
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
    return bags_of_gold(a, b)


def summary_row(a: Analysis) -> dict:
    """One line of a results table: worst, total, average, until determined, Lemma 14, histogram."""
    if not isinstance(a, Analysis):
        raise checks.ArgumentTypeError(f"summary_row needs an Analysis (from analyze), got {a!r}")
    hist = a.histogram()
    return {"game": a.game.name, "strategy": a.strategy, "codes": a.game.n_codes,
            "worst": a.worst, "total": a.total, "average": round(a.average, 4),
            "worst until determined": int(a.determined.max()), "Lemma 14": lemma14_bound(a.game),
            "histogram": " ".join(f"{d}:{n}" for d, n in sorted(hist.items()))}


# --- the tables: sweeps over game sizes --------------------------------------------------------
def _coin_row(task: tuple[int, bool]) -> dict:
    w, genuine = task
    return {"weighings": w, "extra genuine coin": genuine,
            "most coins (search)": coins.max_coins(w, genuine),
            "Dyson (1946)": coins.dyson_bound(w, genuine)}


def coin_table(ws: Sequence[int] = (1, 2, 3, 4, 5), *, executor: Executor | None = None,
               workers: int = 1) -> pd.DataFrame:
    """The most coins solvable in w weighings, by search, beside Dyson's (1946) closed form."""
    ws = checks.integers(ws, "ws", low=1, high=coins.MAX_WEIGHINGS)
    tasks = [(w, genuine) for w in ws for genuine in (False, True)]
    return pd.DataFrame(sweep(_coin_row, tasks, executor=executor, workers=workers,
                              desc="weighings"))


STRATEGY_GAMES = [("Mastermind", 3, 3), ("Mastermind", 4, 4), ("Mastermind", 4, 6),
                  ("black-peg Mastermind", 4, 6), ("Bulls and Cows", 4, 10), ("coin", 12, 0),
                  ("coin + genuine", 12, 0), ("coin", 13, 0), ("coin + genuine", 13, 0),
                  ("bags of gold", 5, 2), ("bags of gold", 5, 4)]


def _spec(spec: object) -> tuple[str, int, int]:
    """A game given as (kind, a, b), a tuple or a list (`make_game`'s arguments), checked."""
    if not isinstance(spec, (tuple, list)) or len(spec) != 3:
        raise checks.ArgumentTypeError(f"a game is given as (kind, a, b), got {spec!r}")
    return _game_args(*spec)


def _specs(games: object) -> list[tuple[str, int, int]]:
    """Every game of `games` checked before any is analysed."""
    return [_spec(g) for g in checks.sequence(games, "games", what="a list of (kind, a, b)")]


def strategy_rows(spec: tuple[str, int, int]) -> list[dict]:
    """Every strategy on one game (kind, a, b): one summary row each."""
    game = make_game(*_spec(spec))
    return [summary_row(analyze(game, s)) for s in STRATEGIES]


def strategies_table(games: Sequence[tuple[str, int, int]] = tuple(STRATEGY_GAMES), *,
                     executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Every strategy on the games of Chapter 2 (worst, total, average, Lemma 14, histogram)."""
    rows = sweep(strategy_rows, _specs(games), executor=executor, workers=workers, desc="games")
    return pd.DataFrame([row for game_rows in rows for row in game_rows])


FIVE_PEG_GAMES = [("Mastermind", 5, 6), ("Mastermind", 5, 7), ("Mastermind", 5, 8)]


def five_peg_rows(spec: tuple[str, int, int]) -> list[dict]:
    """Every strategy on one game (kind, a, b): worst, total, average, codes solved in exactly
    six guesses, histogram (the compiled engine, §3.3)."""
    game = make_game(*_spec(spec))
    rows = []
    for strategy in STRATEGIES:
        a = analyze(game, strategy)
        hist = a.histogram()
        rows.append({"game": game.name, "strategy": strategy, "codes": game.n_codes,
                     "worst": a.worst, "total": a.total, "average": round(a.average, 4),
                     "6 guesses": hist.get(6, 0),
                     "histogram": " ".join(f"{d}:{n}" for d, n in sorted(hist.items()))})
    return rows


def strategies_5peg_table(games: Sequence[tuple[str, int, int]] = tuple(FIVE_PEG_GAMES), *,
                          executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Every strategy on Mastermind with 5 pegs and 6, 7 or 8 colours (7,776 to 32,768 codes)."""
    rows = sweep(five_peg_rows, _specs(games), executor=executor, workers=workers, desc="games")
    return pd.DataFrame([row for game_rows in rows for row in game_rows])


OPTIMAL_RUNS = [("Mastermind", 2, 3, "worst"), ("Mastermind", 2, 3, "average"),
                ("Mastermind", 3, 3, "worst"), ("Mastermind", 3, 3, "average"),
                ("Mastermind", 3, 4, "worst"), ("Mastermind", 3, 4, "average"),
                ("Mastermind", 4, 4, "worst"), ("Mastermind", 4, 4, "average"),
                ("Mastermind", 4, 4, "average", 4),
                ("Mastermind", 4, 5, "worst"), ("Mastermind", 4, 5, "average"),
                ("Mastermind", 4, 6, "worst"), ("Mastermind", 4, 6, "average"),
                ("Mastermind", 4, 6, "average", 5),
                ("black-peg Mastermind", 3, 3, "worst"), ("black-peg Mastermind", 3, 3, "average"),
                ("coin", 12, 0, "worst"), ("coin", 12, 0, "average"),
                ("coin + genuine", 12, 0, "worst"), ("coin + genuine", 12, 0, "average"),
                ("coin", 13, 0, "worst"), ("coin", 13, 0, "average"),
                ("coin + genuine", 13, 0, "worst"), ("coin + genuine", 13, 0, "average")]


def optimal_row(kind: str, a: int, b: int, measure: str, symmetry: bool = True,
                max_worst: int | None = None) -> dict:
    """One optimal search: the optimum, the strategy's total, and the size of the search."""
    game = make_game(kind, a, b)
    res = optimal(game, measure, symmetry=symmetry, max_worst=max_worst)
    return {
        "game": game.name,
        "measure": measure if max_worst is None else f"{measure}, worst ≤ {max_worst}",
        "symmetry": symmetry,
        "codes": game.n_codes,
        "worst": res.worst,
        "total": res.total,
        "average": round(res.average, 4),
        "states": res.stats["states"],
        "experiments tried": res.stats["experiments tried"],
    }


def _optimal_args(run: object) -> tuple[str, int, int, str, object, dict]:
    """The parts of a run (kind, a, b, measure[, max_worst][, {"symmetry": flag}]), checked."""
    if not isinstance(run, (tuple, list)) or not 4 <= len(run) <= 6:
        raise checks.ArgumentTypeError(
            f"a run is (kind, a, b, measure[, max_worst][, {{'symmetry': flag}}]), got {run!r}")
    kind, a, b = _spec(run[:3])
    measure = checks.choice(run[3], "measure", ("worst", "average"))
    rest = list(run[4:])
    options = rest.pop() if rest and isinstance(rest[-1], dict) else {}
    if len(rest) > 1 or set(options) - {"symmetry"}:
        raise ValueError(f"a run ends with at most a bound and {{'symmetry': flag}}, got {run!r}")
    return kind, a, b, measure, rest[0] if rest else None, options


def _optimal_run(run: tuple) -> dict:
    """optimal_row for a run (kind, a, b, measure[, max_worst][, symmetry flag as a dict])."""
    kind, a, b, measure, bound, options = _optimal_args(run)
    return optimal_row(kind, a, b, measure, max_worst=bound, **options)


def optimal_table(runs: Sequence[tuple] = tuple(OPTIMAL_RUNS), *, executor: Executor | None = None,
                  workers: int = 1) -> pd.DataFrame:
    """Optimal worst and average cases by the generic search (with symmetry reduction); a fifth
    entry in a run is a bound on the worst case for the average search."""
    runs = checks.sequence(runs, "runs", what="a list of runs")
    for run in runs:
        _optimal_args(run)
    return pd.DataFrame(sweep(_optimal_run, runs, executor=executor, workers=workers,
                              desc="searches"))


SYMMETRY_RUNS = [
    ("Mastermind", 3, 3, "average"),
    ("Mastermind", 3, 4, "average"),
    ("Mastermind", 4, 6, "worst"),
    ("black-peg Mastermind", 3, 3, "average"),
    ("coin", 6, 0, "average"),
    ("coin + genuine", 6, 0, "average"),
    ("coin", 12, 0, "worst"),
]


def symmetry_table(runs: Sequence[tuple] = tuple(SYMMETRY_RUNS), *,
                   executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The same searches with and without the symmetry reduction."""
    runs = checks.sequence(runs, "runs", what="a list of runs")
    for run in runs:
        _optimal_args(run)
    tasks = [(*run, {"symmetry": s}) for run in runs for s in (True, False)]
    return pd.DataFrame(sweep(_optimal_run, tasks, executor=executor, workers=workers,
                              desc="searches"))


def _coin_greedy_row(task: tuple[int, bool]) -> dict:
    n, genuine = task
    game = counterfeit_coin(n, genuine)
    row = {"coins": n, "extra genuine coin": genuine, "codes": game.n_codes,
           "Lemma 14": lemma14_bound(game),
           "optimal worst": coins.fewest_weighings(n, genuine),
           "optimal total": coins.least_total(coins.initial(n, genuine))}
    for s in STRATEGIES:
        a = analyze(game, s)
        row[f"{s} worst"], row[f"{s} total"] = a.worst, a.total
    return row


def coin_greedy_table(max_coins: int = 13, *, executor: Executor | None = None,
                      workers: int = 1) -> pd.DataFrame:
    """Greedy strategies against the optimum (class counting), 1..max_coins coins."""
    max_coins = checks.integer(max_coins, "max_coins", low=1, high=13)
    tasks = [(n, genuine) for genuine in (False, True)
             for n in range(1 if genuine else 3, max_coins + 1)]
    return pd.DataFrame(sweep(_coin_greedy_row, tasks, executor=executor, workers=workers,
                              desc="coins"))


SHIPPED = {"coin4": ("coin", 4, 8), "coin4_genuine": ("coin + genuine", 4, 8),
           "coin12": ("coin", 12, 8), "coin12_alt": ("coin", 12, 9), "coin13": ("coin", 13, 8),
           "coin13_genuine": ("coin + genuine", 13, 8), "mastermind_3x3": ("Mastermind", 3, 3),
           "mastermind": ("Mastermind", 4, 6), "mastermind_black": ("black-peg Mastermind", 4, 6)}


def built_in_twin(stem: str) -> Game:
    """The built-in game a shipped file under data/games/ describes."""
    kind, a, b = SHIPPED[checks.choice(stem, "shipped game", SHIPPED)]
    if kind.startswith("coin"):
        return counterfeit_coin(a, kind.endswith("genuine"), formalization=b)
    return make_game(kind, a, b)


def _language_rows(stem: str) -> list[dict]:
    """One shipped file parsed and analysed beside its built-in twin, every strategy."""
    path = GAMES_DIR / f"{stem}.cobra"
    parsed, built = load(path), built_in_twin(stem)
    rows = []
    for s in STRATEGIES:
        p, q = analyze(parsed, s), analyze(built, s)
        rows.append({"file": path.name, "built-in": built.name, "codes": parsed.n_codes,
                     "experiments": parsed.n_experiments,
                     "same experiments": parsed.experiments == built.experiments,
                     "strategy": s, "worst (file)": p.worst, "worst (built-in)": q.worst,
                     "total (file)": p.total, "total (built-in)": q.total,
                     "same histogram": p.histogram() == q.histogram()})
    return rows


def language_table(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Each shipped game file analysed beside its built-in twin: every strategy's numbers."""
    stems = [p.stem for p in sorted(GAMES_DIR.glob("*.cobra")) if p.stem in SHIPPED]
    rows = sweep(_language_rows, stems, executor=executor, workers=workers, desc="files")
    return pd.DataFrame([row for file_rows in rows for row in file_rows])


# --- the tables by name: the notebook and the command lines read them from here -----------------
# The tables of the optimal sizes in data/ (every row checked whenever one is read).
OPTIMAL_SIZES = cache.register(Table(TABLE, params=dict(runs=DEFAULT_RUNS), check=check_sizes))
OPTIMAL_SIZES_LONG = cache.register(Table(TABLE_LONG, params=dict(runs=LONG_RUNS), long_run=True,
                                          check=check_sizes))


TABLES: dict[str, Callable[..., pd.DataFrame]] = {
    "codebreaking_strategies": strategies_table,
    "codebreaking_strategies_5peg": strategies_5peg_table,
    "codebreaking_coins": coin_greedy_table,
    "codebreaking_dyson": coin_table,
    "codebreaking_optimal": optimal_table,
    "codebreaking_symmetry": symmetry_table,
    "codebreaking_language": language_table,
    "codebreaking_optimal_sizes": frontier.optimal_sizes,
}


# Tables whose rows are re-checked when read (a cached table is never trusted blindly).
VERIFY: dict[str, Callable[[pd.DataFrame], None]] = {"codebreaking_optimal_sizes": check_sizes}


# Each defined by its code alone (bump its version when its meaning changes); the optimal
# sizes by their runs (`OPTIMAL_SIZES`).
_DECLARED = [cache.register(Table(name)) for name in TABLES if name != OPTIMAL_SIZES.name]


@cache.rebuilds("codebreaking_printed_clauses")
def printed_clause_checks() -> pd.DataFrame:
    """Example 10's printed clauses of Outcome(1, 1), each checked (`source.clause_report`),
    read from the thesis once and cached as data/codebreaking_printed_clauses.csv."""
    table = cached_source_table("codebreaking_printed_clauses", "klimos2014",
                                lambda text: clause_report(printed_outcome_1_1(text)))
    return table.assign(**{"same as clause": table["same as clause"].astype("Int64")})


def cached(name: str) -> pd.DataFrame:
    """The table `name` of `TABLES` from data/<name>.csv (computed and written when missing)."""
    return cached_table(checks.choice(name, "table", TABLES), TABLES[name], verify=VERIFY.get(name))


def optimal_sizes_long() -> pd.DataFrame:
    """The sizes beyond the budget whose searches ended (data/codebreaking_optimal_sizes_long.csv,
    from `puzzlelab compute codebreaking_optimal_sizes_long --long-run`), checked; empty when
    absent."""
    table = read_long_run(OPTIMAL_SIZES_LONG, verify=check_sizes)
    return pd.DataFrame(columns=COLUMNS) if table is None else table


# --- what `puzzlelab compute` runs ----------------------------------------------------------------
def sizes_run(*, runs: str = "default", executor: Executor | None = None,
              workers: int = 1) -> pd.DataFrame:
    """Compute and write the optimal sizes of the run list `runs`: "default" (the sizes within
    the budget, data/codebreaking_optimal_sizes.csv), "long" (the sizes beyond it that end,
    ..._long.csv) or "all" (every size tried, ..._all.csv)."""
    runs = checks.choice(runs, "runs", ("default", "long", "all"))
    executor, workers = checks.sweep_options(executor, workers)
    table = {"default": OPTIMAL_SIZES, "long": OPTIMAL_SIZES_LONG,
             "all": OPTIMAL_SIZES.variant(name=f"{TABLE}_all", runs=ALL_RUNS,
                                          command="puzzlelab.codebreaking.tables.sizes_run("
                                                  "runs='all')")
             }[runs]
    cache.check_writable(table)
    sizes = [tuple(r) for r in table.params["runs"]]
    return cache.compute_table(table, lambda: frontier.optimal_sizes(
        sizes, executor=executor, workers=workers), verify=check_sizes)


def table_run(*, name: str, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Compute and write the table `name` of `TABLES` on any executor (data/<name>.csv)."""
    name = checks.choice(name, "table", TABLES)
    if name == OPTIMAL_SIZES.name:
        return sizes_run(runs="default", executor=executor, workers=workers)
    executor, workers = checks.sweep_options(executor, workers)
    return cache.compute_table(name, lambda: TABLES[name](executor=executor, workers=workers),
                               verify=VERIFY.get(name))


for _name in TABLES:
    cache.rebuilds(_name)(functools.partial(table_run, name=_name))
cache.rebuilds(OPTIMAL_SIZES_LONG)(functools.partial(sizes_run, runs="long"))
