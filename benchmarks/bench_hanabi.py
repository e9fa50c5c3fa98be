"""Benchmark: the source's brute force over subsets of rows against DP and CP-SAT (source 003, 'Solution').

Random colour-only tables (5 colours, each cell possible with probability 0.35, seeded)
of growing height; each method is timed (best of three) on the same tables in the same run,
and the ratio brute / dp is reported. Results: data/bench_hanabi.csv.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from puzzlelab import hanabi as H
from puzzlelab.cache import write_table
from puzzlelab.timing import best_of

BRUTE_LIMIT = 2.0  # seconds per table: beyond this the brute force is not run on taller tables


def random_rows(n_rows: int, n_hints: int, rng: np.random.Generator) -> list[list[int]]:
    rows = []
    while len(rows) < n_rows:
        row = (rng.random(n_hints) < 0.35).astype(int).tolist()
        if any(row):
            rows.append(row)
    return rows


def timed(method: str, table: H.HintTable) -> tuple[float, int]:
    """Best of three wall times of one method on one table, and the partition size it finds."""
    return best_of(lambda: H.partition_size(table, method)), H.partition_size(table, method)


def main() -> None:
    rng = np.random.default_rng(2018)
    records, brute_alive = [], True
    for n_hints, heights in [(5, range(4, 25, 2)), (10, [10, 40, 160]), (14, [20, 80]), (18, [40])]:
        for n_rows in heights:
            table = H.possibility_table(random_rows(n_rows, n_hints, rng), hints=[f"h{i}" for i in range(n_hints)])
            row = {"hints": n_hints, "rows": n_rows}
            for method in ("dp", "cp-sat") + (("brute",) if brute_alive and n_hints == 5 else ()):
                seconds, size = timed(method, table)
                row[f"{method}_s"], row[f"{method}_parts"] = seconds, size
            if "brute_s" in row:
                brute_alive = row["brute_s"] < BRUTE_LIMIT
                row["brute_over_dp"] = row["brute_s"] / row["dp_s"]
            sizes = {v for k, v in row.items() if k.endswith("_parts")}
            assert len(sizes) == 1, f"methods disagree on {row}"
            records.append(row)
            print(row, flush=True)
    write_table(pd.DataFrame(records), "bench_hanabi")


if __name__ == "__main__":
    main()
