"""Benchmark harness for `benchmarks/` (never used to assert anything in tests).

Every benchmark row follows one schema (`COLUMNS`): what was run (puzzle, case, method, its
role as subject or baseline, whether it computes the same thing as the case's subject), what
it computed, COLD figures (first call in a fresh interpreter, one-time set-up included; the
whole process's wall time, interpreter start and imports included; its peak resident memory)
and WARM figures (repeated calls in one process, measured INTERLEAVED with the other methods
of the case: A, B, A, B, ...; minimum and median; peak traced allocation of one call), the
number of repetitions, the machine's core count and load (the 1-minute load average when the
row was made: above the core count, other work shared the cores) and a short note.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import math
import numbers
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import checks

if TYPE_CHECKING:
    import pandas as pd

    from .display import Table

__all__ = [
    "COLUMNS", "Cold", "MAX_REPEAT", "Method", "QUICK_ENV", "SPEED_COLUMNS", "Task", "add_ratios",
    "best_of",
    "cold_run", "interleaved", "machine", "measure", "profile_summary", "quick", "repetitions",
    "schema_row",
    "SPEED_NAMES", "speed_table", "speed_view", "timed", "warm_peak_mib", "with_rates",
    "write_rows",
]

QUICK_ENV = "PUZZLELAB_BENCH_QUICK"
COLUMNS = [
    "puzzle", "case", "method", "role", "like_for_like", "result", "finished",
    "cold_s", "whole_process_s", "cold_peak_mib", "cold_reps",
    "warm_min_s", "warm_median_s", "warm_peak_mib", "reps", "times_subject", "cores", "load_1min",
    "note",
]
SPEED_COLUMNS = [
    "case", "method", "like_for_like", "warm_median_s", "cold_s", "whole_process_s",
    "cold_peak_mib", "times_subject",
]
# What the reader sees as the speed table's column headings (words, units in words).
SPEED_NAMES = {
    "case": "case", "method": "method", "like_for_like": "like for like",
    "warm_median_s": "seconds (warm, median)", "cold_s": "seconds (first run)",
    "whole_process_s": "seconds (whole process)", "cold_peak_mib": "peak memory (MiB)",
    "times_subject": "times the subject's time", "warm_min_s": "seconds (warm, fastest)",
    "warm_peak_mib": "peak memory, warm (MiB)", "reps": "repetitions",
    "load_1min": "machine load (1 min)", "cores": "cores", "result": "result",
    "role": "role", "finished": "finished", "note": "note",
    "games_per_cpu_s": "games per CPU second", "cpu_s": "CPU seconds (whole process)",
    "wall_s": "wall seconds", "program": "program", "bot": "bot or strategy",
    "players": "players", "games": "games",
}
ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
MIB = 1024 * 1024
SLOW = 5.0  # seconds: a cold run this slow is not repeated
MAX_REPEAT = 100_000  # repetitions of one measured call at most


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """Seconds taken by one call f(*args), and its result."""
    checks.function(f, "f")
    start = time.perf_counter()
    result = f(*args)
    return time.perf_counter() - start, result


def best_of(f: Callable[[], Any], repeat: int = 3) -> float:
    """Fastest wall time of `repeat` calls of f() (the usual timeit convention)."""
    checks.function(f, "f")
    repeat = checks.integer(repeat, "repeat", low=1, high=MAX_REPEAT)
    return min(timed(f)[0] for _ in range(repeat))


def machine() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()


def quick() -> bool:
    """True when PUZZLELAB_BENCH_QUICK asks for few repetitions (to check the scripts run)."""
    return os.environ.get(QUICK_ENV, "") not in ("", "0", "false", "no")


def repetitions(full: int, few: int = 2) -> int:
    """`full` repetitions normally, `few` in quick mode."""
    full = checks.integer(full, "full", low=0, high=MAX_REPEAT)
    few = checks.integer(few, "few", low=0, high=MAX_REPEAT)
    return min(full, few) if quick() else full


@dataclass(frozen=True)
class Task:
    """A module-level function and its arguments, callable here or in a fresh interpreter."""

    module: str
    function: str
    args: tuple = ()

    def __post_init__(self) -> None:
        checks.record(self)
        if not all(part.isidentifier() for part in f"{self.module}.{self.function}".split(".")):
            raise ValueError(f"a task names a module and a function, got {self.module!r}, "
                             f"{self.function!r}")

    def __call__(self) -> Any:
        return self.resolve()()

    def resolve(self) -> Callable[[], Any]:
        """The call with its function looked up once (so repeated timings time only the call)."""
        return functools.partial(getattr(importlib.import_module(self.module), self.function),
                                 *self.args)


@dataclass(frozen=True)
class Cold:
    """One run of a task in a fresh interpreter (seconds are None when it did not finish)."""

    seconds: float | None
    whole_seconds: float
    peak_mib: float | None
    result: str

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def finished(self) -> bool:
        return self.seconds is not None


_CHILD = """
import importlib, json, resource, sys, time
start = time.perf_counter()
module, function, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
f = getattr(importlib.import_module(module), function)
ready = time.perf_counter()
result = f(*args)
seconds = time.perf_counter() - ready
try:  # this process's own high-water mark (ru_maxrss may include the parent's, from the fork)
    with open("/proc/self/status") as status:
        peak = int(next(line for line in status if line.startswith("VmHWM")).split()[1])
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
text = result if isinstance(result, str) else repr(result)
print(json.dumps({"seconds": seconds, "peak_kib": peak, "result": text}))
"""


def _child_env() -> dict[str, str]:
    """This interpreter's environment, with this checkout and benchmarks/ first on the path."""
    env = dict(os.environ, TQDM_DISABLE="1", MPLBACKEND="Agg")
    inherited = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(BENCHMARKS), *inherited])
    return env


