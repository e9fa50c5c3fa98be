"""Mastermind greedy analyses side by side with the fastest CPU peer, mikemag/Mastermind (C++).

Magruder's program (github.com/mikemag/Mastermind, MIT) plays every secret of Mastermind with
Knuth's, most parts, expected size and entropy strategies on the CPU (`SolverCPUFaster`, one
thread). Its build is found through PUZZLELAB_MASTERMIND_PEER: the folder of its checkout, with
one binary per size and strategy at build/<p>p<c>c-<Strategy>/mastermind (Strategy: Knuth,
MostParts, ExpectedSize, Entropy) and its valid_solutions.json and ACReduced.json. A binary
not there is built first from the folder's source (`build_peer`: CMake and a C++20 compiler,
nothing downloaded); its commit is read by git, or from a file COMMIT in the folder. Without the
folder the benchmark says so in one line and stops.

For each size (4×6, 5×7, 5×8, 6×6) and strategy, `rounds` interleaved rounds, each run a fresh
process measured the same way (CPU seconds, user + system, by wait4; wall time; peak resident
memory by GNU time): the peer; our engine with its rules (`compiled.analyze(..., rules="mikemag",
first=<its first guess>)`) on one thread (the subject) and on every core; our engine with our
own rules (its own first guess; totals differ, so not like for like). Our process (`ONE_GAME`)
imports the engine, builds the game and analyses it once, as the peer's process does; no run
includes a compile (the install step built our engine: `puzzlelab warm`).

Columns: warm_min_s / warm_median_s hold the whole process's CPU seconds (fastest, median over
rounds) and times_subject their ratio to ours; whole_process_s the median wall time; cold_s the
in-process solve time each program reports (the peer: its own timer; ours: the CPU time of the
`analyze` call); cold_peak_mib the largest peak memory. Each row also records the core count, the
mean 1-minute load over the case's runs (above the core count, other work shared the cores), the
machine, and whether the peer printed that its stored answer disagrees with its solver.
Writes data/bench_codebreaking_peer.csv (the shared schema). About 15 minutes on a 2-core
machine with 3 rounds (`--rounds`; PUZZLELAB_BENCH_QUICK=1 runs 1).
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


def stored_total(folder: Path, pegs: int, colors: int, strategy: str) -> int | None:
    """The total the peer stores as its answer (valid_solutions.json), which it checks its run
    against (printing "ERROR: Total turns doesn't match" when they differ)."""
    name = {"MostParts": "Most Parts", "ExpectedSize": "Expected Size"}.get(
        STRATEGIES[strategy], STRATEGIES[strategy])
    stored = json.loads((folder / "valid_solutions.json").read_text())
    entry = stored.get(name, {}).get(str(pegs), {}).get(str(colors))
    return None if entry is None else int(entry["total_turns"])


def stored_note(runs: list[dict], stored: int | None) -> str:
    """What the peer's stored answer says beside its run's total."""
    if stored is None:
        return "no stored answer"
    if stored == runs[0]["total"]:
        return f"its stored answer (valid_solutions.json) {stored} agrees"
    said = " (it prints 'Total turns doesn't match')" if any(r["mismatch"] for r in runs) else ""
    return f"its stored answer (valid_solutions.json) {stored} disagrees with its run{said}"


# How one build of the peer plays one size and strategy: its main.cpp fixes them at compile time
# (`SingleGameAlgo`, `singleGamePinCount`, `singleGameColorCount`); its unit tests and game log
# are turned off. Its CMakeLists.txt is made to build offline on one CPU: CMake 3.25.1 accepted,
# nlohmann_json from the system (Debian's nlohmann-json3-dev; libcpuid-dev for its CPU report)
# instead of downloading it, and no CUDA.
MAIN_EDITS = [("using SingleGameAlgo = Algos::Knuth;", "using SingleGameAlgo = Algos::{algo};"),
              ("singleGamePinCount = 4;", "singleGamePinCount = {pegs};"),
              ("singleGameColorCount = 6;", "singleGameColorCount = {colors};"),
              ("shouldRunTests = true;", "shouldRunTests = false;"),
              ("singleGameLog = true;", "singleGameLog = false;")]
CMAKE_EDITS = [("VERSION 3.25.2)", "VERSION 3.25.1)"),
               ("FetchContent_MakeAvailable(json)", "find_package(nlohmann_json REQUIRED)"),
               ("check_language(CUDA)", ""), ("if (CMAKE_CUDA_COMPILER)", "if (FALSE)")]


def build_peer(folder: Path, pegs: int, colors: int, strategy: str) -> Path:
    """Build the peer for one size and strategy (CMake, Release) from a copy of its source in
    folder/variants/, into peer_binary's place; the binary (kept if already built)."""
    binary = peer_binary(folder, pegs, colors, strategy)
    if binary.is_file():
        return binary
    source = folder / "variants" / binary.parent.name
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    for path in folder.iterdir():
        if path.is_file() and path.suffix in (".cpp", ".hpp", ".inl", ".h", ".in", ".txt"):
            shutil.copy(path, source)
    values = {"algo": STRATEGIES[strategy], "pegs": pegs, "colors": colors}
    for name, edits in (("main.cpp", MAIN_EDITS), ("CMakeLists.txt", CMAKE_EDITS)):
        text = (source / name).read_text()
        for old, new in edits:
            if old not in text:
                raise SystemExit(f"{name} of the peer has no {old!r}: another version?")
            text = text.replace(old, new.format(**values))
        if name == "CMakeLists.txt":
            text = "\n".join(line for line in text.splitlines()
                             if not line.startswith("FetchContent_Declare(json"))
        (source / name).write_text(text)
    binary.parent.mkdir(parents=True, exist_ok=True)
    for step in (["cmake", "-S", str(source), "-B", ".", "-DCMAKE_BUILD_TYPE=Release"],
                 ["make", "-j1"]):
        subprocess.run(step, cwd=binary.parent, check=True, capture_output=True)
    print(f"built {binary}", flush=True)
    return binary


