"""A long run records where it stands: its table in data/ after every batch, continued later."""

import os

import pandas as pd
import pytest

from puzzlelab import cache, sweeps
from puzzlelab.cache import Table
from puzzlelab.long_runs import continue_run, pace, saved_cases

DEMO = Table("demo_long_run", params=dict(work=1), long_run=True)
COLUMNS = ["x", "square", "work"]
CASES = [(x, 1) for x in (5, 2, 7, 3)]
CALLS: list[int] = []


def square(case: tuple[int, int]) -> dict:
    """One case: the square of x (counted, so a test sees which cases ran)."""
    x, work = case
    CALLS.append(x)
    if x == FAIL_AT[0]:
        raise RuntimeError(f"stopped at {x}")
    return dict(work=work, square=x * x, x=x)


FAIL_AT = [None]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.delenv(cache.RECOMPUTE_ENV, raising=False)
    monkeypatch.delenv(cache.CHANGES_ENV, raising=False)
    CALLS.clear()
    FAIL_AT[0] = None
    return tmp_path


def expected() -> pd.DataFrame:
    return pd.DataFrame([dict(x=x, square=x * x, work=w) for x, w in CASES], columns=COLUMNS)


def test_a_stopped_run_leaves_its_finished_cases_in_data_and_the_next_runs_only_the_rest(data_dir):
    FAIL_AT[0] = 7
    with pytest.raises(RuntimeError, match="stopped at 7"):
        continue_run(DEMO, square, CASES, COLUMNS, 1)
    assert CALLS == [5, 2, 7]
    so_far = cache.read_long_run(DEMO)
    pd.testing.assert_frame_equal(so_far, expected().iloc[:2], check_dtype=False)
    FAIL_AT[0] = None
    CALLS.clear()
    done = continue_run(DEMO, square, CASES, COLUMNS, 1)
    assert CALLS == [7, 3]
    pd.testing.assert_frame_equal(done, expected(), check_dtype=False)
    pd.testing.assert_frame_equal(cache.read_long_run(DEMO), expected(), check_dtype=False)
    assert not cache.partial_dir(DEMO.name).exists()
    CALLS.clear()
    assert len(continue_run(DEMO, square, CASES, COLUMNS, 1)) == 4 and CALLS == []


def test_cases_whose_chunk_another_run_saved_are_written_first_and_not_run_again(data_dir):
    sweeps.sweep_table(DEMO.name, square, [(3, 1), (2, 1)], keep_partial=True)
    assert saved_cases(DEMO.name, square, CASES) == [(2, 1), (3, 1)]
    FAIL_AT[0] = 5
    CALLS.clear()
    with pytest.raises(RuntimeError):
        continue_run(DEMO, square, CASES, COLUMNS, 1)
    assert CALLS == [5]  # the saved pair was written before the first case ran
    pd.testing.assert_frame_equal(cache.read_long_run(DEMO), expected().iloc[[1, 3]].reset_index(
        drop=True), check_dtype=False)


@pytest.mark.parametrize("call, message", [
    (lambda: continue_run(Table("t", params={}), square, CASES, COLUMNS, 1), "long run"),
    (lambda: continue_run(DEMO, square, CASES, COLUMNS, 4), "key"),
    (lambda: continue_run(DEMO, square, [(1,)], COLUMNS, 2), "start with its key"),
    (lambda: continue_run(DEMO, square, CASES, ["x", "x", "work"], 1), "distinct"),
    (lambda: continue_run(DEMO, "square", CASES, COLUMNS, 1), "function"),
    (lambda: continue_run(DEMO, square, CASES, COLUMNS, 1, cost="seconds"), "cost must be one"),
    (lambda: continue_run(DEMO, square, CASES, COLUMNS, 1, isolate="yes"), "isolate must be"),
])
def test_what_cannot_be_a_long_run_is_refused_before_any_case_runs(data_dir, call, message):
    with pytest.raises(ValueError, match=message):
        call()
    assert CALLS == [] and not any(data_dir.iterdir())


def test_the_pace_is_the_mean_case_time_times_the_rounds_left():
    assert pace([10, 20], 3, 2) == 15 * 2  # 3 cases two at a time: two rounds of 15 s
    assert pace([10, 20], 4, 1) == 15 * 4 and pace([7], 0, 3) == 0
    assert pace([], 5, 2) is None  # nothing timed yet: no estimate rather than a made-up one
    for bad in ([-1], "10"):
        with pytest.raises(ValueError):
            pace(bad, 1, 1)
    with pytest.raises(ValueError, match="workers"):
        pace([1], 1, 0)


def test_a_run_says_where_it_stands_and_the_time_left_at_start_and_after_each_batch(
        data_dir, capsys):
    FAIL_AT[0] = 7
    with pytest.raises(RuntimeError):
        continue_run(DEMO, square, CASES, COLUMNS, 1, cost="square")
    first, *after = capsys.readouterr().out.splitlines()
    assert first.endswith("0 of 4 cases in data/demo_long_run.csv; 4 to run, 1 at a time "
                          "(no case timed yet to estimate the time left)")
    assert [line.split("; this batch took")[0].strip() for line in after] == [
        "demo_long_run: 1 of 4 cases in data/demo_long_run.csv",
        "demo_long_run: 2 of 4 cases in data/demo_long_run.csv"]
    assert all("2 to run" in after[1] and "more at the pace so far" in line for line in after)
    FAIL_AT[0] = None
    continue_run(DEMO, square, CASES, COLUMNS, 1, cost="square")
    # at the start, before a case runs here, the pace is that of the rows in data/: the cost
    # column says 25 and 4 "seconds", so the two cases left, one at a time, take 29 s
    first, *after = capsys.readouterr().out.splitlines()
    assert first.endswith("2 of 4 cases in data/demo_long_run.csv; 2 to run, 1 at a time, "
                          "about 29 s more at the pace so far")
    assert after[-1].strip().startswith("demo_long_run: 4 of 4 cases") and "to run" not in after[-1]


def process_of(case: tuple[int, int]) -> dict:
    """One case: the process that ran it, in the square column."""
    x, work = case
    return dict(x=x, square=os.getpid(), work=work)


@pytest.mark.parametrize("isolate", [False, True])
def test_isolated_cases_each_run_in_a_process_of_their_own_and_the_others_in_this_one(
        data_dir, isolate):
    done = continue_run(DEMO, process_of, CASES, COLUMNS, 1, isolate=isolate)
    ran_in = set(done["square"])
    assert len(done) == len(CASES)
    assert ran_in == ({os.getpid()} if not isolate else ran_in - {os.getpid()})
    assert len(ran_in) == (len(CASES) if isolate else 1)  # a batch, a pool: its memory returned
