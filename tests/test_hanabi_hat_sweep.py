"""Hanabi games over many deals as exact sums (puzzlelab.hanabi.hat_sweep).

The summaries from sums are checked against the same statistics computed row by row from
per-deal results; the sums do not depend on block size, executor or hash seed; an
interrupted run resumes; the committed long run satisfies exact identities between its rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from puzzlelab import cache
from puzzlelab.exact_sums import Z95, ratio_ci_from_sums
from puzzlelab.hanabi import hat_sweep as W
from puzzlelab.hanabi import tables as T
from puzzlelab.hanabi.hat_compiled import BITS_SCALE, ENDS
from sweep_spy import TaskSpy

DEALS = 30


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def sums(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "DATA", tmp_path_factory.mktemp("data"))
        return W.game_sums(DEALS, players=(3, 5), deals_per_task=7)  # 7 does not divide 30


def _mean_ci(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return x.mean(), Z95 * x.std(ddof=1) / np.sqrt(len(x))


def test_the_summary_equals_the_row_by_row_statistics(sums):
    summary = W.summary_from_sums(sums).set_index(["players", "variant"])
    for players in (3, 5):
        for variant in W.variants_for(players):
            st = W.deal_stats(players, range(DEALS), variant)
            row = summary.loc[(players, variant)]
            score, lost = st[:, 0], st[:, 1] == ENDS.index("fuses")
            assert np.allclose((row.score, row.score_ci), _mean_ci(score))
            assert np.allclose((row.score_zero, row.score_zero_ci),
                               _mean_ci(np.where(lost, 0, score)))
            assert np.isclose(row.perfect_pct, 100 * (score == 25).mean())
            assert np.isclose(row.bits_per_hint, st[:, 4].sum() / st[:, 3].sum() / BITS_SCALE)
            assert np.isclose(row.messages_per_hint, st[:, 5].sum() / st[:, 3].sum())
            assert row.deals == DEALS


def test_paired_gains_are_differences_of_the_same_deals(sums):
    gains = W.gains_from_sums(sums).set_index(["players", "difference"])
    for players in (3, 5):
        for a, b in W.GAINS:
            diff = W.deal_stats(players, range(DEALS), a)[:, 0] - \
                W.deal_stats(players, range(DEALS), b)[:, 0]
            row = gains.loc[(players, f"{a} - {b}")]
            assert np.allclose((row.score_gain, row.ci), _mean_ci(diff))


def test_the_ratio_interval_is_the_delta_method():
    rng = np.random.default_rng(3)
    b = rng.integers(5, 30, 400)
    a = 3 * b + rng.integers(-4, 5, 400)
    r, half = ratio_ci_from_sums(400, (a.sum(), (a * a).sum()), (b.sum(), (b * b).sum()),
                                 (a * b).sum())
    resid = a - r * b
    assert np.isclose(r, a.sum() / b.sum())
    assert np.isclose(half, Z95 * resid.std(ddof=1) / np.sqrt(400) / b.mean())


def test_sums_are_the_same_for_any_block_size_and_executor(data_dir):
    serial = W.game_sums(12, players=(2, 4), deals_per_task=5)
    pooled = W.game_sums(12, players=(2, 4), deals_per_task=12, workers=2)
    with ThreadPoolExecutor(2) as pool:
        threads = W.game_sums(12, players=(2, 4), deals_per_task=4, executor=pool)
    pd.testing.assert_frame_equal(serial, pooled)
    pd.testing.assert_frame_equal(serial, threads)
    assert not (data_dir / "partial").exists() or not any((data_dir / "partial").iterdir())


def test_sums_are_the_same_on_a_dask_local_cluster(data_dir):
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = W.game_sums(8, players=(3, 5), deals_per_task=3,
                              executor=client.get_executor())
    pd.testing.assert_frame_equal(on_dask, W.game_sums(8, players=(3, 5), deals_per_task=8))


def test_sums_do_not_depend_on_the_hash_seed(tmp_path):
    code = ("import sys; from puzzlelab import cache; from pathlib import Path; "
            "cache.DATA = Path(sys.argv[1]); from puzzlelab.hanabi import hat_sweep as W; "
            "print(W.game_sums(6, players=(3, 5), deals_per_task=4).to_csv(index=False))")
    outs = {subprocess.run([sys.executable, "-c", code, str(tmp_path / h)], capture_output=True,
                           text=True, check=True, env={**os.environ, "PYTHONHASHSEED": h,
                                                       "TQDM_DISABLE": "1"}).stdout
            for h in ("0", "1", "977")}
    assert len(outs) == 1


def test_an_interrupted_run_resumes_without_replaying_finished_blocks(data_dir, monkeypatch):
    spy = TaskSpy(monkeypatch, stop_at=3)
    with pytest.raises(KeyboardInterrupt):
        W.game_sums(20, players=(2,), deals_per_task=4, name="resume_demo")
    spy.resume()
    resumed = W.game_sums(20, players=(2,), deals_per_task=4, name="resume_demo")
    assert spy.firsts == [8, 12, 16]  # the blocks from deals 0 and 4 were kept
    spy.restore()
    pd.testing.assert_frame_equal(resumed, W.game_sums(20, players=(2,), deals_per_task=10))


def test_bad_arguments_are_refused_clearly(data_dir):
    for bad, pattern in [(lambda: W.game_sums(1), "deals"),
                         (lambda: W.game_sums(10, players=(6,)), "players"),
                         (lambda: W.deal_stats(3, [0], "best"), "variant"),
                         (lambda: W.summary_from_sums(pd.DataFrame({"x": [1]})), "columns")]:
        with pytest.raises(ValueError, match=pattern):
            bad()


# ----- the committed long run -------------------------------------------------------------------

def _long_run() -> pd.DataFrame:
    if not cache.data_path(T.HAT_GAMES_TABLE).exists():
        pytest.skip(f"{T.HAT_GAMES_TABLE} is a long run (puzzlelab compute hanabi_hat_games --long-run)")
    return cache.read_table(T.HAT_GAMES_TABLE)


def test_the_long_run_rows_agree_exactly():
    sums = _long_run()
    t = sums.set_index(W.KEYS)
    assert (sums["deals"] == T.HAT_DEALS).all()
    assert set(sums["players"]) == set(W.PLAYERS)
    assert all(int(q) * int(n) >= int(x) ** 2  # Python integers: these products pass 2^63
               for q, n, x in zip(sums["squares"], sums["deals"], sums["total"]))
    for players in W.PLAYERS:
        for variant in W.variants_for(players):
            total = t["total"]
            assert total[(players, variant, "score_zero")] <= total[(players, variant, "score")]
            assert total[(players, variant, "perfect")] * 25 <= total[(players, variant, "score")]
            assert total[(players, variant, "lost")] <= total[(players, variant, "fuses_used")]
        for a, b in W.GAINS:  # a paired gain is the difference of the two totals, exactly
            assert t["total"][(players, f"{a} - {b}", "score")] == \
                t["total"][(players, a, "score")] - t["total"][(players, b, "score")]


def test_the_long_run_starts_with_the_deals_replayed_here():
    sums = _long_run().set_index(W.KEYS)
    summary = W.summary_from_sums(_long_run()).set_index(["players", "variant"])
    for players in W.PLAYERS:
        st = W.deal_stats(players, range(200), "plain")
        row = summary.loc[(players, "plain")]
        # the first 200 deals' mean lies within five standard errors of the 20,000-deal mean
        assert abs(st[:, 0].mean() - row.score) <= 5 * st[:, 0].std(ddof=1) / np.sqrt(200) + 1e-9
    assert sums.loc[(5, "plain", "hints"), "total"] > 0


def test_another_size_is_never_written_over_the_committed_table(data_dir):
    T.hat_games_run(deals=6, workers=2)
    assert sorted(p.stem for p in data_dir.glob("*.csv")) == [f"{T.HAT_GAMES_TABLE}_deals6"]
    written = cache.read_table(f"{T.HAT_GAMES_TABLE}_deals6")
    assert cache.table_metadata(f"{T.HAT_GAMES_TABLE}_deals6")["params"]["deals"] == 6
    pd.testing.assert_frame_equal(written, cache.read_csv_checked(
        cache.write_csv(W.game_sums(6), data_dir / "again.csv")))
    with pytest.raises(ValueError, match="another name"):
        T.hat_games_run(deals=6, name=T.HAT_GAMES_TABLE)
