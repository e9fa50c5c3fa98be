"""Optimal code breaking over a table of game sizes, beside the published values.

For Mastermind, black-peg Mastermind and Bulls and Cows with 2–4 pegs, `optimal_sizes` runs the
exhaustive search of `exhaustive.optimal` (Klimoš 2014, §3.4–3.5) on every size of a run list and reports
the optimal worst case, the optimal total (and average) number of guesses over all codes, the
worst case of that average-optimal strategy, and the least total among strategies that keep
the optimal worst case (Koyama and Lai 1993 give both totals for the 4-peg, 6-colour game).

`DEFAULT_RUNS` are the sizes whose searches fit `BUDGET_SECONDS` each, `LONG_RUNS` those that
end beyond it (their table is a long run), `ALL_RUNS` adds the frontier;
`NOT_REACHED` names the sizes whose average search did not finish, and
`frontier_bounds` brackets their optimal total between the counting bound and the best greedy
strategy. `published_values` lists the outside values we could check against their sources,
with the citation key of each (`puzzlelab.sources`); `compare` sets our rows beside them.

    puzzlelab compute codebreaking_optimal_sizes --workers 2
    puzzlelab compute codebreaking_optimal_sizes_long --long-run  # Mastermind 4×7, ~30 minutes

write data/codebreaking_optimal_sizes.csv and data/codebreaking_optimal_sizes_long.csv, with
their checksums and metadata (`tables.sizes_run("all")`: data/codebreaking_optimal_sizes_all.csv).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from fractions import Fraction

import pandas as pd

from .. import checks
from ..sweeps import sweep
from .analysis import analyze
from .game import Game
from .games import black_peg_mastermind, bulls_and_cows, mastermind
from .exhaustive import Search, optimal
from .strategies import STRATEGIES

__all__ = [
    "ALL_RUNS", "BUDGET_SECONDS", "COLUMNS", "DEFAULT_RUNS", "GAMES", "LONG_RUNS",
    "NOT_REACHED", "TABLE", "TABLE_LONG",
    "bounds_row", "check_sizes", "compare", "frontier_bounds", "optimal_size_row",
    "optimal_sizes", "published_values",
]

TABLE = "codebreaking_optimal_sizes"

GAMES: dict[str, Callable[[int, int], Game]] = {
    "Mastermind": mastermind,
    "black-peg Mastermind": black_peg_mastermind,
    "Bulls and Cows": bulls_and_cows,
}

#: the budget (seconds of one core) a size of DEFAULT_RUNS is chosen to fit, all searches together
BUDGET_SECONDS = 120


def _runs(kind: str, pegs: int, colours: Sequence[int]) -> list[tuple[str, int, int]]:
    return [(kind, pegs, c) for c in colours]


#: the sizes whose three searches finish within BUDGET_SECONDS
DEFAULT_RUNS: list[tuple[str, int, int]] = [
    *_runs("Mastermind", 2, range(2, 11)), *_runs("Mastermind", 3, range(2, 9)),
    *_runs("Mastermind", 4, range(2, 7)),
    *_runs("black-peg Mastermind", 2, range(2, 10)), *_runs("black-peg Mastermind", 3, range(2, 7)),
    *_runs("black-peg Mastermind", 4, range(2, 5)),
    *_runs("Bulls and Cows", 2, range(2, 11)), *_runs("Bulls and Cows", 3, range(3, 9)),
    *_runs("Bulls and Cows", 4, range(4, 8)),
]

#: sizes whose searches end, but beyond the budget (`--runs long` writes them to
#: data/codebreaking_optimal_sizes_long.csv): Mastermind 4×7 takes about 30 minutes of one core,
#: black-peg Mastermind 3×7 about 47
LONG_RUNS: list[tuple[str, int, int]] = [("Mastermind", 4, 7), ("black-peg Mastermind", 3, 7)]
TABLE_LONG = "codebreaking_optimal_sizes_long"

#: sizes whose search did not finish: (kind, pegs, colours) -> what was found and tried;
#: `frontier_bounds` gives their bounds
NOT_REACHED: dict[tuple[str, int, int], str] = {
    ("black-peg Mastermind", 4, 5): "the worst-case and average searches together did not end "
                                    "within 900 s",
}

#: every size tried (`tables.sizes_run("all")`): the default sizes, the long ones, and the frontier beyond
ALL_RUNS: list[tuple[str, int, int]] = [*DEFAULT_RUNS, *LONG_RUNS, *NOT_REACHED]

#: "worst of average-optimal" is the worst case of the average-optimal strategy the search
#: found; another strategy with the same total may do better (then "total within optimal worst"
#: equals "optimal total")
COLUMNS = ["game", "kind", "pegs", "colours", "codes", "optimal worst", "optimal total",
           "optimal average", "worst of average-optimal", "total within optimal worst", "states"]


def _make(kind: str, pegs: int, colours: int) -> Game:
    checks.choice(kind, "kind of game", tuple(GAMES))
    return GAMES[kind](pegs, colours)


def _run(run: object) -> tuple[str, int, int]:
    """A size to solve: a tuple (kind of game, pegs, colours)."""
    if not isinstance(run, tuple) or len(run) != 3:
        raise checks.ArgumentTypeError(f"a run is a tuple (kind, pegs, colours), got {run!r}")
    kind, pegs, colours = run
    return (checks.choice(kind, "kind of game", tuple(GAMES)),
            checks.integer(pegs, "pegs", low=1), checks.integer(colours, "colours", low=1))


def _runs(runs: object) -> list[tuple[str, int, int]]:
    """Every run of `runs` (tuples, or lists made tuples) checked before any is solved."""
    runs = checks.sequence(runs, "runs", what="a list of (kind, pegs, colours)")
    return [_run(tuple(r) if isinstance(r, list) else r) for r in runs]


def optimal_size_row(run: tuple[str, int, int]) -> dict:
    """One size: optimal worst case, optimal total and average, and the search's size (Klimoš
    2014, Definition 13)."""
    kind, pegs, colours = _run(run)
    game = _make(kind, pegs, colours)
    worst = optimal(game, "worst")
    average = optimal(game, "average")
    states = worst.stats["states"] + average.stats["states"]
    within = average.total
    if average.worst > worst.worst:  # the average-optimal strategy gives up the optimal worst case
        kept = optimal(game, "average", max_worst=worst.worst)
        within, states = kept.total, states + kept.stats["states"]
    return {"game": game.name, "kind": kind, "pegs": int(pegs), "colours": int(colours),
            "codes": game.n_codes, "optimal worst": worst.worst, "optimal total": average.total,
            "optimal average": average.total / game.n_codes,
            "worst of average-optimal": average.worst, "total within optimal worst": within,
            "states": states}


def optimal_sizes(runs: Sequence[tuple[str, int, int]] = tuple(DEFAULT_RUNS), *,
                  executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """One row per size of `runs` (kind, pegs, colours), in that order, on any executor."""
    rows = sweep(optimal_size_row, _runs(runs), executor=executor, workers=workers, desc="game sizes")
    return pd.DataFrame(rows, columns=COLUMNS)


def bounds_row(run: tuple[str, int, int]) -> dict:
    """Bounds on the optimal total where the search does not finish: the counting bound (Klimoš
    2014, Lemma 14, level by level) below, the best greedy strategy's total above."""
    game = _make(*_run(run))
    lower = int(Search(game).bounds[game.n_codes])
    upper, strategy = min((analyze(game, name).total, name) for name in STRATEGIES)
    return {"game": game.name, "codes": game.n_codes, "total at least": lower,
            "total at most": upper, "by strategy": strategy,
            "average at least": lower / game.n_codes, "average at most": upper / game.n_codes}


