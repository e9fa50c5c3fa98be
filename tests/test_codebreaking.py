"""Tests for puzzlelab.codebreaking: every value is checked against a second, independent computation."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.codebreaking import (STRATEGIES, Game, analyze, analyze_plain, bags_of_gold,
                                    black_peg_mastermind, bulls_and_cows, counterfeit_coin,
                                    lemma14_bound, mastermind, optimal, simulate, well_formed_table)
from puzzlelab.codebreaking import coins, explore
from puzzlelab.codebreaking.games import mastermind_by_formulas, outcome_clauses


# --- games --------------------------------------------------------------------------------------
def naive_black_white(guess: str, code: str) -> tuple[int, int]:
    """Mastermind's answer by the textbook rule: blacks, then whites among the unmatched pegs."""
    black = sum(g == c for g, c in zip(guess, code))
    rest_g = [g for g, c in zip(guess, code) if g != c]
    rest_c = [c for g, c in zip(guess, code) if g != c]
    white = 0
    for g in rest_g:
        if g in rest_c:
            rest_c.remove(g)
            white += 1
    return black, white


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1295), st.integers(0, 1295))
def test_mastermind_outcome_matches_the_textbook_rule(j, k):
    game = _mm46()
    b, w = naive_black_white(game.code_names[j], game.code_names[k])
    assert game.outcome_labels[game.outcome_table[j, k]] == f"{b}B{w}W"


@lru_cache(maxsize=1)
def _mm46():
    return mastermind(4, 6)


@pytest.mark.parametrize("pegs,colors", [(2, 3), (3, 3), (2, 4), (3, 4)])
def test_example_11_formulas_give_the_counting_table(pegs, colors):
    assert (mastermind_by_formulas(pegs, colors) == mastermind(pegs, colors).outcome_table).all()


@pytest.mark.parametrize("n", [2, 3, 5, 7])
@pytest.mark.parametrize("genuine", [False, True])
def test_both_coin_formalizations_agree(n, genuine):
    a, b = counterfeit_coin(n, genuine, 8), counterfeit_coin(n, genuine, 9)
    assert a.experiments == b.experiments
    assert (a.outcome_table == b.outcome_table).all()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 12])
