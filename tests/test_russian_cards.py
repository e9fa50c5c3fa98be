"""Tests for puzzlelab.russian_cards: rules vs epistemic model, solvers vs exhaustive search."""

from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlelab.russian_cards as rc
from puzzlelab.bitsets import from_bits as mask
from puzzlelab.russian_cards import notebook as rn
from puzzlelab.russian_cards import tables as rt
from puzzlelab.russian_cards.model import all_hands, cards, informative_masks, safe_masks
from puzzlelab.russian_cards.reference import brute_force_masks
from puzzlelab.russian_cards.search import cpsat_model, enumerate_masks, random_greedy
from puzzlelab.solvers import solve as cp_solve


# -- validation ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, message",
    [
        ((0, 3, 1), "at least 1"),
        ((3, -1, 1), "at least 1"),
        ((3, 3, 1.5), "integer"),
        ((3, 3, True), "integer"),
    ],
)
def test_bad_sizes(args, message):
    with pytest.raises(ValueError, match=message):
        rc.solve(*args)
    with pytest.raises(ValueError, match=message):
        rc.safe_announcements(*args)


@pytest.mark.parametrize(
    "hand, message",
    [((0, 1), "3 cards"), ((0, 1, 7), "outside the deck"), ((0, 0, 1), "twice"), ("0x1", "card numbers")],
)
def test_bad_hands(hand, message):
    with pytest.raises(ValueError, match=message):
        rc.safe_announcements(3, 3, 1, hand)


def test_bad_announcements():
    with pytest.raises(ValueError, match="does not contain Anne's hand"):
        rc.is_safe([(0, 3, 4), (1, 3, 5)], 3, 3, 1, hand=(0, 1, 2))
    with pytest.raises(ValueError, match="does not contain Anne's hand"):
        rc.model_check([(0, 3, 4), (1, 3, 5)], 3, 3, 1, hand=(0, 1, 2))
    with pytest.raises(ValueError, match="a = 3 distinct"):
        rc.is_informative([(0, 1, 2), (3, 4)], 3, 3, 1)
    with pytest.raises(ValueError, match="outside the deck"):
        rc.is_informative([(0, 1, 2), (3, 4, 9)], 3, 3, 1)
    with pytest.raises(ValueError, match="twice"):
        rc.is_informative([(0, 1, 2), (2, 1, 0)], 3, 3, 1)
    with pytest.raises(ValueError, match="at least one hand"):
        rc.is_safe([], 3, 3, 1)
    with pytest.raises(ValueError, match="'B', 'C'"):
        rc.views([(0, 1, 2)], 3, 3, 1, "A")
    with pytest.raises(ValueError, match="'B', 'C'"):
        rc.views([(0, 1, 2)], 3, 3, 1, ["B"])


@pytest.mark.parametrize("hand", [(0, 1, 2.7), (0, 1, 2.0), (0, True, 2), (0, 1, "2")])
def test_non_integer_cards_are_rejected_not_truncated(hand):
    with pytest.raises(ValueError, match="must be an integer"):
        rc.check_hand(hand, 3, 3, 1)
    with pytest.raises(ValueError, match="must be an integer"):
        rc.is_informative([(0, 3, 4), hand], 3, 3, 1)
    with pytest.raises(ValueError, match="must be an integer"):
        rc.is_safe([(0, 3, 4), hand], 3, 3, 1)


def test_numpy_integers_are_accepted():
    three = np.int64(3)
    assert rc.check_sizes(three, 3, np.int32(1)) == 7
    assert rc.check_hand(np.array([2, 0, 1]), three, 3, 1) == (0, 1, 2)
    assert rc.solve(three, three, np.int64(1)) == rc.solve(3, 3, 1)
    v = rc.decide(np.int64(3), 3, 1)
    assert type(v.a) is int and v.status == "solvable"
    assert rc.is_informative([np.array([0, 1, 2]), (0, 3, 4)], three, 3, 1)
    with pytest.raises(ValueError, match="hand size c must be an integer"):
        rc.check_sizes(3, 3, np.float64(1.0))
    with pytest.raises(ValueError, match="hand size a must be an integer"):
        rc.decide(np.bool_(True), 3, 1)


def test_hand_text_forms():
    assert rc.check_hand("0123", 4, 4, 1) == (0, 1, 2, 3)
    assert rc.check_hand("3, 10, 1", 3, 6, 2) == (1, 3, 10)


# -- combinatorial rules against the epistemic model ---------------------------------------
def packings_331() -> list[tuple]:
    """Every Rule-1 packing (pairwise <= 1 shared card) of 3-card hands containing 012."""
    hands = [mask(h) for h in all_hands(7, 3)]
    h0 = mask((0, 1, 2))
    out = []

    def rec(chosen, pool):
        out.append(chosen)
        for i, h in enumerate(pool):
            rec(chosen + [h], [g for g in pool[i + 1:] if (g & h).bit_count() <= 1])

    rec([h0], [h for h in hands if h != h0 and (h & h0).bit_count() <= 1])
    return out


