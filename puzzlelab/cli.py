"""The puzzlelab command: cached tables, notebooks, the site and the benchmarks.

`puzzlelab tables` lists the cached tables, `compute` rebuilds some, `reproduce` re-runs the
notebooks (`make reproduce`), `site` builds the static site, `bench` runs the benchmarks,
`references` prints the bibliography, `warm` compiles the code-breaking engine; one function
per subcommand, `puzzlelab --help` lists them.

The tables are those of `registry.registered()` and the functions that rebuild them those of
`registry.rebuilders()` (declared where each table is computed): `puzzlelab compute NAME` is the
one way to rebuild a computed table, `puzzlelab bench NAME` a benchmark's. Bad arguments end the
command with one line (`error: ...`, exit status 2), never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from . import cache, checks, declarations, long_runs, registry, runner, solvers, sweeps
from .progress import duration

__all__ = ["main", "parser", "table_list"]  # the subcommands run through main()

PROG = "puzzlelab"
NOTEBOOK_TIMEOUT = 1200  # seconds a cell may run before its notebook is run again
# A cell that recomputes a table runs as long as the table takes, tens of minutes on a busy
# machine: running the notebook again would redo that work. A kernel that stopped working is
# caught sooner, by its idle CPU (runner.Watchdog).
RECOMPUTE_TIMEOUT = 4 * 3600


def _root() -> Path:
    return cache.DATA.parent


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Set environment variables within a block (the notebooks' kernels inherit them)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _puzzle(name: str) -> str:
    """The puzzle a table belongs to, read from its name ('' for the shared benchmarks)."""
    stem = name.removeprefix("bench_")
    if stem.startswith("mastermind"):
        return "codebreaking"
    return next((p for p in declarations.PUZZLES if stem.startswith(p)), "")


def _benchmarks() -> dict[str, Path]:
    """The benchmarks by name (benchmarks/bench_<name>.py)."""
    return {p.stem.removeprefix("bench_"): p
            for p in sorted((_root() / "benchmarks").glob("bench_*.py"))}


def _computable(name: str, declared: dict[str, cache.Table], builds: dict[str, Callable]) -> bool:
    return name in builds


# --- puzzlelab tables ----------------------------------------------------------------------------
STATES = (("cannot read", "not a file"), ("no metadata", "missing metadata"),
          ("unreadable metadata", "missing metadata"), ("checksum", "changed"),
          ("does not match", "changed"), ("rows where", "changed"),
          ("cannot be read as a table", "changed"))


def _state(name: str, declared: dict[str, cache.Table]) -> str:
    """ok, changed (bytes not those recorded), missing metadata, bad metadata (a field out of
    range), stale (other version or parameters than declared), missing (declared, never
    computed here) or not a file (a folder, a FIFO, a link loop in its place)."""
    path = cache.data_path(name)
    if not os.path.lexists(path):
        return "missing"
    try:
        cache.read_table(declared.get(name, name))  # never opens a FIFO: its type is checked
    except ValueError as err:
        return next((state for words, state in STATES if words in str(err)), "stale")
    try:
        meta = cache.table_metadata(name) or {}
        _recorded_seconds(meta, name)
        _recorded_machine(meta, name)
    except ValueError:
        return "bad metadata"
    return "ok"


def _recorded_seconds(meta: dict, name: str) -> float | None:
    """The seconds a table's metadata records (None when it records none)."""
    seconds = meta.get("seconds")
    where = f"data/{cache.CHECKSUMS}/{name}.json"
    return checks.number(seconds, f"seconds in {where}", low=0, high=1e9, allow_none=True)


MACHINE_KEYS = ("cores", "python", "numpy", "numba")


def _recorded_machine(meta: dict, name: str) -> dict | None:
    """The machine a table's metadata records (None when it records none): its cores and the
    Python, numpy and numba versions."""
    found = meta.get("machine")
    where = f"data/{cache.CHECKSUMS}/{name}.json"
    if found is None:
        return None
    if not isinstance(found, dict) or sorted(found) != sorted(MACHINE_KEYS):
        raise ValueError(f"the machine in {where} must record {', '.join(MACHINE_KEYS)}")
    if found["cores"] is not None:
        checks.integer(found["cores"], f"cores in {where}", low=1, high=100_000)
    for key in MACHINE_KEYS[1:]:
        if found[key] is not None:
            checks.text(found[key], f"{key} in {where}")
    return found


