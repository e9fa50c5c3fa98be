"""Lemma E: counting at the (c-1)-sets of cards rules out sizes Lemmas A-D leave (ours).

The complements of an informative and safe announcement's hands (b + c cards each) share at
most b - 1 cards pairwise (Rule 1) and cover every (c+1)-set of cards; every c-set lies in at
least r_c of them (`model.covering_counts`, proved in the notebook). Fix a (c-1)-set T. The
complements through T, less T, are d *blocks* of b + 1 cards on the a + b + 1 others, any two
sharing at most lam = b - c cards; a card z lies in r_z >= r_c blocks, and those blocks less z
are *residuals* of b cards covering the a + b cards left, any two sharing at most lam - 1.

1. sum r_z = (b + 1) d, and sum C(r_z, 2) counts the cards shared by pairs of blocks, so the
   *deficit* lam C(d, 2) - sum C(r_z, 2) = sum over pairs of (lam - shared) is >= 0.
2. r residuals of b cards cover a + b cards with e = r b - (a + b) cards to spare; pairwise
   they share at most the most a spread of those e extra memberships gives, so some pairs
   share fewer than lam - 1 cards (their blocks fewer than lam): `fewest_loose` of them.
3. Such a *loose* pair of blocks sharing q < lam cards adds lam - q to the deficit and is seen
   from q <= (lam - 1)(lam - q) cards z: sum over z of the loose pairs seen is at most
   (lam - 1) times the deficit.
4. A spread of degrees (r_z) failing 1 or 3 is impossible (`degree_spreads`). If none is left,
   no announcement exists. If every spread left gives all cards one degree rho, each c-set lies
   in exactly rho complements (neighbouring (c-1)-sets see the same c-set), so the complements
   form a c-(n, b + c, rho) design, whose divisibility conditions must hold (`counting_proof`).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from math import comb

import pandas as pd

from .. import checks
from .model import covering_counts, design_divisible, hand_sizes

__all__ = ["MAX_SPREADS", "SPREAD_COLUMNS", "counting_proof", "degree_spreads", "fewest_loose"]

MAX_SPREADS = 100_000  # degree spreads one size may have; more and the lemma is not tried
SPREAD_COLUMNS = ["d", "spread", "deficit", "loose_seen", "kept"]


def fewest_loose(a: int, b: int, c: int, r: int) -> int:
    """The fewest pairs among r residuals (b cards covering the a + b cards off a c-set, any two
    sharing at most b - c - 1) that share fewer than b - c - 1 cards (step 2)."""
    a, b, c = hand_sizes(a, b, c)
    r = checks.integer(r, "r", low=1, high=10**6)
    spare = r * b - (a + b)
    if spare < 0:
        raise ValueError(f"{r} residuals of {b} cards cannot cover the {a + b} cards off a c-set")
    most_each = b - c - 1
    if r == 1 or most_each <= 0:
        return 0
    full, rest = divmod(spare, r - 1)  # a card in all r residuals takes r - 1 spare places
    most_shared = full * comb(r, 2) + comb(rest + 1, 2)
    return max(0, comb(r, 2) - most_shared // most_each)


def degree_spreads(a: int, b: int, c: int) -> pd.DataFrame | None:
    """Every spread of degrees (r_z) a (c-1)-set's blocks may have, with its deficit and the
    loose pairs seen (steps 1-3); None when the degrees are not bounded (b + 1)**2 <= lam P, or
    the spreads exceed `MAX_SPREADS`. Needs a >= c + 2 and b >= c + 1 (else Lemmas A and B)."""
    a, b, c = _sizes(a, b, c)
    spreads = _spreads(a, b, c)
    if spreads is None:
        return None
    return pd.DataFrame([(d, _text(spread), deficit, seen, kept)
                         for d, spread, deficit, seen, kept in spreads], columns=SPREAD_COLUMNS)


def counting_proof(a: int, b: int, c: int) -> tuple[str, str] | None:
    """Lemma E's name and numbers when steps 1-4 rule out (a, b, c), else None."""
    a, b, c = _sizes(a, b, c)
    spreads = _spreads(a, b, c)
    if spreads is None:
        return None
    kept = [row for row in spreads if row[-1]]
    if not kept:
        return ("lemma: counting at (c-1)-sets",
                f"Lemma E: none of the {len(spreads)} spreads of degrees at a {c - 1}-set "
                f"survives the deficit count")
    if any(len(spread) > 1 for _, spread, *_ in kept):
        return None  # a spread with two degrees or more: no design follows
    degrees = {spread[0][0] for _, spread, *_ in kept}
    n = a + b + c
    for rho in sorted(degrees):
        if design_divisible(c, b + c, n, rho):
            return None
    rho = ", ".join(str(x) for x in sorted(degrees))
    return ("lemma: counting at (c-1)-sets, design divisibility fails",
            f"Lemma E: every c-set would lie in exactly {rho} complements, a {c}-({n},{b + c},"
            f"{rho}) design, whose divisibility conditions fail")


def _sizes(a: int, b: int, c: int) -> tuple[int, int, int]:
    a, b, c = hand_sizes(a, b, c)
    if a < c + 2 or b < c + 1:
        raise ValueError(f"Lemma E needs a >= c + 2 and b >= c + 1 (Lemmas A and B rule out "
                         f"({a}, {b}, {c}))")
    return a, b, c


@lru_cache(maxsize=1024)  # behind the checks of the public functions
def _spreads(a: int, b: int, c: int) -> list[tuple] | None:
    points, block, lam = a + b + 1, b + 1, b - c
    least = covering_counts(a, b, c)[c]
    if block * block <= lam * points:
        return None  # the second moment does not bound d
    low = -(-points * least // block)
    high = points * (block - lam) // (block * block - lam * points)
    rows: list[tuple] = []
    for d in range(max(low, 1), high + 1):
        for spread in _degree_multisets(points, block * d, least, d, lam * comb(d, 2)):
            if len(rows) >= MAX_SPREADS:
                return None
            deficit = lam * comb(d, 2) - sum(k * comb(r, 2) for r, k in spread)
            seen = sum(k * fewest_loose(a, b, c, r) for r, k in spread)
            rows.append((d, spread, deficit, seen, seen <= (lam - 1) * deficit))
    return rows


def _degree_multisets(points: int, total: int, least: int, most: int,
                      pair_cap: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Multisets of `points` degrees in least..most summing to `total` with sum C(r, 2) <=
    pair_cap, as (degree, count) pairs, smallest degree first."""
    def even_pairs(k: int, s: int) -> Fraction:  # the least sum C(r, 2) of k degrees summing s
        q, extra = divmod(s, k)
        return Fraction((k - extra) * comb(q, 2) + extra * comb(q + 1, 2))

    def grow(r: int, k: int, s: int, cap: int, chosen: tuple) -> Iterator[tuple]:
        if k == 0:
            if s == 0:
                yield chosen
            return
        if r > most or not k * r <= s <= k * most or even_pairs(k, s) > cap:
            return
        for used in range(min(k, s // r), -1, -1):
            rest = chosen + ((r, used),) if used else chosen
            yield from grow(r + 1, k - used, s - used * r, cap - used * comb(r, 2), rest)

    yield from grow(least, points, total, pair_cap, ())


def _text(spread: tuple[tuple[int, int], ...]) -> str:
    """A spread as degree^count words: '3^13 4 5' is 13 cards of degree 3, one of 4, one of 5."""
    return " ".join(f"{r}^{k}" if k > 1 else str(r) for r, k in spread)

