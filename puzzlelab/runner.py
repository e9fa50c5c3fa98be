"""Execute notebooks for the record, saying how far they are, and keep how long things take.

`run_notebook` executes a notebook top to bottom in a fresh kernel, prints a progress line
(cell k of n, time elapsed, time expected) when a cell starts and while a long cell runs, and
saves it with deterministic, stripped metadata (`clean`). Cells tagged `nbval-ignore-output`
(widgets, live timings) are saved without outputs, so that re-running leaves every committed
file unchanged; a cell tagged both `nbval-ignore-output` and `keep-output` keeps its outputs
(speed tables read from data/bench_*.csv, which `make bench` rewrites).

How long a notebook or a table took is kept twice: the last measured run in
`.puzzlelab/times.json` (not committed, rewritten by every run) and the expectations a
newcomer sees first in `tools/expected_times.json` (committed, rewritten only when asked:
`puzzlelab reproduce --record-times`), so a second run changes no committed file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import cache, checks
from .progress import duration

__all__ = [
    "IDLE", "IGNORE_TAG", "KEEP_TAG", "WIDGET_NOTE", "Progress", "StuckKernel", "Watchdog", "clean",
    "clock", "expected_seconds", "kernel_seconds", "lab_pre_save", "repeating",
    "private_sockets", "record_seconds", "run_notebook", "times_files",
]

IGNORE_TAG = "nbval-ignore-output"
KEEP_TAG = "keep-output"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
VOLATILE_MIME = "application/vnd.jupyter.widget-view+json"
# What a reader sees in place of a widget in the committed notebook (its state is not stored;
# nbval compares widget outputs as the same token, see tests/nbval_sanitize.cfg).
WIDGET_NOTE = ("Interactive view: run this cell in JupyterLab, or open the published site "
               "(make site).")
EVERY = 30.0  # seconds between progress lines while nothing else is said
IDLE = 600.0  # seconds a running notebook's kernel may use no CPU before it is thought stuck


# --- how long things take ------------------------------------------------------------------------
def times_files() -> tuple[Path, Path]:
    """(the committed expectations, the last measured run) beside data/."""
    root = cache.DATA.parent
    return root / "tools" / "expected_times.json", root / ".puzzlelab" / "times.json"


def _read(path: Path) -> dict[str, dict[str, Any]]:
    """A times file: {kind: {name: entry}}, {} when there is none. One of another shape or
    unreadable is set aside (renamed `<file>.bad`, when it is the measured one) with a warning
    naming it, never an error that blocks a run."""
    if not path.parent.is_dir():  # no folder to keep times in (or a file in its place)
        return {}
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() or not path.exists() else None
        record = json.loads(text) if text is not None else None
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        record, text = None, str(err)
    if isinstance(record, dict) and all(isinstance(v, dict) for v in record.values()):
        return record
    aside = ""
    if path == times_files()[1]:
        with contextlib.suppress(OSError):
            os.replace(path, path.with_name(path.name + ".bad"))
            aside = f" (set aside as {path.name}.bad)"
    warnings.warn(f"{path} is not a record of times ({{kind: {{name: {{seconds: ...}}}}}}): "
                  f"ignored{aside}", UserWarning, stacklevel=3)
    return {}


def _entry(path: Path, entry: object) -> dict[str, Any] | None:
    """A times entry with every field checked (None, with a warning naming the file, if not)."""
    if entry is None:
        return None
    try:
        if not isinstance(entry, dict):
            raise ValueError(f"an entry must be a mapping, got {entry!r}")
        checks.number(entry.get("seconds"), "seconds", low=0, high=1e9)
        checks.integer(entry.get("workers", 1), "workers", low=1, high=10**6)
        checks.boolean(entry.get("parallel", True), "parallel")
    except ValueError as err:
        warnings.warn(f"{path}: {err}; ignored", UserWarning, stacklevel=3)
        return None
    return entry


def expected_seconds(kind: str, name: str) -> dict[str, Any] | None:
    """What is known of how long `name` (a notebook or a table, by `kind`) takes: the last
    measured run here, else the committed expectation; None when neither knows it (an entry
    out of range is ignored with a warning naming its file)."""
    kind, name = checks.text(kind, "kind"), checks.text(name, "name")
    committed, measured = times_files()
    for path in (measured, committed):
        entry = _entry(path, _read(path).get(kind, {}).get(name))
        if entry is not None:
            return entry
    return None


def record_seconds(kind: str, name: str, seconds: float, *, commit: bool = False,
                   **details: Any) -> None:
    """Keep how long `name` took as the last measured run (and, with `commit`, as the
    committed expectation), atomically."""
    kind, name = checks.text(kind, "kind"), checks.text(name, "name")
    seconds = checks.number(seconds, "seconds", low=0, high=1e9)  # type: ignore[assignment]
    committed, measured = times_files()
    for path in (measured, committed) if checks.boolean(commit, "commit") else (measured,):
        record = _read(path)
        record.setdefault(kind, {})[name] = {"seconds": round(float(seconds), 1), **details}
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        try:
            cache.atomic_write(path, text.encode("utf-8"))
        except ValueError as err:  # the measured time is a convenience: say so, go on
            if path == committed:
                raise
            warnings.warn(f"the time taken was not kept: {err}", UserWarning, stacklevel=2)


def clock(seconds: float) -> str:
    """Time elapsed as a clock shows it: 0:07, 2:35, 1:02:03."""
    whole = int(checks.number(seconds, "seconds", low=0, high=1e9))  # type: ignore[arg-type]
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


# --- progress ------------------------------------------------------------------------------------
class Progress:
    """One line saying how far a long job is (step k of n, elapsed, expected, or `unknown` when
    nothing is expected), printed when a step starts and every `every` seconds while it runs."""

    def __init__(self, label: str, total: int, expected: float | None, *,
                 unit: str = "cell", every: float = EVERY,
                 say: Callable[[str], None] = lambda line: print(line, flush=True),
                 unknown: str = "no earlier run to compare") -> None:
        self.label, self.unit = checks.text(label, "label"), checks.text(unit, "unit")
        self.unknown = checks.text(unknown, "unknown")
        self.total = checks.integer(total, "total", low=0)
        self.expected = checks.number(expected, "expected", low=0, high=1e9, allow_none=True)
        self.every = checks.number(every, "every", low=0.01, high=1e6)
        if not callable(say):
            raise checks.ArgumentTypeError(f"say must be a function of a line, got {say!r}")
        self.say = say
        self.start = self.last = time.monotonic()
        self.step = 0
        self._lock = threading.Lock()

    def line(self) -> str:
        """The progress line as it stands now."""
        elapsed = time.monotonic() - self.start
        expected = (f", expected about {duration(self.expected)}" if self.expected is not None
                    else f", {self.unknown}")
        return (f"  {self.label}: {self.unit} {self.step} of {self.total}, "
                f"{clock(elapsed)} elapsed{expected}")

    def started(self, step: int, *, say: bool = False) -> None:
        """Step `step` (from 1) has started: say so if asked, if it is the first, or if a while
        has passed."""
        with self._lock:
            self.step = step
            if say or step == 1 or time.monotonic() - self.last >= self.every:
                self._say()

    def tick(self) -> None:
        """Say where the job is if nothing was said for `every` seconds."""
        with self._lock:
            if self.step and time.monotonic() - self.last >= self.every:
                self._say()

    def _say(self) -> None:
        self.last = time.monotonic()
        self.say(self.line())

    @contextlib.contextmanager
    def ticking(self) -> Iterator[Progress]:
        """Within this block a thread calls `tick` every second."""
        with repeating(1.0, self.tick):
            yield self


def repeating(seconds: float, action: Callable[[], bool | None]
              ) -> contextlib.AbstractContextManager[None]:
    """Within this block a thread calls `action` every `seconds` seconds, until it returns True."""
    seconds = checks.number(seconds, "seconds", low=0.001, high=1e6)
    if not callable(action):
        raise checks.ArgumentTypeError(f"action must be a function of no arguments, got {action!r}")
    return _repeating(seconds, action)


@contextlib.contextmanager
def _repeating(seconds: float, action: Callable[[], bool | None]) -> Iterator[None]:
    done = threading.Event()

    def loop() -> None:
        while not done.wait(seconds):
            if action():
                return
    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


# --- notebooks -----------------------------------------------------------------------------------
def _committed_metadata(nb: Any) -> None:
    """Give notebook `nb` (a dict) the metadata it is committed with: the kernel named, no
    versions, no timing or view state of cells."""
    nb["metadata"] = type(nb)(kernelspec=dict(KERNELSPEC), language_info={"name": "python"})
    for cell in nb.get("cells", []):
        for key in ("execution", "collapsed", "scrolled"):
            cell.get("metadata", {}).pop(key, None)


def lab_pre_save(model: Any, **context: Any) -> None:
    """JupyterLab's pre-save hook (`make lab`): a notebook is saved with its metadata as
    committed (`clean`), so that opening one, which fills in the kernel's name and version, and
    saving it (or autosave) changes no byte unless a cell changed. `context` (path, contents
    manager) is not used."""
    if not isinstance(model, dict):
        raise checks.ArgumentTypeError(f"model must be a contents model (a dict), got {model!r}")
    content = model.get("content")
    if model.get("type") == "notebook" and isinstance(content, dict) and "cells" in content:
        _committed_metadata(content)


def clean(nb: Any) -> Any:
    """Strip widget state, timing and version metadata, and the outputs of ignore-output cells."""
    import nbformat

    if not isinstance(nb, nbformat.NotebookNode) or "cells" not in nb:
        raise checks.ArgumentTypeError(f"nb must be a notebook (nbformat), got {type(nb).__name__}")
    _committed_metadata(nb)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.get("tags", [])
        if IGNORE_TAG in tags and KEEP_TAG not in tags:
            cell.outputs = []
            continue
        for out in cell.outputs:
            data = out.get("data", {})
            if data.pop(VOLATILE_MIME, None) is not None:  # a widget: its state is not saved here
                data["text/plain"] = WIDGET_NOTE
    return nb


def _modules() -> tuple[Any, Any, tuple[type[Exception], ...]]:
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellTimeoutError, DeadKernelError
    except ImportError:  # pragma: no cover - depends on the installed extra
        raise ValueError("running notebooks needs Jupyter: pip install 'puzzlelab[notebooks]'") \
            from None
    return nbformat, NotebookClient, (CellTimeoutError, DeadKernelError)


def kernel_seconds(pid: int) -> float | None:
    """CPU seconds used so far by process `pid` and all its children (None once it is gone)."""
    import psutil  # with the notebooks extra (a dependency of ipykernel as well)

    try:
        root = psutil.Process(checks.integer(pid, "pid", low=1))
        return sum(sum(p.cpu_times()[:2]) for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return None


def _kill(pid: int) -> None:
    import psutil

    with contextlib.suppress(psutil.Error):
        psutil.Process(pid).kill()


class Watchdog:
    """Kills a kernel that has used no CPU for `idle` seconds while its notebook runs: a kernel
    (or its client) that stopped answering, seen on overloaded machines. A busy cell, however
    long, keeps it alive; nbclient then reports the dead kernel and the notebook is run again.
    """

    def __init__(self, client: Any, idle: float) -> None:
        self.client = client
        self.idle = checks.number(idle, "idle", low=1, high=1e6)
        self.every = min(10.0, self.idle / 3)
        self.fired = False
        self._last: float | None = None
        self._quiet_since = time.monotonic()

    def _pid(self) -> int | None:
        return getattr(getattr(getattr(self.client, "km", None), "provisioner", None), "pid", None)

    def look(self) -> bool:
        """One look at the kernel: kill it (and say True) if it used no CPU for `idle` seconds."""
        pid = self._pid()
        used = None if pid is None else kernel_seconds(pid)
        now = time.monotonic()
        if used is None or self._last is None or used - self._last > 0.01 * self.every:
            self._quiet_since = now  # starting, or busy: at least 1% of a core since the last look
        self._last = used
        if now - self._quiet_since > self.idle:
            self.fired = True
            _kill(pid)  # type: ignore[arg-type]
        return self.fired

    @contextlib.contextmanager
    def watching(self) -> Iterator[Watchdog]:
        """Within this block a thread looks at the kernel every `every` seconds."""
        self._last, self._quiet_since = None, time.monotonic()
        with repeating(self.every, self.look):
            yield self


def _execute(path: Path, timeout: int, progress: Progress, idle: float) -> Any:
    """The notebook at `path`, executed top to bottom in its own folder by a fresh kernel."""
    nbformat, NotebookClient, _ = _modules()
    nb = nbformat.read(path, as_version=4)
    steps = {i: k for k, i in enumerate(
        (i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.strip()), 1)}
    progress.total = len(steps)

    def started(cell: Any = None, cell_index: int = 0, **_: Any) -> None:
        if cell_index in steps:
            progress.started(steps[cell_index])
    with tempfile.TemporaryDirectory(prefix="puzzlelab-kernel-") as sockets:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}},
                                record_timing=False, on_cell_start=started,
                                config=private_sockets(Path(sockets)))
        watchdog = Watchdog(client, idle)
        try:
            with progress.ticking(), watchdog.watching():
                client.execute()
        except Exception as err:
            if watchdog.fired:
                raise StuckKernel(f"the kernel used no CPU for {idle:g} s") from err
            raise
    return nb


def private_sockets(folder: Path) -> Any:
    """Kernel settings for Unix sockets in `folder`, a folder of this run's own, instead of TCP
    ports on localhost: ports are picked free and bound later by the kernel, so two notebooks
    started at once elsewhere on the machine could take the same ones and cross messages."""
    from traitlets.config import Config

    folder = checks.instance(folder, "folder", Path, "a folder (pathlib.Path)")
    if not folder.is_dir():
        raise ValueError(f"the kernel's sockets need an existing folder, got {folder}")
    return Config({"KernelManager": {"transport": "ipc", "ip": str(folder / "kernel")}})


class StuckKernel(RuntimeError):
    """A notebook's kernel stopped working (see `Watchdog`)."""