def cold_run(task: Task, timeout: float | None = None) -> Cold:
    """Run `task` once in a fresh interpreter: first call and whole process (seconds), peak RSS.

    The task's arguments travel as JSON; a task that fails there raises ValueError with the end
    of its error output."""
    if not isinstance(task, Task):
        raise checks.ArgumentTypeError(f"task must be a Task, got {task!r}")
    timeout = checks.number(timeout, "timeout (seconds)", low=0, allow_none=True)
    try:
        arguments = json.dumps(list(task.args))
    except (TypeError, ValueError) as err:
        raise ValueError(f"the arguments of {task} cannot be sent to a fresh interpreter: {err}")
    command = [sys.executable, "-c", _CHILD, task.module, task.function, arguments]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=_child_env(), check=False)
    except subprocess.TimeoutExpired:
        return Cold(None, time.perf_counter() - start, None, f"did not finish in {timeout:g} s")
    whole = time.perf_counter() - start
    if done.returncode != 0:
        raise ValueError(f"{task} failed in a fresh interpreter:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return Cold(report["seconds"], whole, report["peak_kib"] / 1024, report["result"])


def interleaved(calls: Mapping[str, Callable[[], Any]],
                repeat: int | Mapping[str, int]) -> dict[str, list[float]]:
    """Wall times of each call, measured in turn (A, B, A, B, ...) so that drift hits all alike.

    `repeat` is one count for all, or a count per label (a label stops once it has its count).
    """
    calls = _calls(calls)
    counts = _counts(repeat, calls)
    times: dict[str, list[float]] = {k: [] for k in calls}
    for r in range(max(counts.values(), default=0)):
        for label, call in calls.items():
            if r < counts[label]:
                gc.collect()
                times[label].append(timed(call)[0])
    return times


def _calls(calls: object) -> Mapping[str, Callable[[], Any]]:
    """A mapping of labels (text) to functions."""
    if not isinstance(calls, Mapping):
        raise checks.ArgumentTypeError(f"calls must map labels to functions, got {calls!r}")
    for label, call in calls.items():
        checks.text(label, "a label of calls")
        checks.function(call, f"calls[{label!r}]")
    return calls


def _counts(repeat: object, calls: Mapping[str, Any]) -> dict[str, int]:
    """Repetitions per label: one count for all, or a mapping with a count for every label."""
    if not isinstance(repeat, Mapping):
        count = checks.integer(repeat, "repeat", low=0, high=MAX_REPEAT)
        return dict.fromkeys(calls, count)
    missing = [k for k in calls if k not in repeat]
    if missing:
        raise ValueError(f"repeat gives no count for {missing}")
    return {k: checks.integer(repeat[k], f"repeat[{k!r}]", low=0, high=MAX_REPEAT)
            for k in calls}


def warm_peak_mib(f: Callable[[], Any]) -> float:
    """Peak memory traced (tracemalloc: Python objects and numpy arrays) during one call f()."""
    checks.function(f, "f")
    gc.collect()
    tracemalloc.start()
    try:
        f()
        return tracemalloc.get_traced_memory()[1] / MIB
    finally:
        tracemalloc.stop()


@dataclass(frozen=True)
class Method:
    """One way of computing a case: a task, its role and how it compares with the subject."""

    label: str
    task: Task
    role: str = "subject"  # or "baseline"
    like_for_like: bool = True  # computes the same thing as the case's subject
    note: str = ""
    cold: bool = True  # measure in fresh interpreters
    warm: bool = True  # measure repeated calls in this process
    timeout: float | None = None  # seconds for one cold run; beyond it: did not finish

    def __post_init__(self) -> None:
        checks.record(self)
        if self.role not in ("subject", "baseline"):
            raise ValueError(f"role must be 'subject' or 'baseline', got {self.role!r}")


def _cold_figures(methods: Sequence[Method], repeat: int) -> dict[str, list[Cold]]:
    """Cold runs, interleaved across methods; a slow or unfinished method is not run again."""
    runs: dict[str, list[Cold]] = {m.label: [] for m in methods}
    for _ in range(repeat):
        for m in methods:
            done = runs[m.label]
            if m.cold and all(c.finished and c.seconds < SLOW for c in done):
                done.append(cold_run(m.task, m.timeout))
    return runs


def _warm_up(methods: Sequence[Method], cold: dict[str, list[Cold]], repeat: int,
             budget: float) -> tuple[dict[str, int], dict[str, str]]:
    """One untimed-for-the-record call of each warm method: repetitions per method (`repeat`,
    fewer where `repeat` calls would pass `budget` seconds; at least one) and the results."""
    counts, results = {}, {}
    for m in methods:
        runs = cold[m.label]
        if not m.warm or (runs and not runs[-1].finished):
            continue
        seconds, value = timed(m.task)
        results[m.label] = _text(value)
        guess = min([seconds] + [c.seconds for c in runs if c.seconds is not None])
        counts[m.label] = max(1, min(repeat, int(budget / guess))) if guess > 0 else repeat
    return counts, results


def _text(result: Any) -> str:
    """A result as recorded (strings as they are, anything else by repr), as the fresh run does."""
    return result if isinstance(result, str) else repr(result)


def _check_results(results: dict[str, str], methods: Sequence[Method], case: str) -> None:
    """Every like-for-like method must compute what the subject computes."""
    subject = next((m for m in methods if m.role == "subject"), None)
    if subject is None or subject.label not in results:
        return
    for m in methods:
        if m.like_for_like and m.label in results and results[m.label] != results[subject.label]:
            raise AssertionError(f"{case}: {m.label} gives {results[m.label]}, "
                                 f"{subject.label} gives {results[subject.label]}")


def measure(puzzle: str, case: str, methods: Sequence[Method], *, repeat: int = 5,
            cold_repeat: int = 1, budget: float = 20.0, peak_below: float = 2.0,
            profile_below: float = 3.0) -> list[dict]:
    """Cold and warm figures of every method of one case, in rows of the shared schema.

    Cold runs come first (fresh interpreters, interleaved across methods); then each warm
    method is called once untimed, then timed interleaved, `repeat` times or fewer where
    `repeat` calls would take more than `budget` seconds. The traced peak (one more call)
    is taken for calls faster than `peak_below` seconds. Where a like-for-like baseline comes
    within `profile_below` times the subject, the subject's note says where its time goes.
    """
    checks.text(puzzle, "puzzle")
    checks.text(case, "case")
    methods = checks.sequence(methods, "methods", what="a list of Method")
    for i, m in enumerate(methods):
        if not isinstance(m, Method):
            raise checks.ArgumentTypeError(f"methods[{i}] must be a Method, got {m!r}")
    repeat = checks.integer(repeat, "repeat", low=1, high=MAX_REPEAT)
    cold_repeat = checks.integer(cold_repeat, "cold_repeat", low=0, high=MAX_REPEAT)
    budget = checks.number(budget, "budget (seconds)", low=0)
    peak_below = checks.number(peak_below, "peak_below (seconds)", low=0)
    profile_below = checks.number(profile_below, "profile_below (ratio)", low=0)
    cold = _cold_figures(methods, cold_repeat)
    counts, results = _warm_up(methods, cold, repeat, budget)
    for label, runs in cold.items():
        if runs and runs[0].finished:
            results.setdefault(label, runs[0].result)
    _check_results(results, methods, case)
    warmed = {m.label: m.task.resolve() for m in methods if m.label in counts}
    warm = interleaved(warmed, counts)
    peaks = {label: warm_peak_mib(task) for label, task in warmed.items()
             if statistics.median(warm[label]) < peak_below}
    rows = [schema_row(puzzle, case, m, cold[m.label], warm.get(m.label, []), peaks.get(m.label),
                       results.get(m.label, "")) for m in methods]
    add_ratios(rows)
    _profile_small_ratio(rows, methods, profile_below)
    for row in rows:
        print({k: row[k] for k in ("case", "method", "cold_s", "warm_median_s", "note")},
              flush=True)
    return rows


def profile_summary(task: Callable[[], Any], top: int = 2) -> str:
    """Where one call's time goes: the `top` functions by own time under cProfile, in one line."""
    import cProfile
    import pstats

    checks.function(task, "task")
    top = checks.integer(top, "top", low=1)
    profile = cProfile.Profile()
    profile.runcall(task)
    stats = pstats.Stats(profile)
    entries = stats.stats.items()  # type: ignore[attr-defined]
    ranked = sorted(entries, key=lambda kv: -kv[1][2])[:top]
    total = stats.total_tt  # type: ignore[attr-defined]
    parts = [f"{tt / total:.0%} in " + (name if file == "~" else f"{Path(file).name}:{name}")
             for (file, _, name), (_, _, tt, _, _) in ranked]
    return "profile: " + ", ".join(parts)


def _profile_small_ratio(rows: list[dict], methods: Sequence[Method], below: float) -> None:
    """Add a profile line to the subject's note when a like-for-like baseline is within `below`x."""
    ratios = [r["times_subject"] for r in rows if r["role"] == "baseline"
              and r["like_for_like"] == "yes" and r["times_subject"] is not None]
    subject = next((m for m in methods if m.role == "subject"), None)
    if subject is None or not ratios or min(ratios) >= below:
        return
    row = next(r for r in rows if r["method"] == subject.label)
    row["note"] = "; ".join(x for x in (row["note"], profile_summary(subject.task)) if x)


def schema_row(puzzle: str, case: str, m: Method, cold: Sequence[Cold], warm: Sequence[float],
               peak: float | None, result: str) -> dict:
    """One benchmark row in the shared schema (`COLUMNS`) from cold runs and warm times."""
    checks.text(puzzle, "puzzle")
    checks.text(case, "case")
    if not isinstance(m, Method):
        raise checks.ArgumentTypeError(f"m must be a Method, got {m!r}")
    cold = checks.sequence(cold, "cold", what="a list of Cold runs")
    if not all(isinstance(c, Cold) for c in cold):
        raise checks.ArgumentTypeError(f"cold must hold Cold runs, got {cold!r}")
    warm = [checks.number(w, "a warm time", low=0) for w in checks.sequence(warm, "warm")]
    peak = checks.number(peak, "peak (MiB)", low=0, allow_none=True)
    checks.text(result, "result")
    finished = [c for c in cold if c.finished]
    dnf = next((c for c in cold if not c.finished), None)
    note = m.note if dnf is None else f"{dnf.result}; {m.note}".rstrip("; ")
    return {
        "puzzle": puzzle, "case": case, "method": m.label, "role": m.role,
        "like_for_like": "yes" if m.like_for_like else "no", "result": result,
        "finished": "no" if dnf else "yes" if m.cold or m.warm else "not run",
        "cold_s": _median([c.seconds for c in finished]),
        "whole_process_s": _median([c.whole_seconds for c in finished]),
        "cold_peak_mib": max((c.peak_mib for c in finished), default=None),
        "cold_reps": len(cold),
        "warm_min_s": min(warm, default=None), "warm_median_s": _median(warm),
        "warm_peak_mib": peak, "reps": len(warm), "times_subject": None,
        "cores": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2), "note": note,
    }


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def add_ratios(rows: list[dict]) -> None:
    """Set each row's times_subject: its seconds over the subject row's, in place.

    A row's seconds are its warm median, or its cold time where it has no warm runs; a row is
    compared with the subject only when both are timed the same way (both warm, or both cold).

    Parameters
    ----------
    rows : list of dict
        Benchmark rows of one case in the shared schema (`COLUMNS`): each has `role`,
        `warm_median_s` and `cold_s`; at most one has the role "subject".

    Returns
    -------
    None
        The rows are changed in place; without a subject row none is changed.

    Raises
    ------
    ArgumentTypeError
        If `rows` is not a list of dicts with those keys.

    Examples
    --------
    >>> rows = [{"role": "subject", "warm_median_s": 2.0, "cold_s": 3.0},
    ...         {"role": "peer", "warm_median_s": 5.0, "cold_s": 6.0},
    ...         {"role": "peer", "warm_median_s": None, "cold_s": 9.0}]
    >>> add_ratios(rows)
    >>> [row.get("times_subject") for row in rows]
    [1.0, 2.5, None]

    References
    ----------
    The shared schema of the benchmark tables data/bench_*.csv (`COLUMNS`).
    """
    if not isinstance(rows, list) or not all(
            isinstance(r, dict) and {"role", "warm_median_s", "cold_s"} <= r.keys() for r in rows):
        raise checks.ArgumentTypeError(f"rows must be a list of benchmark rows with role, "
                                       f"warm_median_s and cold_s, got {rows!r}")

    def seconds(row: dict) -> float | None:
        return row["warm_median_s"] if row["warm_median_s"] is not None else row["cold_s"]

    subject = next((r for r in rows if r["role"] == "subject"), None)
    base = seconds(subject) if subject else None
    for row in rows:
        mine = seconds(row)
        if base and mine is not None and (row["warm_median_s"] is None) == (
                subject["warm_median_s"] is None):
            row["times_subject"] = mine / base


