"""How a notebook becomes a page (tools/site_pages.py), the reader's tables (puzzlelab.display),
the bibliography (puzzlelab.sources) and the story measure (tools/story_words.py), without
building the site."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import site_api  # noqa: E402
import site_pages  # noqa: E402
import story_words  # noqa: E402

from puzzlelab import checks, display, sources  # noqa: E402


def code(source: str, outputs=(), tags=()) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": list(tags)} if tags else {})
    cell.outputs = [nbformat.from_dict(o) for o in outputs]
    return cell


SHOWN = {"output_type": "display_data", "data": {"text/plain": "1"}, "metadata": {}}


# --- set-up, algorithm and folded cells ----------------------------------------------------------
@pytest.mark.parametrize("source", [
    "import pandas as pd\nfrom math import comb",
    "import pandas as pd\n\npd.set_option('display.max_colwidth', None)",
    "from pathlib import Path\nFIGURES = Path('../figures')\nSMALL, MEDIUM = range(2, 7), range(2, 9)",
    "%matplotlib inline\nimport numpy as np",
])
def test_imports_options_and_constants_are_set_up(source):
    assert site_pages.is_setup(code(source))


@pytest.mark.parametrize("source", [
    "def f(x):\n    return x",
    "import pandas as pd\ntable = pd.read_csv('x.csv')",
    "import math\nassert math.pi > 3",
    "x = 1\nx",
    "",
])
def test_a_cell_that_computes_is_not_set_up(source):
    assert not site_pages.is_setup(code(source))


def test_set_up_is_the_tag_or_a_silent_cell():
    assert site_pages.is_setup(code("x = compute()", tags=["setup"]))
    assert not site_pages.is_setup(code("import math", outputs=[SHOWN]))
    assert not site_pages.is_setup(nbformat.v4.new_markdown_cell("import math"))


def test_fold_code_keeps_algorithms_open_and_drops_set_up():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# T"), code("import math"),
        code("def rule(x):\n    return x", tags=["algorithm"]), code("rule(2)", [SHOWN])])
    folded = site_pages.fold_code(nb)
    assert [c.cell_type for c in folded.cells] == ["markdown", "code", "code"]
    assert "hide-input" not in folded.cells[1].metadata["tags"]
    assert folded.cells[2].metadata["tags"] == ["hide-input"]


def test_merge_outputs_lays_executed_outputs_on_the_current_prose():
    current = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("new prose"),
                                              code("1 + 1", tags=["algorithm"])])
    executed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("old prose"),
                                               code("1 + 1", [SHOWN])])
    executed.metadata["widgets"] = {"x": 1}
    merged = site_pages.merge_outputs(current, executed)
    assert merged.cells[0].source == "new prose" and merged.cells[1].outputs == [SHOWN]
    assert merged.cells[1].metadata["tags"] == ["algorithm"]
    assert merged.metadata["widgets"] == {"x": 1} and current.cells[1].outputs == []
    with pytest.raises(ValueError, match="differ"):
        site_pages.merge_outputs(nbformat.v4.new_notebook(cells=[code("2 + 2")]), executed)


# --- live widgets become still pictures; static explorers stay ---------------------------------
def model(name: str, **state) -> dict:
    return {"model_name": name, "model_module": "@jupyter-widgets/controls",
            "model_module_version": "2.0.0", "state": state}


def view(model_id: str) -> dict:
    return {"output_type": "display_data", "metadata": {}, "data": {
        site_pages.VIEW_MIME: {"model_id": model_id, "version_major": 2, "version_minor": 0},
        "text/plain": "widget"}}


def widget_notebook() -> nbformat.NotebookNode:
    opening = {"output_type": "display_data", "metadata": {},
               "data": {"text/html": "<table>opening view</table>", "text/plain": "view"}}
    state = {
        # a live interact: a slider and an Output holding the opening view
        "live": model("VBoxModel", children=["IPY_MODEL_slider", "IPY_MODEL_out"]),
        "slider": model("IntSliderModel", value=3, layout="IPY_MODEL_layout"),
        "out": model("OutputModel", outputs=[opening]),
        "layout": model("LayoutModel"),
        # a static explorer: a dropdown linked to a stack of views
        "explorer": model("VBoxModel", children=["IPY_MODEL_dropdown", "IPY_MODEL_stack"]),
        "dropdown": model("DropdownModel", index=0),
        "stack": model("StackModel", children=["IPY_MODEL_page"], selected_index=0),
        "page": model("HTMLModel", value="<p>a view</p>"),
        "link": model("LinkModel", source=["IPY_MODEL_dropdown", "index"],
                      target=["IPY_MODEL_stack", "selected_index"]),
    }
    nb = nbformat.v4.new_notebook(cells=[code("interact(f)", [view("live")]),
                                         code("static_explorer(v)", [view("explorer")])])
    nb.metadata["widgets"] = {site_pages.STATE_MIME: {"state": state, "version_major": 2,
                                                      "version_minor": 0}}
    return nb


def test_a_live_widget_becomes_its_opening_view_under_the_label():
    nb = site_pages.still_views(widget_notebook(), "hats")
    live, explorer = nb.cells[0].outputs, nb.cells[1].outputs
    assert site_pages.LIVE_CLASS in live[0].data["text/html"]
    assert "make lab" in live[0].data["text/html"] and "notebooks/hats.ipynb" in \
        live[0].data["text/html"]
    assert live[1].data["text/html"] == "<table>opening view</table>"
    assert not any(site_pages.VIEW_MIME in o.get("data", {}) for o in live)
    assert explorer[0].data[site_pages.VIEW_MIME]["model_id"] == "explorer"
    kept = nb.metadata["widgets"][site_pages.STATE_MIME]["state"]
    assert set(kept) == {"explorer", "dropdown", "stack", "page", "link"}


def test_page_head_names_the_source_and_the_download():
    head = site_pages.page_head("hanabi", "_notebooks/hanabi.ipynb")
    ref = sources.source_of_notebook("hanabi")
    assert ref.title in head and ref.url in head and "_notebooks/hanabi.ipynb" in head
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title\n\nFirst.")])
    nb = site_pages.add_page_head(nb, "hanabi", "_notebooks/hanabi.ipynb")
    assert [c.source.split("\n")[0] for c in nb.cells] == ["# Title", head.split("\n")[0],
                                                           "First."]


def test_page_head_links_to_the_api_page():
    head = site_pages.page_head("hanabi", "_notebooks/hanabi.ipynb", api="api-hanabi.md")
    assert "](api-hanabi.md)" in head and "puzzlelab.hanabi" in head
    assert "api-" not in site_pages.page_head("hanabi", "_notebooks/hanabi.ipynb")


def test_api_pages_document_the_modules_of_each_puzzle_but_no_kernels():
    assert "puzzlelab.hanabi.info_compiled" in site_api.modules("hanabi")
    assert "puzzlelab.hanabi.kernels" not in site_api.modules("hanabi")
    assert {"puzzlelab.cache", "puzzlelab.checks", "puzzlelab.sweeps"} <= set(
        site_api.modules(site_api.SHARED))
    page = site_api.api_page("hanabi")
    assert ".. automodule:: puzzlelab.hanabi.info_compiled" in page and ":members:" in page
    assert all(f"({site_api.page_name(n)}.md)" in site_api.index_page()
               for n in [*site_api.PUZZLES, site_api.SHARED])


def test_markdown_docstrings_are_read_as_restructured_text():
    lines = site_api.markdown_docstring([
        "A product of `binomial`s, |W| <= |L|, f(*args) and *emphasis*; see :func:`solve`.",
        "Keywords:", "* `VARIABLES` first;", "* then `bench_*`.", "After.", "",
        "| a | b |", "|---|---|", "", ">>> x = `a` | 1", "",
        "Run `python -m", "puzzlelab.x` here."])
    assert lines[0] == (r"A product of ``binomial``\ s, \|W\| <= \|L\|, f(\*args) and "
                        r"*emphasis*; see :func:`solve`.")
    assert lines[1:8] == ["Keywords:", "", "* ``VARIABLES`` first;", "* then ``bench_*``.", "",
                          "After.", ""]
    table = lines.index("    | a | b |")
    assert lines[table - 2:table + 2] == ["::", "", "    | a | b |", "    |---|---|"]
    assert ">>> x = `a` | 1" in lines
    assert "``python -m puzzlelab.x`` here." in lines


# --- tables for the reader -------------------------------------------------------------------------
def test_table_hides_a_row_number_index_and_renames_columns():
    shown = display.table(pd.DataFrame({"win_share": [0.5, 0.25], "n": [1, 2]}),
                          {"win_share": "share of wins"})
    html = shown._repr_html_()
    assert "share of wins" in html and "win_share" not in html
    assert "row0" in html and 'class="row_heading' not in html  # no index column
    assert repr(shown).split("\n")[0].split() == ["share", "of", "wins", "n"]
    assert html == display.table(pd.DataFrame({"win_share": [0.5, 0.25], "n": [1, 2]}),
                                 {"win_share": "share of wins"})._repr_html_()


def test_table_keeps_a_meaningful_index():
    frame = pd.DataFrame({"player": ["Anne", "Bill"], "cards": [3, 3]})
    shown = display.table(frame, {"player": "who"}, index="player")
    assert shown.frame.index.name == "who" and 'class="row_heading' in shown._repr_html_()
    assert not display.meaningless_index(pd.DataFrame({"x": [1]}, index=[5]))
    assert display.meaningless_index(pd.DataFrame({"x": [1, 2]}))


def test_table_refuses_bad_input():
    with pytest.raises(checks.ArgumentTypeError):
        display.table([1, 2])
    with pytest.raises(ValueError, match="does not have"):
        display.table(pd.DataFrame({"a": [1]}), {"b": "B"})
    with pytest.raises(ValueError, match="not a column"):
        display.table(pd.DataFrame({"a": [1]}), index="b")


# --- the bibliography -------------------------------------------------------------------------------
def test_every_notebook_has_its_source_document():
    puzzles = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")} - {"index"}
    assert set(sources.NOTEBOOK_SOURCES) == puzzles
    assert set(sources.NOTEBOOK_SOURCES.values()) == set(sources.SOURCE_DOCUMENTS)
    with pytest.raises(ValueError, match="no source document"):
        sources.source_of_notebook("chess")


def test_citation_links_read_as_author_and_year():
    assert sources.cite_link("janssen2017") == "[Janssen (2017)](references.md#janssen2017)"
    for site in (False, True):
        text = sources.bibliography_markdown(site=site)
        for ref in sources.REFERENCES.values():
            assert ref.short in text and ref.title in text
            assert (f"({ref.key})=" if site else f'<a id="{ref.key}">') in text
        lines = [line for line in text.splitlines() if not line.startswith(("(", "<a id"))]
        assert not any(key in line for key in sources.REFERENCES for line in lines)


# --- the story measure --------------------------------------------------------------------------------
def test_story_counts_what_the_page_shows_up_to_explore_appendices_and_where_we_differ():
    """Issue 38: prose, table cells, shown code and outputs count; folded code, the page head,
    and everything from the first Explore, Appendix or "Where we differ" h2 on do not."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title\n\n## What we found\n\nOne two three."),
        nbformat.v4.new_code_cell("x = compute()  # folded", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="shown 7\n")]),
        nbformat.v4.new_code_cell("def f(): return 1", metadata={"tags": ["algorithm"]}),
        nbformat.v4.new_markdown_cell("| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                                      "Four, and $\\lfloor c \\rfloor$ < a."),
        nbformat.v4.new_markdown_cell("## Explore\n\nhidden"),
        nbformat.v4.new_markdown_cell("## Appendix\n\nhidden words\n\n### A.1 More\n\nhidden"),
        nbformat.v4.new_markdown_cell("## Where we differ from the source\n\nhidden"),
    ])
    text = story_words.story_text_notebook(nb)
    assert story_words.words(text) == ["Title", "What", "we", "found", "One", "two", "three",
                                       "shown", "7", "def", "f", "return", "1", "a", "b", "1",
                                       "2", "Four", "and", "c", "a"]
    html = """<html><body><article class="bd-article"><section id="t"><h1>Title</h1>
      <div class="puzzlelab-about"><p>Source: not story</p></div>
      <section id="w"><h2>What we found<a class="headerlink">#</a></h2><p>One two three.</p>
      <div class="cell"><details class="hide above-input"><summary>Show code</summary>
        <div class="cell_input"><pre>x = compute()</pre></div></details>
        <div class="cell_output"><pre>shown 7</pre></div></div>
      <div class="cell"><div class="cell_input"><pre>def f(): return 1</pre></div></div>
      <table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
      <p>Four, and <span class="math">\\(\\lfloor c \\rfloor\\)</span> &lt; a.</p></section>
      <section id="x"><h2>Explore</h2><p>hidden</p></section>
      <section id="appendix"><h2>Appendix</h2><p>hidden words</p></section>
      <section id="e"><h2>E. Where we differ from the source</h2><p>hidden</p></section>
    </section></article></body></html>"""
    assert story_words.words(story_words.story_text_html(html)) == story_words.words(text)


