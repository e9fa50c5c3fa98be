"""The pages made readable by everyone (used by tools/build_site.py, mostly after Sphinx).

Sphinx and MyST-NB write the HTML; this pass mends, on every page at once, what they leave:

- fold controls: "Show code" bars are named by what they open ("Show code: <first line>"),
  not announced as "Toggle hidden content"; a bar with nothing under it (a code cell with no
  output) is left out, its code with it;
- output tables (`mend_fragment`, run by the build on every HTML output and widget view before
  Sphinx): no empty header cell (a blank corner of a pandas head becomes a plain cell),
  Python booleans read "yes" and "no", calculator numbers ("6.0108039E+8") written out;
- the theme's search buttons: named by their visible text (axe: label-content-name-mismatch);
- figures: each picture of an output opens full size (a link to its image file) and has an
  alt text (the figure's titles, set by `site_pages.add_alt_texts`, else the section it
  illustrates).
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from bs4 import BeautifulSoup, Tag

__all__ = ["fold_label", "number_text", "mend_tables", "mend_fragment", "mend_folds",
           "mend_figures", "mend_theme", "mend_page", "mend_site"]

FOLD_WORDS = 70  # characters of a cell's first line that name its fold
BOOLEANS = {"True": "yes", "False": "no"}
SCIENTIFIC = re.compile(r"^([-+]?\d+(?:\.\d+)?)[eE]([-+]?\d+)$")
FULL_SIZE = "puzzlelab-full-size"
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def fold_label(code: str) -> str:
    """What a fold opens, in one line: the cell's first comment, else its first line of code."""
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    comment = next((line.lstrip("# ").strip() for line in lines[:3] if line.startswith("#")), "")
    first = comment or (lines[0] if lines else "code")
    return first if len(first) <= FOLD_WORDS else first[:FOLD_WORDS - 1].rstrip() + "…"


def number_text(text: str) -> str | None:
    """A number written as 6.0108039E+8 in ordinary notation (601,080,390), or None."""
    match = SCIENTIFIC.match(text.strip())
    if not match:
        return None
    value = float(text)
    if value.is_integer() and abs(value) < 1e16:
        return f"{int(value):,}"
    mantissa, exponent = match.group(1), int(match.group(2))
    return f"{mantissa} × 10{str(exponent).translate(SUPERSCRIPTS)}" if exponent else mantissa


def mend_tables(soup: BeautifulSoup | Tag) -> None:
    """Tables: empty header cells become plain cells; booleans and E+ numbers read as words."""
    for table in soup.find_all("table"):
        for th in table.find_all("th"):
            if not th.get_text(strip=True):
                th.name = "td"
        for cell in table.find_all(["td", "th"]):
            text = cell.get_text(strip=True)
            if len(cell.contents) != 1 or not isinstance(cell.contents[0], str):
                continue
            if text in BOOLEANS:
                cell.string = BOOLEANS[text]
            elif (written := number_text(text)) is not None:
                cell.string = written


def mend_fragment(text: str) -> str:
    """An output's HTML (a table as pandas writes it) with its tables mended."""
    if "<table" not in text:
        return text
    soup = BeautifulSoup(text, "html.parser")
    mend_tables(soup)
    return str(soup)


def mend_folds(soup: BeautifulSoup) -> None:
    """Fold bars named by what they open; a bar with no output under its cell left out."""
    for details in soup.select("details.hide.above-input"):
        cell = details.find_parent(class_="cell")
        if cell is not None and not cell.select(".cell_output > *"):
            cell.decompose()
            continue
        code = details.select_one(".cell_input")
        label = fold_label(code.get_text() if code else "")
        summary = details.find("summary")
        if summary is None:
            continue
        if summary.get("aria-label"):
            del summary["aria-label"]
        for state, verb in [("collapsed", "Show code"), ("expanded", "Hide code")]:
            part = summary.find(class_=state)
            if part is not None:
                part.string = f"{verb}: {label}"


def _section_title(node: Tag) -> str:
    """The title of the section a node stands in (its nearest heading before it)."""
    heading = node.find_previous(["h1", "h2", "h3", "h4"])
    return " ".join(heading.get_text(" ", strip=True).replace("#", "").split()) if heading else ""


def _image_file(src: str, images: Path) -> str | None:
    """A picture given inline (a data: address) written to images/<hash>.<ext>; its address."""
    match = re.match(r"data:image/(png|jpeg|gif);base64,(.*)$", src, re.S)
    if not match:
        return None
    data = base64.b64decode(match.group(2))
    name = f"{hashlib.sha256(data).hexdigest()}.{match.group(1)}"
    images.mkdir(parents=True, exist_ok=True)
    if not (images / name).exists():
        (images / name).write_bytes(data)
    return f"{images.name}/{name}"


def mend_figures(soup: BeautifulSoup, images: Path | None = None) -> None:
    """Output pictures: each a link to its image file (an inline picture written to `images`
    first), each with an alt text saying what it is."""
    for img in soup.select(".cell_output img"):
        alt = img.get("alt", "")
        if not alt or re.search(r"\.(png|svg|jpe?g|gif)$", alt) or "_images/" in alt:
            img["alt"] = f"Figure of the section “{_section_title(img)}”"
        if images is not None and (address := _image_file(img.get("src", ""), images)):
            img["src"] = address
        src = img.get("src", "")
        if img.find_parent("a") is None and src and not src.startswith("data:"):
            link = soup.new_tag("a", href=src, attrs={"class": FULL_SIZE})
            link["title"] = "Open the figure full size"
            img.wrap(link)


def mend_theme(soup: BeautifulSoup) -> None:
    """The theme's search buttons named by what they show ("Search Ctrl+K"), not "Search" alone;
    the sidebar's fold arrow of a page with pages under it (the API reference) named."""
    for button in soup.select("button.search-button-field[aria-label]"):
        del button["aria-label"]
    for summary in soup.select("li.has-children > details > summary"):
        link = summary.find_parent("li").find("a")
        if not summary.get_text(strip=True) and link is not None:
            summary["aria-label"] = f"Pages under {link.get_text(' ', strip=True)}"


def mend_page(text: str, images: Path | None = None) -> str:
    """One built page, mended (inline pictures written to `images`, the site's _images)."""
    soup = BeautifulSoup(text, "html.parser")
    mend_theme(soup)
    mend_folds(soup)
    mend_figures(soup, images)
    return str(soup)


def mend_site(html: Path) -> list[str]:
    """Mend every page of a built site in place; the pages changed."""
    changed = []
    for page in sorted(html.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        mended = mend_page(text, html / "_images")
        if mended != text:
            page.write_text(mended, encoding="utf-8")
            changed.append(page.name)
    return changed
