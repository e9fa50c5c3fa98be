"""Cross-engine checks: the peer's games (Quuxplusone/Hanabi) replayed in `game.Game`, the
compiled strategy's games replayed in `game.Game`, and ours in the peer's server.

data/hanabi_peer_games.csv holds games of the peer's InfoBot and SmartBot, written down by our
harness inside the peer's server (benchmarks/bench_hanabi_peer.py): the deck, every move and what
each showed there (the card played or discarded, the slots a hint touched), and the final score.
Replayed in our engine they must show the same cards, touch the same slots, end on the same move
and score the same. The compiled strategy's games (`hat_compiled.compiled_moves`) replayed in
`game.Game` under the standard rules, Cox et al.'s and the standard ones with three tokens must
be legal move by move, end on the last move and give `play_deals`'s statistics: a rule of the
compiled engine that drifts from the engine's (the last round, a 5's token, ...) fails here. The
replay in the peer's server needs its source folder (PUZZLELAB_HANABI_PEER); without it those
tests skip.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from puzzlelab import cache
from puzzlelab.hanabi import hat_compiled as C
from puzzlelab.hanabi import info_compiled as I
from puzzlelab.hanabi.hat_strategies import PACKINGS
from puzzlelab.hanabi.model import COLOURS
from puzzlelab.hanabi.game import Game, dealt_deck
from puzzlelab.hanabi.rules import DECK, HINTS, Move, Rules, card_name, cox_rules, touches

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_hanabi_peer.py"
SEEDS = range(24)  # deals per player count, rule set and way of counting messages
PLAYERS = (2, 3, 4, 5)


def bench_module():
    """benchmarks/bench_hanabi_peer.py as a module (its peer helpers)."""
    spec = importlib.util.spec_from_file_location("bench_hanabi_peer", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample():
    return cache.read_table("hanabi_peer_games")


def replay(game: Game, moves: list[Move]) -> list:
    """Apply the moves in turn; the game must last exactly until the last one."""
    turns = []
    for i, move in enumerate(moves):
        assert not game.over, f"the game ended ({game.end}) before move {i}, {move}"
        turns.append(game.apply(move))
    assert game.over, f"the game goes on after the last of {len(moves)} moves"
    return turns


# ----- the peer's games in our engine -----------------------------------------------------------

def test_the_sample_covers_both_bots_and_every_player_count(sample):
    counts = sample.groupby(["bot", "players"]).size()
    assert set(counts.index) == {(b, p) for b in ("InfoBot", "SmartBot") for p in PLAYERS}
    assert (counts >= 20).all() and len(sample) >= 200


def test_every_peer_game_replays_in_our_engine_card_for_card(sample):
    for row in sample.itertuples():
        deck = [int(c) for c in row.deck.split()]
        assert sorted(deck) == sorted(DECK), row.Index
        moves = [Move.from_code(code) for code in row.moves.split()]
        shown = row.shown.split()
        assert len(shown) == len(moves)
        game = Game(Rules(row.players), deck=deck)
        h = game.rules.hand_size
        # the peer deals hand after hand from the top of the deck, then draws in order
        assert game.hands == [deck[p * h:(p + 1) * h] for p in range(row.players)]
        drawn = row.players * h
        for i, move in enumerate(moves):
            where = f"{row.bot}, {row.players} players, game {row.game}, move {i} ({move})"
            assert not game.over, f"{where}: the game ended ({game.end}) before it"
            turn = game.apply(move)
            assert turn.player == i % row.players, where
            if move.kind == "hint":
                assert turn.touched == tuple(int(s) for s in shown[i].split(".")), where
                continue
            assert turn.card == int(shown[i]), f"{where}: {card_name(turn.card)}"
            if turn.drew:
                assert game.hands[turn.player][-1] == deck[drawn], where
                drawn += 1
        assert game.over, f"{row.bot}, {row.players} players, game {row.game} goes on"
        assert game.score == row.score, f"{row.bot}, {row.players} players, game {row.game}"
        assert game.deck == deck[drawn:]


def test_the_peer_colours_are_ours_by_name():
    bench = bench_module()
    assert [bench.PEER_COLOURS[k] for k in "roygb"] == ["Red", "White", "Yellow", "Green", "Blue"]
    for card in range(25):
        text = bench.card_to_peer(card)
        assert bench.card_from_peer(text) == card
        assert int(text[0]) == card % 5 + 1
        assert bench.PEER_COLOURS[text[1]] == COLOURS[card // 5]
    for move in (Move.play(2), Move.discard(0), Move.give(3, "White"), Move.give(1, "4")):
        assert bench.move_from_peer(bench.move_to_peer(move)) == move
    with pytest.raises(ValueError, match="colour letter"):
        bench.card_from_peer("1w")


def test_score_summaries_are_those_of_the_scores_themselves():
    bench = bench_module()
    scores = np.random.default_rng(5).integers(0, 26, size=333)
    summary = bench.score_summary(np.bincount(scores, minlength=26))
    se = scores.std(ddof=1) / np.sqrt(len(scores))
    assert summary["mean"] == pytest.approx(scores.mean())
    assert summary["se"] == pytest.approx(se)
    assert summary["ci_high"] - summary["ci_low"] == pytest.approx(2 * 1.959964 * se)
    assert summary["perfect_pct"] == pytest.approx(100 * np.mean(scores == 25))
    with pytest.raises(ValueError, match="score histogram"):
        bench.score_summary([1, 2])


# ----- our compiled games in our engine ---------------------------------------------------------

def few_tokens(players: int) -> Rules:
    """Standard rules but three hint tokens: the token cap is met often (a 5's token, discards)."""
    return Rules(players, hint_tokens=3)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("rules_of", [Rules, cox_rules, few_tokens],
                         ids=["standard", "cox", "few tokens"])
def test_compiled_games_replay_in_the_engine_to_the_same_statistics(players, rules_of):
    rules = rules_of(players)
    for packing in PACKINGS:
        stats = C.play_deals(rules, SEEDS, packing)
        for seed in SEEDS:
            moves = C.compiled_moves(rules, seed, packing)
            game = Game(rules, seed)
            turns = replay(game, moves)
            row = dict(zip(C.STATS, stats[seed].tolist()))
            where = f"{packing}, seed {seed}"
            assert row["score"] == game.score, where
            assert C.ENDS[row["end"]] == game.end, where
            assert row["fuses_used"] == rules.fuses - game.fuses_left, where
            assert row["turns"] == game.turn == len(turns), where
            assert row["hints"] == sum(t.move.kind == "hint" for t in turns), where


# ----- our games in the peer's server -----------------------------------------------------------

@pytest.fixture(scope="module")
def peer_replayer():
    bench = bench_module()
    folder = bench.peer_folder()
    if folder is None:
        pytest.skip(f"{bench.PEER_ENV} is not set: our games are not replayed in the peer's server")
    try:
        binary = bench.build_harness(folder, ["replay"])["replay"]
    except RuntimeError as failed:
        pytest.skip(f"the peer's server did not build: {str(failed).splitlines()[0]}")
    return bench, binary


@pytest.mark.parametrize("players", PLAYERS)
def test_our_games_are_accepted_by_the_peers_server_with_the_same_scores(players, peer_replayer):
    bench, binary = peer_replayer
    for packing in PACKINGS:
        scores = C.play_deals(players, SEEDS, packing)[:, 0].tolist()
        games = [(players, dealt_deck(s), C.compiled_moves(players, s, packing)) for s in SEEDS]
        answers = bench.replay_in_peer(binary, games)
        assert answers == [f"ok {s}" for s in scores], packing


@pytest.mark.parametrize("players", PLAYERS)
def test_the_strong_strategys_games_are_accepted_by_the_peers_server(players, peer_replayer):
    bench, binary = peer_replayer
    for hints in I.HINT_COUNTS:
        scores = I.play_deals(players, SEEDS, hints)[:, 0].tolist()
        games = [(players, dealt_deck(s), I.compiled_moves(players, s, hints)) for s in SEEDS]
        assert bench.replay_in_peer(binary, games) == [f"ok {s}" for s in scores], hints


def test_the_peers_server_refuses_what_the_rules_refuse(peer_replayer):
    bench, binary = peer_replayer
    seed = next(s for s in range(100)  # a deal where some hint touches none of player 1's cards
                if not all(any(touches(h, c) for c in dealt_deck(s)[5:10]) for h in HINTS))
    deck, moves = dealt_deck(seed), C.compiled_moves(3, seed)
    hint_nothing = next(Move.give(1, h) for h in HINTS  # player 1 holds deck[5:10]
                        if not any(touches(h, c) for c in deck[5:10]))
    answers = bench.replay_in_peer(binary, [
        (3, deck, [Move.discard(0)]),  # all tokens in hand: nobody may discard
        (3, deck, [hint_nothing]),  # a hint must touch a card
        (3, deck, [Move.play(5)]),  # a hand of 5 has slots 0-4
        (3, deck, moves[:-1]),  # the moves run out before the game ends
        (3, deck, [*moves, Move.play(0)]),  # a move after the end
        (3, deck, moves),
    ])
    assert [a.split()[0] for a in answers] == ["rejected"] * 5 + ["ok"]
    assert "left over" in answers[4] and "ran out" in answers[3]
