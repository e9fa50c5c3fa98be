"""Announcements from the literature, as generators; every one is checked by the verifier.

* **Sum modulo m** — Anne announces the sum of her cards modulo m (the announcement is every
  a-card hand with the same sum). cordon_franco2012 (Cordón-Franco et al. 2012): informative
  and safe whenever a, b > 2 and c = 1 (m = n or the least prime >= n).
* **Lines of a finite plane** — the lines of the projective plane PG(2, q) (q² + q + 1 cards,
  q + 1 per line) or of the affine plane AG(2, q) (q² cards, q per line). The Fano plane
  PG(2, 2) is the classic 7-hand (3,3,1) announcement; the projective-plane solution and the
  design view are in albert2005 (Albert et al. 2005) and swanson_stinson2014 (Swanson and
  Stinson 2014).

A generator returns an announcement containing Anne's hand (relabelling the cards when the
construction fixes its own labels), or None when its parameters do not fit (a, b, c).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import combinations, product

from .. import checks
from .model import Announcement, Hand, check_hand, hand_sizes, hands_within_budget, is_solution

__all__ = ["first_construction", "is_prime", "plane", "power_sums", "sum_mod"]


def sum_mod(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, m: int | None = None,
) -> Announcement:
    """Every a-card hand whose sum is congruent to the sum of Anne's hand modulo m (default n).

    Parameters
    ----------
    a, b, c : int
        The sizes of the hands; the deck is 0..n-1, n = a + b + c.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), whose sum is announced.
    m : int, optional
        The modulus (default n = a + b + c).

    Returns
    -------
    Announcement
        The hands with Anne's sum modulo m, in lexicographic order (not checked: the verifier
        `is_solution` decides whether it is a solution).

    Raises
    ------
    ValueError
        On invalid sizes or hand, more than `MAX_HANDS` hands, or m below 1.

    Examples
    --------
    For (3,3,1) the sum modulo 7 of 012 gives five hands, informative and safe (Cordón-Franco et
    al.: a, b > 2 and c = 1):

    >>> ann = sum_mod(3, 3, 1)
    >>> ann, is_solution(ann, 3, 3, 1)
    (((0, 1, 2), (0, 4, 6), (1, 3, 6), (1, 4, 5), (2, 3, 5)), True)

    References
    ----------
    Cordón-Franco, van Ditmarsch, Fernández-Duque, Joosten and Soler-Toscano (2012), A secure
    additive protocol for card players, Australasian J. Combinatorics 54.
    """
    n = hands_within_budget(a, b, c, "the sum announcement")
    h = check_hand(hand, a, b, c)
    m = n if m is None else checks.integer(m, "the modulus m", low=1)
    s = sum(h) % m
    return tuple(x for x in combinations(range(n), a) if sum(x) % m == s)


def power_sums(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, p: int | None = None,
) -> Announcement:
    """Every a-card hand whose power sums Σx, Σx², ..., Σx^c agree with Anne's modulo p.

    For a prime p >= n (p > c), two such hands cannot differ in only j <= c cards: the j
    swapped-out and swapped-in cards would have equal power sums 1..j, hence (Newton's
    identities over GF(p)) be the same cards. So the announcement is informative; safety is
    left to the verifier. For c = 1 this is the sum modulo p above.

    Parameters
    ----------
    a, b, c : int
        The hand sizes; c power sums are compared.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), whose power sums are announced.
    p : int, optional
        A prime at least n (default n, which must then be prime).

    Returns
    -------
    Announcement
        The hands with Anne's power sums, in lexicographic order.

    Raises
    ------
    ValueError
        On invalid sizes or hand, more than `MAX_HANDS` hands, or a `p` that is not a prime
        at least n.

    Examples
    --------
    >>> power_sums(3, 3, 1) == sum_mod(3, 3, 1)  # c = 1: the sum modulo 7
    True
    >>> from puzzlelab.russian_cards import is_informative
    >>> ann = power_sums(5, 5, 2, p=13)  # Σx and Σx² modulo 13: informative, not safe
    >>> len(ann), is_informative(ann, 5, 5, 2), is_solution(ann, 5, 5, 2)
    (5, True, False)

    References
    ----------
    The sum announcements of Cordón-Franco et al. (2012), Australasian J. Combinatorics 54,
    extended to c power sums (Newton's identities).
    """
    n = hands_within_budget(a, b, c, "the power-sum announcement")
    h = check_hand(hand, a, b, c)
    p = n if p is None else checks.integer(p, "p", low=2, high=10**6)
    if not is_prime(p) or p < n:
        raise ValueError(f"p must be a prime >= n = {n}, got {p}")

    def key(x: Hand) -> tuple[int, ...]:
        return tuple(sum(pow(q, j, p) for q in x) % p for j in range(1, c + 1))

    target = key(h)
    return tuple(x for x in combinations(range(n), a) if key(x) == target)


def is_prime(q: int) -> bool:
    """Whether q is prime (trial division, q at most 10**12): the planes and sums modulo a prime."""
    q = checks.integer(q, "q", high=10**12)
    return q >= 2 and all(q % d for d in range(2, math.isqrt(q) + 1))


def projective_plane_lines(q: int) -> list[Hand]:
    """Lines of PG(2, q), q prime, as sets of point numbers 0..q²+q."""
    if not is_prime(q):
        raise ValueError(f"only prime orders q are built here, got {q}")
    pts = [v for v in product(range(q), repeat=3) if _normal(v, q) == v and any(v)]
    index = {p: i for i, p in enumerate(pts)}
    lines = set()
    for u in pts:  # the line with normal vector u: points v with u·v = 0
        lines.add(tuple(sorted(index[v] for v in pts if sum(x * y for x, y in zip(u, v)) % q == 0)))
    return sorted(lines)


def _normal(v: tuple[int, ...], q: int) -> tuple[int, ...]:
    """Scale a nonzero vector so that its first nonzero entry is 1 (projective point)."""
    lead = next((x for x in v if x), 0)
    if not lead:
        return v
    inv = pow(lead, -1, q)
    return tuple(x * inv % q for x in v)


def affine_plane_lines(q: int) -> list[Hand]:
    """Lines of AG(2, q), q prime, as sets of point numbers 0..q²-1 (point (x, y) is x·q + y)."""
    if not is_prime(q):
        raise ValueError(f"only prime orders q are built here, got {q}")
    lines = {tuple(sorted(x * q + (s * x + t) % q for x in range(q)))
             for s in range(q) for t in range(q)}
    lines |= {tuple(sorted(x * q + y for y in range(q))) for x in range(q)}
    return sorted(lines)


def relabel(blocks: Sequence[Hand], hand: Hand, n: int) -> Announcement:
    """Rename cards so that the first block becomes `hand` (other cards keep their order)."""
    first = blocks[0]
    rest_old = [p for p in range(n) if p not in first]
    rest_new = [p for p in range(n) if p not in hand]
    perm = dict(zip(first, hand)) | dict(zip(rest_old, rest_new))
    return tuple(sorted(tuple(sorted(perm[p] for p in blk)) for blk in blocks))


def plane(a: int, b: int, c: int, hand: Iterable[int] | None = None) -> Announcement | None:
    """Lines of PG(2, a-1) or AG(2, a) when the deck has exactly their number of points.

    Parameters
    ----------
    a, b, c : int
        The hand sizes: a - 1 prime and n = (a-1)² + (a-1) + 1 (projective plane), or a prime
        and n = a² (affine plane).
    hand : iterable of int, optional
        Anne's hand (default 0..a-1); the cards are relabelled so that a line is her hand.

    Returns
    -------
    Announcement or None
        The lines, or None when (a, b, c) fits neither plane.

    Raises
    ------
    ValueError
        If a size or the hand is invalid, or C(n, a) exceeds `MAX_HANDS`.

    Examples
    --------
    The Fano plane PG(2, 2) is the classic seven-hand (3,3,1) answer:

    >>> plane(3, 3, 1)
    ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5))
    >>> len(plane(3, 5, 1)), plane(3, 4, 1)  # AG(2, 3): 12 lines of 9 points; 8 cards: none
    (12, None)

    References
    ----------
    Albert, Aldred, Atkinson, van Ditmarsch and Handley (2005), Australasian J. Combinatorics 33;
    Swanson and Stinson (2014), Electronic J. Combinatorics 21(3).
    """
    n = hands_within_budget(a, b, c, "the plane announcement")
    h = check_hand(hand, a, b, c)
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's are refused by pow with a modulus)
    q = a - 1
    if is_prime(q) and n == q * q + q + 1:
        return relabel(projective_plane_lines(q), h, n)
    if is_prime(a) and n == a * a:
        return relabel(affine_plane_lines(a), h, n)
    return None


def _generators(n: int, c: int) -> list[tuple[str, Callable[..., Announcement | None]]]:
    """The constructions to try for a deck of n cards, each with the name used in tables."""
    out: list[tuple[str, Callable]] = [("lines of a finite plane", plane)]
    for m in range(n, 2 * n + 1):
        out.append((f"sum mod {m}", partial(_sum_mod_with, m=m)))
    if c > 1:
        for p in filter(is_prime, range(n, 2 * n + 1)):
            out.append((f"power sums 1..{c} mod {p}", partial(_power_sums_with, p=p)))
    return out


def _sum_mod_with(a: int, b: int, c: int, hand: Hand, *, m: int) -> Announcement:
    return sum_mod(a, b, c, hand, m)


def _power_sums_with(a: int, b: int, c: int, hand: Hand, *, p: int) -> Announcement:
    return power_sums(a, b, c, hand, p)


def first_construction(
    a: int, b: int, c: int, hand: Iterable[int] | None = None,
) -> tuple[str, Announcement] | None:
    """The first literature construction that the verifier accepts for (a, b, c), if any.

    Tried in order: the lines of a finite plane (`plane`), sums modulo m for m = n..2n
    (`sum_mod`), and for c > 1 power sums modulo each prime p in n..2n (`power_sums`).

    Parameters
    ----------
    a, b, c : int
        The sizes to build an announcement for.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), contained in the result.

    Returns
    -------
    tuple of (str, Announcement) or None
        The construction's name and its announcement (informative and safe), or None.

    Raises
    ------
    ValueError
        On invalid sizes or hand, or more than `MAX_HANDS` hands.

    Examples
    --------
    >>> first_construction(3, 3, 1)[0], first_construction(4, 4, 1)[0]
    ('lines of a finite plane', 'sum mod 9')
    >>> first_construction(3, 2, 1) is None  # unsolvable (the Steiner lemma)
    True

    References
    ----------
    Albert et al. (2005), Australasian J. Combinatorics 33; Cordón-Franco et al. (2012),
    Australasian J. Combinatorics 54; Swanson and Stinson (2014), Electronic J. Combinatorics 21(3).
    """
    n = hands_within_budget(a, b, c, "the constructions")
    h = check_hand(hand, a, b, c)
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's are refused by pow with a modulus)
    for name, gen in _generators(n, c):
        ann = gen(a, b, c, h)
        if ann and is_solution(ann, a, b, c, h):
            return name, ann
    return None