def test_story_stops_at_the_first_off_story_heading_and_skips_hidden_parts():
    html = """<article class="bd-article"><p>seen</p><details><summary>fold</summary>x</details>
      <div hidden>gone</div><div style="display: none">gone</div><h2>Appendix</h2>
      <h2>Later main line</h2><p>after</p></article>"""
    assert story_words.words(story_words.story_text_html(html)) == ["seen"]
    assert story_words.off_story_heading("B. Explore¶") and not story_words.off_story_heading(
        "Exploring the grid")


# --- the built pages mended for every reader (tools/site_html.py) --------------------------------
import site_html  # noqa: E402


def test_tables_lose_empty_header_cells_booleans_and_calculator_numbers():
    html = ("<table><thead><tr><th></th><th>ok</th><th>n</th></tr></thead><tbody><tr>"
            "<th>a</th><td>True</td><td>6.0108039E+8</td></tr><tr><th>b</th><td>False</td>"
            "<td>1.5e-3</td></tr></tbody></table>")
    mended = site_html.mend_fragment(html)
    assert "<th></th>" not in mended and "<td></td>" in mended
    assert ">yes<" in mended and ">no<" in mended and "True" not in mended
    assert "601,080,390" in mended and "1.5 × 10⁻³" in mended
    assert site_html.number_text("12") is None and site_html.number_text("E+8") is None


