"""How long is the story of a page? The visible words of its findings and main line.

The story of a notebook page is its prose: every Markdown cell's words, headings included,
except the sections that are not the main line. Left out:

- sections whose heading starts with "Appendix" or "Where we differ" (a letter or number
  such as "E." may stand before it), down to the next heading of the same or a higher level;
- tables (Markdown `|` tables, HTML tables), code (inputs, fenced blocks) and every cell
  output (tables, figures, code-like text, widgets);
- on the site, the page head (source document, download, how to run it) and folded code.

A word is a run of non-blank characters holding at least one letter or digit (so `+` or `—`
alone is not a word, `(a,` is). At 200 words a minute, the 2,000-word limit the site tests
(tests/browser/test_site_reading.py) is ten minutes of reading.

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
OFF_STORY = re.compile(r"^\s*(?:[A-Z0-9]{1,3}[.)]\s*)?(appendix|where we differ)\b", re.I)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SKIP_TAGS = {"table", "pre", "script", "style", "template", "noscript"}
SKIP_CLASSES = {"cell_input", "cell_output", "puzzlelab-about", "headerlink", "toctree-wrapper",
                "highlight"}
HEADINGS = {f"h{k}" for k in range(1, 7)}


def off_story_heading(text: str) -> bool:
    """A heading that opens an appendix or the "Where we differ" section."""
    return bool(OFF_STORY.match(text.replace("¶", "").strip()))


def words(text: str) -> list[str]:
    """The words of a text: runs of non-blank characters with a letter or a digit."""
    return [w for w in text.split() if any(ch.isalnum() for ch in w)]


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


def _first_heading(section: Node) -> Node | None:
    return next((c for c in section.children if isinstance(c, Node) and c.tag in HEADINGS), None)


def _story_parts(node: Node, parts: list[str]) -> None:
    if node.tag in SKIP_TAGS or node.classes & SKIP_CLASSES:
        return
    if node.tag == "details" and "hide" in node.classes:  # folded code
        return
    if node.tag == "section":
        head = _first_heading(node)
        if head is not None and off_story_heading(head.text()):
            return
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
        else:
            _story_parts(child, parts)
        if isinstance(child, Node) and child.tag in {"p", "li", "div", "section", *HEADINGS}:
            parts.append(" ")


def article(page: Node) -> Node:
    """The page's article: what the reader reads (no sidebars, no header)."""
    return (page.find("article", "bd-article") or page.find("main") or page)


def story_text_html(text: str) -> str:
    """The story of a built page, as text."""
    parts: list[str] = []
    _story_parts(article(parse_html(text)), parts)
    return " ".join("".join(parts).split())


_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|", re.M)


def _markdown_prose(source: str) -> str:
    """The reader-visible words of one Markdown cell: no fences, tables, tags or link targets."""
    lines, fenced = [], False
    tables = bool(_TABLE_RULE.search(source))  # a `|` line is a table row only beside a rule
    for line in source.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced or (tables and line.lstrip().startswith("|")):
            continue
        lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # images
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"</?[A-Za-z][^<>]*>", " ", text)  # HTML tags (not "c < a")
    return text


def story_text_notebook(nb: dict) -> str:
    """The story of a notebook (its JSON as a dict), as text."""
    parts: list[str] = []
    skipping: int | None = None  # the level of the off-story heading being skipped
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        for line in _markdown_prose(source).splitlines():
            heading = _HEADING.match(line.strip())
            if heading:
                level, title = len(heading.group(1)), heading.group(2)
                if skipping is not None and level <= skipping:
                    skipping = None
                if skipping is None and off_story_heading(title):
                    skipping = level
                line = title
            if skipping is None:
                parts.append(line)
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