def _rebuild_command(name: str, declared: dict[str, cache.Table], builds: dict[str, Callable],
                     meta: dict | None) -> str:
    if _computable(name, declared, builds):
        return declared[name].command if name in declared else declarations.default_command(name)
    recorded = (meta or {}).get("command") or ""
    if f"{PROG} bench " in recorded:  # a benchmark's table, as it recorded (with what it needs)
        return recorded
    for bench, script in _benchmarks().items():  # a benchmark's table, or one it reads
        if name == f"bench_{bench}" or f'"{name}"' in script.read_text(encoding="utf-8"):
            return f"{PROG} bench {bench}"
    return (meta or {}).get("command") or declarations.default_command(name)


def table_list(puzzle: str | None = None) -> pd.DataFrame:
    """Every table in data/ and every declared one: name, puzzle, rows, file, checksum state,
    when it was last computed and the command that rebuilds it."""
    if puzzle is not None:
        puzzle = checks.choice(puzzle, "puzzle", declarations.PUZZLES)
    declared, builds = registry.registered(), registry.rebuilders()
    names = sorted({p.stem for p in cache.DATA.glob("*.csv")} | set(declared))
    rows = []
    for name in names:
        if puzzle and _puzzle(name) != puzzle:
            continue
        meta = cache.table_metadata(name)
        rows.append({"name": name, "puzzle": _puzzle(name) or "-",
                     "rows": (meta or {}).get("rows", ""),
                     "file": f"data/{name}.csv", "state": _state(name, declared),
                     "computed (UTC)": (meta or {}).get("computed_at") or "-",
                     "rebuild": _rebuild_command(name, declared, builds, meta)})
    return pd.DataFrame(rows, columns=["name", "puzzle", "rows", "file", "state",
                                       "computed (UTC)", "rebuild"])


def tables(args: argparse.Namespace) -> None:
    """puzzlelab tables [PUZZLE]: every cached table, its state and the command that rebuilds it."""
    listing = table_list(args.puzzle)
    with pd.option_context("display.max_rows", None, "display.max_colwidth", None,
                           "display.width", 250):
        print(listing.to_string(index=False))
    print(f"{len(listing)} tables; rebuild one with the command of its row")


# --- puzzlelab compute ---------------------------------------------------------------------------
def _takes_executor(build: Callable) -> bool:
    try:
        return "executor" in inspect.signature(build).parameters
    except (TypeError, ValueError):
        return False


def _run_build(name: str, args: argparse.Namespace, declared: dict[str, cache.Table],
               builds: dict[str, Callable]) -> bool:
    """Rebuild one table with the function declared for it (the one the notebooks read it
    through); True when it ran on the workers asked for."""
    build = builds[name]
    with cache.recomputing(name):
        if not _takes_executor(build):
            build()
            return False
        with sweeps.executor_from_arguments(args) as (executor, workers):
            build(executor=executor, workers=workers)
        return True


def _estimate(name: str, declared: dict[str, cache.Table], workers: int) -> float | None:
    """Seconds `name` should take on `workers` workers, from the last recorded run (None for a
    continued long run: one call goes on from where it stands, and estimates the rest itself)."""
    if long_runs.is_continued(name):
        return None
    known = runner.expected_seconds("tables", name)
    if known is None:
        try:
            seconds = _recorded_seconds(cache.table_metadata(name) or {}, name)
        except ValueError as err:
            warnings.warn(f"{err}: no estimate from it", cache.CacheWarning, stacklevel=2)
            seconds = None
        known = {"seconds": seconds, "workers": 1} if seconds is not None else None
    if known is None:
        return None
    parallel = known.get("parallel", True)
    return known["seconds"] * (known.get("workers", 1) / workers if parallel else 1)


