"""Sweeps over parameters on any `concurrent.futures.Executor`, with the same answer on each.

A sweep applies one picklable task to a list of parameters. `sweep` runs it serially, on a
local process pool (`workers=`), or on any executor passed as `executor=` — for example
`dask.distributed.Client(...).get_executor()` on a `LocalCluster` or a remote scheduler —
and always returns the results in the order of the parameters, never of completion.
Randomised tasks take their seed from the parameters (`spawn_seeds`), so the answer does
not depend on which worker ran what.

`sweep_table` is the resumable form for tasks that return table rows: every finished chunk
is written to `data/partial/<name>/` as it completes, an interrupted run continues from
there, and the folder is removed once the whole table is assembled. A chunk records the
sweep's name, its task, its parameters and a hash of the code it runs (its module and every
module of this package that one imports, and the package version); one that is damaged,
unverified or made for other parameters or other code is computed again, with a warning
(`sweep_chunks`).

A local pool never has more processes than `checks.worker_limit()` (nor than there are
chunks); the limit is checked before any process starts. The progress bar counts finished
tasks whatever the executor; Ctrl-C cancels what has not started and stops the local pool's
workers at once. A finished task is let go as soon as its result is used.

What a task costs besides its work (measured on 2 cores): about 0.3 ms of CPU on
a local pool; on a Dask LocalCluster about 5 ms (the scheduler's book-keeping, messages, the
result fetched from the worker) and a few ms during which its worker waits for the next one,
plus, once per fresh worker, importing the task's modules (0.5-2 s of CPU), and in the
background about 8% of a core for a 2-worker cluster's own periodic work (3% for
`local_cluster`, which `--scheduler local` runs on). A sweep table's chunk file costs about
4 ms of CPU and three fsyncs on the client. Tasks of a second or more of work keep all of this
to a few percent; a task that ships a few hundred bytes costs no more than an empty one.

The command lines of the sweeps share their options and their errors here: `--workers`,
`--scheduler` (a Dask scheduler, reached within `--connect-timeout` seconds or reported in one
line) and `command_line`, which ends a bad command with one line, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import inspect
import math
import os
import pickle
import re
import shlex
import shutil
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from . import checks
from .cache import partial_dir, read_csv_checked, write_csv
from .progress import tqdm
from .sweep_chunks import chunk_key, chunk_record, code_hash, saved_chunk

__all__ = [
    "CONNECT_TIMEOUT", "QUIET_DASK", "CommandParser", "add_executor_arguments", "command_line",
    "ascii_int", "executor_from_arguments", "finite_float", "invocation", "local_cluster",
    "spawn_seeds", "sweep", "sweep_table",
]

CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before the command says it cannot
# Dask settings of `local_cluster`: an idle 2-worker LocalCluster spends about 8% of a core on
# its own periodic work with Dask's defaults, about 3% with these.
QUIET_DASK = {
    "distributed.worker.profile.enabled": False,  # the dashboard's sampling profiler (every 10 ms)
    "distributed.admin.tick.interval": "1s",  # event-loop health checks (every 20 ms by default)
}

MAX_SEEDS = 10**6  # seeds one `spawn_seeds` call derives (about 11 µs each: 11 s at most)

P = TypeVar("P")
R = TypeVar("R")


def spawn_seeds(seed: int, count: int) -> list[int]:
    """`count` independent 63-bit seeds derived from `seed` (numpy `SeedSequence.spawn`)."""
    seed = checks.seed(seed)
    count = checks.integer(count, "count", low=0)
    checks.within_budget(f"spawn_seeds(count={count})", count, MAX_SEEDS, unit="seeds",
                         largest=f"count = {MAX_SEEDS}")
    children = np.random.SeedSequence(seed).spawn(count)
    return [int(c.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for c in children]


def _chunks(n: int, size: int) -> list[range]:
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


def _run_chunk(task: Callable[[Any], Any], params: Sequence[Any]) -> list[Any]:
    return [task(p) for p in params]


def _check_task(task: object) -> Callable[[Any], Any]:
    """A function that can be called with one parameter (when its signature can be read)."""
    if not callable(task):
        raise checks.ArgumentTypeError(f"task must be a function of one parameter, got {task!r}")
    try:
        signature = inspect.signature(task)
    except (TypeError, ValueError):  # no signature to read (some builtins): trust it
        return task  # type: ignore[return-value]
    try:
        signature.bind(None)
    except TypeError:
        name = getattr(task, "__qualname__", type(task).__name__)
        raise checks.ArgumentTypeError(f"task must be a function of one parameter, got "
                                       f"{name}{signature}") from None
    return task  # type: ignore[return-value]


def _unpicklable(err: BaseException, task: Callable[[Any], Any], params: list) -> Exception | None:
    """When a chunk failed on another process: an ArgumentTypeError if its task or parameters
    cannot be sent there, or its results cannot come back (None: the task's own error). Only
    asked after a failure, so a sweep that runs pays nothing for it."""
    if not isinstance(err, (TypeError, AttributeError, pickle.PicklingError)):
        return None
    for what, value in (("task", task), ("params", params)):
        try:
            pickle.dumps(value)
        except Exception as why:  # noqa: BLE001 - any failure to pickle says the same
            return checks.ArgumentTypeError(
                f"{what} must be picklable to run on other processes (a module-level function, "
                f"plain data): {why}")
    if "pickle" in str(err).lower():
        return checks.ArgumentTypeError(
            f"task must return picklable results to run on other processes: {err}")
    return None


def _check_executor(executor: object) -> Executor | None:
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise checks.ArgumentTypeError(
            f"executor must be a concurrent.futures.Executor (or None), got {executor!r}")
    return executor  # type: ignore[return-value]


def _check_desc(desc: object) -> str | None:
    """A progress bar's label: a string or None."""
    return None if desc is None else checks.text(desc, "desc")


@contextlib.contextmanager
def _local_pool(executor: Executor | None, workers: int, tasks: int,
                isolate: bool = False) -> Iterator[Executor | None]:
    """The executor to use: the caller's, a process pool of our own (no more processes than
    `workers` or than there are `tasks`; one process too when `isolate`), or None (serial)."""
    workers = min(checks.workers(workers), tasks)
    if executor is not None or workers < 1 or (workers == 1 and not isolate):
        yield executor
        return
    pool = ProcessPoolExecutor(workers)
    try:
        yield pool
    except BaseException:
        for proc in list(getattr(pool, "_processes", {}).values()):  # stop workers now, not later
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _execute(
    task: Callable[[Any], Any], params: Sequence[Any], chunks: list[range], *,
    executor: Executor | None, workers: int, desc: str | None, done: Callable[[range, list], None],
    isolate: bool = False,
) -> None:
    """Run every chunk, calling `done(chunk, results)` as each finishes (in completion order)."""
    total = sum(len(c) for c in chunks)
    with tqdm(total=total, desc=desc, unit="task") as bar, \
            _local_pool(executor, workers, len(chunks), isolate) as pool:
        if pool is None:
            for chunk in chunks:
                done(chunk, _run_chunk(task, [params[i] for i in chunk]))
                bar.update(len(chunk))
            return
        futures: dict[Future, range] = {}
        try:
            for chunk in chunks:  # submitted inside the try: Ctrl-C here cancels what was sent
                futures[pool.submit(_run_chunk, task, [params[i] for i in chunk])] = chunk
            for fut in as_completed(futures):
                chunk = futures.pop(fut)
                try:
                    values = fut.result()
                except Exception as err:
                    sent = _unpicklable(err, task, [params[i] for i in chunk])
                    if sent is None:
                        raise
                    raise sent from err
                done(chunk, values)
                bar.update(len(chunk))
                del fut  # let go of a finished task at once (a Dask worker then drops its result)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise


def sweep(
    task: Callable[[P], R], params: Sequence[P], *, executor: Executor | None = None,
    workers: int = 1, chunk_size: int = 1, desc: str | None = None,
) -> list[R]:
    """[task(p) for p in params], run serially, on `workers` local processes, or on `executor`.

    Results come back in the order of `params` whatever the executor. `task` must be picklable
    (a module-level function, or a `functools.partial` of one) when it runs in other processes.
    """
    task = _check_task(task)
    executor = _check_executor(executor)
    workers = checks.workers(workers)
    chunk_size = checks.integer(chunk_size, "chunk_size", low=1)
    desc = _check_desc(desc)
    params = _params(params)
    results: list[Any] = [None] * len(params)

    def done(chunk: range, values: list) -> None:
        for i, v in zip(chunk, values):
            results[i] = v

    _execute(task, params, _chunks(len(params), chunk_size), executor=executor, workers=workers,
             desc=desc, done=done)
    return results


def _rows(value: Any) -> pd.DataFrame:
    """A task's result as table rows: a DataFrame, a dict (one row) or a list of dicts (anything
    else: an ArgumentTypeError naming the task, before the chunk is saved)."""
    if isinstance(value, pd.DataFrame):
        return value
    if isinstance(value, dict):
        return pd.DataFrame([value])
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return pd.DataFrame(value)
    raise checks.ArgumentTypeError(f"task must return a DataFrame, a dict or a list of dicts "
                                   f"(the rows of a sweep_table), got {type(value).__name__}")


def _params(params: object) -> list:
    """The parameters of a sweep as a list (any finite iterable but text)."""
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise checks.ArgumentTypeError(f"params must be a sequence of parameters, got {params!r}")
    return list(params)  # type: ignore[call-overload]


def sweep_table(
    name: str, task: Callable[[P], Any], params: Sequence[P], *, executor: Executor | None = None,
    workers: int = 1, chunk_size: int = 1, desc: str | None = None, keep_partial: bool = False,
    isolate: bool = False,
) -> pd.DataFrame:
    """A table made of the rows of task(p) for every p, resumable after an interruption.

    Each finished chunk is saved in data/partial/<name>/ (keyed by the task and the chunk's
    parameters, and recording them with a hash of the task's code); a later call with the same
    sweep reuses the saved chunks that check and runs only the rest. The result is the
    concatenation in the order of `params`, identical whatever the executor and the number of
    workers. The partial folder is removed at the end unless `keep_partial`. With `isolate`, the
    tasks run in worker processes even with one worker: a task that holds the GIL for minutes (a
    PySAT solve) would otherwise stop the caller's threads, such as its progress heartbeat.
    """
    task = _check_task(task)
    executor = _check_executor(executor)
    workers = checks.workers(workers)
    chunk_size = checks.integer(chunk_size, "chunk_size", low=1)
    desc = _check_desc(desc)
    keep_partial = checks.boolean(keep_partial, "keep_partial")
    isolate = checks.boolean(isolate, "isolate")
    folder = partial_dir(name)
    for where in (folder.parent, folder):
        if os.path.lexists(where) and not where.is_dir():
            raise ValueError(f"{where} must be a folder of finished chunks: remove the file that "
                             f"stands there")
    params = _params(params)
    chunks = _chunks(len(params), chunk_size)
    keys = {c: chunk_key(name, task, [params[i] for i in c]) for c in chunks}
    code = code_hash(task)
    records = {c: chunk_record(name, task, [params[i] for i in c], code) for c in chunks}
    parts: dict[range, pd.DataFrame] = {}
    for chunk, key in keys.items():
        saved = saved_chunk(folder / f"{key}.csv", records[chunk])
        if saved is not None:
            parts[chunk] = saved

    def done(chunk: range, values: list) -> None:
        frames = [_rows(v) for v in values]
        table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        path = write_csv(table, folder / f"{keys[chunk]}.csv", records[chunk])
        parts[chunk] = read_csv_checked(path, expect=records[chunk])

    todo = [c for c in chunks if c not in parts]
    _execute(task, params, todo, executor=executor, workers=workers, desc=desc, done=done,
             isolate=isolate)
    frames = [parts[c] for c in chunks if len(parts[c].columns)]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if not keep_partial:
        shutil.rmtree(folder, ignore_errors=True)
    return table


# --- command lines ------------------------------------------------------------------------------

class CommandParser(argparse.ArgumentParser):
    """The argument parser of a sweep's command line: a bad argument raises ValueError, which
    `command_line` shows as one line (and a test can catch). Its own settings are those of
    `argparse.ArgumentParser`, checked (a wrong kind is an ArgumentTypeError naming it)."""

    def __init__(
        self, prog: str | None = None, usage: str | None = None, description: str | None = None,
        epilog: str | None = None, parents: Sequence[argparse.ArgumentParser] = (),
        formatter_class: Callable[..., argparse.HelpFormatter] = argparse.HelpFormatter,
        prefix_chars: str = "-", fromfile_prefix_chars: str | None = None,
        argument_default: Any = None, conflict_handler: str = "error", add_help: bool = True,
        allow_abbrev: bool = True, exit_on_error: bool = True,
    ) -> None:
        for name, value in (("prog", prog), ("usage", usage), ("description", description),
                            ("epilog", epilog), ("fromfile_prefix_chars", fromfile_prefix_chars)):
            if value is not None:
                checks.text(value, name)
        parents = checks.sequence(parents, "parents", what="a list of argument parsers")
        for i, parent in enumerate(parents):
            if not isinstance(parent, argparse.ArgumentParser):
                raise checks.ArgumentTypeError(
                    f"parents[{i}] must be an argparse.ArgumentParser, got {parent!r}")
        if not (isinstance(formatter_class, type)
                and issubclass(formatter_class, argparse.HelpFormatter)):
            raise checks.ArgumentTypeError(f"formatter_class must be an argparse.HelpFormatter "
                                           f"class, got {formatter_class!r}")
        if not checks.text(prefix_chars, "prefix_chars"):
            raise ValueError("prefix_chars must name at least one character")
        checks.choice(conflict_handler, "conflict_handler", ("error", "resolve"))
        for name, value in (("add_help", add_help), ("allow_abbrev", allow_abbrev),
                            ("exit_on_error", exit_on_error)):
            checks.boolean(value, name)
        super().__init__(
            prog=prog, usage=usage, description=description, epilog=epilog, parents=parents,
            formatter_class=formatter_class, prefix_chars=prefix_chars,
            fromfile_prefix_chars=fromfile_prefix_chars, argument_default=argument_default,
            conflict_handler=conflict_handler, add_help=bool(add_help),
            allow_abbrev=bool(allow_abbrev), exit_on_error=bool(exit_on_error))
        self.register("type", int, ascii_int)  # every type=int and type=float of this parser
        self.register("type", float, finite_float)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def ascii_int(text: str) -> int:
    """An option's integer, written in ASCII digits (int() would read '٢' as 2)."""
    text = checks.text(text, "text")
    if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text) or len(text.strip()) > 30:
        raise ValueError(f"not an integer in digits 0-9: {text!r}")
    return int(text)


