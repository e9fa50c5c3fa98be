"""Hostile and careless use (issue: robustness on main 7972f31): listeners that are not Dask
schedulers, chunks made by other code, tables killed half-written, wide game files, bad bytes,
failing writes, odd file types, bad names and state files, huge sweeps. Each test is bounded
(seconds) and fails on the old code."""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

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
        ups = (("greedy", "greedy", "greedy"),)
        params = [(ups, first, 40, streaming.make_deck(streaming.FULL), 300)
                  for first in (0, 40, 80)]
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            if {step!r} == "part":
                table = sweeps.sweep_table("resume", streaming._block_sums, params[:2],
                                           keep_partial=True)
            else:
                table = sweeps.sweep_table("resume", streaming._block_sums, params)
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