def test_model_check_agrees_with_rules_on_every_331_packing():
    for L in packings_331():
        ann = [cards(h) for h in L]
        mc = rc.model_check(ann, 3, 3, 1, hand=(0, 1, 2))
        assert mc.informative  # a packing is informative by Rule 1 ...
        assert mc.safe == rc.is_safe(ann, 3, 3, 1) == mc.c_ignorant
        assert mc.after_reply == (mc.informative and mc.safe)


def test_model_check_agrees_on_small_non_packings_331():
    hands = all_hands(7, 3)
    others = [h for h in hands if h != (0, 1, 2)]
    for k in range(0, 3):
        for extra in combinations(others, k):
            ann = [(0, 1, 2), *extra]
            mc = rc.model_check(ann, 3, 3, 1)
            assert mc.informative == rc.is_informative(ann, 3, 3, 1)
            assert mc.safe == rc.is_safe(ann, 3, 3, 1)


sizes = st.tuples(st.integers(2, 4), st.integers(1, 4), st.integers(1, 2)).filter(
    lambda t: sum(t) <= 9
)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), abc=sizes)
def test_model_check_agrees_with_rules_on_random_announcements(data, abc):
    a, b, c = abc
    hands = all_hands(a + b + c, a)
    idx = data.draw(st.sets(st.integers(0, len(hands) - 1), min_size=1, max_size=12))
    ann = [hands[i] for i in sorted(idx)]
    mc = rc.model_check(ann, a, b, c)
    assert mc.informative == rc.is_informative(ann, a, b, c)
    assert mc.safe == mc.c_ignorant == rc.is_safe(ann, a, b, c)
    assert mc.after_reply == (mc.informative and mc.safe)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), abc=st.tuples(st.integers(2, 6), st.integers(1, 6), st.integers(1, 3)))
def test_report_rule2_equals_semantic_rule2(data, abc):
    """Lemma: a safe announcement has no c-set meeting all its hands, so both readings agree."""
    n, c = sum(abc), abc[2]
    L = drawn_announcement(data, abc, max_hands=20)
    assert safe_masks(L, n, c) == safe_masks(L, n, c, every_c_set=True)


def drawn_announcement(data, abc: tuple[int, int, int], max_hands: int) -> list[int]:
    """A Hypothesis-drawn set of a-card hands (bit masks) for (a, b, c), in mask order."""
    a, n = abc[0], sum(abc)
    hands = [mask(h) for h in all_hands(n, a)]
    idx = data.draw(st.sets(st.integers(0, len(hands) - 1), min_size=1, max_size=max_hands))
    return [hands[i] for i in sorted(idx)]


def test_pairwise_rule1_is_bill_learning_in_every_deal():
    """Rule 1 in pairwise form equals: no Bill hand leaves two announced hands (direct count)."""
    a, b, c = 4, 3, 2
    n = a + b + c
    for ann in combinations(all_hands(n, a), 2):
        direct = all(
            sum(not set(h) & set(bill) for h in ann) <= 1 for bill in all_hands(n, b)
            if any(not set(h) & set(bill) for h in ann)
        )
        assert direct == rc.is_informative(ann, a, b, c)


# -- solvers against exhaustive enumeration ------------------------------------------------
def test_enumeration_matches_size_bounded_brute_force_331():
    """All solutions for 012 versus every set of <= 6 other Rule-1-compatible hands."""
    n, a, c = 7, 3, 1
    h0 = mask((0, 1, 2))
    compatible = [mask(h) for h in all_hands(n, a) if mask(h) != h0 and len(set(h) & {0, 1, 2}) <= 1]
    brute = set()
    for k in range(7):  # 7 hands at most: each pair of cards lies in at most one hand (21 / 3)
        for extra in combinations(compatible, k):
            L = [h0, *extra]
            if informative_masks(L, a, c) and safe_masks(L, n, c):
                brute.add(frozenset(L))
    fast = {frozenset(L) for L in enumerate_masks(n, a, c, h0)}
    assert fast == brute
    assert len(rc.safe_announcements(3, 3, 1)) == len(brute)


@pytest.mark.parametrize("abc", [(2, 2, 1), (3, 2, 1), (2, 3, 1), (3, 1, 1), (2, 1, 1)])
def test_enumeration_matches_full_brute_force(abc):
    a, b, c = abc
    n = a + b + c
    h0 = mask(range(a))
    fast = {frozenset(L) for L in enumerate_masks(n, a, c, h0)}
    assert fast == {frozenset(L) for L in brute_force_masks(n, a, c, h0)}


SMALL = [(a, b, c) for c in (1, 2) for a in range(2, 6) for b in range(1, 6) if a + b + c <= 9]


