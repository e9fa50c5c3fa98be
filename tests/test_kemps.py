"""Tests for puzzlelab.kemps: card conservation, truthful knowledge, reproducibility, validation."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.kemps import play
from puzzlelab.kemps import knowledge as K
from puzzlelab.kemps.env import ACTIONS, KempsEnv
from puzzlelab.kemps.fast import greedy_selfplay
from puzzlelab.kemps.play import make_agents, new_game
from puzzlelab.kemps.strategies import STRATEGIES, make_agent
from puzzlelab.kemps.tournament import tournament, win_shares

DECKS = {20: range(2, 7), 28: range(2, 9), 52: range(1, 14)}
NAMES = sorted(STRATEGIES)
LINEUPS = list(itertools.product(NAMES, repeat=3))


def sweep(deck, seeds, check):
    """Play seeded games step by step with every knowledge base tracked; call check after each step."""
    for seed in seeds:
        lineup = LINEUPS[seed % len(LINEUPS)]
        agents = make_agents(lineup)
        game = new_game(agents, seed, deck, knowledge=True)
        check(game, None)
        while not game.over and game.turn < 250:
            p = game.current
            picks, discards, why = agents[p].choose(game, p)
            game.check_move(p, picks, discards)
            check(game, (p, picks, discards, why))
            game.step(p, picks, discards)
            check(game, None)


@pytest.mark.parametrize("size", sorted(DECKS))
def test_cards_conserved_and_knowledge_truthful_after_every_step(size):
    n = size

    def check(game, move):
        if move is not None:
            return
        assert game.cards_accounted() == list(range(n))  # every card exactly once
        assert len(game.table) == 6
        assert all(len(h) == 4 for h in game.hands) or game.over
        truth = game.locations()
        for kb in game.kbs:  # the true holder of a card is never ruled out
            assert K.truthful(kb, truth)

    sweep(DECKS[size], range({20: 1500, 28: 800, 52: 250}[size]), check)


def test_kb_strategies_collect_only_values_truly_free():
    """KB Greedy and Blocking collect a value only when, in truth, no opponent holds a card of it."""
    moves = 0
    for seed in range(300):
        lineup = LINEUPS[seed % len(LINEUPS)]
        agents = make_agents(lineup)
        game = new_game(agents, seed, DECKS[28])
        while not game.over and game.turn < 250:
            p = game.current
            picks, discards, why = agents[p].choose(game, p)
            if why[0] == "collect" and lineup[p] in ("kb-greedy", "blocking"):
                truth = game.locations()
                assert all(truth[c] in (1, 2 << p) for c in range(4 * why[1], 4 * why[1] + 4))
                moves += 1
            game.step(p, picks, discards)
    assert moves > 100


@pytest.mark.parametrize("size", sorted(DECKS))
def test_kemps_limit_per_game(size):
    """After the k-th Kemps the pile holds n - 4k - 8 - 6 cards; a new hand needs 4, so k <= (n - 14) / 4."""
    limit = (size - 14) // 4  # 20 cards: 1, 28: 3, 52: 9 (the Kemps that empties the pile still scores)
    seen = 0
    for seed in range(300):
        lineup = LINEUPS[seed % len(LINEUPS)]
        total = sum(play(lineup, seed, DECKS[size], trace=False).scores)
        assert total <= limit
        seen = max(seen, total)
    assert seen >= 1


@pytest.mark.parametrize("size", sorted(DECKS))
def test_fast_path_equals_engine(size):
    for seed in range(400):
        assert greedy_selfplay(seed, DECKS[size]) == play(["greedy"] * 3, seed, DECKS[size], trace=False).scores


def test_env_reproduces_play():
    """Driving the AEC environment with the built-in agents gives the same game as play()."""
    for seed in range(40):
        lineup = LINEUPS[(7 * seed) % len(LINEUPS)]
        env = KempsEnv(DECKS[52])
        env.reset(seed=seed)
        agents = [make_agent(s) for s in lineup]
        for p, a in enumerate(agents):
            a.reset(env.game, p)
        total = 0
        for name in env.agent_iter():
            env.step(env.action_of(agents[env.possible_agents.index(name)]))
            total += sum(env.rewards.values())
        rec = play(lineup, seed, DECKS[52])
        assert tuple(env.game.scores) == rec.scores
        assert total == sum(rec.scores)


def test_action_table_counts_every_exchange():
    # sum over k of C(6, k) * C(4, k) = 1 + 24 + 90 + 80 + 15
    assert len(ACTIONS) == sum(comb(6, k) * comb(4, k) for k in range(5)) == len(set(ACTIONS))


def test_deals_count_matches_enumeration():
    """The grouped count of consistent deals equals brute-force enumeration of the hidden hands."""
    checked = 0
    for seed in range(12):
        rec = play(LINEUPS[5 * seed % len(LINEUPS)], seed, DECKS[20], knowledge=True)
        for snap in rec.snapshots[:10]:
            sizes = [len(h) for h in snap["hands"]]
            for p, kb in enumerate(snap["kb"]):
                others = [q for q in range(3) if q != p]
                fast = K.deals_possible(list(kb), p, sizes)
                assert fast == K._count_brute(list(kb), others, sizes, p) >= 1
                checked += 1
    assert checked > 100


def test_initial_deals_count():
    """At the deal an agent sees 4 + 6 cards; the other two hands come from the 10 (or 42) unseen."""
    for size, deck in DECKS.items():
        rec = play(["greedy"] * 3, 1, deck, knowledge=True)
        unseen = size - 10
        expected = comb(unseen, 4) * comb(unseen - 4, 4)
        assert [K.deals_possible(list(kb), p) for p, kb in enumerate(rec.snapshots[0]["kb"])] == [expected] * 3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), lineup=st.sampled_from(LINEUPS), size=st.sampled_from(sorted(DECKS)))
def test_record_is_consistent(seed, lineup, size):
    rec = play(lineup, seed, DECKS[size])
    kemps = [t for t in rec.trace if t.kemps is not None]
    assert sum(rec.scores) == len(kemps) and rec.turns == len(rec.trace)
    for p in range(3):
        assert rec.scores[p] == sum(t.player == p for t in kemps)
    assert rec.end in ("deck exhausted", "stalemate", "turn limit", "no groups left")
    assert play(lineup, seed, DECKS[size]).trace == rec.trace  # same seed, same game


SCRIPT = """
import json
from puzzlelab.kemps import play
rec = play(['tom', 'blocking', 'greedy'], 123, range(2, 9))
print(json.dumps([rec.scores, [[t.player, list(t.picked), list(t.discarded)] for t in rec.trace]]))
"""


def test_reproducible_in_a_fresh_process():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    rec = play(["tom", "blocking", "greedy"], 123, range(2, 9))
    here = [list(rec.scores), [[t.player, list(t.picked), list(t.discarded)] for t in rec.trace]]
    assert json.loads(out.stdout) == here


def test_win_shares():
    assert win_shares([0, 0, 0]) == [0, 0, 0]
    assert win_shares([2, 2, 1]) == [0.5, 0.5, 0]
    df = tournament(["greedy", "tom"], games=6, deck=DECKS[28], progress=False)
    assert len(df) == 8 * 3
    per_lineup = df.groupby("lineup").agg(win=("win_share", "sum"), none=("no_winner", "first"))
    assert ((per_lineup["win"] + per_lineup["none"] - 1).abs() < 1e-9).all()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: play(["greedy", "nonsense", "greedy"], 0), "unknown strategy"),
        (lambda: play(["greedy", "greedy"], 0), "exactly 3 players"),
        (lambda: play(["greedy"] * 4, 0), "exactly 3 players"),
        (lambda: play("greedy", 0), "sequence"),
        (lambda: play(["greedy"] * 3, 0, deck=range(2, 6)), "too small"),
        (lambda: play(["greedy"] * 3, 0, deck=range(0, 6)), "1..13"),
        (lambda: play(["greedy"] * 3, -1), "seed"),
        (lambda: play(["greedy"] * 3, 0, max_turns=0), "max_turns"),
        (lambda: tournament(["greedy", "bogus"], games=2, progress=False), "unknown strategies"),
        (lambda: tournament(["greedy"], games=0, progress=False), "games"),
        (lambda: KempsEnv().step(0), "reset"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_illegal_moves_rejected():
    agents = make_agents(["greedy"] * 3)
    game = new_game(agents, 0, DECKS[20])
    hand = game.hands[0]
    with pytest.raises(ValueError, match="as many"):
        game.check_move(0, [0], [])
    with pytest.raises(ValueError, match="table positions"):
        game.check_move(0, [6], [hand[0]])
    with pytest.raises(ValueError, match="hand"):
        game.check_move(0, [0], [game.table[1]])
    with pytest.raises(ValueError, match="turn"):
        game.check_move(1, [], [])
    env = KempsEnv(DECKS[20])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(210)


class Hoarder:
    """A custom agent object: swaps table position 0 for its lowest card, every turn."""

    name = "hoarder"
    needs_knowledge = False

    def reset(self, game, me):
        pass

    def choose(self, game, me):
        return (0,), (min(game.hands[me]),), ("pass",)


class Cheater(Hoarder):
    """Discards a card it does not hold."""

    def choose(self, game, me):
        return (0,), (game.table[1],), ("pass",)


def test_agent_objects_play_and_illegal_moves_are_refused():
    rec = play([Hoarder(), "greedy", "tom"], 4, DECKS[28])
    assert rec.strategies[0] == "hoarder" and all(t.picked for t in rec.trace if t.player == 0)
    with pytest.raises(ValueError, match="hand"):
        play([Cheater(), "greedy", "tom"], 4, DECKS[28])
    with pytest.raises(ValueError, match="separate agent"):
        agent = Hoarder()
        play([agent, agent, "greedy"], 0)


def test_card_names_round_trip():
    from puzzlelab.kemps.cards import make_deck

    for deck in DECKS.values():
        d = make_deck(deck)
        assert [d.card(d.name(c)) for c in range(d.n)] == list(range(d.n))
    with pytest.raises(ValueError, match="not a card"):
        make_deck(DECKS[20]).card("9♠")