def peer_commit(folder: Path) -> str:
    """The peer checkout's commit (short), else the first word of a COMMIT file beside its
    source (an archive of it has no .git), or 'unknown commit'."""
    out = subprocess.run(["git", "-C", str(folder), "log", "-1", "--format=%h"],
                         capture_output=True, text=True, check=False)
    named = folder / "COMMIT"
    written = named.read_text().split()[:1] if named.is_file() else []
    return out.stdout.strip() or (written[0] if written else "unknown commit")


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
    """One run of the peer in a fresh folder: its totals, first guess, own solve time, and the
    whole process's CPU, wall time and peak memory."""
    with tempfile.TemporaryDirectory() as cwd:
        for name in PEER_FILES:
            shutil.copy(folder / name, cwd)
        out, wall, cpu, peak = run_child([str(peer_binary(folder, pegs, colors, strategy))], cwd)
        stats = [json.loads(line.strip().lstrip(","))["run"]
                 for line in (Path(cwd) / "mastermind_run_stats.json").read_text().splitlines()
                 if '"run"' in line]
    run = stats[-1]
    return {"total": run["Total Turns"], "worst": run["Max Turns"], "first": run["Initial Guess"],
            "inside": run["Elapsed (s)"], "cpu": cpu, "wall": wall, "peak": peak,
            "load": os.getloadavg()[0], "mismatch": "Total turns doesn't match" in out}


# Ours as a one-game process: import the engine, build the game, analyse it once (no second
# call, no tree: the tree would import pandas), print the totals and the call's CPU time.
ONE_GAME = ("import sys, time; from puzzlelab.codebreaking import compiled, mastermind; "
            "p, c, s, f, r, t = sys.argv[1:]; game = mastermind(int(p), int(c)); "
            "cpu = time.process_time(); "
            "a = compiled.analyze(game, s, rules=r, first=f or None, threads=int(t)); "
            "print(a.total, a.worst, time.process_time() - cpu)")


