"""How long is the story of a page? The words a reader sees of it, unfolded (issue 38, item 4).

The story of a notebook page is what the page shows from its top down to the first `##`
section that is not the main line: "Explore", an appendix ("Appendix…") or "Where we
differ" (a letter or number such as "E." may stand before the heading's words). Counted:
prose and headings, table cells (Markdown tables and the tables of outputs), captions, the
code that is shown (cells marked `algorithm`, code in prose) and the text of outputs (printed
lines, tables, the still view of a live widget). Left out: folded `<details>` (the code every
other cell folds; the page's own folds), the page head (source document, downloads, how to
run it), pictures, widget views drawn by the browser (static explorers), and what is hidden.
Mathematics counts its letters and digits, not its TeX commands.

A word is a run of letters or digits (so "3,279" is two words, "—" none). At 200 words a
minute, the 2,000-word limit the site tests (tests/browser/test_site_reading.py) is ten
minutes of reading.

    python tools/story_words.py notebooks/kemps.ipynb            # from the notebook
    python tools/story_words.py site/_build/html/kemps.html      # from the built page

Both measures agree within a few percent (a test checks it on every page).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["LIMIT", "Node", "parse_html", "story_text_html", "story_text_notebook",
           "words", "story_words", "off_story_heading"]

LIMIT = 2_000
OFF_STORY = re.compile(r"^\s*(?:[A-Z0-9]{1,3}[.)]\s*)?(explore|appendix|where we differ)\b",
                       re.I)
WORD = re.compile(r"[^\W_]+")
TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SKIP_TAGS = {"script", "style", "template", "noscript", "img", "svg", "button"}
SKIP_CLASSES = {"puzzlelab-about", "headerlink", "toctree-wrapper"}
MATH_CLASSES = {"math", "MathJax"}
BLOCKS = {"p", "li", "div", "section", "pre", "br", "td", "th", "tr", "table", "caption",
          "figcaption", "dt", "dd", "summary", "ul", "ol", "blockquote", "figure", "details",
          "h1", "h2", "h3", "h4", "h5", "h6"}
HEADINGS = {f"h{k}" for k in range(1, 7)}


def off_story_heading(text: str) -> bool:
    """A heading that ends the story: Explore, an appendix or "Where we differ"."""
    return bool(OFF_STORY.match(text.replace("¶", "").replace("#", "").strip()))


def words(text: str) -> list[str]:
    """The words of a text: runs of letters or digits."""
    return WORD.findall(text)


def untex(text: str) -> str:
    """Mathematics as a reader sees it: TeX commands (\\lfloor, \\log) dropped."""
    return TEX_COMMAND.sub(" ", text)


@dataclass
class Node:
    """An element of a parsed HTML page (text children are plain strings)."""

    tag: str
    attrs: dict[str, str]
    children: list = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        """All text under this element."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        """This element and every element under it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find(self, tag: str, cls: str | None = None) -> Node | None:
        """The first element under this one with this tag (and class)."""
        return next((n for n in self.iter() if n.tag == tag and
                     (cls is None or cls in n.classes)), None)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):  # close up to the matching element
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    """A page's element tree."""
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


def _hidden(node: Node) -> bool:
    """An element the reader does not see unfolded: scripts, pictures, folds, hidden parts."""
    style = node.attrs.get("style", "").replace(" ", "").lower()
    return (node.tag in SKIP_TAGS or bool(node.classes & SKIP_CLASSES) or "hidden" in node.attrs
            or "display:none" in style or (node.tag == "details" and "open" not in node.attrs))


