"""A fresh process that analyses Mastermind 4×6 (Knuth's strategy): wall time and what it is made of.

After one warm-up round (which fills numba's on-disk cache if it is empty), `rounds` rounds of
fresh processes, interleaved, each timed from its start to its end (wall clock):

- the interpreter alone (`python -c pass`);
- the interpreter importing numpy;
- the interpreter importing numpy and numba (the floor of any process that runs compiled code);
- the subject: `from puzzlelab.codebreaking.analysis import analyze`,
  `from puzzlelab.codebreaking.games import mastermind`, then `analyze(mastermind(4, 6),
  "max-models")`. 4×6 has at most `analysis.TABLE_CODES` codes, so a fresh process plays it
  over the outcome table (`analysis.analyze_by_bincount`, numpy alone) and never loads numba;
- the same analysis by the compiled engine (`compiled.analyze`, numba, its code loaded from
  numba's cache): what the subject spent before small games were played over the table;
- where `TABLE_CODES` lies: Mastermind 4×7 (2,401 codes, past it) played over the table
  (`analyze_by_bincount`) and by the compiled engine, each in a fresh process.

Inside, a process times its imports and its analysis (the first call, building the game),
says which engine ran, counts the compiled entry points loaded from numba's cache and those
compiled afresh (numba's dispatcher statistics: none may be compiled), and lists which of
pandas, matplotlib, scipy and numba it imported.

Each row gives the median and fastest whole-process wall time (`whole_process_s`,
`warm_min_s`, `warm_median_s`), the in-process analysis (`cold_s`), the core count and the
mean 1-minute load over the runs, the machine and the import share in the note;
`times_subject` is against the subject of the row's case (4×6: `analyze`; 4×7: the table).
Writes data/bench_codebreaking_cold.csv (the shared schema). About a minute with 15 rounds on
a quiet 2-core machine (PUZZLELAB_BENCH_QUICK=1 runs 5), then a minute for the fresh clone:

- a fresh clone of this commit (`git clone`, new file times: numba's cache empty), the install
  step's compile (`puzzlelab warm`, as the Makefile's venv target runs
  it), then the first compiled Mastermind 4×6 call (`compiled.analyze`) in a new process,
  whole-process wall and CPU time; and the same call on a fresh clone without the install step
  (numba compiles the engine first: what a newcomer waited for before).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("pandas", "matplotlib", "scipy", "numba")
# label, role, case (pegs, colours), engine: what `case` imports to analyse
SUBJECT = "analyse Knuth's strategy on Mastermind 4x6 (whole process)"
PROCESSES = [
    (SUBJECT, "subject", (4, 6), "analyze"),
    ("the compiled engine (compiled.analyze), 4x6", "baseline", (4, 6), "compiled"),
    ("played over the table (analysis.analyze_by_bincount), 4x7", "subject", (4, 7), "table"),
    ("the compiled engine (compiled.analyze), 4x7", "baseline", (4, 7), "compiled"),
]
BASELINES = [
    ("the interpreter alone (python -c pass)", "pass"),
    ("import numpy", "import numpy"),
    ("import numpy and numba", "import numpy, numba"),
]


def case(engine: str, pegs: int, colors: int) -> dict:
    """Inside a fresh process: import an analysis, analyse Knuth's strategy, report times, the
    engine that ran and numba's cache."""
    start = time.perf_counter()
    if engine == "compiled":
        from puzzlelab.codebreaking.compiled import analyze
    elif engine == "table":
        from puzzlelab.codebreaking.analysis import analyze_by_bincount as analyze
    else:
        from puzzlelab.codebreaking.analysis import analyze
    from puzzlelab.codebreaking.games import mastermind

    imported = time.perf_counter() - start
    result = analyze(mastermind(pegs, colors), "max-models")
    analysed = time.perf_counter() - start - imported
    compiled = sys.modules.get("puzzlelab.codebreaking.compiled")
    hits = misses = 0
    ahead = "puzzlelab.codebreaking.native_walk" in sys.modules
    if compiled is not None and "numba" in sys.modules:
        from numba.core.registry import CPUDispatcher

        dispatchers = [f for f in vars(compiled).values() if isinstance(f, CPUDispatcher)]
        hits = sum(sum(f.stats.cache_hits.values()) for f in dispatchers)
        misses = sum(sum(f.stats.cache_misses.values()) for f in dispatchers)
    return {"total": result.total, "worst": result.worst, "import": imported,
            "analysis": analysed,
            "engine": "ahead" if ahead else "compiled" if hits + misses else "table",
            "cache hits": hits, "compiled afresh": misses,
            "heavy": [m for m in HEAVY if m in sys.modules]}


def run(command: list[str]) -> tuple[str, float]:
    """A fresh process to its end: its output and wall seconds."""
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         env=dict(os.environ, TQDM_DISABLE="1"))
    return out.stdout, time.perf_counter() - start


def analysis(engine: str, size: tuple[int, int]) -> dict:
    """A fresh process that analyses Mastermind of this size: what `case` says, wall time, load."""
    out, wall = run([sys.executable, __file__, "--case", engine, *map(str, size)])
    return {**json.loads(out.strip().splitlines()[-1]), "wall": wall,
            "load": os.getloadavg()[0]}


def baseline(code: str) -> dict:
    _, wall = run([sys.executable, "-c", code])
    return {"wall": wall, "load": os.getloadavg()[0]}


