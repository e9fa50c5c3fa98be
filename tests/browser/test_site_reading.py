"""The built site read as a reader reads it (the HTML itself; no browser needed, but the site must
be built, so these run with the browser tests): the story of each page within ten minutes,
code out of the way, where a page comes from and how to run it, and no defect that shows
raw machinery: `|` table text, TeX delimiters, truncation notes, citation keys, 0..n index
columns. Pages a later rewrite has not reached yet fail here by design."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import site_pages  # noqa: E402  (tools/site_pages.py)
import story_words  # noqa: E402  (tools/story_words.py)
from story_words import Node, article, parse_html  # noqa: E402

from puzzlelab import sources  # noqa: E402

NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
PUZZLES = [n for n in NOTEBOOKS if n != "index"]
INDEX_BYTES = 800_000  # the home page, widget state and gallery included
DOLLAR_OR_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$")
# a Markdown table row left as text: "| a | b |" (two padded cells) or a rule "|---|" ("|—|")
RAW_TABLE = re.compile(r"\|\s*:?[-—–]+:?\s*\||\|\s[^|\n]*\s\|\s[^|\n]*\s\|")
TRUNCATED = re.compile(r"\d[\d,]*\s+rows\s*×\s*\d[\d,]*\s+columns")


@pytest.fixture(scope="module")
def pages(site_html: Path) -> dict[str, Node]:
    return {p.stem: parse_html(p.read_text(encoding="utf-8")) for p in site_html.glob("*.html")}


def prose_text(node: Node) -> str:
    """Visible text outside code, math, tables and scripts (what TeX or `|` must not be in)."""
    if node.tag in {"script", "style", "pre", "code", "table", "template"}:
        return ""
    if node.classes & {"math", "highlight", "cell_input", "headerlink"}:
        return ""
    return "".join(c if isinstance(c, str) else " " + prose_text(c) + " " for c in node.children)


def heading_text(node: Node) -> str:
    """A heading's words, without the theme's permalink sign."""
    return "".join(c if isinstance(c, str) else ("" if "headerlink" in c.classes else
                                                 heading_text(c)) for c in node.children).strip()


def visible_text(node: Node) -> str:
    """All text a reader can see on the page (scripts and styles left out)."""
    if node.tag in {"script", "style", "template"}:
        return ""
    return "".join(c if isinstance(c, str) else " " + visible_text(c) + " " for c in node.children)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_story_takes_at_most_ten_minutes(pages, name):
    count = len(story_words.words(story_words.story_text_html(_html(pages, name))))
    assert count <= story_words.LIMIT, (
        f"{name}: the story (what the page shows unfolded down to Explore, an appendix or 'Where "
        f"we differ', table cells and shown code included) has {count:,} words, over "
        f"{story_words.LIMIT:,} by {count - story_words.LIMIT:,}")


def _html(pages, name: str) -> str:
    return (ROOT / "site" / "_build" / "html" / f"{name}.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_story_measure_on_the_notebook_agrees_with_the_page(pages, name):
    """tools/story_words.py on the .ipynb (no site build) is within 3% of the page's count."""
    page = len(story_words.words(story_words.story_text_html(_html(pages, name))))
    notebook = story_words.story_words(ROOT / "notebooks" / f"{name}.ipynb")
    assert abs(page - notebook) <= max(10, 0.03 * page), f"{name}: page {page}, notebook {notebook}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_raw_table_text_in_prose(pages, name):
    text = prose_text(article(pages[name]))
    found = [m.group(0)[:80] for m in RAW_TABLE.finditer(text)]
    assert not found, f"{name}: Markdown table text shown as prose: {found[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_defined_terms_are_elements_not_text(pages, name):
    """Each `<dfn>` of a notebook's Markdown (tests/test_found_terms.py) is a <dfn> element on
    its page, styled by the site's CSS, and no tag is shown as text."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    marked = sum("".join(c["source"]).count("<dfn>") for c in cells if c["cell_type"] == "markdown")
    shown = [n for n in article(pages[name]).iter() if n.tag == "dfn"]
    assert len(shown) == marked, f"{name}: {marked} <dfn> in the notebook, {len(shown)} on the page"
    assert all(n.text().strip() for n in shown), f"{name}: an empty <dfn> on the page"
    text = visible_text(article(pages[name]))
    assert "<dfn" not in text and "</dfn" not in text, f"{name}: a <dfn> tag shown as text"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_tex_delimiters_or_dollars_left_in_prose(pages, name):
    text = prose_text(article(pages[name]))
    found = [text[max(0, m.start() - 30):m.end() + 30].strip() for m in
             DOLLAR_OR_TEX.finditer(text)]
    assert not found, f"{name}: TeX delimiters or $ outside mathematics: {found[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_truncated_table_or_cell(pages, name):
    text = visible_text(article(pages[name]))
    notes = TRUNCATED.findall(text)
    cut = [c.text().strip()[-40:] for c in article(pages[name]).iter()
           if c.tag == "td" and c.text().strip().endswith("...")]  # pandas cuts with "..."
    assert not notes and not cut, f"{name}: truncated tables {notes[:3]}, cut cells {cut[:3]}"


@pytest.mark.parametrize("name", [*NOTEBOOKS, "notebooks", "references"])
def test_no_citation_key_is_visible(pages, name):
    text = visible_text(pages[name])
    keys = [k for k in sources.REFERENCES if re.search(rf"(?<![\w/#]){re.escape(k)}\b", text)]
    assert not keys and "citation key" not in text.lower(), \
        f"{name}: citation keys shown as text: {keys}"


def reference_entries(page: Node) -> dict[str, Node]:
    """The bibliography's entries on the References page: paragraphs carrying a key's anchor."""
    return {n.attrs["id"]: n for n in article(page).iter() if n.tag == "p" and n.attrs.get("id")}


def test_every_reference_entry_has_a_link_or_says_why_not(pages):
    """Each work of the References page links to where it can be read (a DOI, arXiv, the
    publisher's or author's page, a GitHub project), or says in its entry why it has no link
    (issue 38, item 6): no entry is silently left without one."""
    entries = reference_entries(pages["references"])
    assert len(entries) == len(sources.REFERENCES), sorted(entries)
    silent = [" ".join(p.text().split())[:50] for p in entries.values()
              if not any(a.tag == "a" and a.attrs.get("href", "").startswith("https://")
                         for a in p.iter()) and "No link: " not in p.text()]
    assert not silent, f"{len(silent)} of {len(entries)} references neither link nor say why: {silent}"
    said = {k for k, p in entries.items() if "No link: " in p.text()}  # anchors: _ becomes -
    assert said == {r.key.replace("_", "-") for r in sources.REFERENCES.values() if r.offline}


def index_columns(page: Node) -> list[str]:
    """The output tables whose row labels are just 0, 1, ..., n-1."""
    found = []
    for output in (n for n in page.iter() if "cell_output" in n.classes):
        for table in (n for n in output.iter() if n.tag == "table"):
            body = table.find("tbody")
            if body is None:
                continue
            rows = [r for r in body.children if isinstance(r, Node) and r.tag == "tr"]
            heads = [next((c for c in r.children if isinstance(c, Node)), None) for r in rows]
            labels = [h.text().strip() for h in heads if h is not None and h.tag == "th"]
            if len(rows) >= 2 and labels == [str(i) for i in range(len(rows))]:
                found.append(" ".join(table.find("thead").text().split())[:60]
                             if table.find("thead") else "(no header)")
    return found


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_table_shows_a_row_number_index(pages, name):
    found = index_columns(article(pages[name]))
    assert not found, (f"{name}: {len(found)} tables show a 0..n index column "
                       f"(use puzzlelab.display.table), e.g. {found[:3]}")


@pytest.mark.parametrize("name", PUZZLES)
def test_page_says_where_it_comes_from_and_how_to_run_it(pages, name, site_html):
    head = next((n for n in pages[name].iter() if site_pages.HEAD_CLASS in n.classes), None)
    assert head is not None, f"{name}: no page head"
    ref = sources.source_of_notebook(name)
    text = " ".join(head.text().replace("’", "'").split())
    assert ref.title in text and ref.authors in text and ref.year in text, text
    links = [a.attrs.get("href", "") for a in head.iter() if a.tag == "a"]
    if ref.url:
        assert ref.url in links, f"{name}: the source's link is missing"
    downloads = [h for h in links if h.endswith(f"{name}.ipynb")]
    assert downloads and (site_html / downloads[0]).is_file(), f"{name}: no notebook download"
    assert json.loads((site_html / downloads[0]).read_text())["cells"], "an empty download"
    downloaded = json.loads((site_html / downloads[0]).read_text())
    assert "widgets" not in downloaded.get("metadata", {}), "the download carries widget state"
    for command in site_pages.RUN_COMMANDS:
        assert command.format(name=name).split(" ", 1)[-1] in text, f"{name}: no {command!r}"


@pytest.mark.parametrize("name", PUZZLES)
def test_what_we_found_is_a_heading_on_the_page(pages, name):
    found = [heading_text(h) for h in article(pages[name]).iter() if h.tag == "h2"]
    assert "What we found" in found, f"{name}: no 'What we found' section heading"


def test_sidebar_follows_the_home_page(pages):
    nav = next(n for n in pages["index"].iter() if n.tag == "nav" and
               "bd-docs-nav" in n.classes)
    order = [a.attrs["href"].removesuffix(".html") for a in nav.iter()
             if a.tag == "a" and a.attrs.get("href", "").endswith(".html")]
    index = json.loads((ROOT / "notebooks" / "index.ipynb").read_text())
    prose = "".join("".join(c["source"]) for c in index["cells"] if c["cell_type"] == "markdown")
    linked = list(dict.fromkeys(re.findall(r"\]\(([\w-]+)\.ipynb\)", prose)))
    assert [n for n in order if n in PUZZLES] == linked, (order, linked)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_code_is_folded_except_algorithms_and_setup_is_gone(pages, name):
    shown, setup = [], []
    for cell in (n for n in article(pages[name]).iter() if "cell" in n.classes and
                 n.tag == "div"):
        source = cell.find("div", "cell_input")
        if source is None:
            continue
        code = source.text()
        if site_pages.is_setup({"cell_type": "code", "source": code, "outputs": [],
                                "metadata": {}}):
            setup.append(code.strip().splitlines()[0][:50])
        folded = any(d.tag == "details" and "hide" in d.classes for d in cell.iter())
        if not folded and "tag_algorithm" not in cell.classes:
            shown.append(code.strip().splitlines()[0][:50])
    assert not shown, f"{name}: code shown unfolded outside algorithm cells: {shown[:3]}"
    assert not setup, f"{name}: set-up cells on the page: {setup[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_widget_left_is_a_static_explorer(name, site_html):
    """A live widget is replaced by its opening view and the label; static explorers stay."""
    nb = json.loads((ROOT / "site" / "_build" / "src" / f"{name}.ipynb").read_text())
    state = nb.get("metadata", {}).get("widgets", {}).get(site_pages.STATE_MIME, {})
    explorers = site_pages.explorer_controls(state.get("state", {}))
    live = []
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(site_pages.VIEW_MIME)
            if view and not explorers & set(site_pages.reachable_models(state["state"],
                                                                  [view["model_id"]])):
                live.append(cell["source"][:60])
    assert not live, f"{name}: live widgets on the static page: {live}"


def test_no_empty_index_page_and_a_light_home_page(site_html):
    assert not (site_html / "genindex.html").exists()
    size = (site_html / "index.html").stat().st_size
    assert size <= INDEX_BYTES, f"index.html is {size:,} bytes (at most {INDEX_BYTES:,})"


def test_bibliography_lists_every_reference_with_its_link(pages):
    page = pages[Path(sources.BIBLIOGRAPHY).stem]
    ids = {n.attrs.get("id") for n in page.iter()}
    hrefs = {n.attrs.get("href") for n in page.iter() if n.tag == "a"}
    for ref in sources.REFERENCES.values():
        assert ref.key.replace("_", "-") in ids, f"no anchor for {ref.short}"
        assert ref.url is None or ref.url in hrefs, f"no link for {ref.short}"
        assert ref.code is None or ref.code in hrefs, f"no link to the code of {ref.short}"


RAW_NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")  # a column named like code: win_ci


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_table_columns_have_readable_names(pages, name):
    raw = sorted({" ".join(th.text().split()) for th in article(pages[name]).iter()
                  if th.tag == "th" and th.find("thead") is None and
                  RAW_NAME.match(" ".join(th.text().split()))})
    assert not raw, f"{name}: column names written as code (name them in words): {raw[:8]}"


# --- what the reader sees in outputs: no Python or TeX machinery, nothing hidden or repeated ---
def rendered_text(node: Node) -> str:
    """Visible text outside code, mathematics and scripts, tables and outputs included (a fold's
    label quotes its code, so it counts as code)."""
    if node.tag in {"script", "style", "pre", "code", "template"}:
        return ""
    if node.classes & {"math", "highlight", "cell_input", "headerlink", "collapsed", "expanded"}:
        return ""
    return "".join(c if isinstance(c, str) else " " + rendered_text(c) + " " for c in node.children)


def widget_views(name: str) -> list[Node]:
    """The HTML of the views a page's static explorers switch between (drawn from widget state)."""
    nb = json.loads((ROOT / "site" / "_build" / "src" / f"{name}.ipynb").read_text())
    state = nb.get("metadata", {}).get("widgets", {}).get(site_pages.STATE_MIME, {})
    fragments = []
    for entry in state.get("state", {}).values():
        if entry.get("model_name") == "OutputModel":
            fragments += ["".join(o.get("data", {}).get("text/html", "")) or
                          "".join(o.get("text", "")) for o in entry["state"].get("outputs", [])]
        elif entry.get("model_name") == "HTMLModel":
            fragments.append(entry["state"].get("value", ""))
    return [parse_html(f"<div class='cell_output'>{f}</div>") for f in fragments if f]


