"""What the Hanabi notebook shows of the hat strategies (puzzlelab.hanabi.notebook, tables)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from puzzlelab import cache, sources
from puzzlelab.hanabi import hat_strategies as S
from puzzlelab.hanabi import hat_sweep as W
from puzzlelab.hanabi import notebook as N
from puzzlelab.hanabi import tables as T


@pytest.fixture(scope="module")
def sums(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cache, "DATA", tmp_path_factory.mktemp("data"))
        return W.game_sums(8, deals_per_task=8)


def test_the_explored_game_shows_every_hint_decoded_by_every_other_player():
    for players, variant in [(2, "plain"), (3, "mixed"), (4, "separate"), (5, "recommendation")]:
        table = N.explore_hat_game(players, variant, seed=3, turns=12)
        hints = table[table["message of M"] != ""]
        sent, decoded = zip(*(v.split(" → ") for v in hints["value sent → decoded"]))
        assert sent == decoded
        team = S.play(players, 3, "recommendation" if variant == "recommendation" else
                      "information", "plain" if variant == "recommendation" else variant)
        shown = [t for t in team.game.history[:12] if t.move.kind == "hint"]
        assert len(hints) == len(shown) * (players - 1)
        assert [int(m.split(" of ")[0]) for m in hints["message of M"]] == [
            s.message for s in team.steps[:len(shown)] for _ in range(players - 1)]


def test_the_views_cover_every_player_count_and_way_of_playing():
    views = N.hat_game_views(seed=1, turns=3)
    assert len(views) == 4 * 3 + 1 and "5 players, recommendation" in views
    assert all(isinstance(v, pd.DataFrame) and len(v) for v in views.values())


def test_tables_and_figure_from_sums(sums):
    summary = T.hat_summary(sums)
    scores = N.hat_score_table(summary)
    assert list(scores.columns) == ["2 players", "3 players", "4 players", "5 players"]
    assert scores.loc[N.HAT_VARIANTS["recommendation"], "2 players"] == "–"
    assert all("\u00a0±\u00a0" in c for c in scores.loc[N.HAT_VARIANTS["mixed"]])
    gains = N.hat_gains_table(T.hat_gains(sums))
    assert list(gains.index) == [f"{a} - {b}" for a, b in W.GAINS]
    fig = N.plot_hat_scores(summary, name=None)
    assert len(fig.axes) == 2 and fig.axes[0].get_ylabel().startswith("mean score")
    fig = N.plot_hat_scores(summary, W.gains_from_sums(sums), name=None)
    assert len(fig.axes) == 3 and fig.axes[2].get_ylabel().startswith("gain over plain")
    with pytest.raises(ValueError, match="gains"):
        N.plot_hat_scores(summary, summary, name=None)


def test_a_stale_summary_of_the_long_run_is_recomputed(tmp_path, monkeypatch):
    if not cache.data_path(T.HAT_GAMES_TABLE).exists():
        pytest.skip(f"{T.HAT_GAMES_TABLE} is a long run (puzzlelab compute hanabi_hat_games --long-run)")
    committed = cache.read_table(T.HAT_GAMES_TABLE)
    monkeypatch.setattr(cache, "DATA", tmp_path)
    cache.write_table(committed, T.HAT_GAMES_TABLE)
    with pytest.warns(cache.CacheWarning, match="missing"):
        right = T.hat_summary()
    cache.write_table(right.assign(score=right.score + 0.5), T.HAT_SUMMARY)
    with pytest.warns(cache.CacheWarning, match="not what the committed long run gives"):
        again = T.hat_summary()
    pd.testing.assert_frame_equal(again, right)
    with pytest.warns(cache.CacheWarning, match="missing"):
        gains = T.hat_gains()
    pd.testing.assert_frame_equal(gains, W.gains_from_sums(committed), check_dtype=False,
                                  rtol=1e-9)  # as kept in CSV, to 12 digits


def test_published_figures_stand_beside_ours_marked_quoted(sums):
    quoted = pd.DataFrame([{"source": "cox2015", "strategy": "information", "players": 5,
                            "score": 1.0, "perfect_pct": np.nan, "differs": "their rules"}])
    table = N.beside_published(T.hat_summary(sums), quoted)
    five = table.loc[5]
    assert list(five.figures) == ["measured", "measured", "quoted"]
    assert five.loc["Cox, De Silva, Deorsey, Kenter, Retter and Tobin (2015), information",
                    "perfect games (%)"] == "–"
    with pytest.raises(ValueError, match="citation key"):
        N.beside_published(T.hat_summary(sums), quoted.assign(source="nobody"))


def test_the_published_figures_are_cited_and_shown_by_default(sums):
    quoted = N.published_hat_scores()
    assert set(quoted.source) <= set(sources.REFERENCES)
    assert quoted.players.between(2, 5).all() and quoted.score.between(0, 25).all()
    shown = N.beside_published(T.hat_summary(sums))
    assert shown.equals(N.beside_published(T.hat_summary(sums), quoted))
    assert (shown.figures == "quoted").sum() == len(quoted)


def test_bad_explorations_say_what_is_wrong():
    for kwargs, pattern in [({"players": 6}, "players"), ({"variant": "best"}, "variant"),
                            ({"players": 3, "variant": "recommendation"}, "five players"),
                            ({"turns": 0}, "turns"), ({"seed": -1}, "seed")]:
        with pytest.raises(ValueError, match=pattern):
            N.explore_hat_game(**kwargs)


# ----- the strong strategy beside the peer bots ------------------------------------------------

def test_the_peer_table_shows_ours_and_the_peers_measured_and_wu_quoted():
    peers = T.peer_scores()
    shown = N.beside_peers(peers)
    assert list(shown.index) == [2, 3, 4, 5]
    assert [c.split(",")[0] for c in shown.columns] == [
        "ours", "O'Dwyer's InfoBot", "O'Dwyer's SmartBot", "Wu (2016)"]
    for n in (2, 3, 4, 5):
        ours = peers[(peers.program == "puzzlelab") & (peers.bot == "strong best")
                     & (peers.players == n)].iloc[0]
        assert shown.loc[n].iloc[0].startswith(f"{ours['mean']:.3f}")
        assert shown.loc[n].iloc[0].endswith(f"{ours['perfect_pct']:.1f}\u00a0%")
    both = N.beside_peers(peers, ours=["strong best", "plain"])
    assert len(both.columns) == len(shown.columns) + 1


def test_bad_peer_tables_are_refused_clearly():
    with pytest.raises(ValueError, match="peer_scores DataFrame"):
        N.beside_peers(pd.DataFrame({"players": [2]}))
    with pytest.raises(ValueError, match="ours must be one of"):
        N.beside_peers(T.peer_scores(), ours=["cheat"])
    with pytest.raises(ValueError, match="none of the bots"):
        N.beside_peers(T.peer_scores().assign(bot="other"), quoted=N.published_hat_scores()
                       .iloc[:0])