def frontier_bounds(runs: Sequence[tuple[str, int, int]] = tuple(NOT_REACHED), *,
                    executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """`bounds_row` for each size of `runs` (by default the sizes the search did not finish)."""
    return pd.DataFrame(sweep(bounds_row, _runs(runs), executor=executor, workers=workers,
                              desc="game sizes"))


# --- published values --------------------------------------------------------------------------

PUBLISHED_COLUMNS = ["kind", "pegs", "colours", "quantity", "published", "source", "note"]


def _goddard(pegs: int, colours: int, average: str) -> dict:
    return {"kind": "Mastermind", "pegs": pegs, "colours": colours, "quantity": "optimal average",
            "published": average, "source": "goddard2004",
            "note": "r(n, k) to 3 decimals, as quoted by Pokutta (2011)"}


def _chen_lin(colours: int) -> list[dict]:
    """Chen and Lin (2004, abstract): 2 pegs, n colours: worst ⌊n/2⌋ + 2 guesses; least average
    (8n³ + 51n² − 74n + 48)/24n² for even n, (8n³ + 51n² − 80n + 69)/24n² for odd n."""
    n = colours
    last = (-74 * n + 48) if n % 2 == 0 else (-80 * n + 69)
    average = Fraction(8 * n**3 + 51 * n**2 + last, 24 * n**2)
    note = "formula of the abstract"
    if n == 2:
        note += ("; it gives 7/4 at n = 2, but after any first guess two codes get the same "
                 "marks, so 8/4 is least (the tests' brute force agrees)")
    base = {"kind": "Mastermind", "pegs": 2, "colours": n, "source": "chen_lin2004"}
    return [{**base, "quantity": "optimal worst", "published": str(n // 2 + 2),
             "note": "formula of the abstract"},
            {**base, "quantity": "optimal average",
             "published": f"{average.numerator}/{average.denominator}", "note": note}]


def published_values() -> pd.DataFrame:
    """The outside values checked against their sources, as printed, each with its citation key.

    `published` is the printed text: an exact integer, or a decimal rounded to its printed
    digits, or a fraction p/q (exact). Koyama and Lai (1993) for 4 pegs and 6 colours, Knuth
    (1977) and Ville (2013) for its worst case, Ville (2013) for 7 colours, Chen and Lin (2004)
    for 2 pegs (their formulas, evaluated), Goddard (2004) for the small sizes.
    """
    rows = [
        {"kind": "Mastermind", "pegs": 4, "colours": 6, "quantity": "optimal total",
         "published": "5625", "source": "koyama_lai1993", "note": "5625/1296 = 4.340"},
        {"kind": "Mastermind", "pegs": 4, "colours": 6, "quantity": "worst of average-optimal",
         "published": "6", "source": "koyama_lai1993",
         "note": "their average-optimal strategy needs 6 guesses for some code"},
        {"kind": "Mastermind", "pegs": 4, "colours": 6, "quantity": "total within optimal worst",
         "published": "5626", "source": "koyama_lai1993", "note": "5626/1296 = 4.341, at most 5"},
        {"kind": "Mastermind", "pegs": 4, "colours": 6, "quantity": "optimal worst",
         "published": "5", "source": "knuth1977",
         "note": "Knuth's strategy; Ville (2013) states 5 is the minimal worst case"},
        {"kind": "Mastermind", "pegs": 4, "colours": 7, "quantity": "optimal average",
         "published": "4.676", "source": "ville2013", "note": "abstract, 3 decimals"},
        *(row for n in range(2, 11) for row in _chen_lin(n)),
        *(_goddard(p, c, v) for (p, c), v in {
            (2, 2): "2", (3, 2): "2.250", (4, 2): "2.750", (2, 3): "2.333", (3, 3): "2.704",
            (4, 3): "3.037", (2, 4): "2.813", (3, 4): "3.219", (4, 4): "3.535", (2, 5): "3.240",
            (3, 5): "3.608", (4, 5): "3.941"}.items()),
    ]
    return pd.DataFrame(rows, columns=PUBLISHED_COLUMNS)


def _agrees(ours: float, published: str) -> bool:
    """Does our exact value print as the published text (same number of decimals)?"""
    digits = len(published.split(".")[1]) if "." in published else 0
    exact = Fraction(ours).limit_denominator(10**9)
    if digits == 0:  # an integer or an exact fraction p/q
        return exact == Fraction(published)
    return abs(exact - Fraction(published)) <= Fraction(1, 2 * 10**digits)


def compare(ours: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each published value beside ours (None where our table has no such size): agree or not."""
    checks.table(ours, "ours", ("kind", "pegs", "colours", "codes", "optimal total"),
                 made_by="optimal_sizes")
    published = checks.table(published_values() if published is None else published,
                             "published", PUBLISHED_COLUMNS, made_by="published_values")
    index = ours.set_index(["kind", "pegs", "colours"])
    rows = []
    for p in published.itertuples(index=False):
        key = (p.kind, int(p.pegs), int(p.colours))
        value = None
        if key in index.index and p.quantity == "optimal average":  # exact: total / codes
            value = Fraction(int(index.loc[key, "optimal total"]), int(index.loc[key, "codes"]))
        elif key in index.index and p.quantity in index.columns:
            value = index.loc[key, p.quantity]
        rows.append({"game": f"{p.kind} {p.pegs}×{p.colours}", "quantity": p.quantity,
                     "published": p.published,
                     "ours": None if value is None else _shown(value, p.published),
                     "agree": None if value is None else _agrees(value, p.published),
                     "source": p.source, "note": p.note})
    return pd.DataFrame(rows, columns=["game", "quantity", "published", "ours", "agree", "source",
                                       "note"])


def _row_problem(r: pd.Series) -> str | None:
    """Why one row's numbers contradict each other (None when they agree): the average is the
    total over the codes, and the strategies kept within the optimal worst case do no better."""
    if abs(r["optimal average"] - r["optimal total"] / r["codes"]) > 1e-9 * r["optimal total"]:
        return f"has the average {r['optimal average']} for {r['optimal total']} / {r['codes']}"
    if r["worst of average-optimal"] < r["optimal worst"]:
        return "has an average-optimal strategy better than the optimal worst case"
    if not r["optimal total"] <= r["total within optimal worst"]:
        return "keeps the optimal worst case with a total below the optimal total"
    return None


def check_sizes(table: pd.DataFrame) -> None:
    """ValueError unless the table has its columns, each row's numbers agree with each other
    (`_row_problem`) and every published value it reaches agrees (or the disagreement is
    explained in the published row's note)."""
    if not isinstance(table, pd.DataFrame) or list(table.columns) != COLUMNS:
        raise ValueError(f"an optimal-sizes table has the columns {COLUMNS}")
    for _, r in table.iterrows():
        problem = _row_problem(r)
        if problem is not None:
            raise ValueError(f"{r['game']} {problem}")
    checked = compare(table)
    explained = checked.note.str.contains("brute force")
    wrong = checked[(checked.agree == False) & ~explained]  # noqa: E712
    if len(wrong):
        r = wrong.iloc[0]
        raise ValueError(f"{r.game}: {r.quantity} {r.ours}, but {r.source} has {r.published}")


def _shown(value: float | Fraction, published: str) -> str:
    """Our value printed like the published one (exact integer, or p/q ≈ decimal)."""
    f = Fraction(value).limit_denominator(10**9)
    if "." not in published:
        return str(f)
    digits = len(published.split(".")[1])
    rounded = Fraction(math.floor(f * 10**digits + Fraction(1, 2)), 10**digits)  # half up
    return f"{f} ≈ {float(rounded):.{digits}f}"