def _view_keys(state: dict, root: str) -> list[str]:
    """What one explorer view shows: a key per output of the Output widgets under `root`."""
    keys = []
    for model in site_pages.reachable_models(state, [root]):
        entry = state[model]
        if entry.get("model_name") == "OutputModel":
            keys += [k for k in map(site_pages._output_key, entry["state"].get("outputs", []))
                     if k is not None]
        elif entry.get("model_name") in {"HTMLModel", "ImageModel"} and entry["state"].get("value"):
            keys.append(str(entry["state"]["value"]))
    return keys


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_explorer_shows_a_view_twice(name):
    """Issue 38: no static explorer view shows the same picture or table twice, and no two
    views of one explorer are the same (the widget state the page is drawn from)."""
    nb = json.loads((ROOT / "site" / "_build" / "src" / f"{name}.ipynb").read_text())
    state = nb.get("metadata", {}).get("widgets", {}).get(site_pages.STATE_MIME, {}).get("state", {})
    twice, same = [], []
    for model, entry in state.items():
        if entry.get("model_name") != "StackModel":
            continue
        views = [tuple(_view_keys(state, child))
                 for child in site_pages.model_refs(entry["state"].get("children", []))]
        twice += [model for view in views if len(set(view)) < len(view)]
        same += [model] if len(set(views)) < len(views) else []
    assert not twice and not same, (f"{name}: explorer views showing one thing twice {twice[:3]}, "
                                    f"explorers with two identical views {same[:3]}")


