"""Outside figures beside ours: where each comes from, on what hardware, and whether it is the
same computation as the benchmark row it is compared with. Writes data/bench_outside.csv.

The thesis's timings (Janssen 2017, §5.1.3 and §5.2.2) are read out of its text (cached as
data/hats_thesis_timings.csv, so this runs without the source at hand); the others are
measurements made for this project or published figures, cited below.
"""

from __future__ import annotations

import re

import pandas as pd

from puzzlelab.cache import cached_source_table, write_table
from puzzlelab.sources import cite

PROJECT_RUN = "a 2-core machine like the one of data/bench_*.csv (measured for this project)"
COBRA = f"COBRA, the tool of {cite('klimos2014')}, built from its public source"
COBRA_NOTE = "CPU time of a general tool (games as propositional formulas, SAT solvers)"
COBRA_ROWS = [  # what, figure
    ("Knuth's strategy (max-models) over all codes of Mastermind 4x6", "69 s of CPU"),
    ("the same with COBRA's --no-symmetry option", "23.7 s of CPU"),
    ("the parts strategy over all codes of Mastermind 4x6", "112 s of CPU"),
    ("the expected-size strategy (exp-models) over all codes of Mastermind 4x6", "145 s of CPU"),
    ("the entropy strategy (ent-models) over all codes of Mastermind 4x6", "188 s of CPU"),
    ("the optimal worst case of Mastermind 4x6", "no answer within 600 s"),
    ("the optimal average of Mastermind 4x6", "no answer within 600 s"),
]
KEMPS = f"the original Kemps program of {cite('group6_kemps2023')}"
OTHER_ROWS = [
    (f"{KEMPS}, run headless", "games per second of its own game loop", "about 260 games/s",
     PROJECT_RUN, "no", "bench_kemps: Greedy self-play", "its own players and bookkeeping"),
    (f"{KEMPS}, with its image loading", "games per second", "about 8 games/s", PROJECT_RUN, "no",
     "bench_kemps: Greedy self-play", "its own players; card images loaded"),
    (f"SMCDEL, {cite('gattinger2018')} (published)",
     "symbolic model check of the 1290 (3,3,1) candidate lists", "3.39 s",
     "the author's machine (other hardware)", "no",
     "bench_russian_cards: explicit model check of the 1290 candidate lists",
     "a different computation: symbolic model checking"),
]
THESIS_NOTE = "the thesis's C++ program; Table 5.9 (N = 4 timings) is missing from the text"


def thesis_timings(text: str) -> pd.DataFrame:
    """The thesis's own timings of its C++ program, as stated in its text (§5.1.3, §5.2.2)."""
    patterns = [
        ("N = 3 brute force, all 531,441 deals (total; per deal)",
         r"(\d+) / 531441 = (\d+,\d+) ms", "{0} s; {1} ms a deal"),
        ("N = 3 Chain-Method (preparation; total)",
         r"preparation which is on average (\d+\.\d+) second.*?average of (\d+\.\d+) for the total",
         "{0} s; {1} s"),
        ("N = 3 Chain-Method against brute force", r"In the order of (\d+) times faster", "{0}x"),
        ("N = 4 Chain-Method against brute force (units not stated)",
         r"\\frac\{(\d+)\}\{(\d+)\} \\approx (\d+)x", "{0} / {1} = {2}x"),
    ]
    rows = []
    for what, pattern, form in patterns:
        found = re.search(pattern, text, flags=re.S)
        if found is None:
            raise ValueError(f"the thesis's text no longer states: {what}")
        rows.append({"what": what, "figure": form.format(*found.groups())})
    return pd.DataFrame(rows)


def main() -> pd.DataFrame:
    thesis = cached_source_table("hats_thesis_timings", "janssen2017", thesis_timings)
    rows = [(f"{cite('janssen2017')} (thesis)", r.what, r.figure, "not stated in the thesis",
             "yes", "bench_hats", THESIS_NOTE) for r in thesis.itertuples()]
    rows += [(COBRA, what, figure, PROJECT_RUN, "yes", "bench_codebreaking", COBRA_NOTE)
             for what, figure in COBRA_ROWS]
    rows += OTHER_ROWS
    table = pd.DataFrame(rows, columns=["source", "what", "figure", "hardware", "like_for_like",
                                        "compare_with", "note"])
    write_table(table, "bench_outside")
    return table


if __name__ == "__main__":
    print(main().to_string(index=False))