def _expected_total(names: list[str], estimates: list[float | None], args: argparse.Namespace,
                    declared: dict[str, cache.Table]) -> str:
    """What the tables `names` should take together, as the first line of a compute says it."""
    known = [e for e in estimates if e is not None]
    long = [n for n in names if long_runs.is_continued(n)]
    unknown = [n for n, e in zip(names, estimates) if e is None and n not in long]
    parts = [f"about {duration(sum(known))} {_where(args)}"] if known else []
    if unknown:
        parts.append(f"{', '.join(unknown)} (no earlier run)" if parts or long
                     else "no earlier run to go by")
    if long:
        parts.append(f"{'the long runs' if len(long) > 1 else 'the long run'} {', '.join(long)}"
                     ", whose time left is said after each batch")
    return ", plus ".join(parts)


def _where(args: argparse.Namespace) -> str:
    if args.scheduler and args.scheduler != "local":
        return f"on the Dask scheduler at {args.scheduler}"
    return f"on {args.workers} core{'s' if args.workers > 1 else ''}"


def _check_names(names: Sequence[str], args: argparse.Namespace,
                 declared: dict[str, cache.Table], builds: dict[str, Callable]) -> list[str]:
    known = sorted(n for n in set(declared) | set(builds) if _computable(n, declared, builds))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown table {unknown[0]!r}; known tables: {', '.join(known)}")
    for name in names:
        table = declared.get(name)
        if table is not None and table.long_run and not args.long_run:
            raise ValueError(f"{name} is a long run, not rebuilt unless asked: {table.command}")
    return list(dict.fromkeys(names))


def _outcome(name: str, before: dict | None, changes: Path, damage: str | None = None) -> str:
    after = cache.table_metadata(name) or {}
    if changes.exists() and changes.read_text(encoding="utf-8").strip():
        lines = changes.read_text(encoding="utf-8").strip().splitlines()
        changes.unlink()
        return "\n".join(f"  CHANGED {line}" for line in lines)
    if before is None:
        return f"  wrote data/{name}.csv ({after.get('rows', '?')} rows, new)"
    if damage is not None:
        return f"  rewrote data/{name}.csv ({after.get('rows')} rows; it {damage})"
    if before.get("sha256") == after.get("sha256"):
        written = ("its metadata now records the seconds and machine of this run"
                   if before != after else "no file written")
        return f"  unchanged: data/{name}.csv has the same bytes ({after.get('rows')} rows), " \
               f"{written}"
    return (f"  rewrote data/{name}.csv ({before.get('rows')} rows before, "
            f"{after.get('rows')} after)")


def compute(args: argparse.Namespace) -> None:
    """puzzlelab compute NAME...: rebuild tables (an estimate first, progress, what changed)."""
    declared, builds = registry.registered(), registry.rebuilders()
    names = _check_names(args.names, args, declared, builds)
    if args.long_run:  # left running in the background: CP-SAT's wall-clock net made patient
        os.environ.setdefault(solvers.PATIENCE_ENV, "100")
    estimates = [_estimate(n, declared, args.workers) for n in names]
    total = _expected_total(names, estimates, args, declared)
    print(f"computing {len(names)} table(s): {total}", flush=True)
    _say_which_run_here(names, args, builds)
    with tempfile.TemporaryDirectory() as folder:
        changes = Path(folder) / "changes.log"
        with _environment(**{cache.CHANGES_ENV: str(changes)}):
            _compute_each(names, estimates, args, declared, builds, changes)


def _say_which_run_here(names: list[str], args: argparse.Namespace,
                        builds: dict[str, Callable]) -> None:
    """Name the tables that take no workers when workers or a scheduler were asked for."""
    here = [n for n in names if n in builds and not _takes_executor(builds[n])]
    if here and (args.scheduler or args.workers > 1):
        asked = "--scheduler" if args.scheduler else "--workers"
        print(f"  {', '.join(here)}: computed in this process on one core (no sweep to spread); "
              f"{asked} applies to the other tables only", flush=True)


