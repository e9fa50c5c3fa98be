"""The `puzzlelab` command: its help, its one-line errors, the table list against data/, tables
rebuilt byte for byte (serially and on a Dask LocalCluster), a notebook re-run with progress.

Every command that could write runs in a scratch copy of the repository's data/ (PUZZLELAB_ROOT
points the command there); the real data/ is only read, and a test checks it is untouched.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from puzzlelab import cache, cli, long_runs, paths, progress, registry, runner

ROOT = Path(__file__).resolve().parents[1]
COMMAND = Path(sys.executable).parent / "puzzlelab"  # the installed entry point
SUBCOMMANDS = ("tables", "compute", "reproduce", "site", "bench", "references", "warm")
# Small tables, rebuilt in seconds: one through the notebook's function with a sweep, one
# through the table layer's run of a named table (`table_run`), one computed serially.
SMALL = ("hats_maximal_sets", "codebreaking_dyson", "russian_cards_sum_mod")


def run(*args: str, root: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """`puzzlelab ARGS` through the installed entry point (in `root` when given)."""
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in (cache.RECOMPUTE_ENV, cache.CHANGES_ENV)}
    env["TQDM_DISABLE"] = "1"
    if root is not None:
        env["PUZZLELAB_ROOT"] = str(root)
    return subprocess.run([str(COMMAND), *args], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=root or ROOT)


def fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "partial" not in p.parts}


@pytest.fixture(scope="module")
def real_data():
    """The real data/ before and after this module's tests: it must not change."""
    before = fingerprint(paths.DATA)
    yield paths.DATA
    assert fingerprint(paths.DATA) == before, "a test of the puzzlelab command wrote data/"


@pytest.fixture
def scratch(tmp_path, real_data):
    """A scratch repository root holding a copy of data/ (the command's PUZZLELAB_ROOT)."""
    shutil.copytree(real_data, tmp_path / "data", ignore=shutil.ignore_patterns("partial"))
    return tmp_path


def one_line_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("error: ")
    return done.stderr


# --- help and errors -----------------------------------------------------------------------------
def test_help_lists_every_subcommand_with_one_line():
    done = run("--help")
    assert done.returncode == 0, done.stderr
    for name in SUBCOMMANDS:
        assert re.search(rf"^\s+{name}\s*\n?\s+\w", done.stdout, re.M), (name, done.stdout)
    assert re.findall(r"^    (\w+)", done.stdout, re.M) == list(SUBCOMMANDS)


@pytest.mark.parametrize("args,message", [
    ((), "the following arguments are required"),
    (("frobnicate",), "invalid choice: 'frobnicate'"),
    (("compute",), "the following arguments are required: NAME"),
    (("compute", "hats_optima", "--workers", "0"), "must be an integer at least 1"),
    (("compute", "hats_optima", "--workers", "many"), "invalid int value"),
    (("tables", "chess"), "invalid choice: 'chess'"),
    (("reproduce", "--only", "chess"), "unknown notebook 'chess'; choose from"),
    (("bench", "chess"), "unknown benchmark 'chess'; choose from"),
])
def test_bad_arguments_end_with_one_line(args, message):
    assert message in one_line_error(run(*args))


def test_unknown_tables_are_refused_with_the_known_ones():
    error = one_line_error(run("compute", "hats_optima", "no_such_table"))
    assert "unknown table 'no_such_table'; known tables: " in error
    known = error.split("known tables: ")[1].strip().split(", ")
    assert set(known) == {n for n in set(registry.registered()) | set(registry.rebuilders())}


def test_site_and_bench_outside_a_checkout_say_what_is_missing(scratch):
    assert "needs its npm packages first: run `make site`" in one_line_error(
        run("site", root=scratch))
    assert "no benchmarks in" in one_line_error(run("bench", root=scratch))


def test_a_long_run_is_refused_unless_asked():
    error = one_line_error(run("compute", "hanabi_hat_games"))
    assert "long run" in error and "--long-run" in error
    assert registry.registered()["hanabi_hat_games"].command in error


def test_a_continued_long_run_says_its_time_left_itself_not_that_of_the_last_call(scratch):
    # a call may have run one batch, or none: its time is no estimate of the rest
    assert long_runs.is_continued("russian_cards_open_attempts")
    assert not long_runs.is_continued("hanabi_hat_games")  # a sweep: estimated from its last run
    done = run("compute", "russian_cards_open_attempts", "--long-run", "--scheduler",
               "tcp://127.0.0.1:1", "--connect-timeout", "1", root=scratch)
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in one_line_error(done)
    assert done.stdout.splitlines()[0] == (
        "computing 1 table(s): the long run russian_cards_open_attempts, whose time left is said"
        " after each batch")


