"""The project archive the site offers (`make site`, tools/build_site.py) runs as the page "Run it"
says: unpacked in a scratch folder and installed into a fresh virtual environment, a notebook
executes from it, its first cell (the import check of a downloaded notebook) included.

Offline: the scratch environment reuses the test environment's packages (a `.pth` file adds
its site folder, as `venv --system-site-packages` does for a base interpreter) and installs
the unpacked project as an editable install does, by a `.pth` file naming its folder
(building it with pip would need setuptools >= 77, which pip fetches from an index). The
kernel's `puzzlelab` must come from the scratch folder, not from the test environment's.
"""

from __future__ import annotations

import os
import site
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import build_site  # noqa: E402  (tools/build_site.py)
import site_pages  # noqa: E402

NOTEBOOK = "index"  # the home notebook: quick with the cached tables
RUNNER = """\
import sys
import nbformat
from nbclient import NotebookClient

nb = nbformat.read(sys.argv[1], as_version=4)
nb.cells.append(nbformat.v4.new_code_cell("import puzzlelab\\nprint(puzzlelab.__file__)"))
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": sys.argv[2]}}).execute()
nbformat.write(nb, sys.argv[1])
"""


def scratch_env() -> dict[str, str]:
    """The environment of a reader's shell: no PYTHONPATH or PUZZLELAB_ROOT of ours."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PUZZLELAB_ROOT"}}
    return {**env, "TQDM_DISABLE": "1"}


def install(project: Path, venv: Path) -> Path:
    """A venv reusing this one's packages, with `project` first on its path; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                              "'purelib'))"], check=True, capture_output=True, text=True)
    ours = [p for p in site.getsitepackages() if p.startswith(sys.prefix)]
    lines = [str(project), *(f"import site; site.addsitedir({p!r})" for p in ours)]
    (Path(purelib.stdout.strip()) / "puzzlelab-project.pth").write_text("\n".join(lines) + "\n")
    return python


def test_the_archive_unpacks_installs_and_runs_a_notebook(tmp_path: Path):
    archive, _ = build_site.pack_project(tmp_path / "site")
    with tarfile.open(tmp_path / "site" / archive) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / "unpacked", filter="data")
    project = tmp_path / "unpacked" / archive.removesuffix(".tar.gz")
    for part in ["puzzlelab/__init__.py", "Makefile", "README.md", "pyproject.toml",
                 f"notebooks/{NOTEBOOK}.ipynb", "data/checksums"]:
        assert f"{project.name}/{part}" in names, f"the archive lacks {part}"
    python = install(project, tmp_path / "venv")
    notebook = project / "notebooks" / f"{NOTEBOOK}.ipynb"
    copy = site_pages.download_copy(nbformat.read(notebook, as_version=4), NOTEBOOK, archive)
    nbformat.write(copy, notebook)
    (tmp_path / "run.py").write_text(RUNNER)
    subprocess.run([str(python), str(tmp_path / "run.py"), str(notebook), str(notebook.parent)],
                   check=True, cwd=project, env=scratch_env(), timeout=900)
    ran = nbformat.read(notebook, as_version=4)
    errors = [o for c in ran.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors, errors[:1]
    where = "".join(o.get("text", "") for o in ran.cells[-1].outputs).strip()
    assert Path(where).is_relative_to(project), f"the kernel imported puzzlelab from {where}"


def test_a_downloaded_notebook_says_in_one_line_what_is_missing(tmp_path: Path):
    cell = site_pages.import_check_cell("hats", "puzzlelab-0123.tar.gz")
    script = textwrap.dedent(f"""\
        import sys
        sys.path = [p for p in sys.path if "site-packages" not in p]
        try:
            exec(compile({cell.source!r}, "cell", "exec"))
        except Exception as error:
            print(chr(10).join(error._render_traceback_()))
        else:
            print("no error")
        """)
    shown = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True,
                           text=True, cwd=tmp_path, check=True).stdout.strip()
    assert shown.count("\n") == 0 and shown.startswith("ProjectMissing: puzzlelab is not")
    for needed in ["puzzlelab-0123.tar.gz", "make lab", "pip install -e", "notebooks/hats.ipynb"]:
        assert needed in shown, f"the message lacks {needed!r}: {shown}"


def test_outside_a_git_checkout_the_site_offers_no_archive_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(build_site, "ROOT", tmp_path)  # no .git here
    archive, note = build_site.pack_project(tmp_path / "site")
    assert archive is None and "outside a git checkout" in note
    page = build_site.run_page(archive, note)
    assert "make lab" in page and note in page and "{download}" not in page