def with_rates(rows: list[dict], count: int, unit: str = "games") -> list[dict]:
    """Rows with `count` / seconds (warm median, else the cold run) at the front of each note,
    e.g. '2,650 games/s'."""
    from .checks import ArgumentTypeError, integer, text

    fields = {"warm_median_s", "cold_s", "note"}
    if not isinstance(rows, list) or not all(isinstance(r, dict) and fields <= r.keys()
                                             for r in rows):
        raise ArgumentTypeError(f"rows must be a list of benchmark rows (from measure), "
                                f"got {rows!r}")
    count, unit = integer(count, "count", low=0), text(unit, "unit")
    for row in rows:
        seconds = row["warm_median_s"] or row["cold_s"]
        if seconds:
            rate = f"{count / seconds:,.0f} {unit}/s"
            row["note"] = "; ".join(x for x in (rate, row["note"]) if x)
    return rows


_MEASURES = ("cold_s", "whole_process_s", "cold_peak_mib", "warm_min_s", "warm_median_s",
             "warm_peak_mib", "times_subject")  # numbers (or missing), kept to 4 digits


def _four_digits(value: object, name: str) -> float | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise checks.ArgumentTypeError(f"{name} must be a number of seconds, MiB or times, "
                                       f"got {value!r}")
    return float(f"{value:.4g}")


