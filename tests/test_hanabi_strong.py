"""The strong information strategy (puzzlelab.hanabi.info_compiled) against the game engine.

Every compiled game is replayed move by move in `game.Game`, which checks each move's
legality and keeps its own score: the compiled rules (plays, discards, tokens, fuses, drawing,
the end) must agree with the engine's on every deal. Inside the compiled game every hint's
values are read back by each teammate's own splitting of the sum, and public knowledge is
checked true of every hand on every turn; a break raises, so every deal played here is also a
check of the hat code.
"""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.hanabi import hat_sweep
from puzzlelab.hanabi import info_compiled as I
from puzzlelab.hanabi.game import Game
from puzzlelab.hanabi.rules import Rules, cox_rules


def replayed(rules: Rules, seed: int, hints: str) -> Game:
    """Deal `seed` replayed in the engine from the compiled strategy's moves."""
    game = Game(rules, seed)
    for move in I.compiled_moves(rules, seed, hints):
        assert not game.over
        game.apply(move)  # refuses an illegal move
    assert game.over
    return game


@pytest.mark.parametrize("hints", I.HINT_COUNTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_compiled_games_replay_in_the_engine_with_the_same_outcome(players, hints):
    seeds = range(40 if hints == "best" else 12)
    stats = I.play_deals(players, seeds, hints)
    for seed in seeds:
        g = replayed(Rules(players), seed, hints)
        assert stats[seed, :3].tolist() == [g.score, I.ENDS.index(g.end),
                                            g.rules.fuses - g.fuses_left]
        assert stats[seed, 6] == g.turn and stats[seed, 7] == 0
        assert stats[seed, 3] == sum(t.move.kind == "hint" for t in g.history)


@pytest.mark.parametrize("rules", [cox_rules(5), cox_rules(3), Rules(4, hint_tokens=3, fuses=1),
                                   Rules(2, hint_tokens=12, fuses=5, discard_at_max_tokens=True)])
def test_other_rules_replay_too(rules):
    stats = I.play_deals(rules, range(10))
    for seed in range(10):
        g = replayed(rules, seed, "best")
        assert stats[seed, 0] == g.score and stats[seed, 2] == rules.fuses - g.fuses_left


def test_the_strategy_is_deterministic_and_deals_are_independent():
    together = I.play_deals(3, range(30, 60))
    alone = np.vstack([I.play_deals(3, [s]) for s in range(30, 60)])
    assert (together == alone).all()


def test_the_sweep_sums_are_the_games_played():
    sums = hat_sweep.game_sums(30, [2, 5], name="test_strong_sums", family="strong")
    summary = hat_sweep.summary_from_sums(sums).set_index(["players", "variant"])
    for players in (2, 5):
        for variant, hints in hat_sweep.STRONG_VARIANTS.items():
            scores = I.play_deals(players, range(30), hints)[:, 0]
            assert summary.loc[(players, variant), "score"] == pytest.approx(scores.mean())
    gains = hat_sweep.gains_from_sums(sums).set_index(["players", "difference"])
    best = I.play_deals(2, range(30), "best")[:, 0]
    index = I.play_deals(2, range(30), "index")[:, 0]
    assert gains.loc[(2, "strong best - strong index"), "score_gain"] == pytest.approx(
        (best - index).mean())


def test_a_hint_carries_as_many_bits_as_its_messages_say():
    stats = I.play_deals(4, range(20), "cox")
    assert (stats[:, 5] == 2 * 3 * stats[:, 3]).all()  # two messages for each of 3 teammates
    assert (stats[:, 4] == round(np.log2(6) * I.BITS_SCALE) * stats[:, 3]).all()


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="hints must be one of"):
        I.play_deals(3, [0], "mixed")
    with pytest.raises(ValueError, match="seeds"):
        I.play_deals(3, [-1])
    with pytest.raises(ValueError, match="2 to 5 players"):
        I.play_deals(6, [0])
    with pytest.raises(TypeError):
        I.play_deals("three", [0])
    with pytest.raises(ValueError, match="family must be one of"):
        hat_sweep.game_sums(10, family="cheat")
