"""The benchmark harness (puzzlelab.timing) and the benchmark tables' shared schema.

No timed assertions: only what the harness records and in which order it measures.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from puzzlelab.cache import read_csv_checked
from puzzlelab.timing import (
    COLUMNS, SPEED_COLUMNS, SPEED_NAMES, Method, Task, cold_run, interleaved, measure, speed_table,
    speed_view,
)

DATA = Path(__file__).resolve().parent.parent / "data"
OUTSIDE = ["source", "what", "figure", "hardware", "like_for_like", "compare_with", "note"]
# Tables of another schema than the shared one (scores, not only times).
PEER_HANABI = ["program", "bot", "players", "games", "seed", "mean", "se", "ci_low", "ci_high",
               "perfect_pct", "games_per_cpu_s", "cpu_s", "wall_s", "commit", "build", "machine",
               "cores", "load_1min", "note"]
OWN_SCHEMA = {"bench_outside": OUTSIDE, "bench_hanabi_peer": PEER_HANABI}
TABLES = sorted(p for p in DATA.glob("bench_*.csv") if p.stem not in OWN_SCHEMA)


def test_pairs_are_measured_interleaved():
    order: list[str] = []
    times = interleaved({"A": lambda: order.append("A"), "B": lambda: order.append("B")}, 3)
    assert order == ["A", "B"] * 3
    assert [len(t) for t in times.values()] == [3, 3] and all(s >= 0 for s in times["A"])


def test_a_label_stops_once_it_has_its_count():
    order: list[str] = []
    interleaved({"A": lambda: order.append("A"), "B": lambda: order.append("B")}, {"A": 3, "B": 1})
    assert order == ["A", "B", "A", "A"]


def test_a_cold_run_happens_in_a_fresh_interpreter_and_reports_peak_memory():
    run = cold_run(Task("math", "factorial", (20,)))
    assert run.finished and run.result == repr(math.factorial(20))
    assert run.peak_mib > 0 and run.whole_seconds >= run.seconds >= 0


def test_a_cold_run_past_its_time_limit_is_recorded_as_not_finished():
    run = cold_run(Task("time", "sleep", (30,)), timeout=0.5)
    assert not run.finished and run.result == "did not finish in 0.5 s"


def test_measure_refuses_a_like_for_like_baseline_that_computes_something_else():
    methods = [Method("five", Task("math", "factorial", (5,)), cold=False),
               Method("six", Task("math", "factorial", (6,)), "baseline", cold=False)]
    with pytest.raises(AssertionError, match="six gives 720"):
        measure("test", "factorials", methods, repeat=1)


def test_measure_writes_rows_of_the_shared_schema():
    methods = [Method("sum", Task("builtins", "sum", ([1, 2, 3],)), cold=False),
               Method("len", Task("builtins", "len", ([1, 2, 3],)), "baseline",
                      like_for_like=False, cold=False, note="another computation")]
    rows = measure("test", "small", methods, repeat=2, profile_below=0)
    assert [list(r) for r in rows] == [COLUMNS, COLUMNS]
    assert [r["result"] for r in rows] == ["6", "3"] and [r["reps"] for r in rows] == [2, 2]
    assert rows[0]["times_subject"] == 1 and rows[1]["like_for_like"] == "no"


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_every_benchmark_table_has_the_shared_schema(path):
    table = read_csv_checked(path)
    assert list(table.columns) == COLUMNS
    assert set(table.role) <= {"subject", "baseline"}
    assert set(table.like_for_like) <= {"yes", "no"}
    assert set(table.finished) <= {"yes", "no", "not run"}
    assert (table.cores >= 1).all()
    assert (table[table.role == "subject"].groupby("case").size() == 1).all()
    finished = table[table.finished == "yes"]
    assert finished[["cold_s", "warm_median_s"]].notna().any(axis=1).all()


def test_outside_figures_say_where_they_come_from():
    table = read_csv_checked(DATA / "bench_outside.csv")
    assert list(table.columns) == OUTSIDE
    assert set(table.like_for_like) <= {"yes", "no"} and table.source.notna().all()
    assert table.hardware.notna().all()


def test_the_hanabi_peer_table_puts_both_programs_on_the_same_games():
    table = read_csv_checked(DATA / "bench_hanabi_peer.csv")
    assert list(table.columns) == PEER_HANABI
    cases = set(zip(table.program, table.bot, table.players))
    assert {("Quuxplusone/Hanabi", b, p) for b in ("InfoBot", "SmartBot")
            for p in range(2, 6)} <= cases
    ours = table[table.program == "puzzlelab"]
    assert not ours.empty
    assert all(sorted(p) == [2, 3, 4, 5] for p in ours.groupby("bot").players.apply(list))
    assert table.games.nunique() == 1 and set(table.program) == {"Quuxplusone/Hanabi",
                                                                  "puzzlelab"}
    z = 1.959964
    assert (abs(table.ci_low - (table["mean"] - z * table.se)) < 2e-4).all()
    assert (abs(table.ci_high - (table["mean"] + z * table.se)) < 2e-4).all()
    assert (abs(table.games_per_cpu_s * table.cpu_s / table.games - 1) < 0.01).all()
    assert table["mean"].between(0, 25).all() and table.perfect_pct.between(0, 100).all()
    assert table[["commit", "build", "machine"]].notna().all().all() and (table.cores >= 1).all()


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_speed_tables_show_at_most_eight_columns(path):
    shown = speed_table(path.stem)
    assert list(shown.columns) == SPEED_COLUMNS and isinstance(shown, pd.DataFrame)


def test_a_table_of_another_schema_shows_its_first_eight_columns():
    assert list(speed_table("bench_outside").columns) == OUTSIDE


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_speed_views_name_every_column_in_words(path):
    shown = speed_view(path.stem)
    assert list(shown.frame.columns) == [SPEED_NAMES[c] for c in SPEED_COLUMNS]
    assert all("_" not in name for name in shown.frame.columns)
    assert not shown.show_index