def output_cells(page: Node, views: list[Node]) -> list[Node]:
    """The table cells of the page's outputs and of its explorers' views."""
    return [c for root in [page, *views] for n in root.iter() if "cell_output" in n.classes
            for c in n.iter() if c.tag in {"td", "th"}]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_tables_show_no_python_booleans_or_calculator_numbers(pages, name):
    cells = [" ".join(c.text().split()) for c in output_cells(article(pages[name]),
                                                              widget_views(name))]
    booleans = [t for t in cells if t in {"True", "False"}]
    calculator = [t for t in cells if re.search(r"\d[eE] ?[+-] ?\d", t)]
    assert not booleans and not calculator, \
        f"{name}: Python booleans {booleans[:3]}, numbers like 6.01E+8 {calculator[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_table_head_has_an_empty_header_cell(pages, name):
    empty = [t for root in [article(pages[name]), *widget_views(name)] for t in root.iter()
             if t.tag == "th" and not t.text().strip()]
    assert not empty, f"{name}: {len(empty)} empty header cells"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_tex_notation_outside_mathematics(pages, name):
    texts = [rendered_text(article(pages[name]))] + [rendered_text(v) for v in widget_views(name)]
    found = [text[max(0, m.start() - 30):m.end() + 30].strip() for text in texts for m in
             re.finditer(r"_\{|\^\{|\$|⌈log_|\d[eE] ?\+ ?\d", text)]
    assert not found, f"{name}: TeX or calculator notation shown as text: {found[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_nothing_hidden_behind_and_1_more(pages, name):
    texts = [visible_text(article(pages[name]))] + [visible_text(v) for v in widget_views(name)]
    found = [f for t in texts for f in re.findall(r".{0,40}\band 1 more\b", " ".join(t.split()))]
    assert not found, f"{name}: a single item hidden behind 'and 1 more': {found[:3]}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_fold_bars_say_what_they_open_and_are_never_empty(pages, name):
    bars = [d for d in article(pages[name]).iter() if d.tag == "details" and "hide" in d.classes]
    unnamed, empty = [], []
    for bar in bars:
        summary = bar.find("summary")
        words = " ".join(summary.text().split()) if summary else ""
        if summary is None or "Toggle hidden content" in summary.attrs.get("aria-label", "") \
                or not re.search(r"Show code: \S", words):
            unnamed.append(words[:60])
    for cell in (n for n in article(pages[name]).iter() if n.tag == "div" and "cell" in n.classes):
        outputs = cell.find("div", "cell_output")
        if any(d.tag == "details" for d in cell.iter()) and (
                outputs is None or not any(isinstance(c, Node) for c in outputs.children)):
            empty.append((cell.find("div", "cell_input") or cell).text().strip()[:60])
    assert not unnamed and not empty, f"{name}: unnamed folds {unnamed[:3]}, empty {empty[:3]}"


