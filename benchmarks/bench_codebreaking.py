"""Time the analysis of every strategy over all codes of Mastermind, vectorised against the plain recursion.

Writes data/bench_codebreaking.csv (read by notebooks/codebreaking.ipynb, which never re-times).
The issue's target: Knuth's strategy (max-models) over all 1296 codes of Mastermind 4 × 6 in
well under 5 s (COBRA, the thesis's C++ tool on SAT solvers, needs about 150 s).
"""

from __future__ import annotations


import pandas as pd

from puzzlelab.cache import write_table
from puzzlelab.timing import timed
from puzzlelab.codebreaking import STRATEGIES, analyze, analyze_plain, mastermind, optimal

SIZES = [(2, 4), (3, 3), (3, 4), (3, 5), (4, 4), (4, 5), (4, 6), (5, 5)]
PLAIN_UP_TO = 1296  # the plain recursion on 4 × 6 takes about a minute; larger is left out




def main() -> pd.DataFrame:
    rows = []
    for pegs, colors in SIZES:
        game = mastermind(pegs, colors)
        for strategy in STRATEGIES:
            seconds, fast = timed(analyze, game, strategy)
            rows.append({"game": game.name, "pegs": pegs, "colors": colors, "codes": game.n_codes,
                         "strategy": strategy, "method": "vectorised", "seconds": seconds,
                         "total": fast.total})
            print(rows[-1], flush=True)
        if game.n_codes <= PLAIN_UP_TO:
            seconds, plain = timed(analyze_plain, game, "max-models")
            rows.append({"game": game.name, "pegs": pegs, "colors": colors, "codes": game.n_codes,
                         "strategy": "max-models", "method": "plain", "seconds": seconds,
                         "total": plain.total})
            print(rows[-1], flush=True)
    game = mastermind(4, 6)
    for use in (True, False):
        seconds, res = timed(lambda: optimal(game, "worst", symmetry=use))
        rows.append({"game": game.name, "pegs": 4, "colors": 6, "codes": game.n_codes,
                     "strategy": "optimal worst", "method": "symmetry" if use else "no symmetry",
                     "seconds": seconds, "total": res.total})
        print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    fast = df[df.method == "vectorised"].set_index(["game", "strategy"]).seconds
    df["ratio"] = [
        (r.seconds / fast[(r.game, r.strategy)]) if r.method == "plain" else
        (r.seconds / df[(df.strategy == r.strategy) & (df.method == "symmetry")].seconds.iloc[0])
        if r.method in ("symmetry", "no symmetry") else 1.0
        for r in df.itertuples()
    ]
    df["seconds"] = df.seconds.round(4)
    df["ratio"] = df.ratio.round(2)
    write_table(df, "bench_codebreaking")
    return df


if __name__ == "__main__":
    print(main().to_string(index=False))
