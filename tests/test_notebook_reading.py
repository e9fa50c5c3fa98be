"""What a reader sees in the committed notebooks: no scroll-walls, no broken images, no warnings
on opening, short code lines, and no words about how a notebook was made."""

from __future__ import annotations

import json
import re
from decimal import Decimal
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


# --- the conventions of "How notebooks are written" (README) ----------------------------------
PUZZLES = [p for p in NOTEBOOKS if p.stem != "index"]
KNOWN_TAGS = {"setup", "algorithm", "nbval-ignore-output", "keep-output"}
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$", re.M)
DIFFER = "Where we differ from the source"


def headings(path: Path) -> list[tuple[int, str]]:
    """(level, title) of every Markdown heading, in order."""
    return [(len(m.group(1)), m.group(2)) for c in cells(path) if c["cell_type"] == "markdown"
            for m in HEADING.finditer(source(c))]


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_what_we_found_is_a_section_heading(path):
    assert (2, "What we found") in headings(path), \
        f"{path.name}: no '## What we found' heading (bold text is not a heading)"


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_where_we_differ_is_the_last_section(path):
    found = headings(path)
    assert (2, DIFFER) in found, f"{path.name}: no '## {DIFFER}' heading; its headings: " + \
        ", ".join(t for level, t in found if level <= 2 and "differ" in t.lower())
    last_top = [t for level, t in found if level <= 2][-1]
    assert last_top == DIFFER, f"{path.name}: '{DIFFER}' must be the last section " \
        f"(after the appendices), but '{last_top}' comes after it"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_cell_tags_are_the_documented_ones(path):
    for i, cell in enumerate(cells(path)):
        tags = set(cell["metadata"].get("tags", []))
        assert tags <= KNOWN_TAGS, f"{path.name} cell {i}: unknown tags {tags - KNOWN_TAGS}"
        if "setup" in tags:
            assert cell["cell_type"] == "code" and not cell.get("outputs"), \
                f"{path.name} cell {i}: a set-up cell shows output (it is left out of the site)"
        if "algorithm" in tags:
            assert re.search(r"^def ", source(cell), re.M), \
                f"{path.name} cell {i}: an algorithm cell defines no function"


# --- citations ----------------------------------------------------------------------------------
def test_the_bibliography_file_is_generated_from_the_registry():
    from puzzlelab import sources

    committed = (ROOT / "notebooks" / sources.BIBLIOGRAPHY).read_text(encoding="utf-8")
    assert committed == sources.bibliography_markdown(), \
        "notebooks/references.md is stale: puzzlelab references > notebooks/references.md"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_citation_links_point_at_known_references(path):
    from puzzlelab import sources

    for i, cell in enumerate(cells(path)):
        for key in re.findall(r"\]\(references\.md#([\w-]+)\)", source(cell)):
            assert key in sources.REFERENCES, f"{path.name} cell {i}: unknown reference {key!r}"


# --- the front page agrees with the notebooks ----------------------------------------------------
NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?![\w])")


def number_key(text: str) -> str:
    """A number as compared: no sign, no thousands separators, no trailing zeros."""
    return format(Decimal(text.lstrip("-−").replace(",", "")).normalize(), "f")


def visible_texts(cell: dict) -> list[str]:
    """What a reader sees of a cell: Markdown prose (no link targets) or the outputs' text."""
    if cell["cell_type"] == "markdown":
        return [re.sub(r"\]\([^)]*\)", "]", source(cell))]
    found = []
    for out in cell.get("outputs", []):
        found.append("".join(out.get("text", [])))
        data = out.get("data", {})
        for kind in ("text/plain", "text/markdown", "text/html"):
            if kind in data:
                text = "".join(data[kind])
                found.append(re.sub(r"<[^>]+>", " ", text) if kind == "text/html" else text)
    return found


def numbers(texts: list[str]) -> set[str]:
    return {number_key(m.group(0)) for text in texts for m in NUMBER.finditer(text)}


def index_sections() -> list[tuple[str, str | None, list[str]]]:
    """The front page's sections: (heading, the notebook it links to, what the reader sees)."""
    sections: list[tuple[str, str | None, list[str]]] = []
    for cell in cells(ROOT / "notebooks" / "index.ipynb"):
        text = source(cell) if cell["cell_type"] == "markdown" else ""
        head = re.search(r"^## (.*)$", text, re.M)
        if head or not sections:
            sections.append((head.group(1) if head else "(opening)", None, []))
        title, target, seen = sections[-1]
        links = re.findall(r"\]\(([\w-]+)\.ipynb\)", text)
        if target is None and len(set(links)) == 1:
            target = links[0]
        sections[-1] = (title, target, seen + visible_texts(cell))
    return sections


def test_index_sections_each_summarise_one_notebook():
    targets = [target for title, target, _ in index_sections() if title.split(":")[0] not in
               {"(opening)", "Every figure"}]
    assert sorted(targets) == sorted(p.stem for p in PUZZLES), targets


@pytest.mark.parametrize("section", [s[0] for s in index_sections()])
def test_index_numbers_are_found_in_the_notebook_they_summarise(section):
    """Every number the front page shows (prose and outputs) is shown by its notebook too."""
    title, target, seen = next(s for s in index_sections() if s[0] == section)
    where = [ROOT / "notebooks" / f"{target}.ipynb"] if target else PUZZLES
    shown = numbers([t for path in where for cell in cells(path) for t in visible_texts(cell)])
    missing = sorted(numbers(seen) - shown, key=lambda n: (len(n), n))
    assert not missing, f"index section {title!r}: numbers not found in " \
        f"{target or 'any notebook'}: {missing}"