def test_a_long_run_asked_for_runs_its_declared_function_on_the_scheduler(scratch):
    # the long run's function (tables.hat_games_run) takes the executor: the scheduler's
    # one-line error shows it was asked for
    error = one_line_error(run("compute", "hanabi_hat_games", "--long-run", "--scheduler",
                               "tcp://127.0.0.1:1", "--connect-timeout", "1", root=scratch))
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in error


# --- puzzlelab tables ----------------------------------------------------------------------------
def not_yet_run(data: Path) -> set[str]:
    """Declared long runs with no table in `data` yet (listed as missing, with their command)."""
    return {name for name, table in registry.registered().items()
            if table.long_run and not (data / f"{name}.csv").exists()}


def test_tables_lists_every_csv_in_data_with_a_command_that_rebuilds_it(real_data):
    listing = cli.table_list()
    committed = {p.stem for p in real_data.glob("*.csv")}
    assert sorted(listing.name) == sorted(committed | not_yet_run(real_data))
    assert (listing.file == "data/" + listing.name + ".csv").all()
    states = listing.set_index("name").state
    assert (states[sorted(committed)] == "ok").all(), listing[listing.state != "ok"]
    assert (states[sorted(not_yet_run(real_data))] == "missing").all()
    for row in listing[listing.name.isin(committed)].itertuples():
        meta = cache.table_metadata(row.name)
        assert row.rows == meta["rows"] and row._6 == meta["computed_at"], row
    parser = cli.parser()
    known = set(registry.registered()) | set(registry.rebuilders())
    for row in listing[listing.name.isin(committed)].itertuples():  # the sidecar's own command
        words = row.rebuild.split()  # after any variable it needs (a peer's folder)
        start = words.index("puzzlelab")
        args = parser.parse_args(words[start + 1:])
        assert args.run in (cli.compute, cli.bench), row.rebuild
        assert all(n in known or (ROOT / "benchmarks" / f"bench_{n}.py").exists()
                   for n in args.names), row.rebuild
        assert row.rebuild == cache.table_metadata(row.name)["command"], row


def test_tables_prints_every_table_and_one_puzzle(real_data):
    done = run("tables")
    assert done.returncode == 0, done.stderr
    shown = {line.split()[0] for line in done.stdout.splitlines()[1:-1]}
    assert shown == {p.stem for p in real_data.glob("*.csv")} | not_yet_run(real_data)
    hats = run("tables", "hats").stdout.splitlines()[1:-1]
    assert hats and all(line.split()[1] == "hats" for line in hats)


def test_a_damaged_table_is_listed_as_changed(scratch, monkeypatch):
    monkeypatch.setattr(cache, "DATA", scratch / "data")
    csv = scratch / "data" / "kemps_claims_20.csv"
    csv.write_bytes(csv.read_bytes() + b"\n")
    (scratch / "data" / "checksums" / "kemps_valve_52.json").unlink()
    states = cli.table_list("kemps").set_index("name").state
    assert states["kemps_claims_20"] == "changed"
    assert states["kemps_valve_52"] == "missing metadata"
    assert states["kemps_claims_28"] == "ok"


def test_a_machine_recorded_wrongly_is_bad_metadata(scratch, monkeypatch):
    monkeypatch.setattr(cache, "DATA", scratch / "data")
    path = scratch / "data" / "checksums" / "kemps_valve_52.json"
    meta = json.loads(path.read_text())
    for wrong in ({"cores": 0, "python": "3.12", "numpy": None, "numba": None}, {"cores": 2},
                  "a laptop"):
        path.write_text(json.dumps({**meta, "machine": wrong}))
        assert cli.table_list("kemps").set_index("name").state["kemps_valve_52"] == "bad metadata"
    path.write_text(json.dumps({**meta, "machine": {"cores": 2, "python": "3.12.1",
                                                    "numpy": "2.0", "numba": None}}))
    assert cli.table_list("kemps").set_index("name").state["kemps_valve_52"] == "ok"


# --- puzzlelab compute ---------------------------------------------------------------------------
@pytest.mark.parametrize("executor", [(), ("--scheduler", "local", "--workers", "2")],
                         ids=["serial", "local-cluster"])
