"""Build the static site (`make site`): executed notebooks with their widgets, served offline.

1. Publishing copies of notebooks/*.ipynb are executed (in a scratch copy of the repository's
   notebooks/, data/ and figures/) and saved into site/_build/executed with their widget state
   stored, so that widgets (static explorers above all) work on a page with no kernel.
   The committed notebooks are never touched. A copy is reused while its code cells, the
   library and the cached tables are unchanged (a hash of them is kept beside it), so a
   change of prose or tags rebuilds the pages in a minute.
2. Each page is the notebook as it is now (prose, tags) with the executed copy's outputs, made
   into a page by tools/site_pages.py: set-up cells left out, code folded except `algorithm`
   cells, live widgets replaced by their opening view labelled "Live in JupyterLab", and a
   head naming the source document, the notebook to download and how to run it live.
   The README's table of notebooks becomes the page `notebooks`, puzzlelab.sources the page
   `references` (the bibliography), the docstrings the API reference (`api`, one page per
   puzzle package and one for the shared modules, tools/site_api.py); the home page (the overview notebook `index`) gets a
   hidden table of contents that orders the sidebar as the home page orders its puzzles.
   The project at the commit checked out (`git archive HEAD`) is offered beside each notebook,
   and the page `run` says how to go from it to JupyterLab; a downloaded notebook starts with
   a cell that checks that puzzlelab can be imported. Each figure's picture gets an alt text
   read from the figure it saved (`FigureLog`), and output tables are mended (site_html).
3. The widget manager, RequireJS, MathJax and axe-core (for the browser tests) are copied from
   site/node_modules (npm ci) into the site's own _static folder; Sphinx with MyST-NB writes
   site/_build/html (any warning, such as a link to a missing page or an unreadable image,
   fails the build); tools/site_html.py then mends every page (fold labels, figure links).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import site_api  # tools/site_api.py, beside this script
import site_html  # tools/site_html.py, beside this script
import site_pages  # tools/site_pages.py, beside this script
from puzzlelab import sources
from puzzlelab.runner import private_sockets

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
BUILD = SITE / "_build"
STAGE = BUILD / "root"  # a scratch copy of notebooks/, data/, figures/ to execute in
EXECUTED = BUILD / "executed"
SOURCE = BUILD / "src"
STATIC = BUILD / "static"
HTML = BUILD / "html"
MODULES = SITE / "node_modules"
ASSETS = {  # where in node_modules -> where under _static
    "@jupyter-widgets/html-manager/dist": "widgets",
    "requirejs/require.js": "requirejs/require.min.js",
    "mathjax/es5": "mathjax",
    "axe-core/axe.min.js": "axe/axe.min.js",  # accessibility checks of the browser tests
}
UNUSED = ["*.map", "libembed-amd.js", "embed.js", "*.LICENSE.txt"]  # the pages load embed-amd.js
INPUTS = [("puzzlelab", "*.py"), ("data", "*.csv")]  # figures/ are outputs, not inputs
DOWNLOADS = "_notebooks"  # the committed notebooks, offered for download (not pages)
PROJECT = "_project"  # the project at the built commit (git archive), offered for download


def fingerprint(notebook: Path) -> str:
    """A hash of what executing a notebook depends on: its code cells, the library, the tables.

    Prose and cell tags are left out: a copy executed before they changed still serves (its
    outputs are laid onto the notebook as it is now, see `merge_outputs`).
    """
    nb = nbformat.read(notebook, as_version=4)
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    digest = hashlib.sha256("\n\0".join(code).encode())
    for folder, pattern in INPUTS:
        for path in sorted((ROOT / folder).rglob(pattern)):
            if "partial" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return digest.hexdigest()


def stage() -> None:
    """Copy notebooks/, data/ and figures/ to a scratch root, so executing changes no file here."""
    for folder in ["notebooks", "data", "figures"]:
        shutil.rmtree(STAGE / folder, ignore_errors=True)
        shutil.copytree(ROOT / folder, STAGE / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "partial"))
    os.environ["PUZZLELAB_ROOT"] = str(STAGE)  # the kernels read and write there


class FigureLog:
    """An nbclient hook: records in each executed cell's metadata the figures it saved.

    A plot helper saves figures/<name>.svg (`puzzlelab.figures.finish`); the page gives the
    cell's picture an alt text read from that figure's titles (`site_pages.figure_alt`).
    """

    def __init__(self) -> None:
        self.seen = self.snapshot()

    @staticmethod
    def snapshot() -> dict[str, int]:
        """The staged figures and when each was last written."""
        return {p.stem: p.stat().st_mtime_ns for p in (STAGE / "figures").glob("*.svg")}

    def __call__(self, cell: nbformat.NotebookNode, **_: object) -> None:
        now = self.snapshot()
        saved = sorted(name for name, stamp in now.items() if self.seen.get(name) != stamp)
        self.seen = now
        if saved:
            cell.metadata.setdefault(site_pages.META, {})["figures"] = saved


def publish(notebook: Path, target: Path, timeout: int, tries: int = 3) -> None:
    """Execute a staged copy of `notebook` in its folder and save it with its widget state.

    A kernel that stops answering (ipykernel 7 now and then loses a reply) makes the cell
    time out; the notebook is then run again in a new kernel, up to `tries` times.
    """
    for attempt in range(1, tries + 1):
        nb = nbformat.read(notebook, as_version=4)
        try:
            with tempfile.TemporaryDirectory(prefix="puzzlelab-kernel-") as sockets:
                NotebookClient(nb, timeout=timeout, kernel_name="python3",
                               store_widget_state=True, on_cell_executed=FigureLog(),
                               resources={"metadata": {"path": str(notebook.parent)}},
                               config=private_sockets(Path(sockets))).execute()
        except TimeoutError:
            if attempt == tries:
                raise
            print(f"  a cell took over {timeout} s: running {notebook.name} again", flush=True)
            continue
        nbformat.write(nb, target)
        return


def notebook_order(index: Path, names: list[str]) -> list[str]:
    """The notebooks in the order the home page first links to them, then any others."""
    nb = nbformat.read(index, as_version=4)
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    listed = re.findall(r"\]\(([\w-]+)\.ipynb\)", prose)
    ordered = [n for n in dict.fromkeys(listed) if n in names]
    return ordered + sorted(set(names) - set(ordered))


def notebooks_page(readme: str) -> str:
    """The README's section "Notebooks" as a page, its links pointing at the site's pages."""
    section = re.search(r"^## Notebooks\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    if not section:
        raise ValueError("README.md has no '## Notebooks' section")
    body = re.sub(r"\]\(notebooks/([\w-]+)\.ipynb\)", r"](\1.ipynb)", section.group(1))
    return "# The notebooks\n" + body


def add_contents(index: Path, pages: list[str]) -> None:
    """Append a hidden table of contents to the home page (it orders the sidebar)."""
    nb = nbformat.read(index, as_version=4)
    toc = "```{toctree}\n:hidden:\n\n" + "\n".join(pages) + "\n```"
    nb.cells.append(nbformat.v4.new_markdown_cell(toc))
    nbformat.write(nb, index)


def page(notebook: Path, archive: str | None) -> nbformat.NotebookNode:
    """The page of one notebook: its prose and tags now, the executed copy's outputs."""
    name = notebook.stem
    current = nbformat.read(notebook, as_version=4)
    executed = nbformat.read(EXECUTED / notebook.name, as_version=4)
    merged = site_pages.merge_outputs(current, executed)
    nb = site_pages.still_views(site_pages.fold_code(copy.deepcopy(merged)), name)
    site_pages.add_alt_texts(nb, ROOT / "figures", imports=merged)
    site_pages.mend_outputs(nb, site_html.mend_fragment)
    if name in sources.NOTEBOOK_SOURCES:
        nb = site_pages.add_page_head(nb, name, f"{DOWNLOADS}/{notebook.name}",
                                      f"{PROJECT}/{archive}" if archive else None,
                                      api=f"{site_api.page_name(name)}.md")
    return nb


