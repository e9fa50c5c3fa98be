"""Benchmark: Russian Cards searches against baselines; writes data/bench_russian_cards.csv.

1. All (3,3,1) safe announcements through 012: the pruned enumeration (`safe_announcements`)
   against filtering SMCDEL's 1290 candidate lists with the explicit epistemic model checker
   (SMCDEL reports 3.39 s for that filter with its symbolic checker).
2. Deciding the c = 2 cells with a >= 4, b >= 3, n <= 12: `decide` (lemmas, constructions,
   greedy, report DFS, CP-SAT) against CP-SAT alone on the whole model (60 s cap per cell).
"""

from __future__ import annotations


import pandas as pd

import puzzlelab.russian_cards as rc
from puzzlelab.cache import write_table
from puzzlelab.timing import best_of
from puzzlelab.russian_cards.model import cards, mask
from puzzlelab.russian_cards.search import cpsat_model, packings
from puzzlelab.solvers import solve as cp_solve




def smcdel_filter() -> int:
    """Model-check every one of the 1290 lists (Anne holding its first hand); keep 012's."""
    kept = 0
    for L in packings(7, 3, 1, sizes=(5, 6, 7)):
        mc = rc.model_check([cards(h) for h in L], 3, 3, 1)
        kept += mc.informative and mc.safe and L[0] == mask((0, 1, 2))
    return kept


HARD_CELLS = [(a, b, 2) for a in range(4, 9) for b in range(3, 9) if a + b + 2 <= 12]


def cpsat_only() -> int:
    """CP-SAT on the whole model for every cell (60 s cap each); the number left undecided."""
    return sum(not (r := cp_solve(cpsat_model(*abc)[0], time_limit=60)).feasible and not r.infeasible
               for abc in HARD_CELLS)


def main() -> None:
    rows = []
    n_fast = len(rc.safe_announcements(3, 3, 1))
    n_slow = smcdel_filter()
    assert n_fast == n_slow
    fast, slow = best_of(lambda: rc.safe_announcements(3, 3, 1)), best_of(smcdel_filter, 1)
    rows.append(dict(task="all (3,3,1) safe announcements through 012", fast="safe_announcements",
                     fast_s=fast, baseline="model-check SMCDEL's 1290 lists", baseline_s=slow))
    assert all(rc.decide(*abc).status != "open" for abc in HARD_CELLS)
    fast = best_of(lambda: [rc.decide(*abc) for abc in HARD_CELLS], 1)
    undecided = cpsat_only()
    slow = best_of(cpsat_only, 1)
    rows.append(dict(task=f"decide the {len(HARD_CELLS)} cells a>=4, b>=3, c=2, n<=12", fast="decide",
                     fast_s=fast, baseline=f"CP-SAT whole model only ({undecided} left undecided)", baseline_s=slow))
    df = pd.DataFrame(rows)
    df["ratio"] = df.baseline_s / df.fast_s
    print(df.to_string(index=False))
    write_table(df, "bench_russian_cards")


if __name__ == "__main__":
    main()
