"""Hostile but fair calls to every public function of puzzlelab.russian_cards (issue: hardening).

Every call gives a result, a ValueError or a TypeError, within a few seconds; sizes that cannot
finish are refused up front with a message naming the limit.
"""

from __future__ import annotations

import importlib
import inspect
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, refused_quickly, well_behaved

import puzzlelab.russian_cards as rc
from puzzlelab.russian_cards import kripke as rc_kripke
from puzzlelab.russian_cards import model as rc_model
from puzzlelab.russian_cards import notebook as rn
from puzzlelab.russian_cards import tables as rt
from puzzlelab.russian_cards.search import MAX_CHECKS

MODULES = ["constructions", "grid", "kripke", "matrix", "model", "notebook", "orbits",
           "reference", "search", "smallest", "solver", "source", "symmetry", "tables"]
SLOW = {"decide_grid", "min_sizes", "agreement_table", "grid_table", "wide_grid_table",
        "smallest_table", "announcement_of_size", "settle", "matrix_row", "matrix_min_sizes",
        "sum_mod_table", "report_dfs_table", "appendix_table", "c1_table",
        # long runs over a whole table (tools/fuzz.py calls them with one wrong argument)
        "longer_min_sizes", "orbit_min_sizes"}


def _targets() -> list[tuple[str, object]]:
    out = [(f"russian_cards.{n}", f) for n, f in public_callables(rc)]
    for name in MODULES:
        module = importlib.import_module(f"puzzlelab.russian_cards.{name}")
        out += [(f"{name}.{n}", f) for n, f in public_callables(module)]
    return out


TARGETS = _targets()


def _arity(f) -> tuple[int, int]:
    """The fewest and the most positional arguments `f` takes."""
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return 1, 1
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return sum(p.default is p.empty for p in positional), len(positional)


def test_every_module_declares_its_public_surface():
    assert len(TARGETS) > 40
    for name in MODULES:
        assert hasattr(importlib.import_module(f"puzzlelab.russian_cards.{name}"), "__all__")


@pytest.mark.parametrize("name, f", TARGETS, ids=[t[0] for t in TARGETS])
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_public_functions_are_well_behaved(name, f, data):
    """Random values of every kind: a result, ValueError or TypeError, never a crash or a hang."""
    low, high = _arity(f)
    if getattr(f, "__name__", "") in SLOW:
        low = high  # never the default, full-size sweep
    count = data.draw(st.integers(low, high), label="arguments")
    args = [data.draw(any_value(), label=f"arg{i}") for i in range(count)]
    well_behaved(f, *args, seconds=30 if getattr(f, "__name__", "") in SLOW else 10)


@settings(max_examples=25, deadline=None)
@given(a=st.integers(-2, 14), b=st.integers(-2, 14), c=st.integers(-2, 6))
def test_small_sizes_are_decided_or_refused(a, b, c):
    """Plausible sizes: `decide` and `safe_announcements(limit=1)` answer or refuse at once."""
    well_behaved(rc.safe_announcements, a, b, c, limit=1, seconds=20)
    if a + b + c <= 10:
        well_behaved(rc.decide, a, b, c, seconds=30)


# -- the examples of the hardening issue, each refused at once with a clear message ------------
@pytest.mark.parametrize("call, message", [
    (lambda: rc.safe_announcements(4, 4, 1), "search nodes"),
    (lambda: rc.safe_announcements(12, 12, 1), "hands"),
    (lambda: rc.decide(12, 12, 1), "hands"),
    (lambda: rc.solve(30, 30, 1), "hands"),
    (lambda: rc.deals(10, 10, 10), "deals"),
    (lambda: rc.deal_model(6, 6, 6), "worlds"),
])
def test_impossible_sizes_are_refused(call, message):
    start = time.perf_counter()
    with pytest.raises(ValueError, match=f"limit of .*{message}|more than .*{message}"):
        call()
    assert time.perf_counter() - start < 15


def test_wrong_kinds_give_clear_errors():
    with pytest.raises(TypeError, match="limit must be an integer"):
        rc.safe_announcements(3, 3, 1, limit="2")
    with pytest.raises(ValueError, match="who must be one of 'B', 'C'"):
        rc.views([(0, 1, 2)], 3, 3, 1, ["B"])
    with pytest.raises(ValueError, match="limit must be an integer at least 1"):
        rc.safe_announcements(3, 3, 1, limit=0)


def test_refusals_name_the_limit():
    with pytest.raises(ValueError, match="2e\\+05 hands"):
        rc.decide(12, 12, 1)
    with pytest.raises(ValueError, match="100000 search nodes"):
        rc.safe_announcements(4, 4, 1)


def test_lemma_cells_are_decided_whatever_their_size():
    """A lemma needs no search, so huge sizes it settles are answered, not refused."""
    v = rc.decide(40, 1, 30)
    assert v.status == "unsolvable" and v.proof.kind == "lemma"


# -- issue 27: sizes refused up front, wrong kinds named, values checked before any cache -------
ANN = [(0, 1, 2)]


@pytest.mark.parametrize("call, words", [
    (lambda: rc.is_solution(ANN, 3, 10**6, 1), "Rule 2 .* checks"),
    (lambda: rc.is_safe(ANN, 3, 10**6, 1), "Rule 2 .* checks"),
    (lambda: rc.deals(10**6, 3, 1), "deals"),
    (lambda: rc.deals(10**20, 3, 1), "deals"),
    (lambda: rc.deal_model(10**6, 3, 1), "worlds"),
    (lambda: rc.model_check(ANN, 10**6, 3, 1), "worlds"),
    (lambda: rc_kripke.agreement([ANN], 10**6, 3, 1), "worlds"),
    (lambda: rc_model.packing_upper_bound(10**20, 3, 1), "cards"),
    (lambda: rc.matrix.matrix_model(4, 4, 8, 2), "Rule 2 on a 2 x 16 matrix"),
])
def test_issue27_sizes_are_refused_up_front_with_an_estimate(call, words):
    err = refused_quickly(call, ValueError, words)
    assert "would need" in str(err)