def _compute_each(names: list[str], estimates: list[float | None], args: argparse.Namespace,
                  declared: dict[str, cache.Table], builds: dict[str, Callable],
                  changes: Path) -> None:
    """Rebuild each table in turn: progress, time taken, what changed."""
    for k, (name, expected) in enumerate(zip(names, estimates), 1):
        if args.fresh and cache.partial_dir(name).exists():
            shutil.rmtree(cache.partial_dir(name))
            print(f"  discarded the finished chunks in data/partial/{name}/", flush=True)
        before = cache.table_metadata(name) if cache.data_path(name).exists() else None
        damage = _damage(name, declared) if before is not None else None
        progress = runner.Progress(name, len(names), expected, unit="table", unknown=(
            "a long run (its time left is said after each batch)"
            if long_runs.is_continued(name) else "no earlier run to compare"))
        start = time.perf_counter()
        with progress.ticking():
            progress.started(k, say=True)
            parallel = _run_build(name, args, declared, builds)
        seconds = time.perf_counter() - start
        runner.record_seconds("tables", name, seconds, commit=args.record_times,
                              workers=args.workers, parallel=parallel)
        print(f"  {name}: done in {duration(seconds)}", flush=True)
        print(_outcome(name, before, changes, damage), flush=True)


def _damage(name: str, declared: dict[str, cache.Table]) -> str | None:
    """Why the table in data/ cannot be used as it is (None when it can)."""
    try:
        cache.read_table(declared.get(name, name))
    except ValueError as err:
        return str(err).split(str(cache.data_path(name)), 1)[-1].split("; ")[0].strip()
    return None


# --- puzzlelab reproduce -------------------------------------------------------------------------
def _notebooks(only: Sequence[str] | None) -> list[Path]:
    found = {p.stem: p for p in sorted((_root() / "notebooks").glob("*.ipynb"))}
    if not found:
        raise ValueError(f"no notebooks in {_root() / 'notebooks'}")
    unknown = [n for n in only or () if n not in found]
    if unknown:
        raise ValueError(f"unknown notebook {unknown[0]!r}; choose from {', '.join(found)}")
    return [found[n] for n in dict.fromkeys(only)] if only else list(found.values())