@pytest.mark.parametrize("abc", SMALL)
def test_decide_and_report_dfs_agree_with_enumeration(abc):
    a, b, c = abc
    exists = bool(rc.safe_announcements(a, b, c, limit=1))
    v = rc.decide(a, b, c, time_limit=30)
    assert v.status == ("solvable" if exists else "unsolvable")
    dfs = rc.report_dfs(a, b, c)
    assert dfs.complete and (dfs.announcement is not None) == exists
    if exists:
        assert rc.is_solution(v.witness, a, b, c) and rc.is_solution(dfs.announcement, a, b, c)


@pytest.mark.parametrize("abc", [(2, 2, 1), (3, 2, 1), (3, 3, 1), (4, 2, 1), (4, 4, 2), (5, 2, 1), (3, 3, 2)])
def test_cpsat_agrees_with_enumeration_without_lemmas(abc):
    a, b, c = abc
    exists = bool(rc.safe_announcements(a, b, c, limit=1))
    model, x = cpsat_model(a, b, c)
    res = cp_solve(model, time_limit=30)
    assert res.feasible == exists and res.infeasible == (not exists)
    v = rc.decide(a, b, c, use_lemmas=False, time_limit=30)
    assert v.status == ("solvable" if exists else "unsolvable")


def test_cpsat_minimum_equals_smallest_enumerated_331():
    model, _ = cpsat_model(3, 3, 1, minimize=True)
    res = cp_solve(model, time_limit=30)
    assert res.optimal
    assert res.objective == min(len(L) for L in rc.safe_announcements(3, 3, 1))


def test_symmetry_cases_cover_every_solution_331():
    """symmetry.case_model(k) is feasible exactly for the largest pairwise overlaps k that occur
    among the enumerated solutions (every solution is a relabelling of one in its case)."""
    from puzzlelab.russian_cards.symmetry import case_model, case_range

    sols = rc.safe_announcements(3, 3, 1)
    overlaps = {max(len(set(g) & set(h)) for g, h in combinations(L, 2)) for L in sols}
    for k in case_range(3, 3, 1):
        res = cp_solve(case_model(3, 3, 1, k)[0], time_limit=30)
        assert res.feasible == (k in overlaps) and (res.feasible or res.infeasible)


@pytest.mark.parametrize("abc", [(2, 4, 1), (3, 2, 2), (4, 3, 2), (3, 2, 1), (5, 2, 1), (4, 1, 1), (5, 2, 2), (4, 3, 2)])
def test_lemmas_agree_with_exhaustive_search(abc):
    """Every lemma-decided small size is confirmed by exhaustive enumeration."""
    assert rc.lemma(*abc)
    assert not rc.safe_announcements(*abc, limit=1)


def test_no_lemma_where_solvable():
    """(4,2,1) passes the Steiner divisibility test (S(2,3,7) exists) and is solvable."""
    assert rc.lemma(4, 2, 1) is None and rc.safe_announcements(4, 2, 1, limit=1)


@pytest.mark.parametrize("abc", [(5, 5, 3), (5, 6, 3)])
def test_lemma_d_agrees_with_cpsat(abc):
    """a = c + 2 with n < (c+1)^2 + 1: CP-SAT proves it too."""
    assert rc.lemma(*abc) == "lemma: a = c+2 needs n >= (c+1)^2 + 1"
    assert cp_solve(cpsat_model(*abc)[0], time_limit=60).infeasible


def test_steiner_lemma_b_is_c_plus_1():
    """(4,2,1): complements of every solution's hands form a Steiner triple system on 7 cards."""
    sols = rc.safe_announcements(4, 2, 1)
    assert sols
    for L in sols:
        blocks = [set(range(7)) - set(h) for h in L]
        for pair in combinations(range(7), 2):
            assert sum(set(pair) <= blk for blk in blocks) == 1


def test_solve_relabels_to_any_hand():
    for hand in [(0, 1, 2), (2, 4, 6), (4, 5, 6)]:
        ann = rc.solve(3, 3, 1, hand)
        assert hand in ann and rc.is_solution(ann, 3, 3, 1, hand)
    assert rc.solve(3, 2, 1, (1, 3, 5)) is None


def test_random_greedy_witnesses_verify():
    L = random_greedy(5, 5, 1, tries=5)
    assert L is not None and safe_masks(L, 11, 1) and informative_masks(L, 5, 1)


# -- constructions --------------------------------------------------------------------------
@pytest.mark.parametrize("abc", [(3, 3, 1), (4, 4, 1), (3, 5, 1), (5, 4, 1)])
def test_sum_mod_is_informative_for_c_1(abc):
    """Two hands with equal sums mod n >= n cannot differ in a single card (cards < n)."""
    a, b, c = abc
    for hand in all_hands(a + b + c, a)[::7]:
        assert rc.is_informative(rc.sum_mod(a, b, c, hand), a, b, c, hand)


