"""Hostile and careless use (issue: robustness on main 7972f31): listeners that are not Dask
schedulers, chunks made by other code, tables killed half-written, wide game files, bad bytes,
failing writes, odd file types, bad names and state files, huge sweeps. Each test is bounded
(seconds) and fails on the old code."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from puzzlelab import cache, sweeps

ROOT = Path(__file__).resolve().parents[1]


# --- 3. a listener that is not a Dask scheduler ---------------------------------------------------
@contextlib.contextmanager
def listener(kind: str) -> Iterator[str]:
    """A TCP listener on 127.0.0.1 that never answers ('silent'), answers like a web server
    ('http') or hangs up at once ('close'); yields its address."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    open_ = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            if kind == "http":
                conn.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            if kind == "close":
                conn.close()
            else:
                open_.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in open_:
            conn.close()
        server.close()


@pytest.mark.parametrize("kind", ["silent", "http", "close"])
def test_a_listener_that_is_not_a_scheduler_is_named_within_its_timeout(kind):
    args = argparse.Namespace(workers=1, scheduler=None, connect_timeout=1.0)
    with listener(kind) as address:
        args.scheduler = address
        start = time.perf_counter()
        with pytest.raises(ValueError, match=f"cannot reach the Dask scheduler at {address} "
                                             r"within 1 s \("):
            with sweeps.executor_from_arguments(args):
                pass
        assert time.perf_counter() - start < 1 + 5


def test_the_command_stops_in_one_line_when_a_web_server_holds_the_port(tmp_path):
    with listener("http") as address:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "puzzlelab.cli", "compute", "codebreaking_dyson",
             "--scheduler", address, "--connect-timeout", "2"],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "TQDM_DISABLE": "1", "PATH": "/usr/bin:/bin",
                 "PUZZLELAB_ROOT": str(tmp_path)})
        took = time.perf_counter() - start
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        line for line in done.stderr.splitlines() if line.strip()], done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"cannot reach the Dask scheduler at {address} within 2 s" in done.stderr
    assert took < 2 + 5 + 10  # its timeout, the handshake's slack and the start of Python


def test_a_real_scheduler_still_passes_the_handshake():
    with sweeps.local_cluster(1) as cluster:
        args = argparse.Namespace(workers=1, scheduler=cluster.scheduler_address,
                                  connect_timeout=5.0)
        with sweeps.executor_from_arguments(args) as (executor, workers):
            assert executor.submit(abs, -3).result() == 3 and workers == 1


