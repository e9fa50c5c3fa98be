"""What a reader sees in the committed notebooks: no scroll-walls, no broken images, no warnings
on opening, short code lines, and no words about how a notebook was made."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
MAX_ROWS = 40
MAX_LINE = 100
HISTORY = re.compile(
    r"(?i)earlier version of this notebook|previous version of this notebook|\bthe issue\b|"
    r"as (?:the|this) issue|as requested|we were asked|this revision|in this rewrite")


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def html_outputs(cell: dict) -> list[str]:
    return ["".join(out.get("data", {}).get("text/html", []))
            for out in cell.get("outputs", []) if "data" in out]


def texts(cell: dict) -> list[str]:
    found = []
    for out in cell.get("outputs", []):
        found.append("".join(out.get("text", [])))
        found += ["".join(v) for k, v in out.get("data", {}).items() if k.startswith("text/")]
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_displayed_table_is_a_scroll_wall(path):
    for i, cell in enumerate(cells(path)):
        for html in html_outputs(cell):
            for table in re.findall(r"<table.*?</table>", html, flags=re.S):
                body = re.search(r"<tbody.*?</tbody>", table, flags=re.S)
                rows = (body.group(0) if body else table).count("<tr")
                assert rows <= MAX_ROWS, f"{path.name} cell {i}: a table of {rows} rows"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_images_resolve_inside_the_notebooks_folder(path):
    for cell in cells(path):
        if cell["cell_type"] != "markdown":
            continue
        for link in re.findall(r"!\[[^\]]*\]\(([^)\s]+)", source(cell)):
            if link.startswith(("http:", "https:", "data:", "attachment:")):
                continue
            assert not link.startswith("../"), f"{path.name}: {link} leaves notebooks/"
            assert (path.parent / link).exists(), f"{path.name}: {link} does not exist"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_saved_output_is_an_error_or_a_warning_message(path):
    for i, cell in enumerate(cells(path)):
        assert not any(o.get("output_type") == "error" for o in cell.get("outputs", [])), \
            f"{path.name} cell {i} shows an error"
        for text in texts(cell):
            assert "⚠" not in text, f"{path.name} cell {i} opens on a message: {text[:120]!r}"
            assert "Traceback" not in text, f"{path.name} cell {i} shows a traceback"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_lines_are_at_most_100_characters(path):
    for i, cell in enumerate(cells(path)):
        if cell["cell_type"] == "code":
            for line in source(cell).splitlines():
                assert len(line) <= MAX_LINE, f"{path.name} cell {i}: {len(line)} chars: {line[:60]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_speaks_of_its_puzzle_only(path):
    for i, cell in enumerate(cells(path)):
        found = HISTORY.search(source(cell))
        assert not found, f"{path.name} cell {i}: {found.group(0)!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_opens_with_what_was_found(path):
    if path.stem == "index":
        return
    head = " ".join(source(c) for c in cells(path)[:3] if c["cell_type"] == "markdown")
    assert re.search(r"(?i)what we found", head), f"{path.name} does not open with its findings"
