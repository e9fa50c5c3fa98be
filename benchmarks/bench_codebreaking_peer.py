"""Mastermind greedy analyses side by side with the fastest CPU peer, mikemag/Mastermind (C++).

Magruder's program (github.com/mikemag/Mastermind, MIT) plays every secret of Mastermind with
Knuth's, most parts, expected size and entropy strategies on the CPU (`SolverCPUFaster`, one
thread). Its build is found through PUZZLELAB_MASTERMIND_PEER: the folder of its checkout, with
one binary per size and strategy at build/<p>p<c>c-<Strategy>/mastermind (Strategy: Knuth,
MostParts, ExpectedSize, Entropy) and its valid_solutions.json and ACReduced.json; nothing is
downloaded or built here, and without it the benchmark says so in one line and stops.

For each size (4×6, 5×7, 5×8, 6×6) and strategy, `rounds` interleaved rounds, each process
fresh: the peer; our engine with its rules (`compiled.analyze(..., rules="mikemag", first=<its
first guess>)`) on one thread (the subject) and on every core; our engine with our own rules
(its own first guess; totals differ, so not like for like). Figures are in-process analysis
times, the minimum and median over rounds:

- ours, one thread: the CPU time of a second call in the process (the first, `cold_s`, also
  loads the compiled code from numba's cache); on every core: the wall time of that call;
- the peer: the lesser of its own timer (playAllGames, wall clock) and its whole process's CPU
  time (both at least its analysis's CPU time; its start-up is a few milliseconds).

Each row records the process's wall time and peak resident memory, the core count, the mean
1-minute load over the case's runs (above the core count, other work shared the cores) and
the machine (peak memory by GNU time where there is one). Writes data/bench_codebreaking_peer.csv
(the shared schema). About 20 minutes on a quiet 2-core machine with 3 rounds (`--rounds`;
PUZZLELAB_BENCH_QUICK=1 runs 1; one round took 25 minutes on this machine at a load of 6 to 12).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PEER_ENV = "PUZZLELAB_MASTERMIND_PEER"
SIZES = [(4, 6), (5, 7), (5, 8), (6, 6)]
STRATEGIES = {"max-models": "Knuth", "parts": "MostParts", "exp-models": "ExpectedSize",
              "ent-models": "Entropy"}
LABELS = {"max-models": "Knuth (max-models)", "parts": "most parts (parts)",
          "exp-models": "expected size (exp-models)", "ent-models": "entropy (ent-models)"}
PEER_FILES = ("valid_solutions.json", "ACReduced.json")


def peer_folder() -> Path | None:
    """The peer's checkout named by PUZZLELAB_MASTERMIND_PEER, if it holds its data files."""
    folder = os.environ.get(PEER_ENV)
    if not folder or not all((Path(folder) / f).is_file() for f in PEER_FILES):
        return None
    return Path(folder)


def peer_binary(folder: Path, pegs: int, colors: int, strategy: str) -> Path:
    return folder / "build" / f"{pegs}p{colors}c-{STRATEGIES[strategy]}" / "mastermind"


def peer_commit(folder: Path) -> str:
    """The peer checkout's commit (short), or 'unknown commit'."""
    out = subprocess.run(["git", "-C", str(folder), "log", "-1", "--format=%h"],
                         capture_output=True, text=True, check=False)
    return out.stdout.strip() or "unknown commit"


# GNU time reports its command's own peak memory: a child of this process would report this
# process's peak instead when it is larger (Linux keeps the peak of the forked copy across exec).
GNU_TIME = shutil.which("time")


def run_child(command: list[str], cwd: str | None = None) -> tuple[str, float, float, float]:
    """Run a process to its end: its output, wall seconds, CPU seconds (user + system, wait4)
    and peak resident memory (MiB, by GNU time; without it, wait4's figure, an upper bound)."""
    with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        peak_file = Path(scratch) / "peak"
        timed = [GNU_TIME, "-f", "%M", "-o", str(peak_file), *command] if GNU_TIME else command
        start = time.perf_counter()
        child = subprocess.Popen(timed, cwd=cwd, stdout=out, stderr=err,
                                 env=dict(os.environ, TQDM_DISABLE="1"))
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        if child.returncode:
            raise RuntimeError(f"{command[0]} failed: {err.read().strip()[-500:]}")
        peak = (int(peak_file.read_text().split()[-1]) if GNU_TIME and peak_file.exists()
                else usage.ru_maxrss)
        return out.read(), wall, usage.ru_utime + usage.ru_stime, peak / 1024


