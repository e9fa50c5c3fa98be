"""Kemps tournaments as exact sums over deals (puzzlelab.kemps.summaries, .streaming).

Each summary has one implementation (sums over blocks of deals); a table of games is one block
(`tournament.by_strategy` and friends), a long run many (`streaming.deal_sums`). Both are checked
against the summaries computed a second way, directly from the game rows with plain Python means
over deals (`reference`); the sums do not depend on block size, workers or executor; an
interrupted run resumes; and the committed long-run tables satisfy exact identities between
their parts.
"""

from __future__ import annotations

import inspect
import itertools
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from puzzlelab import cache, registry
from puzzlelab.exact_sums import mean_ci_from_sums
from puzzlelab.kemps import reference as R
from puzzlelab.kemps import streaming as S
from puzzlelab.kemps import summaries as M
from puzzlelab.kemps import tables
from puzzlelab.kemps import tournament as T
from sweep_spy import TaskSpy

DECK20 = range(2, 7)
ALL = T.lineups(["greedy", "kb-greedy", "blocking", "tom"])
DEALS = 40
Z95 = NormalDist().inv_cdf(0.975)  # two-sided 95% normal quantile


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def games():
    return T.tournament(games=DEALS, deck=DECK20)


@pytest.fixture(scope="module")
def sums(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "DATA", tmp_path_factory.mktemp("data"))
        return S.deal_sums(ALL, DEALS, DECK20, deals_per_task=7)  # 7 does not divide 40


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True),
                                  check_dtype=False, rtol=1e-12, atol=1e-14)


def test_strategy_summary_is_the_direct_mean_over_deals(games, sums):
    expected = R.by_strategy_plain(games)
    _same(T.by_strategy(games), expected)
    _same(M.strategy_from_sums(sums), expected)


@pytest.mark.parametrize("focal", ["greedy", "kb-greedy", "blocking", "tom"])
def test_head_to_head_is_the_direct_paired_difference_over_deals(games, sums, focal):
    expected = R.head_to_head_plain(games, focal)
    _same(T.head_to_head(games, focal), expected)
    _same(M.head_to_head_from_sums(sums, focal), expected)


def test_seat_differences_are_the_direct_paired_differences_over_deals(games, sums):
    expected = R.seat_differences_plain(games)
    _same(T.seat_differences(games), expected)
    _same(M.seats_from_sums(sums), expected)


def test_lineup_table_is_the_direct_mean_over_games(games, sums):
    expected = R.lineup_table_plain(games)
    _same(T.lineup_table(games), expected)
    _same(M.lineup_from_sums(sums), expected)


def test_a_table_of_games_is_one_block_of_the_same_sums(games, sums):
    """The games' sums (one block) are the long run's (blocks of 7 deals), row for row."""
    pd.testing.assert_frame_equal(M.merge_sums(T.game_sums(games)), sums)


def test_a_table_of_games_must_be_every_line_up_on_the_same_deals(games):
    with pytest.raises(ValueError, match="same deals"):
        T.by_strategy(games.iloc[1:])
    with pytest.raises(ValueError, match="same deals"):
        T.by_strategy(pd.concat([games, games]))
    with pytest.raises(ValueError, match="focal"):
        T.head_to_head(games, "bold")


def test_each_lineups_win_shares_add_up_to_the_games_with_a_winner(sums):
    t = M.lineup_from_sums(sums)
    per_lineup = t.groupby("lineup", sort=False).agg(win=("win_share", "sum"),
                                                     no_winner=("no_winner", "first"))
    assert np.allclose(per_lineup["win"], 1 - per_lineup["no_winner"])


def test_sums_are_the_same_for_any_block_size_and_workers(data_dir):
    ups = ALL[::9]
    serial = S.deal_sums(ups, 30, DECK20, deals_per_task=4)
    pooled = S.deal_sums(ups, 30, DECK20, deals_per_task=30, workers=2)
    pd.testing.assert_frame_equal(serial, pooled)
    assert not (data_dir / "partial").exists() or not any((data_dir / "partial").iterdir())


