"""Speed of the hat-problem methods against their baselines, timed in the same run.

Writes data/bench_hats.csv. Run: .venv/bin/python benchmarks/bench_hats.py (about two minutes;
the naive per-deal loop over all 531,441 deals is the slow part).
"""

from __future__ import annotations


import pandas as pd

from puzzlelab.cache import write_table
from puzzlelab.timing import best_of
from puzzlelab.hats import brute, chains, optima, sets




def main() -> pd.DataFrame:
    rows = []

    def add(task, method, seconds, baseline="", baseline_seconds=float("nan"), target=float("nan")):
        rows.append({
            "task": task, "method": method, "seconds": seconds, "baseline": baseline,
            "baseline_seconds": baseline_seconds, "speedup": baseline_seconds / seconds,
            "target_seconds": target, "meets_target": seconds < target if target == target else "",
        })
        print(rows[-1], flush=True)

    fast = best_of(lambda: brute.brute_force(3, 2), 5)
    naive = best_of(lambda: brute.naive_brute_force(3, 2), 1)
    add("N=3 brute force, all 531441 deals", "numpy bitmask broadcasting", fast, "naive per-deal loop", naive, 1.0)
    for n in (3, 4):
        for v in chains.VIABILITY:
            t = best_of(lambda: chains.chain_method(n, viability=v), 3)
            add(f"N={n} Chain-Method ({v})", "faithful breadth-first", t, "numpy brute force (N=3)" if n == 3 else "",
                fast if n == 3 else float("nan"))
        t = best_of(lambda: sets.maximal_won_masks(n), 3)
        add(f"N={n} all maximal won sets", "minimal dominating sets search", t)
    t5 = best_of(lambda: sets.maximal_won_masks(5), 1)
    add("N=5 all maximal won sets", "minimal dominating sets search", t5, target=60.0)
    for n in range(2, 8):
        t = best_of(lambda: optima.optimum(n, 2), 1)
        add(f"N={n} exact optimum (M=2)", optima.optimum_bounds(n, 2).method, t, target=60.0)
    df = pd.DataFrame(rows)
    write_table(df, "bench_hats")
    return df


if __name__ == "__main__":
    print(main().to_string())