def test_coin_weighings_are_counted_once(n):
    # A weighing = two disjoint pans of m coins each; pans unordered: C(n,m)·C(n−m,m)/2.
    expected = sum(math.comb(n, m) * math.comb(n - m, m) for m in range(1, n // 2 + 1)) // 2
    assert counterfeit_coin(n).n_experiments == expected


def test_coin_outcomes_follow_the_balance():
    game = counterfeit_coin(5)
    for j, (_, p) in enumerate(game.experiments):
        m = len(p) // 2
        for k, name in enumerate(game.code_names):
            coin, heavy = int(name[:-1]), name[-1] == "H"
            if coin in p[:m]:
                expect = "left heavier" if heavy else "right heavier"
            elif coin in p[m:]:
                expect = "right heavier" if heavy else "left heavier"
            else:
                expect = "balance"
            assert game.outcome_labels[game.outcome_table[j, k]] == expect


def test_bulls_and_cows_codes_have_distinct_symbols():
    game = bulls_and_cows(3, 4)
    assert game.n_codes == 4 * 3 * 2
    assert all(len(set(c)) == 3 for c in game.code_names)


def test_outcome_clauses_by_formula():
    # Outcome(b, w) clauses: C(n, b) black sets × partial matchings of size w between the other
    # n − b guess and code positions avoiding i = j. For b = 0, w = 1, n = 2: pairs (1,2), (2,1).
    assert outcome_clauses(2, 0, 1) == 2
    assert outcome_clauses(3, 3, 0) == 1
    # without dropping (i, i): C(n,b) · C(n−b, w) · P(n−b, w)
    assert outcome_clauses(4, 1, 1, drop_contradictions=False) == 4 * 3 * 3


# --- validation ---------------------------------------------------------------------------------
def tiny_game(**kw) -> Game:
    args = dict(name="t", variables=["a", "b"], codes=np.array([[1, 0], [0, 1]], dtype=bool),
                experiments=[("e", (1,))], outcome_table=np.array([[0, 1]]), outcome_labels=["x", "y"])
    args.update(kw)
    return Game(**args)


@pytest.mark.parametrize("kw,words", [
    ({"codes": np.zeros((0, 2), dtype=bool), "outcome_table": np.zeros((1, 0), dtype=int)}, "no codes"),
    ({"outcome_table": np.array([[0, 2]])}, "outside"),
    ({"outcome_table": np.array([[0, 1, 1]])}, "shape"),
    ({"variables": ["a", "a"]}, "distinct"),
    ({"experiments": []}, "no experiments"),
    ({"final_outcomes": ["z"]}, "unknown final"),
    ({"codes": np.array([[1, 0], [1, 0]], dtype=bool)}, "same valuation"),
])
def test_bad_games_are_rejected(kw, words):
    with pytest.raises(ValueError, match=words):
        tiny_game(**kw)


def test_final_outcome_must_single_out_a_code():
    with pytest.raises(ValueError, match="single out"):
        tiny_game(outcome_table=np.array([[0, 0]]), final_outcomes=["x"])


def test_ill_formed_outcomes_name_the_culprit():
    sat = np.zeros((2, 2, 3), dtype=bool)
    sat[:, 0, :] = True
    sat[1, 1, 2] = True
    with pytest.raises(ValueError, match="2 outcomes of exp B hold for code 2"):
        well_formed_table(sat, ["exp A", "exp B"], ["code 0", "code 1", "code 2"])


@pytest.mark.parametrize("call", [
    lambda: mastermind(0, 3), lambda: mastermind(2, -1), lambda: counterfeit_coin(0),
    lambda: counterfeit_coin(1), lambda: counterfeit_coin(3, formalization=7),
    lambda: bulls_and_cows(4, 3), lambda: mastermind(9, 9), lambda: bags_of_gold(0, 2),
    lambda: analyze(mastermind(2, 2), "random"), lambda: optimal(mastermind(2, 2), "best"),
    lambda: coins.initial(0), lambda: simulate(mastermind(2, 2), "parts", "33"),
    lambda: explore.make_game("chess", 1, 1), lambda: explore.explore_play(2, 3, 0, "19"),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_indistinguishable_codes_are_reported():
    # Two coins and no genuine coin: "1 heavy" and "2 light" tip the scales the same way, always.
    with pytest.raises(ValueError, match="tells apart|cannot be told apart"):
        analyze(counterfeit_coin(2), "max-models")
    with pytest.raises(ValueError, match="cannot be told apart"):
        optimal(counterfeit_coin(2), "worst")


# --- analysis: vectorised against plain recursion -------------------------------------------------
SMALL = [lambda: mastermind(2, 3), lambda: mastermind(3, 3), lambda: mastermind(2, 5),
         lambda: black_peg_mastermind(3, 3), lambda: bulls_and_cows(3, 4), lambda: counterfeit_coin(5),
         lambda: counterfeit_coin(6, True), lambda: bags_of_gold(4, 2)]


@pytest.mark.parametrize("make", SMALL)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_fast_analysis_equals_plain_recursion(make, strategy):
    game = make()
    assert (analyze(game, strategy).lengths == analyze_plain(game, strategy).lengths).all()


def test_simulation_agrees_with_analysis():
    game = mastermind(3, 3)
    a = analyze(game, "ent-models")
    for k in range(game.n_codes):
        play = simulate(game, "ent-models", k)
        assert len(play) == a.lengths[k] and play.outcome.iloc[-1] == "3B0W"


def test_decision_tree_accounts_for_every_code():
    game = mastermind(3, 3)
    a = analyze(game, "max-models")
    leaves = a.tree[a.tree.code != ""]
    assert sorted(leaves.code) == sorted(game.code_names)


# --- optimal search against brute force -----------------------------------------------------------
def useful_splits(game: Game, live: frozenset):
    """Each experiment's partition of `live` by outcome, skipping experiments that teach nothing."""
    table, final = game.outcome_table, game.is_final
    for j in range(game.n_experiments):
        parts: dict[int, set] = {}
        for k in live:
            parts.setdefault(int(table[j, k]), set()).add(k)
        if len(parts) == 1 and not final[next(iter(parts))]:
            continue
        yield parts


def brute_force(game: Game) -> tuple[int, int]:
    """Optimal worst and total by plain recursion over all experiments (no bounds, no symmetry)."""
    final = game.is_final

    @lru_cache(maxsize=None)
    def solve(live: frozenset) -> tuple[float, float]:
        if len(live) == 1:
            return (1, 1) if game.ends_on_final else (0, 0)
        best_w, best_t = math.inf, math.inf
        for parts in useful_splits(game, live):
            w, t = 0, 0
            for o, part in parts.items():
                if final[o]:
                    w, t = max(w, 1), t + 1
                else:
                    sw, st_ = solve(frozenset(part))
                    w, t = max(w, 1 + sw), t + len(part) + st_
            best_w, best_t = min(best_w, w), min(best_t, t)
        return best_w, best_t

    return solve(frozenset(range(game.n_codes)))


TINY = [lambda: mastermind(2, 2), lambda: mastermind(2, 3), lambda: mastermind(3, 2),
        lambda: black_peg_mastermind(2, 3), lambda: counterfeit_coin(3), lambda: counterfeit_coin(4),
        lambda: counterfeit_coin(3, True), lambda: bags_of_gold(3, 2), lambda: mastermind(3, 3),
        lambda: mastermind(2, 5), lambda: black_peg_mastermind(3, 3), lambda: counterfeit_coin(6),
        lambda: counterfeit_coin(5, True)]


@pytest.mark.parametrize("make", TINY)
@pytest.mark.parametrize("symmetry", [True, False])
def test_optimal_equals_brute_force(make, symmetry):
    game = make()
    worst, total = brute_force(game)
    assert optimal(game, "worst", symmetry=symmetry).worst == worst
    assert optimal(game, "average", symmetry=symmetry).total == total
    assert lemma14_bound(game) <= worst


@pytest.mark.parametrize("make", [lambda: mastermind(3, 3), lambda: black_peg_mastermind(3, 3),
                                  lambda: counterfeit_coin(5, True)])
def test_symmetry_does_not_change_the_optimum(make):
    game = make()
    for measure in ("worst", "average"):
        a, b = optimal(game, measure, symmetry=True), optimal(game, measure, symmetry=False)
        assert (a.worst, a.total) == (b.worst, b.total) if measure == "average" else a.worst == b.worst
        assert a.stats["experiments tried"] <= b.stats["experiments tried"]


def _canonical(row: np.ndarray) -> tuple:
    """A partition of codes as a sorted tuple of frozensets."""
    return tuple(sorted(tuple(np.flatnonzero(row == o)) for o in np.unique(row)))


@pytest.mark.parametrize("make", [lambda: mastermind(2, 3), lambda: counterfeit_coin(5),
                                  lambda: counterfeit_coin(4, True)])
def test_symmetries_map_partitions_to_partitions(make):
    game = make()
    sym = game.symmetry
    for cp, ep in zip(sym.code_perms, sym.experiment_perms):
        inverse = np.argsort(cp)
        for j in range(game.n_experiments):
            # code k has outcome o under j  ⇔  code cp[k] is in the matching part under ep[j]
            image = game.outcome_table[ep[j]][cp]
            assert _canonical(image) == _canonical(game.outcome_table[j])
        assert (cp[inverse] == np.arange(game.n_codes)).all()


# --- coins by class counting against the generic engine -------------------------------------------
@pytest.mark.parametrize("n,genuine", [(3, False), (4, False), (5, False), (6, False), (1, True),
                                       (2, True), (4, True), (5, True)])
def test_class_counting_equals_generic_search(n, genuine):
    game = counterfeit_coin(n, genuine)
    assert coins.fewest_weighings(n, genuine) == optimal(game, "worst").worst
    assert coins.least_total(coins.initial(n, genuine)) == optimal(game, "average").total


def test_two_coins_alone_cannot_be_solved():
    assert coins.fewest_weighings(2) == math.inf


# --- language against the built-in games -----------------------------------------------------------
@pytest.mark.parametrize("stem", ["coin4", "coin4_genuine", "mastermind_3x3"])
def test_shipped_files_give_the_built_in_numbers(stem):
    from puzzlelab.codebreaking.language import load

    parsed, built = load(f"{stem}.cobra"), explore.built_in_twin(stem)
    assert parsed.experiments == built.experiments
    for s in STRATEGIES:
        assert analyze(parsed, s).histogram() == analyze(built, s).histogram()


def test_play_against_a_hidden_code_ends_when_guessed():
    game = explore.make_game("Mastermind", 3, 3)
    secret = game.code_names[explore.hidden_code(game, 7)]
    play = explore.explore_play(3, 3, seed=7, guesses=f"112, {secret}, 333")
    assert play.solved.iloc[-1] and play.guess.iloc[-1] == secret and len(play) <= 2


def brute_force_total_within(game: Game, budget: int) -> float:
    """Least total over strategies that solve every code within `budget` experiments (plain recursion)."""
    final = game.is_final

    @lru_cache(maxsize=None)
    def solve(live: frozenset, d: int) -> float:
        if len(live) == 1:
            need = 1 if game.ends_on_final else 0
            return need if d >= need else math.inf
        if d == 0:
            return math.inf
        best = math.inf
        for parts in useful_splits(game, live):
            best = min(best, sum(1 if final[o] else len(p) + solve(frozenset(p), d - 1) for o, p in parts.items()))
        return best

    return solve(frozenset(range(game.n_codes)), budget)


@pytest.mark.parametrize("make", [lambda: mastermind(2, 3), lambda: mastermind(3, 2), lambda: counterfeit_coin(4),
                                  lambda: black_peg_mastermind(2, 3)])
def test_average_within_a_worst_case_budget_equals_brute_force(make):
    game = make()
    worst = optimal(game, "worst").worst
    for budget in (worst, worst + 1):
        res = optimal(game, "average", max_worst=budget)
        assert res.total == brute_force_total_within(game, budget) and res.worst <= budget
    with pytest.raises(ValueError, match="within"):
        optimal(game, "average", max_worst=worst - 1)