def run_peer(folder: Path, pegs: int, colors: int, strategy: str) -> dict:
    """One run of the peer in a fresh folder: its totals, first guess, timer, CPU and memory."""
    with tempfile.TemporaryDirectory() as cwd:
        for name in PEER_FILES:
            shutil.copy(folder / name, cwd)
        out, wall, cpu, peak = run_child([str(peer_binary(folder, pegs, colors, strategy))], cwd)
        stats = [json.loads(line.strip().lstrip(","))["run"]
                 for line in (Path(cwd) / "mastermind_run_stats.json").read_text().splitlines()
                 if '"run"' in line]
    run = stats[-1]
    return {"total": run["Total Turns"], "worst": run["Max Turns"], "first": run["Initial Guess"],
            "timer": run["Elapsed (s)"], "seconds": min(run["Elapsed (s)"], cpu), "cpu": cpu,
            "wall": wall, "peak": peak, "load": os.getloadavg()[0]}


def run_ours(pegs: int, colors: int, strategy: str, first: str, rules: str,
             threads: int) -> dict:
    """One fresh process of our engine (see `case`)."""
    out, wall, cpu, peak = run_child([sys.executable, __file__, "--case", str(pegs), str(colors),
                                      strategy, first, rules, str(threads)])
    result = json.loads(out.strip().splitlines()[-1])
    seconds = result["warm cpu"] if threads == 1 else result["warm wall"]
    return {**result, "seconds": seconds, "wall": wall, "peak": peak,
            "load": os.getloadavg()[0]}


def case(pegs: int, colors: int, strategy: str, first: str, rules: str, threads: int) -> dict:
    """Inside a fresh process: import the engine, build the game, analyse it twice, report the
    import's wall time and both calls' times."""
    start = time.perf_counter()
    from puzzlelab.codebreaking import compiled, mastermind

    imported = time.perf_counter() - start

    game = mastermind(pegs, colors)
    options = {"threads": threads, "rules": rules, "first": first or None}
    times = []
    for _ in range(2):
        cpu, wall = time.process_time(), time.perf_counter()
        result = compiled.analyze(game, strategy, **options)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    return {"total": result.total, "worst": result.worst,
            "first": result.tree.experiment.iloc[0], "import wall": imported,
            "cold cpu": times[0][0],
            "cold wall": times[0][1], "warm cpu": times[1][0], "warm wall": times[1][1]}


def rows_of(folder: Path, pegs: int, colors: int, strategy: str, rounds: int) -> list[dict]:
    """Interleaved rounds of the four methods of one case, one row per method."""
    from puzzlelab.timing import machine

    runs: dict[str, list[dict]] = {m: [] for m in ("ours", "ours all cores", "peer", "own")}
    threads = os.cpu_count() or 1
    for _ in range(rounds):
        peer = run_peer(folder, pegs, colors, strategy)
        runs["peer"].append(peer)
        runs["ours"].append(run_ours(pegs, colors, strategy, peer["first"], "mikemag", 1))
        runs["ours all cores"].append(run_ours(pegs, colors, strategy, peer["first"], "mikemag",
                                               threads))
        runs["own"].append(run_ours(pegs, colors, strategy, "", "puzzlelab", 1))
        print(pegs, colors, strategy, {k: round(v[-1]["seconds"], 4) for k, v in runs.items()},
              flush=True)
    commit = peer_commit(folder)
    first = runs["peer"][0]["first"]
    methods = [
        ("ours", "puzzlelab engine, mikemag's rules, 1 thread (CPU)", "subject", True,
         f"first guess {first} (the peer's); in-process CPU time of a second call"),
        ("peer", f"mikemag/Mastermind {commit}, CPU solver, 1 thread", "baseline", True,
         "C++ (CMake Release); in-process: the lesser of its timer and its process CPU time"),
        ("ours all cores", f"puzzlelab engine, mikemag's rules, {threads} threads (wall)",
         "baseline", True, "in-process wall time of a second call"),
        ("own", "puzzlelab engine, own rules, 1 thread (CPU)", "baseline", False,
         "its own first guess and exact scores: another total"),
    ]
    subject_result = _result(runs["ours"][0])
    rows = []
    for key, label, role, like, note in methods:
        done = runs[key]
        result = _result(done[0])
        same = like and result == subject_result
        if key == "ours":
            note = f"{note}; {_fresh(done)}; {machine()}"
        rows.append(_row(pegs, colors, strategy, label, role, same, result, done, threads, note))
    return rows


