"""Lemma E (counting at the (c-1)-sets): measured on real announcements, re-derived by brute
force, and never in conflict with a size that has a witness."""

from __future__ import annotations

import itertools
import random
from math import comb

import pandas as pd
import pytest

from puzzlelab.cache import read_table
from puzzlelab.russian_cards import counting
from puzzlelab.russian_cards.grid import parse_announcement

GRIDS = ["russian_cards_grid", "russian_cards_grid_n17_20"]


def grid_rows() -> pd.DataFrame:
    return pd.concat([read_table(name) for name in GRIDS], ignore_index=True)


def in_reach(r) -> bool:
    return r.a >= r.c + 2 and r.b >= r.c + 1


def test_lemma_e_never_rules_out_a_size_that_has_a_witness():
    rows = grid_rows()
    solved = [r for r in rows.itertuples() if r.status == "solvable" and in_reach(r)]
    tried = [r for r in solved if counting.degree_spreads(r.a, r.b, r.c) is not None]
    assert len(tried) >= 10  # the count has something to say about solvable sizes too
    assert all(counting.counting_proof(r.a, r.b, r.c) is None for r in solved)


def test_every_size_lemma_e_rules_out_is_unsolvable_or_open_in_the_grids():
    rows = grid_rows()
    ruled_out = {(r.a, r.b, r.c): r.status for r in rows.itertuples()
                 if in_reach(r) and counting.counting_proof(r.a, r.b, r.c)}
    assert set(ruled_out.values()) <= {"unsolvable", "open"}
    by_solver = {(r.a, r.b, r.c) for r in rows.itertuples() if r.method.startswith("CP-SAT INF")}
    assert by_solver & set(ruled_out)  # it agrees with CP-SAT on some sizes CP-SAT proved
    assert ruled_out.get((9, 5, 3)) == "open"  # and decides one the grid left open


def test_the_long_cp_sat_attempts_agree_with_lemma_e():
    """CP-SAT, given 3,600 units (data/russian_cards_open_attempts.csv), proves (9,5,3)
    unsolvable case by case, as Lemma E does by counting; the lemma rules out none of the other
    sizes the attempts reached (two of them have announcements the verifier passes)."""
    attempts = read_table("russian_cards_open_attempts")
    verdicts = {(r.a, r.b, r.c): (r.status, r.method) for r in attempts.itertuples()}
    assert verdicts[(9, 5, 3)] == ("unsolvable", "CP-SAT INFEASIBLE in every symmetry case")
    assert {size for size in verdicts if counting.counting_proof(*size)} == {(9, 5, 3)}


def degrees_at(hands: list[frozenset], n: int, b: int, c: int, t: tuple[int, ...]):
    """The blocks through the (c-1)-set t (complements less t) and each other card's degree."""
    blocks = [frozenset(range(n)) - h - set(t) for h in hands if not set(t) & h]
    degree = {z: sum(z in blk for blk in blocks) for z in set(range(n)) - set(t)}
    return blocks, degree


def spread_text(degree: dict) -> str:
    counts = sorted(pd.Series(list(degree.values())).value_counts().items())
    return " ".join(f"{r}^{k}" if k > 1 else str(r) for r, k in counts)


def test_real_announcements_show_a_kept_spread_and_at_least_the_fewest_loose_pairs():
    rng = random.Random(7)
    measured = 0
    for r in grid_rows().itertuples():
        if r.status != "solvable" or not in_reach(r) or not isinstance(r.witness, str):
            continue
        spreads = counting.degree_spreads(r.a, r.b, r.c)
        if spreads is None or len(parse_announcement(r.witness)) > 400:
            continue
        n, lam = r.a + r.b + r.c, r.b - r.c
        hands = [frozenset(h) for h in parse_announcement(r.witness)]
        kept = set(zip(spreads[spreads.kept].d, spreads[spreads.kept].spread))
        sets = list(itertools.combinations(range(n), r.c - 1))
        for t in rng.sample(sets, min(3, len(sets))):
            blocks, degree = degrees_at(hands, n, r.b, r.c, t)
            assert all(len(x & y) <= lam for x, y in itertools.combinations(blocks, 2))
            assert (len(blocks), spread_text(degree)) in kept, (r.a, r.b, r.c, t)
            for z, rz in degree.items():
                through = [blk - {z} for blk in blocks if z in blk]
                loose = sum(len(x & y) < lam - 1 for x, y in itertools.combinations(through, 2))
                assert loose >= counting.fewest_loose(r.a, r.b, r.c, rz)
            measured += 1
    assert measured >= 30


