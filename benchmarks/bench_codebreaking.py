"""Code breaking (Klimoš 2014, §3.3-3.5): Mastermind analyses and optimal searches, cold and warm.

Cold figures come from a fresh interpreter and include building the game table and, for the
optimal searches, the one-time symmetry group; warm figures repeat the call on the built game.
- Knuth's strategy (max-models) over all 1296 codes of Mastermind 4 x 6: the vectorised
  analysis against a plain-Python program written from scratch (benchmarks/plain.py; its
  feedback table, like the library's game table, is built once per process).
- The optimal worst case of Mastermind 4 x 6 with and without symmetry reduction, and the
  optimal average (cold only).
- Every strategy's analysis as Mastermind grows: vectorised against the same plain-Python
  program (warm figures).
Writes data/bench_codebreaking.csv; COBRA's figures are in data/bench_outside.csv.
"""

from __future__ import annotations

from functools import lru_cache

from puzzlelab.codebreaking import STRATEGIES, Game, analyze, mastermind, optimal
from puzzlelab.timing import Method, Task, measure, quick, repetitions, write_rows

HERE = "bench_codebreaking"
SIZES = [(2, 4), (3, 3), (3, 4), (3, 5), (4, 4), (4, 5)] + ([] if quick() else [(4, 6), (5, 5)])
PLAIN_UP_TO = 625  # codes: the plain-Python program is timed up to Mastermind 4 x 5
SCRATCH = ("the strongest simple baseline: the greedy analysis in plain Python from scratch "
           "(benchmarks/plain.py)")


@lru_cache(maxsize=None)
def game(pegs: int, colors: int) -> Game:
    """Mastermind, built once per process (a warm call reuses its table and symmetry group)."""
    return mastermind(pegs, colors)


def vectorised(pegs: int, colors: int, strategy: str = "max-models") -> int:
    """Total guesses over all codes of the greedy strategy, by the vectorised analysis."""
    return int(analyze(game(pegs, colors), strategy).total)


def optimal_worst(pegs: int, colors: int, symmetry: bool) -> int:
    """The optimal worst case (guesses) by the library's search."""
    return int(optimal(game(pegs, colors), "worst", symmetry=symmetry).worst)


def optimal_average(pegs: int, colors: int) -> int:
    """The least total of guesses over all codes (optimal average times the number of codes)."""
    return int(optimal(game(pegs, colors), "average").total)


def headline_rows() -> list[dict]:
    reps, cold = repetitions(5), repetitions(3, 1)
    rows = measure("codebreaking", "Knuth's strategy (max-models), Mastermind 4x6", [
        Method("vectorised analysis (library)", Task(HERE, "vectorised", (4, 6))),
        Method("plain Python from scratch", Task("plain", "greedy_total", (4, 6)), "baseline",
               note=SCRATCH),
    ], repeat=reps, cold_repeat=cold, budget=15)
    rows += measure("codebreaking", "optimal worst case, Mastermind 4x6", [
        Method("search with symmetry (library)", Task(HERE, "optimal_worst", (4, 6, True)),
               note="cold includes the one-time symmetry build"),
        Method("search without symmetry (library)", Task(HERE, "optimal_worst", (4, 6, False)),
               "baseline"),
    ], repeat=reps, cold_repeat=cold, budget=15)
    if not quick():
        rows += measure("codebreaking", "optimal average, Mastermind 4x6", [
            Method("search with symmetry (library)", Task(HERE, "optimal_average", (4, 6)),
                   warm=False, note="cold only"),
        ], cold_repeat=1, profile_below=0)
    return rows


def scaling_rows() -> list[dict]:
    rows = []
    for pegs, colors in SIZES:
        codes = colors**pegs
        for strategy in STRATEGIES:
            args = (pegs, colors, strategy)
            methods = [Method("vectorised", Task(HERE, "vectorised", args), cold=False)]
            if codes <= PLAIN_UP_TO:
                methods.append(Method("plain", Task("plain", "greedy_total", args),
                                      "baseline", cold=False, note=SCRATCH))
            case = f"{strategy}, Mastermind {pegs}x{colors} ({codes} codes)"
            rows += measure("codebreaking", case, methods, repeat=repetitions(5), budget=3,
                            profile_below=0)
    return rows


def main() -> None:
    print(write_rows(headline_rows() + scaling_rows(), "bench_codebreaking").to_string(index=False))


if __name__ == "__main__":
    main()
