"""The grid beyond 16 cards: witnesses on orbits of card groups, CP-SAT proofs with the counting
lemmas, and the wider table in data/ (issue 14)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest
from ortools.sat.python import cp_model

from puzzlelab.cache import data_path, read_table
from puzzlelab.russian_cards import grid as rg
from puzzlelab.russian_cards import orbits, solver
from puzzlelab.russian_cards import tables as rt
from puzzlelab.russian_cards.constructions import sum_mod
from puzzlelab.russian_cards.model import (
    counting_lower_bound, informative_masks, is_solution, max_shared, packing_upper_bound,
    subset_masks,
)
from puzzlelab.russian_cards.search import add_rule2
from puzzlelab.russian_cards.symmetry import add_counting, case_model, case_range
from puzzlelab.solvers import solve_limited


def test_card_groups_are_groups_of_card_permutations():
    for n in range(2, 21):
        for name, gens in orbits.card_groups(n):
            assert all(sorted(g) == list(range(n)) for g in gens), (n, name)


def test_card_groups_have_the_transitivity_of_their_names():
    """PGL(2,p) is 3-transitive on the projective line, PSL(2,p) 2-transitive, and the full
    affine group mod p 2-transitive: one orbit on the 3-sets, resp. the 2-sets."""
    g18, g17 = dict(orbits.card_groups(18)), dict(orbits.card_groups(17))
    assert len(orbits.orbit_ids(subset_masks(18, 3), g18["PGL(2,17)"])[0]) == 1
    assert len(orbits.orbit_ids(subset_masks(18, 2), g18["PSL(2,17)"])[0]) == 1
    assert len(orbits.orbit_ids(subset_masks(18, 3), g18["PSL(2,17)"])[0]) == 2
    assert len(orbits.orbit_ids(subset_masks(17, 2), g17["q -> uq+t mod 17, u^16 = 1"])[0]) == 1
    # the affine maps with u^2 = 1 (q -> ±q + t) keep the distance |x - y| mod 17: 8 orbits
    assert len(orbits.orbit_ids(subset_masks(17, 2), g17["q -> uq+t mod 17, u^2 = 1"])[0]) == 8


def test_group_search_gives_verified_witnesses_beyond_sixteen_cards():
    ann, _ = orbits.group_search(8, 6, 3, [orbits.cycle(17, 17)], work_limit=5)
    assert ann is not None and tuple(range(8)) in ann and is_solution(ann, 8, 6, 3)
    gens = dict(orbits.card_groups(19))["q -> uq+t mod 19, u^18 = 1"]
    ann, _ = orbits.group_search(9, 7, 3, gens, work_limit=5)
    assert ann is not None and is_solution(ann, 9, 7, 3)


def test_group_search_refuses_a_generator_that_is_not_a_permutation():
    with pytest.raises(ValueError, match="permutation"):
        orbits.group_search(3, 3, 1, [[0, 0, 1, 2, 3, 4, 5]])


def test_rule2_literals_counts_the_clauses_the_model_holds():
    for a, b, c in [(3, 3, 1), (4, 4, 2), (5, 4, 2), (6, 5, 3)]:
        n = a + b + c
        model = cp_model.CpModel()
        add_rule2(model, np.array(subset_masks(n, a), dtype=np.int64), n, c)
        held = sum(len(ct.bool_or.literals) for ct in model.proto.constraints)
        assert held == solver.rule2_literals(a, b, c)


def _case(abc: tuple[int, int, int], k: int, counting: bool):
    """Case k's model, with the counting lemmas added when `counting`."""
    model, x, hands = case_model(*abc, k)
    if counting:
        add_counting(model, x, np.array(hands, dtype=np.int64), *abc)
    return model, x, hands


@pytest.mark.parametrize("abc", [(6, 8, 3), (6, 5, 3)])
def test_cases_with_and_without_the_counting_lemmas_agree(abc):
    """Two different models of every symmetry case give the same verdict."""
    for k in case_range(*abc):
        verdicts = []
        for counting in (False, True):
            model, _, _ = _case(abc, k, counting)
            res = solve_limited(model, 40)
            verdicts.append("feasible" if res.feasible else
                            "infeasible" if res.infeasible else "unknown")
        assert verdicts == ["infeasible", "infeasible"], (abc, k)


