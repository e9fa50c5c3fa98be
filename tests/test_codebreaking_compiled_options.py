"""The compiled engine's options and fast paths against slow, independent computations: threads,
a fixed first guess, mikemag's rules, absent colours, more than 8 colours or 7 pegs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from puzzlelab.codebreaking import (STRATEGIES, black_peg_mastermind, bulls_and_cows,
                                    compiled, counterfeit_coin, engine_arrays, float32_ranks,
                                    mastermind)
from puzzlelab.codebreaking.analysis import choose_by_table, play_tree
from puzzlelab.codebreaking.reference import (analyze_table, fma32, logf, mikemag_rank,
                                              play_mikemag)
from puzzlelab.codebreaking.strategies import scoring

# the same helpers as test_codebreaking_compiled.py
from test_codebreaking_compiled import assert_same, string_twins


def twins(make, a: int, b: int):
    """A string game and the same game read from its explicit outcome table."""
    game = make(a, b)
    return game.with_final_outcomes(game.final_outcomes), game


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("game", [mastermind(4, 5), bulls_and_cows(4, 6),
                                  black_peg_mastermind(4, 4), counterfeit_coin(12, True)],
                         ids=lambda g: g.name)
def test_threads_give_the_same_analysis(game, strategy, monkeypatch):
    monkeypatch.setattr(compiled, "PARALLEL_CODES", 0)  # small games too go to the threads
    one = compiled.analyze(game, strategy)
    for threads in (2, 3):
        assert_same(one, compiled.analyze(game, strategy, threads=threads))


def test_threads_and_a_first_guess_together(monkeypatch):
    monkeypatch.setattr(compiled, "PARALLEL_CODES", 0)
    game = mastermind(4, 6)
    one = compiled.analyze(game, "exp-models", first="1123")
    assert_same(one, compiled.analyze(game, "exp-models", first="1123", threads=2))


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([("Mastermind", 3, 4), ("Mastermind", 4, 4), ("Bulls and Cows", 3, 5),
                        ("black-peg Mastermind", 4, 4)]),
       st.sampled_from(list(STRATEGIES)), st.integers(0, 2**32 - 1))
def test_a_first_guess_then_the_strategy_as_the_table_engine_plays_it(key, strategy, seed):
    table_game, string_game = string_twins(*key)
    first = int(np.random.default_rng(seed).integers(table_game.n_experiments))
    score_of = scoring(strategy)
    reference = play_tree(table_game, lambda live, depth: first if depth == 0 else
                          choose_by_table(table_game, live, score_of), strategy)
    result = compiled.analyze(string_game, strategy, first=string_game.code_names[first])
    np.testing.assert_array_equal(result.lengths, reference.lengths)
    pd.testing.assert_frame_equal(result.tree, reference.tree)


def test_a_first_guess_by_index_name_or_code():
    game = mastermind(3, 4)
    j = game.code_index("112")
    by = [compiled.analyze(game, "parts", first=f).tree
          for f in (j, "112", game.experiment_name(j))]
    assert by[0].experiment[0] == game.experiment_name(j)
    pd.testing.assert_frame_equal(by[0], by[1])
    pd.testing.assert_frame_equal(by[0], by[2])
    with pytest.raises(ValueError, match="no experiment or code named"):
        compiled.analyze(game, "parts", first="119")
    with pytest.raises(ValueError):
        compiled.analyze(game, "parts", first=64)
    with pytest.raises(ValueError, match="rules"):
        compiled.analyze(game, "parts", rules="knuth")
    with pytest.raises(ValueError):
        compiled.analyze(game, "parts", threads=0)


def guesses_per_code(result) -> dict[int, list[str]]:
    """Each code's guesses, read off the decision tree (its path from the root)."""
    tree = result.tree
    names = {name: k for k, name in enumerate(result.game.code_names)}
    parent, experiment = tree.parent.to_numpy(), tree.experiment.to_numpy()
    out = {}
    for node in np.flatnonzero(tree.code.to_numpy() != ""):
        path = [experiment[node]] if experiment[node] else []
        q = parent[node]
        while q >= 0:
            path.append(experiment[q])
            q = parent[q]
        out[names[tree.code[node]]] = path[::-1]
    return out


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("a,b,first", [(3, 4, "112"), (4, 4, "1123"), (3, 6, "123"),
                                       (4, 5, "1122")])