def write_rows(rows: Sequence[dict], name: str) -> "pd.DataFrame":
    """Write benchmark rows to data/<name>.csv in the shared schema (4 significant digits)."""
    import pandas as pd

    from .cache import write_table

    rows = checks.sequence(rows, "rows", what="a list of benchmark rows (dicts)")
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping) or set(row) - set(COLUMNS):
            raise checks.ArgumentTypeError(f"rows[{i}] must be a dict with keys among COLUMNS, "
                                           f"got {row!r}")
    table = pd.DataFrame(list(rows), columns=COLUMNS)
    for column in _MEASURES:
        table[column] = [_four_digits(v, f"rows[{i}][{column!r}]")
                         for i, v in enumerate(table[column])]
    write_table(table, name)
    return table


def speed_table(name: str, columns: Sequence[str] | None = None) -> "pd.DataFrame":
    """The benchmark table data/<name>.csv narrowed for a notebook (at most 8 columns).

    `columns` picks and orders the columns to show; by default `SPEED_COLUMNS` where the
    table has them, else its first eight.
    """
    from .cache import read_table

    if columns is not None:
        columns = [checks.text(c, "a column") for c in checks.sequence(columns, "columns")]
    table = read_table(name)
    default = SPEED_COLUMNS if set(SPEED_COLUMNS) <= set(table.columns) else table.columns
    keep = [c for c in (columns or default) if c in table.columns][:8]
    return table[keep]


def speed_view(name: str, columns: Sequence[str] | None = None) -> "Table":
    """speed_table(name, columns) as the reader sees it: columns named in words, no row numbers."""
    from .display import table

    shown = speed_table(name, columns)
    return table(shown, {c: SPEED_NAMES[c] for c in shown.columns if c in SPEED_NAMES})
