"""Hostile but fair input for every public function of puzzlelab.kemps (issue 16's examples too).

Every public callable, given random values of every kind, returns or raises ValueError /
TypeError with a message, within a time limit; the reported examples each fail at once.
"""

from __future__ import annotations

import signal
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, well_behaved

import importlib

import puzzlelab.kemps as kemps_package
from puzzlelab.kemps.matches import play as play_game, play_scores
from puzzlelab.kemps.tournament import BLOCK, tournament as run_tournament

NAMES = ["cards", "game", "knowledge", "strategies", "matches", "tournament", "streaming",
         "summaries", "env", "reference", "source", "tables", "notebook"]
MODULES = [kemps_package, *(importlib.import_module(f"puzzlelab.kemps.{n}") for n in NAMES)]
CALLABLES = [(m.__name__, name, f) for m in MODULES for name, f in public_callables(m)]


def test_every_module_lists_its_public_names():
    assert all(m.__all__ for m in MODULES)
    assert len(CALLABLES) > 50


@pytest.mark.parametrize("module, name, f", CALLABLES, ids=[f"{m}.{n}" for m, n, _ in CALLABLES])
@settings(max_examples=12, deadline=None)
@given(args=st.lists(any_value(), min_size=1, max_size=3))
def test_public_callables_are_well_behaved(module, name, f, args):
    well_behaved(f, *args, seconds=5)


# ----- the reported examples, one by one -------------------------------------------------------
@pytest.mark.parametrize("deck", [[2.9, 3.9, 4.9, 5.9, 6.9], "23456", [True, 2, 3, 4, 5],
                                  [2, 3, 4, 5, None], {2: 1}])
def test_decks_of_the_wrong_kind_are_refused(deck):
    with pytest.raises(TypeError, match="deck"):
        play_game(["greedy"] * 3, 0, deck)


def test_huge_decks_are_refused_at_once():
    with pytest.raises(ValueError, match="1..13"):
        play_game(["greedy"] * 3, 0, range(10**20))


def test_numpy_integer_decks_and_seeds_are_accepted():
    import numpy as np

    rec = play_game(["greedy"] * 3, np.int64(3), np.arange(2, 9))
    assert rec == play_game(["greedy"] * 3, 3, range(2, 9))


def test_duplicate_strategies_are_refused():
    with pytest.raises(ValueError, match="distinct"):
        run_tournament(["greedy", "greedy"], games=2)


def test_absurd_tournaments_are_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(ValueError, match="largest that fits is games="):
        run_tournament(games=10**9)
    assert time.perf_counter() - start < 1


def test_play_scores_rejects_what_play_rejects():
    for call in (play_game, play_scores):
        with pytest.raises(ValueError, match="max_turns"):
            call(["greedy"] * 3, 0, range(2, 9), max_turns=-5)


class Malformed:
    """A custom agent that returns a move of the wrong shape."""

    name = "malformed"

    def reset(self, game, me):
        pass

    def choose(self, game, me):
        return [0, 1]


class WrongKind(Malformed):
    """Returns a table position that is not an integer."""

    name = "wrong-kind"

    def choose(self, game, me):
        return ("0",), (game.hands[me][0],), ()


@pytest.mark.parametrize("agent, move", [(Malformed(), "[0, 1]"), (WrongKind(), "('0',)")])
def test_malformed_moves_name_the_agent_and_the_move(agent, move):
    for call in (play_game, play_scores):
        with pytest.raises(ValueError, match=f"agent '{agent.name}' in seat 1") as err:
            call([agent, "greedy", "tom"], 0, range(2, 9))
        assert move in str(err.value)


def test_tournament_progress_bar_counts_games(monkeypatch):
    """The bar advances in blocks of games (many updates per line-up), its total is every game."""
    from puzzlelab import sweeps

    seen = {}
    real = sweeps.sweep

    def spy(task, params, **kwargs):
        seen["tasks"] = len(params)
        return real(task, params, **kwargs)

    monkeypatch.setattr(sweeps, "sweep", spy)
    games = run_tournament(["greedy"], games=2 * BLOCK + 1, deck=range(2, 9))
    assert len(games) == 2 * BLOCK + 1 and seen["tasks"] == 3


