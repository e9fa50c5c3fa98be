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

import numpy as np
import pandas as pd

from puzzlelab.kemps import knowledge as K
from puzzlelab.kemps.env import ACTIONS, KempsEnv, run_episode
from puzzlelab.kemps.notebook import STRATEGY_NAMES, explore_game, explore_knowledge, named
from puzzlelab.kemps.matches import make_agents, new_game, play, play_out, play_scores
from puzzlelab.kemps.reference import consistent_deals, replay_knowledge
from puzzlelab.kemps.strategies import ABLATIONS, STRATEGIES, TheoryOfMind, make_agent
from puzzlelab.kemps.tournament import (Z95, by_strategy, head_to_head, pack, seat_differences,
                                        seat_rows,
                                        tournament, unpack, win_shares)

DECKS = {20: range(2, 7), 28: range(2, 9), 52: range(1, 14)}
NAMES = sorted(STRATEGIES)
LINEUPS = list(itertools.product(NAMES, repeat=3))


def sweep(deck, seeds, check, turns: int = 1000):
    """Play seeded games step by step with every knowledge base tracked; call check after each
    step."""
    for seed in seeds:
        lineup = LINEUPS[seed % len(LINEUPS)]
        agents = make_agents(lineup)
        game = new_game(agents, seed, deck, knowledge=True)
        check(game, None)
        while not game.over and game.turn < turns:
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

    sweep(DECKS[size], range({20: 1500, 28: 1000, 52: 1000}[size]), check)


def test_kb_strategies_collect_only_values_truly_free():
    """KB Greedy and Blocking collect a value only when, in truth, no opponent holds a card of
    it."""
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
    """After the k-th Kemps the pile holds n - 4k - 8 - 6 cards; a new hand needs 4, so k <= (n -
    14) / 4."""
    # 20 cards: 1, 28: 3, 52: 9 (the Kemps that empties the pile still scores)
    limit = (size - 14) // 4
    seen = 0
    for seed in range(300):
        lineup = LINEUPS[seed % len(LINEUPS)]
        total = sum(play(lineup, seed, DECKS[size], trace=False).scores)
        assert total <= limit
        seen = max(seen, total)
    assert seen >= 1


@pytest.mark.parametrize("size", sorted(DECKS))
def test_untraced_games_equal_traced_ones(size):
    """play_scores (the tournament's path: no trace, no snapshots) plays exactly play()'s games."""
    for seed in range(150):
        lineup = LINEUPS[seed % len(LINEUPS)]
        rec = play(lineup, seed, DECKS[size], knowledge=seed % 2 == 0)
        assert play_scores(lineup, seed, DECKS[size]) == (rec.scores, rec.turns, rec.end)
        assert len(rec.trace) == rec.turns
    for seed in range(40):  # with a short turn valve too
        rec = play(["greedy"] * 3, seed, DECKS[size], trace=False, max_turns=7)
        assert play_scores(["greedy"] * 3, seed, DECKS[size], 7) == (rec.scores, rec.turns, rec.end)


def test_tournament_is_the_same_on_any_executor():
    """Serial, two local workers and a two-process pool passed as executor= give one table."""
    from concurrent.futures import ProcessPoolExecutor

    args = dict(strategies=["greedy", "blocking", "tom"], games=12, deck=DECKS[28])
    serial = tournament(**args)
    assert len(serial) == 27 * 12 and serial["seed"].tolist() == list(range(12)) * 27
    pd.testing.assert_frame_equal(tournament(**args, workers=2), serial)
    with ProcessPoolExecutor(2) as pool:
        pd.testing.assert_frame_equal(tournament(**args, executor=pool), serial)


def test_fewer_games_are_written_under_their_own_name(tmp_path, monkeypatch):
    """tournament_run with 2 games writes the packed table beside the notebook's
    (kemps_ablation_52_games2), never over it."""
    from puzzlelab import cache
    from puzzlelab.kemps.tables import TOURNAMENT_SPECS, tournament_run

    monkeypatch.setattr(cache, "DATA", tmp_path)
    tournament_run(names=["kemps_ablation_52"], games=2, workers=2)
    expected = pack(tournament(**TOURNAMENT_SPECS["kemps_ablation_52"], games=2))
    pd.testing.assert_frame_equal(cache.read_table("kemps_ablation_52_games2"), expected,
                                  check_names=False)
    assert not cache.data_path("kemps_ablation_52").exists()


def test_tournament_on_a_dask_cluster_equals_serial():
    distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
    args = dict(strategies=["greedy", "tom"], games=6, deck=DECKS[28])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = tournament(**args, executor=client.get_executor())
    pd.testing.assert_frame_equal(on_dask, tournament(**args))


