"""Execute notebooks in place: `python tools/run_notebooks.py notebooks/x.ipynb ...`.

A thin alias of `puzzlelab reproduce --only x ...` (`puzzlelab.runner` does the work: a progress
line per cell, cells tagged `nbval-ignore-output` saved without outputs unless also tagged
`keep-output`, a summary of the tables each run changed); PUZZLELAB_RECOMPUTE=1 adds
`--recompute`. Kept for the commands that name notebook files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from puzzlelab import cache, cli
from puzzlelab.runner import IGNORE_TAG, KEEP_TAG, WIDGET_NOTE, clean

__all__ = ["IGNORE_TAG", "KEEP_TAG", "WIDGET_NOTE", "clean", "main"]


def main(argv: list[str] | None = None) -> int:
    """Run `puzzlelab reproduce` on the notebooks named as files (all of them when none)."""
    args = list(sys.argv[1:] if argv is None else argv)
    files = [a for a in args if a.endswith(".ipynb")]
    options = [a for a in args if a not in files]
    only = ["--only", *(Path(f).stem for f in files)] if files else []
    recompute = ["--recompute"] if cache.recompute_requested() else []
    return cli.main(["reproduce", *only, *recompute, *options])


if __name__ == "__main__":
    sys.exit(main())