def git(*args: str) -> str:
    """The output of a git command run in the repository."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def pack_project(folder: Path) -> tuple[str | None, str | None]:
    """`git archive` of the commit checked out, into `folder`; its file name, and a note when
    the working tree has uncommitted changes (the archive holds the commit without them) or
    is no git checkout (an unpacked archive: then no archive, and the note says so)."""
    try:
        commit = git("rev-parse", "--short=12", "HEAD")
    except (OSError, subprocess.CalledProcessError):
        note = ("This site was built outside a git checkout (from an unpacked archive, say), so "
                "it offers no project archive: run the notebooks in the folder it was built in.")
        print(f"note: {note}", flush=True)
        return None, note
    name = f"puzzlelab-{commit}"
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "archive", "--format=tar.gz", f"--prefix={name}/",
                    "-o", str(folder / f"{name}.tar.gz"), "HEAD"], cwd=ROOT, check=True)
    dirty = git("status", "--porcelain", "--untracked-files=no")
    note = None
    if dirty:
        note = (f"This site was built from a working tree with uncommitted changes; the "
                f"archive holds commit {commit} without them, so a page may differ from the "
                f"notebook you run.")
        print(f"note: {note}", flush=True)
    return f"{name}.tar.gz", note


def run_page(archive: str | None, note: str | None) -> str:
    """The page "Run it": from the project archive to JupyterLab in three steps."""
    folder = archive.removesuffix(".tar.gz") if archive else "puzzlelab-<commit>"
    download = (f"{{download}}`{archive} <{PROJECT}/{archive}>`" if archive
                else "the archive a published site of the project offers")
    return "\n".join([
        "# Run it", "",
        "Every page here is a notebook executed beforehand. To run one yourself, with every "
        "widget live, you need the whole project: the notebooks import its package, "
        "`puzzlelab`, and read its cached tables in `data/`. It needs Python 3.11, `pip` and "
        "`make`.", "",
        f"1. Download the project: {download} (the package, notebooks, data, Makefile and "
        "README at the commit this site was built from).",
        f"2. Unpack it and go into it: `tar xzf {folder}.tar.gz`, then `cd {folder}`.",
        "3. Run `make lab`: it creates `.venv`, installs the package and JupyterLab, and "
        "opens JupyterLab on `notebooks/`; open a notebook and run it (without `make`: "
        "`python3.11 -m venv .venv`, `.venv/bin/pip install -e '.[notebooks]'`, "
        "`.venv/bin/jupyter lab notebooks`).", "",
        "A notebook downloaded alone from a page runs inside that folder: put it in "
        "`notebooks/` (its first cell says what is missing when it runs anywhere else). The "
        "project's README says more: how to recompute every table, the tests, the layout.",
        *(["", f"*{note}*"] if note else []), "",
    ])


def copy_assets() -> None:
    """Copy the JavaScript the pages need from site/node_modules into the site's _static."""
    if STATIC.exists():
        shutil.rmtree(STATIC)
    for source, target in ASSETS.items():
        origin, destination = MODULES / source, STATIC / target
        if not origin.exists():
            raise SystemExit(f"{origin} is missing: run `npm ci` in site/ (make site does)")
        destination.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, destination, ignore=shutil.ignore_patterns(*UNUSED))
        else:
            shutil.copy2(origin, destination)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds per cell (the cached tables make every cell quick)")
    args = parser.parse_args(argv)
    os.environ.setdefault("TQDM_DISABLE", "1")
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    EXECUTED.mkdir(parents=True, exist_ok=True)
    staged = False
    for notebook in notebooks:
        target, stamp = EXECUTED / notebook.name, EXECUTED / f"{notebook.stem}.inputs"
        inputs = fingerprint(notebook)
        if target.exists() and stamp.exists() and stamp.read_text() == inputs:
            continue
        print(f"executing a publishing copy of {notebook.relative_to(ROOT)} ...", flush=True)
        if not staged:
            stage()
            staged = True
        publish(STAGE / "notebooks" / notebook.name, target, args.timeout)
        stamp.write_text(inputs)
    if SOURCE.exists():
        shutil.rmtree(SOURCE)
    SOURCE.mkdir()
    (SOURCE / DOWNLOADS).mkdir()
    archive, note = pack_project(SOURCE / PROJECT)
    (SOURCE / f"{site_pages.RUN_PAGE}.md").write_text(run_page(archive, note))
    for notebook in notebooks:
        nbformat.write(page(notebook, archive), SOURCE / notebook.name)
        committed = nbformat.read(notebook, as_version=4)
        nbformat.write(site_pages.download_copy(committed, notebook.stem,
                                                archive or "puzzlelab-<commit>.tar.gz"),
                       SOURCE / DOWNLOADS / notebook.name)
    shutil.rmtree(BUILD / "figures", ignore_errors=True)  # Markdown links to ../figures resolve
    shutil.copytree(ROOT / "figures", BUILD / "figures")
    readme = (ROOT / "README.md").read_text()
    (SOURCE / "notebooks.md").write_text(notebooks_page(readme))
    (SOURCE / sources.BIBLIOGRAPHY).write_text(sources.bibliography_markdown(site=True))
    api = site_api.write_pages(SOURCE)
    names = [nb.stem for nb in notebooks if nb.stem != "index"]
    order = notebook_order(ROOT / "notebooks" / "index.ipynb", names)
    add_contents(SOURCE / "index.ipynb",
                 [*order, "notebooks", site_pages.RUN_PAGE, api, "references"])
    copy_assets()
    shutil.rmtree(HTML, ignore_errors=True)  # no page left from an earlier build
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
               "-c", str(SITE), "-d", str(BUILD / "doctrees"), str(SOURCE), str(HTML)]
    status = subprocess.call(command)
    # The figures as files beside the pages: the home page's gallery shows them by address
    # (../figures/x.png from notebooks/index.ipynb in JupyterLab, /figures/x.png on the site).
    shutil.rmtree(HTML / "figures", ignore_errors=True)
    shutil.copytree(ROOT / "figures", HTML / "figures", ignore=shutil.ignore_patterns("*.svg"))
    if status == 0:
        site_html.mend_site(HTML)
    return status


if __name__ == "__main__":
    sys.exit(main())
