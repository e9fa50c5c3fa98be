"""The symmetry cases as CNF (puzzlelab.russian_cards.sat_cases), checked against enumeration,
the definitions of the case lemma, CP-SAT's case models and the committed grid."""

from __future__ import annotations

import itertools
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from pysat.solvers import Solver

from puzzlelab.cache import read_table
from puzzlelab.russian_cards import open_cases as rc_open
from puzzlelab.russian_cards import sat_cases as sc
from puzzlelab.russian_cards.grid import parse_announcement
from puzzlelab.russian_cards.model import is_solution, subset_masks
from puzzlelab.russian_cards.reference import in_case
from puzzlelab.russian_cards.search import enumerate_masks, rule2_clauses, rule2_size
from puzzlelab.russian_cards.solver import lemma
from puzzlelab.russian_cards.symmetry import (
    case_hand_masks, case_hands, case_literals, case_model, case_range, generators, lex_pairs,
)
from puzzlelab.solvers import solve_limited

SOLVERS = list(sc.SAT_SOLVERS)


def cnf_of(a, b, c, k):
    clauses = []
    hands, top = sc.case_cnf(a, b, c, k, clauses.append)
    return hands, top, clauses


def all_models(clauses, hands, solver="cadical195"):
    """Every set of hands a model of the clauses announces (blocking each set of hands)."""
    found = set()
    with Solver(name=solver, bootstrap_with=clauses) as s:
        while s.solve():
            m = s.get_model()[:len(hands)]
            found.add(frozenset(h for i, h in enumerate(hands) if m[i] > 0))
            s.add_clause([-v for v in m])
    return found


@pytest.mark.parametrize("abc, k", [((3, 3, 1), 1), ((3, 4, 1), 1), ((4, 3, 1), 2)])
def test_the_cnf_models_are_the_enumerated_announcements_of_the_case(abc, k):
    """Brute force: the announcements through H0 and H1 with overlaps <= k that satisfy the
    case lemma's conditions (`reference.in_case`) are exactly the sets of hands of the CNF's
    models."""
    a, b, c = abc
    h0, h1 = case_hands(a, k)
    hands, _, clauses = cnf_of(a, b, c, k)
    models = all_models(clauses, hands)
    enumerated = {frozenset(L) for L in enumerate_masks(a + b + c, a, c, h0)
                  if h1 in L and all((g & h).bit_count() <= k for g, h in combinations(L, 2))}
    assert models == {s for s in enumerated if in_case(s, a, b, c, k)}
    assert models


@pytest.mark.parametrize("m", range(1, 9))
def test_at_most_one_allows_exactly_the_assignments_with_at_most_one_true(m):
    clauses = []
    top = sc.at_most_one(list(range(1, m + 1)), m, clauses.append)
    assert (top > m) == (m > sc.PAIRWISE)
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        for bits in itertools.product([False, True], repeat=m):
            assumption = [i + 1 if on else -(i + 1) for i, on in enumerate(bits)]
            assert s.solve(assumptions=assumption) == (sum(bits) <= 1), bits


@pytest.mark.parametrize("abc, k", [((3, 3, 1), 1), ((4, 4, 1), 2), ((4, 5, 2), 1)])
def test_lex_leader_clauses_hold_exactly_when_x_is_lex_at_least_its_image(abc, k):
    """For each generator p and random 0/1 vectors x over the case's hands: the clauses admit x
    iff x >=lex x∘p (hands in their order), computed from the permutation itself."""
    from puzzlelab.russian_cards.symmetry import permute
    a, b, c = abc
    hands = case_hand_masks(a, b, c, k)
    pos = {h: i for i, h in enumerate(hands)}
    rng = np.random.default_rng(7)
    for p in generators(a, a + b + c, k):
        clauses = []
        sc.lex_leader(lex_pairs(hands, p), len(hands), clauses.append)
        image = [pos[permute(p, h)] for h in hands]
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            for _ in range(60):
                x = rng.integers(0, 2, len(hands)).tolist()
                mapped = [0] * len(hands)  # (x∘p)[j] = x[i] where hand j = p(hand i)
                for i, j in enumerate(image):
                    mapped[j] = x[i]
                assumption = [i + 1 if v else -(i + 1) for i, v in enumerate(x)]
                assert s.solve(assumptions=assumption) == (x >= mapped)


@pytest.mark.parametrize("abc, k", [((5, 6, 2), 2), ((6, 5, 2), 3), ((4, 8, 1), 1)])
def test_rule2_clauses_are_the_cnf_rule2_part_and_count_as_case_literals(abc, k):
    a, b, c = abc
    hands, _, clauses = cnf_of(a, b, c, k)
    arr = np.array(hands, dtype=np.int64)
    rule2 = [sorted((cl + 1).tolist()) for cl in rule2_clauses(arr, a + b + c, c)]
    assert sum(map(len, rule2)) == rule2_size(arr, a + b + c, a, c) == case_literals(a, b, c, k)
    hand_only = [sorted(cl) for cl in clauses if 0 < min(cl) <= max(cl) <= len(hands)]
    positive = [cl for cl in hand_only if len(cl) > 1]
    assert positive == rule2  # the clauses of hands alone, all positive, are Rule 2's


