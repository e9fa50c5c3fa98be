"""The site's API reference (used by tools/build_site.py): one page per puzzle package and one for
the shared modules, written as MyST pages of `automodule` directives (in `eval-rst` blocks) that Sphinx's autodoc and
napoleon (numpydoc sections: Parameters, Returns, Raises, Examples, References) fill from the
docstrings when the site is built.

A package's names are exported lazily (`puzzlelab.lazy`), so each page documents the modules
where the names are defined, each module's `__all__` only. Modules of numba kernels (their
functions are `jit.Deferred` stand-ins, made on first call) and the install step's builders are
left out: importing the modules documented computes nothing.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import puzzlelab

__all__ = ["PUZZLES", "SHARED", "INDEX", "SKIPPED", "page_name", "modules", "api_page",
           "index_page", "write_pages", "markdown_docstring", "process_docstring"]

PUZZLES = ["russian_cards", "codebreaking", "kemps", "hanabi", "hats"]
SHARED = "shared"  # the page of the modules every puzzle uses
INDEX = "api"  # the page that lists the others (in the sidebar)
# numba kernels (Deferred stand-ins, no docstrings worth a page), the code-breaking engine's
# arrays and kernels (its public face is `compiled`) and the install step's builders
SKIPPED = {"puzzlelab.hanabi.kernels", "puzzlelab.hanabi.questions",
           "puzzlelab.codebreaking.engine_arrays", "puzzlelab.codebreaking.outcome_kernels", "puzzlelab.codebreaking.float32_ranks",
           "puzzlelab.codebreaking.score_kernels", "puzzlelab.codebreaking.symmetry_kernels",
           "puzzlelab.codebreaking.tree_walk",
           "puzzlelab.codebreaking.warm", "puzzlelab.cli", "puzzlelab.jit"}
TITLES = {SHARED: "Shared modules"}


def page_name(name: str) -> str:
    """The page of a puzzle package (or of the shared modules): `api-<name>`."""
    return f"{INDEX}-{name}"


def modules(name: str) -> list[str]:
    """The modules a page documents: a puzzle package's submodules, or the top-level modules."""
    package = puzzlelab if name == SHARED else importlib.import_module(f"puzzlelab.{name}")
    found = [m.name for m in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
             if not m.ispkg]
    return sorted(m for m in found if m not in SKIPPED)


def _title(name: str) -> str:
    return TITLES.get(name, f"`puzzlelab.{name}`")


def api_page(name: str) -> str:
    """MyST for one API page: the package's docstring, then each module's exported names."""
    lines = [f"# API: {_title(name)}", ""]
    if name == SHARED:
        lines += ["The modules every puzzle uses: tables cached on disk, argument checks, "
                  "parameter sweeps, timing, tables and figures for the notebooks, "
                  "epistemic models and solvers, widgets.", ""]
    else:
        lines += ["```{eval-rst}", f".. automodule:: puzzlelab.{name}", "   :no-index:", "```",
                  ""]
    for module in modules(name):  # autodoc writes reStructuredText: read as such
        lines += ["```{eval-rst}", f".. automodule:: {module}", "   :members:", "```", ""]
    return "\n".join(lines)


def index_page() -> str:
    """MyST for the API reference's first page: what it holds and the pages under it."""
    entries = [f"- [{_title(n)}]({page_name(n)}.md)" for n in [*PUZZLES, SHARED]]
    return "\n".join([
        "# API reference", "",
        "The package `puzzlelab`, module by module, from its docstrings: one page per "
        "puzzle and one for the shared modules. Each module lists the names it exports "
        "(its `__all__`); a puzzle package also exports the main ones under its own name "
        "(`from puzzlelab.hanabi import hat_summary`).", "",
        *entries, "",
        "```{toctree}", ":hidden:", "",
        *[page_name(n) for n in [*PUZZLES, SHARED]],
        "```", "",
    ])


def write_pages(folder) -> list[str]:
    """Write the API pages into `folder`; the index page's name (for the sidebar)."""
    (folder / f"{INDEX}.md").write_text(index_page())
    for name in [*PUZZLES, SHARED]:
        (folder / f"{page_name(name)}.md").write_text(api_page(name))
    return INDEX


