"""Russian Cards: the pruned search and `decide` against like-for-like baselines.

Writes two tables in the shared schema (`puzzlelab.timing.COLUMNS`):
- data/bench_russian_cards.csv:
  1. The 102 safe (3,3,1) announcements through Anne's hand 012: the pruned combinatorial
     search (`safe_announcements`) against a plain-Python generate-and-filter by Rules 1-2
     (like for like), and the explicit epistemic model check of all 1290 candidate lists
     (a different computation with the same answer; SMCDEL's symbolic check of those lists
     is an outside figure in data/bench_outside.csv).
  2. Hard cells: `decide` (symmetry cases, cyclic orbits) against CP-SAT on the whole 0/1
     model without symmetry breaking, cold runs only, the baseline capped.
- data/bench_russian_cards_cells.csv: every grid cell decided once (warm, one run each).
"""

from __future__ import annotations

import puzzlelab.russian_cards as rc
from plain import russian_cards_lists
from puzzlelab.progress import tqdm
from puzzlelab.russian_cards import grid
from puzzlelab.timing import (
    Method, Task, measure, quick, repetitions, schema_row, timed, write_rows,
)

HERE = "bench_russian_cards"
HARD_CELLS = [(9, 4, 2), (10, 4, 2)] + ([] if quick() else [(8, 5, 3)])
CAP = 10.0 if quick() else 30.0  # seconds for one cold run of the whole-model baseline


def pruned_search(a: int, b: int, c: int) -> int:
    """How many safe announcements contain Anne's hand 0..a-1, by the pruned search."""
    return len(rc.safe_announcements(a, b, c))


def model_check_lists() -> int:
    """How many of the 1290 candidate lists through 012 pass the explicit epistemic model check."""
    first = 0b111
    kept = 0
    for hands in russian_cards_lists(7, 3, 1, (5, 6, 7)):
        if hands[0] == first:
            check = rc.model_check([[x for x in range(7) if h >> x & 1] for h in hands], 3, 3, 1)
            kept += check.informative and check.safe
    return kept


def decide(a: int, b: int, c: int) -> str:
    """The verdict of `decide` (solvable or unsolvable)."""
    return rc.decide(a, b, c).status


def whole_model(a: int, b: int, c: int) -> str:
    """The verdict of CP-SAT on the whole model (one worker, no symmetry breaking, no time cap)."""
    from puzzlelab.russian_cards.search import cpsat_model
    from puzzlelab.solvers import solve

    status = solve(cpsat_model(a, b, c)[0], time_limit=10 * CAP).status
    verdicts = {"OPTIMAL": "solvable", "FEASIBLE": "solvable", "INFEASIBLE": "unsolvable"}
    return verdicts.get(status, status)


def headline_rows() -> list[dict]:
    rows = measure("russian_cards", "(3,3,1): the 102 safe announcements through 012", [
        Method("pruned search (library)", Task(HERE, "pruned_search", (3, 3, 1))),
        Method("generate and filter by Rules 1-2 (plain Python)",
               Task("plain", "russian_cards_rules", (3, 3, 1)), "baseline",
               note="the strongest simple baseline (benchmarks/plain.py)"),
        Method("explicit model check of the 1290 candidate lists (library)",
               Task(HERE, "model_check_lists"), "baseline", like_for_like=False,
               note="a different computation (epistemic model checking), same answer"),
    ], repeat=repetitions(7), cold_repeat=repetitions(3, 1))
    for abc in HARD_CELLS:
        rows += measure("russian_cards", f"decide {abc}", [
            Method("decide: symmetry cases, cyclic orbits (library)", Task(HERE, "decide", abc),
                   warm=False),
            Method("CP-SAT on the whole model (library)", Task(HERE, "whole_model", abc),
                   "baseline", warm=False, timeout=CAP,
                   note="one worker, no symmetry breaking"),
        ], cold_repeat=1, profile_below=0)
    return rows


def cell_rows() -> list[dict]:
    """Every grid cell decided once in this process (warm: imports and caches in place)."""
    rows = []
    cells = [abc for c in (1, 2, 3) for abc in grid.cells(c)]
    for abc in tqdm(cells[:40] if quick() else cells, desc="grid cells"):
        seconds, verdict = timed(rc.decide, *abc)
        method = Method(verdict.method, Task(HERE, "decide", abc), cold=False)
        rows.append(schema_row("russian_cards", f"decide {abc}", method, [], [seconds], None,
                               verdict.status))
    return rows


def main() -> None:
    print(write_rows(headline_rows(), "bench_russian_cards").to_string(index=False))
    cells = write_rows(cell_rows(), "bench_russian_cards_cells")
    slowest = cells.nlargest(8, "warm_median_s")[["case", "method", "warm_median_s"]]
    print(slowest.to_string(index=False))


if __name__ == "__main__":
    main()