def run_notebook(path: Path, timeout: int = 1200, *, expected: float | None = None,
                 tries: int = 2, every: float = EVERY, idle: float = IDLE) -> float:
    """Execute one notebook with progress lines and write it back; return the seconds it took.

    A cell still running after `timeout` seconds, a kernel that died, or one that used no CPU
    for `idle` seconds (`Watchdog`: a kernel that stopped answering, seen on an overloaded
    machine), makes the notebook run again with a fresh kernel, up to `tries` times in all.
    """
    nbformat, _, retried = _modules()
    if not isinstance(path, Path) or path.suffix != ".ipynb":
        raise ValueError(f"path must be the Path of a .ipynb notebook, got {path!r}")
    start = time.perf_counter()
    for attempt in range(1, tries + 1):
        progress = Progress(path.stem, 0, expected, every=every)
        try:
            nb = _execute(path, timeout, progress, idle)
            break
        except (*retried, StuckKernel) as err:
            if attempt == tries:
                raise
            why = (str(err) if isinstance(err, StuckKernel) else f"a cell ran past {timeout} s"
                   if isinstance(err, retried[0]) else "the kernel died")
            print(f"  {why}; running {path} again", flush=True)
    seconds = time.perf_counter() - start
    nbformat.write(clean(nb), path)
    return seconds
