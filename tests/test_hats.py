"""Tests for puzzlelab.hats: fast methods against brute force and naive evaluation on small worlds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import hats
from puzzlelab.hats import brute, chains, fullline, notebook, optima, sets, source, tables
from puzzlelab.hats.reference import naive_brute_force, naive_evaluate


# --- validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: hats.check_world(1, 2), "n_players"),
        (lambda: hats.check_world(3, 1), "n_colors"),
        (lambda: hats.check_world(2.5, 2), "integer"),
        (lambda: hats.evaluate(["BPP", "BPPR", "BPPR"]), "letters"),
        (lambda: hats.evaluate(["BPPX", "BPPR", "BPPR"]), "unknown letter"),
        (lambda: hats.evaluate(["BPPG", "BPPR", "BPPR"]), "unknown letter"),  # G is a third colour
        (lambda: hats.evaluate({0: "BP", 1: "PB"}), "players 1..N"),
        (lambda: hats.evaluate("BPPR"), "not a single string"),
        (lambda: hats.evaluate(["BP"]), "n_players"),
        (lambda: hats.maximal_won_sets(1), "n_players"),
        (lambda: hats.optimum(3, 1), "n_colors"),
        (lambda: hats.to_mask([(0, 2)], 2, 2), "not a round"),
        (lambda: notebook.explore_deal(3, 2, "custom", "BPPR BPPR"), "3 strategies"),
        (lambda: notebook.explore_deal(3, 2, "no such preset"), "preset must be one of"),
        (lambda: chains.chain_method(3, viability="maybe"), "viability"),
        (lambda: hats.evaluate([[0.7, 1, 1, 1], [-1] * 4, [-1] * 4]), "not an integer"),
        (lambda: hats.evaluate(np.full((3, 4), 0.5)), "must be integers"),
        (lambda: hats.evaluate([[True, 1, 1, 1], [-1] * 4, [-1] * 4]), "boolean"),
        (lambda: hats.evaluate([[2, 1, 1, 1], [-1] * 4, [-1] * 4]), "colour index"),
        (lambda: optima.product_won_set(0, 0, 1, 2, 3), "n1"),
        (lambda: optima.product_won_set(1, 1, 1, 0, 3), "n2"),
        (lambda: optima.product_won_set(1 << 9, 2, 1, 1, 3), "won1"),
        (lambda: optima.product_won_set(1, 1, -1, 1, 3), "won2"),
        (lambda: optima.product_won_set(1, 1, 1, 1, 1), "n_colors"),
        (lambda: hats.maximal_won_sets(6), "at most 5 players"),
        (lambda: hats.maximal_won_sets(3, 3), "16 rounds"),
        (lambda: optima.hamming_lost_set(5), "2\\*\\*k - 1"),
        (lambda: optima.hamming_coset_check(6), "2\\*\\*k - 1"),
        (lambda: optima.optimum_bounds(3, 3, time_limit=0), "time_limit"),
        (lambda: sets.achievable_mask(1 << 8, 3, 2), "beyond"),
        (lambda: sets.neighbour_property_won_masks(5), "at most N = 4"),
        (lambda: source.evaluate_expression("__import__('os')"), "arithmetic"),
    ],
)
def test_bad_input_raises_value_error(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_widget_shows_the_value_error_message_not_a_traceback(monkeypatch):
    from puzzlelab import widgets

    shown = []
    monkeypatch.setattr(widgets, "display", shown.append)
    widgets.show_safely(notebook.explore_deal, n_players=1, n_colors=2, preset="always pass", custom="")
    widgets.show_safely(notebook.explore_deal, n_players=3, n_colors=2, preset="custom", custom="BPPR BPPX BPPR")
    texts = [getattr(obj, "data", str(obj)) for obj in shown]
    assert len(texts) == 2
    assert "n_players must be an integer at least 2, got 1" in texts[0]
    assert "unknown letter 'X'" in texts[1]
    assert not any("Traceback" in t or "Error:" in t for t in texts)  # the bug path would name the exception type


# --- evaluation ------------------------------------------------------------------------------------


def random_deal(rng, n, m):
    return rng.integers(-1, m, size=(n, m ** (n - 1))).astype(np.int8)


@pytest.mark.parametrize("n, m", [(2, 2), (3, 2), (4, 2), (5, 2), (2, 3), (3, 3), (2, 4)])
def test_vectorised_evaluate_matches_naive_loop(n, m):
    rng = np.random.default_rng(n * 10 + m)
    for _ in range(40):
        d = random_deal(rng, n, m)
        assert hats.evaluate(d, m) == naive_evaluate(d, m)


def test_input_forms_agree():
    """Strings, a {player: string} mapping and per-view mappings describe the same deal."""
    strings = ["BPPR", "RPPB", "PRBP"]
    as_views = [{"RR": "B", "BB": "R"}, {(0, 0): 0, (1, 1): 1}, {"RB": 0, "BR": 1, "BB": None}]
    assert hats.evaluate(strings) == hats.evaluate({1: strings[0], 2: strings[1], 3: strings[2]})
    assert hats.evaluate(strings) == hats.evaluate(as_views)
    assert hats.deal_to_strings(as_views) == tuple(strings)


def test_fitness_functions_on_derivable_deals():
    # all pass: no round is won and no answer is given
    assert hats.rounds_correct(["PPPP"] * 3) == 0
    assert hats.strong_answering(["PPPP"] * 3) == 0
    # one player always says Red: right in exactly half of the rounds, wrong in the other half
    assert hats.rounds_correct(["RRRR", "PPPP", "PPPP"]) == Fraction(1, 2)
    assert hats.strong_answering(["RRRR", "PPPP", "PPPP"]) == 0
    # passes may be valued: 2 of 3 players pass in all 8 rounds
    assert hats.strong_answering(["RRRR", "PPPP", "PPPP"], pass_value=1) == Fraction(16, 24)
    a, b = hats.evaluate(["BPPR"] * 3), hats.evaluate(["RRRR", "PPPP", "PPPP"])
    assert hats.set_correct_order(a, b) == "incomparable"
    assert hats.set_correct_order(a, a) == "equal"


# --- brute force -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n, m", [(2, 2), (2, 3)])
def test_brute_force_matches_naive_per_deal_loop(n, m):
    assert np.array_equal(brute.brute_force(n, m).won, naive_brute_force(n, m))


def test_brute_force_n3_matches_per_deal_evaluation_on_a_sample():
    bf = brute.brute_force(3, 2)
    assert len(bf.won) == brute.n_deals(3, 2) == 3 ** (4 * 3)  # (M+1)**(M**(N-1) * N)
    rng = np.random.default_rng(3)
    for k in rng.integers(0, len(bf.won), size=300):
        assert int(bf.won[k]) == sets.to_mask(naive_evaluate(bf.deal(int(k))), 3)


@pytest.mark.parametrize("n, m", [(2, 2), (3, 2), (2, 3)])
def test_characterization_is_exactly_the_brute_force_won_sets(n, m):
    reached = {int(w) for w in brute.brute_force(n, m).distinct_won_sets()}
    predicted = {w for w in range(1 << m**n) if sets.achievable_mask(w, n, m)}
    assert reached == predicted


@pytest.mark.parametrize("n, m", [(2, 2), (3, 2), (2, 3)])
def test_maximal_won_sets_match_brute_force(n, m):
    assert sorted(sets.maximal_won_masks(n, m)) == brute.brute_force(n, m).maximal_won_sets()
    listed = hats.maximal_won_sets(n, m)
    assert all(isinstance(s, frozenset) and all(isinstance(r, tuple) for r in s) for s in listed)


def test_maximal_won_sets_n4_match_numpy_enumeration_of_dominating_sets():
    """Independent: all 2**16 lost sets, domination by array ops, minimal = no single removal dominates."""
    n = 4
    v = np.arange(2**n)
    subsets = np.arange(1 << 2**n, dtype=np.int64)
    member = (subsets[:, None] >> v[None, :]) & 1  # [subset, round]
    nbr = np.array([[x] + [x ^ (1 << j) for j in range(n)] for x in v])
    dominated = member[:, nbr].max(axis=2).min(axis=1).astype(bool)
    dom = set(subsets[dominated].tolist())
    minimal = {s for s in dom if not any((s & ~(1 << x)) in dom for x in v if s >> x & 1)}
    assert sorted(minimal) == sorted(sets.minimal_dominating_sets(n))


def test_canonical_deal_wins_exactly_each_maximal_set():
    for n in (3, 4):
        for w in sets.maximal_won_masks(n):
            assert sets.to_mask(hats.evaluate(sets.canonical_deal(w, n)), n) == w


# --- chains and the Chain-Method -----------------------------------------------------------------


def test_chains_and_crossings_form_the_hypercube():
    import networkx as nx

    for n in (3, 4):
        g = nx.Graph((a, b) for a, b, _ in chains.chain_crossings(n))
        assert nx.is_isomorphic(g, nx.hypercube_graph(n))
        for ch in chains.chains(n):  # a chain is wrong at its round, right at the N neighbours
            d = sets.canonical_deal(sets.full_mask(n) & ~(1 << (ch.number - 1)), n)
            assert hats.evaluate(d) >= set(ch.correct)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_chain_method_variants(n):
    want = set(sets.minimal_dominating_sets(n))
    purpose = chains.chain_method(n, viability="each-chain-correct")
    assert set(purpose.lost_masks()) == want and len(purpose.combinations) == len(want)
    literal = chains.chain_method(n, viability="changes-correct")
    assert set(literal.lost_masks()) <= want
    for deal, w in zip(literal.deals(), literal.won_masks()):
        assert sets.to_mask(hats.evaluate(deal), n) == w


def test_literal_chain_method_misses_the_parity_deals_for_n3():
    """Chains of the even rounds: the third one adds no new correct round (its 3 neighbours are
    already correct), so the literal viability rule cuts the path to the parity deal."""
    missed = set(sets.minimal_dominating_sets(3)) - set(chains.chain_method(3).lost_masks())
    even = sum(1 << x for x in range(8) if bin(x).count("1") % 2 == 0)
    assert missed == {even, 0xFF & ~even}


# --- optima and bounds -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_optimum_equals_best_maximal_set(n):
    best = max(w.bit_count() for w in sets.maximal_won_masks(n))
    assert hats.optimum(n) == best


def test_optimum_n5_cpsat_agrees_with_branch_and_bound():
    status, mask, bound = optima.cpsat_bounds(5, 2, time_limit=30)
    assert status == "OPTIMAL" and mask.bit_count() == bound == hats.optimum(5)
    assert sets.achievable_mask(mask, 5, 2)


def test_optimum_m3_n2_two_exhaustive_methods_agree():
    by_deals = optima.optimum_bounds(2, 3)
    assert by_deals.method.startswith("exhaustive over all deals")
    assert by_deals.lower == optima.exhaustive_over_lost_sets(2, 3).bit_count()


def test_witnesses_are_achievable_and_bounds_hold():
    for n, m in [(2, 2), (3, 2), (4, 2), (5, 2), (7, 2), (8, 2), (2, 3), (2, 4)]:
        b = optima.optimum_bounds(n, m)
        assert b.proven and sets.achievable_mask(b.witness, n, m)
        assert b.lower == b.witness.bit_count() <= optima.counting_upper_bound(n, m)


def test_upper_bounds_hold_where_exhaustion_decides():
    for n, m in [(2, 3), (2, 4), (3, 2), (4, 2)]:
        best = optima.optimum_bounds(n, m).lower
        assert best <= optima.direction_upper_bound(n, m) <= optima.counting_upper_bound(n, m)
    # M = 3, N = 2: the per-direction bound is reached (4 of 9 rounds, found by exhausting all deals)
    assert optima.optimum_bounds(2, 3).lower == optima.direction_upper_bound(2, 3)


def test_branch_and_bound_finds_only_dominating_sets():
    for n, size in [(4, 4), (5, 7)]:
        (lost,) = optima.minimum_covers(n, size, through_zero=True, limit=1)
        assert sets.valid_lost_mask(lost, n, 2) and lost & 1
    assert optima.minimum_covers(4, 3, through_zero=True, limit=1) == []  # 3 balls of 5 < 16 rounds
    assert optima.minimum_covers(5, 6, through_zero=True, limit=1) == []


def test_hamming_code_is_a_perfect_cover():
    for n in (3, 7):
        lost = optima.hamming_lost_set(n)
        assert lost.bit_count() * (n + 1) == 2**n  # perfect: balls of size N+1 tile the cube
        assert sets.valid_lost_mask(lost, n, 2)


def test_van_wee_bound_holds_for_every_minimal_cover_of_q4():
    bound = optima.van_wee_lost_bound(4)
    assert all(lost.bit_count() >= bound for lost in sets.minimal_dominating_sets(4))
    with pytest.raises(optima.NotProvenError):
        hats.optimum(4, 3, time_limit=0.5, search_steps=100)


# --- thesis tables -----------------------------------------------------------------------------------


def test_read_cell_statuses():
    assert source.read_cell("{BPPR}", 4) == ("BPPR", "clean")
    assert source.read_cell("$\\{PPPP\\}$", 4) == ("PPPP", "clean")
    assert source.read_cell("{RPPPPRRP1", 8) == ("RPPPPRRP", "repaired")
    assert source.read_cell("{PPPPPPP}", 8) == ("PPPPPPPP", "repaired")
    assert source.read_cell("{RBBBBBBBBJ", 8)[1] == "garbled"


def test_view_orders_are_permutations():
    for order in source.VIEW_ORDERS:
        assert sorted(source.view_order(4, order)) == list(itertools.product(range(2), repeat=3))
    assert source.to_our_order("BRPPPPRB", 4, "R<B, lower agent first") == "BRPPPPRB"


# --- property: any deal's won set is achievable and its canonical deal wins it ------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_any_deal_is_dominated_by_its_canonical_deal(n, seed):
    d = random_deal(np.random.default_rng(seed), n, 2)
    w = sets.to_mask(hats.evaluate(d), n)
    assert sets.achievable_mask(w, n, 2)
    assert sets.to_mask(hats.evaluate(sets.canonical_deal(w, n)), n) == w


def test_minimum_covers_double_counting_matches_full_listing_and_maximal_sets():
    for n in (3, 4, 5):
        k = 2**n - hats.optimum(n)
        full = optima.minimum_covers(n, k)
        assert len(full) == optima.count_optimal_won_sets(n, k)
        assert set(full) == {lost for lost in sets.minimal_dominating_sets(n) if lost.bit_count() == k}


def test_max_disjoint_chains_matches_exhaustive_search():
    for n in (3, 4, 5):
        best = 0
        for k in range(1, 6):
            if any(all((a ^ b).bit_count() >= 3 for a, b in itertools.combinations(c, 2))
                   for c in itertools.combinations(range(2**n), k)):
                best = k
        assert chains.max_disjoint_chains(n) == best


# --- M >= 3: the full-line lemma, product constructions and the cached witnesses ---------------------


def test_full_line_bound_never_below_a_proven_optimum():
    """Against optima found without any upper bound: brute force / exhaustion (N <= 4) and the best
    of all minimal dominating sets of Q5 (the N = 5 pipeline would be circular: it starts from the bound)."""
    for n in range(2, 5):
        best = max(w.bit_count() for w in brute.brute_force(n, 2).distinct_won_sets().tolist()) if n <= 3 else \
            optima.exhaustive_over_lost_sets(n, 2).bit_count()
        assert fullline.full_line_upper_bound(n, 2) >= best
    best5 = 2**5 - min(lost.bit_count() for lost in sets.minimal_dominating_sets(5))
    assert fullline.full_line_upper_bound(5, 2) >= best5
    for n, m in [(2, 3), (3, 3), (2, 4)]:  # a deal's won set (exhaustion or local search), evaluated
        w = optima.optimum_bounds(n, m, search_steps=2000).witness
        assert fullline.full_line_upper_bound(n, m) >= len(hats.evaluate(sets.canonical_deal(w, n, m), m))
    # N = 7, M = 2: the lemma applies to the Hamming code's 112 rounds and is met with equality
    assert fullline.lemma_applies(7, 2, 112) and not fullline.excluded(7, 2, 112)


def test_full_line_lemma_agrees_with_exact_grid_model():
    """The counting step against CP-SAT deciding the same grid structure exactly."""
    for n, m, k in [(3, 4, 31), (4, 3, 53), (3, 2, 6)]:
        assert fullline.lemma_applies(n, m, k)
        feasible = fullline.reduced_model_feasible(n, m, k)
        assert feasible is not None
        if fullline.excluded(n, m, k):
            assert feasible is False
    assert fullline.reduced_model_feasible(3, 2, 6) is True  # the parity deal has this structure


def _per_direction_bound(n, m):
    """|W| <= N floor(|L| / (M - 1)), maximised over |L|, by direct search (independent of optima)."""
    return max(k for k in range(m**n + 1) if k <= n * ((m**n - k) // (m - 1)))


@pytest.mark.parametrize("n, m, by_cpsat", [(3, 4, True), (4, 3, True), (4, 4, False), (5, 3, False)])
def test_full_line_bound_is_per_direction_bound_minus_one(n, m, by_cpsat):
    """The bound derived a second way: the per-direction bound P by direct search, then P excluded
    by CP-SAT on the exact grid structure (small cases) or by the lemma's inequality written out here."""
    p = _per_direction_bound(n, m)
    c = (m**n - p) // (m - 1)
    assert n * (c - 1) < p <= n * c and m**n - p == (m - 1) * c  # (a) and (b): a direction at its cap, no slack
    if by_cpsat:
        assert fullline.reduced_model_feasible(n, m, p) is False
    else:
        assert 2 * (m ** (n - 1) - c) > (n - 1) * (c // (m - 1))
    assert fullline.full_line_upper_bound(n, m) == p - 1


def test_full_line_lemma_holds_on_every_won_set_of_small_worlds():
    """Exhaustively: no achievable won set has an excluded size (all 2**16 sets for M**N = 16), and
    the lemma's hypotheses do hold for some achieved size (N = 3, k = 6), so it is exercised."""
    applied = []
    for n, m in [(2, 4), (4, 2), (3, 2)]:
        sizes = {w.bit_count() for w in range(1 << m**n) if sets.achievable_mask(w, n, m)}
        assert not any(fullline.excluded(n, m, k) for k in sizes)
        assert max(sizes) == fullline.full_line_upper_bound(n, m)
        applied += [(n, m, k) for k in sizes if fullline.lemma_applies(n, m, k)]
    assert applied == [(3, 2, 6)]


def _line_structure(won, n, m):
    """Per direction d: (serving lines u_d, positions by won count); plus, for the directions at their
    cap, the free directions of each full position. Plain tuples, independent of the library."""
    rounds = set(itertools.product(range(m), repeat=n))
    lost = rounds - won
    k, cap = len(won), (m**n - len(won)) // (m - 1)
    out = []
    for d in range(n):
        count = {}
        for p in itertools.product(range(m), repeat=n - 1):
            count[p] = sum((p[:d] + (a,) + p[d:]) in won for a in range(m))
        u = sum(1 for v in count.values() if v == 1)
        free = {}
        if u == cap:
            for p, v in count.items():
                if v != m:
                    continue
                free[p] = [j for j in range(n - 1)
                           if all(count[p[:j] + (b,) + p[j + 1:]] == 1 for b in range(m) if b != p[j])]
                for a in range(m):  # every won round of a full position is served in another direction
                    r = p[:d] + (a,) + p[d:]
                    assert any(all((r[:i] + (b,) + r[i + 1:]) in lost for b in range(m) if b != r[i])
                               for i in range(n) if i != d)
        out.append((d, u, sorted(set(count.values())), free))
    return k, cap, out


@pytest.mark.parametrize("name", ["N = 3 optimal sets", "N = 7 Hamming code"])
def test_full_line_lemma_structure_on_sets_it_applies_to(name):
    """(a) some direction has exactly c serving lines, (b) its other lines are full, and every full
    position has at least two free directions: on all optimal N = 3 sets and on the Hamming code."""
    if name.startswith("N = 3"):
        best = max(w.bit_count() for w in sets.maximal_won_masks(3))
        won_sets = [sets.to_rounds(w, 3) for w in sets.maximal_won_masks(3) if w.bit_count() == best]
        n = 3
    else:
        n = 7
        won_sets = [sets.to_rounds(sets.full_mask(7) & ~optima.hamming_lost_set(7), 7)]
    assert len(won_sets) >= 1
    for won in won_sets:
        k, cap, per_direction = _line_structure(won, n, 2)
        assert fullline.lemma_applies(n, 2, k)
        at_cap = [(d, counts, free) for d, u, counts, free in per_direction if u == cap]
        assert at_cap  # (a)
        for d, counts, free in at_cap:
            assert counts == [1, 2]  # (b): every line single or full
            assert free and all(len(js) >= 2 for js in free.values())


def test_product_construction_is_achievable_with_the_predicted_size():
    rng = np.random.default_rng(7)
    for n1, n2, m in [(2, 1, 3), (2, 2, 3), (1, 2, 4), (2, 2, 2)]:
        for _ in range(5):
            w1 = sets.to_mask(hats.evaluate(random_deal(rng, n1, m), m), n1, m) if n1 > 1 else 1
            w2 = sets.to_mask(hats.evaluate(random_deal(rng, n2, m), m), n2, m) if n2 > 1 else 1
            w = optima.product_won_set(w1, n1, w2, n2, m)
            l1, l2 = m**n1 - w1.bit_count(), m**n2 - w2.bit_count()
            assert w.bit_count() == w1.bit_count() * l2 + l1 * w2.bit_count()
            assert len(hats.evaluate(sets.canonical_deal(w, n1 + n2, m), m)) == w.bit_count()


def test_cached_optima_witnesses_evaluate_to_their_lower_bounds():
    """Every cached lower bound is re-derived by evaluating an explicit deal; every upper bound is
    recomputed from the counting arguments."""
    from puzzlelab.cache import read_table

    table = read_table("hats_optima")
    for r in table.itertuples():
        deal = sets.canonical_deal(int(r.witness_hex, 16), r.n_players, r.n_colors)
        assert len(hats.evaluate(deal, r.n_colors)) == r.lower <= r.upper
        assert r.combinatorial_upper == optima.upper_bound(r.n_players, r.n_colors)[0]
        assert r.proven == (r.lower == r.upper)
        if not r.method.startswith("exhaustive"):
            assert r.upper == r.combinatorial_upper
    closed = table.set_index(["n_players", "n_colors"])
    # N = 3, M = 4: the witness evaluates to 30 rounds (above) and 31 is infeasible by CP-SAT on the grid model
    assert fullline.reduced_model_feasible(3, 4, _per_direction_bound(3, 4)) is False
    assert closed.loc[(3, 4)].proven and closed.loc[(3, 4)].lower == _per_direction_bound(3, 4) - 1
    for r in table[(table.n_colors == 2) & (table.n_players <= 6)].itertuples():  # deterministic CP-SAT cross-check
        assert r.cpsat_status in ("OPTIMAL", "FEASIBLE")
        assert r.cpsat_won <= r.lower <= r.cpsat_bound
        if r.cpsat_status == "OPTIMAL":
            assert r.cpsat_won == r.lower == r.cpsat_bound


# --- large worlds, Hamming codes, the thesis's neighbour properties and claims -------------------------


def test_array_check_of_won_sets_matches_the_bitmask_check():
    rng = np.random.default_rng(11)
    for n, m in [(3, 2), (4, 2), (2, 3), (3, 3), (2, 4)]:
        for _ in range(30):
            w_deal = sets.to_mask(hats.evaluate(random_deal(rng, n, m), m), n, m)  # achievable
            w_rand = int(rng.integers(0, 2**62)) & sets.full_mask(n, m)  # mostly not
            for w in (w_deal, w_rand):
                expect = all(any(all(not (w >> y & 1) for y in sets.bits(stub)) for stub in sets.stubs(n, m)[x])
                             for x in sets.bits(w))
                assert sets.achievable_array(sets.mask_to_array(w, m**n), n, m) == expect == sets.achievable_mask(w, n, m)


def test_hamming_codes_built_and_by_syndromes_agree():
    for n in (3, 7, 15):
        lost = optima.hamming_lost_set(n)
        assert sets.valid_lost_mask(lost, n, 2)
        assert lost.bit_count() * (n + 1) == 2**n
        assert optima.hamming_coset_check(n) == (lost.bit_count(), True)
        assert not sets.valid_lost_mask(lost & ~1, n, 2)  # round 0 is in the code and covered only by itself
    for n in (31, 63):
        lost, covers = optima.hamming_coset_check(n)
        assert covers and lost * (n + 1) == 2**n


def test_neighbour_properties_match_a_plain_loop_and_are_only_necessary():
    for n in (2, 3):
        rounds = list(itertools.product(range(2), repeat=n))
        idx = {r: k for k, r in enumerate(rounds)}

        def nbrs(r):
            return [r[:j] + (1 - r[j],) + r[j + 1:] for j in range(n)]

        want = []
        for w in range(1 << 2**n):
            won = {r for r in rounds if w >> idx[r] & 1}
            if all(any(q not in won for q in nbrs(r)) for r in won) and \
                    all(any(q in won for q in nbrs(r)) for r in rounds if r not in won):
                want.append(w)
        assert sets.neighbour_property_won_masks(n) == want
    for n in (3, 4):
        having = set(sets.neighbour_property_won_masks(n))
        maximal = set(sets.maximal_won_masks(n))
        assert maximal <= having and len(having) > len(maximal)


def test_thesis_formulas_evaluate_as_written():
    assert source.evaluate_expression("(2+1)^{(2^{(3-1)})}") == 3**4
    assert source.evaluate_expression("531,441 * 8 * 3") == 531441 * 24
    stated = parse_claims_of_a_sample().set_index("claim").stated_number
    assert stated["n5_possibilities"] == 6.0108039e8 and stated["theorem_6_c_for_n4"] == 8
    assert stated["thoughts"] == 12_754_584 and stated["n5_minimum_chains"] == 5
    assert np.isnan(stated["ebert_win_rate"]) and np.isnan(stated["views_seen_by_an_agent"])


def parse_claims_of_a_sample():
    """`source.parse_claims` of a text stating every claim as the thesis words it."""
    text = ("$$Deals = (2+1)^{(2^{(3-1)})} = 81$$\nThoughts = 531,441 * 8 * 3 = 12,754,584\n"
            "only 4 of these Deals are found to be maximal\n"
            "a win rate of k/k + 1 could be achieved\nThen *C* is at least eight, because of "
            "N = 4\nan agent can see $N - 1^M$ possible combinations\nmust at least be developed"
            " is equal to five.\n6.0108039E + 8 number of possibilities\n")
    return source.parse_claims(text)


def test_default_pipeline_builds_smaller_worlds_like_the_table():
    """known=None computes the smaller worlds' deals first, exactly as tables.optimum_table passes them."""
    auto = optima.optimum_bounds(3, 3, search_steps=300)
    explicit = optima.optimum_bounds(3, 3, search_steps=300, known={2: optima.optimum_bounds(2, 3).witness})
    assert auto == explicit


def test_time_limit_bounds_the_local_search():
    b = optima.optimum_bounds(3, 4, time_limit=1e-3)  # the 4 x 60,000 search steps cannot run in a millisecond
    assert "time limit" in b.method and sets.achievable_mask(b.witness, 3, 4)


def test_four_agent_table_rows_are_evaluated_deals():
    t4 = tables.thesis_table("tables_5_5_to_5_8")
    rows = source.four_agent_deals(t4, "R<B, higher agent first")
    assert len(rows) == len(t4)
    for r in rows[rows.read != "garbled"].to_dict("records"):
        deal = [source.to_our_order(x, 4, "R<B, higher agent first") for x in r["deal strings"].split()]
        assert len(naive_evaluate(deal)) == r["won"]
    assert (rows[rows["our deal"].eq(True)].maximal == True).all()  # noqa: E712


def test_best_known_preset_is_the_cached_witness_and_wins_its_rounds():
    from puzzlelab.cache import read_table

    table = read_table("hats_optima").set_index(["n_players", "n_colors"])
    for n, m in [(3, 2), (5, 2), (3, 4), (4, 3)]:
        deal = notebook.preset_deal(notebook.PRESETS[3], n, m)
        assert len(naive_evaluate(deal, m)) == table.lower[(n, m)]


def test_custom_deals_read_in_the_thesis_n4_order_evaluate_like_its_tables():
    t4 = tables.thesis_table("tables_5_5_to_5_8")
    order = "R<B, higher agent first"
    for r in t4[t4.status == "clean"].head(12).to_dict("records"):
        strings = [r[f"agent{a}"] for a in range(1, 5)]
        shown = notebook.explore_deal(4, 2, "custom", " ".join(strings), notebook.VIEW_ORDERS[1])
        won = len(hats.evaluate([source.to_our_order(x, 4, order) for x in strings]))
        assert shown.iloc[-1].won.startswith(str(Fraction(won, 16)))
        assert list(shown.iloc[-1][[f"player {a}" for a in range(1, 5)]]) == strings


def test_explore_deal_labels_its_rows_by_round_not_by_number():
    from puzzlelab.display import meaningless_index

    shown = notebook.explore_deal(3, 2)
    assert shown.index.name == "round" and not meaningless_index(shown)
    assert list(shown.index[:-1]) == ["".join(r) for r in itertools.product("RB", repeat=3)]
    assert shown.index[-1].startswith("deal") and shown.iloc[-1].won.startswith("3/4")


@pytest.mark.parametrize("number", [0, 1, 30_720, 10**6 + 1, 2**31, 31 * 2**26, 63 * 2**57, 2**63])
def test_power_of_two_text_is_exact(number):
    text = notebook.power_of_two_text(number)
    digits = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
    if "2" in text and text.translate(digits) != text:  # odd · 2^power
        odd, _, power = text.rpartition("2")
        odd = int(odd.replace("·", "").replace(",", "").strip() or 1)
        assert odd % 2 == 1 and odd * 2 ** int(power.translate(digits)) == number
    else:
        assert int(text.replace(",", "")) == number


def test_best_known_preset_outside_the_optima_table_is_refused_at_once():
    """Fuzz, long run on eccd36a (call 5511): N = 3, M = 6 ran past 30 s searching for a deal;
    the preset reads the table only and names the function that searches."""
    with pytest.raises(ValueError, match=r"optima table.*optimum_bounds\(3, 6\)"):
        notebook.best_known_won_set(3, 6)
