"""Time the analysis of every strategy over all codes of Mastermind, vectorised against the plain recursion,
and the optimal searches of the notebook (Klimoš, thesis §3.3–3.5).

Writes data/bench_codebreaking.csv (read by notebooks/codebreaking.ipynb, which never re-times).
The issue's target: Knuth's strategy (max-models) over all 1296 codes of Mastermind 4 × 6 in
well under 5 s (COBRA, the thesis's C++ tool on SAT solvers, needs about 150 s).

- Analyses: best of `REPEAT` runs (one run above 1296 codes); the baseline is the plain
  recursion of the same strategy (`analyze_plain`), timed in the same run up to 4 × 5, and
  "ratio" = plain seconds / vectorised seconds.
- Optimal searches: best of `REPEAT` runs for the quick ones, a single run for the slow ones
  (Mastermind 4 × 6); "ratio" = seconds / seconds of the same search with symmetry, where
  both are timed.
"""

from __future__ import annotations

import pandas as pd

from puzzlelab.cache import write_table
from puzzlelab.codebreaking import STRATEGIES, analyze, analyze_plain, counterfeit_coin, mastermind, optimal
from puzzlelab.progress import tqdm
from puzzlelab.timing import best_of, timed

SIZES = [(2, 4), (3, 3), (3, 4), (3, 5), (4, 4), (4, 5), (4, 6), (5, 5)]
PLAIN_UP_TO = 625  # the plain recursion of all four strategies up to Mastermind 4 × 5
REPEAT = 3
# (game, measure, use symmetry, runs): the optimal searches the notebook caches
SEARCHES = [
    (lambda: mastermind(3, 3), "average", True, REPEAT),
    (lambda: mastermind(4, 6), "worst", True, REPEAT),
    (lambda: mastermind(4, 6), "worst", False, REPEAT),
    (lambda: mastermind(4, 6), "average", True, 1),
    (lambda: counterfeit_coin(12), "average", True, REPEAT),
    (lambda: counterfeit_coin(12, True), "average", True, 1),
    (lambda: counterfeit_coin(13), "average", True, 1),
    (lambda: counterfeit_coin(13, True), "average", True, 1),
]


def fastest(f, repeat: int) -> tuple[float, object]:
    """Best-of-`repeat` seconds of f() and its result (the first run gives the result)."""
    seconds, result = timed(f)
    if repeat > 1:
        seconds = min(seconds, best_of(f, repeat - 1))
    return seconds, result


def analysis_rows() -> list[dict]:
    """Every strategy on every size, vectorised and (up to PLAIN_UP_TO codes) plain."""
    rows = []
    for pegs, colors in tqdm(SIZES, desc="sizes"):
        game = mastermind(pegs, colors)
        repeat = REPEAT if game.n_codes <= 1296 else 1
        for strategy in STRATEGIES:
            methods = [("vectorised", analyze)] + ([("plain", analyze_plain)] if game.n_codes <= PLAIN_UP_TO else [])
            for method, run in methods:
                seconds, result = fastest(lambda: run(game, strategy), repeat)
                rows.append({"game": game.name, "pegs": pegs, "colors": colors, "codes": game.n_codes,
                             "strategy": strategy, "method": method, "seconds": seconds,
                             "total": result.total})
                print(rows[-1], flush=True)
    return rows


def search_rows() -> list[dict]:
    """The optimal searches: worst case with and without symmetry, and the optimal averages."""
    rows = []
    for make, measure, use, repeat in tqdm(SEARCHES, desc="searches"):
        game = make()
        seconds, result = fastest(lambda: optimal(game, measure, symmetry=use), repeat)
        rows.append({"game": game.name, "pegs": None, "colors": None, "codes": game.n_codes,
                     "strategy": f"optimal {measure}", "method": "symmetry" if use else "no symmetry",
                     "seconds": seconds, "total": result.total})
        print(rows[-1], flush=True)
    return rows


def main() -> pd.DataFrame:
    df = pd.DataFrame(analysis_rows() + search_rows())
    fast = df[df.method == "vectorised"].set_index(["game", "strategy"]).seconds
    with_sym = df[df.method == "symmetry"].set_index(["game", "strategy"]).seconds
    df["ratio"] = [
        r.seconds / fast[(r.game, r.strategy)] if r.method == "plain"
        else r.seconds / with_sym[(r.game, r.strategy)] if r.method == "no symmetry"
        else 1.0
        for r in df.itertuples()
    ]
    df["seconds"] = df.seconds.round(4)
    df["ratio"] = df.ratio.round(2)
    write_table(df, "bench_codebreaking")
    return df


if __name__ == "__main__":
    print(main().to_string(index=False))