ascii_int.__name__ = "int"  # argparse names the type in its message: "invalid int value"


def finite_float(text: str) -> float:
    """An option's finite number, written in ASCII (no nan, inf or other scripts' digits)."""
    text = checks.text(text, "text")
    if not text.isascii() or len(text) > 40:
        raise ValueError(f"not a number in ASCII: {text!r}")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text!r}")
    return value


finite_float.__name__ = "float"


def _workers_option(text: str) -> int:
    """--workers: a positive integer within `checks.worker_limit()`."""
    try:
        value = ascii_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    try:
        return checks.workers(value, "the number of workers")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _seconds_option(text: str) -> float:
    """--connect-timeout: a positive number of seconds."""
    try:
        seconds = finite_float(text)
        return checks.number(seconds, "the timeout", low=0.1, high=3600)  # type: ignore
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """--workers N (local processes), --scheduler ADDRESS|local (Dask) and --connect-timeout for
    a sweep's command line."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise checks.ArgumentTypeError(
            f"parser must be an argparse.ArgumentParser, got {type(parser).__name__}")
    parser.add_argument("--workers", type=_workers_option, default=1,
                        help="local worker processes, or the workers of --scheduler local "
                             f"(default 1: serial; at most {checks.worker_limit()}, "
                             f"{checks.MAX_WORKERS_ENV} raises it)")
    parser.add_argument("--scheduler", default=None,
                        help="a Dask scheduler address (tcp://host:8786), or 'local' for a "
                             "LocalCluster with --workers workers (needs puzzlelab[cluster])")
    parser.add_argument("--connect-timeout", type=_seconds_option, default=CONNECT_TIMEOUT,
                        help=f"seconds to reach --scheduler (default {CONNECT_TIMEOUT:g})")


def _dask() -> Any:
    try:
        import distributed
    except ImportError:  # pragma: no cover - depends on the installed extra
        raise ValueError("a Dask cluster (--scheduler) needs Dask: "
                         "pip install 'puzzlelab[cluster]'") from None
    return distributed


def local_cluster(workers: int) -> Any:
    """A Dask LocalCluster of `workers` one-thread worker processes, without dashboard, under
    `QUIET_DASK` (what `--scheduler local` runs on); close it, e.g. with `with`."""
    workers = checks.workers(workers)
    distributed = _dask()
    import dask

    with dask.config.set(QUIET_DASK):  # read as the scheduler, nannies and workers are made
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None)


async def _identity(distributed: Any, address: str, timeout: float) -> Any:
    """The scheduler's answer to Dask's `identity` request, over a comm of its own."""
    comm = await distributed.comm.connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _handshake(distributed: Any, address: str, timeout: float) -> str | None:
    """Why whatever listens at `address` is not a Dask scheduler answering within `timeout`
    seconds (None when it is one): a Dask handshake with a deadline of its own, run on a thread
    of its own (whatever event loop the caller has), whatever sits on the port."""
    outcome: list[Any] = []

    def ask() -> None:
        try:
            outcome.append(asyncio.run(asyncio.wait_for(
                _identity(distributed, address, timeout), timeout)))
        except BaseException as err:  # noqa: BLE001 - any failure says the same: not a scheduler
            outcome.append(err)

    thread = threading.Thread(target=ask, name="puzzlelab-scheduler-handshake", daemon=True)
    thread.start()
    thread.join(timeout + 2)
    if not outcome:
        return "no answer"
    answer = outcome[0]
    if isinstance(answer, (TimeoutError, asyncio.TimeoutError)):
        return "no answer"
    if isinstance(answer, BaseException):
        return (str(answer).strip().splitlines() or [type(answer).__name__])[0][:200]
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        return "something that is not a Dask scheduler answered"
    return None


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    """A Dask client of the scheduler at `address`; ValueError in one line if it cannot be
    reached within `timeout` seconds (a handshake first: a listener that is not a Dask
    scheduler, or never answers, is named within the timeout)."""
    why = _handshake(distributed, address, timeout)
    if why is None:
        try:
            return distributed.Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as err:
            why = (str(err).strip().splitlines() or [type(err).__name__])[0]
    raise ValueError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                     f"({why})")


def executor_from_arguments(
    args: argparse.Namespace,
) -> contextlib.AbstractContextManager[tuple[Executor | None, int]]:
    """(executor, workers) for `sweep(..., executor=, workers=)` from the parsed arguments, as a
    context manager (`with executor_from_arguments(args) as (executor, workers):`).

    The arguments are checked when it is called, before any process starts: `args` a parsed
    Namespace, its number of workers (`checks.workers`), its --scheduler (an address or
    'local') and --connect-timeout; a scheduler that cannot be reached within --connect-timeout
    seconds is a ValueError naming it.
    """
    if not isinstance(args, argparse.Namespace):
        raise checks.ArgumentTypeError(
            f"args must be parsed arguments (an argparse.Namespace), got {type(args).__name__}")
    workers = checks.workers(getattr(args, "workers", 1), "--workers")
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None and not checks.text(scheduler, "--scheduler"):
        raise ValueError("--scheduler must be a Dask scheduler's address or 'local', got ''")
    timeout = checks.number(getattr(args, "connect_timeout", CONNECT_TIMEOUT),
                            "--connect-timeout", low=0.1, high=3600)
    return _executor(workers, scheduler, timeout)  # type: ignore[arg-type]


@contextlib.contextmanager
def _executor(workers: int, scheduler: str | None, timeout: float
              ) -> Iterator[tuple[Executor | None, int]]:
    """The context of `executor_from_arguments`, its arguments checked."""
    if scheduler is None:
        yield None, workers
        return
    distributed = _dask()
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            cluster = stack.enter_context(local_cluster(workers))
            client = stack.enter_context(distributed.Client(cluster))
        else:
            client = stack.enter_context(_connect(distributed, scheduler, timeout))
        yield client.get_executor(), 1


def invocation(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> str:
    """The command line that was run (`parser.prog` and its arguments), as a table records it."""
    if not isinstance(parser, argparse.ArgumentParser):
        raise checks.ArgumentTypeError(f"parser must be an argparse.ArgumentParser, got {parser!r}")
    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)):
        raise checks.ArgumentTypeError(f"argv must be a list of arguments or None, got {argv!r}")
    args = list(sys.argv[1:] if argv is None else argv)
    return " ".join([parser.prog, shlex.join(str(a) for a in args)]).strip()


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def command_line(main: Callable[[], Any]) -> None:
    """Run a sweep's `main()` as a command: a bad argument (any ValueError) ends it with one line
    `error: ...`, Ctrl-C with one line; warnings are shown as one line `warning: ...`."""
    checks.function(main, "main")
    show = warnings.showwarning

    def one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"warning: {_one_line(message)}", file=sys.stderr if file is None else file)

    warnings.showwarning = one_line_warning
    try:
        main()
    except ValueError as err:
        raise SystemExit(f"error: {_one_line(err)}") from None
    except OSError as err:  # a file that cannot be read or written, whatever wrote it
        where = f"{err.filename}: " if err.filename else ""
        raise SystemExit(f"error: {_one_line(where + (err.strerror or str(err)))}") from None
    except MemoryError:
        raise SystemExit("error: out of memory (a smaller size, or fewer workers, may fit)"
                         ) from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted (a resumable sweep keeps its finished chunks in "
                         "data/partial/)") from None
    finally:
        warnings.showwarning = show
