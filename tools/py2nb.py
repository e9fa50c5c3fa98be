"""Build a notebook from a percent-format script (`# %%` code cells, `# %% [markdown]` prose).

A drafting aid: `python tools/py2nb.py draft.py notebooks/name.ipynb`. Tags go on the
marker line as `# %% tags=["nbval-ignore-output"]`. Markdown cells are written as
comment lines (`# text`). The notebook, not the draft, is what the project keeps.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

MARKER = re.compile(r"^# %%(?P<md>\s*\[markdown\])?(?:\s+tags=(?P<tags>\[.*\]))?\s*$")


def convert(text: str) -> nbformat.NotebookNode:
    """Split `text` at cell markers into markdown and code cells."""
    cells, kind, tags, lines = [], None, [], []

    def flush() -> None:
        body = "\n".join(lines).strip("\n")
        if kind is None or not body:
            return
        if kind == "markdown":
            body = "\n".join(re.sub(r"^# ?", "", l) for l in body.splitlines())
            cells.append(new_markdown_cell(body))
        else:
            cell = new_code_cell(body)
            if tags:
                cell.metadata["tags"] = tags
            cells.append(cell)

    for line in text.splitlines():
        m = MARKER.match(line)
        if m:
            flush()
            kind = "markdown" if m["md"] else "code"
            tags = json.loads(m["tags"]) if m["tags"] else []
            lines = []
        else:
            lines.append(line)
    flush()
    nb = new_notebook(cells=cells)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    return nb


if __name__ == "__main__":
    src, dst = map(Path, sys.argv[1:3])
    nbformat.write(convert(src.read_text()), dst)
    print(f"wrote {dst}")
