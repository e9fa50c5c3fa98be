"""How a notebook becomes a page of the static site (used by tools/build_site.py).

The committed notebooks are not changed; each function here works on a publishing copy.

- Cell tags (the notebook's own, documented in the README's "How notebooks are written"):
  `setup` (imports, options: not on the site at all; a code cell with no output made only of
  imports, option calls and plain constants counts as set-up without the tag) and
  `algorithm` (a small function in the puzzle's words that states an algorithm: its code is
  shown, marked "algorithm"). Every other code cell is folded: its output shows, its code
  opens with "Show code".
- Live widgets: a widget output that is not a static explorer (a control `jslink`ed to a
  stack of precomputed views) is replaced by its opening view, as the kernel drew it, under
  the one-line label "Live in JupyterLab" with the commands that open the notebook.
- The page head: the source document (authors, year, title, venue, link), the notebook to
  download and the two commands that run it live.
- Citations: `[Janssen (2017)](references.md#janssen2017)` links into the bibliography page,
  generated from `puzzlelab.sources` (in JupyterLab the same link opens
  notebooks/references.md).
"""

from __future__ import annotations

import ast
import copy
import html
import importlib
import re
from pathlib import Path

import nbformat

from puzzlelab import figures, sources

__all__ = ["SETUP_TAG", "ALGORITHM_TAG", "LIVE_CLASS", "is_setup", "merge_outputs", "model_refs",
           "reachable_models", "explorer_controls", "add_page_head", "figure_alt", "add_alt_texts",
           "explorer_alt",
           "fold_code", "still_views", "page_head", "RUN_COMMANDS", "RUN_PAGE", "live_label",
           "import_check_cell", "download_copy", "mend_outputs"]

SETUP_TAG, ALGORITHM_TAG = "setup", "algorithm"
HIDE_INPUT = "hide-input"
LIVE_CLASS = "puzzlelab-live-only"
HEAD_CLASS = "puzzlelab-about"
META = "puzzlelab"  # cell metadata the build writes: {"figures": [names the cell saved]}
STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
OPTION_CALLS = {"set_option", "filterwarnings", "simplefilter", "use", "seed"}
CONSTANT_CALLS = {"range", "Path", "frozenset", "set", "tuple", "list", "dict"}
# The two commands that run a notebook live, from a copy of the repository.
RUN_COMMANDS = ("make lab", "open notebooks/{name}.ipynb")
RUN_PAGE = "run"  # the page that says how to go from the project archive to JupyterLab
ALT_CHARACTERS = 240  # an alt text's length at most (a screen reader reads all of it)