def test_env_reproduces_play():
    """Driving the AEC environment with the built-in agents gives the same game as play().

    The environment cannot prove stalemates (its agents are unknown to it) and plays on to
    its turn valve: after a stalemate of play() nothing may change, which the scores check.
    """
    for seed in range(40):
        lineup = LINEUPS[(7 * seed) % len(LINEUPS)]
        env = KempsEnv(DECKS[52], max_turns=3000)
        env.reset(seed=seed)
        agents = [make_agent(s) for s in lineup]
        for p, a in enumerate(agents):
            a.reset(env.game, p)
        moves = []
        for name in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = env.action_of(agents[env.possible_agents.index(name)])
            moves.append(ACTIONS[action][0])
            env.step(action)
        rec = play(lineup, seed, DECKS[52])
        assert tuple(env.game.scores) == rec.scores
        played = [tuple(sorted(t.picked and [t.table.index(c) for c in t.picked]))
                  for t in rec.trace]
        assert played == [tuple(m) for m in moves[:rec.turns]]


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_env_rewards_through_last_sum_to_scores(seed):
    """PettingZoo accumulation: what each agent reads from last() (dead steps included) adds up
    to its score."""
    env = KempsEnv(DECKS[52])
    policies = {"player_1": "greedy", "player_2": "tom", "player_3": "blocking"}
    totals = run_episode(env, policies, seed)
    assert totals == tuple(env.game.scores) and sum(totals) > 0
    assert env.agents == [] and all(env.terminations.values())
    with pytest.raises(ValueError, match="left the finished game"):
        env.step(None)


def test_env_dead_steps_and_spaces():
    env = KempsEnv(DECKS[20])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be"):
        env.step(None)  # None is only for the dead step
    assert env.action_space()["n"] == len(ACTIONS)
    assert set(env.observation_space()) == set(env.observe("player_1"))
    env = KempsEnv(DECKS[20], max_turns=5)
    env.reset(seed=0)
    seen = []
    for name in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        seen.append((name, truncated))
        env.step(None if terminated or truncated else 0)
    assert [t for _, t in seen] == [False] * 5 + [True] * 3  # five turns, then three dead steps
    assert sorted(n for n, t in seen if t) == env.possible_agents


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
                fast = K.deals_possible(list(kb), p, sizes)
                assert fast == deals_by_enumeration(list(kb), p, sizes) >= 1
                checked += 1
    assert checked > 100


def deals_by_enumeration(kb: list[int], me: int, sizes: list[int]) -> int:
    """The pairs of the two other hands that player `me`'s knowledge base allows, listed one by
    one: each hand from the cards its holder may hold, every other card with nobody or `me`."""
    j, k = (q for q in range(3) if q != me)
    cards, elsewhere = range(len(kb)), K.NOBODY | K.HOLDER[me]
    count = 0
    for a in itertools.combinations([c for c in cards if kb[c] & K.HOLDER[j]], sizes[j]):
        for b in itertools.combinations([c for c in cards if kb[c] & K.HOLDER[k] and c not in a],
                                        sizes[k]):
            count += all(kb[c] & elsewhere for c in cards if c not in a and c not in b)
    return count


def test_initial_deals_count():
    """At the deal an agent sees 4 + 6 cards; the other two hands come from the 10 (or 42)
    unseen."""
    for size, deck in DECKS.items():
        rec = play(["greedy"] * 3, 1, deck, knowledge=True)
        unseen = size - 10
        expected = comb(unseen, 4) * comb(unseen - 4, 4)
        counts = [K.deals_possible(list(kb), p) for p, kb in enumerate(rec.snapshots[0]["kb"])]
        assert counts == [expected] * 3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), lineup=st.sampled_from(LINEUPS),
       size=st.sampled_from(sorted(DECKS)))
def test_record_is_consistent(seed, lineup, size):
    rec = play(lineup, seed, DECKS[size])
    kemps = [t for t in rec.trace if t.kemps is not None]
    assert sum(rec.scores) == len(kemps) and rec.turns == len(rec.trace)
    for p in range(3):
        assert rec.scores[p] == sum(t.player == p for t in kemps)
    assert rec.end in ("deck exhausted", "stalemate", "turn limit")
    assert play(lineup, seed, DECKS[size]).trace == rec.trace  # same seed, same game


