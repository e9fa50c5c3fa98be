"""Won sets on orbits of a symmetry of the hat game (puzzlelab.hats.orbits)."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlelab import hats
from puzzlelab.cache import read_table
from puzzlelab.hats import orbits, sets
from puzzlelab.hats.orbits import Symmetry
from puzzlelab.solvers import WallClockStop


def _conjugacy_classes_of_wreath_product(n: int, m: int) -> int:
    """Classes of S_M wr S_N: N-coloured partitions with k(S_M) colours, i.e. the coefficient of
    x^N in prod_j (1 - x^j)^(-k), k = p(M) the number of partitions of M."""
    def partitions(k: int) -> int:
        table = [1] + [0] * k
        for part in range(1, k + 1):
            for total in range(part, k + 1):
                table[total] += table[total - part]
        return table[k]
    k = partitions(m)
    series = [1] + [0] * n
    for j in range(1, n + 1):  # multiply by (1 - x^j)^(-k): k passes of 1/(1 - x^j)
        for _ in range(k):
            for total in range(j, n + 1):
                series[total] += series[total - j]
    return series[n]


@pytest.mark.parametrize("n, m", [(2, 2), (3, 3), (4, 3), (5, 3), (3, 4), (4, 4)])
def test_one_symmetry_per_conjugacy_class(n, m):
    classes = orbits.symmetry_classes(n, m)
    assert len(classes) == _conjugacy_classes_of_wreath_product(n, m)
    assert len({str(g) for g in classes}) == len(classes)  # the names tell them apart


@pytest.mark.parametrize("n, m", [(3, 3), (4, 3), (3, 4)])
def test_every_twisted_shift_maps_won_sets_to_won_sets(n, m):
    """A symmetry of the game: it permutes the rounds and keeps every set's verdict."""
    rng = random.Random(n * 10 + m)
    for g in orbits.symmetry_classes(n, m)[::3]:
        perm = orbits.twisted_shift(g, n, m)
        assert sorted(perm) == list(range(m**n))
        for _ in range(20):
            won = rng.getrandbits(m**n) & rng.getrandbits(m**n) & rng.getrandbits(m**n)
            image = sum(1 << perm[x] for x in range(m**n) if won >> x & 1)
            assert sets.achievable_mask(won, n, m) == sets.achievable_mask(image, n, m)


def test_the_twisted_shift_passes_hats_along_the_cycle():
    g = Symmetry((3,), ((1, 2, 0),))
    perm = orbits.twisted_shift(g, 3, 3)
    index = {r: k for k, r in enumerate(itertools.product(range(3), repeat=3))}
    assert perm[index[(0, 1, 2)]] == index[(1, 2, 1)]  # player 3 gets player 1's hat, plus one
    assert str(g) == "3-cycle twisted by (0 1 2)"
    cycles = orbits.orbits(perm)
    assert sorted(x for c in cycles for x in c) == list(range(27))
    assert {len(c) for c in cycles} == {9}  # (x1, x2, x3) -> ... returns after 3 * 3 steps


@pytest.mark.parametrize("g", [Symmetry((3,), ((1, 0, 2),)),
                               Symmetry((2, 1), ((0, 1, 2), (1, 2, 0))),
                               Symmetry((1, 1, 1), ((1, 2, 0),) * 3)])
def test_best_on_orbits_equals_brute_force_over_all_unions_of_orbits(g):
    n, m = 3, 3
    cycles = orbits.orbits(orbits.twisted_shift(g, n, m))
    assert len(cycles) <= 16
    best = 0
    for chosen in range(1 << len(cycles)):
        won = sum(1 << x for k, c in enumerate(cycles) if chosen >> k & 1 for x in c)
        if won.bit_count() > best and sets.achievable_mask(won, n, m):
            best = won.bit_count()
    won, proven = orbits.best_on_orbits(n, m, g)
    assert proven and won.bit_count() == best


def test_orbit_search_reaches_the_proven_optima():
    """Where the optimum is proven by other means (slices, the full-line lemma, counting), a
    union of orbits of one symmetry reaches it."""
    table = read_table("hats_optima").set_index(["n_players", "n_colors"])
    for n, m in [(3, 3), (4, 3), (3, 4)]:
        assert table.proven[(n, m)]
        won, g = orbits.orbit_search(n, m)
        assert won.bit_count() == table.lower[(n, m)]
        assert len(hats.evaluate(sets.canonical_deal(won, n, m), m)) == won.bit_count()


def test_the_best_deals_found_on_orbits_are_unions_of_orbits_of_the_named_symmetry():
    table = read_table("hats_optima").set_index(["n_players", "n_colors"])
    named = table[table.method.str.contains("orbits of a ")]
    assert {(5, 3), (4, 4)} <= set(named.index)
    for (n, m), row in named.iterrows():
        (g,) = [g for g in orbits.symmetry_classes(n, m)
                if any(f"orbits of a {g} {then} " in row.method for then in ("vs", "meets"))]
        won, proven = orbits.best_on_orbits(n, m, g)
        assert proven and won.bit_count() == row.lower <= row.upper
        assert row.proven == (row.lower == row.upper)
        perm = orbits.twisted_shift(g, n, m)
        witness = int(row.witness_hex, 16)
        assert all(witness >> x & 1 == witness >> perm[x] & 1 for x in range(m**n))


@pytest.mark.parametrize("call, words", [
    (lambda: orbits.twisted_shift(Symmetry((2,), ((0, 1),)), 3, 2), "does not split 3 players"),
    (lambda: orbits.twisted_shift(Symmetry((3,), ((0, 0),)), 3, 2), "permutation of the 2"),
    (lambda: orbits.orbit_search(13, 2), "at most 4096 rounds"),
    (lambda: orbits.best_on_orbits(3, 2, "shift"), "Symmetry"),
])
def test_bad_symmetries_and_worlds_are_refused(call, words):
    with pytest.raises((ValueError, TypeError), match=words):
        call()


def test_orbit_search_stops_at_its_time_limit():
    with pytest.raises(WallClockStop):
        orbits.orbit_search(4, 4, time_limit=0.01)
