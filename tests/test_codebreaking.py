"""Tests for puzzlelab.codebreaking: every value is checked against a second, independent computation."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.codebreaking import (STRATEGIES, Game, analyze, bags_of_gold, black_peg_mastermind,
                                    bulls_and_cows, counterfeit_coin, lemma14_bound, mastermind,
                                    optimal, parse, simulate, well_formed_table)
from puzzlelab import checks
from puzzlelab.codebreaking import coins, reference
from puzzlelab.codebreaking import notebook as explore
from puzzlelab.codebreaking import tables
from puzzlelab.codebreaking.formulas import mastermind_by_formulas, outcome_clauses
from puzzlelab.codebreaking.reference import analyze_plain
from puzzlelab.codebreaking.source import clause_report
from puzzlelab.paths import DATA


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
    ({"experiments": []}, "experiments must be a non-empty list"),
    ({"final_outcomes": ["z"]}, "unknown final"),
    ({"codes": np.array([[1, 0], [1, 0]], dtype=bool)}, "same valuation"),
])
def test_bad_games_are_rejected(kw, words):
    with pytest.raises(ValueError, match=words):
        tiny_game(**kw)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12), st.integers(0, 20), st.integers(0, 2**32 - 1))
def test_repeated_valuations_are_found_as_by_np_unique(rows, columns, seed):
    """A game refuses its codes exactly when np.unique finds two rows the same."""
    codes = np.random.default_rng(seed).integers(0, 2, (rows, columns)).astype(bool)
    repeated = len(np.unique(codes, axis=0)) < rows
    try:
        tiny_game(variables=[f"v{i}" for i in range(columns)], codes=codes,
                  outcome_table=np.zeros((1, rows), dtype=int), outcome_labels=["x"])
    except ValueError as error:
        assert repeated and "same valuation" in str(error)
    else:
        assert not repeated


def test_final_outcome_must_single_out_a_code():
    with pytest.raises(ValueError, match="single out"):
        tiny_game(outcome_table=np.array([[0, 0]]), final_outcomes=["x"])


def test_ill_formed_outcomes_name_the_culprit():
    sat = np.zeros((2, 2, 3), dtype=bool)
    sat[:, 0, :] = True
    sat[1, 1, 2] = True
    with pytest.raises(ValueError, match="2 outcomes of exp B hold for code 2"):
        well_formed_table(sat, ["exp A", "exp B"], ["code 0", "code 1", "code 2"])


@pytest.mark.parametrize("call,words", [
    (lambda: mastermind(0, 3), "pegs must be an integer between 1 and"),
    (lambda: mastermind(2, -1), "colors must be an integer at least 1"),
    (lambda: counterfeit_coin(0), "coins must be an integer between 1 and"),
    (lambda: counterfeit_coin(1), "at least 2 coins"),
    (lambda: counterfeit_coin(3, formalization=7), "formalization .*must be one of 8, 9"),
    (lambda: bulls_and_cows(4, 3), "need at least 4 symbols"),
    (lambda: mastermind(9, 9), "too many for an explicit table"),
    (lambda: bags_of_gold(0, 2), "bags must be an integer between 1 and"),
    (lambda: analyze(mastermind(2, 2), "random"), "strategy must be one of .*; got 'random'"),
    (lambda: optimal(mastermind(2, 2), "best"), "measure must be one of 'worst', 'average'; got 'best'"),
    (lambda: coins.initial(0), "coins must be an integer between 1 and"),
    (lambda: coins.max_coins(-1), "w must be an integer between 0 and"),
    (lambda: coins.dyson_bound(0), "w must be an integer between 1 and"),
    (lambda: simulate(mastermind(2, 2), "parts", "33"), "no code named '33'"),
    (lambda: simulate(mastermind(2, 2), "parts", 2.7), "code name or an index.* must be an integer, got 2.7"),
    (lambda: simulate(mastermind(2, 2), "parts", True), "code name or an index.* must be an integer, got True"),
    (lambda: simulate(mastermind(2, 2), "parts", 4), r"code .* must be an integer between 0 and 3, got 4"),
    (lambda: parse(None), "a game description must be a string, got None"),
    (lambda: tables.make_game("chess", 1, 1), "kind of game must be one of .*; got 'chess'"),
    (lambda: explore.explore_play(2, 3, 0, "19"), "guess '19' must be 2 digits from 1 to 3"),
])
def test_bad_input_raises_value_error(call, words):
    with pytest.raises(ValueError, match=words):
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


@pytest.mark.parametrize("pegs,colors", [(3, 3), (4, 4)])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_determined_is_when_one_code_is_left_in_a_simulated_play(pegs, colors, strategy):
    # |σ|_v of Definition 12: the first step after which one code is left (one play per code)
    game = mastermind(pegs, colors)
    a = analyze(game, strategy)
    for k in range(game.n_codes):
        left = simulate(game, strategy, k)["codes left"].tolist()
        assert a.determined[k] == left.index(1) + 1 and a.lengths[k] == len(left)


def test_histogram_counts_every_code_from_depth_zero():
    a = analyze(counterfeit_coin(1, True), "max-models")  # 2 codes, one weighing: depths 1
    assert a.histogram() == {1: 2} and sum(analyze(mastermind(3, 3), "parts").histogram().values()) == 27


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
    assert lemma14_bound(game) <= (worst if not game.ends_on_final else brute_force(game.with_final_outcomes(()))[0])


@pytest.mark.parametrize("make", [lambda: mastermind(3, 3), lambda: black_peg_mastermind(3, 3),
                                  lambda: counterfeit_coin(5, True)])
def test_symmetry_does_not_change_the_optimum(make):
    game = make()
    for measure in ("worst", "average"):
        a, b = optimal(game, measure, symmetry=True), optimal(game, measure, symmetry=False)
        assert (a.worst, a.total) == (b.worst, b.total) if measure == "average" else a.worst == b.worst
        assert a.stats["experiments tried"] <= b.stats["experiments tried"]


TWO_TYPES = """VARIABLES a, b
EXPERIMENT 'A' 0
OUTCOME 'a' a
OUTCOME 'not a' !a
EXPERIMENT 'B' 0
OUTCOME 'b' b
OUTCOME 'not b' !b
"""


def test_lemma14_uses_the_outcomes_of_one_experiment_type():
    # 4 codes, two types with 2 outcomes each (4 labels in all): b = 2, bound ⌈log2 4⌉ = 2.
    game = parse(TWO_TYPES)
    assert lemma14_bound(game) == brute_force(game)[0] == optimal(game, "worst").worst == 2


@pytest.mark.parametrize("make", SMALL)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_lemma14_bounds_the_determined_length(make, strategy):
    game = make()
    assert lemma14_bound(game) <= analyze(game, strategy).determined.max()


def test_type_outcomes_are_checked():
    with pytest.raises(ValueError, match="outside Φ"):
        tiny_game(type_outcomes={"e": ["x"]})
    with pytest.raises(ValueError, match="lacks experiment type 'e'"):
        tiny_game(type_outcomes={"f": ["x"]})


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
    assert coins.fewest_weighings(1) == coins.fewest_weighings(2) == math.inf


@pytest.mark.parametrize("w", [1, 2, 3])
@pytest.mark.parametrize("genuine", [False, True])
def test_most_coins_by_search_equals_dysons_closed_form(w, genuine):
    assert coins.max_coins(w, genuine) == coins.dyson_bound(w, genuine)


@pytest.mark.parametrize("n,genuine", [(n, g) for g in (False, True) for n in range(1 if g else 3, 10)])
def test_greedy_is_worst_case_optimal_but_not_always_average_optimal_on_coins(n, genuine):
    # the greedy strategies (generic engine) against the optimum by class counting
    game, state = counterfeit_coin(n, genuine), coins.initial(n, genuine)
    for s in ("max-models", "exp-models", "ent-models"):
        a = analyze(game, s)
        assert a.worst == coins.fewest_weighings(n, genuine)
        assert a.total >= coins.least_total(state)


def test_greedy_average_is_beaten_on_seven_coins_with_a_genuine_one():
    # exact optimum by brute force (generic, no class counting) below every greedy total
    game = counterfeit_coin(7, True)
    best = optimal(game, "average").total
    assert best == coins.least_total(coins.initial(7, True))
    assert all(analyze(game, s).total > best for s in ("max-models", "exp-models", "ent-models"))


# --- language against the built-in games -----------------------------------------------------------
@pytest.mark.parametrize("stem", ["coin4", "coin4_genuine", "mastermind_3x3"])
def test_shipped_files_give_the_built_in_numbers(stem):
    from puzzlelab.codebreaking.language import load

    parsed, built = load(f"{stem}.cobra"), tables.built_in_twin(stem)
    assert parsed.experiments == built.experiments
    for s in STRATEGIES:
        assert analyze(parsed, s).histogram() == analyze(built, s).histogram()


def test_play_against_a_hidden_code_ends_when_guessed():
    game = tables.make_game("Mastermind", 3, 3)
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


@pytest.mark.parametrize("make", [lambda: mastermind(3, 3), lambda: black_peg_mastermind(2, 4),
                                  lambda: counterfeit_coin(5)])
def test_a_capped_average_search_gives_the_optimum_below_the_cap_and_a_lower_bound_above(make):
    from puzzlelab.codebreaking.exhaustive import Search

    game = make()
    root = np.arange(game.n_codes)
    best = reference.optimal_plain(game)[1]  # the plain recursion, no bounds, no symmetry
    for cap in (best - 7, best - 1, best, best + 1, best + 20):
        search = Search(game)
        value = search.best_total(root, None, cap)
        if cap > best:
            assert value == best  # found: the cap did not hide it
        else:
            assert cap <= value <= best  # cut: a true lower bound, at least the cap
        assert search.best_total(root) == best  # what the capped search remembered stays sound


@pytest.mark.parametrize("genuine", [False, True])
def test_a_spanning_tree_of_coin_swaps_gives_the_same_orbits(genuine):
    # the search keeps only a spanning forest of the transpositions fixing the live codes
    from dataclasses import replace

    from puzzlelab.codebreaking.exhaustive import Search

    game = counterfeit_coin(6, genuine)
    plain = Game(game.name, game.variables, game.codes, game.experiments, game.outcome_table,
                 game.outcome_labels, code_names=game.code_names, symmetry=replace(game.symmetry, swaps=None))
    rng = np.random.default_rng(5)
    for size in (12, 8, 6, 4, 3):
        live = np.sort(rng.choice(game.n_codes, size, replace=False))
        assert (Search(game).orbit_leaders(live) == Search(plain).orbit_leaders(live)).all()


def test_clause_report_accepts_a_correct_outcome_1_1_clause():
    # 3 pegs, black at 0, white pair (1, 2), maximality ¬f1($2): codes 1x2 with x ∉ {2, 3} answer 1B1W
    report = clause_report(r"(f_0(\$0) \land \neg f_1(\$1) \land f_2(\$1) \land \neg f_1(\$2)) \lor "
                           "(¬f_0($0) ∧ f_0($0))", pegs=3, colors=4)
    first, second = report.iloc[0], report.iloc[1]
    assert first["white literal f_j($i), i≠j"] and not first.contradiction
    assert first["answers of the codes satisfying it"] == "1B1W"
    assert second.contradiction and second["answers of the codes satisfying it"] == "none (unsatisfiable)"


@pytest.mark.parametrize("text,words", [(None, "must be a string"), ("a ∧ b", "no clause"),
                                        ("(f_5($0))", "beyond 3")])
def test_clause_report_rejects_bad_text(text, words):
    with pytest.raises(ValueError, match=words):
        clause_report(text)


def test_greedy_gap_sentence_names_the_failing_coin_counts():
    table = tables.coin_greedy_table(8)  # engine and class counting, live
    gaps = explore.greedy_average_gaps(table)
    text = explore.describe_greedy_gaps(gaps)
    failing = gaps[(gaps[list(explore.GREEDY)] > 0).any(axis=1)]
    for genuine, grp in failing.groupby("extra genuine coin"):
        assert f"first failure is at {grp.coins.min()} coins" in text


def test_widgets_act_on_release():
    for controls in (explore.strategy_widgets(), explore.play_widgets()):
        assert all(not w.continuous_update for w in controls.values() if hasattr(w, "continuous_update"))


def test_size_controls_are_named_per_game_and_unused_ones_hidden():
    controls = explore.strategy_widgets()
    kind, a, b = controls["kind"], controls["a"], controls["b"]
    for name, (first, second) in explore.SIZE_CONTROLS.items():
        kind.value = name
        assert a.description == first[0] and first[1] <= a.value <= first[2]
        assert (b.layout.display == "none") == (second is None)
        game = tables.make_game(name, a.value, b.value)  # every opening value is a game
        assert game.n_codes >= 1


def test_histogram_views_add_up_to_the_codes():
    table = tables.strategies_table([("Mastermind", 2, 3), ("coin", 4, 0)])
    views = explore.histogram_views(table)
    assert len(views) == len(table)
    for row in table.itertuples():
        view = views[f"{row.game} · {row.strategy}"]
        assert int(view.sum(axis=1).iloc[0]) == row.codes
        assert max(int(d) for d in view.columns) == row.worst


def test_with_final_outcomes_keeps_each_types_outcomes():
    game = parse(TWO_TYPES)  # two types with two outcomes each, four labels in all
    copy = game.with_final_outcomes(())
    assert copy.type_outcomes == game.type_outcomes
    assert copy.max_type_outcomes == 2 and lemma14_bound(copy) == lemma14_bound(game) == 2
    mm = parse((DATA / "games" / "mastermind_3x3.cobra").read_text(encoding="utf-8"))
    assert mm.with_final_outcomes(()).type_outcomes == mm.type_outcomes


# --- speed and COBRA's figures beside ours (display only) -----------------------------------------
def test_play_rows_are_numbered_by_turn_from_one():
    play = explore.explore_play(3, 3, seed=7, guesses="112, 333")
    assert play.index.name == "turn" and play.index[0] == 1


def test_scaling_speed_keeps_one_row_per_size_in_order_of_codes():
    rows = [("max-models, Mastermind 3x3 (27 codes)", "vectorised", "subject", 0.5, 1.0),
            ("max-models, Mastermind 3x3 (27 codes)", "plain", "baseline", 2.0, 4.0),
            ("parts, Mastermind 3x3 (27 codes)", "vectorised", "subject", 0.25, 1.0),
            ("parts, Mastermind 3x3 (27 codes)", "plain", "baseline", 0.5, 2.0),
            ("parts, Mastermind 2x4 (16 codes)", "vectorised", "subject", 0.125, 1.0),
            ("optimal worst case, Mastermind 4x6", "search", "subject", 3.0, 1.0)]
    bench = pd.DataFrame(rows, columns=["case", "method", "role", "warm_median_s",
                                        "times_subject"])
    summary = explore.scaling_speed(bench)
    assert list(summary.index) == ["2x4 (16 codes)", "3x3 (27 codes)"]
    assert summary.loc["3x3 (27 codes)", "parts (seconds)"] == 0.25
    assert summary.loc["3x3 (27 codes)", "plain Python's time over ours"] == 3.0
    assert summary.loc["2x4 (16 codes)"].isna().sum() == 2  # max-models, plain


def test_cobra_figures_stand_beside_the_case_they_name():
    outside = pd.DataFrame({"source": ["COBRA", "COBRA", "other"],
                            "what": ["Knuth", "optimal average", "Kemps"],
                            "figure": ["69 s", "75/27 per code", "8 games/s"],
                            "compare_with": ["bench_codebreaking: Knuth 4x6",
                                             "codebreaking_optimal: Mastermind 3×3, average",
                                             "bench_kemps: Greedy"],
                            "note": ["", "defect", ""]})
    bench = pd.DataFrame({"case": ["Knuth 4x6", "Knuth 4x6"], "role": ["subject", "baseline"],
                          "cold_s": [0.5, 9.0], "warm_median_s": [0.25, 8.0]})
    times = explore.cobra_times(outside, bench)
    assert times.to_dict("records") == [{"computation": "Knuth", "COBRA": "69 s",
                                         "ours, seconds (first run)": 0.5,
                                         "ours, seconds (warm, median)": 0.25}]
    answers = explore.cobra_answers(outside, {"codebreaking_optimal: Mastermind 3×3, average":
                                              "73/27 per code"})
    assert answers[["COBRA's answer", "ours"]].values.tolist() == [["75/27 per code",
                                                                      "73/27 per code"]]
    with pytest.raises(ValueError, match="no value of ours"):
        explore.cobra_answers(outside, {})


def test_peer_speed_sets_whole_processes_side_by_side_per_rule_and_size():
    case = "Knuth (max-models), Mastermind 5x7"
    stored = "its own timer; its stored answer (valid_solutions.json) 87940 disagrees with its run"
    methods = [("puzzlelab engine, mikemag's rules, 1 thread (CPU)", "subject", "87936 (worst 7)",
                0.5, 0.3, 200.0, ""),
               ("mikemag/Mastermind abc1234, CPU solver, 1 thread", "baseline", "87936 (worst 7)",
                2.0, 1.9, 6.0, stored),
               ("puzzlelab engine, mikemag's rules, 2 threads (CPU)", "baseline",
                "87936 (worst 7)", 0.9, 0.2, 210.0, ""),
               ("puzzlelab engine, own rules, 1 thread (CPU)", "baseline", "87940 (worst 7)",
                0.5, 0.3, 200.0, "")]
    bench = pd.DataFrame([(case, m, role, result, t, inside, mib, 1.5, note)
                          for m, role, result, t, inside, mib, note in methods],
                         columns=["case", "method", "role", "result", "warm_median_s", "cold_s",
                                  "cold_peak_mib", "load_1min", "note"])
    row = explore.peer_speed(bench).iloc[0].to_dict()
    assert row["rule"] == "Knuth" and row["Mastermind"] == "5 × 7"
    assert (row["ours, whole process (s)"], row["peer, whole process (s)"],
            row["peer's time over ours"]) == (0.5, 2.0, 2.0 / 0.5)
    assert (row["ours, solve (s)"], row["peer, solve (s)"]) == (0.3, 1.9)
    assert (row["total, peer's rules: ours"], row["peer's total"],
            row["total, our rules"]) == ("87936", "87936", "87940")
    memory = explore.peer_memory(bench).iloc[0].to_dict()
    assert (memory["rule"], memory["peak memory, ours (MiB)"], memory["peak memory, peer's (MiB)"],
            memory["peer's stored total"], memory["machine load"]) == ("Knuth", 200, 6, "87940",
                                                                         1.5)
    assert explore.peer_version(bench) == "mikemag/Mastermind abc1234"
    assert explore.peer_speed(bench[bench.role == "subject"]).empty  # no peer row: no row
    assert explore.peer_memory(bench[bench.role == "subject"]).empty
    with pytest.raises(ValueError, match="lacks the columns .* bench_codebreaking_peer"):
        explore.peer_speed(bench[["case"]])


def test_every_cobra_time_names_a_case_of_our_benchmark():
    from puzzlelab.cache import read_table

    outside, bench = read_table("bench_outside"), read_table("bench_codebreaking")
    cobra = outside[outside.compare_with.str.startswith("bench_codebreaking")]
    assert len(cobra) >= 7
    cases = set(bench[bench.role == "subject"].case)
    assert {c.split(": ", 1)[1] for c in cobra.compare_with} <= cases


@pytest.mark.parametrize("play", [analyze_plain, analyze], ids=["plain", "analyze"])
def test_a_scoring_function_that_gives_a_table_is_refused_by_name(play):
    """Fuzz, long run on 6be2460 (call 7913): the plain recursion read a score table as a number
    (a TypeError); every engine checks one number per experiment (analysis.scores)."""
    def table_score(counts):
        return np.zeros((len(counts), 2))
    with pytest.raises(ValueError, match="table_score.*one number per experiment"):
        play(mastermind(2, 2), table_score)


def test_scores_check_their_strategy_and_part_sizes():
    """Fuzz, long run on eccd36a (calls 354, 1186, 1408, 3038): analysis.scores took anything
    for a strategy and for the part sizes, and a scoring function of no argument failed inside."""
    from puzzlelab.codebreaking.analysis import scores

    counts = np.array([[1, 2], [3, 0]])
    assert scores("max-models", counts).tolist() == [2.0, 3.0]
    for bad in (False, 10**20, np.array([np.nan])):
        with pytest.raises(ValueError, match="strategy"):
            scores(bad, counts)
    for bad in (np.int64(-3), frozenset({-1}), np.zeros((2, 2, 2), dtype=np.int8), counts * 1.0):
        with pytest.raises(ValueError, match="counts"):
            scores("max-models", bad)

    def no_argument():
        return 0
    with pytest.raises(ValueError, match="no_argument"):
        analyze(mastermind(2, 2), no_argument)