def test_ctrl_c_stops_a_two_worker_tournament_quickly():
    """SIGINT during a long tournament on a two-process pool ends it within a few seconds."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 3.0)
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_tournament(games=20_000, workers=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.perf_counter() - start < 3.0 + 3.0


# --- sums of integers only, unknown agents refused, records checked ------------------------------
from puzzlelab import cache, exact_sums  # noqa: E402
from puzzlelab.kemps import source, summaries  # noqa: E402
from puzzlelab.kemps.game import GameRecord, Turn  # noqa: E402
from puzzlelab.kemps import streaming as S  # noqa: E402
from puzzlelab.kemps import tables  # noqa: E402


def test_issue27_confidence_intervals_take_integer_sums_only():
    with pytest.raises(ValueError, match="deals must be an integer at least 1"):
        exact_sums.mean_ci_from_sums(0, 0, 0, 1)
    with pytest.raises(TypeError, match="deals must be an integer"):
        exact_sums.mean_ci_from_sums("10", "5", "9", "1")
    with pytest.raises(TypeError, match="total must be an integer"):
        exact_sums.mean_ci_from_sums(4, float("-inf"), 1, 1)
    mean, _ = exact_sums.mean_ci_from_sums(4, 6, 10, 2)  # the mean of x = S / den over 4 deals
    assert mean == 6 / (4 * 2)


def test_issue27_a_long_runs_check_needs_a_list_of_lineups():
    with pytest.raises(TypeError, match="lineup_list must be a list or tuple"):
        tables.check_long_run(1000000, 0)
    with pytest.raises(ValueError, match="deals must be an integer at least 1"):
        tables.check_long_run(["tom/tom/tom"], 0)


def test_issue27_head_to_head_refuses_an_agent_it_has_no_sums_for(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)
    sums = S.deal_sums([("greedy", "tom", "tom"), ("tom", "greedy", "greedy")], 4,
                       range(1, 6), deals_per_task=2)
    assert not summaries.head_to_head_from_sums(sums, "greedy").empty
    with pytest.raises(ValueError, match="focal"):
        summaries.head_to_head_from_sums(sums, "nobody")


def test_issue27_game_records_are_checked_so_the_report_columns_never_index_past_them():
    rec = play_game(["greedy", "kb-greedy", "blocking"], seed=3, deck=range(1, 6), knowledge=True)
    t = rec.trace[0]
    with pytest.raises(ValueError, match="player"):
        Turn(t.turn, t.round, 7, t.table, t.hand, t.picked, t.discarded, t.why)
    with pytest.raises(ValueError, match="collect"):
        Turn(t.turn, t.round, 0, t.table, t.hand, t.picked, t.discarded, ("collect", 1))
    with pytest.raises(ValueError, match="cards"):
        GameRecord(rec.strategies, rec.seed, rec.deck, rec.scores, rec.turns, rec.rounds,
                   rec.end, [Turn(0, 0, 0, (999,), (), (), (), ())])
    with pytest.raises(TypeError, match="snapshot"):
        GameRecord(rec.strategies, rec.seed, rec.deck, rec.scores, rec.turns, rec.rounds,
                   rec.end, rec.trace, [{"turn": 0}])
    assert source.comment_text(rec, t)  # the real record still reads


def test_a_custom_reason_of_any_shape_is_free():
    """Fuzz finding: a reason whose first item is a list (a custom agent's) was a TypeError."""
    rec = play_game(["greedy", "greedy", "greedy"], seed=3, deck=range(1, 6))
    t = rec.trace[0]
    turn = Turn(t.turn, t.round, t.player, t.table, t.hand, t.picked, t.discarded,
                ([1, 4, 1], "Newest"))
    assert turn.why[1] == "Newest"


def test_block_sums_refuses_line_ups_that_are_not_sequences_of_names():
    """Found by the fuzz: line-ups given as numbers reached a comprehension (a TypeError)."""
    import numpy as np
    from puzzlelab import checks
    from puzzlelab.kemps.summaries import block_sums
    with pytest.raises(checks.ArgumentTypeError, match="line-up"):
        block_sums(range(-3, 3), np.zeros((6, 1, 3), dtype=int), np.zeros((6, 1), dtype=bool))