SCRIPT = """
import json
from puzzlelab.kemps.matches import play
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
    df = tournament(["greedy", "tom"], games=6, deck=DECKS[28])
    assert len(df) == 8 * 6 and set(df["seed"]) == set(range(6))
    rows = seat_rows(df)
    for (lineup, seed), g in rows.groupby(["lineup", "seed"]):
        by_seat = g.sort_values("seat")
        assert by_seat["win"].tolist() == win_shares(by_seat["kemps"].tolist())


def test_pack_round_trip():
    df = tournament(["blocking", "tom"], games=5, deck=DECKS[20])
    assert unpack(pack(df)).equals(df.drop(columns="turns"))


def games_frame(scores: dict[str, list[tuple[int, int, int]]]) -> pd.DataFrame:
    """A tournament-shaped table from given seat scores per line-up (seed = position in the
    list)."""
    rows = [(lineup, i, *sc, 10, "deck exhausted") for lineup, games in scores.items()
            for i, sc in enumerate(games)]
    return pd.DataFrame(rows, columns=["lineup", "seed", "k1", "k2", "k3", "turns", "end"])


def test_confidence_intervals_are_over_deals():
    """Seats in one game and line-ups on one deal are not independent: copies must not narrow the
    CI."""
    df = tournament(["greedy", "kb-greedy"], games=40, deck=DECKS[28])
    once = by_strategy(df).set_index("strategy")
    assert once.loc["greedy", "deals"] == 40 and once.loc["greedy", "seat_games"] == 8 * 40 * 3 / 2
    with pytest.raises(ValueError, match="same deals"):  # a game counted twice is refused
        by_strategy(pd.concat([df, df]))
    # the CI is the normal interval of the per-deal means, computed here a second way, with numpy
    k = df[["k1", "k2", "k3"]].to_numpy()
    names = df["lineup"].str.split("/").tolist()
    per_deal = {}
    for seed, row, lineup in zip(df["seed"], k, names):
        for score, name in zip(row, lineup):
            if name == "greedy":
                per_deal.setdefault(seed, []).append(score)
    x = np.array([np.mean(v) for v in per_deal.values()])
    assert once.loc["greedy", "kemps_mean"] == pytest.approx(x.mean())
    assert once.loc["greedy", "kemps_ci"] == pytest.approx(Z95 * x.std(ddof=1) / np.sqrt(len(x)))
    h = head_to_head(df, "greedy").set_index("against").loc["kb-greedy"]
    assert h["deals"] == 40 and h["win_diff"] == pytest.approx(h["focal_win"] - h["other_win"])


def test_seat_differences_are_paired():
    """Seat 1 always wins: its paired difference is 1 with CI 0; rotations of one game:
    difference 0."""
    always = games_frame({"greedy/greedy/greedy": [(1, 0, 0), (2, 1, 0), (1, 0, 0)]})
    d = seat_differences(always).set_index(["scope", "seats"])
    first_two = d.loc[("greedy self-play", "1 - 2")]
    assert first_two["win_diff"] == 1 and first_two["ci"] == 0
    rng = np.random.default_rng(0)
    base = [tuple(int(x) for x in rng.integers(0, 3, 3)) for _ in range(30)]
    rotated = {"tom/tom/tom": base, "greedy/greedy/greedy": [s[1:] + s[:1] for s in base],
               "blocking/blocking/blocking": [s[2:] + s[:2] for s in base]}
    d = seat_differences(games_frame(rotated)).set_index(["scope", "seats"])
    assert d.loc["all line-ups", "win_diff"].abs().max() < 1e-12  # each deal seen from every seat


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: play(["greedy", "nonsense", "greedy"], 0), "unknown strategy"),
        (lambda: play(["greedy", "greedy"], 0), "exactly 3 players"),
        (lambda: play(["greedy"] * 4, 0), "exactly 3 players"),
        (lambda: play("greedy", 0), "sequence"),
        (lambda: play(["greedy"] * 3, 0, deck=range(2, 6)), "too small"),
        (lambda: play(["greedy"] * 3, 0, deck=range(0, 6)), "between 1 and 13"),
        (lambda: play(["greedy"] * 3, -1), "seed"),
        (lambda: play(["greedy"] * 3, 0, max_turns=0), "max_turns"),
        (lambda: tournament(["greedy", "bogus"], games=2), "unknown strategies"),
        (lambda: tournament(["greedy"], games=0), "games"),
        (lambda: tournament(["greedy"], games=2, max_turns=0), "max_turns"),
        (lambda: tournament(["greedy"], games=2, workers=True), "workers"),
        (lambda: KempsEnv().step(0), "reset"),
        (lambda: KempsEnv(max_turns="x"), "max_turns"),
        (lambda: KempsEnv(max_turns=0), "max_turns"),
        (lambda: explore_game(turn=True), "turn"),
        (lambda: explore_knowledge(turn=True), "turn"),
        (lambda: explore_game(deck_values=True), "deck_values"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_strategies_and_line_ups_are_named_in_words():
    assert set(STRATEGY_NAMES) == set(STRATEGIES) | set(ABLATIONS)
    assert named("kb-greedy/tom/tom") == "KB Greedy, Bold+ToM, Bold+ToM"
    assert named("bold") == "Bold"
    for other in ("1 - 3", "all line-ups", "greedy/", "", 28, None):  # left as they are
        assert named(other) == other


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



# ----- end of game: proven stalemates ---------------------------------------------------------
def stalemates(deck, seeds, lineups):
    """Games that end in a stalemate, returned at their last position (agents attached)."""
    found = []
    for seed in seeds:
        for lineup in lineups:
            agents = make_agents(lineup)
            game = play_out(new_game(agents, seed, deck), agents)
            if game.end == "stalemate":
                found.append(game)
    return found


STALL_LINEUPS = [("kb-greedy",) * 3, ("blocking",) * 3, ("kb-greedy", "blocking", "tom"),
                 ("bold", "kb-greedy", "blocking")]


@pytest.mark.parametrize("size", [20, 28])
def test_stalemate_means_no_table_can_tempt_anyone(size):
    """At a declared stalemate, every table that could still be laid out is refused by every
    agent."""
    games = stalemates(DECKS[size], range({20: 100, 28: 600}[size]), STALL_LINEUPS)[:12]
    assert len(games) >= 10
    for game in games:
        outside = [*game.table, *game.pile, *game.discard]
        real = game.table
        for table in itertools.combinations(outside, 6):
            game.table = list(table)
            assert all(not game.agents[p].choose(game, p)[0] for p in range(3))
        game.table = real


def test_stalemate_games_never_move_again():
    """Play on past a declared stalemate (detection off): no card is ever picked, no score
    changes."""
    games = (stalemates(DECKS[28], range(600), STALL_LINEUPS)[:20]
             + stalemates(DECKS[52], range(300), STALL_LINEUPS)[:10])
    assert len(games) >= 20
    for game in games:
        agents, scores = game.agents, list(game.scores)
        game.agents, game.over = None, False
        for _ in range(600):
            p = game.current
            picks, discards, _ = agents[p].choose(game, p)
            assert not picks
            game.step(p, picks, discards)
        assert game.scores == scores


def test_no_stalemate_while_a_pick_is_possible():
    """Greedy can always be tempted while some value has two cards among its hand and the outside
    cards."""
    for size in (20, 28, 52):
        for seed in range(300):
            assert play_scores(['greedy'] * 3, seed, DECKS[size])[2] == "deck exhausted"


# ----- strategies ----------------------------------------------------------------------------
def test_blocking_never_breaks_its_own_group():
    """Report 2.4.3: a block discards an inconsequential card, never one of a pair or more in
    hand."""
    blocks = 0
    for deck in (DECKS[28], DECKS[52]):
        for seed in range(300):
            rec = play(["blocking", LINEUPS[seed % len(LINEUPS)][1], "blocking"], seed, deck)
            for t in rec.trace:
                if t.why[0] == "block":
                    d = t.discarded[0]
                    assert sum(c >> 2 == d >> 2 for c in t.hand) == 1
                    blocks += 1
    assert blocks > 100


def test_tom_judges_every_card_of_an_exchange_on_the_same_knowledge():
    """All cards of one value picked in one turn are read alike (all blocks or none), on pre-turn
    knowledge."""
    multi = both = 0
    for seed in range(400):
        agents = make_agents(("tom", "bold", "greedy") if seed % 2 else ("greedy", "tom", "tom"))
        game = new_game(agents, seed, DECKS[52])
        toms = [a for a in agents if isinstance(a, TheoryOfMind)]
        while not game.over and game.turn < 2000:
            p = game.current
            picks, discards, _ = agents[p].choose(game, p)
            pub = list(game.public)
            cards = [game.table[i] for i in picks]
            game.step(p, picks, discards)
            for tom in toms:
                if tom.me == p:
                    continue
                for v in {c >> 2 for c in cards}:
                    same = [c for c in cards if c >> 2 == v]
                    mine = any(pub[x] == K.holder(tom.me) for x in range(4 * v, 4 * v + 4))
                    theirs = any(pub[x] == K.holder(p) for x in range(4 * v, 4 * v + 4))
                    read = [tom.blocked.get(c) == p for c in same]
                    assert read == [mine and not theirs] * len(same)
                    if len(same) > 1:
                        multi += 1
                        both += all(read)
    assert multi > 50 and both > 0


# ----- knowledge: exact, not merely truthful ---------------------------------------------------
def states(mask: int) -> set[int]:
    return {s for s in range(4) if mask >> s & 1}


@pytest.mark.parametrize("size", sorted(DECKS))
def test_knowledge_equals_independent_replay(size):
    """Every knowledge base, after every turn, is exactly the replayed per-card model (no more,
    no less)."""
    compared = 0
    for seed in range({20: 150, 28: 100, 52: 40}[size]):
        rec = play(LINEUPS[(5 * seed + 1) % len(LINEUPS)], seed, DECKS[size], knowledge=True)
        for me in (0, 1, 2, None):
            for snap, S in zip(rec.snapshots, replay_knowledge(rec, me), strict=True):
                kb = snap["public"] if me is None else snap["kb"][me]
                assert [states(m) for m in kb] == S, (seed, me, snap["turn"])
                compared += 1
    assert compared > 1000


def test_picked_kemps_and_dealt_updates():
    """kb[c] == {s_p} right after PICKED(p, c); KEMPS(p) clears p from every card; DEALT adds
    exactly the deck."""
    picks = kemps = 0
    for seed in range(60):
        lineup = LINEUPS[seed % len(LINEUPS)]
        agents = make_agents(lineup)
        game = new_game(agents, seed, DECKS[52], knowledge=True)
        while not game.over:
            p = game.current
            picks_, discards, _ = agents[p].choose(game, p)
            cards = [game.table[i] for i in picks_]
            scored = len(game.out)
            game.step(p, picks_, discards)
            if len(game.out) == scored:
                for kb in game.kbs:
                    assert all(kb[c] == K.holder(p) for c in cards)
                picks += bool(cards)
            elif not game.over:
                kemps += 1
                v = game.out[-1]
                assert all(kb[c] == K.NOBODY for kb in game.kbs for c in range(4 * v, 4 * v + 4))
                mine = {c for c in range(game.n) if game.kb[p][c] & K.holder(p)}
                assert mine == set(game.hands[p])
                deck = set(game.pile)
                for q, kb in enumerate(game.kb):
                    if q != p:  # the new hand came from the deck: the cards that may be there
                        may_be_deck = {c for c in range(game.n)
                                       if kb[c] & K.NOBODY and c not in game.table
                                       and c not in game.discard and c >> 2 not in game.out}
                        assert {c for c in range(game.n) if kb[c] & K.holder(p)} == may_be_deck
                        assert set(game.hands[p]) | deck <= may_be_deck  # the truth survives
    assert picks > 1000 and kemps > 100


def test_knowledge_contains_every_consistent_deal():
    """20 cards: brute force over the others' hands. The true deal survives, every deal the agent's
    observations allow is allowed by its knowledge base, and with hand sizes put back the knowledge
    base allows exactly those deals (knowledge.deals_possible counts them)."""
    checked = 0
    for seed in range(60):
        rec = play(LINEUPS[(3 * seed) % len(LINEUPS)], seed, DECKS[20], knowledge=True)
        for me in range(3):
            j, k = [q for q in range(3) if q != me]
            for snap, worlds in zip(rec.snapshots, consistent_deals(rec, me), strict=True):
                truth = (frozenset(snap["hands"][j]), frozenset(snap["hands"][k]))
                assert truth in worlds
                kb = snap["kb"][me]
                for a, b in worlds:
                    assert all(kb[c] & K.holder(j) for c in a)
                    assert all(kb[c] & K.holder(k) for c in b)
                sizes = [len(h) for h in snap["hands"]]
                assert K.deals_possible(list(kb), me, sizes) == len(set(worlds))
                checked += 1
    assert checked > 500


def test_the_reference_listings_refuse_what_they_cannot_list():
    """The slow listings name what they need: a game with knowledge snapshots, and (for the deals)
    one that ends at its first Kemps with few enough hidden hands to list."""
    with pytest.raises(ValueError, match="knowledge=True"):
        replay_knowledge(play(["greedy"] * 3, 0, DECKS[20]), 0)
    short52 = play(["greedy"] * 3, 0, DECKS[52], knowledge=True, max_turns=5)
    with pytest.raises(ValueError, match="hidden hands.*20-card deck"):
        consistent_deals(short52, 0)
    many = next(rec for s in range(50)
                for rec in [play(["greedy"] * 3, s, DECKS[28], knowledge=True)]
                if sum(t.kemps is not None for t in rec.trace[:-1]))
    with pytest.raises(ValueError, match="first Kemps"):
        consistent_deals(many, 1)
    assert len(list(replay_knowledge(short52, None))) == short52.turns + 1