def test_fold_bars_say_what_they_open_and_empty_ones_go():
    page = ('<div class="cell"><details class="hide above-input"><summary aria-label="x">'
            '<p class="collapsed">Show code</p><p class="expanded">Hide code</p></summary>'
            '<div class="cell_input"><pre># the census of won sets\nx = census()</pre></div>'
            '</details><div class="cell_output"><p>42</p></div></div>'
            '<div class="cell" id="empty"><details class="hide above-input"><summary>'
            '<p class="collapsed">Show code</p></summary><div class="cell_input"><pre>y = 1'
            '</pre></div></details><div class="cell_output"></div></div>')
    mended = site_html.mend_page(page)
    assert "Show code: the census of won sets" in mended
    assert "Hide code: the census of won sets" in mended and "aria-label" not in mended
    assert 'id="empty"' not in mended
    assert site_html.fold_label("x = " + "a" * 100).endswith("…")


def test_figures_open_full_size_and_keep_or_get_an_alt_text():
    page = ('<h2>The win rate</h2><div class="cell_output"><img alt="Figure: wins" '
            'src="_images/a.png"/><img alt="_images/b.png" src="_images/b.png"/></div>')
    mended = site_html.mend_page(page)
    assert mended.count('class="puzzlelab-full-size"') == 2
    assert '<a class="puzzlelab-full-size" href="_images/a.png"' in mended
    assert 'alt="Figure: wins"' in mended and "Figure of the section “The win rate”" in mended