def test_sums_are_the_same_on_a_dask_local_cluster(data_dir):
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    ups = [("greedy", "tom", "tom"), ("tom", "greedy", "tom")]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = S.deal_sums(ups, 12, DECK20, deals_per_task=5,
                              executor=client.get_executor())
    pd.testing.assert_frame_equal(on_dask, S.deal_sums(ups, 12, DECK20, deals_per_task=3))


def test_a_task_plays_at_least_games_per_task_games_and_no_more_deals_than_that_needs():
    for lineups in (1, 3, 4, 7, 16, 64, 100_000):
        per = S.deals_per_task_for(lineups)
        assert per >= S.DEALS_PER_TASK and per * lineups >= S.GAMES_PER_TASK
        assert per == S.DEALS_PER_TASK or (per - 1) * lineups < S.GAMES_PER_TASK


def test_blocks_are_sized_by_games_by_default_with_the_same_sums(data_dir, monkeypatch):
    spy = TaskSpy(monkeypatch)
    monkeypatch.setattr(S, "DEALS_PER_TASK", 2)
    monkeypatch.setattr(S, "GAMES_PER_TASK", 6)
    ups = [("greedy",) * 3, ("tom", "greedy", "tom")]
    sums = S.deal_sums(ups, 10, DECK20)
    assert sorted(spy.firsts) == [0, 3, 6, 9]  # 3 deals x 2 line-ups = 6 games a task
    spy.restore()
    pd.testing.assert_frame_equal(sums, S.deal_sums(ups, 10, DECK20, deals_per_task=10))


def test_an_interrupted_run_resumes_without_replaying_finished_blocks(data_dir, monkeypatch):
    spy = TaskSpy(monkeypatch, stop_at=3)
    ups = [("greedy",) * 3]
    with pytest.raises(KeyboardInterrupt):
        S.deal_sums(ups, 50, DECK20, deals_per_task=10, name="resume_demo")
    spy.resume()
    resumed = S.deal_sums(ups, 50, DECK20, deals_per_task=10, name="resume_demo")
    assert spy.firsts == [20, 30, 40]  # the blocks from seeds 0 and 10 were kept
    spy.restore()
    pd.testing.assert_frame_equal(resumed, S.deal_sums(ups, 50, DECK20, deals_per_task=25))


@pytest.mark.parametrize("seed", range(5))
def test_mean_ci_from_exact_sums_equals_the_sample_formula(seed):
    rng = np.random.default_rng(seed)
    s, den = rng.integers(-50, 200, size=int(rng.integers(2, 300))), int(rng.integers(1, 40))
    got = mean_ci_from_sums(len(s), int(s.sum()), int((s * s).sum()), den)
    x = s / den
    assert np.allclose(got, (x.mean(), Z95 * x.std(ddof=1) / np.sqrt(len(x))), rtol=1e-12)


def test_bad_sums_and_lineups_are_refused():
    good = pd.DataFrame([{"table": "seats", "scope": "x", "item": "1 - 2", "measure": "win",
                          "deals": 3, "total": 1, "squares": 1, "denominator": 6}])
    with pytest.raises(ValueError, match="denominator"):
        M.merge_sums(pd.concat([good, good.assign(denominator=12)]))
    with pytest.raises(ValueError, match="integers"):
        M.merge_sums(good.assign(total=1.5))
    with pytest.raises(ValueError, match="columns"):
        M.merge_sums(good.drop(columns="squares"))
    with pytest.raises(ValueError, match="sum of squares"):
        mean_ci_from_sums(3, 9, 1, 1)
    with pytest.raises(ValueError, match="distinct"):
        S.deal_sums([("greedy",) * 3] * 2, 10, DECK20)
    with pytest.raises(ValueError):
        S.deal_sums([("greedy", "nobody", "tom")], 10, DECK20)
    with pytest.raises(TypeError):
        S.deal_sums("greedy", 10, DECK20)


# ----- the committed long runs -----------------------------------------------------------------
def _long_run(name: str) -> pd.DataFrame:
    if not cache.data_path(name).exists():
        pytest.skip(f"{name} is a long run (puzzlelab compute {name} --long-run)")
    return M.merge_sums(cache.read_table(name))


