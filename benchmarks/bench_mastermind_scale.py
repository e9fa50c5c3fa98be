"""Greedy analyses of Mastermind at scale: the compiled engine against the table engine (Klimoš
2014, §3.3).

Writes data/mastermind_scale.csv, a scaling study with columns of its own (time and peak memory
per size and engine; the other benchmarks share `puzzlelab.timing.COLUMNS`). What is run: a
whole-tree analysis (every code played to the end) of Mastermind pegs × colours by one strategy, with

- "compiled": `puzzlelab.codebreaking.compiled.analyze` (outcomes from the strings, memory
  linear in the codes), and
- "table": the vectorised reference engine `puzzlelab.codebreaking.reference.analyze_table`
  (a codes × codes outcome table, all experiments scored with one bincount per node), the
  project's earlier method; it runs only where its table fits (up to 5 × 6 here).

Each case runs in a fresh process (`--case`), started by a fresh measuring process
(`--measure`) that reports the peak memory of its one child (`getrusage(RUSAGE_CHILDREN)`):
so the peak is that of one case, interpreter and imports included. Inside the case process
the game is built, then analysed `calls` times: the first call is "cold" (it includes
building the engine's arrays and loading the compiled code from numba's cache, which must be
warm: run the script once before trusting cold figures), the others are "warm". The two
engines' processes alternate (A, B, A, B, …) for `rounds` rounds; the row reports minimum
and median over all calls, rounds × calls, the machine's core count and the analysis's
total (the same for both engines, checked).

Run: `python benchmarks/bench_mastermind_scale.py` (about 10 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import pandas as pd

# (pegs, colours, strategy, engines, rounds, calls per process)
STRATEGIES = ("max-models", "exp-models", "ent-models", "parts")
CASES = (
    [(4, 6, s, ("table", "compiled"), 3, 5) for s in STRATEGIES]
    + [(5, 6, "max-models", ("table", "compiled"), 1, 1)]
    + [(5, 6, s, ("compiled",), 2, 2) for s in STRATEGIES[1:]]
    + [(5, 7, s, ("compiled",), 1, 1) for s in STRATEGIES]
    + [(5, 8, s, ("compiled",), 1, 1) for s in STRATEGIES]
)
TARGETS = {(4, 6): (0.05, None), (5, 6): (5, 300), (5, 7): (30, 1024), (5, 8): (180, 2048)}


def run_case(pegs: int, colors: int, strategy: str, engine: str, calls: int) -> dict:
    """Inside the case process: build the game, analyse it `calls` times, report the seconds."""
    from puzzlelab.codebreaking import compiled
    from puzzlelab.codebreaking import mastermind
    from puzzlelab.codebreaking.reference import analyze_table

    analyze = compiled.analyze if engine == "compiled" else analyze_table
    start = time.perf_counter()
    game = mastermind(pegs, colors)
    build = time.perf_counter() - start
    seconds, total = [], None
    for _ in range(calls):
        start = time.perf_counter()
        result = analyze(game, strategy)
        seconds.append(time.perf_counter() - start)
        total = result.total
    return {"build seconds": build, "seconds": seconds, "total": total, "worst": result.worst}


def measure(args: list[str]) -> dict:
    """Inside the measuring process: run one case as the only child, add its peak memory."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--case", *args], capture_output=True,
                         text=True)
    whole = time.perf_counter() - start
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"}
    import resource

    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["peak MB"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result["process seconds"] = whole
    return result


def fresh(pegs: int, colors: int, strategy: str, engine: str, calls: int) -> dict:
    """One case in a fresh measuring process (so that the memory peak is that case's alone)."""
    args = [str(pegs), str(colors), strategy, engine, str(calls)]
    out = subprocess.run([sys.executable, __file__, "--measure", *args], capture_output=True,
                         text=True)
    if out.returncode:
        return {"error": out.stderr.strip()[-300:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def rows_of(case: tuple) -> list[dict]:
    """Interleaved rounds of the engines on one case, one row per engine."""
    pegs, colors, strategy, engines, rounds, calls = case
    runs: dict[str, list[dict]] = {e: [] for e in engines}
    for _ in range(rounds):
        for e in engines:
            runs[e].append(fresh(pegs, colors, strategy, e, calls))
            print(pegs, colors, strategy, e, runs[e][-1], flush=True)
    return [summarize(pegs, colors, strategy, e, rs, calls) for e, rs in runs.items()]


def summarize(pegs: int, colors: int, strategy: str, engine: str, runs: list[dict],
              calls: int) -> dict:
    """Cold = first call per process, warm = the later calls; min and median of each."""
    row = {"game": f"Mastermind {pegs}×{colors}", "codes": colors**pegs, "strategy": strategy,
           "engine": engine, "cores": os.cpu_count(), "processes": len(runs), "calls": calls}
    failed = [r["error"] for r in runs if "error" in r]
    if failed:
        return {**row, "error": failed[0]}
    cold = [r["seconds"][0] for r in runs]
    warm = [s for r in runs for s in r["seconds"][1:]] or cold
    target_s, target_mb = TARGETS.get((pegs, colors), (None, None))
    return {**row, "cold min s": min(cold), "cold median s": statistics.median(cold),
            "warm min s": min(warm), "warm median s": statistics.median(warm),
            "process median s": statistics.median(r["process seconds"] for r in runs),
            "peak MB": max(r["peak MB"] for r in runs), "target s": target_s,
            "target MB": target_mb,
            "total": runs[0]["total"], "worst": runs[0]["worst"],
            "same result": len({(r["total"], r["worst"]) for r in runs}) == 1}


def main() -> pd.DataFrame:
    from puzzlelab.cache import write_table

    rows = [row for case in CASES for row in rows_of(case)]
    df = pd.DataFrame(rows)
    for pair in df.groupby(["game", "strategy"]).total:  # both engines must agree
        if pair[1].nunique() > 1:
            raise SystemExit(f"the engines disagree on {pair[0]}: {pair[1].tolist()}")
    for column in [c for c in df.columns if c.endswith(" s") or c == "peak MB"]:
        df[column] = df[column].round(4 if column.endswith(" s") else 1)
    write_table(df, "mastermind_scale")
    return df


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    fields = ("PEGS", "COLORS", "STRATEGY", "ENGINE", "CALLS")
    parser.add_argument("--case", nargs=5, metavar=fields, help="run one case (internal)")
    parser.add_argument("--measure", nargs=5, metavar=fields, help="measure one case (internal)")
    options = parser.parse_args()
    if options.case:
        p, c, s, e, n = options.case
        print(json.dumps(run_case(int(p), int(c), s, e, int(n))))
    elif options.measure:
        print(json.dumps(measure(options.measure)))
    else:
        print(main().to_string(index=False))
