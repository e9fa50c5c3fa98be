"""Nothing lost, nothing runaway (issue 27, defects 1-6): worker limits, Dask errors in one line,
commands that never replace a committed table, atomic writes, self-describing chunks, caches
that serve no stale or inconsistent table."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

from puzzlelab import cache, checks, cli, paths, registry, sweeps, table_files

PYTHON = sys.executable
ROOT = Path(__file__).resolve().parents[1]
# `puzzlelab compute` on one table of each kind of run (each sweep and long run of a puzzle).
COMMANDS = {
    "hats_optima": [],
    "russian_cards_grid": [],
    "codebreaking_dyson": [],
    "codebreaking_optimal_sizes": [],
    "kemps_tournament_28": [],
    "kemps_million_28": ["--long-run"],
    "hanabi_hint_capacity": [],
    "hanabi_hat_games": ["--long-run"],
}


def main_of(table: str):
    """`puzzlelab compute TABLE ...` as a function of the further arguments (a ValueError for
    a refused request, as the command's one line of error says)."""
    def run(argv: list[str]) -> None:
        args = cli.parser().parse_args(["compute", table, *argv])
        args.run(args)
    return run


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    monkeypatch.delenv(cache.CHANGES_ENV, raising=False)
    return tmp_path


@pytest.fixture
def no_processes(monkeypatch):
    """Fail any attempt to start a local process pool (the limit must refuse first)."""
    def refuse(workers=None, *args, **kwargs):
        raise AssertionError(f"a process pool of {workers} workers was started")
    monkeypatch.setattr(sweeps, "ProcessPoolExecutor", refuse)


def copy_committed(name: str, to: Path) -> None:
    """data/<name>.csv with its checksum and metadata, copied into the folder `to`."""
    (to / cache.CHECKSUMS).mkdir(exist_ok=True)
    shutil.copy(paths.DATA / f"{name}.csv", to / f"{name}.csv")
    for suffix in ("sha256", "json"):
        source = paths.DATA / cache.CHECKSUMS / f"{name}.{suffix}"
        if source.exists():
            shutil.copy(source, to / cache.CHECKSUMS / f"{name}.{suffix}")


def files_of(name: str, folder: Path) -> dict[str, bytes]:
    found = [folder / f"{name}.csv", *(folder / cache.CHECKSUMS).glob(f"{name}.*")]
    return {p.name: p.read_bytes() for p in found if p.exists()}


def _square_row(p: int) -> dict:
    return {"p": p, "square": p * p}


# --- 1. worker limits ---------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [10**6, 10**20, checks.worker_limit() + 1])
def test_too_many_workers_are_refused_before_any_process_starts(workers, no_processes, data_dir):
    for run in (functools.partial(sweeps.sweep, abs, [1, -2]),
                functools.partial(sweeps.sweep_table, "limit", _square_row, [1, 2])):
        with pytest.raises(ValueError, match=f"limit of {checks.worker_limit()} worker processes"
                                             f".*{checks.MAX_WORKERS_ENV}"):
            run(workers=workers)


@pytest.mark.parametrize("workers", [0, -1])
def test_no_workers_is_refused(workers, no_processes):
    with pytest.raises(ValueError, match="workers must be an integer at least 1"):
        sweeps.sweep(abs, [1], workers=workers)


def test_a_pool_never_has_more_processes_than_tasks(monkeypatch):
    started = []
    real = sweeps.ProcessPoolExecutor

    def recording(workers, *args, **kwargs):
        started.append(workers)
        return real(workers, *args, **kwargs)

    monkeypatch.setattr(sweeps, "ProcessPoolExecutor", recording)
    assert sweeps.sweep(abs, [-1, -2], workers=checks.worker_limit()) == [1, 2]
    assert sweeps.sweep(abs, [-1], workers=2) == [1]  # one task: no pool at all
    assert started == [2]


def test_the_limit_is_a_multiple_of_the_cores_and_an_environment_variable_moves_it(monkeypatch):
    monkeypatch.delenv(checks.MAX_WORKERS_ENV, raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert checks.worker_limit() == checks.WORKERS_PER_CORE * cores
    monkeypatch.setenv(checks.MAX_WORKERS_ENV, "3")
    assert checks.worker_limit() == 3 and checks.workers(3) == 3
    with pytest.raises(ValueError, match=f"limit of 3 worker processes \\(set by "
                                         f"{checks.MAX_WORKERS_ENV}\\)"):
        checks.workers(4)
    monkeypatch.setenv(checks.MAX_WORKERS_ENV, "5000")
    assert checks.workers(4000) == 4000
    for bad in ("0", "-2", "many", "1.5"):
        monkeypatch.setenv(checks.MAX_WORKERS_ENV, bad)
        with pytest.raises(ValueError, match=checks.MAX_WORKERS_ENV):
            checks.workers(1)
    with pytest.raises(checks.ArgumentTypeError, match="workers must be an integer"):
        checks.workers(1.5)


# --- 2. command lines: workers and schedulers refused in one line -------------------------------
@pytest.mark.parametrize("module", COMMANDS)
@pytest.mark.parametrize("bad", [["--scheduler", "local", "--workers", "0"],
                                 ["--scheduler", "local", "--workers", "-1"],
                                 ["--workers", "100000"], ["--workers", str(10**20)]])
def test_every_command_refuses_a_bad_number_of_workers_at_once(module, bad, no_processes,
                                                               data_dir):
    main = main_of(module)
    start = time.perf_counter()
    with pytest.raises(ValueError, match="argument --workers: the number of workers (must be"
                                         "|= [0-9]+ is more than the limit)"):
        main(COMMANDS[module] + bad)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("module", COMMANDS)
def test_every_command_names_an_unreachable_scheduler_within_its_timeout(module, data_dir):
    main = main_of(module)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler at "
                                         r"tcp://127\.0\.0\.1:1 within 1 s"):
        main(COMMANDS[module] + ["--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "1"])
    assert time.perf_counter() - start < 15
    assert not list(data_dir.glob("*.csv"))


def _run_all(extra: list[str]) -> dict[str, subprocess.CompletedProcess]:
    """Every command line run with `extra`, all at once, in a data folder of its own."""
    env = dict(os.environ, TQDM_DISABLE="1")
    running = {m: subprocess.Popen([PYTHON, "-m", "puzzlelab.cli", "compute", m, *COMMANDS[m],
                                    *extra], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for m in COMMANDS}
    done = {}
    for m, proc in running.items():
        out, err = proc.communicate(timeout=120)
        done[m] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    return done


@pytest.mark.parametrize("extra,says", [
    (["--scheduler", "local", "--workers", "0"], "the number of workers must be an integer at "
                                                 "least 1, got 0"),
    (["--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler at "
                                           "tcp://127.0.0.1:1 within 5 s"),
])
def test_the_commands_end_with_one_line_and_no_traceback(extra, says):
    start = time.perf_counter()
    for module, run in _run_all(extra).items():
        assert run.returncode != 0, module
        assert run.stderr.splitlines() == [run.stderr.strip()], (module, run.stderr)
        assert run.stderr.startswith("error: ") and says in run.stderr, (module, run.stderr)
        assert "Traceback" not in run.stderr + run.stdout
    assert time.perf_counter() - start < 90  # seven at once on two cores, each within seconds


# --- 3. commands never replace a committed table with another one -------------------------------
def test_a_grid_with_no_cells_is_refused_and_a_smaller_one_gets_its_own_name(data_dir):
    from puzzlelab.russian_cards import grid as rg
    from puzzlelab.russian_cards import tables as rt

    copy_committed("russian_cards_grid", data_dir)
    before = files_of("russian_cards_grid", data_dir)
    with pytest.raises(ValueError, match=r"no cell has c in \[7\]"):
        rt.grid_run(c=[7], n_max=5)
    small = rt.grid_run(c=[1], n_max=5)
    assert files_of("russian_cards_grid", data_dir) == before
    assert len(cache.read_table("russian_cards_grid_n1_5_c1")) == len(small) == len(rg.cells(1, 5))
    assert cache.table_metadata("russian_cards_grid_n1_5_c1")["params"] == {
        "c": [1], "n_min": 1, "n_max": 5}
    assert len(cache.read_table(rt.GRID)) == len(pd.read_csv(paths.DATA / "russian_cards_grid.csv"))


def test_a_declared_table_is_never_written_with_other_parameters(data_dir):
    from puzzlelab.hats.tables import OPTIMA
    from puzzlelab.kemps import tables as kemps_tables

    other = cache.Table(OPTIMA.name, params={**OPTIMA.params, "max_n": 3})
    with pytest.raises(ValueError, match="hats_optima.csv is the table of version 1.*max_n: 3 "
                                         "instead of 8.*needs a name of its own"):
        cache.write_table(pd.DataFrame({"x": [1]}), other)
    assert OPTIMA.variant(max_n=3).name == "hats_optima_max_n3"
    assert OPTIMA.variant(max_n=8) is OPTIMA
    copy_committed("kemps_million_28", data_dir)
    before = files_of("kemps_million_28", data_dir)
    with pytest.raises(ValueError, match="a name of their own"):  # before any deal is played
        kemps_tables.sums_run(name="kemps_million_28", deals=4)
    assert files_of("kemps_million_28", data_dir) == before


def test_a_table_of_another_command_is_not_replaced_by_other_parameters(data_dir):
    cache.write_table(pd.DataFrame({"n": [1, 2]}), cache.Table("mine", params={"deals": 2}))
    with pytest.raises(ValueError, match=r"mine\.csv holds a table made with other parameters "
                                         r"\(deals: 2 instead of 3\)"):
        cache.write_table(pd.DataFrame({"n": [1]}), cache.Table("mine", params={"deals": 3}))
    assert cache.read_table("mine")["n"].tolist() == [1, 2]


def test_the_frontier_writes_every_size_under_its_own_name(data_dir, monkeypatch):
    from puzzlelab.codebreaking import frontier, tables

    asked = []

    def small(runs, **kw):  # every size takes hours: the row of one small size stands in
        asked.append(runs)
        row = frontier.optimal_size_row(("Mastermind", 2, 2))
        return pd.DataFrame([row], columns=frontier.COLUMNS)

    monkeypatch.setattr(frontier, "optimal_sizes", small)
    tables.sizes_run(runs="all")
    assert asked == [frontier.ALL_RUNS]
    assert [p.stem for p in data_dir.glob("*.csv")] == [f"{frontier.TABLE}_all"]


def test_a_recompute_that_changes_a_table_says_which_cells_and_one_that_does_not_touches_nothing(
        data_dir, tmp_path_factory, monkeypatch):
    table = cache.Table("study", params={"samples": 3})
    first = pd.DataFrame({"k": [1, 2, 3], "mean": [0.5, 0.25, 0.125]})
    cache.write_table(first, table, seconds=12.34)
    meta = cache.table_metadata("study")
    assert meta["rows"] == 3 and meta["seconds"] == 12.3 and meta["params"] == {"samples": 3}
    stamps = {p: p.stat().st_mtime_ns for p in [cache.data_path("study"),
                                                *(data_dir / cache.CHECKSUMS).iterdir()]}
    time.sleep(0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same bytes: no report, no file rewritten
        cache.write_table(first.copy(), table, seconds=99)
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    assert cache.table_metadata("study") == meta  # the time of the computation that made them
    second = pd.concat([first.assign(mean=[0.5, 0.3, 0.125]),
                        pd.DataFrame({"k": [4], "mean": [1.0]})], ignore_index=True)
    with pytest.warns(cache.CacheWarning, match=r"data/study\.csv changed: 3 rows before, 4 after"
                                                r"; 1 cells changed: row 1 \(k=2, mean=0\.3\) "
                                                r"mean: '0\.25' -> '0\.3'"):
        cache.write_table(second, table)
    log = tmp_path_factory.mktemp("log") / "changes.log"
    monkeypatch.setenv(cache.CHANGES_ENV, str(log))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # under the notebook runner the report goes to its file
        cache.write_table(first, table)
    assert log.read_text().startswith("data/study.csv changed: 4 rows before, 3 after")


# --- 4. self-describing chunks ------------------------------------------------------------------
def _chunks(name: str) -> list[Path]:
    return sorted(cache.partial_dir(name).glob("*.csv"))


def _damaged_run(name: str, damage, params=range(8)) -> pd.DataFrame:
    """A sweep whose saved chunks were damaged by `damage(chunk files)`, run again."""
    sweeps.sweep_table(name, _square_row, params, chunk_size=2, keep_partial=True)
    damage(_chunks(name))
    return sweeps.sweep_table(name, _square_row, params, chunk_size=2)


UNINTERRUPTED = pd.DataFrame([_square_row(p) for p in range(8)])


@pytest.mark.parametrize("damage,why", [
    (lambda c: c[1].write_bytes(c[1].read_bytes()[:-4]), "does not match its checksum"),
    (lambda c: c[1].write_bytes(b""), "does not match its checksum"),
    (lambda c: cache.checksum_path(c[1]).unlink(), "has no checksum"),  # killed between writes
    (lambda c: cache.metadata_path(c[1]).unlink(), "has no metadata"),
    (lambda c: [shutil.copy(f(c[0]), f(c[1])) for f in (lambda p: p, cache.checksum_path,
                                                        cache.metadata_path)],
     "was made with another params"),  # chunk A copied over chunk B, its records too
])
@pytest.mark.parametrize("recompute", ["", "1"])
def test_a_chunk_that_cannot_be_trusted_is_computed_again_with_a_warning(
        data_dir, monkeypatch, damage, why, recompute):
    monkeypatch.setenv(cache.RECOMPUTE_ENV, recompute)
    with pytest.warns(cache.CacheWarning, match=f"chunk of the sweep demo cannot be used.*{why}"):
        table = _damaged_run("demo", damage)
    pd.testing.assert_frame_equal(table, UNINTERRUPTED)
    assert not cache.partial_dir("demo").exists()


def test_a_chunk_made_by_other_code_is_computed_again(data_dir, monkeypatch):
    sweeps.sweep_table("code", _square_row, range(4), chunk_size=2, keep_partial=True)
    monkeypatch.setattr(sweeps, "code_hash", lambda task: "edited")
    with pytest.warns(cache.CacheWarning, match="was made with another code"):
        table = sweeps.sweep_table("code", _square_row, range(4), chunk_size=2)
    pd.testing.assert_frame_equal(table, UNINTERRUPTED.iloc[:4])


def test_a_chunk_records_its_sweep_task_parameters_and_code(data_dir):
    sweeps.sweep_table("record", _square_row, [5, 6], chunk_size=2, keep_partial=True)
    [chunk] = _chunks("record")
    meta = json.loads(cache.metadata_path(chunk).read_text())
    assert meta["sweep"] == "record" and meta["params"] == "[5, 6]" and meta["rows"] == 2
    assert meta["task"].endswith("._square_row") and len(meta["code"]) == 16


def _nothing(p: int) -> list:
    return []


def test_chunks_without_rows_resume_quietly(data_dir):
    sweeps.sweep_table("empty", _nothing, range(3), keep_partial=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sweeps.sweep_table("empty", _nothing, range(3)).empty


# --- 5. atomic writes: two processes, one table -------------------------------------------------
RACE = textwrap.dedent("""
    import sys, time, warnings
    from pathlib import Path
    import pandas as pd
    from puzzlelab import cache
    warnings.simplefilter("ignore")  # each write changes the table: no reports here
    role, stop = sys.argv[1], Path(sys.argv[2])
    tables = [pd.DataFrame({"n": range(k * 500, k * 500 + 400 * (k + 1)), "k": k}) for k in (0, 1)]
    if role == "first":
        cache.write_table(tables[0], "race")
    elif role == "write":
        i, end = 1, time.monotonic() + 120
        while not stop.exists() and time.monotonic() < end:
            cache.write_table(tables[i % 2], "race")
            i += 1
        print(i)
    else:
        end = time.monotonic() + 120
        while int(cache.read_table("race")["k"].iloc[0]) == 0 and time.monotonic() < end:
            pass  # until the writer has started
        failed = []
        for _ in range(300):
            try:
                df = cache.read_table("race")
            except ValueError as err:
                failed.append(str(err))
                continue
            assert df.equals(tables[int(df["k"].iloc[0])]), "a read mixed two tables"
        stop.touch()
        print(len(failed), failed[:1])
""")


def test_two_processes_writing_and_reading_one_table_never_see_half_of_it(tmp_path):
    (tmp_path / "data").mkdir()
    env = dict(os.environ, PUZZLELAB_ROOT=str(tmp_path))
    stop = str(tmp_path / "stop")
    subprocess.run([PYTHON, "-c", RACE, "first", stop], env=env, check=True)
    writer = subprocess.Popen([PYTHON, "-c", RACE, "write", stop], env=env,
                              stdout=subprocess.PIPE, text=True)
    reader = subprocess.run([PYTHON, "-c", RACE, "read", stop], env=env, capture_output=True,
                            text=True, timeout=300)
    writes = writer.communicate(timeout=300)[0]
    assert writer.returncode == 0 and reader.returncode == 0, reader.stderr
    failures, first_failure = reader.stdout.split(maxsplit=1)
    assert int(failures) == 0, first_failure
    assert int(writes) > 10  # the reads ran while the table was being rewritten
    assert not list((tmp_path / "data").rglob("*.tmp"))  # no temporary file left behind


# --- 6. caches serve no stale or inconsistent table ---------------------------------------------
def test_every_committed_table_records_what_made_it():
    declared, builds = registry.registered(), registry.rebuilders()
    for csv in sorted(paths.DATA.glob("*.csv")):
        meta = cache.table_metadata(csv.stem)
        assert meta is not None, f"{csv.name} has no metadata"
        assert meta["rows"] == len(cache.read_table(csv.stem)) and meta["command"], csv.name
        assert meta["computed_at"].endswith("Z"), csv.name
        assert set(meta["machine"] or {}) in (set(), {"cores", "python", "numpy", "numba"})
        words = meta["command"].split()
        if csv.stem in declared:
            table = declared[csv.stem]
            assert (meta["version"], meta["params"], meta["long_run"]) == (
                table.version, table.params, table.long_run), csv.name
        if csv.stem in builds:  # the one way to rebuild it: `puzzlelab compute NAME`
            assert meta["command"] == f"puzzlelab compute {csv.stem}" + (
                " --long-run" if meta["long_run"] else ""), csv.name
        else:  # a benchmark's table: the benchmark that writes it
            assert words[-3:-1] == ["puzzlelab", "bench"], csv.name
            assert (ROOT / "benchmarks" / f"bench_{words[-1]}.py").exists(), csv.name
    committed = {p.stem for p in paths.DATA.glob("*.csv")}
    assert {t.name for t in declared.values() if not t.long_run} <= committed  # a long run may
    # not have been made yet (`puzzlelab tables` lists it as missing, with its command)


@pytest.mark.parametrize("stale,why", [
    (lambda: cache.metadata_path(cache.data_path("hats_optima")).unlink(), "has no metadata"),
    (lambda: _edit_metadata("hats_optima", version=0), "was made by version 0 of its "
                                                       "computation, not version 1"),
    (lambda: _edit_metadata("hats_optima", params={"max_n": 6, "cpsat_work_units": 20.0}),
     r"was made with another params \(max_n: 6 instead of 8\)"),
    (lambda: _edit_csv("hats_optima", b"\n4,4,256,136,136,True,", b"\n4,4,256,136,136,False,"),
     r"fails its check: the row of N = 4, M = 4 is marked open"),
])
def test_a_stale_or_inconsistent_optima_table_is_recomputed_not_served(data_dir, monkeypatch,
                                                                       stale, why):
    from puzzlelab.hats import tables

    copy_committed("hats_optima", data_dir)
    committed = cache.read_table("hats_optima")
    stale()
    monkeypatch.setattr(tables, "optimum_rows", lambda *a, **k: committed)
    with pytest.warns(cache.CacheWarning, match=f"data/hats_optima.csv {why}"):
        again = tables.optimum_table()
    pd.testing.assert_frame_equal(again, committed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tables.optimum_table()  # now what it should be


def _edit_metadata(name: str, **fields) -> None:
    path = cache.metadata_path(cache.data_path(name))
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


def _edit_csv(name: str, old: bytes, new: bytes) -> None:
    """Edit a table and write a checksum and metadata that match the edit (a consistent lie)."""
    path = cache.data_path(name)
    data = path.read_bytes()
    assert old in data
    meta = json.loads(cache.metadata_path(path).read_text())
    cache.write_csv(table_files.parse(data.replace(old, new)), path,
                    {k: v for k, v in meta.items() if k not in ("rows", "sha256")})


def test_an_older_optimal_sizes_table_with_its_checksum_is_not_served(data_dir, monkeypatch):
    from puzzlelab.codebreaking import frontier, tables

    copy_committed(frontier.TABLE, data_dir)
    older = cache.read_table(frontier.TABLE).iloc[:-3]  # a table of fewer sizes, self-consistent
    runs = [list(r) for r in zip(older.kind, older.pegs, older.colours)]
    cache.write_csv(older, cache.data_path(frontier.TABLE),
                    {**cache.table_metadata(frontier.TABLE), "params": {"runs": runs}})
    with pytest.raises(ValueError, match="was made with another params"):
        cache.read_table(frontier.TABLE)
    monkeypatch.setitem(tables.TABLES, frontier.TABLE, lambda: cache.read_csv_checked(
        paths.DATA / f"{frontier.TABLE}.csv"))
    with pytest.warns(cache.CacheWarning, match="was made with another params"):
        assert len(tables.cached(frontier.TABLE)) == len(older) + 3


@pytest.mark.parametrize("recompute", ["", "1"])
def test_a_damaged_long_run_names_the_command_that_rebuilds_it(data_dir, monkeypatch, recompute):
    from puzzlelab.kemps import tables

    monkeypatch.setenv(cache.RECOMPUTE_ENV, recompute)
    copy_committed("kemps_million_28", data_dir)
    path = cache.data_path("kemps_million_28")
    path.write_bytes(path.read_bytes()[:-10])
    command = "puzzlelab compute kemps_million_28 --long-run"
    for read in (lambda: tables.long_run("kemps_million_28"),
                 lambda: cache.read_table("kemps_million_28")):
        with pytest.raises(ValueError, match=f"does not match its checksum.*rebuild it with: "
                                             f"{command}"):
            read()
    path.unlink()
    with pytest.raises(ValueError, match=f"is missing; build it with: {command}"):
        tables.long_run("kemps_million_28")


def test_long_run_sums_over_other_deals_or_line_ups_are_refused(data_dir):
    from puzzlelab.kemps import tables

    table = tables.LONG_RUNS["kemps_million_52"]
    sums = cache.read_csv_checked(paths.DATA / "kemps_million_52.csv")
    table.check(sums)
    with pytest.raises(ValueError, match="not over 1000000 deals"):
        table.check(sums.assign(deals=sums.deals - 1))
    with pytest.raises(ValueError, match="other line-ups"):
        tables.LONG_RUNS["kemps_million_28"].check(sums)


def test_grid_and_smallest_rows_must_agree_with_their_proofs():
    from puzzlelab.russian_cards import grid as rg
    from puzzlelab.russian_cards import tables as rt

    grid = cache.read_table(rt.GRID)
    lemma = grid.index[(grid.proof == "lemma")][0]
    solvable = grid.index[grid.status == "solvable"][0]
    for i, column, value, why in [
            (lemma, "b", grid.b[lemma] + 5, "has n ="),
            (solvable, "size", grid["size"][solvable] + 1, "records size"),
            (solvable, "proof", "lemma", "is solvable by a proof of kind 'lemma'"),
            (lemma, "status", "open", "has status 'open' with a proof of kind 'lemma'")]:
        bad = grid.copy()
        bad.loc[i, column] = value
        with pytest.raises(ValueError, match=why):
            rg.check_grid(bad)
    smallest = cache.read_table(rt.SMALLEST)
    open_row = smallest.index[~smallest.proven.astype(bool)][0]
    bad = smallest.copy()
    bad.loc[open_row, "proven"] = True
    with pytest.raises(ValueError, match="is marked proven with bounds"):
        rg.check_min_sizes(bad)


def test_read_csv_checked_refuses_an_expectation_that_is_not_a_mapping():
    """Fuzz finding (seed 1, call 3359): expect=2**63 was read as a mapping (AttributeError)."""
    path = paths.DATA / "hats_optima.csv"
    for wrong in (2**63, "version", [("version", 1)]):
        with pytest.raises(checks.ArgumentTypeError, match="expect must be a mapping"):
            cache.read_csv_checked(path, expect=wrong)
    meta = json.loads((paths.DATA / "checksums" / "hats_optima.json").read_text())
    table = cache.read_csv_checked(path, expect={"version": meta["version"]})
    assert table.equals(cache.read_csv_checked(path))
    with pytest.raises(ValueError, match="not version"):
        cache.read_csv_checked(path, expect={"version": meta["version"] + 1})
