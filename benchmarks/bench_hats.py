"""Hat problem (Janssen 2017): the library's methods against plain-Python baselines.

Writes data/bench_hats.csv (schema: `puzzlelab.timing.COLUMNS`). Cases:
- N = 3, all 531,441 deals and their maximal won sets: the numpy brute force against a
  ~20-line plain-Python bitmask brute force and a straightforward per-deal loop
  (benchmarks/plain.py); whole-process times too, since interpreter start and imports matter.
- N = 4, the 130 maximal won sets: the minimal-dominating-sets search against the thesis's
  Chain-Method (a brute force over 3^32 deals is out of reach).
- N = 5 maximal won sets and the exact N = 6 optimum: the library alone.
PUZZLELAB_BENCH_QUICK=1 runs few repetitions.
"""

from __future__ import annotations

from puzzlelab.hats import brute, maximal_won_masks, optimum
from puzzlelab.timing import Method, Task, measure, repetitions, write_rows

HERE = "bench_hats"
PLAIN = "the strongest simple baseline: a plain-Python bitmask brute force (benchmarks/plain.py)"
NAIVE = "a straightforward plain-Python loop: deal by deal, round by round (benchmarks/plain.py)"


def numpy_brute(n: int) -> tuple[int, int, int]:
    """(deals, distinct won sets, maximal won sets) by the vectorised brute force."""
    result = brute.brute_force(n, 2)
    return len(result.won), len(result.distinct_won_sets()), len(result.maximal_won_sets())


def maximal_sets(n: int) -> int:
    """How many maximal won sets, by the search over minimal dominating sets."""
    return len(maximal_won_masks(n))


def chain_method(n: int) -> int:
    """How many maximal won sets the thesis's Chain-Method finds (viability: each chain correct)."""
    from puzzlelab.hats import chains

    return len(chains.chain_method(n, viability="each-chain-correct").combinations)


def exact_optimum(n: int) -> int:
    """The most rounds an optimal deal wins for N players and two colours."""
    return optimum(n, 2)


def main() -> None:
    rows, reps = [], repetitions(7)
    cold = repetitions(3, 1)
    rows += measure("hats", "N = 3: all 531,441 deals, maximal won sets", [
        Method("numpy brute force (library)", Task(HERE, "numpy_brute", (3,))),
        Method("plain-Python bitmask brute force", Task("plain", "hats_bitmask", (3,)),
               "baseline", note=PLAIN),
        Method("plain-Python per-deal loop", Task("plain", "hats_naive", (3,)), "baseline",
               note=NAIVE),
    ], repeat=reps, cold_repeat=cold, budget=12)
    rows += measure("hats", "N = 4: all maximal won sets", [
        Method("minimal dominating sets search (library)", Task(HERE, "maximal_sets", (4,))),
        Method("Chain-Method, breadth first (library)", Task(HERE, "chain_method", (4,)),
               "baseline", note="the thesis's method; brute force over 3^32 deals is out of reach"),
    ], repeat=reps, cold_repeat=cold)
    rows += measure("hats", "N = 5: all maximal won sets", [
        Method("minimal dominating sets search (library)", Task(HERE, "maximal_sets", (5,)),
               note="no baseline: the thesis's program could not finish N = 5"),
    ], repeat=repetitions(3), cold_repeat=1)
    rows += measure("hats", "N = 6: exact optimum (M = 2)", [
        Method("branch and bound over lost sets (library)", Task(HERE, "exact_optimum", (6,)),
               warm=False, note="no simple baseline: 3^192 deals; cold only (the library "
               "remembers the search's answer within a process)"),
    ], cold_repeat=repetitions(2, 1), profile_below=0)
    print(write_rows(rows, "bench_hats").to_string(index=False))


if __name__ == "__main__":
    main()