def test_issue27_an_enumeration_stops_at_its_work_budget_in_seconds_not_minutes():
    """(8, 5, 3) has 12,870 hands: 100,000 search nodes took 77 s before the work budget."""
    budget = re.escape(f"{MAX_CHECKS:.0e} Rule-2 checks")
    refused_quickly(lambda: rc.safe_announcements(8, 5, 3, limit=3), ValueError, budget,
                    seconds=20.0)


@pytest.mark.parametrize("call", [
    lambda: rc_model.covering_counts(3, 3, 10**20),
    lambda: rc_model.holding_bound(3, 3, 10**20),
    lambda: rc.solve(10**20, 3, 1),
])
def test_issue27_huge_sizes_are_value_errors_not_overflows(call):
    err = refused_quickly(call, ValueError, "more than the limit")
    assert not isinstance(err, OverflowError)


def test_issue27_wrong_values_are_refused_not_answered_empty():
    grid = rt.grid_table()
    refused_quickly(lambda: rn.yn_table(grid, 1.5, [3, 4], [3, 4]), TypeError,
                    "c must be an integer")
    refused_quickly(lambda: rt.smallest_table("not a grid"), TypeError, "DataFrame")
    refused_quickly(lambda: rt.orbit_table(3), TypeError, "DataFrame")
    refused_quickly(lambda: rt.report_solver_table([(3, 3)]), ValueError, r"\(a, b, c\)")


@pytest.mark.parametrize("f", [
    rc_model.covering_counts, rc_model.holding_counts, rc_model.holding_bound,
    rc_model.counting_lower_bound, rc_model.packing_upper_bound, rc.constructions.plane,
    rc.constructions.first_construction, rc.symmetry.case_range,
], ids=lambda f: f.__name__)
def test_issue27_numpy_sizes_give_the_answer_of_python_ints(f):
    """Sizes are read as Python ints: numpy's uint8 wrapped round below 0 (an OverflowError, a
    ZeroDivisionError or an empty range) and pow(..., modulus) refused numpy integers."""
    import numpy as np

    for abc in [(4, 2, 1), (3, 3, 1), (5, 3, 2)]:
        assert f(*map(np.uint8, abc)) == f(*abc) == f(*map(np.int64, abc))



def test_a_smallest_row_refuses_a_grid_witness_that_is_not_a_solution():
    """Found by the fuzz: a witness that is not safe left `shrink` with nothing (a TypeError)."""
    from puzzlelab.russian_cards.grid import smallest_row
    with pytest.raises(ValueError, match="not an informative and safe"):
        smallest_row((1, 4, 2, "4"), work_limit=0.5)


def test_add_counting_refuses_variables_that_are_not_model_variables():
    """Found by the fuzz: tuples as variables reached `sum` (a TypeError)."""
    import numpy as np
    from ortools.sat.python import cp_model
    from puzzlelab.checks import ArgumentTypeError
    from puzzlelab.russian_cards.symmetry import add_counting
    with pytest.raises(ArgumentTypeError, match="model variable"):
        add_counting(cp_model.CpModel(), [(2, 0, 2), (2, 1), "x"], np.array([3, 2, 2]), 8, 3, 1)


def test_report_solver_table_checks_its_node_budget_even_with_no_sizes():
    """Found by the fuzz sample: with no sizes, max_nodes=True was never looked at."""
    from puzzlelab.russian_cards.tables import report_solver_table
    with pytest.raises(ValueError, match="max_nodes"):
        report_solver_table([], max_nodes=True)


def test_cell_view_checks_smallest_whatever_the_cell_and_counting_bounds_takes_no_sizes():
    """Found by the fuzz: `smallest` of the wrong kind was accepted for an unsolvable cell, and
    no sizes gave a KeyError instead of an empty table."""
    import pandas as pd
    with pytest.raises(ValueError, match="smallest|table"):
        rn.cell_view(2, 3, 2, smallest=object())
    smallest = pd.DataFrame({"a": [3], "b": [3], "c": [1], "smallest": [7], "proven": [True]})
    assert rn.counting_bounds(smallest, []).empty


def test_the_time_limit_covers_the_whole_decision():
    """Fuzz finding (seed 0 on 0de3e53, call 5849): solve(8, 8, 4, time_limit=0.5) spent some 40 s
    in the report's depth-first search (2,000 nodes, each a safety check over 4,845 c-sets)
    before the time limit was first looked at. The deadline now covers every stage, node by node."""
    from puzzlelab.russian_cards.search import report_dfs
    from puzzlelab.solvers import Deadline, WallClockStop

    refused_quickly(lambda: rc.solve(8, 8, 4, time_limit=0.5), WallClockStop,
                    r"report's search \(8, 8, 4\)", seconds=15)
    with pytest.raises(WallClockStop, match="node 1: the wall-clock budget ran out"):
        report_dfs(8, 8, 4, max_nodes=5, deadline=Deadline(0))
    assert report_dfs(3, 3, 1, deadline=Deadline(600)) == report_dfs(3, 3, 1)
    refused_quickly(lambda: report_dfs(3, 3, 1, deadline=0.5), TypeError, "Deadline")