def test_figure_alt_reads_a_saved_figure_s_titles(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_title("Share of rounds won by deal", fontsize=12)
    ax.set_xlabel("players", fontsize=9)
    fig.savefig(tmp_path / "wins.svg", bbox_inches="tight")
    plt.close(fig)
    alt = site_pages.figure_alt(["wins"], tmp_path)
    assert alt.startswith("Figure: Share of rounds won by deal")
    assert site_pages.figure_alt(["missing"], tmp_path) is None
    picture = {"output_type": "display_data", "data": {"image/png": "AAAA"}, "metadata": {}}
    cell = code("plot()", outputs=[picture])
    cell.metadata[site_pages.META] = {"figures": ["wins"]}
    nb = nbformat.v4.new_notebook(cells=[cell])
    site_pages.add_alt_texts(nb, tmp_path)
    assert nb.cells[0].metadata["mystnb"]["image"]["alt"] == alt


def test_download_copy_starts_with_the_import_check():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title")])
    nb.metadata["widgets"] = {"state": {}}
    copied = site_pages.download_copy(nb, "hats", "puzzlelab-abc.tar.gz")
    assert 'find_spec("puzzlelab")' in copied.cells[0].source
    assert "puzzlelab-abc.tar.gz" in copied.cells[0].source and "widgets" not in copied.metadata
    assert len(nb.cells) == 1, "the committed notebook is not changed"


def test_a_live_view_the_page_shows_already_is_not_shown_twice():
    picture = {"output_type": "display_data", "data": {"image/png": "AAAA"}, "metadata": {}}
    state = {"live": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_out"]}},
             "out": {"model_name": "OutputModel", "state": {"outputs": [picture]}}}
    view = {"output_type": "display_data", "metadata": {},
            "data": {site_pages.VIEW_MIME: {"model_id": "live"}}}
    nb = nbformat.v4.new_notebook(cells=[code("show()", outputs=[picture]),
                                         code("interact()", outputs=[view])])
    nb.metadata["widgets"] = {site_pages.STATE_MIME: {"state": state}}
    live = site_pages.still_views(nb, "kemps").cells[1].outputs
    assert len(live) == 1 and "the view shown above" in live[0].data["text/html"]


# --- references a reader can follow ------------------------------------------------------------------
def test_references_link_their_works_dois_and_github_projects():
    import re

    md = sources.bibliography_markdown()
    for ref in sources.REFERENCES.values():
        for link in filter(None, [ref.url, ref.code]):
            assert link.startswith("https://") and f"]({link})" in md, (ref.key, link)
        if ref.url and ref.url.startswith(sources.DOI):
            assert re.fullmatch(r"https://doi\.org/10\.\d{4,9}/\S+", ref.url), ref.url
            assert f"[doi:{ref.url.removeprefix(sources.DOI)}]" in md
        assert not re.search(r"github", ref.venue + ref.title, re.I), \
            f"{ref.key}: a GitHub project named in plain text; give it as url or code"
    for project in ["rjtobin/HanSim", "Quuxplusone/Hanabi", "WuTheFWasThat/hanabi.rs"]:
        assert f"[GitHub {project}](https://github.com/{project})" in md, project


def test_figure_alt_joins_a_title_wrapped_over_two_lines(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_title("Each circle is a chain (its number and its\nincorrect round)", fontsize=12)
    ax.plot([0, 1], label="they cross at player 1")
    ax.plot([1, 0], label="they cross at player 2")
    ax.legend(fontsize=9)
    fig.savefig(tmp_path / "chains.svg", bbox_inches="tight")
    plt.close(fig)
    alt = site_pages.figure_alt(["chains"], tmp_path)
    assert "(its number and its incorrect round)" in alt
    assert "player 1; they cross at player 2" in alt


def test_an_inline_picture_becomes_an_image_file_that_opens_full_size(tmp_path):
    import base64

    png = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    page = f'<div class="cell_output"><img alt="a win rate" src="data:image/png;base64,{png}"/></div>'
    mended = site_html.mend_page(page, tmp_path / "_images")
    files = list((tmp_path / "_images").iterdir())
    assert len(files) == 1 and files[0].read_bytes() == b"\x89PNG\r\n\x1a\nfake"
    assert f'href="_images/{files[0].name}"' in mended and "data:" not in mended
    assert "data:" in site_html.mend_page(page) and "puzzlelab-full-size" not in \
        site_html.mend_page(page), "without a folder for it, an inline picture stays unlinked"


def test_a_picture_an_explore_function_draws_is_described_by_its_docstring():
    from puzzlelab.kemps import notebook as kemps_notebook

    picture = {"output_type": "display_data", "data": {"image/png": "AAAA"}, "metadata": {}}
    nb = nbformat.v4.new_notebook(cells=[
        code("from puzzlelab.kemps import notebook as nb"),
        code("nb.explore_knowledge(seed=3, deck_values=7, turn=6)", outputs=[picture]),
        code("interact_safely(nb.explore_knowledge, seed=W.IntText(3))", outputs=[picture]),
        code("nb.not_an_explorer()", outputs=[picture])])
    site_pages.add_alt_texts(nb)
    first = kemps_notebook.explore_knowledge.__doc__.split()[0]
    alts = [c.metadata.get("mystnb", {}).get("image", {}).get("alt") for c in nb.cells]
    assert alts[0] is None and alts[3] is None
    assert alts[1] == alts[2] and alts[1].startswith(f"Figure: {first}") and "`" not in alts[1]