def fewest_loose_by_hand(a: int, b: int, c: int, r: int) -> int | None:
    """Every r residuals of b cards on a + b, any two sharing at most b - c - 1, covering all:
    the fewest pairs sharing fewer than b - c - 1 (None when no such residuals exist)."""
    cards, best = range(a + b), None
    first = frozenset(range(b))  # by symmetry the first residual is 0..b-1
    for rest in itertools.combinations(itertools.combinations(cards, b), r - 1):
        family = [first] + [frozenset(x) for x in rest]
        pairs = [len(x & y) for x, y in itertools.combinations(family, 2)]
        if max(pairs, default=0) <= b - c - 1 and len(frozenset().union(*family)) == a + b:
            loose = sum(p < b - c - 1 for p in pairs)
            best = loose if best is None else min(best, loose)
    return best


@pytest.mark.parametrize("a, b, c, r", [(4, 4, 1, 2), (4, 4, 1, 3), (5, 4, 1, 3), (3, 5, 2, 2),
                                        (4, 5, 2, 2), (6, 3, 1, 3), (5, 3, 1, 3)])
def test_fewest_loose_is_at_most_what_brute_force_finds(a, b, c, r):
    found = fewest_loose_by_hand(a, b, c, r)
    assert found is None or counting.fewest_loose(a, b, c, r) <= found


def test_the_spreads_of_nine_five_three_by_hand():
    """Steps 1-3 for (9, 5, 3) with plain loops: 15 cards of degree >= 3 in blocks of 6, two
    blocks sharing at most 2; a card of degree 3 sees at least 2 loose pairs (its 3 residuals of
    5 cards cover 14, so at most one pair meets), a card of degree >= 4 perhaps none."""
    points, block, lam = 15, 6, 2

    def least_pairs(d: int) -> int:  # sum C(r, 2) of the most even 15 degrees summing 6 d
        q, extra = divmod(block * d, points)
        return (points - extra) * comb(q, 2) + extra * comb(q + 1, 2)

    assert all(least_pairs(d) > lam * comb(d, 2) for d in range(11, 1000))  # d <= 10
    found = []
    for d in range(8, 11):  # 15 cards of degree >= 3 need 6 d >= 45
        for degrees in itertools.combinations_with_replacement(range(3, d + 1), points):
            if sum(degrees) != block * d:
                continue
            deficit = lam * comb(d, 2) - sum(comb(x, 2) for x in degrees)
            if deficit < 0:
                continue
            loose = 2 * degrees.count(3)
            spread = " ".join(f"{x}^{degrees.count(x)}" if degrees.count(x) > 1 else str(x)
                              for x in sorted(set(degrees)))
            found.append((d, spread, deficit, loose, loose <= (lam - 1) * deficit))
    library = counting.degree_spreads(9, 5, 3)
    assert sorted(found) == sorted(library.itertuples(index=False, name=None))
    kept = [row for row in found if row[-1]]
    assert [row[1] for row in kept] == ["4^15"]  # every 3-set in exactly 4 complements
    assert 4 * comb(17, 3) % comb(8, 3) != 0  # so 4 C(17,3) / C(8,3) complements: no such family
    assert counting.counting_proof(9, 5, 3)[0].endswith("design divisibility fails")


@pytest.mark.parametrize("call, words", [
    (lambda: counting.counting_proof(3, 5, 2), "needs a >= c \\+ 2"),
    (lambda: counting.degree_spreads(9, 3, 3), "b >= c \\+ 1"),
    (lambda: counting.fewest_loose(9, 5, 3, 2), "cannot cover the 14 cards"),
    (lambda: counting.counting_proof(9, 0, 3), "at least 1"),
])
def test_bad_sizes_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call()