@pytest.mark.parametrize("abc, p", [((4, 5, 2), 11), ((5, 5, 2), 13), ((5, 6, 3), 17)])
def test_power_sums_are_informative(abc, p):
    a, b, c = abc
    for hand in all_hands(a + b + c, a)[::37]:
        assert rc.is_informative(rc.power_sums(a, b, c, hand, p), a, b, c, hand)


def test_planes_are_solutions():
    for abc in [(3, 3, 1), (4, 8, 1), (4, 7, 2), (3, 5, 1)]:
        ann = rc.plane(*abc)
        assert ann is not None and rc.is_solution(ann, *abc)


# -- grid helpers and explorations ----------------------------------------------------------
def test_small_grid_is_verified_and_matches_enumeration():
    from puzzlelab.russian_cards import grid as rg

    g = rg.decide_grid(c_values=(1,), n_max=8)
    assert rg.verify_grid(g).all()
    for r in g.itertuples():
        exists = bool(rc.safe_announcements(r.a, r.b, r.c, limit=1))
        assert r.status == ("solvable" if exists else "unsolvable")
    t = rn.yn_table(g, 1, range(2, 5), range(2, 5))
    assert t.loc[3, 3] == "Y" and t.loc[2, 3] == "N"


def test_announcement_text_round_trip():
    from puzzlelab.russian_cards import grid as rg

    ann = rc.solve(4, 4, 2, time_limit=20) or rc.solve(4, 4, 1)
    assert rg.parse_announcement(rg.format_announcement(ann)) == ann
    with pytest.raises(ValueError, match="empty"):
        rg.parse_announcement("")


def test_explore_views():
    df = rn.explore_views(3, 3, 1, "012", "C")
    assert df.loc["Anne announces", "hands"] == len(rc.solve(3, 3, 1)) and len(df) == 1 + 7
    assert df.index.name == "Cath holds" and list(df.columns) == ["Anne could hold", "hands"]
    assert rn.explore_views(3, 3, 1, "012", "B").index.name == "Bill holds"
    unsolvable = rn.explore_views(3, 2, 1, "012")
    assert unsolvable.index[0] == "(3,2,1)" and "unsolvable" in unsolvable.iloc[0, 0]
    proof = unsolvable["proof"].tolist()  # the proof's content
    assert any("Lemma C" in step and "S(2,3,6)" in step for step in proof)
    assert any("C(5,1) = 5 is not divisible by C(2,1) = 2" in step for step in proof)
    steps = rn.explore_views(4, 4, 2, "0123")["proof"].tolist()
    assert [s for s in steps if s.startswith("largest overlap")] == [
        f"largest overlap k={k}: INFEASIBLE (0.00 units)" for k in (0, 1)]
    with pytest.raises(ValueError, match="n <= 12"):
        rn.explore_views(8, 8, 4)
    assert rn.explore_views(6, 6, 2, "012345").loc["Anne announces", "hands"] > 0  # the grid's
    many = rn.explore_views(4, 4, 1, who="B")
    assert len(many) == rn.EXPLORE_ROWS + 2 and many.index[-1].endswith("more hands")
    with pytest.raises(ValueError, match="'B'"):
        rn.explore_views(3, 3, 1, "012", "A")
    with pytest.raises(ValueError, match="3 cards"):
        rn.explore_views(3, 3, 1, "01")


@pytest.mark.parametrize("abc", [(3, 3, 1), (4, 2, 1), (3, 4, 1), (4, 3, 1)])
def test_counting_lower_bound_holds(abc):
    from puzzlelab.russian_cards.model import counting_lower_bound

    smallest = min(len(L) for L in rc.safe_announcements(*abc, limit=2000))
    model, _ = cpsat_model(*abc, minimize=True)
    res = cp_solve(model, time_limit=30)
    assert res.optimal and counting_lower_bound(*abc) <= res.objective <= smallest


# -- symmetry-broken cases and cyclic orbits (the five formerly open cells) ----------------------
def _canonical_in_case(L, a, b, c):
    """Relabel a solution by hand (a largest-overlap pair -> H0, H1), take the lexicographic
    maximum of its orbit under the case's generators, and report whether it is in case k."""
    from puzzlelab.russian_cards.constructions import relabel
    from puzzlelab.russian_cards.reference import in_case
    from puzzlelab.russian_cards.symmetry import generators, permute

    n = a + b + c
    k = max(len(set(g) & set(h)) for g, h in combinations(L, 2))
    g, h = next((g, h) for g, h in combinations(L, 2) if len(set(g) & set(h)) == k)
    common = sorted(set(g) & set(h))
    order = [*common, *sorted(set(g) - set(h)), *sorted(set(h) - set(g)), *sorted(set(range(n)) - set(g) - set(h))]
    perm = {q: i for i, q in enumerate(order)}  # old card -> new card
    start = frozenset(mask(perm[q] for q in hh) for hh in L)
    orbit, todo = {start}, [start]
    while todo:
        cur = todo.pop()
        for p in generators(a, n, k):
            nxt = frozenset(permute(p, m) for m in cur)
            if nxt not in orbit:
                orbit.add(nxt)
                todo.append(nxt)
    hands = list(rc.model.subset_masks(n, a))
    best = max(orbit, key=lambda s: [m in s for m in hands])
    assert rc.is_solution([rc.model.cards(m) for m in best], a, b, c)
    return in_case(best, a, b, c, k)


