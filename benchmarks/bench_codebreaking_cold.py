"""A fresh process that analyses Mastermind 4×6 (Knuth's strategy): wall time and what it is made of.

After one warm-up process (which fills numba's on-disk cache if it is empty), `rounds` rounds of
fresh processes, interleaved, each timed from its start to its end (wall clock):

- the interpreter alone (`python -c pass`);
- the interpreter importing numpy;
- the interpreter importing numpy and numba (the floor of any process that runs compiled code);
- the subject: `from puzzlelab.codebreaking.analysis import analyze`,
  `from puzzlelab.codebreaking.games import mastermind`, then `analyze(mastermind(4, 6),
  "max-models")`; inside, it times its imports (with `compiled`, which the first analysis
  imports: numba) and the analysis (the first call, which loads the compiled code from numba's
  cache), counts the compiled entry points loaded from the cache and those compiled afresh
  (numba's dispatcher statistics: none may be compiled), and lists which of pandas,
  matplotlib and scipy the path imported.

Each row gives the median and fastest whole-process wall time (`whole_process_s`,
`warm_min_s`, `warm_median_s`), the subject's import and first-call times (`cold_s` is its
in-process analysis), the core count and the mean 1-minute load over the runs, the machine and
the import share in the note. Writes data/bench_codebreaking_cold.csv (the shared schema).
About a minute with 15 rounds on a quiet 2-core machine (PUZZLELAB_BENCH_QUICK=1 runs 5).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

SUBJECT = "analyse Knuth's strategy on Mastermind 4x6 (whole process)"
# label, role, the code run by `python -c`
BASELINES = [
    ("the interpreter alone (python -c pass)", "pass"),
    ("import numpy", "import numpy"),
    ("import numpy and numba", "import numpy, numba"),
]
HEAVY = ("pandas", "matplotlib", "scipy")


def case() -> dict:
    """Inside a fresh process: import the analysis, analyse 4×6, report times and the cache."""
    start = time.perf_counter()
    from puzzlelab.codebreaking import compiled  # what the first analysis imports: numba
    from puzzlelab.codebreaking.analysis import analyze
    from puzzlelab.codebreaking.games import mastermind

    imported = time.perf_counter() - start
    result = analyze(mastermind(4, 6), "max-models")
    analysed = time.perf_counter() - start - imported
    from numba.core.registry import CPUDispatcher

    dispatchers = [f for f in vars(compiled).values() if isinstance(f, CPUDispatcher)]
    hits = sum(sum(f.stats.cache_hits.values()) for f in dispatchers)
    misses = sum(sum(f.stats.cache_misses.values()) for f in dispatchers)
    return {"total": result.total, "worst": result.worst, "import": imported,
            "analysis": analysed, "cache hits": hits, "compiled afresh": misses,
            "heavy": [m for m in HEAVY if m in sys.modules]}


def run(command: list[str]) -> tuple[str, float]:
    """A fresh process to its end: its output and wall seconds."""
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         env=dict(os.environ, TQDM_DISABLE="1"))
    return out.stdout, time.perf_counter() - start


def subject() -> dict:
    out, wall = run([sys.executable, __file__, "--case"])
    return {**json.loads(out.strip().splitlines()[-1]), "wall": wall,
            "load": os.getloadavg()[0]}


def baseline(code: str) -> dict:
    _, wall = run([sys.executable, "-c", code])
    return {"wall": wall, "load": os.getloadavg()[0]}


def row(label: str, role: str, runs: list[dict], note: str, result: str) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`)."""
    from puzzlelab.timing import COLUMNS

    walls = [r["wall"] for r in runs]
    out = dict.fromkeys(COLUMNS)
    out.update(puzzle="codebreaking", case="a fresh process, Mastermind 4x6", method=label,
               role=role, like_for_like="no", result=result, finished="yes",
               cold_s=statistics.median(r["analysis"] for r in runs) if "analysis" in runs[0]
               else None,
               whole_process_s=statistics.median(walls), cold_reps=len(runs),
               warm_min_s=min(walls), warm_median_s=statistics.median(walls), reps=len(runs),
               cores=os.cpu_count(), load_1min=round(statistics.mean(r["load"] for r in runs), 2),
               note=note)
    return out


def main(rounds: int) -> None:
    from bench_codebreaking_peer import machine

    from puzzlelab.timing import _add_ratios, write_rows

    subject()  # the warm-up: fills numba's cache if it is empty
    runs: dict[str, list[dict]] = {label: [] for label, _ in BASELINES}
    runs[SUBJECT] = []
    for _ in range(rounds):
        for label, code in BASELINES:
            runs[label].append(baseline(code))
        runs[SUBJECT].append(subject())
    done = runs[SUBJECT]
    first = done[0]
    if any(r["compiled afresh"] for r in done):
        raise SystemExit("a fresh process compiled code: numba's cache did not serve it")
    imports = statistics.median(r["import"] for r in done)
    wall = statistics.median(r["wall"] for r in done)
    heavy = sorted({m for r in done for m in r["heavy"]})
    note = (f"import {imports:.2f} s ({imports / wall:.0%} of the process), analysis (first "
            f"call) {statistics.median(r['analysis'] for r in done):.2f} s; "
            f"{first['cache hits']} compiled entry point(s) loaded from numba's cache (with the "
            "functions they call), none compiled; "
            f"imported {', '.join(heavy) if heavy else 'none'} of {', '.join(HEAVY)}; "
            f"{machine()}")
    rows = [row(SUBJECT, "subject", done, note, f"{first['total']} (worst {first['worst']})")]
    rows += [row(label, "baseline", runs[label], "the floor beneath the subject", "")
             for label, _ in BASELINES]
    _add_ratios(rows)
    print(write_rows(rows, "bench_codebreaking_cold").to_string(index=False))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(case()))
    else:
        from puzzlelab.timing import quick

        main(args.rounds or (5 if quick() else 15))