# --- 2. chunks know the code that made them -------------------------------------------------------
def _kemps_run(package: Path, root: Path, step: str) -> dict:
    """Run one step of a Kemps sweep (`part`: the first two chunks, kept; `all`: the whole
    sweep, resuming) with the package copy at `package`; its table and warnings as JSON."""
    script = textwrap.dedent(f"""
        import json, warnings
        from puzzlelab import sweeps
        from puzzlelab.kemps import streaming
        sweep_table = sweeps.sweep_table
        def asked(name, task, params, **options):  # the sweep deal_sums asks for, not run
            raise StopIteration(task, params)
        sweeps.sweep_table = asked
        try:
            streaming.deal_sums([("greedy",) * 3], 120, deals_per_task=40, max_turns=300)
        except StopIteration as stop:
            task, params = stop.args
        sweeps.sweep_table = sweep_table
        assert [p[1:3] for p in params] == [(0, 40), (40, 40), (80, 40)]
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            if {step!r} == "part":
                table = sweeps.sweep_table("resume", task, params[:2], keep_partial=True)
            else:
                table = sweeps.sweep_table("resume", task, params)
        print(json.dumps({{"table": table.to_csv(), "said": [str(w.message) for w in said]}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=root,
                          env={"PYTHONPATH": str(package), "PUZZLELAB_ROOT": str(root),
                               "PYTHONDONTWRITEBYTECODE": "1", "TQDM_DISABLE": "1",
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_strategy_edited_between_two_runs_is_not_mixed_into_the_resumed_table(tmp_path):
    package = tmp_path / "code"
    shutil.copytree(ROOT / "puzzlelab", package / "puzzlelab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for root in ("resumed", "fresh"):
        (tmp_path / root / "data").mkdir(parents=True)
    first = _kemps_run(package, tmp_path / "resumed", "part")  # two chunks of the old code
    assert first["said"] == []
    strategies = package / "puzzlelab" / "kemps" / "strategies.py"
    text = strategies.read_text()
    old = "if size < 2 or size <= max(hc):"
    assert old in text
    strategies.write_text(text.replace(old, "if size < 3 or size <= max(hc):"))  # Greedy waits
    resumed = _kemps_run(package, tmp_path / "resumed", "all")
    fresh = _kemps_run(package, tmp_path / "fresh", "all")
    assert resumed["table"] == fresh["table"] != first["table"]
    assert fresh["said"] == []
    assert len(resumed["said"]) == 2 and all(
        "was made with another code" in w and "\n" not in w for w in resumed["said"])


# --- 1. a table's CSV, checksum and metadata change as one unit -----------------------------------
STEPS = ("replace", "rename", "rmdir", "mkdir", "fsync", "unlink")  # what a write does to files


def _write_killed_at(step: int, table: cache.Table, df: pd.DataFrame) -> bool:
    """Write `df` as `table` in a child process killed just before its `step`-th file operation
    (of `STEPS`); True when the write finished before that step."""
    pid = os.fork()
    if pid == 0:  # the child: count the operations, die at the chosen one
        code = 1
        try:
            count = iter(range(1, 10**6))
            for name in STEPS:
                real = getattr(os, name)

                def counted(*args, _real=real, **kwargs):
                    if next(count) == step:
                        os._exit(9)
                    return _real(*args, **kwargs)
                setattr(os, name, counted)
            cache.write_table(df, table)
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) in (0, 9), status
    return os.WEXITSTATUS(status) == 0


def test_a_table_killed_at_any_step_of_its_write_reads_as_the_old_or_the_new(tmp_path, monkeypatch):
    table = cache.Table("unit_demo", params={"n": 3})
    old = pd.DataFrame({"x": [1, 2, 3], "y": ["a", "b", "c"]})
    new = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["a", "B", "c", "d"]})
    step, finished = 0, False
    while not finished:
        step += 1
        assert step < 200
        monkeypatch.setattr(cache, "DATA", tmp_path / f"step{step}")
        cache.write_table(old, table)
        finished = _write_killed_at(step, table, new)
        read = cache.read_table(table)  # finishes or drops the cut write, then reads
        assert read.equals(old) or read.equals(new), (step, read)
        assert finished <= read.equals(new)
        csv = cache.data_path("unit_demo")
        digest = hashlib.sha256(csv.read_bytes()).hexdigest()
        assert cache.checksum_path(csv).read_text() == f"{digest}  unit_demo.csv\n", step
        assert json.loads(cache.metadata_path(csv).read_text())["sha256"] == digest, step
        assert [p.name for p in (cache.DATA / "checksums").iterdir() if p.name.startswith(".")
                ] == [], step  # nothing half-written left behind
    assert step > 6  # every file operation of the write was a place to die


# --- 5, 7. odd file types and failing writes: one line each, never a hang ------------------------
@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """An empty data/ of its own (and the folder beside it for .puzzlelab/)."""
    monkeypatch.setattr(cache, "DATA", tmp_path / "data")
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    monkeypatch.delenv(cache.CHANGES_ENV, raising=False)
    (tmp_path / "data").mkdir()
    return tmp_path / "data"


DEMO = cache.Table("odd_demo", params={"n": 1})
ROWS = pd.DataFrame({"x": [1, 2]})


def _oddity(kind: str, data: Path) -> None:
    """Put something that is not a plain file where one of odd_demo's files belongs."""
    csv = data / "odd_demo.csv"
    target = {"json dir": cache.metadata_path(csv), "sha256 dir": cache.checksum_path(csv),
              "csv dir": csv, "csv loop": csv, "csv fifo": csv, "checksums file": None}[kind]
    if kind == "checksums file":
        shutil.rmtree(data / "checksums")
        (data / "checksums").write_text("not a folder")
        return
    target.unlink()
    if kind == "csv loop":
        target.symlink_to(target)
    elif kind == "csv fifo":
        os.mkfifo(target)
    else:
        target.mkdir()


ODD = ["json dir", "sha256 dir", "csv dir", "csv loop", "csv fifo", "checksums file"]


@pytest.mark.parametrize("kind", ODD)
def test_an_odd_file_type_is_one_line_and_never_waited_on(data_dir, kind):
    from puzzlelab import cli

    cache.write_table(ROWS, DEMO)
    _oddity(kind, data_dir)
    start = time.perf_counter()
    with pytest.raises(ValueError) as err:
        cache.read_table(DEMO)
    assert "\n" not in str(err.value) and "odd_demo" in str(err.value) or "checksums" in str(
        err.value), err.value
    listing = cli.table_list()
    [state] = listing.loc[listing["name"] == "odd_demo", "state"]
    assert state != "ok"
    with pytest.raises(ValueError, match="cannot (read|write)|checksum|metadata|a folder"):
        cache.compute_table(DEMO, lambda: ROWS)
    assert time.perf_counter() - start < 10


def test_a_failing_write_is_one_line_and_leaves_the_table_as_it_was(data_dir):
    import resource

    cache.write_table(ROWS, DEMO)
    before = {p: p.read_bytes() for p in data_dir.rglob("*") if p.is_file()}
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            resource.setrlimit(resource.RLIMIT_FSIZE, (4, 4))  # ulimit -f: File too large
            try:
                cache.write_table(pd.DataFrame({"x": range(1000)}), DEMO)
            except ValueError as err:
                code = 0 if str(err).startswith("cannot write") and "\n" not in str(err) else 4
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0, status
    assert {p: p.read_bytes() for p in data_dir.rglob("*") if p.is_file()} == before
    pd.testing.assert_frame_equal(cache.read_table(DEMO), ROWS)


def test_a_chunk_file_that_is_a_folder_is_computed_again(data_dir):
    sweeps.sweep_table("folder_chunk", _row, [1, 2], keep_partial=True)
    [meta] = list((cache.partial_dir("folder_chunk") / "checksums").glob("*.json"))[:1]
    meta.unlink()
    meta.mkdir()
    with pytest.warns(cache.CacheWarning, match="cannot be used"):
        table = sweeps.sweep_table("folder_chunk", _row, [1, 2])
    assert table["x"].tolist() == [1, 2]


def _row(p: int) -> dict:
    return {"x": p}


def test_a_file_in_place_of_the_chunk_folder_is_refused_before_any_work(data_dir):
    (data_dir / "partial").mkdir()
    (data_dir / "partial" / "blocked").write_text("")
    with pytest.raises(ValueError, match="must be a folder of finished chunks"):
        sweeps.sweep_table("blocked", _fail, [1])


def _fail(p: int) -> dict:
    raise AssertionError("no work before the folder is checked")


# --- 8. names --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["x" * 300, "evil\nname", " ", "-rf", "x*?[a]", "a.b", "", "é"])
def test_a_table_name_outside_the_safe_pattern_is_refused(name, data_dir):
    with pytest.raises(ValueError, match="plain file stem"):
        cache.data_path(name)
    with pytest.raises(ValueError, match="plain file stem"):
        cache.Table(name)


def test_the_longest_safe_name_is_taken(data_dir):
    assert cache.data_path("a" * 100).name == "a" * 100 + ".csv"
    assert cache.Table("x", params={"p": 2.5}).variant(p=3.5).name == "x_p3p5"


def test_a_bad_table_name_is_one_line_before_any_work(data_dir):
    from puzzlelab.kemps import tables as kemps_tables

    with pytest.raises(ValueError, match="plain file stem") as err:
        kemps_tables.sums_run(name="evil\nname", lineup_list=["tom/tom/tom"], deals=100)
    assert not list(data_dir.rglob("*.csv"))
    assert "\n" not in str(err.value).replace("'evil\\nname'", "")


# --- 9. state files -------------------------------------------------------------------------------
@pytest.mark.parametrize("text,says", [
    ('{"tables": []}', "not a record of times"),
    ('{"tables": {"odd_demo": {"seconds": 3, "workers": "abc"}}}', "workers"),
    ('{"tables": {"odd_demo": {"seconds": NaN}}}', "seconds"),
    ('{"tables": {"odd_demo": {"seconds": -5}}}', "seconds"),
    ('{"tables": {"odd_demo": {"seconds": 1e300}}}', "seconds"),
    ("[1, 2", "not a record of times"),
])
def test_a_bad_times_file_is_named_and_set_aside_not_blocking(data_dir, text, says):
    from puzzlelab import runner

    _, measured = runner.times_files()
    measured.parent.mkdir()
    measured.write_text(text)
    with pytest.warns(UserWarning, match=f"{measured}.*{says}|{says}.*{measured}"):
        assert runner.expected_seconds("tables", "odd_demo") is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.record_seconds("tables", "odd_demo", 2.0, workers=1)
        assert runner.expected_seconds("tables", "odd_demo")["seconds"] == 2.0


def test_a_times_folder_that_cannot_be_written_does_not_fail_the_run(data_dir):
    from puzzlelab import runner

    (data_dir.parent / ".puzzlelab").write_text("a file where the folder belongs")
    with pytest.warns(UserWarning, match="the time taken was not kept"):
        runner.record_seconds("tables", "odd_demo", 2.0)


@pytest.fixture
def scratch_root(tmp_path, monkeypatch):
    """A copy of the repository's data/ to compute in (the real one is only read)."""
    shutil.copytree(ROOT / "data", tmp_path / "data", ignore=shutil.ignore_patterns("partial"))
    monkeypatch.setattr(cache, "DATA", tmp_path / "data")
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    monkeypatch.delenv(cache.CHANGES_ENV, raising=False)
    monkeypatch.setenv("TQDM_DISABLE", "1")
    return tmp_path


SMALL = "russian_cards_sum_mod"  # computed in a second


@pytest.mark.parametrize("seconds", ["NaN", "-5", "1e300"])
def test_bad_seconds_in_a_tables_metadata_are_named_not_blocking(scratch_root, seconds, capsys):
    from puzzlelab import cli

    meta = cache.metadata_path(cache.data_path(SMALL))
    record = json.loads(meta.read_text())
    record["seconds"] = "@"
    meta.write_text(json.dumps(record).replace('"@"', seconds))
    listing = cli.table_list("russian_cards")
    assert listing.loc[listing["name"] == SMALL, "state"].tolist() == ["bad metadata"]
    assert cli.main(["compute", SMALL]) == 0
    err = capsys.readouterr().err
    assert f"seconds in data/checksums/{SMALL}.json must be a number" in err
    assert [line for line in err.splitlines() if line.strip()] == [err.strip()]


@pytest.mark.parametrize("text", ['{"tables": []}', '{"tables": {"%s": {"seconds": NaN}}}' % SMALL,
                                  '{"tables": {"%s": {"seconds": 1, "workers": "abc"}}}' % SMALL])
def test_a_bad_times_file_does_not_block_a_compute(scratch_root, text, capsys):
    from puzzlelab import cli

    (scratch_root / ".puzzlelab").mkdir()
    (scratch_root / ".puzzlelab" / "times.json").write_text(text)
    assert cli.main(["compute", SMALL]) == 0
    err = capsys.readouterr().err
    assert "times.json" in err and "Traceback" not in err


def test_a_compute_that_repairs_a_damaged_table_says_so(scratch_root, capsys):
    from puzzlelab import cli

    csv = cache.data_path(SMALL)
    good = csv.read_bytes()
    csv.write_bytes(good.replace(b"\n", b"\n0,", 1))
    assert cli.main(["compute", SMALL]) == 0
    out = capsys.readouterr().out
    assert "unchanged" not in out and f"rewrote data/{SMALL}.csv" in out, out
    assert csv.read_bytes() == good


# --- 4. the game language sizes its inputs before building ----------------------------------------
def _variables(n: int) -> str:
    return "VARIABLES " + ", ".join(f"v{i}" for i in range(n)) + "\n"


EXPERIMENT = "ALPHABET 'a', 'b'\nMAPPING 'F' v0, v1\nEXPERIMENT 'e' 1\nOUTCOME 'x' F$1\nOUTCOME 'y' !F$1\n"
ZERO = "EXPERIMENT 'e' 0\nOUTCOME 'x' v0\nOUTCOME 'y' !v0\n"
WIDE = {  # the game files (each at most about 1 MB), and what refuses them
    "Exactly-5000 of 10,000": (_variables(2) + "RESTRICTION Exactly-5000("
                               + ", ".join(["v0"] * 10_000) + ")\n" + EXPERIMENT,
                               r"line 2, column 1: evaluating the restrictions .* seconds"),
    "50,000 symbols": (_variables(2) + "ALPHABET " + ", ".join(f"s{i}" for i in range(50_000))
                       + "\n" + ZERO, r"line 2, column \d+: the alphabet lists 50000 symbols"),
    "200,000 symbols": (_variables(2) + "ALPHABET " + ", ".join(f"s{i}" for i in range(200_000))
                        + "\n" + ZERO, "the alphabet lists 200000 symbols"),
    "30,000 outcomes": (_variables(2) + "EXPERIMENT 'e' 0\n" + "".join(
        f"OUTCOME 'o{i}' v0 & !v0\n" for i in range(30_000)), r"line 20003, column 1: .* more "
                                                              r"than 20000 outcomes"),
    "25,000 experiments": ("".join([_variables(2)] + [f"EXPERIMENT 'e{i}' 0\nOUTCOME 'x' v0\n"
                                                      f"OUTCOME 'y' !v0\n" for i in range(25_000)]),
                           r"line \d+, column 1: more than \d+ experiment types"),
    "100,000 variables": (_variables(100_000) + ZERO,
                          r"line 1, column \d+: 100000 variables: enumerating 2\*\*100000"),
    "20,000 operands on 23 variables": (
        _variables(23) + "RESTRICTION Exactly-1(v0, v1) & (" + " | ".join(["!v0"] * 20_000)
        + ")\n" + EXPERIMENT, r"line 2, column 1: evaluating the restrictions on 2\*\*23"),
}


@pytest.mark.parametrize("case", WIDE)
def test_a_wide_game_file_is_refused_in_seconds_at_its_line(case, tmp_path):
    from puzzlelab.codebreaking import language

    text, says = WIDE[case]
    path = tmp_path / "wide.cobra"
    path.write_text(text)
    assert path.stat().st_size <= 2**20 * 1.7
    start = time.perf_counter()
    with pytest.raises(ValueError, match=says):
        language.load(path)
    assert time.perf_counter() - start < 10


def test_a_game_within_the_estimate_still_loads(tmp_path):
    from puzzlelab.codebreaking import language

    text = _variables(19) + "RESTRICTION Exactly-100(" + ", ".join(
        f"v{i % 19}" for i in range(190)) + ")\n" + EXPERIMENT  # ten of the 19 variables true
    start = time.perf_counter()
    game = language.parse(text)
    assert time.perf_counter() - start < 10
    assert game.n_codes == math.comb(19, 10)


def test_threshold_of_streamed_operands_agrees_with_counting():
    from puzzlelab.codebreaking import language

    text = _variables(6) + "RESTRICTION Exactly-2(v0, v1, v2, v3 | v4, v5, v0)\n" + EXPERIMENT
    game = language.parse(text)
    codes = [c for c in itertools.product([True, False], repeat=6)
             if sum([c[0], c[1], c[2], c[3] or c[4], c[5], c[0]]) == 2]
    assert game.n_codes == len(codes)


# --- 5. a game file's bytes -------------------------------------------------------------------------
@pytest.mark.parametrize("data,line,column", [
    (b"VARIABLES a\xff, b\n", 1, 12),
    (b"# caf\xc3\xa9\r\nVARIABLES x\nRESTRICTION x & \xe9\n", 3, 17),
    (b"\xef\xbb\xbfVARIABLES \x80", 1, 11),
])
def test_a_byte_that_is_not_utf8_is_reported_at_its_line_and_column(tmp_path, data, line, column):
    from puzzlelab.codebreaking import language

    path = tmp_path / "bad.cobra"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"line {line}, column {column}: byte 0x.. is not UTF-8"):
        language.load(path)


