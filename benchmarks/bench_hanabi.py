"""Hanabi hint packing (source 003, 'Solution'): the DP over subsets of hints against the
source's brute force over rows, made as strong as it simply gets.

The baseline (benchmarks/plain.py) removes duplicate rows and tries subset sizes only from
min(rows, hints) down, since no more rows than hints can be pairwise disjoint. CP-SAT set
packing (the library's other exact method) is timed beside them. Seeded random colour-only
tables (each cell possible with probability 0.35) from 5 hints up to 18 hints and 160 rows,
where the DP matters. Each cold run of the brute force is capped: "did not finish in X s" is
recorded, and larger tables are then not run. Writes data/bench_hanabi.csv.
"""

from __future__ import annotations

from plain import hanabi_rows
from puzzlelab import hanabi
from puzzlelab.timing import Method, Task, measure, quick, repetitions, write_rows

HERE = "bench_hanabi"
CAP = 5.0 if quick() else 15.0  # seconds for one cold run of the brute force
SIZES = [(5, r) for r in (4, 8, 12, 16, 20, 24)] + [(10, 10), (10, 40), (10, 160), (14, 20),
                                                    (14, 80), (18, 40), (18, 160)]
BRUTE = ("the source's brute force made strong: duplicate rows removed, subset sizes capped "
         "at the number of hints (plain Python, benchmarks/plain.py)")


def table(n_hints: int, n_rows: int, seed: int) -> hanabi.HintTable:
    """The seeded random table the plain baseline also draws."""
    hints = [f"h{i}" for i in range(n_hints)]
    return hanabi.possibility_table(hanabi_rows(n_hints, n_rows, seed), hints=hints)


def dp(n_hints: int, n_rows: int, seed: int) -> int:
    """Parts of a maximum partition by the DP over subsets of hints (table built from the rows)."""
    return hanabi.partition_size(table(n_hints, n_rows, seed), "dp")


def cp_sat(n_hints: int, n_rows: int, seed: int) -> int:
    """Parts of a maximum partition by CP-SAT set packing over minimal sure sets."""
    return hanabi.partition_size(table(n_hints, n_rows, seed), "cp-sat")


def methods(size: tuple[int, int], gave_up: list[tuple[int, int]]) -> list[Method]:
    """DP (subject), CP-SAT, and the capped brute force unless a smaller table already timed out."""
    args = (*size, 1000 * size[0] + size[1])
    blocked = next((g for g in gave_up if size[0] >= g[0] and size[1] >= g[1]), None)
    brute = Method("capped brute force over rows (plain Python)",
                   Task("plain", "hanabi_capped_brute", args), "baseline", note=BRUTE, timeout=CAP)
    if blocked:
        note = f"not run: {blocked[0]} hints x {blocked[1]} rows did not finish in {CAP:g} s"
        brute = Method(brute.label, brute.task, "baseline", note=note, cold=False, warm=False)
    return [Method("DP over subsets of hints (library)", Task(HERE, "dp", args)),
            Method("CP-SAT set packing (library)", Task(HERE, "cp_sat", args), "baseline"),
            brute]


def main() -> None:
    rows: list[dict] = []
    gave_up: list[tuple[int, int]] = []
    for size in SIZES:
        found = measure("hanabi", f"{size[0]} hints x {size[1]} rows", methods(size, gave_up),
                        repeat=repetitions(7), cold_repeat=1, budget=5)
        if any(r["finished"] == "no" for r in found):
            gave_up.append(size)
        rows += found
    print(write_rows(rows, "bench_hanabi").to_string(index=False))


if __name__ == "__main__":
    main()
