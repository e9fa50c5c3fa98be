"""The slice method (hats.slices): orbit enumeration by Burnside's lemma, the method against
exhaustive optima in small worlds, and the cached certificate for N = 4, M = 3."""

import itertools
import math
import time

import numpy as np
import pytest

from puzzlelab.cache import read_table
from puzzlelab.hats import optima, slices
from puzzlelab.hats.sets import achievable_mask, valid_lost_mask
from puzzlelab.solvers import WallClockStop


def _orbits_by_size_burnside(k: int, m: int, most: int) -> list[int]:
    """Orbits of sets of each size: average over the group of prod over cycles of (1 + x^len)."""
    perms = slices.point_permutations(k, m)
    total = np.zeros(m**k + 1, dtype=object)
    for perm in perms:
        seen, poly = set(), np.zeros(m**k + 1, dtype=object)
        poly[0] = 1
        for start in range(m**k):
            if start in seen:
                continue
            length, p = 0, start
            while p not in seen:
                seen.add(p)
                p, length = int(perm[p]), length + 1
            shifted = np.zeros_like(poly)
            shifted[length:] = poly[:-length]
            poly = poly + shifted
        total += poly
    return [int(t) // len(perms) for t in total[: most + 1]]


def test_group_sizes_and_permutations():
    for k, m in [(2, 2), (2, 3), (3, 3), (3, 2)]:
        perms = slices.point_permutations(k, m)
        assert len(perms) == math.factorial(k) * math.factorial(m) ** k
        assert (np.sort(perms, axis=1) == np.arange(m**k)).all()  # each row a permutation
        assert len({row.tobytes() for row in perms}) == len(perms)  # all distinct


@pytest.mark.parametrize("k,m,most", [(2, 3, 9), (3, 2, 8), (3, 3, 6)])
def test_orbit_counts_match_burnside(k, m, most):
    levels = slices.slice_orbits(k, m, most)
    assert [len(level) for level in levels] == _orbits_by_size_burnside(k, m, most)


def test_canonical_is_least_image_and_orbit_invariant():
    rng = np.random.default_rng(7)
    masks = rng.integers(0, 1 << 27, size=40, dtype=np.int64)
    perms = slices.point_permutations(3, 3)
    canon = slices.canonical(masks, 3, 3)
    for mask, c in zip(masks[:5], canon[:5]):
        images = [sum(1 << int(perm[p]) for p in range(27) if mask >> p & 1) for perm in perms]
        assert int(c) == min(images)
    moved = np.array([sum(1 << int(perms[99][p]) for p in range(27) if x >> p & 1)
                      for x in masks], dtype=np.int64)
    assert (slices.canonical(moved, 3, 3) == canon).all()


def test_uncovered_against_the_lost_set_test():
    # a lost set with nothing uncovered is exactly a valid lost set (every other round served)
    rng = np.random.default_rng(3)
    for _ in range(200):
        lost = int(rng.integers(0, 1 << 9))
        assert (slices.uncovered(lost, 2, 3) == 0) == valid_lost_mask(lost, 2, 3)


@pytest.mark.parametrize("n,m", [(3, 2), (4, 2), (5, 2), (2, 3), (3, 3)])
def test_slice_method_finds_the_exhaustive_optimum(n, m):
    best = optima.optimum(n, m)  # exhaustive or construction meeting a bound
    fewest_lost = m**n - best
    ruled_out, _ = slices.slice_certificate(n, m, fewest_lost - 1)
    assert ruled_out
    not_ruled, table = slices.slice_certificate(n, m, fewest_lost)
    assert not not_ruled and (table.ruled_out == "FEASIBLE").any()


def test_world_too_large_is_refused():
    with pytest.raises(ValueError, match="too many to enumerate"):
        slices.refute(5, 3, 80)
    with pytest.raises(ValueError, match="lost"):
        slices.refute(4, 3, -1)


def test_cached_certificate_for_three_colours_four_players():
    table = read_table("hats_slice_certificate")
    opt = read_table("hats_optima").set_index(["n_players", "n_colors"])
    best = int(opt.lower[(4, 3)])
    lost = 81 - best - 1
    assert bool(opt.proven[(4, 3)]) and opt.upper[(4, 3)] == best
    assert achievable_mask(int(opt.witness_hex[(4, 3)], 16), 4, 3)
    # the certificate lists every canonical slice of at most lost // 3 rounds, once
    levels = slices.slice_orbits(3, 3, lost // 3)
    listed = np.array([int(h, 16) for h in table.slice_hex], dtype=np.int64)
    assert sorted(listed) == sorted(itertools.chain.from_iterable(levels))
    assert table.ruled_out.isin(["counting", "CP-SAT INFEASIBLE"]).all()
    # counting rows: recompute the uncovered rounds and the bound
    counted = table[table.ruled_out == "counting"]
    for r in counted.sample(300, random_state=0).itertuples():
        u = slices.uncovered(int(r.slice_hex, 16), 3, 3).bit_count()
        assert u == r.uncovered and r.slice_size + 2 * max(r.slice_size, u) > lost
    # solver rows: re-solve a seeded sample
    solved = table[table.ruled_out == "CP-SAT INFEASIBLE"]
    for r in solved.sample(40, random_state=0).itertuples():
        again = slices.refute_slice(4, 3, int(r.slice_hex, 16), lost)
        assert again == "CP-SAT INFEASIBLE"


def test_slice_step_stops_at_the_time_limit():
    """Under a short wall-clock limit the slice proof is not run to the end: open, and says why."""
    b = optima.optimum_bounds(4, 3, time_limit=0.5, search_steps=100)
    assert not b.proven and b.proof.kind == "open" and "time limit" in b.method


def test_orbit_enumeration_stops_at_its_deadline():
    """The canonical slices of N = 3, M = 5 take tens of seconds: a passed deadline stops them at
    the first size (the slice step once overran its time limit here by the whole enumeration)."""
    with pytest.raises(WallClockStop, match="size 0 of 14"):
        slices.slice_orbits(2, 5, 14, deadline=time.monotonic())
    with pytest.raises(ValueError, match="deadline must be a number or None"):
        slices.slice_orbits(2, 5, 14, deadline=b"\x00")  # found by the seeded fuzz sample


def test_optimum_bounds_without_proof_skips_the_slice_step(monkeypatch):
    """prove=False (the 'optimal' preset of a world outside the cached table) runs no slice proof;
    N = 4, M = 3 reaches that step with it (orbit search and CP-SAT stubbed out for speed)."""
    calls = []
    monkeypatch.setattr(optima, "orbit_search", lambda n, m, time_limit: (0, None))  # no better
    monkeypatch.setattr(optima, "cpsat_bounds", lambda n, m, seconds, hint, deterministic_limit:
                        ("UNKNOWN", None, None))
    monkeypatch.setattr(optima, "slice_certificate", lambda n, m, lost, deadline:
                        calls.append(n) or (False, None))
    without = optima.optimum_bounds(4, 3, search_steps=100, time_limit=None, prove=False)
    assert calls == [] and achievable_mask(without.witness, 4, 3)
    with_proof = optima.optimum_bounds(4, 3, search_steps=100, time_limit=None)
    assert calls == [4] and with_proof.witness == without.witness