# --- docstrings are written in Markdown's inline style; autodoc reads reStructuredText ----------
_LITERAL = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_ROLE = re.compile(r"(:\w+(?::\w+)?:`[^`\n]+`)")  # :func:`name`, reStructuredText already  # `code`, Markdown's inline code
_KEEP = re.compile(r"``[^`\n]+``|:\w+:`[^`\n]+`|(?<![\w*\\])\*\*?[^\s*][^*\n]*?\*?\*(?![\w*])")


def _inline(text: str) -> str:
    """One line of prose: `x` becomes ``x``; a `|` or a lone `*` is escaped (no substitution,
    no emphasis left open); emphasis, strong text and roles are kept."""
    parts = _ROLE.split(text)
    text = "".join(p if k % 2 else _LITERAL.sub(lambda m, p=p: _literal(m, p), p)
                   for k, p in enumerate(parts))
    bullet = re.match(r"\s*[*+-] ", text)  # a list item's mark is no emphasis
    out, last = [bullet.group(0) if bullet else ""], bullet.end() if bullet else 0
    for match in _KEEP.finditer(text, last):
        out += [_escape(text[last:match.start()]), match.group(0)]
        last = match.end()
    return "".join([*out, _escape(text[last:])])


def _literal(match: re.Match, text: str) -> str:
    """``code``, with an escaped space where a word runs on (`binomial`s: ``binomial``\\ s)."""
    before = "\\ " if match.start() and text[match.start() - 1].isalnum() else ""
    after = "\\ " if match.end() < len(text) and text[match.end()].isalnum() else ""
    return f"{before}``{match.group(1)}``{after}"


def _escape(text: str) -> str:
    """A `|` or `*` taken literally, and a trailing `_` (`bench_`) that is no link."""
    text = text.replace("|", r"\|").replace("*", r"\*")
    return re.sub(r"(?<=\w)_(?!\w)", r"\\_", text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def markdown_docstring(lines: list[str]) -> list[str]:
    """A docstring's lines made reStructuredText: inline Markdown mended (`_inline`), a
    Markdown table or an indented code block after a paragraph shown as a literal block;
    doctest lines (>>>) and literal blocks (after `::`) left alone."""
    lines = _join_split_literals(lines)
    out: list[str] = []
    literal = doctest = listed = False
    for k, line in enumerate(lines):
        stripped = line.strip()
        previous = next((x for x in reversed(lines[:k]) if x.strip()), "")
        if not stripped:
            doctest = False
            literal = literal and True
            out.append(line)
            continue
        if literal and _indent(line) > 0:
            out.append(line)
            continue
        literal = False
        if stripped.startswith(">>>") or doctest:
            doctest = True
            out.append(line)
            continue
        if stripped.startswith("|"):  # a Markdown table: shown as it is written
            if not (out and out[-1].startswith("    |")):
                out += ["", "::", ""]
            out.append("    " + line)
            if k + 1 >= len(lines) or not lines[k + 1].strip().startswith("|"):
                out.append("")
            continue
        if _indent(line) > 0 and k and not lines[k - 1].strip() and previous \
                and _indent(previous) == 0 and not previous.rstrip().endswith(":"):
            out[-1:] = ["", "::", ""]  # an indented code block, as Markdown writes one
            literal = True
            out.append(line)
            continue
        bullet = bool(re.match(r"([*+-]|\d+\.) ", stripped)) and _indent(line) == 0
        if out and out[-1].strip() and _indent(line) == 0 and bullet != listed:
            out.append("")  # a Markdown list needs no blank line around it; rST does
        if _indent(line) == 0:
            listed = bullet
        out.append(_inline(line))
        literal = stripped.endswith("::")
    return out


def _join_split_literals(lines: list[str]) -> list[str]:
    """`code` broken over two lines: its start carried to the next line (a paragraph reflows)."""
    lines = list(lines)
    for k in range(len(lines) - 1):
        ticks = re.findall(r"(?<!`)`(?!`)", lines[k])
        if len(ticks) % 2 and lines[k + 1].strip() and not lines[k].lstrip().startswith(">>>"):
            cut = lines[k].rfind("`")
            head, tail = lines[k][:cut].rstrip(), lines[k][cut:]
            lines[k] = head
            lines[k + 1] = " " * _indent(lines[k + 1]) + tail + " " + lines[k + 1].lstrip()
    return lines


def process_docstring(app, what, name, obj, options, lines: list[str]) -> None:
    """Sphinx's autodoc-process-docstring hook (site/conf.py): `markdown_docstring`, in place,
    before napoleon reads the numpydoc sections."""
    lines[:] = markdown_docstring(lines)