@pytest.mark.parametrize("abc", [(4, 4, 1), (5, 4, 2)])
def test_counting_cases_keep_the_feasible_cases_of_a_solvable_size(abc):
    n = sum(abc)
    feasible = {False: [], True: []}
    for k in case_range(*abc):
        for counting in (False, True):
            model, x, hands = _case(abc, k, counting)
            res = solve_limited(model, 10)
            assert res.feasible or res.infeasible
            if res.feasible:
                ann = [tuple(q for q in range(n) if h >> q & 1)
                       for h, v in zip(hands, x) if res.value(v)]
                assert is_solution(ann, *abc)
                feasible[counting].append(k)
    assert feasible[False] == feasible[True] != []


def test_decide_leaves_too_large_a_model_open_and_says_why(monkeypatch):
    monkeypatch.setattr(solver, "MAX_LITERALS", 1000)
    v = solver.decide(6, 5, 3)
    assert v.status == "open" and "literals" in v.detail


@pytest.fixture(scope="module")
def wide():
    if not data_path(rt.WIDE_TABLE).exists():
        pytest.skip(f"data/{rt.WIDE_TABLE}.csv is not in data/")
    return read_table(rt.WIDE_TABLE)


def test_the_wider_grid_has_every_cell_and_its_witnesses_verify(wide):
    expected = [abc for c in (1, 2, 3) for abc in rg.cells(c, rg.N_LIMIT, rg.N_MAX + 1)]
    assert list(zip(wide.a, wide.b, wide.c)) == expected
    rg.check_grid(wide)
    for r in wide.itertuples():
        if (found := solver.lemma_proof(r.a, r.b, r.c)) is not None:
            assert r.status == "unsolvable" and r.method == found[0]
        elif counting_lower_bound(r.a, r.b, r.c) > packing_upper_bound(r.a, r.b, r.c):
            assert r.status != "solvable"


def test_the_wider_grid_cheapest_cpsat_proof_recomputes(wide):
    proofs = wide[wide.method == "CP-SAT INFEASIBLE in every symmetry case"]
    if proofs.empty:
        pytest.skip("no CP-SAT proof in the wider grid")
    r = proofs.sort_values("work_units").iloc[0]
    again = rg.grid_row((int(r.a), int(r.b), int(r.c)))
    assert again["status"] == "unsolvable" and again["work_units"] == r.work_units


@pytest.mark.parametrize("a, c", [(4, 1), (5, 2), (6, 3), (10, 1)])
def test_rule1_by_subsets_agrees_with_the_pairwise_rule(a, c):
    """Long announcements are checked through their (a-c)-subsets; the pairwise definition
    decides the same, on random sets of hands and on the (long) sum announcement."""
    rng = np.random.default_rng(a * 10 + c)
    n, k = a + 8, max_shared(a, c)

    def pairwise(hands: list[int]) -> bool:
        return all((h & g).bit_count() <= k for h, g in combinations(hands, 2))

    every = np.array(subset_masks(n, a), dtype=np.int64)
    for size in (3, 40, 400):
        for _ in range(5):
            hands = [int(h) for h in rng.choice(every, size=min(size, len(every)), replace=False)]
            assert informative_masks(hands, a, c) == pairwise(hands)
    summed = [sum(1 << q for q in h) for h in sum_mod(a, 8, c)]
    assert len(summed) > 2 * comb(a, k + 1)  # the subset route is taken
    assert informative_masks(summed, a, c) == pairwise(summed)


def test_the_notebook_summaries_account_for_every_size(wide):
    from puzzlelab.russian_cards import notebook as rn

    settled = rn.settled_by(wide)
    assert settled.to_numpy().sum() == len(wide)
    assert (settled.sum().to_numpy() == wide.c.value_counts().sort_index().to_numpy()).all()
    listed = [s for cell in rn.open_sizes(wide).to_numpy().ravel() if cell != "—"
              for s in cell.split(", ")]
    still = wide[wide.status == "open"]
    assert sorted(listed) == sorted(f"({r.a},{r.b},{r.c})" for r in still.itertuples())
    assert settled.loc["open"].sum() == len(still)
