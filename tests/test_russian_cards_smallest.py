"""The smallest safe announcement: the covering bound, pruning and the symmetry-case descent,
each checked against an independent computation (enumeration, the whole CP-SAT model, the
verifier)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

import puzzlelab.russian_cards as rc
from puzzlelab.cache import read_table
from puzzlelab.russian_cards import grid as rg
from puzzlelab.russian_cards import smallest as sm
from puzzlelab.russian_cards import tables as rt
from puzzlelab.russian_cards.model import (
    counting_lower_bound, covering_counts, holding_counts, is_solution,
)
from puzzlelab.russian_cards.search import cpsat_model
from puzzlelab.solvers import solve

SMALL = [(3, 3, 1), (4, 2, 1), (3, 4, 1)]  # every announcement through 0..a-1 listed


def _avoiding(ann, cards_set) -> int:
    """How many hands of `ann` avoid every card of `cards_set`."""
    return sum(not set(h) & set(cards_set) for h in ann)


@pytest.mark.parametrize("abc", SMALL)
def test_covering_counts_hold_for_every_enumerated_announcement(abc):
    """Every safe announcement (all of them, enumerated) has >= r_j hands avoiding each j-set."""
    a, b, c = abc
    r, n = covering_counts(*abc), sum(abc)
    found = rc.safe_announcements(*abc, limit=None)
    assert found and min(map(len, found)) >= r[0]
    for ann in found:
        for j in range(1, c + 1):
            assert min(_avoiding(ann, s) for s in combinations(range(n), j)) >= r[j]


def test_both_counts_hold_for_every_witness_in_data():
    """Both lemmas over every verified witness of the grid and the smallest-size table
    (c = 1 and c = 2, up to 16 cards)."""
    grid = read_table("russian_cards_grid")
    witnesses = [*grid[grid.status == "solvable"][["a", "b", "c", "witness"]].itertuples(False),
                 *read_table("russian_cards_min_size")[["a", "b", "c", "witness"]]
                 .itertuples(False)]
    assert len(witnesses) > 100
    for a, b, c, text in witnesses:
        ann, r, n = rg.parse_announcement(text), covering_counts(a, b, c), a + b + c
        assert len(ann) >= r[0]
        for j in range(1, c + 1):
            assert min(_avoiding(ann, s) for s in combinations(range(n), j)) >= r[j], (a, b, c)
        q = holding_counts(a, b, c)
        assert min(sum(y in h for h in ann) for y in range(n)) >= q[0], (a, b, c)


def test_covering_bound_dominates_the_one_step_count():
    """r_0 >= the one-step double count ceil(C(n, c) m / C(n - a, c)) on every size n <= 20."""
    for c in (1, 2, 3):
        for a, b, _ in rg.cells(c, 20):
            if a >= c + 2 and b >= c + 1:
                m = max(2, -(-(a + b) // a))
                assert counting_lower_bound(a, b, c) >= -(-comb(a + b + c, c) * m
                                                        // comb(b + c, c))
    assert covering_counts(5, 4, 1) == [6, 3]  # 9 other cards missed 4 at a time; 10 * 3 / 5


@pytest.mark.parametrize("abc", [(3, 3, 1), (4, 4, 1), (5, 4, 2)])
def test_prune_leaves_an_inclusion_minimal_solution(abc):
    start = rg.parse_announcement(read_table("russian_cards_grid").set_index(["a", "b", "c"])
                                  .loc[abc].witness)
    small = sm.prune(start, *abc, seed=1)
    assert set(small) <= set(start) and rc.is_solution(small, *abc)
    assert small == sm.prune(start, *abc, seed=1)
    for h in small:  # no single hand can go
        assert not rc.is_safe([g for g in small if g != h], *abc)
    with pytest.raises(ValueError, match="safe announcement"):
        sm.prune(start[:1], *abc)


def test_shrink_is_seeded_verified_and_reaches_the_enumerated_minimum():
    found = rc.safe_announcements(3, 3, 1, limit=2000)
    ann = sm.shrink(3, 3, 1, max(found, key=len), tries=20)
    assert len(ann) == min(map(len, found)) and (0, 1, 2) in ann and rc.is_solution(ann, 3, 3, 1)
    start = rg.parse_announcement(read_table("russian_cards_grid").set_index(["a", "b", "c"])
                                  .loc[(6, 4, 2)].witness)
    again = sm.shrink(6, 4, 2, start, tries=5, seed=3)
    assert again == sm.shrink(6, 4, 2, start, tries=5, seed=3) and rc.is_solution(again, 6, 4, 2)
    assert tuple(range(6)) in again and len(again) <= len(start)
    assert sm.shrink(6, 4, 2, tries=0) is None  # nothing to prune


@pytest.mark.parametrize("abc", [(3, 5, 1), (4, 4, 1), (4, 5, 1), (3, 6, 1)])
def test_case_descent_agrees_with_the_whole_model(abc):
    """The symmetry-case answer at the optimum and one below it, against the minimum of the
    whole CP-SAT model (no symmetry breaking, no covering constraints)."""
    model, _ = cpsat_model(*abc, minimize=True)
    res = solve(model, time_limit=120)
    assert res.optimal
    best = int(res.objective)
    assert sm.fewer_hands(*abc, best - 1, 50)[0] == "none"
    answer, ann, _ = sm.fewer_hands(*abc, best, 50)
    assert answer == "found" and len(ann) == best and rc.is_solution(ann, *abc)


def test_fewer_hands_below_the_covering_bound_is_none_without_search():
    assert sm.fewer_hands(7, 3, 1, covering_counts(7, 3, 1)[0] - 1, 1) == ("none", (), 0.0)
    with pytest.raises(ValueError, match="most"):
        sm.fewer_hands(7, 3, 1, -1, 1)


@pytest.mark.parametrize("abc", SMALL)
def test_holding_counts_hold_for_every_enumerated_announcement(abc):
    """Every safe announcement (all of them, enumerated) has >= q_j hands holding a card y and
    avoiding a j-set without y; so at least ceil(n q_0 / a) hands."""
    a, b, c = abc
    q, n = holding_counts(*abc), sum(abc)
    found = rc.safe_announcements(*abc, limit=None)
    assert found and min(map(len, found)) >= counting_lower_bound(*abc) >= -(-n * q[0] // a)
    for ann in found:
        for y in range(n):
            holding = [h for h in ann if y in h]
            for j in range(c + 1):
                assert min(_avoiding(holding, s) for s in combinations(set(range(n)) - {y}, j)
                           ) >= q[j]


def test_johnson_bound_holds_and_agrees_with_the_grid():
    """Every witness in data/ fits Johnson's packing bound (met by the Fano planes of (3,3,1));
    where the counting bound exceeds it the grid, by CP-SAT, also says unsolvable."""
    from puzzlelab.russian_cards import notebook as rn
    from puzzlelab.russian_cards.model import packing_upper_bound

    grid = read_table("russian_cards_grid")
    for r in grid[grid.status == "solvable"].itertuples():
        assert len(rg.parse_announcement(r.witness)) <= packing_upper_bound(r.a, r.b, r.c)
    assert packing_upper_bound(3, 3, 1) == 7 == max(map(len, rc.safe_announcements(3, 3, 1)))
    cross = rn.bounds_cross(grid, 16)
    assert len(cross) >= 1 and (cross.grid == "unsolvable").all()
    assert (cross["at least"] > cross["at most"]).all()


# -- announcements made of orbits of a card group ----------------------------------------------
def test_fewest_on_orbits_of_the_seven_cycle_is_a_fano_plane():
    """Every orbit of 3-sets under q -> q+1 mod 7 has 7 hands, so the fewest is 7: a Fano plane
    (every pair of cards in exactly one hand)."""
    from puzzlelab.russian_cards.orbits import cycle, group_search

    ann, _ = group_search(3, 3, 1, [cycle(7, 7)], fewest=True)
    assert len(ann) == 7 and is_solution(ann, 3, 3, 1)
    assert all(sum(set(p) <= set(h) for h in ann) == 1 for p in combinations(range(7), 2))


def test_fewest_on_orbits_meets_the_covering_lemma_for_7_3_1():
    row = dict(a=7, b=3, c=1, smallest=12, lower_bound=counting_lower_bound(7, 3, 1))
    out = rg.fewest_on_orbits(row)
    ann = rg.parse_announcement(out["witness"])
    assert is_solution(ann, 7, 3, 1) and len(ann) == out["smallest"] == row["lower_bound"] == 11
    assert out["proven"] and out["before"] == 12
    assert rg.fewest_on_orbits(dict(row, smallest=11)) is None  # nothing smaller than 11


def test_the_orbit_table_improves_only_and_recomputes():
    from puzzlelab.cache import data_path

    if not data_path(rt.ORBIT_TABLE).exists():
        pytest.skip("the orbit table is not in data/")
    table = read_table(rt.ORBIT_TABLE)
    rg.check_min_sizes(table)
    assert (table.smallest < table.before).all()
    assert (table.proven == (table.smallest == table.lower_bound)).all()
    first = table.iloc[0]
    again = rg.fewest_on_orbits(dict(a=first.a, b=first.b, c=first.c, smallest=first.before,
                                     lower_bound=first.lower_bound))
    assert again["witness"] == first.witness and again["group"] == first.group