@pytest.mark.parametrize("name", sorted(tables.LONG_RUN_SPECS))
def test_the_long_runs_parts_agree_exactly(name):
    """The strategy, head-to-head and seat rows are exact integer functions of the line-up
    rows; every line-up's seats share the win of every game that has one."""
    sums, spec = _long_run(name), tables.LONG_RUN_SPECS[name]
    assert (sums["deals"] == spec["deals"]).all()
    assert (sums["squares"] * sums["deals"] >= sums["total"] ** 2).all()
    t = sums.set_index(M.KEYS)["total"]
    ups = [tuple(u) for u in spec["lineups"]]

    def seat(up, j, measure="win"):
        return t[("lineup", "/".join(up), str(j), measure)]

    for up in ups:
        no_winner = t[("lineup", "/".join(up), "", "no winner")]
        assert sum(seat(up, j) for j in (1, 2, 3)) == M.SIX * (spec["deals"] - no_winner)
    for s in {n for up in ups for n in up}:
        for measure in ("win", "kemps"):
            held = sum(seat(up, j + 1, measure) for up in ups for j in range(3) if up[j] == s)
            assert t[("strategy", s, "", measure)] == held
    for scope, scoped in [(f"{up[0]} self-play", [up]) for up in ups if len(set(up)) == 1] + \
            [("all line-ups", ups)]:
        for i, j in ((1, 2), (1, 3), (2, 3)):
            assert t[("seats", scope, f"{i} - {j}", "win")] == \
                sum(seat(up, i) - seat(up, j) for up in scoped)
    for f, o in itertools.permutations({n for up in ups for n in up}, 2):
        trio = [up for up in ups if sorted(up) == sorted((f, o, o))]
        if len(trio) == 3:
            focal = sum(seat(up, j + 1) for up in trio for j in range(3) if up[j] == f)
            other = sum(seat(up, j + 1) for up in trio for j in range(3) if up[j] == o)
            assert t[("head_to_head", f"{f} vs {o}", "focal", "win")] == focal
            assert t[("head_to_head", f"{f} vs {o}", "diff", "win")] == 6 * focal - 3 * other


@pytest.mark.parametrize("name", sorted(tables.LONG_RUN_SPECS))
def test_the_long_runs_agree_with_the_thousand_deal_tournament(name):
    """Every line-up's mean win share per seat in the long run lies within five standard errors
    of the committed 1,000-deal tournament's (whose deals are the long run's first 1,000)."""
    big = M.lineup_from_sums(_long_run(name))
    cards = 4 * len(tables.LONG_RUN_SPECS[name]["deck"])
    games = T.unpack(cache.read_table(f"kemps_tournament_{cards}"))
    small = T.seat_rows(games)
    for _, r in big.iterrows():
        x = small[(small["lineup"] == r["lineup"]) & (small["seat"] == r["seat"])]["win"]
        assert abs(x.mean() - r["win_share"]) <= 5 * x.std(ddof=1) / np.sqrt(len(x))


def test_sums_run_writes_the_sums_of_the_line_ups_asked_for(data_dir):
    tables.sums_run(name="cli_demo", lineup_list=["tom/tom/tom", "greedy/tom/tom"], cards=20,
                    deals=6, workers=2)
    expected = S.deal_sums([("tom",) * 3, ("greedy", "tom", "tom")], 6, DECK20)
    pd.testing.assert_frame_equal(M.merge_sums(cache.read_table("cli_demo")), expected)
    with pytest.raises(ValueError, match="a name of their own"):
        tables.sums_run(name="kemps_million_28", lineup_list=["tom/tom/tom"], deals=4)
    with pytest.raises(ValueError, match="strategy"):
        tables.sums_run(name="x", lineup_list=["tom/nobody/tom"], deals=4)


def test_puzzlelab_compute_rebuilds_every_long_run_on_any_executor():
    """`puzzlelab compute NAME --long-run` calls the table layer's rebuilder of each long run,
    with executor and workers; that is the command each records."""
    builds = registry.rebuilders()
    for name, table in tables.LONG_RUNS.items():
        assert table.long_run and table.command == f"puzzlelab compute {name} --long-run"
        assert {"executor", "workers"} <= set(inspect.signature(builds[name]).parameters)
