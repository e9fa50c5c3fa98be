"""Outside figures beside ours: where each comes from, on what hardware, and whether it is the
same computation as the benchmark row it is compared with. Writes data/bench_outside.csv.

The thesis's timings (Janssen 2017, §5.1.3 and §5.2.2) are read out of its text (cached as
data/hats_thesis_timings.csv, so this runs without the source at hand); the others are
measurements made for this project or published figures, cited below. COBRA's rows hold its
times and, for the notebook's "Where we differ", its answers where they are not ours (its
optimal-average mode, its tie-breaking); `compare_with` names the table and row to set them
beside.
"""

from __future__ import annotations

import re

import pandas as pd

from puzzlelab.cache import cached_source_table, write_table
from puzzlelab.sources import cite

PROJECT_RUN = "a 2-core machine like the one of data/bench_*.csv (measured for this project)"
COBRA = f"COBRA, the tool of {cite('klimos2014')}, built from its public source"
COBRA_NOTE = "CPU time of a general tool (games as propositional formulas, SAT solvers)"
COBRA_ROWS = [  # what, figure, the case of data/bench_codebreaking.csv timing the same thing
    ("Knuth's strategy (max-models) over all codes of Mastermind 4x6", "69 s of CPU",
     "Knuth's strategy (max-models), Mastermind 4x6"),
    ("the same with COBRA's --no-symmetry option", "23.7 s of CPU",
     "Knuth's strategy (max-models), Mastermind 4x6"),
    ("the parts strategy over all codes of Mastermind 4x6", "112 s of CPU",
     "parts, Mastermind 4x6 (1296 codes)"),
    ("the expected-size strategy (exp-models) over all codes of Mastermind 4x6", "145 s of CPU",
     "exp-models, Mastermind 4x6 (1296 codes)"),
    ("the entropy strategy (ent-models) over all codes of Mastermind 4x6", "188 s of CPU",
     "ent-models, Mastermind 4x6 (1296 codes)"),
    ("the optimal worst case of Mastermind 4x6", "no answer within 600 s",
     "optimal worst case, Mastermind 4x6"),
    ("the optimal average of Mastermind 4x6", "no answer within 600 s",
     "optimal average, Mastermind 4x6"),
]
# COBRA's answers (not its times), built from its public source at HEAD 2ce7777; compared with
# the notebook's own tables (compare_with: table: row), never with numbers typed here.
COBRA_BUILD = f"{COBRA} (HEAD 2ce7777)"
COBRA_TIES = "COBRA prefers a guess that may be the code only in max-models; other ties differ"
COBRA_OPTIMAL = "its optimal-average mode, which has a known defect"
COBRA_RESULTS = [  # what, figure, compare_with, note
    ("the optimal average of Mastermind 3x3", "75/27 per code",
     "codebreaking_optimal: Mastermind 3×3, average", COBRA_OPTIMAL),
    ("the optimal average of Mastermind 3x2", "2.125 per code",
     "codebreaking_optimal_sizes: Mastermind 3×2", COBRA_OPTIMAL),
    ("the exp-models strategy over all codes of Mastermind 4x6", "5965 guesses in total",
     "codebreaking_strategies: Mastermind 4×6, exp-models", COBRA_TIES),
    ("the ent-models strategy over all codes of Mastermind 4x6", "5991 guesses in total",
     "codebreaking_strategies: Mastermind 4×6, ent-models", COBRA_TIES),
    ("the exp-models strategy, with COBRA's --no-symmetry option", "5996 guesses in total",
     "codebreaking_strategies: Mastermind 4×6, exp-models", COBRA_TIES),
    ("the ent-models strategy, with COBRA's --no-symmetry option", "6017 guesses in total",
     "codebreaking_strategies: Mastermind 4×6, ent-models", COBRA_TIES),
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
    rows += [(COBRA, what, figure, PROJECT_RUN, "yes", f"bench_codebreaking: {case}", COBRA_NOTE)
             for what, figure, case in COBRA_ROWS]
    rows += [(COBRA_BUILD, what, figure, PROJECT_RUN, "yes", compare_with, note)
             for what, figure, compare_with, note in COBRA_RESULTS]
    rows += OTHER_ROWS
    table = pd.DataFrame(rows, columns=["source", "what", "figure", "hardware", "like_for_like",
                                        "compare_with", "note"])
    write_table(table, "bench_outside")
    return table


if __name__ == "__main__":
    print(main().to_string(index=False))