@pytest.mark.parametrize("abc", [(3, 3, 1), (4, 2, 1), (3, 4, 1)])
def test_case_lemma_covers_every_solution(abc):
    """Every enumerated solution has a relabelling (its orbit's lex max) satisfying case (i)-(iii)."""
    sols = rc.safe_announcements(*abc)
    assert sols
    for L in sols[:: max(1, len(sols) // 300)]:
        assert _canonical_in_case(L, *abc)


@pytest.mark.parametrize("abc", [(3, 3, 1), (3, 2, 1), (4, 2, 1), (4, 4, 2), (3, 3, 2), (4, 3, 1), (5, 3, 1), (4, 5, 2)])
def test_case_models_agree_with_enumeration(abc):
    """Some case k is feasible iff exhaustive enumeration finds an announcement; witnesses verify."""
    from puzzlelab.russian_cards.symmetry import case_model, case_range

    a, b, c = abc
    exists = bool(rc.safe_announcements(a, b, c, limit=1))
    found = False
    for k in case_range(a, b, c):
        model, x, hands = case_model(a, b, c, k)
        res = cp_solve(model, time_limit=30)
        assert res.feasible or res.infeasible
        if res.feasible:
            found = True
            ann = [rc.model.cards(h) for h, v in zip(hands, x) if res.value(v)]
            assert rc.is_solution(ann, a, b, c)
    assert found == exists


def _all_solutions(model, x, hands):
    """Every solution of a CP-SAT model, as the set of hands whose variable is 1 (and the count of
    full solutions, auxiliary variables included)."""
    from ortools.sat.python import cp_model

    found, count = set(), [0]

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            count[0] += 1
            found.add(frozenset(h for h, v in zip(hands, x) if self.Value(v)))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    assert solver.solve(model, Collect()) == cp_model.OPTIMAL
    return found, count[0]


@pytest.mark.parametrize("abc, k", [((3, 3, 1), 1), ((3, 4, 1), 1), ((4, 3, 1), 2)])
def test_lex_constraints_only_cut_non_canonical_solutions(abc, k):
    """Case k: the plain model's solutions are the enumerated announcements through H0 and H1
    with pairwise overlaps <= k; the lex model keeps exactly those that satisfy `in_case`."""
    from puzzlelab.russian_cards.reference import in_case
    from puzzlelab.russian_cards.symmetry import case_hands, case_model

    a, b, c = abc
    h0, h1 = case_hands(a, k)
    plain_model, plain_x, hands = case_model(a, b, c, k, lex=False)
    plain, n_plain = _all_solutions(plain_model, plain_x, hands)  # the plain model's own variables
    enumerated = {frozenset(L) for L in enumerate_masks(a + b + c, a, c, h0)
                  if h1 in L and all((g & h).bit_count() <= k for g, h in combinations(L, 2))}
    assert plain == enumerated and n_plain == len(plain)
    lex_model, lex_x, lex_hands = case_model(a, b, c, k)
    assert lex_hands == hands
    kept, n_kept = _all_solutions(lex_model, lex_x, lex_hands)
    assert n_kept == len(kept)  # the auxiliary lex variables are fixed by x: no blow-up
    assert kept == {s for s in plain if in_case(s, a, b, c, k)}
    assert kept and kept < plain  # the constraints cut something, and not everything


@pytest.mark.parametrize("abc", [(4, 8, 1), (4, 7, 1)])
def test_lex_constraints_keep_a_case_below_the_rule1_bound(abc):
    """k = 1 < a-c-1 = 2: whenever the plain case has a solution (for (4,8,1) also the lines of
    PG(2,3), which share one card pairwise), the lex model has one, and it satisfies in_case."""
    from puzzlelab.russian_cards.reference import in_case
    from puzzlelab.russian_cards.symmetry import case_model

    a, b, c = abc
    if abc == (4, 8, 1):
        lines = rc.plane(*abc)
        assert rc.is_solution(lines, *abc) and max(len(set(g) & set(h)) for g, h in combinations(lines, 2)) == 1
    plain = cp_solve(case_model(a, b, c, 1, lex=False)[0], time_limit=60)
    assert plain.feasible
    model, x, hands = case_model(a, b, c, 1)
    res = cp_solve(model, time_limit=60)
    assert res.feasible
    chosen = [h for h, v in zip(hands, x) if res.value(v)]
    assert in_case(chosen, a, b, c, 1) and rc.is_solution([rc.model.cards(h) for h in chosen], a, b, c)


def test_orbit_witnesses_verify_and_respect_unsolvable_cells():
    from puzzlelab.russian_cards.orbits import orbit_witness

    ann = orbit_witness(9, 4, 2, 15)
    assert ann is not None and (0, 1, 2, 3, 4, 5, 6, 7, 8) in ann and rc.is_solution(ann, 9, 4, 2)
    for abc in [(4, 4, 2), (4, 5, 2), (3, 2, 1)]:  # unsolvable by enumeration: no orbit witness
        assert not rc.safe_announcements(*abc, limit=1)
        assert orbit_witness(*abc, sum(abc)) is None


def test_formerly_open_cells_are_decided_in_the_cached_grid():
    """(9,4,2), (10,4,2): cached witnesses pass the verifier; no cell of the grid is open."""
    from puzzlelab.cache import read_table
    from puzzlelab.russian_cards import grid as rg

    grid = read_table("russian_cards_grid")
    assert (grid.status != "open").all()
    assert rg.verify_grid(grid).all()
    look = {(r.a, r.b, r.c): r for r in grid.itertuples()}
    for abc in [(9, 4, 2), (10, 4, 2)]:
        ann = rg.parse_announcement(look[abc].witness)
        assert tuple(range(abc[0])) in ann and rc.is_solution(ann, *abc)


@pytest.mark.parametrize("abc", [(6, 7, 3), (7, 6, 3)])
def test_hard_unsolvable_cells_recomputed_case_by_case(abc):
    """Every symmetry case of (6,7,3) and (7,6,3) is INFEASIBLE within the work limit (the slowest
    test: (7,6,3), k=3 needs about 16 work units); the cached grid's work units agree."""
    from puzzlelab.cache import read_table
    from puzzlelab.solvers import solve_limited, work_used
    from puzzlelab.russian_cards.solver import WORK_LIMIT
    from puzzlelab.russian_cards.symmetry import case_model, case_range

    grid = read_table("russian_cards_grid").set_index(["a", "b", "c"])
    assert grid.loc[abc, "status"] == "unsolvable"
    assert grid.loc[abc, "method"] == "CP-SAT INFEASIBLE in every symmetry case"
    for k in case_range(*abc):
        res = solve_limited(case_model(*abc, k)[0], WORK_LIMIT)
        assert res.infeasible, (abc, k, res.status)
        # deterministic work: the same units as when the cached grid was computed
        assert f"k={k}: INFEASIBLE ({work_used(res):.2f} units)" in grid.loc[abc, "detail"]


@pytest.mark.parametrize("abc", [(4, 6, 2), (6, 5, 3)])
def test_whole_model_agrees_with_the_case_split(abc):
    """Independent cross-check: CP-SAT on the whole model (no symmetry breaking) proves these
    unsolvable, as does `decide` through the symmetry cases."""
    from puzzlelab.solvers import solve_limited

    assert rc.lemma(*abc) is None
    assert solve_limited(cpsat_model(*abc)[0], 40.0).infeasible
    v = rc.decide(*abc)
    assert v.status == "unsolvable" and v.method == "CP-SAT INFEASIBLE in every symmetry case"


def test_quick_symmetry_case_proof_663():
    """(6,6,3) re-proved through the cases in a few seconds (each k INFEASIBLE)."""
    v = rc.decide(6, 6, 3)
    assert v.status == "unsolvable" and v.method == "CP-SAT INFEASIBLE in every symmetry case"
    assert [f"k={k}: INFEASIBLE" in v.detail for k in (0, 1, 2)] == [True] * 3


# -- work limits: deterministic, and the wall clock never decides -------------------------------
def test_work_is_reproducible_and_a_work_stop_is_an_answer():
    from puzzlelab.solvers import solve_limited, stopped_by_work, work_used

    runs = [solve_limited(cpsat_model(4, 4, 1, minimize=True)[0], 0.5) for _ in range(2)]
    assert [r.status for r in runs] == [runs[0].status] * 2 and not runs[0].optimal
    assert all(stopped_by_work(r, 0.5) for r in runs)
    assert work_used(runs[0]) == work_used(runs[1]) and runs[0].objective == runs[1].objective


def test_a_wall_clock_stop_raises_instead_of_answering(monkeypatch):
    from puzzlelab import solvers

    monkeypatch.setattr(solvers, "wall_cap", lambda work: 0.02)
    with pytest.raises(solvers.WallClockStop, match="wall-clock cap"):
        solvers.solve_limited(cpsat_model(4, 4, 1, minimize=True)[0], 100.0)
    monkeypatch.undo()
    with pytest.raises(solvers.WallClockStop, match="budget ran out"):
        rc.decide(4, 4, 2, time_limit=1e-9)  # needs CP-SAT: no verdict is made up


# -- the report's text, read and compared ---------------------------------------------------------
def test_appendix_parser_on_a_two_column_snippet():
    """Left column (Bill 0..) first, then the right column (indented >= 20), then the rest."""
    from puzzlelab.russian_cards.source import parse_appendix

    right = " " * 40
    text = "\n".join([
        "## **Appendix**", "```", "solution found! (dfs approach)", "   [0, 1, 2]",
        right + "Possible hand of B 1: [0, 1, 3]",
        r"   \begin{bmatrix} 0, & 3, & 4 \end{bmatrix}",
        right + "no options left",
        "Possible hand of B 0: [0, 1, 2]", "no options left", "```",
        "Possible hand of C 0: [0]", r"- $\begin{bmatrix} 1 & 3 & 5 \end{bmatrix}$", "- [1, 4, 6]",
        "Possible hand of C 1: [1]", "- [2, 3]",
    ])
    df = parse_appendix(text)
    assert df.who.tolist() == ["announcement", "B", "B", "C", "C"]
    assert df["index"].tolist() == [0, 0, 1, 0, 1]
    assert df.report.tolist()[:4] == ["012 034", "no options left", "no options left", "135 146"]
    assert df.readable.tolist() == [True, True, True, True, False]  # "2, 3" is not a whole hand
    with pytest.raises(ValueError, match="Appendix"):
        parse_appendix("no appendix here")


def test_cached_appendix_agrees_with_our_views():
    """Every line of the report's appendix (read from its text, cached) equals our recomputation."""
    from puzzlelab.cache import read_table
    from puzzlelab.russian_cards import grid as rg

    app = read_table("russian_cards_appendix")
    ann_text = app.loc[app.who == "announcement", "report"].item()
    ann = [tuple(int(ch) for ch in h) for h in ann_text.split()]
    assert ann_text == rg.short(rc.report_dfs(3, 3, 1).announcement)
    for who, size in (("B", 3), ("C", 1)):
        lines = app[app.who == who]
        assert lines.readable.all() and list(lines["index"]) == list(range(comb(7, size)))
        ours = rc.views(ann, 3, 3, 1, who)
        for r in lines.itertuples():
            hand = all_hands(7, size)[r.index]
            assert r.holds == str(list(hand))
            assert r.report == (rg.short(ours[hand]) or "no options left")


def test_cath_considers_binomial_many_deals():
    """Report §2.2: Cath cannot tell apart C(a+b, a) deals (Anne, Bill likewise), in the Kripke model."""
    for a, b, c in [(3, 3, 1), (4, 4, 1), (4, 3, 2), (2, 5, 2)]:
        m = rc.deal_model(a, b, c)
        for agent, own, others in (("A", a, (b, c)), ("B", b, (a, c)), ("C", c, (a, b))):
            assert {len(m.cell(agent, w)) for w in m.worlds} == {comb(sum(others), others[0])}


@settings(max_examples=60, deadline=None)
@given(data=st.data(), abc=st.tuples(st.integers(2, 5), st.integers(1, 5), st.integers(1, 3)))
def test_rule2_as_stated_deduplicated_and_ours_agree(data, abc):
    """The report's Rule 2, its deduplicated form and our semantic rule: the same outcome."""
    from puzzlelab.russian_cards.source import rule2_as_stated, rule2_deduplicated

    n, c = sum(abc), abc[2]
    L = drawn_announcement(data, abc, max_hands=25)
    ann = [cards(h) for h in L]
    assert rule2_as_stated(ann, *abc) == rule2_deduplicated(ann, *abc) == safe_masks(L, n, c)


def test_weak_rule1_lets_an_extra_decoy_inform_cath():
    """Report §3: under 'each decoy shares <= a-c-1 cards with the true hand', Cath crosses off
    clashing pairs; an extra decoy then tells her owners she could not tell before."""
    from puzzlelab.russian_cards.source import harmful_decoy, owners_learned, weak_rule1_options

    ann = rc.report_dfs(3, 3, 1).announcement
    for x in range(3, 7):  # with Rule 1 as used (no clashing pair) Cath learns nothing
        assert not owners_learned(weak_rule1_options(ann, 3, 3, 1, (x,)), (x,), 7)
    found = harmful_decoy(ann, 3, 3, 1, (0, 1, 2))
    assert found is not None and len(set(found["decoy"]) & {0, 1, 2}) <= 1
    assert not rc.is_informative([*ann, found["decoy"]], 3, 3, 1)  # it breaks pairwise Rule 1
    assert found["learned"] and set(found["after"]) < set(found["before"]) | {found["decoy"]}
    with pytest.raises(ValueError, match="Cath's hand"):
        weak_rule1_options(ann, 3, 3, 1, (7,))


def test_cached_smallest_announcements_verify():
    from puzzlelab.cache import read_table
    from puzzlelab.russian_cards import grid as rg

    small = read_table("russian_cards_min_size")
    assert (small.lower_bound <= small.smallest).all() and (small.smallest <= small.grid_size).all()
    assert (small.proven == (small.lower_bound == small.smallest)).all()
    for r in small.itertuples():
        ann = rg.parse_announcement(r.witness)
        assert len(ann) == r.smallest and rc.is_solution(ann, r.a, r.b, r.c)


def test_steiner_size_is_the_size_of_every_announcement():
    """Lemma C: for b = c + 1 every safe announcement has C(n, c+1) / C(2c+1, c+1) hands."""
    from puzzlelab.russian_cards.solver import steiner_size

    for abc in [(4, 2, 1), (6, 2, 1)]:
        found = rc.safe_announcements(*abc, limit=40)
        assert found and {len(ann) for ann in found} == {steiner_size(*abc)}
    assert steiner_size(3, 3, 1) is None and steiner_size(5, 2, 1) is None


def test_notebook_summaries():
    """Smallest-size labels, the side-by-side c = 1 table, cell views and the figure legend."""
    assert rn.smallest_label(26, 26, True) == "26"
    assert rn.smallest_label(6, 9, False) == "6–9"
    assert rn.smallest_label(5, 504, False) == "≤ 504 (weak)"
    grid = rt.grid_table()
    smallest = rt.smallest_table(grid)
    summary = rn.smallest_summary(smallest)
    assert (summary.loc["exact"] + summary.loc["range"] + summary.loc["weak_range"]
            == summary.loc["solvable"]).all()
    both = rn.report_and_ours(rt.c1_table(), grid)
    assert set(both.columns.get_level_values(0)) == {"ours", "report"}
    view = rn.cell_view(10, 2, 1, smallest)
    assert view.loc["smallest"].item() == "26" and view.loc["status"].item() == "solvable"
    fig = rn.plot_grids(grid, [1], name=None)
    assert "E = " not in fig.get_suptitle() and "L = lemma" in fig.get_suptitle()


@pytest.mark.parametrize("abc", [(3, 3, 1), (3, 4, 1)])
def test_descent_reaches_the_enumerated_minimum(abc):
    """`descend` from a non-minimal witness and no lower bound proves the enumerated minimum."""
    from puzzlelab.russian_cards import grid as rg

    found = rc.safe_announcements(*abc, limit=2000)
    smallest, largest = min(map(len, found)), max(found, key=len)
    row = dict(a=abc[0], b=abc[1], c=abc[2], n=sum(abc), smallest=len(largest), lower_bound=0,
               proven=False, witness=rg.format_announcement(largest))
    out = rg.descend(row, work=20)
    assert out["proven"] and out["smallest"] == out["lower_bound"] == smallest
    assert rc.is_solution(rg.parse_announcement(out["witness"]), *abc)
    assert rg.fewer_hands(*abc, smallest - 1, 20)[0] == "none"
    assert rg.fewer_hands(*abc, smallest, 20)[0] == "found"


def test_long_run_table_improves_the_default_one():
    """data/russian_cards_min_size_long.csv (the descent): verified witnesses, bounds that only
    tighten, and its cheapest proof re-run."""
    from puzzlelab.cache import data_path, read_table
    from puzzlelab.russian_cards import grid as rg

    if not data_path(rg.LONG_TABLE).exists():
        pytest.skip("no long run in data/ (puzzlelab compute russian_cards_min_size_long --long-run)")
    long = read_table(rg.LONG_TABLE).set_index(["a", "b", "c"])
    short = read_table("russian_cards_min_size").set_index(["a", "b", "c"]).loc[long.index]
    rg.check_min_sizes(long.reset_index())
    assert (long.smallest <= short.smallest).all() and (long.lower_bound >= short.lower_bound).all()
    assert (long.proven == (long.lower_bound == long.smallest)).all()
    newly = long[long.proven & ~short.proven.astype(bool)]
    cheapest = newly.sort_values("last_step_work").iloc[0]
    a, b, c = cheapest.name
    assert rg.fewer_hands(a, b, c, int(cheapest.smallest) - 1, 2 * cheapest.last_step_work + 1
                          )[0] == "none"


def test_cell_view_shows_a_seven_hand_witness_whole_not_six_and_1_more():
    from puzzlelab.russian_cards import notebook as rc_notebook

    view = rc_notebook.cell_view(3, 3, 1)
    row = next(label for label in view.index if label.startswith("witness"))
    shown = view.loc[row].iloc[0]
    assert row == "witness (7 hands)" and "more" not in shown and len(shown.split()) == 7
