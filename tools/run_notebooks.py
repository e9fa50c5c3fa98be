"""Execute notebooks top to bottom in place and save them with deterministic, stripped metadata.

Used by `make notebook NB=...` (with cached data; PUZZLELAB_RECOMPUTE=1 recomputes). The work
is `puzzlelab.runner` (what `puzzlelab reproduce`, behind `make reproduce`, runs for every
notebook): a progress line per cell while a notebook runs; cells tagged `nbval-ignore-output`
are saved without outputs unless also tagged `keep-output`. A cached table that a notebook's
recompute changes is reported here, after the notebook (rows before and after, the cells that
changed), not inside the notebook's outputs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from puzzlelab.runner import IGNORE_TAG, KEEP_TAG, WIDGET_NOTE, clean, duration, run_notebook

__all__ = ["IGNORE_TAG", "KEEP_TAG", "WIDGET_NOTE", "clean", "main"]


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
            seconds = run_notebook(path, args.timeout)
            total += seconds
            print(f"  done in {duration(seconds)}", flush=True)
            if changes.exists():
                for line in changes.read_text(encoding="utf-8").splitlines():
                    print(f"  CHANGED {line}", flush=True)
                changes.unlink()
    print(f"{len(paths)} notebook(s) in {duration(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