def _constant(node: ast.AST) -> bool:
    """A plain value: literals, names, containers of them, or range(...), Path(...), ..."""
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_constant(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_constant(e) for e in [*node.keys, *node.values] if e is not None)
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    if isinstance(node, ast.BinOp):
        return _constant(node.left) and _constant(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in CONSTANT_CALLS and all(_constant(a) for a in node.args)
    return False


def _setup_statement(node: ast.stmt) -> bool:
    """An import, an option call (pd.set_option, warnings.filterwarnings, ...) or a constant."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        return isinstance(func, ast.Attribute) and func.attr in OPTION_CALLS
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return node.value is not None and _constant(node.value)
    return False


def is_setup(cell: dict) -> bool:
    """Tagged `setup`, or a code cell with no output made only of set-up statements."""
    if cell.get("cell_type") != "code":
        return False
    if SETUP_TAG in cell.get("metadata", {}).get("tags", []):
        return True
    if cell.get("outputs"):
        return False
    lines = [line for line in cell["source"].splitlines() if not line.lstrip().startswith("%")]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return False
    return bool(tree.body) and all(_setup_statement(node) for node in tree.body)


def merge_outputs(current: nbformat.NotebookNode,
                  executed: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as it is now (prose, tags) with the outputs and widget state of an executed
    copy whose code cells are the same."""
    ran = [c for c in executed.cells if c.cell_type == "code"]
    now = [c for c in current.cells if c.cell_type == "code"]
    if [c.source for c in ran] != [c.source for c in now]:
        raise ValueError("the executed copy's code cells differ from the notebook's")
    merged = copy.deepcopy(current)
    for cell, done in zip((c for c in merged.cells if c.cell_type == "code"), ran):
        cell.outputs, cell.execution_count = done.outputs, done.execution_count
        if META in done.metadata:
            cell.metadata[META] = copy.deepcopy(done.metadata[META])
    merged.metadata = copy.deepcopy(executed.metadata)
    return merged


def fold_code(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Set-up cells left out; every code cell but the algorithm cells folded (output shown)."""
    cells = []
    for cell in nb.cells:
        if is_setup(cell):
            continue
        if cell.cell_type == "code":
            tags = cell.metadata.setdefault("tags", [])
            if ALGORITHM_TAG not in tags and HIDE_INPUT not in tags:
                tags.append(HIDE_INPUT)
        cells.append(cell)
    nb.cells = cells
    return nb


def model_refs(value) -> list[str]:
    """The widget model ids a state value points at (IPY_MODEL_ references, in order)."""
    if isinstance(value, str):
        return [value[len("IPY_MODEL_"):]] if value.startswith("IPY_MODEL_") else []
    if isinstance(value, list):
        return [r for v in value for r in model_refs(v)]
    if isinstance(value, dict):
        return [r for v in value.values() for r in model_refs(v)]
    return []


def reachable_models(state: dict, roots: list[str]) -> list[str]:
    """Every model a set of views needs (children, layouts, styles, links), roots first."""
    seen: dict[str, None] = {}
    todo = list(roots)
    while todo:
        model = todo.pop(0)
        if model in seen or model not in state:
            continue
        seen[model] = None
        todo += model_refs(state[model].get("state", {}))
    return list(seen)


def explorer_controls(state: dict) -> set[str]:
    """The controls whose `index` is linked to a Stack's `selected_index` (static explorers)."""
    controls = set()
    for entry in state.values():
        if entry.get("model_name") not in {"LinkModel", "DirectionalLinkModel"}:
            continue
        ends = [entry["state"].get("source"), entry["state"].get("target")]
        ends = {end[1]: model_refs(end[0])[0] for end in ends if end}
        stack = ends.get("selected_index")
        if stack and "index" in ends and state.get(stack, {}).get("model_name") == "StackModel":
            controls.add(ends["index"])
    return controls


def _opening_view(state: dict, root: str) -> list[dict]:
    """The outputs a live widget shows as it opens: those of its Output widgets, in order."""
    outputs = []
    for model in reachable_models(state, [root]):
        entry = state[model]
        if entry.get("model_name") == "OutputModel":
            outputs += entry["state"].get("outputs", [])
        elif entry.get("model_name") in {"HTMLModel", "LabelModel"} and entry["state"].get("value"):
            value = entry["state"]["value"]
            outputs.append(nbformat.v4.new_output(
                "display_data", data={"text/html": value if entry["model_name"] == "HTMLModel"
                                      else html.escape(value)}))
    return [nbformat.from_dict(o) for o in outputs]


def live_label(name: str, above: bool = False) -> str:
    """The one-line label above the still picture of a live widget (`above`: the picture is
    the output just shown, so it is not shown again)."""
    first, second = (c.format(name=name) for c in RUN_COMMANDS)
    view = "the view shown above, made live" if above else "the view as it opens"
    return (f'<p class="{LIVE_CLASS}"><strong>Live in JupyterLab</strong> — {view}; to change '
            f'it, run <code>{first}</code>, then {second.split(" ", 1)[0]} '
            f'<code>{second.split(" ", 1)[1]}</code>.</p>')


def _output_key(output: dict) -> str | None:
    """What a reader sees of an output, to tell a repeated view (a picture, HTML or text)."""
    data = output.get("data", {})
    for mime in ("image/png", "text/html"):
        if mime in data:
            value = data[mime]
            return mime + ("".join(value) if isinstance(value, list) else value)
    text = output.get("text")
    return "text" + ("".join(text) if isinstance(text, list) else text) if text else None


def still_views(nb: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """Live widgets replaced by their opening view and the label (the label alone when the page
    shows that view already); unused widget state dropped."""
    widgets = nb.metadata.get("widgets", {}).get(STATE_MIME)
    if not widgets:
        return nb
    state = widgets["state"]
    controls = explorer_controls(state)
    kept_views, shown = [], set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            view = output.get("data", {}).get(VIEW_MIME)
            if view is None:
                outputs.append(output)
                continue
            under = reachable_models(state, [view["model_id"]])
            if controls & set(under):
                outputs.append(output)
                kept_views.append(view["model_id"])
                continue
            opening = _opening_view(state, view["model_id"])
            keys = {_output_key(o) for o in opening} - {None}
            above = bool(keys) and keys <= shown
            label = nbformat.v4.new_output("display_data",
                                           data={"text/html": live_label(name, above)})
            outputs += [label] if above else [label, *opening]
        cell.outputs = outputs
        shown |= {_output_key(o) for o in outputs} - {None}
    keep = set(reachable_models(state, kept_views))
    links = [k for k, v in state.items() if v.get("model_name") in
             {"LinkModel", "DirectionalLinkModel"} and set(model_refs(v.get("state", {}))) <= keep]
    keep |= set(reachable_models(state, links))  # the links that make the explorers switch
    widgets["state"] = {k: v for k, v in state.items() if k in keep}
    if not keep:
        del nb.metadata["widgets"]
    return nb


def page_head(name: str, download: str, project: str | None = None,
              api: str | None = None) -> str:
    """MyST for the top of a notebook's page: its source document, the downloads, how to run,
    and (`api`: its page) the puzzle's API reference."""
    ref = sources.source_of_notebook(name)
    title = f"[*{ref.title}*]({ref.url})" if ref.url else f"*{ref.title}*"
    first, second = (c.format(name=name) for c in RUN_COMMANDS)
    archive = (f", and the project it runs in, {{download}}`{Path(project).name} <{project}>` "
               f"([how to run it]({RUN_PAGE}.md))" if project else "")
    return "\n".join([
        f'<div class="{HEAD_CLASS}">',
        "",
        f"**Source:** {ref.authors} ({ref.year}), {title}, {ref.venue}. "
        "[All references](references.md).",
        "",
        f"**Run it:** download the notebook, {{download}}`{name}.ipynb <{download}>`{archive}; "
        f"live from a copy of the project: `{first}`, then {second.split(' ', 1)[0]} "
        f"`{second.split(' ', 1)[1]}`.",
        *(["", f"**API:** [`puzzlelab.{name}`]({api}), the package this page "
                f"uses, module by module."] if api else []),
        "",
        "</div>",
    ])


def add_page_head(nb: nbformat.NotebookNode, name: str, download: str,
                  project: str | None = None, api: str | None = None) -> nbformat.NotebookNode:
    """Insert the page head right after the notebook's title (its first `# ` line)."""
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        match = re.search(r"^# .*$", cell.source, re.M)
        if not match:
            raise ValueError(f"{name}: the first Markdown cell has no '# ' title")
        before, after = cell.source[:match.end()], cell.source[match.end():].lstrip("\n")
        cell.source = before
        head = nbformat.v4.new_markdown_cell(page_head(name, download, project, api))
        rest = [nbformat.v4.new_markdown_cell(after)] if after.strip() else []
        nb.cells[index + 1:index + 1] = [head, *rest]
        return nb
    raise ValueError(f"{name}: no Markdown cell")


def figure_alt(names: list[str], folder: Path = figures.FIGURES) -> str | None:
    """An alt text for the picture of saved figures: their titles and labels, largest first."""
    texts: list[str] = []
    for name in names:
        svg = folder / f"{name}.svg"
        if not svg.is_file():
            continue
        found = _joined_lines(figures.figure_texts(svg))
        order = sorted(range(len(found)), key=lambda k: (-found[k][1], k))
        for k in order:
            text = found[k][0]
            if len(re.findall(r"[A-Za-z]{2,}", text)) >= 2 and "$" not in text \
                    and text not in texts:
                texts.append(text)
    if not texts:
        return None
    alt = "Figure: " + "; ".join(texts)
    return alt if len(alt) <= ALT_CHARACTERS else alt[:ALT_CHARACTERS - 1].rsplit(" ", 1)[0] + "…"


def _joined_lines(texts: list) -> list[tuple[str, float]]:
    """A figure's texts (in drawing order) with a title's wrapped lines joined: a lower-case
    line of the same size after an open parenthesis, a comma or a dangling 'and', 'of', 'the'."""
    joined: list[tuple[str, float]] = []
    for item in texts:
        text = " ".join(item.text.split())
        if joined and joined[-1][1] == item.points and text[:1].islower() and (
                joined[-1][0].count("(") > joined[-1][0].count(")")
                or joined[-1][0].endswith((",", "-", " and", " of", " the"))):
            joined[-1] = (f"{joined[-1][0]} {text}", item.points)
        else:
            joined.append((text, item.points))
    return joined


def _module_aliases(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The names a notebook's imports bind to modules: {'nb': 'puzzlelab.kemps.notebook'}."""
    aliases = {}
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        try:
            tree = ast.parse("\n".join(line for line in cell.source.splitlines()
                                       if not line.lstrip().startswith("%")))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                aliases |= {a.asname or a.name: f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                aliases |= {a.asname or a.name: a.name for a in node.names}
    return aliases


def explorer_alt(source: str, aliases: dict[str, str]) -> str | None:
    """An alt text for the picture an `explore_…` function draws in a cell (called, or handed to
    interact_safely): the first paragraph of that function's docstring."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("explore_") and \
                isinstance(node.value, ast.Name) and node.value.id in aliases:
            try:
                module = importlib.import_module(aliases[node.value.id])
            except ImportError:
                continue
            doc = getattr(getattr(module, node.attr, None), "__doc__", None)
            if doc:
                return "Figure: " + " ".join(doc.split("\n\n")[0].split()).replace("`", "")
    return None


def add_alt_texts(nb: nbformat.NotebookNode, folder: Path = figures.FIGURES,
                  imports: nbformat.NotebookNode | None = None) -> None:
    """Give each cell that shows a picture an alt text (MyST-NB's cell image options): the
    titles of the figures it saved, else what the `explore_…` function it calls draws (its
    module named by the imports of `imports`, the notebook before its set-up cells went)."""
    aliases = _module_aliases(imports if imports is not None else nb)
    for cell in nb.cells:
        if cell.cell_type != "code" or not any(
                "image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            continue
        names = cell.get("metadata", {}).get(META, {}).get("figures")
        alt = (figure_alt(names, folder) if names else None) or explorer_alt(cell.source, aliases)
        if alt:
            cell.metadata.setdefault("mystnb", {}).setdefault("image", {})["alt"] = alt


IMPORT_CHECK = """\
# This notebook runs inside the puzzlelab project: it imports the package and reads data/.
import importlib.util


class ProjectMissing(Exception):
    \"\"\"Shown as its one line (IPython's _render_traceback_), and stops "Run All".\"\"\"

    def _render_traceback_(self) -> list[str]:
        return [f"ProjectMissing: {{self}}"]


if importlib.util.find_spec("puzzlelab") is None:
    raise ProjectMissing(
        "puzzlelab is not installed: download the project ({archive}, offered beside this "
        "notebook on the site), unpack it, run `make lab` in it (or `pip install -e "
        "'.[notebooks]'`, then `jupyter lab notebooks`) and open notebooks/{name}.ipynb there")
"""


def import_check_cell(name: str, archive: str) -> nbformat.NotebookNode:
    """The first cell of a downloaded notebook: says in one line how to get puzzlelab if absent."""
    cell = nbformat.v4.new_code_cell(IMPORT_CHECK.format(name=name, archive=archive))
    cell.metadata["tags"] = [SETUP_TAG]
    return cell


def download_copy(nb: nbformat.NotebookNode, name: str, archive: str) -> nbformat.NotebookNode:
    """The notebook offered for download: the committed one with the import check first."""
    copied = copy.deepcopy(nb)
    copied.cells.insert(0, import_check_cell(name, archive))
    copied.metadata.pop("widgets", None)
    return copied


def _mend_html(output: dict, mend) -> None:
    """Apply `mend` to an output's HTML, in place."""
    data = output.get("data", {})
    if "text/html" in data:
        value = data["text/html"]
        data["text/html"] = mend("".join(value) if isinstance(value, list) else value)


def mend_outputs(nb: nbformat.NotebookNode, mend) -> nbformat.NotebookNode:
    """Apply `mend` (HTML -> HTML) to every HTML output: of cells, and of widget views."""
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            _mend_html(output, mend)
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    for entry in state.values():
        if entry.get("model_name") == "OutputModel":
            for output in entry["state"].get("outputs", []):
                _mend_html(output, mend)
        elif entry.get("model_name") == "HTMLModel" and entry["state"].get("value"):
            entry["state"]["value"] = mend(entry["state"]["value"])
    return nb