# --- 6, 11. numeric options in range and in ASCII, exclusive options, the callers' words ----------
@pytest.mark.parametrize("argv,says", [
    (["compute", "x", "--workers", "\u0662"], "argument --workers: invalid int value"),
    (["compute", "x", "--connect-timeout", "nan"], "not a finite number"),
    (["compute", "x", "--connect-timeout", "\u0665"], "not a number in ASCII"),
    (["reproduce", "--timeout", "-5"], "the timeout must be an integer between 1 and 86400"),
    (["reproduce", "--timeout", "\u0665"], "argument --timeout"),
])
def test_numeric_options_are_ascii_and_in_range(argv, says):
    from puzzlelab import cli

    with pytest.raises(ValueError, match=says):
        cli.parser().parse_args(argv)


def test_long_runs_not_asked_for_are_refused_before_either_starts(data_dir):
    from puzzlelab import cli

    start = time.perf_counter()
    args = cli.parser().parse_args(["compute", "russian_cards_min_size_long",
                                    "russian_cards_min_size_matrix"])
    with pytest.raises(ValueError, match="russian_cards_min_size_long is a long run, not rebuilt "
                                         "unless asked: puzzlelab compute "
                                         "russian_cards_min_size_long --long-run"):
        args.run(args)
    assert time.perf_counter() - start < 10
    assert not list(data_dir.rglob("*.csv"))


@pytest.mark.parametrize("kwargs,says", [
    ({"positions": 0}, "positions must be"), ({"symbols": 0}, "symbols must be"),
    ({"positions": 101}, "positions must be")])
def test_bulls_and_cows_errors_use_its_own_words(kwargs, says):
    from puzzlelab.codebreaking import games

    with pytest.raises(ValueError, match=says):
        games.bulls_and_cows(**kwargs)


# --- 10. sizes refused up front ---------------------------------------------------------------------
def test_a_billion_deals_are_refused_with_an_estimate_before_any_work(data_dir):
    from puzzlelab.kemps import streaming
    from puzzlelab.kemps import tables as kemps_tables

    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"deal_sums of 1000000000 deals x 1 line-ups \(at least "
                                         r"[0-9.e+]+ CPU-hours\) would need about 1e\+09 games"):
        streaming.deal_sums([["greedy"] * 3], deals=10**9)
    with pytest.raises(ValueError, match="deals with 1 line-up"):
        kemps_tables.sums_run(name="huge", lineup_list=["tom/tom/tom"], deals=10**9)
    assert time.perf_counter() - start < 5
    assert not (data_dir / "partial").exists()
