"""Execute notebooks top to bottom in place and save them with deterministic, stripped metadata.

Used by `make reproduce` (all notebooks, caches recomputed) and `make notebook NB=...`.
A cached table that a notebook's recompute changes is reported here, after the notebook (rows
before and after, the cells that changed), not inside the notebook's outputs.
Cells tagged `nbval-ignore-output` (widgets, live timings) are executed but saved without
outputs, so that re-running leaves every committed file unchanged. A cell tagged both
`nbval-ignore-output` and `keep-output` keeps its outputs: speed tables read from
data/bench_*.csv are deterministic for a given CSV, but `make bench` rewrites the CSV, so
nbval must not compare them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError

IGNORE_TAG = "nbval-ignore-output"
KEEP_TAG = "keep-output"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
VOLATILE_MIME = "application/vnd.jupyter.widget-view+json"
# What a reader sees in place of a widget in the committed notebook (its state is not stored;
# nbval compares widget outputs as the same token, see tests/nbval_sanitize.cfg).
WIDGET_NOTE = "Interactive view: run this cell in JupyterLab, or open the published site (make site)."


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip widget state, timing and version metadata, and the outputs of ignore-output cells."""
    nb.metadata = nbformat.NotebookNode(
        kernelspec=KERNELSPEC, language_info={"name": "python"}
    )
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)
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


def execute(path: Path, timeout: int) -> nbformat.NotebookNode:
    """The notebook at `path`, executed top to bottom in its own folder by a fresh kernel."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    ).execute()
    return nb


def run(path: Path, timeout: int, tries: int = 2) -> float:
    """Execute one notebook and write it back; return the seconds it took.

    A cell that produces nothing for `timeout` seconds (a kernel that stopped answering, seen
    on an overloaded machine) is retried once with a fresh kernel before giving up.
    """
    start = time.perf_counter()
    for attempt in range(1, tries + 1):
        try:
            nb = execute(path, timeout)
            break
        except CellTimeoutError:
            if attempt == tries:
                raise
            print(f"  a cell timed out after {timeout} s; running {path} again", flush=True)
    seconds = time.perf_counter() - start
    nbformat.write(clean(nb), path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per cell")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(Path("notebooks").glob("*.ipynb"))
    os.environ.setdefault("TQDM_DISABLE", "1")  # no progress bars in committed outputs
    total = 0.0
    with tempfile.TemporaryDirectory() as folder:
        changes = Path(folder) / "changes.log"
        os.environ["PUZZLELAB_CHANGES"] = str(changes)  # puzzlelab.cache.CHANGES_ENV
        for path in paths:
            print(f"running {path} ...", flush=True)
            seconds = run(path, args.timeout)
            total += seconds
            print(f"  done in {seconds:7.1f} s", flush=True)
            if changes.exists():
                for line in changes.read_text(encoding="utf-8").splitlines():
                    print(f"  CHANGED {line}", flush=True)
                changes.unlink()
    print(f"{len(paths)} notebook(s) in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
