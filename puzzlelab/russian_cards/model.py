"""Hands, announcements and the two combinatorial rules of the generalized Russian Cards problem.

Source: the student report ``000_0345cfe31a1e6c99.txt`` (sections 2.2 and 3). Anne, Bill and
Cath hold a, b and c of the cards 0..n-1 (n = a + b + c). Anne announces a set of a-card
hands that contains her own; Bill then announces Cath's hand. We call an announcement

* **informative** (the report's Rule 1) when Bill learns Anne's hand in *every* deal in which
  the announcement is true. Bill with hand B keeps the announced hands disjoint from B, i.e.
  inside the a + c cards he does not hold. Two announced hands H, H' are both kept by some
  Bill iff |H ∪ H'| <= a + c, i.e. |H ∩ H'| >= a - c. So the announcement is informative iff
  **every two announced hands share at most a - c - 1 cards** (the pairwise form of Rule 1).
* **safe** (the report's Rule 2) when Cath learns the owner of no card she does not hold, in
  every deal in which the announcement is true. Cath with hand X keeps the announced hands
  avoiding X; she does not know who holds card y iff some kept hand contains y (Anne may
  hold it) and some kept hand misses y (Bill may hold it). So the announcement is safe iff
  for every c-set X avoided by some hand, the hands avoiding X **cover the other n - c cards
  and have no card in common**.

Internally a hand is a bit mask (bit q set = card q); the public API speaks tuples.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb

Hand = tuple[int, ...]
Announcement = tuple[Hand, ...]


# -- sizes, hands and validation ----------------------------------------------------------
def as_int(v: object, what: str) -> int:
    """`v` as a Python int: any integer type (numpy's too) is accepted; bools, floats, text are not."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return operator.index(v)


def sizes(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Validate the hand sizes (integers >= 1) and return them as Python ints."""
    out = []
    for name, v in (("a", a), ("b", b), ("c", c)):
        v = as_int(v, f"hand size {name}")
        if v < 1:
            raise ValueError(f"hand size {name} must be at least 1, got {v}")
        out.append(v)
    return out[0], out[1], out[2]


def check_sizes(a: int, b: int, c: int) -> int:
    """Validate the hand sizes (integers >= 1) and return the deck size n = a + b + c."""
    return sum(sizes(a, b, c))


def mask(hand: Iterable[int]) -> int:
    """The bit mask of a set of cards."""
    m = 0
    for q in hand:
        m |= 1 << q
    return m


def cards(m: int) -> Hand:
    """The sorted cards of a bit mask."""
    out, q = [], 0
    while m:
        if m & 1:
            out.append(q)
        m >>= 1
        q += 1
    return tuple(out)


@lru_cache(maxsize=None)
def subset_masks(n: int, k: int) -> tuple[int, ...]:
    """All k-subsets of 0..n-1 as masks, in lexicographic order of their sorted cards."""
    return tuple(mask(s) for s in combinations(range(n), k))


def all_hands(n: int, k: int) -> list[Hand]:
    """All k-card hands from 0..n-1 in lexicographic order."""
    return list(combinations(range(n), k))


def check_hand(hand: Iterable[int] | None, a: int, b: int, c: int) -> Hand:
    """Validate Anne's hand (default 0..a-1): a distinct cards in 0..n-1; return it sorted."""
    n = check_sizes(a, b, c)
    if hand is None:
        return tuple(range(a))
    if isinstance(hand, str):
        hand = parse_hand(hand)
    h = tuple(sorted(_cards_of(hand, "a hand")))
    if len(set(h)) != len(h):
        raise ValueError(f"hand {h} lists a card twice")
    if len(h) != a:
        raise ValueError(f"Anne's hand must have a = {a} cards, got {len(h)}: {h}")
    bad = [q for q in h if not 0 <= q < n]
    if bad:
        raise ValueError(f"cards {bad} are outside the deck 0..{n - 1}")
    return h


def _cards_of(hand: object, what: str) -> list[int]:
    """The cards of a hand as Python ints; non-integer cards (2.7, True, '3') are rejected."""
    try:
        items = list(hand)  # type: ignore[call-overload]
    except TypeError:
        raise ValueError(f"{what} must be a collection of card numbers, got {hand!r}") from None
    bad = [q for q in items if isinstance(q, bool) or not isinstance(q, numbers.Integral)]
    if bad:
        raise ValueError(f"cards must be integers, got {bad[0]!r} in {what} {hand!r}")
    return [operator.index(q) for q in items]


def parse_hand(text: str) -> list[int]:
    """Read '0123' (one digit per card) or '0, 1, 12' / '0 1 12' (separated numbers)."""
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdigit():
        return [int(ch) for ch in parts[0]]
    if parts and all(p.isdigit() for p in parts):
        return [int(p) for p in parts]
    raise ValueError(f"a hand must be card numbers such as '0123' or '0, 1, 12', got {text!r}")


def check_announcement(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, hand: Iterable[int] | None = None
) -> Announcement:
    """Validate an announcement (distinct a-card hands from the deck; contains `hand` if given)."""
    n = check_sizes(a, b, c)
    try:
        items = list(announcement)
    except TypeError:
        raise ValueError("an announcement must be a collection of hands (collections of cards)") from None
    hs = [tuple(sorted(_cards_of(h, "an announced hand"))) for h in items]
    if not hs:
        raise ValueError("an announcement must contain at least one hand")
    for h in hs:
        if len(set(h)) != len(h) or len(h) != a:
            raise ValueError(f"announced hand {h} is not a set of a = {a} distinct cards")
        if not all(0 <= q < n for q in h):
            raise ValueError(f"announced hand {h} has cards outside the deck 0..{n - 1}")
    if len(set(hs)) != len(hs):
        raise ValueError("an announcement lists the same hand twice")
    if hand is not None:
        h = check_hand(hand, a, b, c)
        if h not in hs:
            raise ValueError(f"the announcement does not contain Anne's hand {h}")
    return tuple(sorted(hs))


# -- the two rules ------------------------------------------------------------------------
def max_shared(a: int, c: int) -> int:
    """Rule 1's bound: two announced hands may share at most a - c - 1 cards."""
    return a - c - 1


def informative_masks(L: Sequence[int], a: int, c: int) -> bool:
    """Rule 1 on masks: every two hands share at most a - c - 1 cards."""
    k = max_shared(a, c)
    return all((h & g).bit_count() <= k for h, g in combinations(L, 2))


def safe_masks(L: Sequence[int], n: int, c: int, *, every_c_set: bool = False) -> bool:
    """Rule 2 on masks: for each c-set X, hands avoiding X cover the rest and share no card.

    With `every_c_set=False` (the semantics), c-sets avoided by no hand are skipped (no deal
    has Cath holding them); with True (the report's literal wording) they make the rule fail.
    """
    full = (1 << n) - 1
    for x in subset_masks(n, c):
        union, inter, seen = 0, full, False
        for h in L:
            if not h & x:
                union |= h
                inter &= h
                seen = True
        if not seen:
            if every_c_set:
                return False
            continue
        if inter or union != full & ~x:
            return False
    return True


def is_informative(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, hand: Iterable[int] | None = None
) -> bool:
    """Rule 1 (report §3): Bill learns Anne's hand in every deal where the announcement is true."""
    L = check_announcement(announcement, a, b, c, hand)
    return informative_masks([mask(h) for h in L], a, c)


def is_safe(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, hand: Iterable[int] | None = None
) -> bool:
    """Rule 2 (report §3): in every deal where it is true, Cath learns the owner of no card."""
    n = check_sizes(a, b, c)
    L = check_announcement(announcement, a, b, c, hand)
    return safe_masks([mask(h) for h in L], n, c)


def is_solution(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, hand: Iterable[int] | None = None
) -> bool:
    """Informative and safe: a two-step solution (Anne announces, Bill replies Cath's hand)."""
    return is_informative(announcement, a, b, c, hand) and is_safe(announcement, a, b, c, hand)


# -- what each player still considers possible (the report's appendix) --------------------
def views(announcement: Iterable[Iterable[int]], a: int, b: int, c: int, who: str) -> dict[Hand, list[Hand]]:
    """For every hand Bill (who='B') or Cath (who='C') might hold, Anne's announced hands left."""
    n = check_sizes(a, b, c)
    L = check_announcement(announcement, a, b, c)
    k = {"B": b, "C": c}.get(who)
    if k is None:
        raise ValueError(f"who must be 'B' or 'C', got {who!r}")
    return {x: [h for h in L if not set(h) & set(x)] for x in all_hands(n, k)}


def packing_bound(a: int, b: int, c: int) -> int:
    """Largest possible informative announcement: each (a-c)-set lies in at most one hand."""
    n = check_sizes(a, b, c)
    t = a - c
    return comb(n, t) // comb(a, t) if t > 0 else 1


def iter_announcement_masks(L: Iterable[Hand]) -> Iterator[int]:
    """Masks of an announcement's hands."""
    return (mask(h) for h in L)


def counting_lower_bound(a: int, b: int, c: int) -> int:
    """A lower bound on the size of any safe announcement, by double counting.

    Every c-set X Cath may hold must be avoided by m >= 2 hands whose union is the other
    n - c cards, so m >= max(2, ceil((n - c) / a)); each hand avoids C(n - a, c) c-sets.
    Hence |L| * C(n - a, c) >= C(n, c) * m.
    """
    n = check_sizes(a, b, c)
    m = max(2, -(-(n - c) // a))
    return -(-comb(n, c) * m // comb(n - a, c))
