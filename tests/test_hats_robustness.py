"""Hostile-but-fair calls to every public function of the hats package (issue: hardening).

The property test throws values of every kind at each public function and accepts only a
result, a ValueError or a TypeError within the time limit. The regression tests pin each
example that once crashed, hung or answered wrongly: each must now give a clear error at once.
"""

from __future__ import annotations

import inspect
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, refused_quickly, well_behaved

from puzzlelab import cache, hats
from puzzlelab.hats import (
    brute, chains, fullline, model, notebook, optima, orbits, reference, sets, slices, source,
    tables, world,
)
from puzzlelab.solvers import WallClockStop

MODULES = [hats, world, model, sets, brute, chains, fullline, optima, orbits, source, tables,
           notebook]
# Parameters fixed rather than drawn: wall-clock budgets (so valid but long work stops within
# the test's limit) and figure names and axes (so no stray files are written).
FIXED = {"time_limit": 1.0, "name": None, "ax": None}
NOT_FUZZED = {"main"}  # the command line: tested with real arguments in test_hats_sweeps.py
SECONDS = 10.0


def _cases() -> list[tuple[str, object]]:
    seen, out = set(), []
    for module in MODULES:
        for name, f in public_callables(module):
            if name in NOT_FUZZED or inspect.ismodule(f) or id(f) in seen:
                continue
            seen.add(id(f))
            out.append((f"{module.__name__.split('.')[-1]}.{name}", f))
    return out


def _drawn_parameters(f: object) -> tuple[list[str], dict]:
    """The parameters to draw values for, and the fixed keyword arguments."""
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return [], {}
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    drawn = [p.name for p in params if p.kind in kinds and p.name not in FIXED]
    fixed = {k: v for k, v in FIXED.items() if k in {p.name for p in params}}
    return drawn, fixed


@pytest.mark.parametrize("label, f", _cases(), ids=[label for label, _ in _cases()])
@settings(max_examples=25, deadline=None)
@given(values=st.lists(any_value(), max_size=6))
def test_every_public_function_is_well_behaved(label, f, values):
    drawn, fixed = _drawn_parameters(f)
    kwargs = dict(zip(drawn, values)) | fixed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            well_behaved(f, seconds=SECONDS, **kwargs)
        except WallClockStop:  # documented: cpsat_bounds under a work limit that the clock cut
            assert label.endswith(("cpsat_bounds", "orbit_search", "best_on_orbits"))


def test_every_module_declares_its_public_names():
    for module in MODULES + [reference]:
        assert all(hasattr(module, n) for n in module.__all__), module.__name__


# --- the examples that once failed: each now a clear error, at once ------------------------------


def quick_error(call, kind=ValueError, words=""):
    start = time.monotonic()
    with pytest.raises(kind, match=words):
        call()
    assert time.monotonic() - start < 2.0


@pytest.mark.parametrize("call, words", [
    (lambda: hats.optimum(20), "largest"),
    (lambda: hats.optimum(16), "largest has N = 12"),
    (lambda: hats.optimum(11, 4), "largest world has N = 8"),
    (lambda: hats.optimum(7, 4), "largest has N = 6"),
    (lambda: hats.optimum(10**12), "largest"),
    (lambda: hats.check_world(10**20), "largest world has N = 16"),
    (lambda: chains.chains(22), "largest world"),
    (lambda: chains.chains(15), "at most N = 14"),
    (lambda: brute.n_deals(22), "largest world"),
    (lambda: hats.minimal_dominating_sets(22), "largest world"),
    (lambda: optima.optimum_bounds(14, time_limit=20), "largest has N = 12"),
])
def test_impossible_sizes_are_refused_at_once_naming_the_largest(call, words):
    quick_error(call, ValueError, words)


def test_counts_of_the_largest_world_are_exact_and_quick():
    start = time.monotonic()
    assert brute.n_deals(16) == brute.n_strategies(16) ** 16 == 3 ** (2**15 * 16)
    assert time.monotonic() - start < 2.0


@pytest.mark.parametrize("call, words", [
    (lambda: hats.round_index((0, 1, 2), n_colors=2), "between 0 and 1"),
    (lambda: hats.round_to_string((0, -1)), "between 0 and 7"),
    (lambda: hats.view_of((0, 1, 1), 5), "player"),
    (lambda: hats.view_of((0, 1, 1), -1), "player"),
    (lambda: hats.to_rounds(-1, 3), "mask"),
    (lambda: hats.to_rounds(2**100, 3), "beyond the 8 rounds"),
    (lambda: hats.strategy_to_string([0, 1, 9]), "guesses"),
    (lambda: hats.canonical_deal(-1, 3), "won"),
    (lambda: optima.optimum_bounds(4, 3, deterministic_limit=-1), "deterministic_limit"),
    (lambda: source.evaluate_expression("9**9**9**9"), "binary digits"),
])
def test_silently_wrong_or_crashing_calls_now_raise_value_errors(call, words):
    quick_error(call, ValueError, words)


@pytest.mark.parametrize("call, words", [
    (lambda: hats.to_mask([(0, 0, 0.5)], 3), "integer"),
    (lambda: hats.string_to_round(None), "text must be a string"),
    (lambda: hats.parse_strategy(1234, 3, 2), "strategy must be a string"),
    (lambda: hats.optimum(3, time_limit="1"), "time_limit"),
    (lambda: hats.evaluate(3.5), "cannot read a deal"),
    (lambda: notebook.plot_win_rate([1, 2]), "DataFrame"),
])
def test_wrong_kinds_raise_type_errors_naming_the_argument(call, words):
    quick_error(call, TypeError, words)