def run_ours(pegs: int, colors: int, strategy: str, first: str, rules: str,
             threads: int) -> dict:
    """One fresh process of our engine analysing one game: totals, the call's CPU time, and the
    whole process's CPU, wall time and peak memory."""
    out, wall, cpu, peak = run_child([sys.executable, "-c", ONE_GAME, str(pegs), str(colors),
                                      strategy, first, rules, str(threads)])
    total, worst, inside = out.split()
    return {"total": int(total), "worst": int(worst), "inside": float(inside), "cpu": cpu,
            "wall": wall, "peak": peak, "load": os.getloadavg()[0]}


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
        print(pegs, colors, strategy, {k: round(v[-1]["cpu"], 3) for k, v in runs.items()},
              flush=True)
    commit = peer_commit(folder)
    first = runs["peer"][0]["first"]
    stored = stored_note(runs["peer"], stored_total(folder, pegs, colors, strategy))
    methods = [
        ("ours", "puzzlelab engine, mikemag's rules, 1 thread (CPU)", "subject", True,
         f"first guess {first} (the peer's); {machine()}"),
        ("peer", f"mikemag/Mastermind {commit}, CPU solver, 1 thread", "baseline", True,
         f"C++ (CMake Release, -march=native); in-process: its own timer; {stored}"),
        ("ours all cores", f"puzzlelab engine, mikemag's rules, {threads} threads (CPU)",
         "baseline", True, "numba's threaded walk: the process imports numba and loads its cache"),
        ("own", "puzzlelab engine, own rules, 1 thread (CPU)", "baseline", False,
         "its own first guess and exact scores: another total"),
    ]
    subject_result = _result(runs["ours"][0])
    rows = []
    for key, label, role, like, note in methods:
        done = runs[key]
        result = _result(done[0])
        same = like and result == subject_result
        note = f"{note}; {_described(done)}"
        rows.append(_row(pegs, colors, strategy, label, role, same, result, done, threads, note))
    return rows


def _described(runs: list[dict]) -> str:
    """The medians the columns do not hold: the whole process's wall time and the solve's share."""
    def median(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    return (f"whole process {median('cpu'):.3f} s CPU, {median('wall'):.3f} s wall; "
            f"in-process solve {median('inside'):.3f} s")


def _result(run: dict) -> str:
    return f"{run['total']} (worst {run['worst']})"


def _row(pegs: int, colors: int, strategy: str, label: str, role: str, like: bool, result: str,
         runs: list[dict], threads: int, note: str) -> dict:
    """A row of the shared benchmark schema (`puzzlelab.timing.COLUMNS`): warm_* hold the whole
    process's CPU seconds (each run a fresh process), cold_s the in-process solve time."""
    from puzzlelab.timing import COLUMNS

    seconds = [r["cpu"] for r in runs]
    row = dict.fromkeys(COLUMNS)
    row.update(puzzle="codebreaking", case=f"{LABELS[strategy]}, Mastermind {pegs}x{colors}",
               method=label, role=role, like_for_like="yes" if like else "no", result=result,
               finished="yes", cold_s=statistics.median(r["inside"] for r in runs),
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
    from puzzlelab.codebreaking import native, warm

    if not native.available():  # a stale or missing build would time numba's path instead
        print("the ahead-of-time walk is not built from this engine: building it (puzzlelab warm)")
        print(warm.warm())
    from puzzlelab.timing import add_ratios, write_rows

    rows = _kept_rows(sizes)
    for pegs, colors in sizes:
        for strategy in STRATEGIES:
            build_peer(folder, pegs, colors, strategy)
            case_rows = rows_of(folder, pegs, colors, strategy, rounds)
            add_ratios(case_rows)
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
    options = parser.parse_args()
    main(options.rounds, [tuple(int(x) for x in size.split("x"))
                          for size in options.sizes.split(",")])