def _fresh(runs: list[dict]) -> str:
    """What a fresh process of ours costs (medians): its import, first call and whole run."""
    def median(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    return (f"a fresh process: import {median('import wall'):.2f} s, first call (loads the "
            f"compiled code) {median('cold wall'):.2f} s, whole process {median('wall'):.2f} s "
            "(wall)")


def _result(run: dict) -> str:
    return f"{run['total']} (worst {run['worst']})"


def _row(pegs: int, colors: int, strategy: str, label: str, role: str, like: bool, result: str,
         runs: list[dict], threads: int, note: str) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`)."""
    from puzzlelab.timing import COLUMNS

    seconds = [r["seconds"] for r in runs]
    row = dict.fromkeys(COLUMNS)
    row.update(puzzle="codebreaking", case=f"{LABELS[strategy]}, Mastermind {pegs}x{colors}",
               method=label, role=role, like_for_like="yes" if like else "no", result=result,
               finished="yes", cold_s=statistics.median(r.get("cold cpu", r["seconds"])
                                                        for r in runs),
               whole_process_s=statistics.median(r["wall"] for r in runs),
               cold_peak_mib=max(r["peak"] for r in runs), cold_reps=len(runs),
               warm_min_s=min(seconds), warm_median_s=statistics.median(seconds),
               reps=len(runs), cores=os.cpu_count(),
               load_1min=round(statistics.mean(r["load"] for r in runs), 2), note=note)
    return row


def _kept_rows(sizes: list[tuple[int, int]]) -> list[dict]:
    """The rows of the last run for the sizes not run this time (a run of some sizes keeps the
    others' rows, each with its own repetitions and load)."""
    from puzzlelab.cache import data_path, read_table

    if not data_path("bench_codebreaking_peer").exists():
        return []
    table = read_table("bench_codebreaking_peer")
    rerun = tuple(f"Mastermind {p}x{c}" for p, c in sizes)
    kept = table[~table.case.str.endswith(rerun)]
    return [{k: (None if v != v else v) for k, v in row.items()}
            for row in kept.to_dict("records")]


def main(rounds: int, sizes: list[tuple[int, int]]) -> None:
    folder = peer_folder()
    if folder is None:
        print(f"bench_codebreaking_peer: skipped ({PEER_ENV} does not name a built "
              "mikemag/Mastermind checkout; see this file's docstring)")
        return
    from puzzlelab.timing import _add_ratios, write_rows

    rows = _kept_rows(sizes)
    for pegs, colors in sizes:
        for strategy in STRATEGIES:
            if not peer_binary(folder, pegs, colors, strategy).is_file():
                print(f"no peer binary for {pegs}p{colors}c {strategy}: case skipped")
                continue
            case_rows = rows_of(folder, pegs, colors, strategy, rounds)
            _add_ratios(case_rows)
            rows += case_rows
            table = write_rows(rows, "bench_codebreaking_peer")  # after each case: a stop keeps it
    print(table.to_string(index=False))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int,
                        default=1 if os.environ.get("PUZZLELAB_BENCH_QUICK") else 3)
    parser.add_argument("--sizes", default=",".join(f"{p}x{c}" for p, c in SIZES),
                        help="sizes to run, e.g. 4x6,5x7 (all four by default; the rows of "
                             "the others are kept)")
    parser.add_argument("--case", nargs=6, metavar=("PEGS", "COLORS", "STRATEGY", "FIRST",
                                                    "RULES", "THREADS"),
                        help="run one case in this process (internal)")
    options = parser.parse_args()
    if options.case:
        p, c, s, f, r, t = options.case
        print(json.dumps(case(int(p), int(c), s, f, r, int(t))))
    else:
        main(options.rounds, [tuple(int(x) for x in size.split("x"))
                              for size in options.sizes.split(",")])
