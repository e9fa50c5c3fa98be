"""The static site in a real browser: every page loads cleanly from 127.0.0.1 alone, and every
static explorer switches to the precomputed view its control selects, with no kernel."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pagewatch import (VIEW_MIME, Explorer, PageWatch, broken_images, explorers, text_key,
                       wait_for_widgets, widget_state)

ROOT = Path(__file__).resolve().parents[2]
SITE_HTML = ROOT / "site" / "_build" / "html"
NOTEBOOK_PAGES = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
API_PAGES = ["api", *(f"api-{n}" for n in [*sorted(set(NOTEBOOK_PAGES) - {"index"}), "shared"])]
OTHER_PAGES = ["notebooks", "run", "references", "search", *API_PAGES]
SAMPLES = 3  # options tried per explorer besides the first (spread over its range)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no access log in the test output
        pass


@pytest.fixture(scope="module")
def site(site_html: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port); its base address."""
    handler = functools.partial(_Quiet, directory=str(site_html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_every_built_page_is_checked(site_html: Path):
    built = {p.relative_to(site_html).with_suffix("").as_posix() for p in site_html.glob("*.html")}
    assert built == set(NOTEBOOK_PAGES + OTHER_PAGES)


@contextlib.contextmanager
def opened(context, url: str) -> Iterator:
    """A page open at `url` (widgets and mathematics ready), closed afterwards."""
    page, _ = open_page(context, url)
    try:
        yield page
    finally:
        page.close()


def open_page(context, url: str):
    """Open `url` in a new tab, watched; wait for its widgets and its mathematics."""
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    wait_for_widgets(page)
    page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
    return page, watch


SLIDER = "SelectionSliderModel"
SHOWS = """([area, text, images]) => {
    const seen = area.innerText.replace(/\\s+/g, '');
    const srcs = Array.from(area.querySelectorAll('img')).map(i => i.src);
    return seen.includes(text.slice(0, 200)) && images.every(p => srcs.some(s => s.includes(p)));
}"""


def current_index(control, explorer: Explorer) -> int:
    """The option a control shows now (-1: none)."""
    if explorer.kind == SLIDER:
        label = control.get_attribute("aria-valuetext")
        return explorer.labels.index(label) if label in explorer.labels else -1
    return control.evaluate("c => c.selectedIndex")


def choose(page, control, explorer: Explorer, index: int) -> None:
    """Move the control to option `index`, as a reader would (a click or the arrow keys)."""
    if explorer.kind == SLIDER:
        control.focus()
        page.keyboard.press("Home")
        for _ in range(index):
            page.keyboard.press("ArrowRight")
    else:
        control.select_option(index=index)


def shown(page, subarea, explorer: Explorer, index: int | None,
          previous: tuple) -> str | None:
    """Select option `index` of the explorer's control (None: leave it as it opens); why the
    view shown is not the precomputed one, or None."""
    control = subarea.locator(".noUi-handle" if explorer.kind == SLIDER else "select")
    control = control.nth(explorer.nth)
    if index is None:
        index = current_index(control, explorer)
        if index < 0:
            return "the control opens with no option chosen"
    else:
        choose(page, control, explorer, index)
    text, images = explorer.views[index]
    try:
        page.wait_for_function(SHOWS, arg=[subarea.element_handle(), text, list(images)],
                               timeout=5_000)
    except Exception:  # noqa: BLE001 (a Playwright timeout: the view never appeared)
        return f"option {explorer.labels[index]!r} does not show its precomputed view"
    if (text, images) != previous:
        old_text, old_images = previous
        now = text_key(subarea.inner_text())
        srcs = subarea.locator("img").evaluate_all("imgs => imgs.map(i => i.src)")
        if old_images and old_images != images and any(p in s for p in old_images for s in srcs):
            return f"option {explorer.labels[index]!r} still shows the previous picture"
        if old_text and old_text not in text and old_text[:200] in now:
            return f"option {explorer.labels[index]!r} still shows the previous text"
    return None


def check_explorers(page) -> tuple[list[str], int]:
    """Move every static explorer on the page; the problems found and how many were moved."""
    state = widget_state(page)
    scripts = page.locator(f'script[type="{VIEW_MIME}"]')
    problems, moved = [], 0
    views = [scripts.nth(i) for i in range(scripts.count())]
    ids = [json.loads(v.text_content())["model_id"] for v in views]
    for explorer in explorers(state, ids):
        empty = [label for label, (text, images) in zip(explorer.labels, explorer.views)
                 if not text and not images]
        if empty or len(set(explorer.views)) < 2:
            problems.append(f"explorer {explorer.labels[:3]}...: empty views {empty[:5]}, "
                            f"{len(set(explorer.views))} distinct of {len(explorer.views)}")
        subarea = views[ids.index(explorer.view)].locator("xpath=preceding-sibling::*[1]")
        subarea.scroll_into_view_if_needed()
        n = len(explorer.labels)
        picks = sorted({round(k * (n - 1) / SAMPLES) for k in range(1, SAMPLES + 1)} - {0})
        previous = explorer.views[0]
        for index in [None, *picks, 0]:
            why = shown(page, subarea, explorer, index, previous)
            if why:
                problems.append(f"explorer {explorer.labels[:3]}...: {why}")
            previous = explorer.views[index or 0]
        moved += 1
    return problems, moved


# Known, open: the ipywidgets HTML manager typesets some widget labels with MathJax 2's
# MathJax.Hub.Queue, which the site's MathJax 3 does not have (a page error on this page).
PAGES = NOTEBOOK_PAGES + OTHER_PAGES


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_offline_and_its_explorers_work(browser_context, site: str, name: str):
    page, watch = open_page(browser_context, f"{site}{name}.html")
    try:
        problems = [f"broken image: {src}" for src in broken_images(page)]
        if "Error displaying widget" in page.inner_text("body"):
            problems.append("a widget shows 'Error displaying widget'")
        if page.locator("mjx-merror").count():
            problems.append("MathJax could not typeset a formula")
        problems += [f"link to a missing page: {href}" for href in broken_links(page, site)]
        found, moved = check_explorers(page)
        problems += found
        report = "\n".join(filter(None, [watch.report(), *problems]))
        assert not report, f"{name}.html:\n{report}"
        assert not watch.outside
    finally:
        page.close()


def broken_links(page, site: str) -> list[str]:
    """The links of the page into the site that point at no built file."""
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    missing = []
    for href in hrefs:
        if not href.startswith(site):
            continue
        path = href[len(site):].split("#")[0].split("?")[0]
        if path and not (SITE_HTML / path).exists():
            missing.append(href)
    return sorted(set(missing))


def saved_widgets(html: str) -> tuple[dict, list[str]]:
    """The widget state a built page carries and the model ids of the views it displays."""
    scripts = re.findall(r'<script type="([^"]+)">(.*?)</script>', html, re.S)
    state = {}
    for mime, body in scripts:
        if mime == "application/vnd.jupyter.widget-state+json":
            state.update(json.loads(body)["state"])
    views = [json.loads(body)["model_id"] for mime, body in scripts if mime == VIEW_MIME]
    return state, views


def test_every_notebook_page_has_a_static_explorer(site_html: Path):
    """Each notebook's page offers at least one control that works without a kernel."""
    missing = [name for name in NOTEBOOK_PAGES
               if not explorers(*saved_widgets((site_html / f"{name}.html").read_text()))]
    assert not missing, f"pages with no static explorer: {missing}"


# --- every control alive or labelled; code and appendices folded; figures fit the page ----------
CONTROLS_JS = """() => Array.from(document.querySelectorAll(
    'article.bd-article :is(input, select, textarea, button, .noUi-handle)'))
    .filter(e => e.offsetParent !== null)
    .map((e, i) => { e.dataset.plControl = i; return {
        i, tag: e.tagName.toLowerCase(), type: e.type || '',
        labelled: !!e.closest('.cell_output') &&
                  !!e.closest('.cell_output').querySelector('.puzzlelab-live-only')}; })"""
SNAPSHOT_JS = """() => { const a = document.querySelector('article.bd-article');
    return a.innerText + '|' + Array.from(a.querySelectorAll('img')).map(i => i.src.slice(-80))
        .join(',') + '|' + Array.from(a.querySelectorAll('*')).filter(e => e.offsetParent)
        .length; }"""


def move(page, control: dict) -> None:
    """Change one control as a reader would."""
    element = page.locator(f'[data-pl-control="{control["i"]}"]')
    element.scroll_into_view_if_needed()
    if control["tag"] == "select":
        count = element.evaluate("s => s.options.length")
        current = element.evaluate("s => s.selectedIndex")
        element.select_option(index=(current + 1) % max(count, 1))
    elif control["tag"] == "input" and control["type"] in {"checkbox", "radio"}:
        element.click()
    elif control["tag"] in {"input", "textarea"}:
        element.fill("7")
        element.press("Enter")
    elif "noUi-handle" in (element.get_attribute("class") or ""):
        element.focus()
        page.keyboard.press("End")
    else:
        element.click()


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_every_input_changes_the_page_or_is_labelled_live(browser_context, site: str, name):
    with opened(browser_context, f"{site}{name}.html") as page:
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        dead = []
        for control in page.evaluate(CONTROLS_JS):
            if control["labelled"]:
                continue
            before = page.evaluate(SNAPSHOT_JS)
            move(page, control)
            try:
                page.wait_for_function(f"b => ({SNAPSHOT_JS})() !== b", arg=before,
                                       timeout=3_000)
            except Exception:  # noqa: BLE001 (a Playwright timeout: nothing changed)
                dead.append(f"{control['tag']} {control['type']} #{control['i']}")
        assert not dead, f"{name}: controls that change nothing and carry no live label: {dead}"


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_code_and_appendices_are_folded(browser_context, site: str, name):
    with opened(browser_context, f"{site}{name}.html") as page:
        shown = page.evaluate("""() => Array.from(document.querySelectorAll('.cell_input'))
            .filter(e => e.checkVisibility() && !e.closest('.tag_algorithm'))
            .map(e => e.innerText.slice(0, 60))""")
        assert not shown, f"{name}: code shown outside algorithm cells: {shown[:3]}"
        marked = page.evaluate("""() => Array.from(document.querySelectorAll(
            '.tag_algorithm .cell_input')).map(e => getComputedStyle(e, '::before').content)""")
        assert all("algorithm" in m for m in marked), f"{name}: algorithm cells unmarked"
        heads = page.evaluate("""() => Array.from(document.querySelectorAll(
            'article section > :is(h1, h2, h3), details.puzzlelab-appendix > summary > *'))
            .map(h => h.textContent)""")
        appendices = [h for h in heads if h.strip().lower().startswith("appendix")]
        folds = page.locator("details.puzzlelab-appendix")
        assert folds.count() == len(appendices), f"{name}: {appendices} vs {folds.count()} folds"
        for k in range(folds.count()):
            fold = folds.nth(k)
            assert not fold.evaluate("d => d.open"), f"{name}: an appendix opens unfolded"
            fold.locator("summary").first.click()
            assert fold.evaluate("d => d.open"), f"{name}: an appendix does not open"


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_figures_are_shown_as_the_legibility_test_assumes(browser_context, site: str, name):
    """Outputs get at least figures.PAGE_WIDTH_PX on a 1280 px page; no image is stretched."""
    from puzzlelab import figures

    with opened(browser_context, f"{site}{name}.html") as page:
        sizes = page.evaluate("""() => Array.from(document.querySelectorAll(
            'article .cell_output img')).filter(i => i.offsetParent !== null)
            .map(i => [i.naturalWidth, i.clientWidth, i.closest('.cell_output').clientWidth])""")
        for natural, shown, column in sizes:
            assert column >= figures.PAGE_WIDTH_PX, f"{name}: output column {column} px"
            assert shown <= natural + 1, f"{name}: an image stretched from {natural} to {shown}"


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_mathematics_is_typeset(browser_context, site: str, name):
    """Every formula of the prose is drawn by MathJax (none left as TeX), with no TeX error."""
    with opened(browser_context, f"{site}{name}.html") as page:
        left = page.evaluate("""() => Array.from(document.querySelectorAll('article span.math'))
            .filter(s => !s.querySelector('mjx-container')).map(s => s.textContent.slice(0, 40))""")
        errors = page.evaluate("() => document.querySelectorAll('article mjx-merror').length")
        assert not left, f"{name}: formulas left as TeX: {left[:3]}"
        assert not errors, f"{name}: {errors} formulas MathJax could not read"


# --- accessibility: axe-core (site/package.json, served from the site's _static) ---------------
AXE = "_static/axe/axe.min.js"
SERIOUS = {"serious", "critical"}
AXE_RUN = """async () => {
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation(browser_context, site: str, name: str):
    """axe-core finds nothing of impact "serious" or "critical", folds closed and open."""
    with opened(browser_context, f"{site}{name}.html") as page:
        page.add_script_tag(url=f"{site}{AXE}")
        found = page.evaluate(AXE_RUN)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        # an unfolded fold fades in: measure contrast once its transitions have finished
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
        found += page.evaluate(AXE_RUN)
        serious = sorted({f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']} nodes, e.g. "
                          f"{v['targets']}" for v in found if v["impact"] in SERIOUS})
        assert not serious, f"{name}.html:\n" + "\n".join(serious)


def test_a_notebook_page_links_to_its_api_page(browser_context, site: str):
    """The page head's API link opens the puzzle's API reference, whose functions show their
    numpydoc sections rendered (Parameters, Returns) from the docstrings."""
    with opened(browser_context, f"{site}hanabi.html") as page:
        page.locator(".puzzlelab-about a", has_text="puzzlelab.hanabi").click()
        page.wait_for_load_state("load")
        assert page.url.split("#")[0].endswith("/api-hanabi.html"), page.url
        entry = page.locator('dl.py.function:has(> dt[id="puzzlelab.hanabi.info_compiled.'
                             'play_deals"])')
        assert entry.count() == 1, "play_deals of puzzlelab.hanabi.info_compiled is not there"
        assert "play_deals" in entry.locator("> dt").inner_text()
        fields = entry.locator("> dd dl.field-list > dt").all_inner_texts()
        assert any(f.startswith("Parameters") for f in fields), fields
        assert any(f.startswith("Returns") for f in fields), fields
        assert "seeds" in entry.locator("> dd").inner_text()
        assert "api.html" in page.locator("nav.bd-docs-nav").inner_html()  # in the sidebar


@contextlib.contextmanager
def on_a_phone(context, url: str) -> Iterator:
    """A page open at `url` on a 390 x 844 screen, closed afterwards."""
    page = context.new_page()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(url, wait_until="load")
        yield page
    finally:
        page.close()


@pytest.mark.parametrize("name", ["hats", "kemps"])
def test_a_figure_opens_full_size_when_tapped_on_a_phone(browser_context, site: str, name):
    """At 390 px a figure is shrunk; tapping it opens the image file at its own size."""
    with on_a_phone(browser_context, f"{site}{name}.html") as page:
        figure = page.locator("article .cell_output a.puzzlelab-full-size img").first
        figure.scroll_into_view_if_needed()
        shown, natural = figure.evaluate("i => [i.clientWidth, i.naturalWidth]")
        assert shown < natural, f"{name}: the figure is not shrunk at 390 px ({shown} px)"
        figure.click()
        page.wait_for_load_state("load")
        assert re.search(r"\.(png|jpe?g|svg)$", page.url), f"{name}: a tap opened {page.url}"
        opened = page.evaluate("() => document.images[0].naturalWidth")
        assert opened == natural


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_every_picture_shown_opens_full_size(browser_context, site: str, name):
    """Every picture of an output, a static explorer's views included, is a link to its image."""
    with opened(browser_context, f"{site}{name}.html") as page:
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        loose = page.evaluate("""() => Array.from(document.querySelectorAll(
            'article .cell_output img')).filter(i => i.offsetParent !== null)
            .filter(i => !(i.closest('a') && /^(blob:|http)/.test(i.closest('a').href)))
            .map(i => (i.alt || i.src).slice(0, 60))""")
        assert not loose, f"{name}: pictures that do not open full size: {loose[:3]}"


@pytest.mark.parametrize("name", PAGES)
def test_a_phone_never_scrolls_a_page_sideways(browser_context, site: str, name: str):
    """At 390 px the page itself is no wider than the screen: wide tables and code scroll in
    their own boxes."""
    with on_a_phone(browser_context, f"{site}{name}.html") as page:
        wide, screen = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, window.innerWidth]")
        assert wide <= screen, f"{name}.html is {wide} px wide on a {screen} px screen"