def row(label: str, role: str, runs: list[dict], note: str, result: str,
        size: tuple[int, int] = (4, 6)) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`)."""
    from puzzlelab.timing import COLUMNS

    walls = [r["wall"] for r in runs]
    out = dict.fromkeys(COLUMNS)
    out.update(puzzle="codebreaking", case=f"a fresh process, Mastermind {size[0]}x{size[1]}",
               method=label, role=role, like_for_like="no", result=result, finished="yes",
               cold_s=statistics.median(r["analysis"] for r in runs) if "analysis" in runs[0]
               else None,
               whole_process_s=statistics.median(walls), cold_reps=len(runs),
               warm_min_s=min(walls), warm_median_s=statistics.median(walls), reps=len(runs),
               cores=os.cpu_count(), load_1min=round(statistics.mean(r["load"] for r in runs), 2),
               note=note)
    return out


FIRST_CALL = ("from puzzlelab.codebreaking import compiled, mastermind; "
              "print(compiled.analyze(mastermind(4, 6), 'max-models').total)")


def fresh_clone(install: bool) -> dict:
    """A fresh clone of this commit; with `install`, the install step's compile
    (`puzzlelab warm`); then the first compiled Mastermind 4×6 call in a
    new process: its wall and CPU seconds (and the install step's)."""
    import tempfile

    root = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "clone"
        subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
        env = dict(os.environ, PYTHONPATH=str(clone), TQDM_DISABLE="1")
        steps = [[sys.executable, "-m", "puzzlelab.cli", "warm"]] if install else []
        times = [_timed(step, clone, env) for step in steps + [
            [sys.executable, "-c", FIRST_CALL]]]
    return {"wall": times[-1][0], "cpu": times[-1][1], "load": os.getloadavg()[0],
            "install": times[0] if install else None}


def _timed(command: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """A process run to its end in `cwd`: wall and CPU seconds (user + system)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command} failed")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def clone_rows() -> list[dict]:
    """The first compiled 4×6 call on a fresh clone, after the install step and without it."""
    from puzzlelab.timing import add_ratios

    rows = []
    for install, role in ((True, "subject"), (False, "baseline")):
        run = fresh_clone(install)
        label = ("first compiled call (compiled.analyze) after the install step" if install
                 else "first compiled call on a fresh clone without the install step")
        note = (f"whole process {run['cpu']:.2f} s CPU; the install step's compile took "
                f"{run['install'][0]:.0f} s wall, {run['install'][1]:.0f} s CPU" if install
                else f"whole process {run['cpu']:.2f} s CPU: numba compiles the engine")
        out = row(label, role, [run], note, "5801 (worst 5)")
        out["case"] = "a fresh clone, Mastermind 4x6"
        rows.append(out)
    add_ratios(rows)
    return rows


def analysis_note(runs: list[dict]) -> str:
    """Import share, analysis time, the engine that ran and what the process imported."""
    from puzzlelab.timing import machine

    imports = statistics.median(r["import"] for r in runs)
    wall = statistics.median(r["wall"] for r in runs)
    heavy = sorted({m for r in runs for m in r["heavy"]})
    first = runs[0]
    engine = {"compiled": "the compiled engine: "
              f"{first['cache hits']} compiled entry point(s) loaded from numba's cache (with the "
              "functions they call), none compiled",
              "ahead": "the compiled engine's walk built at install (codebreaking.native), "
              "numba not imported",
              "table": "played over the outcome table (numpy alone)"}[first["engine"]]
    return (f"import {imports:.2f} s ({imports / wall:.0%} of the process), analysis (first "
            f"call) {statistics.median(r['analysis'] for r in runs):.2f} s; {engine}; imported "
            f"{', '.join(heavy) if heavy else 'none'} of {', '.join(HEAVY)}; {machine()}")


def main(rounds: int) -> None:
    from puzzlelab.codebreaking import native, warm

    if not native.available():  # a stale or missing build would time numba's path instead
        print("the ahead-of-time walk is not built from this engine: building it (puzzlelab warm)")
        print(warm.warm())
    from puzzlelab.timing import add_ratios, write_rows

    for _, _, size, engine in PROCESSES:  # the warm-up: fills numba's cache if it is empty
        analysis(engine, size)
    runs: dict[str, list[dict]] = {label: [] for label, *_ in PROCESSES + BASELINES}
    for _ in range(rounds):
        for label, code in BASELINES:
            runs[label].append(baseline(code))
        for label, _, size, engine in PROCESSES:
            runs[label].append(analysis(engine, size))
    if any(r["compiled afresh"] for label, *_ in PROCESSES for r in runs[label]):
        raise SystemExit("a fresh process compiled code: numba's cache did not serve it")
    if any(r["engine"] != "table" or r["heavy"] for r in runs[SUBJECT]):
        raise SystemExit("the subject loaded the compiled engine or a heavy module")
    groups: dict[tuple[int, int], list[dict]] = {}
    for label, role, size, _ in PROCESSES:
        done = runs[label]
        first = done[0]
        groups.setdefault(size, []).append(row(label, role, done, analysis_note(done),
                                               f"{first['total']} (worst {first['worst']})", size))
    groups[(4, 6)] += [row(label, "baseline", runs[label], "the floor beneath the subject", "")
                       for label, _ in BASELINES]
    for rows in groups.values():
        add_ratios(rows)
    every = [r for rows in groups.values() for r in rows] + clone_rows()
    print(write_rows(every, "bench_codebreaking_cold").to_string(index=False))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)  # engine, pegs, colours
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    if args.case:
        engine, pegs, colors = args.case
        print(json.dumps(case(engine, int(pegs), int(colors))))
    else:
        from puzzlelab.timing import quick

        main(args.rounds or (5 if quick() else 15))