def grid_sizes(most_hands: int = 3000):
    grid = read_table("russian_cards_grid")
    for r in grid.itertuples():
        a, b, c = int(r.a), int(r.b), int(r.c)
        if r.status != "open" and lemma(a, b, c) is None and len(case_range(a, b, c)) and \
                sum(len(case_hand_masks(a, b, c, k)) for k in case_range(a, b, c)) <= most_hands:
            yield (a, b, c), r.status


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_sat_cases_agree_with_the_committed_grid(solver):
    """Every size the grid decides without a lemma (61 sizes of small models), with 20,000
    conflicts a case: each verdict the solver reaches is the grid's, a witness passes the
    verifier, every unsolvable size is proved so, and at most a few solvable ones are left
    undecided (a satisfiable case can be hard for SAT: (8,4,2) case 5 needs over 100,000)."""
    sizes = list(grid_sizes())
    assert len(sizes) == 61 and {"solvable", "unsolvable"} <= {st for _, st in sizes}
    undecided = []
    for (a, b, c), status in sizes:
        end = sc.sat_cases(a, b, c, case_range(a, b, c).start, 20_000, solver=solver)
        if end.status == "open":
            undecided.append((a, b, c))
            assert status == "solvable" and end.why == "limit", (a, b, c)
            continue
        assert end.status == status, (a, b, c)
        if end.witness is not None:
            assert is_solution(end.witness, a, b, c)
    assert len(undecided) <= 3, undecided


@pytest.mark.parametrize("abc", [(4, 4, 1), (5, 6, 2), (6, 5, 2)])
def test_each_case_is_satisfiable_exactly_when_cpsat_finds_its_model_feasible(abc):
    for k in case_range(*abc):
        res = solve_limited(case_model(*abc, k)[0], 30, what=f"{abc} case {k}")
        verdicts = {sc.solve_case_sat(*abc, k, solver=s)[0] for s in SOLVERS}
        assert verdicts == {"FEASIBLE" if res.feasible else "INFEASIBLE"}, (abc, k)


def test_a_round_stops_where_a_case_is_too_large_or_undecided():
    """(5,6,2) case 2 is satisfiable: with no literal allowed it is not written; with one
    conflict a case the solver cannot decide by propagation alone is left at the limit."""
    big = sc.sat_cases(5, 6, 2, 2, 10**6, literals=0)
    assert (big.status, big.stopped, big.why) == ("open", 2, "too large")
    assert "literals" in big.detail
    hard = sc.sat_cases(7, 6, 3, 3, 1)
    assert (hard.status, hard.stopped, hard.why) == ("open", 3, "limit")


def test_a_third_round_row_names_where_it_stopped_for_the_next_round():
    row = sc.sat_row((7, 6, 3, 1, 3))
    assert list(row) == sc.SAT_COLUMNS
    assert row["status"] == "open" and rc_open.stuck_at(row) == 3
    solved = sc.sat_row((5, 6, 2, 10**6, 2))
    assert solved["status"] == "solvable"
    assert is_solution(parse_announcement(solved["witness"]), 5, 6, 2)


@pytest.mark.parametrize("call, word", [
    (lambda: sc.solve_case_sat(5, 6, 2, 2, solver="minisat"), "solver"),
    (lambda: sc.solve_case_sat(5, 6, 2, 2, conflicts=0), "conflicts"),
    (lambda: sc.sat_cases(5, 6, 2, 9, 10), "k"),
    (lambda: sc.case_cnf(5, 6, 2, 7, print), "k"),
    (lambda: sc.sat_row((5, 6, 2, 10)), "case"),
])
def test_bad_input_is_refused_with_a_value_error_that_names_it(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_the_page_view_adds_the_third_round_to_the_first_two():
    from puzzlelab.russian_cards.notebook import open_size_rounds

    first = rc_open.attempt_row((7, 6, 3, 0.01))  # the smallest budget: stopped in a case
    k = rc_open.stuck_at(first)
    table = pd.DataFrame([first]).reindex(columns=rc_open.ATTEMPT_COLUMNS)
    third = sc.sat_row((7, 6, 3, 10**6, k))
    view = open_size_rounds(table, None, pd.DataFrame([third]))
    grid = read_table("russian_cards_grid").set_index(["a", "b", "c"])
    assert view.loc[0, "status"] == "unsolvable" == grid.loc[(7, 6, 3), "status"]
    assert view.loc[0, "third round"] == third["method"]
    assert view.loc[0, "second round"] == "not yet run"
    assert view.loc[0, "CPU minutes"] == round((first["cpu_seconds"] + third["cpu_seconds"]) / 60)
    stuck = open_size_rounds(table, None, pd.DataFrame([sc.sat_row((7, 6, 3, 1, k))]))
    assert stuck.loc[0, "third round"] == f"case k={k} undecided at the limit again"


def test_a_round_on_a_case_no_round_could_build_is_not_undecided_again():
    from puzzlelab.russian_cards.notebook import open_size_rounds

    first = rc_open.attempt_row((7, 6, 3, 0.01))
    table = pd.DataFrame([first]).reindex(columns=rc_open.ATTEMPT_COLUMNS)
    k = rc_open.stuck_at(first)
    too_large = rc_open.focus_row((7, 6, 3, 0.01, k)) | dict(  # as if too large to build
        status="open", method=f"open (size): case k={k}'s model too large",
        detail=f"from case k={k}; case k={k}'s model would hold many literals")
    focus = pd.DataFrame([too_large]).reindex(columns=rc_open.ATTEMPT_COLUMNS)
    view = open_size_rounds(table, focus, pd.DataFrame([sc.sat_row((7, 6, 3, 1, k))]))
    assert view.loc[0, "second round"] == f"case k={k}'s model too large to build"
    assert view.loc[0, "third round"] == f"case k={k} undecided at the limit"