@pytest.mark.parametrize("name", PUZZLES)
def test_every_figure_has_alt_text_and_opens_full_size(pages, name, site_html):
    """Each picture of an output says what it shows (its figure's titles or its explorer's
    docstring, not a file path or the section fallback) and links to its image file."""
    problems = []
    for output in (n for n in article(pages[name]).iter() if "cell_output" in n.classes):
        links = {id(i): a for a in output.iter() if a.tag == "a" for i in a.iter()
                 if i.tag == "img"}
        for img in (n for n in output.iter() if n.tag == "img"):
            src, alt = img.attrs.get("src", ""), img.attrs.get("alt", "")
            if not alt.startswith("Figure: ") or re.search(r"\.(png|svg|jpe?g)\b|_images/", alt):
                problems.append(f"{src[:40]}: alt text {alt[:50]!r}")
            link = links.get(id(img))
            if link is None or link.attrs.get("href") != src or not (site_html / src).is_file():
                problems.append(f"{src[:40]}: not a link to its image file")
    assert not problems, f"{name}: {problems[:4]}"


def test_run_page_says_how_to_get_from_the_archive_to_jupyterlab(pages, site_html):
    page = pages[site_pages.RUN_PAGE]
    text = " ".join(visible_text(article(page)).split())
    archives = [a.attrs["href"] for a in article(page).iter()
                if a.tag == "a" and a.attrs.get("href", "").endswith(".tar.gz")]
    assert archives and (site_html / archives[0]).is_file(), "no project archive to download"
    steps = [n for n in article(page).iter() if n.tag == "ol"]
    assert steps and len([li for li in steps[0].children if isinstance(li, Node)]) == 3
    assert "make lab" in text and "tar xzf" in text


@pytest.mark.parametrize("name", PUZZLES)
def test_page_offers_the_notebook_and_the_project(pages, name, site_html):
    head = next(n for n in pages[name].iter() if site_pages.HEAD_CLASS in n.classes)
    links = [a.attrs.get("href", "") for a in head.iter() if a.tag == "a"]
    archive = [h for h in links if h.endswith(".tar.gz")]
    assert archive and (site_html / archive[0]).is_file(), f"{name}: no project download"
    notebook = json.loads((site_html / next(h for h in links if h.endswith(".ipynb"))).read_text())
    first = "".join(notebook["cells"][0]["source"])
    assert "find_spec(\"puzzlelab\")" in first and archive[0].rsplit("/", 1)[-1] in first