def test_compute_rebuilds_small_tables_byte_for_byte(scratch, real_data, executor):
    names = SMALL if not executor else SMALL[:2]
    for name in names:  # rebuilt from nothing: the file and its checksum must come back the same
        (scratch / "data" / f"{name}.csv").unlink()
    done = run("compute", *names, *executor, root=scratch)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(f"computing {len(names)} table(s): ")
    for name in names:
        assert f"{name}: table" in out and f"{name}: done in" in out, out
        assert f"wrote data/{name}.csv" in out, out
        for path in (f"{name}.csv", f"checksums/{name}.sha256"):
            assert (scratch / "data" / path).read_bytes() == (real_data / path).read_bytes(), path
        meta = json.loads((scratch / "data" / "checksums" / f"{name}.json").read_text())
        assert meta["command"] == f"puzzlelab compute {name}", meta  # the command that ran
        assert 0 <= meta["seconds"] <= 600 and meta["machine"]["cores"] == os.cpu_count(), meta
        assert meta["machine"]["numpy"] == np.__version__, meta
    measured = json.loads((scratch / ".puzzlelab" / "times.json").read_text())["tables"]
    assert set(measured) == set(names)
    assert not (scratch / "tools" / "expected_times.json").exists()
    again = run("compute", *names[:1], root=scratch)  # the same bytes again: no file written
    assert f"unchanged: data/{names[0]}.csv has the same bytes" in again.stdout, again.stdout
    assert re.match(r"computing 1 table\(s\): about \d+ (s|min) on 1 core\n", again.stdout)


def test_a_recompute_to_the_same_bytes_records_unknown_seconds_and_machine(scratch):
    csv = scratch / "data" / "russian_cards_sum_mod.csv"
    sidecar = scratch / "data" / "checksums" / "russian_cards_sum_mod.json"
    meta = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps({**meta, "seconds": None, "machine": None}))
    data = csv.read_bytes()
    done = run("compute", "russian_cards_sum_mod", root=scratch)
    assert "same bytes (55 rows), its metadata now records the seconds and machine" in done.stdout
    after = json.loads(sidecar.read_text())
    assert csv.read_bytes() == data and after["sha256"] == meta["sha256"]
    assert after["seconds"] >= 0 and after["machine"]["cores"] == os.cpu_count(), after
    recorded = sidecar.read_bytes()
    again = run("compute", "russian_cards_sum_mod", root=scratch)  # a known run is kept
    assert "same bytes (55 rows), no file written" in again.stdout, again.stdout
    assert sidecar.read_bytes() == recorded


def test_compute_rebuilds_a_table_read_from_another_as_committed(scratch, real_data):
    """The orbit table is what the orbits improve in the smallest announcements: rebuilt from
    the table they already improved, it came out empty (14 rows before, 0 after)."""
    name = "russian_cards_min_size_orbits"
    done = run("compute", name, root=scratch)
    assert done.returncode == 0, done.stderr
    assert "CHANGED" not in done.stdout and f"unchanged: data/{name}.csv" in done.stdout
    assert (scratch / "data" / f"{name}.csv").read_bytes() == (real_data / f"{name}.csv"
                                                               ).read_bytes()


def test_compute_reports_a_table_it_changed(scratch):
    csv = scratch / "data" / "russian_cards_sum_mod.csv"
    lines = csv.read_text().splitlines(keepends=True)
    edited = "".join(lines[:-1])  # a committed table with its last row lost, checksum updated
    csv.write_text(edited)
    meta_path = scratch / "data" / "checksums" / "russian_cards_sum_mod.json"
    meta = json.loads(meta_path.read_text())
    meta.update(sha256=hashlib.sha256(edited.encode()).hexdigest(), rows=meta["rows"] - 1)
    meta_path.write_text(json.dumps(meta))
    (scratch / "data" / "checksums" / "russian_cards_sum_mod.sha256").write_text(
        f"{meta['sha256']}  russian_cards_sum_mod.csv\n")
    done = run("compute", "russian_cards_sum_mod", root=scratch)
    assert done.returncode == 0, done.stderr
    assert re.search(r"CHANGED data/russian_cards_sum_mod.csv changed: (\d+) rows before, "
                     r"(\d+) after", done.stdout), done.stdout
    assert csv.read_bytes() == (paths.DATA / "russian_cards_sum_mod.csv").read_bytes()


