"""The Hanabi engine (puzzlelab.hanabi.game, .rules) against games worked out by hand.

Each scripted game stacks the deck (the first cards named below, the rest in `DECK` order),
plays a move list and compares the final state with what the rules give, turn by turn, as
worked out in the comments. Then the edge cases: the last round, the token cap, the third
fuse, and every kind of illegal move.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from puzzlelab.hanabi.game import Game, dealt_deck
from puzzlelab.hanabi.rules import (
    CARDS, DECK, HINTS, PERFECT, Move, Rules, card_name, card_of, cox_rules, touches,
)


def stacked(top: list[str]) -> list[str]:
    """The named cards first, then the rest of the deck in `DECK` order."""
    rest = Counter(DECK) - Counter(card_of(c) for c in top)
    return top + [card_name(c) for c in DECK if rest[c] and not rest.subtract([c])]


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]


# ----- the deck and the cards -------------------------------------------------------------------

def test_the_deck_has_three_ones_two_of_two_to_four_and_one_five_per_colour():
    counts = Counter(DECK)
    assert len(DECK) == 50 and len(counts) == CARDS == 25
    assert [counts[5 * c + v] for c in range(5) for v in range(5)] == [3, 2, 2, 2, 1] * 5


def test_card_names_round_trip_and_hints_touch_by_colour_or_value():
    assert [card_of(card_name(c)) for c in range(CARDS)] == list(range(CARDS))
    assert card_name(0) == "R1" and card_name(24) == "B5" and card_name(12) == "Y3"
    assert touches("Yellow", card_of("Y3")) and touches("3", card_of("Y3"))
    assert not touches("Red", card_of("Y3")) and not touches("4", card_of("Y3"))
    assert sum(touches(h, c) for h in HINTS for c in range(CARDS)) == 2 * CARDS


def test_hands_are_five_cards_for_two_or_three_players_and_four_for_four_or_five():
    for n, h in [(2, 5), (3, 5), (4, 4), (5, 4)]:
        g = Game(n, 7)
        assert [len(hand) for hand in g.hands] == [h] * n and len(g.deck) == 50 - n * h
        assert sorted(sum(g.hands, []) + g.deck) == sorted(DECK)


def test_a_seed_deals_the_same_deck_and_different_seeds_differ():
    g = Game(4, 3)
    assert dealt_deck(3) == dealt_deck(3) == sum(g.hands, []) + g.deck
    assert dealt_deck(3) != dealt_deck(4)


def test_the_deal_does_not_depend_on_the_hash_seed():
    code = ("from puzzlelab.hanabi.game import dealt_deck; "
            "print(dealt_deck(12345), dealt_deck(0))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": h}).stdout
            for h in ("0", "1", "4242")}
    assert len(outs) == 1 and outs.pop().strip() == f"{dealt_deck(12345)} {dealt_deck(0)}"


# ----- a game worked out by hand ----------------------------------------------------------------

def test_a_scripted_two_player_game_ends_in_the_state_worked_out_by_hand():
    # player 0: R1 R2 W1 W1 B5, player 1: R3 Y1 G1 R1 B4; the deck then draws G2 Y2 W2, and
    # then the rest in DECK order: R1 R2 R3 R4 ...
    top = ["R1", "R2", "W1", "W1", "B5", "R3", "Y1", "G1", "R1", "B4", "G2", "Y2", "W2"]
    g = Game(2, deck=stacked(top))
    script = [
        Move.play(0),           # t0 p0 plays R1: red 1.  p0: R2 W1 W1 B5 G2
        Move.give(0, "White"),  # t1 p1 points at p0's slots 1, 2.  7 tokens
        Move.play(1),           # t2 p0 plays W1: white 1.  p0: R2 W1 B5 G2 Y2
        Move.play(0),           # t3 p1 plays R3 on red 1: misplay, 2 fuses left.
                                #    p1: Y1 G1 R1 B4 W2
        Move.give(1, "1"),      # t4 p0 points at p1's slots 0, 1, 2.  6 tokens
        Move.play(0),           # t5 p1 plays Y1: yellow 1.  p1: G1 R1 B4 W2 R1
        Move.discard(1),        # t6 p0 discards W1 (white has its 1).  7 tokens.
                                #    p0: R2 B5 G2 Y2 R2
        Move.play(1),           # t7 p1 plays R1 on red 1: misplay, 1 fuse left.
    ]                           #    p1: G1 B4 W2 R1 R3
    turns = [g.apply(m) for m in script]
    assert [t.success for t in turns] == [True, False, True, False, False, True, False, False]
    assert turns[1].touched == (1, 2) and turns[4].touched == (0, 1, 2)
    assert names(t.card for t in turns if t.move.kind != "hint") == [
        "R1", "W1", "R3", "Y1", "W1", "R1"]
    assert names(g.hands[0]) == ["R2", "B5", "G2", "Y2", "R2"]
    assert names(g.hands[1]) == ["G1", "B4", "W2", "R1", "R3"]
    assert g.fireworks == [1, 1, 1, 0, 0]  # red, white, yellow, green, blue
    assert names(g.discards) == ["R3", "W1", "R1"]
    assert (g.tokens, g.fuses_left, g.score, g.score_zero) == (7, 1, 3, 3)
    assert (g.current, g.turn, len(g.deck), g.over) == (0, 8, 34, False)


def test_the_scripted_game_touches_the_cards_of_the_hint_and_only_those():
    top = ["R1", "R2", "W1", "W1", "B5", "R3", "Y1", "G1", "R1", "B4", "G2", "Y2", "W2"]
    g = Game(2, deck=stacked(top))
    g.apply(Move.play(0))                    # p0's hand: R2 W1 W1 B5 G2
    assert g.apply(Move.give(0, "White")).touched == (1, 2)
    assert g.apply(Move.give(1, "1")).touched == (1, 2, 3)  # p1: R3 Y1 G1 R1 B4
    assert g.apply(Move.give(0, "5")).touched == (3,)


# ----- edge cases -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_after_the_last_card_is_drawn_every_player_plays_exactly_one_more_turn(players):
    g = Game(Rules(players, discard_at_max_tokens=True), 11)
    last_draw = None
    while not g.over:
        turn = g.apply(Move.discard(0))
        if turn.drew and not g.deck:
            last_draw = turn.turn
    assert g.end == "deck" and g.turn == last_draw + 1 + players
    assert last_draw == 50 - players * Rules(players).hand_size - 1  # one draw per turn
    # everybody but the last drawer holds one card fewer... and he too, after his extra turn
    assert [len(h) for h in g.hands] == [Rules(players).hand_size - 1] * players


def test_nobody_may_discard_with_all_tokens_in_hand_unless_the_rules_allow_it():
    g = Game(3, 0)
    with pytest.raises(ValueError, match="discard slot 0.*all 8 hint tokens"):
        g.apply(Move.discard(0))
    g = Game(cox_rules(3), 0)
    g.apply(Move.discard(0))
    assert g.tokens == 8  # the token cap holds


def test_a_played_five_returns_a_token_but_never_beyond_the_cap():
    # p0: R1 R2 R3 R4 R5, p1: W1 W2 W3 W4 W5: everything plays
    top = ["R1", "R2", "R3", "R4", "R5", "W1", "W2", "W3", "W4", "W5"]
    g = Game(2, deck=stacked(top))
    for _ in range(8):  # R1 W1 R2 W2 ... R4 W4, each from slot 0
        assert g.apply(Move.play(0)).success
    g.apply(Move.play(0))  # R5 at 8 tokens
    assert g.fireworks[0] == 5 and g.tokens == 8
    g2 = Game(2, deck=stacked(top))
    for m in [Move.play(0)] * 8 + [Move.give(1, "5"), Move.play(0)]:  # p1 hints, then W5
        g2.apply(m)
    assert g2.fireworks == [4, 5, 0, 0, 0] and g2.tokens == 8  # 7 + 1 for the white 5


def test_hints_spend_tokens_and_stop_at_zero():
    g = Game(2, 1)
    for _ in range(8):
        other = 1 - g.current
        g.apply(Move.give(other, next(h for h in HINTS
                                      if any(touches(h, c) for c in g.hands[other]))))
    assert g.tokens == 0
    with pytest.raises(ValueError, match="no hint token"):
        g.apply(Move.give(1, "Red"))
    assert all(m.kind != "hint" for m in g.legal_moves())


def test_the_third_misplay_ends_the_game_and_only_the_strict_score_drops_to_zero():
    # p0: R1 B2 B3 B4 G4 plays R1, then misplays three blues while p1 hints
    top = ["R1", "B2", "B3", "B4", "G4", "Y1", "Y1", "W3", "W4", "G5"]
    g = Game(2, deck=stacked(top))
    for m in [Move.play(0), Move.give(0, "Blue"), Move.play(0), Move.give(0, "Blue"),
              Move.play(0), Move.give(0, "4"), Move.play(0)]:
        g.apply(m)
    assert g.over and g.end == "fuses" and g.fuses_left == 0
    assert g.score == 1 and g.score_zero == 0
    with pytest.raises(ValueError, match="the game is over"):
        g.apply(Move.give(0, "Green"))
    assert g.legal_moves() == []


def test_the_simulator_of_cox_et_al_ends_only_at_the_fourth_misplay():
    rules = cox_rules(2)
    assert rules.fuses == 4 and rules.discard_at_max_tokens
    g = Game(rules, deck=stacked(["B2", "B3", "B4", "G4", "G3", "Y1", "Y1", "W3", "W4", "G5"]))
    for _ in range(3):
        g.apply(Move.play(0))
        g.apply(Move.discard(0))
    assert not g.over and g.fuses_left == 1
    g.apply(Move.play(0))
    assert g.end == "fuses"


def test_a_perfect_game_ends_at_25():
    g = Game(2, 0)
    g.fireworks = [5, 5, 5, 5, 4]
    g.hands[0][0] = card_of("B5")
    g.apply(Move.play(0))
    assert g.end == "perfect" and g.score == PERFECT == 25 and g.score_zero == 25


# ----- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [0, 1, 6, 10])
def test_a_bad_player_count_is_named(players):
    with pytest.raises(ValueError, match=f"2 to 5 players, got {players}"):
        Rules(players)
    with pytest.raises(ValueError, match=f"2 to 5 players, got {players}"):
        Game(players, 0)


def test_illegal_moves_are_refused_naming_the_move_and_the_rule():
    g = Game(3, 5)
    g.apply(Move.give(1, next(h for h in HINTS if any(touches(h, c) for c in g.hands[1]))))
    absent = next(h for h in HINTS if not any(touches(h, c) for c in g.hands[2]))
    cases = [
        (Move.give(1, "Red"), "hint player 1: Red.*cannot hint himself"),
        (Move.give(2, absent), f"hint player 2: {absent}.*touches no card"),
        (Move.give(7, "Red"), "hint player 7: Red.*no player 7"),
        (Move.play(5), "play slot 5.*slots 0-4"),
        (Move.discard(9), "discard slot 9.*slots 0-4"),
    ]
    for move, pattern in cases:
        with pytest.raises(ValueError, match=f"illegal move '{pattern}"):
            g.apply(move)
    assert g.turn == 1  # nothing was played


def test_malformed_moves_and_decks_are_refused_clearly():
    for bad in [lambda: Move("pass"), lambda: Move.give(1, "Purple"), lambda: Move.play(-2),
                lambda: Move("play"), lambda: Move("hint", hint="Red"), lambda: Game(2, -1),
                lambda: Game(2, deck=["R1"] * 50), lambda: Game(2, deck="R1R2"),
                lambda: Game("five", 0), lambda: card_of("X9"), lambda: card_name(25),
                lambda: Game(3, 0).check("play 0")]:
        with pytest.raises(ValueError):
            bad()


def test_legal_moves_are_exactly_the_moves_check_accepts():
    g = Game(4, 9)
    g.apply(Move.give(2, next(h for h in HINTS if any(touches(h, c) for c in g.hands[2]))))
    every = [Move.play(s) for s in range(6)] + [Move.discard(s) for s in range(6)] + [
        Move.give(p, h) for p in range(5) for h in HINTS]
    accepted = []
    for m in every:
        try:
            g.check(m)
            accepted.append(m)
        except ValueError:
            pass
    assert accepted == g.legal_moves() and len(accepted) > 8


def test_every_move_is_written_in_a_few_characters_and_read_back():
    game = Game(4, 7)
    seen = set()
    while not game.over:
        moves = game.legal_moves()
        for move in moves:
            code = move.code
            assert Move.from_code(code) == move
            assert code == ({"play": "p", "discard": "d"}[move.kind] + str(move.slot)
                            if move.kind != "hint" else f"h{move.target}:{move.hint}")
        seen |= {m.code for m in moves}
        game.apply(moves[len(game.history) % len(moves)])
    assert {c[0] for c in seen} == {"p", "d", "h"}
    for bad in ("", "p", "x1", "p-1", "h2Red", "h:Red", "h1:Pink", "h1:", "d1.5", "p١"):
        with pytest.raises(ValueError, match="a move code is"):
            Move.from_code(bad)
    with pytest.raises(TypeError, match="code must be a string"):
        Move.from_code(3)
