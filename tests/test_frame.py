"""The notebook frame: caching, deterministic figures, and clean committed notebooks."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from puzzlelab import cache, figures, progress

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture
def tmp_root(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path / "data")
    monkeypatch.setattr(figures, "FIGURES", tmp_path / "figures")
    return tmp_path


def test_cached_table_computes_once_then_reads(tmp_root, monkeypatch):
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    calls = []

    def compute():
        calls.append(1)
        return pd.DataFrame({"n": [1, 2], "x": [0.1, 1 / 3]})

    first = cache.cached_table("t", compute)
    second = cache.cached_table("t", compute)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(first, second)
    monkeypatch.setenv(cache.RECOMPUTE_ENV, "1")
    cache.cached_table("t", compute)
    assert len(calls) == 2


def test_cache_rejects_bad_names_and_non_frames(tmp_root):
    with pytest.raises(ValueError, match="plain file stem"):
        cache.data_path("../escape")
    with pytest.raises(ValueError, match="must return a DataFrame"):
        cache.cached_table("bad", lambda: [1, 2], recompute=True)


def test_saved_figures_are_byte_identical_across_runs(tmp_root):
    def draw():
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [2, 0, 1], label="line")
        ax.legend()
        return fig

    first = [p.read_bytes() for p in figures.save_figure(draw(), "f")]
    second = [p.read_bytes() for p in figures.save_figure(draw(), "f")]
    assert first == second
    assert b"<dc:date>" not in first[1]


def test_progress_bar_honours_tqdm_disable(monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "1")
    assert progress.tqdm(range(3)).disable
    monkeypatch.setenv("TQDM_DISABLE", "")
    with open(os.devnull, "w") as sink:
        assert not progress.tqdm(range(3), file=sink).disable


def test_every_module_takes_its_progress_bars_from_puzzlelab_progress():
    """tqdm.auto's notebook bar ignores TQDM_DISABLE: a direct import puts a bar in the outputs
    of `make reproduce`."""
    package = Path(progress.__file__).parent
    direct = [str(p.relative_to(package)) for p in sorted(package.rglob("*.py"))
              if p != Path(progress.__file__)
              and re.search(r"^\s*(from tqdm\b|import tqdm\b)", p.read_text(), flags=re.M)]
    assert direct == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebook_is_executed_in_order_and_clean(path):
    nb = json.loads(path.read_text())
    assert "widgets" not in nb["metadata"], "widget state must be stripped"
    counts = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or not "".join(cell["source"]).strip():
            continue
        assert "execution" not in cell["metadata"], "timing metadata must be stripped"
        counts.append(cell["execution_count"])
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"error output in {path.name}"
            text = json.dumps(out)
            assert not re.search(r"/(?:work|tmp|root|home)/", text), f"machine path in {path.name}"
            assert not re.search(r"\d+%\|", text), f"progress bar in an output of {path.name}"
    assert counts and None not in counts and counts == sorted(counts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_in_a_notebook_is_shown_as_a_picture(path):
    """A returned Figure must render inline (image/png), not only as its text repr."""
    nb = json.loads(path.read_text())
    outputs = [out for cell in nb["cells"] if cell["cell_type"] == "code" for out in cell.get("outputs", [])]
    figures = [out for out in outputs if "<Figure size" in "".join(out.get("data", {}).get("text/plain", []))]
    assert all("image/png" in out["data"] for out in figures), f"a figure of {path.name} has no picture"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_exported_figure_is_also_shown_in_its_notebook(path):
    """figures/<notebook>_*.png are drawn by that notebook: it shows at least as many pictures."""
    exported = {p.stem for p in (ROOT / "figures").glob(f"{path.stem}_*.png")}
    nb = json.loads(path.read_text())
    shown = sum("image/png" in out.get("data", {}) for cell in nb["cells"] for out in cell.get("outputs", []))
    assert shown >= len(exported), f"{path.name} shows {shown} pictures but exports {sorted(exported)}"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem != "index"], ids=lambda p: p.name)
def test_notebook_ends_with_where_we_differ_section(path):
    """The story ends with "Where we differ from the source"; only appendices may follow it."""
    nb = json.loads(path.read_text())
    headings = [
        line for cell in nb["cells"] if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines() if line.startswith("## ")
    ]
    story = [h for h in headings if not h.startswith("## Appendix")]
    assert story and re.match(r"## (?:[A-Z0-9]+\. )?Where we differ from the source", story[-1])
    after = headings[headings.index(story[-1]) + 1:]
    assert all(h.startswith("## Appendix") for h in after), after


def knapsack_model():
    """A 0/1 knapsack small enough to check by enumerating all 2**8 choices."""
    from ortools.sat.python import cp_model

    weights, values, capacity = [5, 7, 3, 9, 4, 6, 2, 8], [9, 11, 4, 15, 6, 8, 3, 12], 20
    model = cp_model.CpModel()
    take = [model.NewBoolVar(f"x{i}") for i in range(8)]
    model.Add(sum(w * x for w, x in zip(weights, take)) <= capacity)
    model.Maximize(sum(v * x for v, x in zip(values, take)))
    best = max(
        sum(v for v, bit in zip(values, range(8)) if mask >> bit & 1)
        for mask in range(256)
        if sum(w for w, bit in zip(weights, range(8)) if mask >> bit & 1) <= capacity
    )
    return model, take, best


def test_cp_sat_adapter_matches_enumeration_and_is_reproducible():
    from puzzlelab.solvers import solve

    model, take, best = knapsack_model()
    first = solve(model, time_limit=10, deterministic_limit=5.0)
    again = solve(model, time_limit=10, deterministic_limit=5.0)
    assert first.optimal and first.objective == best == again.objective
    assert [first.value(x) for x in take] == [again.value(x) for x in take]


def test_cp_sat_adapter_reports_proven_infeasibility():
    from ortools.sat.python import cp_model

    from puzzlelab.solvers import solve

    model = cp_model.CpModel()
    x = model.NewIntVar(0, 3, "x")
    model.Add(2 * x == 5)
    result = solve(model, time_limit=5)
    assert result.infeasible and not result.feasible


def test_the_wall_clock_net_scales_with_patience_and_refuses_a_bad_factor(monkeypatch):
    from puzzlelab import solvers

    monkeypatch.delenv(solvers.PATIENCE_ENV, raising=False)
    plain = solvers.wall_cap(7.0)
    assert plain == solvers.BASE_SECONDS + 7.0 * solvers.SECONDS_PER_UNIT
    monkeypatch.setenv(solvers.PATIENCE_ENV, "100")
    assert solvers.wall_cap(7.0) == 100 * plain
    for bad in ("0.5", "fast", "inf", "nan"):
        monkeypatch.setenv(solvers.PATIENCE_ENV, bad)
        with pytest.raises(ValueError, match="PUZZLELAB_WALL_PATIENCE must be a number >= 1"):
            solvers.wall_cap(7.0)


def test_runner_strips_volatile_outputs_but_keeps_benchmark_tables():
    """tools/run_notebooks.clean: ignore-output cells lose their outputs unless also tagged keep-output."""
    import importlib.util

    from nbformat.v4 import new_code_cell, new_notebook, new_output

    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "tools" / "run_notebooks.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    out = new_output("execute_result", data={"text/plain": "42"}, execution_count=1)
    cells = [new_code_cell("1", metadata={"tags": tags, "execution": {"iopub.status.idle": "2026-01-01T00:00:00Z"}}, outputs=[out])
             for tags in ([], ["nbval-ignore-output"], ["nbval-ignore-output", "keep-output"])]
    nb = runner.clean(new_notebook(cells=cells, metadata={"widgets": {"state": 1}}))
    assert [len(c.outputs) for c in nb.cells] == [1, 0, 1]
    assert "widgets" not in nb.metadata and all("execution" not in c.metadata for c in nb.cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_benchmark_tables_are_kept_but_not_compared(path):
    """A cell that reads data/bench_*.csv shows machine timings: nbval skips it, the runner keeps it."""
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and re.search(r"read_table\(\s*[\"']bench_", source):
            tags = cell["metadata"].get("tags", [])
            assert {"nbval-ignore-output", "keep-output"} <= set(tags), f"{path.name}: {source[:60]!r}"


def test_source_texts_are_found_or_named_in_a_clear_error():
    from puzzlelab import paths

    sources = ROOT.parent / "shared" / "sources"
    if sources.exists():  # beside the repository, as in the project's own workspace
        name = next(p.name for p in sorted(sources.glob("*.txt")))
        assert paths.source_text(name) == (sources / name).read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="source text no-such-source.txt not found"):
        paths.source_text("no-such-source.txt")


def test_source_tables_stand_without_the_source_and_are_reparsed_with_it(tmp_root, monkeypatch):
    from puzzlelab import paths

    parsed = []

    def parse(text: str) -> pd.DataFrame:
        parsed.append(text)
        return pd.DataFrame({"words": [len(text.split())]})

    source_dir = tmp_root / "sources"
    source_dir.mkdir()
    (source_dir / "doc.txt").write_text("three little words")
    monkeypatch.setattr(paths, "SOURCES", (source_dir,))
    monkeypatch.setenv(cache.RECOMPUTE_ENV, "1")
    assert cache.cached_source_table("t", "doc.txt", parse).words.tolist() == [3] and len(parsed) == 1
    (source_dir / "doc.txt").unlink()  # recompute asked for, source gone: the cached copy stands
    assert cache.cached_source_table("t", "doc.txt", parse).words.tolist() == [3] and len(parsed) == 1
    with pytest.raises(ValueError, match="source text doc.txt not found"):
        cache.cached_source_table("other", "doc.txt", parse)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_opened_and_saved_in_jupyterlab_changes_no_byte(path, tmp_path):
    """`make lab` saves through runner.lab_pre_save: the kernel's name and version, which
    JupyterLab fills in when it opens a notebook, and view state are not written back."""
    import shutil

    from jupyter_server.services.contents.filemanager import FileContentsManager

    from puzzlelab import runner

    def open_and_save(**hook: str) -> bytes:
        shutil.copy(path, tmp_path / path.name)
        manager = FileContentsManager(root_dir=str(tmp_path), **hook)
        model = manager.get(path.name)
        meta = model["content"].metadata  # as JupyterLab sets it when the kernel starts
        meta.kernelspec.display_name = "Python 3 (ipykernel)"
        meta.language_info.update(version="3.11.7", pygments_lexer="ipython3")
        model["content"].cells[0].metadata["collapsed"] = False
        manager.save(model, path.name)
        return (tmp_path / path.name).read_bytes()

    assert open_and_save(pre_save_hook="puzzlelab.runner.lab_pre_save") == path.read_bytes()
    assert open_and_save() != path.read_bytes()  # what the hook prevents
    with pytest.raises(TypeError, match="contents model"):
        runner.lab_pre_save(["not", "a", "model"])