def test_compute_fresh_discards_finished_chunks(scratch):
    chunks = scratch / "data" / "partial" / "russian_cards_sum_mod"
    chunks.mkdir(parents=True)
    (chunks / "chunk.csv").write_text("x\n1\n")
    done = run("compute", "russian_cards_sum_mod", "--fresh", root=scratch)
    assert done.returncode == 0, done.stderr
    assert "discarded the finished chunks in data/partial/russian_cards_sum_mod/" in done.stdout
    assert not chunks.exists()


def test_compute_says_which_tables_take_no_workers(scratch):
    """A table computed in one process is named when workers or a scheduler were asked for (the
    scheduler is not contacted for it)."""
    done = run("compute", "russian_cards_sum_mod", "--scheduler", "tcp://127.0.0.1:1",
               root=scratch)
    assert done.returncode == 0, done.stderr
    assert ("russian_cards_sum_mod: computed in this process on one core (no sweep to spread); "
            "--scheduler applies to the other tables only") in done.stdout, done.stdout
    quiet = run("compute", "russian_cards_sum_mod", root=scratch)
    assert "computed in this process" not in quiet.stdout, quiet.stdout


def test_the_readmes_parallel_compute_examples_run_on_their_workers():
    """Every `puzzlelab compute NAME ... --workers|--scheduler` line of the README names tables
    whose rebuild takes the executor (the grid's was serial whatever was asked)."""
    builds = registry.rebuilders()
    lines = [line.split("#")[0].split() for line in (ROOT / "README.md").read_text().splitlines()
             if line.startswith("puzzlelab compute ") and ("--workers" in line or "--scheduler" in line)]
    assert lines
    for words in lines:
        for name in (w for w in words[2:] if not w.startswith("-") and not w.isdigit()
                     and w != "local" and "://" not in w):
            assert "executor" in inspect.signature(builds[name]).parameters, name


def test_recomputing_rebuilds_the_named_table_only(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    calls = []

    def table(name: str) -> pd.DataFrame:
        return cache.cached_table(name, lambda: calls.append(name) or pd.DataFrame({"x": [1]}))
    with pytest.warns(cache.CacheWarning, match="is missing: computing it now"):
        table("a"), table("b")
    with cache.recomputing("a"):
        table("a"), table("b")
    table("a")
    assert calls == ["a", "b", "a"] and not cache.recompute_requested("a")


# --- puzzlelab reproduce -------------------------------------------------------------------------
def test_reproduce_one_notebook_shows_progress_and_a_summary(scratch):
    for folder in ("notebooks", "figures"):
        shutil.copytree(ROOT / folder, scratch / folder)
    done = run("reproduce", "--only", "index", root=scratch)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "running 1 notebook(s), reading data/: no earlier run to go by"
    cells = sum(1 for c in json.loads((ROOT / "notebooks" / "index.ipynb").read_text())["cells"]
                if c["cell_type"] == "code" and "".join(c["source"]).strip())
    assert re.search(rf"index: cell 1 of {cells}, \d+:\d\d elapsed", done.stdout), done.stdout
    assert "summary:" in lines and "  tables rewritten: none" in lines
    assert "  files this run rewrote: 0" in lines  # the notebook is saved as it was committed
    assert "  committed files: not a git checkout, cannot tell" in lines
    measured = json.loads((scratch / ".puzzlelab" / "times.json").read_text())
    assert set(measured["notebooks (cached)"]) == {"index"}
    second = run("reproduce", "--only", "index", root=scratch)  # expected from the last run
    assert re.match(r"running 1 notebook\(s\), reading data/: about \d+ (s|min)\n", second.stdout)
    assert re.search(r"index: cell 1 of \d+, \d+:\d\d elapsed, expected about", second.stdout)
    assert not (scratch / "tools").exists()  # committed expectations only with --record-times


def test_times_are_committed_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path / "data")
    committed, measured = runner.times_files()
    runner.record_seconds("tables", "t", 61.0, workers=2)
    assert not committed.exists() and runner.expected_seconds("tables", "t")["seconds"] == 61.0
    runner.record_seconds("tables", "t", 30.0, commit=True)
    assert json.loads(committed.read_text())["tables"]["t"]["seconds"] == 30.0
    assert runner.expected_seconds("tables", "u") is None
    assert [progress.duration(s) for s in (0.2, 59, 61, 3600 + 600)] == ["0 s", "59 s", "1 min",
                                                                       "1 h 10 min"]
    assert [runner.clock(s) for s in (7.9, 155, 3723)] == ["0:07", "2:35", "1:02:03"]


