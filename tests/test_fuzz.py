"""The fuzz over every public name (issue 27): a bounded, seeded sample of `tools/fuzz.py`.

`python tools/fuzz.py --calls 10000` is the long form. Here every public name is called at
least once (the calls go round the names in turn), in a scratch copy of data/ and figures/,
and the committed data/ and figures/ must come out byte for byte unchanged. The harness itself
is checked first: each kind of failure it must report is provoked on purpose.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
from pathlib import Path

from robustness import fuzz_tool

REPO = Path(__file__).resolve().parents[1]
FUZZ = REPO / "tools" / "fuzz.py"
SAMPLE_SEED = 0
SAMPLE_LIMIT = 20.0  # seconds per call in the sample (the long form takes 30)


fuzz = fuzz_tool()


def _run_fuzz(*args: str, timeout: float) -> subprocess.CompletedProcess:
    """tools/fuzz.py in a process of its own (its calls are forked from there, never from a
    test worker), with the committed data/ as its source and a scratch copy as its root."""
    env = {k: v for k, v in os.environ.items() if k != "PUZZLELAB_ROOT"}
    return subprocess.run([sys.executable, str(FUZZ), *args], capture_output=True, text=True,
                          env=env, timeout=timeout, check=False)


# --- the harness reports every kind of failure ----------------------------------------------------


def test_the_harness_reports_each_kind_of_ending():
    """A return, a refusal, a plain TypeError, a hang, an endless lazy result, too many
    processes, a process left behind, too much memory, a wall-clock stop: each is told apart."""
    done = _run_fuzz("--self-test", timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    for call, expected in fuzz.SELF_TEST:
        assert f"{call.__name__}: {expected} (expected {expected})" in done.stdout


def test_the_harness_tells_wrong_kinds_from_fair_ones():
    from typing import Any

    import numpy as np

    assert fuzz.fits(np.int64(3), int) and not fuzz.fits(True, int) and not fuzz.fits(1.5, int)
    assert fuzz.fits((1, 2), tuple[int, ...]) and not fuzz.fits([1, "x"], list[int])
    assert fuzz.fits(None, int | None) and not fuzz.fits("a", int | None)
    assert fuzz.fits(object(), Any) and not fuzz.fits("3", float)


def test_every_public_name_is_a_target():
    import pkgutil

    import puzzlelab

    labels = {t.label for t in fuzz.public_targets()}
    for info in pkgutil.walk_packages(puzzlelab.__path__, "puzzlelab."):
        if info.name in fuzz.SKIPPED_MODULES:
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if fuzz.is_call(value) and name not in fuzz.SKIPPED \
                    and f"{info.name}.{name}" not in fuzz.SKIPPED:
                assert any(label.endswith(f".{name}") for label in labels), f"{info.name}.{name}"


# --- the sample -----------------------------------------------------------------------------------


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(REPO)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_seeded_sample_over_every_public_name_passes_and_leaves_data_unchanged():
    names = len(fuzz.public_targets())
    before = {**_digest(REPO / "data"), **_digest(REPO / "figures")}
    done = _run_fuzz("--calls", str(names), "--seed", str(SAMPLE_SEED), "--limit",
                     str(SAMPLE_LIMIT), timeout=1800)
    after = {**_digest(REPO / "data"), **_digest(REPO / "figures")}
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert f"{names} calls over {names} public names" in done.stdout
    assert after == before, "the fuzz changed the committed data/ or figures/"
