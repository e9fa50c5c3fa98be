"""The hat step of the Hanabi strategies (puzzlelab.hanabi.hat_strategies, hat_compiled).

Decoding is checked on thousands of states: every player, seeing all hands but his own,
recovers exactly the value the hinter gave his hand. The sure groups are checked against the
exact solvers and the definition; the compiled strategy against the readable one, move by
move; small pieces (dead cards, classes, orders) against cases worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.hanabi import hat_compiled as C
from puzzlelab.hanabi import kernels as K
from puzzlelab.hanabi import hat_strategies as S
from puzzlelab.hanabi.model import COLOURS, VALUES, hanabi_table
from puzzlelab.hanabi.game import Game
from puzzlelab.hanabi.rules import CARDS, HINTS, Rules, card_of, touches
from puzzlelab.hanabi.solvers import compare_hinting, is_sure, partition_size

RNG = np.random.default_rng(2015)


def table_of(masks):
    return hanabi_table([[(COLOURS[c // 5], c % 5 + 1) for c in S.identities(m)] for m in masks])


def random_mask(rng, card: int) -> int:
    """A random set of identities holding `card`: a random rectangle with holes, or any set."""
    if rng.random() < 0.5:
        colours, values = rng.random(5) < rng.random(), rng.random(5) < rng.random()
        mask = sum(1 << (5 * c + v) for c in range(5) for v in range(5)
                   if colours[c] and values[v])
        if rng.random() < 0.5:
            mask &= int(rng.integers(0, 1 << CARDS))
    else:
        mask = int(rng.integers(0, 1 << CARDS))
    return mask | 1 << card


def random_state(rng):
    """A random deal, public knowledge true of it, fireworks and discards: a hinter's moment."""
    n = int(rng.integers(2, 6))
    g = Game(n, int(rng.integers(0, 10**6)))
    g.fireworks = [int(x) for x in rng.integers(0, 4, 5)]
    g.discards = [int(c) for c in rng.choice(CARDS, int(rng.integers(0, 8)))]
    g.current = int(rng.integers(n))
    knowledge = S.PublicKnowledge(g.rules)
    knowledge.masks = [[random_mask(rng, c) for c in hand] for hand in g.hands]
    return g, knowledge


# ----- decoding ---------------------------------------------------------------------------------

@pytest.mark.parametrize("packing", S.PACKINGS)
def test_every_player_decodes_the_value_the_hinter_gave_his_hand(packing):
    rng = np.random.default_rng(S.PACKINGS.index(packing))
    states = 2000 if packing == "plain" else 400
    for _ in range(states):
        g, knowledge = random_state(rng)
        plan = S.hat_plan(knowledge, g.current, g.fireworks, g.discards, packing)
        message = S.encode(plan, g.view(g.current))
        assert 0 <= message < plan.modulus == sum(len(plan.groups[p]) for p in plan.order)
        for p in plan.order:
            view = g.view(p)
            assert p not in view.others  # he never sees his own hand
            assert S.decode(plan, message, view) == S.hand_value(plan, p, g.hands[p])


@pytest.mark.parametrize("packing", S.PACKINGS)
def test_in_played_games_every_decoding_is_right_and_knowledge_stays_true(packing):
    for seed in range(12 if packing == "plain" else 4):
        for n in (2, 3, 4, 5):
            team = S.InformationTeam(Game(n, seed), packing)
            while not team.game.over:
                team.turn()
                g = team.game
                for hand, masks in zip(g.hands, team.knowledge.masks):
                    assert len(hand) == len(masks)
                    assert all(m >> c & 1 for c, m in zip(hand, masks))
            assert team.steps and all(s.values == s.decoded for s in team.steps)
            assert g.fuses_left == g.rules.fuses  # only cards known playable are played


def test_the_recommendation_strategy_decodes_every_order_and_needs_five_players():
    for seed in range(10):
        team = S.play(5, seed, "recommendation")
        assert team.steps and all(s.values == s.decoded for s in team.steps)
        assert all(s.plan.modulus == 8 for s in team.steps)
    for n in (2, 3, 4):
        with pytest.raises(ValueError, match=f"with {n} players; it is defined for five"):
            S.play(n, 0, "recommendation")
    with pytest.raises(ValueError, match="plain messages only"):
        S.play(5, 0, "recommendation", "mixed")


