"""Figures legible on the site as the browser lays them out: at 1280 px, no text of any figure
(a cell's picture, every view of a static explorer) is below figures.MIN_TEXT_PX pixels, and
the columns of an explorer's tables (which have no column rules) never run together.

Each PNG a figure becomes records its smallest font size in points and the dpi it was drawn at
(puzzlelab.figures.png_bytes); text of s points is s × dpi / 72 pixels of the image, shown at
the image's laid-out width over its natural width. The measure reads the picture the page loaded
(its file or data: address), not the figure that made it."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image
from test_site import NOTEBOOK_PAGES, SHOWS, choose, opened, site  # noqa: F401 (a fixture)
from pagewatch import explorers, widget_state

from puzzlelab import figures

ROOT = Path(__file__).resolve().parents[2]
SITE_HTML = ROOT / "site" / "_build" / "html"
IMAGES_JS = """() => Array.from(document.querySelectorAll('article img'))
    .filter(i => i.offsetParent !== null && i.naturalWidth > 0)
    .map(i => [i.getAttribute('src'), i.currentSrc, i.naturalWidth,
               i.getBoundingClientRect().width, (i.alt || '').slice(0, 60)])"""


def image_bytes(src: str, address: str, site: str) -> bytes:
    """The bytes of the picture an img shows: a data: address decoded, else the site's file."""
    if src.startswith("data:"):
        return base64.b64decode(src.split(",", 1)[1])
    if not address.startswith(site):
        raise ValueError(f"a picture from outside the site: {address}")
    return (SITE_HTML / address[len(site):].split("?")[0]).read_bytes()


def smallest_shown(png: bytes, natural: int, shown: float) -> float | None:
    """The smallest text of a picture in CSS pixels as laid out (None: it has no text)."""
    with Image.open(io.BytesIO(png)) as image:
        if image.width != natural:
            raise ValueError(f"the file is {image.width} px wide, the browser read {natural}")
    record = figures.png_record(png)
    if record is None:
        raise ValueError("the picture records no text size (not drawn by puzzlelab.figures)")
    points, dpi = record
    return None if points is None else points * dpi / 72 * shown / natural


def measure(page, site: str, found: dict[str, tuple[float | None, str]]) -> None:
    """Add the pictures laid out now to `found`: address -> (smallest text px, alt text)."""
    for src, address, natural, shown, alt in page.evaluate(IMAGES_JS):
        key = src if src.startswith("data:") else address
        if key not in found:
            try:
                found[key] = (smallest_shown(image_bytes(src, address, site), natural, shown), alt)
            except ValueError as err:
                found[key] = (-1.0, f"{alt}: {err}")


# Neighbouring cells of a row of an explorer's table whose texts are closer than half an em.
CLOSE_JS = """() => {
  const box = cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
    if (!rects.length || !cell.innerText.trim()) return null;
    return {left: Math.min(...rects.map(r => r.left)), right: Math.max(...rects.map(r => r.right)),
            top: Math.min(...rects.map(r => r.top)), bottom: Math.max(...rects.map(r => r.bottom))};
  };
  const close = [];
  for (const table of document.querySelectorAll('article .widget-html-content table')) {
    if (table.offsetParent === null) continue;
    for (const row of table.rows) {
      let last = null, lastText = '';
      for (const cell of row.cells) {
        const here = box(cell);
        if (!here) continue;
        const em = parseFloat(getComputedStyle(cell).fontSize);
        if (last && here.top < last.bottom && last.top < here.bottom &&
            here.left - last.right < em / 2)
          close.push(`${lastText} | ${cell.innerText.trim().slice(0, 20)}: ` +
                     `${(here.left - last.right).toFixed(1)} px apart`);
        last = here;
        lastText = cell.innerText.trim().slice(-20);
      }
    }
  }
  return close;
}"""


def walk_explorers(page, site: str, found: dict) -> set[str]:
    """Show every view of every static explorer, measure its pictures; the table cells of the
    views whose texts run together."""
    scripts = page.locator('script[type="application/vnd.jupyter.widget-view+json"]')
    views = [scripts.nth(i) for i in range(scripts.count())]
    ids = [page.evaluate("s => JSON.parse(s.textContent).model_id", v.element_handle())
           for v in views]
    close = set(page.evaluate(CLOSE_JS))
    for explorer in explorers(widget_state(page), ids):
        subarea = views[ids.index(explorer.view)].locator("xpath=preceding-sibling::*[1]")
        subarea.scroll_into_view_if_needed()
        control = subarea.locator(".noUi-handle" if explorer.kind.startswith("Selection")
                                  else "select").nth(explorer.nth)
        for index, (text, images) in enumerate(explorer.views):
            choose(page, control, explorer, index)
            page.wait_for_function(SHOWS, arg=[subarea.element_handle(), text, list(images)],
                                   timeout=5_000)
            measure(page, site, found)
            close |= set(page.evaluate(CLOSE_JS))
    return close


@pytest.mark.parametrize("name", NOTEBOOK_PAGES)
def test_no_figure_text_below_the_least_readable_size(browser_context, site: str, name: str):
    """Every picture of the page, appendices open and every explorer view shown, has its text
    at figures.MIN_TEXT_PX pixels or more at 1280 px; an explorer's table columns stand apart."""
    found: dict[str, tuple[float | None, str]] = {}
    with opened(browser_context, f"{site}{name}.html") as page:
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        measure(page, site, found)
        close = walk_explorers(page, site, found)
    assert not close, f"{name}: explorer table columns that run together: {sorted(close)[:5]}"
    sizes = [px for px, _ in found.values() if px is not None and px >= 0]
    print(f"{name}: {len(found)} pictures, smallest text {min(sizes, default=0):.1f} px")
    small = sorted((px, alt) for px, alt in found.values() if px is not None
                   and px < figures.MIN_TEXT_PX)
    assert found, f"{name}: no picture measured"
    assert not small, (f"{name}: {len(small)} pictures with text below {figures.MIN_TEXT_PX} px "
                       f"(-1: unmeasurable): " + "; ".join(f"{px:.1f} px {alt}" for px, alt in small))