def _fingerprint() -> dict[str, str]:
    """The checksum of every file under data/, figures/ and notebooks/ (what a run may change)."""
    out = {}
    for folder in ("data", "figures", "notebooks"):
        for path in sorted((_root() / folder).rglob("*")):
            relative = path.relative_to(_root())
            if path.is_file() and "partial" not in relative.parts:
                out[str(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _git_status() -> str | None:
    """`git status --porcelain` of data/, figures/ and notebooks/ (None outside a checkout)."""
    if not (_root() / ".git").exists() or shutil.which("git") is None:
        return None
    done = subprocess.run(["git", "status", "--porcelain", "--", "data", "figures", "notebooks"],
                          cwd=_root(), capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def _summary(times: dict[str, float], before: dict[str, str], changed_tables: list[str]) -> None:
    print("summary:")
    for name, seconds in times.items():
        print(f"  {name:<16} {duration(seconds):>10}")
    print(f"  {len(times)} notebook(s) in {duration(sum(times.values()))}")
    after = _fingerprint()
    rewritten = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    tables_rewritten = [p for p in rewritten if p.startswith("data/") and p.endswith(".csv")]
    print(f"  tables rewritten: {', '.join(tables_rewritten) or 'none'}")
    for line in changed_tables:
        print(f"    CHANGED {line}")
    print(f"  files this run rewrote: {len(rewritten)}"
          + (f" ({', '.join(rewritten[:10])}{' ...' if len(rewritten) > 10 else ''})"
             if rewritten else ""))
    status = _git_status()
    if status is None:
        print("  committed files: not a git checkout, cannot tell")
    else:
        print("  committed files: unchanged (git status clean)" if not status else
              f"  committed files changed (git status):\n" + "\n".join(
                  f"    {line}" for line in status.splitlines()))


def reproduce(args: argparse.Namespace) -> None:
    """puzzlelab reproduce: run the notebooks (an estimate first, progress, a summary)."""
    paths = _notebooks(args.only)
    kind = "notebooks (recompute)" if args.recompute else "notebooks (cached)"
    expected = {p.stem: (runner.expected_seconds(kind, p.stem) or {}).get("seconds")
                for p in paths}
    known = [s for s in expected.values() if s is not None]
    missing = [n for n, s in expected.items() if s is None]
    print(f"running {len(paths)} notebook(s)"
          + (f", {'recomputing' if args.recompute else 'reading'} data/: " if paths else ": ")
          + (f"about {duration(sum(known))}" if known else "no earlier run to go by")
          + (f" (no earlier run of {', '.join(missing)})" if known and missing else ""),
          flush=True)
    before, times, changed = _fingerprint(), {}, []
    with tempfile.TemporaryDirectory() as folder:
        changes = Path(folder) / "changes.log"
        with _environment(**{"TQDM_DISABLE": os.environ.get("TQDM_DISABLE") or "1",
                             cache.RECOMPUTE_ENV: "1" if args.recompute else "0",
                             cache.CHANGES_ENV: str(changes)}):
            _run_each(paths, expected, kind, args, changes, times, changed)
    _summary(times, before, changed)


def _run_each(paths: list[Path], expected: dict[str, float | None], kind: str,
              args: argparse.Namespace, changes: Path, times: dict[str, float],
              changed: list[str]) -> None:
    """Execute each notebook in turn: progress, time taken, tables it changed."""
    for k, path in enumerate(paths, 1):
        print(f"[{k}/{len(paths)}] {path.relative_to(_root())}", flush=True)
        timeout = args.timeout or (RECOMPUTE_TIMEOUT if args.recompute else NOTEBOOK_TIMEOUT)
        seconds = runner.run_notebook(path, timeout, expected=expected[path.stem])
        times[path.stem] = seconds
        runner.record_seconds(kind, path.stem, seconds, commit=args.record_times)
        print(f"  done in {duration(seconds)}", flush=True)
        if changes.exists():
            for line in changes.read_text(encoding="utf-8").splitlines():
                print(f"  CHANGED {line}", flush=True)
                changed.append(line)
            changes.unlink()


# --- puzzlelab site, puzzlelab bench -------------------------------------------------------------
def _script(path: Path, env: dict[str, str]) -> None:
    """Run a script of the repository with this Python; ValueError in one line if it fails."""
    if not path.exists():
        raise ValueError(f"{path} not found: this needs a checkout of the repository")
    done = subprocess.run([sys.executable, str(path)], cwd=_root(), env={**os.environ, **env},
                          check=False)
    if done.returncode != 0:
        raise ValueError(f"{path.relative_to(_root())} failed (exit status {done.returncode})")


def site(args: argparse.Namespace) -> None:
    """puzzlelab site: build the static site in site/_build/html (make site)."""
    if not (_root() / "site" / "node_modules").is_dir():
        raise ValueError("the site needs its npm packages first: run `make site` once "
                         "(it runs npm ci in site/)")
    _script(_root() / "tools" / "build_site.py", {"TQDM_DISABLE": "1"})
    print(f"site built: {_root() / 'site' / '_build' / 'html' / 'index.html'}")


def bench(args: argparse.Namespace) -> None:
    """puzzlelab bench [NAME...]: run the benchmarks (all by default) into data/bench_*.csv."""
    found = _benchmarks()
    if not found:
        raise ValueError(f"no benchmarks in {_root() / 'benchmarks'}: this needs a checkout of "
                         "the repository")
    unknown = [n for n in args.names if n not in found]
    if unknown:
        raise ValueError(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(found)}")
    for name in dict.fromkeys(args.names) if args.names else found:
        print(f"== {found[name].relative_to(_root())}", flush=True)
        _script(found[name], {"MPLBACKEND": "Agg", declarations.BENCH_ENV: name,
                              cache.BENCH_START_ENV: repr(time.time())})


def references(args: argparse.Namespace) -> None:
    """puzzlelab references: print the bibliography (notebooks/references.md) from the sources."""
    from .sources import bibliography_markdown

    print(bibliography_markdown(), end="")


def warm(args: argparse.Namespace) -> None:
    """puzzlelab warm: compile the code-breaking engine and the Hanabi strategies once (the install
    step runs it)."""
    from .codebreaking.warm import warm as compile_engine

    print("puzzlelab: compiling the code-breaking engine and the Hanabi strategies once"
          " (a minute or two) ...", flush=True)
    for what, step in (("engine", compile_engine), ("Hanabi strategies", _warm_hanabi)):
        start = time.perf_counter()
        try:
            built = step()
        except Exception as error:  # still works, compiling on first use
            print(f"puzzlelab: compiling the {what} skipped ({type(error).__name__}: {error})")
            continue
        print(f"puzzlelab: {what} compiled in {time.perf_counter() - start:.0f} s ({built})")


def _warm_hanabi() -> str:
    """Fill numba's cache of the compiled Hanabi strategies (a fresh clone starts empty, and a
    first call would compile for some 15-30 s): one deal through each entry point; what was done."""
    from .hanabi import hat_compiled, info_compiled

    for module in (hat_compiled, info_compiled):
        module.play_deals(2, [0])
        module.compiled_moves(2, 0)
    return "numba's cache of hat_compiled and info_compiled"


# --- the parser ----------------------------------------------------------------------------------
def _subcommand(subs: Any, function: Callable[[argparse.Namespace], None]
                ) -> argparse.ArgumentParser:
    """A subcommand named after `function`, its help the first line of its docstring."""
    doc = inspect.getdoc(function) or ""
    summary = doc.splitlines()[0].split(": ", 1)[-1].rstrip(".")
    command = subs.add_parser(function.__name__, help=summary, description=summary)
    command.set_defaults(run=function)
    return command


def _timeout_option(text: str) -> int:
    """--timeout: whole seconds a cell may run, 1 to a day."""
    try:
        return checks.integer(sweeps.ascii_int(text), "the timeout", low=1, high=86_400)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def parser() -> argparse.ArgumentParser:
    """The `puzzlelab` argument parser (bad arguments raise ValueError: one line)."""
    top = sweeps.CommandParser(prog=PROG, description=__doc__.splitlines()[0])
    subs = top.add_subparsers(title="commands", metavar="COMMAND", required=True)
    listing = _subcommand(subs, tables)
    listing.add_argument("puzzle", nargs="?", choices=declarations.PUZZLES,
                         help="one puzzle's tables")
    rebuild = _subcommand(subs, compute)
    rebuild.add_argument("names", nargs="+", metavar="NAME", help="tables to rebuild")
    sweeps.add_executor_arguments(rebuild)
    rebuild.add_argument("--fresh", action="store_true",
                         help="discard finished chunks (data/partial/NAME/) instead of resuming")
    rebuild.add_argument("--long-run", action="store_true",
                         help="allow the long runs among NAME (refused otherwise)")
    rerun = _subcommand(subs, reproduce)
    rerun.add_argument("--only", nargs="+", metavar="PUZZLE",
                       help="these notebooks only (hanabi, hats, index, ...)")
    rerun.add_argument("--recompute", action="store_true",
                       help="recompute data/ (make reproduce) instead of reading it")
    rerun.add_argument("--timeout", type=_timeout_option, default=None,
                       help=f"seconds a cell may run (default {NOTEBOOK_TIMEOUT}, "
                            f"with --recompute {RECOMPUTE_TIMEOUT})")
    for command in (rebuild, rerun):
        command.add_argument("--record-times", action="store_true",
                             help="also keep the times measured as the committed expectations "
                                  "(tools/expected_times.json)")
    _subcommand(subs, site)
    benchmarks = _subcommand(subs, bench)
    benchmarks.add_argument("names", nargs="*", metavar="NAME",
                            help="benchmarks to run (default: all)")
    _subcommand(subs, references)
    _subcommand(subs, warm)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run `puzzlelab ...`; a bad argument or refused request ends it with one line, status 2."""
    try:
        sweeps.command_line(lambda: _dispatch(argv))
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            return 2
        raise
    return 0


def _dispatch(argv: Sequence[str] | None) -> None:
    args = parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    sys.exit(main())