# ----- the sure groups: the modulus -------------------------------------------------------------

def test_hint_groups_are_sure_partitions_of_the_size_the_exact_methods_give():
    for _ in range(150):
        hand = [int(c) for c in RNG.choice(CARDS, int(RNG.integers(1, 6)))]
        masks = [random_mask(RNG, c) for c in hand]
        table = table_of(masks)
        sizes = {}
        for packing in S.PACKINGS:
            groups = S.hint_groups(masks, packing)
            assert sorted(h for g in groups for h in g) == sorted(HINTS)
            assert all(is_sure(table, g) for g in groups)
            assert all(any(touches(h, c) for h in g for c in hand) for g in groups)
            sizes[packing] = len(groups)
        assert sizes["plain"] == 2
        assert sizes["mixed"] == partition_size(table) >= sizes["separate"]
        assert sizes["separate"] == compare_hinting(table)["separate"] >= 2


def test_with_nothing_known_every_way_of_counting_gives_two_groups():
    for packing in S.PACKINGS:
        assert len(S.hint_groups([S.ALL_CARDS] * 4, packing)) == 2


def compiled_groups(row: np.ndarray, k: int, kind: int) -> list[frozenset[str]]:
    """The compiled sure groups of a hand (kind 0 mixed, 1 colours, 2 values), by hint name."""
    out = np.full(10, -1, dtype=np.int64)
    groups = K.sure_partition(row, k, kind, out)
    hints = HINTS if kind == 0 else HINTS[:5] if kind == 1 else HINTS[5:]
    return [frozenset(hints[h] for h in range(len(hints)) if out[h] == j) for j in range(groups)]


def test_the_compiled_groups_are_the_solvers_groups():
    for _ in range(400):
        k = int(RNG.integers(1, 6))
        row = np.array([random_mask(RNG, int(RNG.integers(CARDS))) for _ in range(k)] +
                       [0] * (5 - k), dtype=np.int64)
        masks = row[:k].tolist()
        assert compiled_groups(row, k, 0) == S.hint_groups(masks, "mixed")
        assert compiled_groups(row, k, 1) + compiled_groups(row, k, 2) == \
            S.hint_groups(masks, "separate")


# ----- classes, targets, dead cards -------------------------------------------------------------

def test_card_classes_split_every_possibility_into_at_most_m_classes():
    for _ in range(500):
        mask = random_mask(RNG, int(RNG.integers(CARDS)))
        fw = [int(x) for x in RNG.integers(0, 5, 5)]
        thrown = [int(c) for c in RNG.choice(CARDS, int(RNG.integers(0, 10)))]
        m = int(RNG.integers(2, 41))
        classes = S.card_classes(mask, fw, thrown, m)
        assert sorted(classes) == S.identities(mask)
        used = set(classes.values())
        assert used <= set(range(m)) and used == set(range(len(used)))  # no class skipped
        dead = {c for c in classes if S.is_dead(c, fw, thrown)}
        assert all(classes[c] == 0 for c in dead)
        assert all(classes[c] > 0 for c in set(classes) - dead) or not dead
        live = len(classes) - len(dead)
        if live <= m - bool(dead):  # room for each live identity alone
            assert len(used) == live + bool(dead)
        compiled = K.card_classes(mask, np.array(fw), np.bincount(thrown, minlength=CARDS), m)
        assert {c: int(compiled[c]) for c in range(CARDS) if compiled[c] >= 0} == classes


def test_a_fresh_card_with_eight_messages_names_the_five_ones_alone():
    classes = S.card_classes(S.ALL_CARDS, [0] * 5, [], 8)
    ones = [card_of(f"{c[0]}1") for c in COLOURS]
    assert [classes[c] for c in ones] == [0, 1, 2, 3, 4]
    sizes = np.bincount(list(classes.values()))
    assert sizes.tolist() == [1, 1, 1, 1, 1, 7, 7, 6]  # 20 others in near-equal blocks