def test_numpy_integers_are_accepted_everywhere():
    assert hats.canonical_deal(np.int64(5), 3).shape == (3, 4)
    assert hats.check_world(np.int8(3), np.uint8(2)) == (3, 2)
    assert hats.to_rounds(np.int64(5), 3) == hats.to_rounds(5, 3)


def test_no_time_limit_means_no_wall_clock_budget():
    assert hats.optimum(3, time_limit=None) == hats.optimum(3)


def test_bounds_print_for_every_world_size():
    b = optima.Bounds(14, 2, 2**14 - 2000, 2**14 - 1000, optima.Proof.open("test"), 2**(2**14) - 1)
    assert "won set of 16384 rounds" in repr(b)


def test_a_corrupted_cached_witness_is_recomputed_not_trusted(tmp_path, monkeypatch):
    table = tables.optimum_table()
    bad = table.copy()
    bad.loc[bad.index[1], "witness_hex"] = format(0b11011000, "x")  # not an achievable 4-round set
    with pytest.raises(ValueError, match="N = 3, M = 2"):
        tables.verify_witnesses(bad)
    monkeypatch.setattr(cache, "DATA", tmp_path)
    cache.write_table(bad, "hats_optima")
    monkeypatch.setattr(tables, "optimum_rows", lambda *a, **k: table)
    with pytest.warns(cache.CacheWarning, match="fails its check"):
        again = tables.optimum_table()
    assert again.equals(table)


# --- issue 27: sizes refused up front, memoised tables behind their checks -----------------------


@pytest.mark.parametrize("call, kind, words", [
    (lambda: world.largest_players(2, limit=float("inf")), TypeError, "limit"),
    (lambda: world.check_world_within(4, 3, [], "x"), TypeError, "limit must be an integer"),
    (lambda: slices.point_permutations(2, 10**6), ValueError, "colours"),
    (lambda: slices.point_permutations(10**6, 2), ValueError, "largest that fits is 4 players"),
    (lambda: slices.uncovered(1, 10**6, 2), ValueError, "more than the limit of 27 rounds"),
])
def test_issue27_sizes_are_refused_up_front(call, kind, words):
    refused_quickly(call, kind, words)


@pytest.mark.parametrize("memoised", [world.rounds, world.views, world.view_table, sets.stubs,
                                      sets.lines_through])
def test_issue27_memoised_tables_check_before_their_cache(memoised):
    """A float for an integer is refused even after the integer's entry is cached."""
    memoised(3, 2)
    refused_quickly(lambda: memoised(3, 2.0), TypeError, "n_colors must be an integer")
    refused_quickly(lambda: memoised(3.0, 2), TypeError, "n_players must be an integer")


def test_lines_and_stubs_share_one_size_check_and_lines_take_one_player():
    """One player's only line through a round holds the other M - 1 rounds; stubs need N >= 2;
    both refuse more than LARGE_WORLD rounds by the same words, before computing M**N."""
    for m in (2, 3, 5):
        assert sets.lines_through(1, m) == tuple((tuple(y for y in range(m) if y != x),)
                                                 for x in range(m))
    refused_quickly(lambda: sets.lines_through(0, 2), ValueError, "at least 1")
    refused_quickly(lambda: sets.stubs(1, 2), ValueError, "at least 2")
    most = world.largest_players(2, sets.LARGE_WORLD)
    for what, f in (("lines_through", sets.lines_through), ("stubs", sets.stubs)):
        for n in (most + 1, 10**30):
            refused_quickly(lambda: f(n, 2), ValueError,
                            f"{what} handles at most {sets.LARGE_WORLD} rounds.*N = {most} players")


def test_issue27_neighbourhoods_and_permutations_check_before_their_cache():
    sets.closed_neighbourhoods(3)
    refused_quickly(lambda: sets.closed_neighbourhoods(3.0), TypeError, "n_players")
    slices.point_permutations(2, 3)
    refused_quickly(lambda: slices.point_permutations(2.0, 3), TypeError, "k")


def test_issue27_the_optima_table_checks_its_arguments_before_reading_data():
    refused_quickly(lambda: tables.optimum_table(workers=1.5), TypeError, "workers")
    refused_quickly(lambda: tables.maximal_census(executor=1), TypeError, "executor")
    refused_quickly(lambda: tables.optimum_table(workers=10**6), ValueError,
                    "more than the limit of .* worker processes")


def test_issue27_a_symmetry_with_a_bad_twist_is_refused_by_a_message_that_prints():
    refused_quickly(lambda: orbits.Symmetry((2, 1), ((0, 1), (5, 5))), ValueError, "permutation")
    refused_quickly(lambda: orbits.Symmetry((3,), ()), ValueError, "one twist each")


def test_explore_deal_checks_custom_even_when_a_preset_is_chosen():
    """Found by the fuzz: a number as `custom` was accepted because a preset was used."""
    from puzzlelab.hats import notebook as hats_notebook
    with pytest.raises(ValueError, match="custom"):
        hats_notebook.explore_deal(custom=-10**20)


def test_check_two_colours_refuses_a_label_of_the_wrong_kind_whatever_n():
    """Fuzz, long run on 6be2460 (call 3023): `what` was checked only when N was refused."""
    with pytest.raises(ValueError, match="what"):
        world.check_two_colours(2, 4, np.int64(10**12))
    assert world.check_two_colours(2, 4, "the census") == 2