# --- the README's commands -----------------------------------------------------------------------
def test_the_readme_commands_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = "\n".join(re.findall(r"```bash\n(.*?)```", readme, re.S))
    commands = [line.split("#")[0].strip() for line in blocks.splitlines()]
    targets = set(re.findall(r"^([\w.-]+):", (ROOT / "Makefile").read_text(), re.M))
    parser = cli.parser()
    seen = set()
    for command in filter(None, commands):
        words = shlex.split(command.split(" > ")[0])  # the command, not where its output goes
        if words[0] == "make":
            assert words[1] in targets, command
        elif words[0] == "puzzlelab":
            args = parser.parse_args(words[1:])  # a ValueError for anything it does not take
            if args.run is cli.compute:
                assert set(args.names) <= set(registry.registered()) | set(registry.rebuilders())
        seen.add(words[0] if words[0] != "make" else f"make {words[1]}")
    assert {"make reproduce", "make test", "puzzlelab"} <= seen


def test_a_kernel_that_stops_working_is_killed_and_the_notebook_run_again(tmp_path, capsys):
    """A cell whose kernel uses no CPU for `idle` seconds is taken for a stuck kernel (seen on
    overloaded machines): the notebook runs again with a fresh kernel, then the run gives up."""
    import nbformat
    from puzzlelab import runner

    path = tmp_path / "stuck.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import time; time.sleep(600)")])
    nbformat.write(nb, path)
    start = time.monotonic()
    with pytest.raises(runner.StuckKernel, match="no CPU for 3 s"):
        runner.run_notebook(path, timeout=600, idle=3, every=60)
    assert time.monotonic() - start < 300  # far below the cell's 600 s: the watchdog ended it
    assert "running" in capsys.readouterr().out  # the first stuck kernel was retried


def test_a_kernel_that_dies_is_said_to_have_died_and_the_notebook_run_again(tmp_path, capsys):
    """A killed kernel is reported as such, not as a cell past its time limit."""
    import nbformat
    from nbclient.exceptions import DeadKernelError
    from puzzlelab import runner

    path = tmp_path / "dies.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import os; os._exit(1)")])
    nbformat.write(nb, path)
    with pytest.raises(DeadKernelError):
        runner.run_notebook(path, timeout=600, every=60)
    said = capsys.readouterr().out
    assert f"the kernel died; running {path} again" in said and "ran past" not in said


def test_a_busy_kernel_is_not_taken_for_a_stuck_one(tmp_path):
    import nbformat
    from puzzlelab import runner

    path = tmp_path / "busy.ipynb"
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 8: pass\n1 + 1"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(busy)]), path)
    runner.run_notebook(path, timeout=600, idle=3, every=60, tries=1)
    assert nbformat.read(path, as_version=4).cells[0].outputs[0]["data"]["text/plain"] == "2"


def test_notebook_kernels_talk_over_sockets_of_their_own_run(tmp_path):
    """The kernel's connection uses Unix sockets in a folder of the run (no TCP port another
    notebook started at the same moment could take), removed when the notebook ends."""
    import nbformat
    from puzzlelab import runner

    config = runner.private_sockets(tmp_path)
    assert config.KernelManager.transport == "ipc"
    assert Path(config.KernelManager.ip).parent == tmp_path
    path = tmp_path / "where.ipynb"
    ask = "import json, ipykernel\njson.load(open(ipykernel.get_connection_file()))['transport']"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(ask)]), path)
    before = set(Path(tempfile.gettempdir()).glob("puzzlelab-kernel-*"))
    runner.run_notebook(path, timeout=600, tries=1)
    assert nbformat.read(path, as_version=4).cells[0].outputs[0]["data"]["text/plain"] == "'ipc'"
    assert set(Path(tempfile.gettempdir()).glob("puzzlelab-kernel-*")) <= before


def test_repeating_calls_its_action_until_it_says_stop_or_the_block_ends():
    """runner.repeating, the one timer thread under Progress.ticking and Watchdog.watching."""
    calls = []
    with runner.repeating(0.01, lambda: calls.append(1) or len(calls) == 3):
        time.sleep(0.5)
    assert len(calls) == 3  # it stopped when the action said True
    with runner.repeating(1000, lambda: calls.append(1)):
        pass
    assert len(calls) == 3  # a block shorter than one period never calls it
    with pytest.raises(ValueError, match="seconds"):
        runner.repeating(0, lambda: None)  # refused when called, before any block is entered
    with pytest.raises(ValueError, match="action"):
        runner.repeating(1, float("nan"))
