"""Kemps tournaments as exact sums over deals (puzzlelab.kemps.streaming).

The summaries from sums are checked against the summaries of the full game table (the
row-by-row way, `tournament.by_strategy` and friends) on the same games; the sums do not depend
on block size, workers or executor; an interrupted run resumes; and the committed long-run
tables satisfy exact identities between their parts.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from puzzlelab import cache
from puzzlelab.kemps import streaming as S
from puzzlelab.kemps import tournament as T

DECK20 = range(2, 7)
ALL = T.lineups(["greedy", "kb-greedy", "blocking", "tom"])
DEALS = 40


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


def test_strategy_summary_equals_the_row_by_row_one(games, sums):
    _same(S.strategy_from_sums(sums), T.by_strategy(games))


@pytest.mark.parametrize("focal", ["greedy", "kb-greedy", "blocking", "tom"])
def test_head_to_head_equals_the_row_by_row_one(games, sums, focal):
    _same(S.head_to_head_from_sums(sums, focal), T.head_to_head(games, focal))


def test_seat_differences_equal_the_row_by_row_ones(games, sums):
    _same(S.seats_from_sums(sums), T.seat_differences(games))


def test_lineup_table_equals_the_row_by_row_one(games, sums):
    _same(S.lineup_from_sums(sums), T.lineup_table(games))


def test_each_lineups_win_shares_add_up_to_the_games_with_a_winner(sums):
    t = S.lineup_from_sums(sums)
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


def test_an_interrupted_run_resumes_without_replaying_finished_blocks(data_dir, monkeypatch):
    real, calls = S._block_sums, []

    def counting(params):
        calls.append(params[1])
        if len(calls) == 3 and stop:
            raise KeyboardInterrupt
        return real(params)

    counting.__module__, counting.__qualname__ = real.__module__, real.__qualname__
    monkeypatch.setattr(S, "_block_sums", counting)
    ups = [("greedy",) * 3]
    stop = True
    with pytest.raises(KeyboardInterrupt):
        S.deal_sums(ups, 50, DECK20, deals_per_task=10, name="resume_demo")
    stop, calls[:] = False, []
    resumed = S.deal_sums(ups, 50, DECK20, deals_per_task=10, name="resume_demo")
    assert calls == [20, 30, 40]  # the blocks from seeds 0 and 10 were kept
    monkeypatch.setattr(S, "_block_sums", real)
    pd.testing.assert_frame_equal(resumed, S.deal_sums(ups, 50, DECK20, deals_per_task=25))


@pytest.mark.parametrize("seed", range(5))
def test_mean_ci_from_exact_sums_equals_the_sample_formula(seed):
    rng = np.random.default_rng(seed)
    s, den = rng.integers(-50, 200, size=int(rng.integers(2, 300))), int(rng.integers(1, 40))
    got = S.mean_ci_from_sums(len(s), int(s.sum()), int((s * s).sum()), den)
    assert np.allclose(got, T.mean_ci(s / den), rtol=1e-12)


def test_bad_sums_and_lineups_are_refused():
    good = pd.DataFrame([{"table": "seats", "scope": "x", "item": "1 - 2", "measure": "win",
                          "deals": 3, "total": 1, "squares": 1, "denominator": 6}])
    with pytest.raises(ValueError, match="denominator"):
        S.merge_sums(pd.concat([good, good.assign(denominator=12)]))
    with pytest.raises(ValueError, match="integers"):
        S.merge_sums(good.assign(total=1.5))
    with pytest.raises(ValueError, match="columns"):
        S.merge_sums(good.drop(columns="squares"))
    with pytest.raises(ValueError, match="sum of squares"):
        S.mean_ci_from_sums(3, 9, 1, 1)
    with pytest.raises(ValueError, match="distinct"):
        S.deal_sums([("greedy",) * 3] * 2, 10, DECK20)
    with pytest.raises(ValueError):
        S.deal_sums([("greedy", "nobody", "tom")], 10, DECK20)
    with pytest.raises(TypeError):
        S.deal_sums("greedy", 10, DECK20)


# ----- the committed long runs -----------------------------------------------------------------
def _long_run(name: str) -> pd.DataFrame:
    if not cache.data_path(name).exists():
        pytest.skip(f"{name} is a long run (python -m puzzlelab.kemps.streaming --table {name})")
    return S.merge_sums(cache.read_table(name))


@pytest.mark.parametrize("name", sorted(S.TABLES))
def test_the_long_runs_parts_agree_exactly(name):
    """The strategy, head-to-head and seat rows are exact integer functions of the line-up
    rows; every line-up's seats share the win of every game that has one."""
    sums, spec = _long_run(name), S.TABLES[name]
    assert (sums["deals"] == spec["deals"]).all()
    assert (sums["squares"] * sums["deals"] >= sums["total"] ** 2).all()
    t = sums.set_index(S.KEYS)["total"]
    ups = [tuple(u) for u in spec["lineups"]]

    def seat(up, j, measure="win"):
        return t[("lineup", "/".join(up), str(j), measure)]

    for up in ups:
        no_winner = t[("lineup", "/".join(up), "", "no winner")]
        assert sum(seat(up, j) for j in (1, 2, 3)) == S.SIX * (spec["deals"] - no_winner)
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


@pytest.mark.parametrize("name", sorted(S.TABLES))
def test_the_long_runs_agree_with_the_thousand_deal_tournament(name):
    """Every line-up's mean win share per seat in the long run lies within five standard errors
    of the committed 1,000-deal tournament's (whose deals are the long run's first 1,000)."""
    big = S.lineup_from_sums(_long_run(name))
    cards = 4 * len(S.TABLES[name]["deck"])
    games = T.unpack(cache.read_table(f"kemps_tournament_{cards}"))
    small = T.seat_rows(games)
    for _, r in big.iterrows():
        x = small[(small["lineup"] == r["lineup"]) & (small["seat"] == r["seat"])]["win"]
        assert abs(x.mean() - r["win_share"]) <= 5 * x.std(ddof=1) / np.sqrt(len(x))


def test_the_command_line_writes_the_sums_of_the_line_ups_asked_for(data_dir):
    S.main(["--lineups", "tom/tom/tom", "greedy/tom/tom", "--cards", "20", "--deals", "6",
            "--name", "cli_demo", "--workers", "2"])
    expected = S.deal_sums([("tom",) * 3, ("greedy", "tom", "tom")], 6, DECK20)
    pd.testing.assert_frame_equal(S.merge_sums(cache.read_table("cli_demo")), expected)
    with pytest.raises(ValueError, match="--name"):
        S.main(["--lineups", "tom/tom/tom", "--deals", "4"])
    with pytest.raises(ValueError, match="strategy"):
        S.main(["--lineups", "tom/nobody/tom", "--deals", "4", "--name", "x"])