def test_mikemag_rules_as_its_program_plays_them(a, b, first, strategy):
    table_game, game = twins(mastermind, a, b)
    reference = play_mikemag(table_game, strategy, game.code_index(first))
    result = compiled.analyze(game, strategy, first=first, rules="mikemag")
    expected = {k: [game.experiment_name(j) for j in path] for k, path in reference.items()}
    assert guesses_per_code(result) == expected
    assert result.strategy == f"{strategy} (mikemag)"


def test_mikemag_ranks_single_precision_sums_not_exact_ones():
    # part sizes whose single-precision expected size differs from the exact sum's rounding
    sizes = [np.array([c, 1, 1], np.int64) for c in range(1, 400)]
    exact = [(2**32 - round(1e6 * float((x.astype(float) ** 2).sum() / x.sum()))) % 2**32
             for x in sizes]
    single = [mikemag_rank(x, int(x.sum()), "exp-models") for x in sizes]
    assert single != exact  # the rules differ from exact arithmetic somewhere in this range
    fast = [float32_ranks.mikemag_rank(x, np.arange(3), int(x.sum()), 4, np.zeros(0, np.float32))
                for x in sizes]
    assert fast == single


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=2, max_size=28))
def test_compiled_mikemag_ranks_agree_with_the_reference(counts):
    counts = np.array(counts, np.int64)
    s = int(counts.sum())
    if s == 0:
        return
    for strategy, code in (("exp-models", 4), ("ent-models", 5)):
        fast = float32_ranks.mikemag_rank(counts, np.arange(len(counts)), s, code,
                                      float32_ranks.single_logs(s, code))
        assert fast == mikemag_rank(counts, s, strategy)


compiled.load()  # numba's functions now: the jitted helper below reaches one by attribute


@njit
def compiled_fma(a, b, c):
    return float32_ranks.fma32(a, b, c)


@settings(max_examples=200, deadline=None)
@given(st.floats(-4, 4, width=32), st.floats(-4, 4, width=32), st.floats(-4, 4, width=32))
def test_single_precision_fused_multiply_add_is_exactly_rounded(a, b, c):
    a, b, c = np.float32(a), np.float32(b), np.float32(c)
    assert compiled_fma(a, b, c) == fma32(a, b, c)


def test_single_precision_logarithm_is_the_c_library_one():
    s = 997
    logs = float32_ranks.single_logs(s, 5)
    assert logs.dtype == np.float32
    assert all(logs[c] == logf(np.float32(np.float32(c) / np.float32(s))) for c in range(1, s + 1))


MANY_COLOURS = [(mastermind, 2, 9), (mastermind, 3, 9), (black_peg_mastermind, 3, 10),
                (bulls_and_cows, 3, 9), (black_peg_mastermind, 8, 2), (mastermind, 8, 2)]


@pytest.mark.parametrize("multisets", [True, False])
@pytest.mark.parametrize("make,a,b", MANY_COLOURS, ids=lambda x: getattr(x, "__name__", x))
def test_past_eight_colours_or_seven_pegs_the_other_loops_agree(make, a, b, multisets,
                                                                 monkeypatch):
    if not multisets:
        monkeypatch.setattr(engine_arrays, "MAX_MULTISETS", 0)
    table_game, game = twins(make, a, b)
    for strategy in STRATEGIES:
        assert_same(analyze_table(table_game, strategy), compiled.analyze(game, strategy))


STRING_MAKERS = {"Mastermind": mastermind, "Bulls and Cows": bulls_and_cows,
                 "black-peg Mastermind": black_peg_mastermind}


@pytest.mark.parametrize("key", [("Mastermind", 4, 6), ("Bulls and Cows", 4, 7),
                                 ("black-peg Mastermind", 4, 6)])
def test_absent_colours_leave_the_analysis_unchanged(key, monkeypatch):
    game = STRING_MAKERS[key[0]](*key[1:])  # a game of this test's own: its kernel is changed
    with_absent = {s: compiled.analyze(game, s) for s in STRATEGIES}
    real, without = compiled.kernel, dataclasses.replace(compiled.kernel(game), absent_rule=0)
    monkeypatch.setattr(compiled, "kernel", lambda g: without if g is game else real(g))
    for s in STRATEGIES:
        assert_same(with_absent[s], compiled.analyze(game, s))