def test_dead_and_critical_cards_worked_out_by_hand():
    fw = [2, 0, 0, 0, 0]  # red 1 and 2 played
    assert S.is_dead(card_of("R1"), fw, []) and S.is_dead(card_of("R2"), fw, [])
    assert not S.is_dead(card_of("R3"), fw, [])
    both_w2 = [card_of("W2")] * 2  # every white 2 discarded: white stops at 1
    assert S.is_dead(card_of("W3"), fw, both_w2) and not S.is_dead(card_of("W1"), fw, both_w2)
    assert S.is_critical(card_of("B5"), fw, []) and not S.is_critical(card_of("B4"), fw, [])
    assert S.is_critical(card_of("B4"), fw, [card_of("B4")])
    assert not S.is_critical(card_of("R2"), fw, [card_of("R2")])  # dead, so not needed
    assert S.is_playable(card_of("R3"), fw) and S.is_playable(card_of("G1"), fw)


def test_the_told_about_card_is_the_most_likely_playable():
    left = [S.COPIES_OF[c] for c in range(CARDS)]
    fw = [0] * 5
    r1_or_r2 = 1 << card_of("R1") | 1 << card_of("R2")  # playable 3 of 5 copies
    any_two = sum(1 << card_of(f"{c[0]}2") for c in COLOURS)  # never playable now
    assert S.target_slot([any_two, r1_or_r2, S.ALL_CARDS], left, fw) == 1
    assert S.target_slot([any_two, S.ALL_CARDS], left, fw) == 1  # 15 of 50 copies
    known = 1 << card_of("R1")
    assert S.target_slot([known, any_two], left, fw) == 1  # nothing playable: first unknown
    assert S.target_slot([known, known], left, fw) == 0


def test_recommendations_worked_out_by_hand():
    fw = [1, 0, 0, 0, 4]  # red 1, blue 1-4
    hand = [card_of(x) for x in ("R1", "W1", "B5", "G1")]
    assert S.recommendation(hand, fw, []) == 2  # play: the 5 first
    hand = [card_of(x) for x in ("R1", "W2", "Y3", "G1")]
    assert S.recommendation(hand, fw, []) == 3  # play G1, the lowest playable
    hand = [card_of(x) for x in ("R1", "W2", "Y3", "B2")]
    assert S.recommendation(hand, fw, []) == 4 + 3  # no play: the highest dead card, B2
    hand = [card_of(x) for x in ("W2", "Y3", "G5", "R4")]
    assert S.recommendation(hand, fw, [card_of("R4")]) == 4 + 1  # Y3: highest not a last copy
    hand = [card_of(x) for x in ("W5", "Y5", "G5", "R5")]
    assert S.recommendation(hand, fw, []) == 7  # all needed: discard the newest


# ----- the compiled strategy is the readable one ------------------------------------------------

@pytest.mark.parametrize("packing", S.PACKINGS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_compiled_strategy_plays_the_same_moves(packing, players):
    deals = 12 if packing == "plain" else 3
    stats = C.play_deals(players, range(deals), packing)
    for seed in range(deals):
        team = S.play(players, seed, "information", packing)
        g = team.game
        assert C.compiled_moves(players, seed, packing) == [t.move for t in g.history]
        moduli = [s.plan.modulus for s in team.steps]
        bits = sum(round(np.log2(m) * C.BITS_SCALE) for m in moduli)
        assert stats[seed].tolist() == [g.score, C.ENDS.index(g.end),
                                        g.rules.fuses - g.fuses_left, len(team.steps), bits,
                                        sum(moduli), g.turn, 0]


def test_the_compiled_strategy_follows_other_rules_too():
    rules = Rules(4, hint_tokens=3, fuses=1, discard_at_max_tokens=True)
    for seed in range(5):
        team = S.InformationTeam(Game(rules, seed), "mixed")
        team.play()
        assert C.compiled_moves(rules, seed, "mixed") == [t.move for t in team.game.history]


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="packing must be one of"):
        C.play_deals(3, [0], "best")
    with pytest.raises(ValueError, match="seeds"):
        C.play_deals(3, [-1])
    with pytest.raises(ValueError, match="strategy must be one of"):
        S.play(3, 0, "cheat")
    with pytest.raises(ValueError, match="2 to 5 players"):
        C.play_deals(6, [0])
    with pytest.raises(ValueError, match="modulus"):
        S.card_classes(S.ALL_CARDS, [0] * 5, [], 1)
    with pytest.raises(TypeError):
        S.InformationTeam("a game")