class _Story:
    """The visible text of an element tree in document order, up to the first off-story h2."""

    def __init__(self, stop: bool = True) -> None:
        self.parts: list[str] = []
        self.stop, self.stopped = stop, False

    def walk(self, node: Node) -> None:
        if self.stopped or _hidden(node):
            return
        if self.stop and node.tag == "h2" and off_story_heading(node.text()):
            self.stopped = True
            return
        if node.classes & MATH_CLASSES:
            self.parts.append(" " + untex(node.text()) + " ")
            return
        for child in node.children:
            if self.stopped:
                return
            if isinstance(child, str):
                self.parts.append(child)
            else:
                self.walk(child)
        if node.tag in BLOCKS:
            self.parts.append(" ")

    def text(self) -> str:
        return " ".join("".join(self.parts).split())


def article(page: Node) -> Node:
    """The page's article: what the reader reads (no sidebars, no header)."""
    return (page.find("article", "bd-article") or page.find("main") or page)


def story_text_html(text: str) -> str:
    """The story of a built page, as text."""
    story = _Story()
    story.walk(article(parse_html(text)))
    return story.text()


def fragment_text(text: str) -> str:
    """The visible text of an HTML fragment (an output), with no stop at headings."""
    story = _Story(stop=False)
    story.walk(parse_html(text))
    return story.text()


_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)


def _markdown_text(source: str) -> tuple[str, bool]:
    """The reader-visible words of one Markdown cell up to an off-story `##` heading, and
    whether the cell reached one (fenced code counts; link targets, images and tags do not)."""
    lines, fenced, stopped = [], False, False
    for line in source.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.match(line.strip())
        if heading and len(heading.group(1)) == 2 and off_story_heading(heading.group(2)):
            stopped = True
            break
        lines.append(heading.group(2) if heading else line)
    text = "\n".join(lines)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # images
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"</?[A-Za-z][^<>]*>", " ", text)  # HTML tags (not "c < a")
    text = _MATH.sub(lambda m: untex(m.group(1) or m.group(2)), text.replace(r"\$", "$ "))
    return text, stopped


def _joined(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def _output_text(output: dict) -> str:
    """What a reader sees of one output, as text (pictures and widget views: nothing)."""
    if output.get("output_type") == "stream":
        return _joined(output.get("text", ""))
    data = output.get("data", {})
    if "application/vnd.jupyter.widget-view+json" in data or "image/png" in data:
        return ""
    if "text/html" in data:
        return fragment_text(_joined(data["text/html"]))
    if "text/markdown" in data:
        return _markdown_text(_joined(data["text/markdown"]))[0]
    return untex(_joined(data.get("text/latex", ""))) or _joined(data.get("text/plain", ""))


def _published(nb: dict) -> dict:
    """The notebook as the site publishes it: set-up cells out, code folded, live widgets
    replaced by their still view (tools/site_pages.py)."""
    import nbformat
    import site_pages

    copied = nbformat.reads(json.dumps(nb), as_version=4)  # sources joined into strings
    return site_pages.still_views(site_pages.fold_code(copied), "notebook")


def story_text_notebook(nb: dict) -> str:
    """The story of a notebook (its JSON as a dict), as text."""
    parts: list[str] = []
    for cell in _published(nb)["cells"]:
        source = _joined(cell["source"])
        if cell["cell_type"] == "markdown":
            text, stopped = _markdown_text(source)
            parts.append(text)
            if stopped:
                break
        elif cell["cell_type"] == "code":
            if "algorithm" in cell.get("metadata", {}).get("tags", []):
                parts.append(source)
            parts += [_output_text(o) for o in cell.get("outputs", [])]
    return " ".join(" ".join(parts).split())


def story_words(path: Path) -> int:
    """The story's word count of a notebook (.ipynb) or a built page (.html)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        return len(words(story_text_notebook(json.loads(text))))
    return len(words(story_text_html(text)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", type=Path, help="notebooks (.ipynb) or pages (.html)")
    args = parser.parse_args(argv)
    over = 0
    for path in args.paths:
        count = story_words(path)
        over += count > LIMIT
        verdict = "ok" if count <= LIMIT else f"over by {count - LIMIT}"
        print(f"{path}: {count:,} words of story (limit {LIMIT:,}: {verdict}; "
              f"about {count / 200:.0f} min at 200 words a minute)")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
