"""Hands, announcements and the two combinatorial rules of the generalized Russian Cards problem.

Source: group11_rc (sections 2.2 and 3). Anne, Bill and Cath hold a, b and c of the cards
0..n-1 (n = a + b + c). Anne announces a set of a-card hands that contains her own; Bill then
announces Cath's hand. We call an announcement

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

The public API speaks tuples of cards. Internally a hand is a bit mask (`puzzlelab.bitsets`);
the mask-level helpers (`subset_masks`, `informative_masks`, `safe_masks`, ...) are shared by
the solver modules and are not part of the public surface.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from math import comb

from .. import checks
from ..bitsets import bits, from_bits, full

__all__ = [
    "Announcement", "Hand", "MAX_FORMULA_CARDS", "MAX_HANDS", "all_hands", "check_announcement",
    "check_hand", "check_sizes", "counting_lower_bound", "covering_counts", "design_divisible",
    "hand_sizes",
    "holding_bound", "holding_counts", "is_informative", "is_safe", "is_solution",
    "packing_upper_bound", "parse_hand", "views",
]

Hand = tuple[int, ...]
"""A hand: its cards (ints 0..n-1) in increasing order, e.g. `(0, 1, 2)` (group11_rc §2.1)."""
Announcement = tuple[Hand, ...]
"""An announcement: Anne's "my hand is one of these", its hands in lexicographic order
(group11_rc §2.1, §3); `check_announcement` makes one."""

# The most a-card hands a table, a search or a CP-SAT model may be built over: every cell of a
# grid with n <= 20 cards fits (C(20, 10) = 184 756 hands).
MAX_HANDS = 200_000
# The largest deck the counting formulas (covering, holding, Johnson's bound) and a listed hand
# may have: they loop card by card over numbers that grow with the deck.
MAX_FORMULA_CARDS = 10_000


# -- sizes, hands and validation ----------------------------------------------------------
def hand_sizes(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Validate the hand sizes (integers >= 1, numpy's too) and return them as Python ints."""
    return (checks.integer(a, "hand size a", low=1), checks.integer(b, "hand size b", low=1),
            checks.integer(c, "hand size c", low=1))


def check_sizes(a: int, b: int, c: int) -> int:
    """Validate the hand sizes (integers >= 1); the deck size n = a + b + c (group11_rc §2.2).

    Parameters
    ----------
    a, b, c : int
        The numbers of cards of Anne, Bill and Cath (numpy integers are accepted).

    Returns
    -------
    int
        The number of cards n = a + b + c, as a Python int.

    Raises
    ------
    ValueError
        If a size is not an integer (`checks.ArgumentTypeError`, also a `TypeError`) or is
        below 1.

    Examples
    --------
    >>> check_sizes(3, 3, 1)  # the original problem: seven cards
    7
    >>> check_sizes(3, 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: hand size b must be an integer at least 1, got 0

    References
    ----------
    The generalized problem (a, b, c): group11_rc (the Russian Cards report, source document 000),
    section 2.2.
    """
    return sum(hand_sizes(a, b, c))


def hands_within_budget(a: int, b: int, c: int, what: str) -> int:
    """n, after refusing sizes whose C(n, a) hands exceed MAX_HANDS (before any work)."""
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    checks.within_budget(f"{what} for {(a, b, c)}", checks.binomial(n, a), MAX_HANDS,
                         unit="hands", largest="C(n, a) <= 200000, e.g. every size with n <= 20")
    return n


def cards_within_budget(a: int, b: int, c: int, what: str) -> int:
    """n, after refusing decks of more than MAX_FORMULA_CARDS cards (formulas that loop over
    the cards of a hand, or list one)."""
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    checks.within_budget(f"{what} for {(a, b, c)}", n, MAX_FORMULA_CARDS, unit="cards")
    return n


def cards(m: int) -> Hand:
    """The sorted cards of a hand given as a bit mask."""
    return tuple(bits(m))


@lru_cache(maxsize=64)
def subset_masks(n: int, k: int) -> tuple[int, ...]:
    """All k-subsets of 0..n-1 as masks, in lexicographic order of their sorted cards."""
    return tuple(from_bits(s) for s in combinations(range(n), k))


def all_hands(n: int, k: int) -> list[Hand]:
    """All k-card hands from cards 0..n-1, in lexicographic order."""
    n = checks.integer(n, "n", low=0)
    k = checks.integer(k, "k", low=0, high=n)
    checks.within_budget(f"all {k}-card hands of {n} cards", checks.binomial(n, k), MAX_HANDS,
                         unit="hands")
    return list(combinations(range(n), k))


def check_hand(hand: Iterable[int] | str | None, a: int, b: int, c: int) -> Hand:
    """Validate Anne's hand (default 0..a-1): a distinct cards in 0..n-1; return it sorted.

    Parameters
    ----------
    hand : iterable of int, str or None
        Anne's cards; a string is read by `parse_hand` ('012' or '0, 1, 12'); None is the hand
        0..a-1 that the report's solver assumes.
    a, b, c : int
        The hand sizes (`check_sizes`).

    Returns
    -------
    Hand
        The cards in increasing order, as Python ints.

    Raises
    ------
    ValueError
        If the sizes are invalid, a card is not an integer, is listed twice or lies outside
        0..n-1, the hand does not have a cards, or the string cannot be read.

    Examples
    --------
    >>> check_hand("012", 3, 3, 1), check_hand([6, 0, 3], 3, 3, 1), check_hand(None, 4, 4, 1)
    ((0, 1, 2), (0, 3, 6), (0, 1, 2, 3))
    >>> check_hand([0, 1, 7], 3, 3, 1)
    Traceback (most recent call last):
    ...
    ValueError: cards [7] are outside the deck 0..6

    References
    ----------
    The deal of group11_rc (source document 000), sections 2.1-2.2; Anne's hand 0123 is the input
    of the report's (4,4,1) example (section 4).
    """
    n = check_sizes(a, b, c)
    if hand is None:
        cards_within_budget(a, b, c, "Anne's hand 0..a-1")
        return tuple(range(a))
    if isinstance(hand, str):
        hand = parse_hand(hand)
    h = tuple(sorted(_cards_of(hand, "Anne's hand")))
    if len(set(h)) != len(h):
        raise ValueError(f"hand {h} lists a card twice")
    if len(h) != a:
        raise ValueError(f"Anne's hand must have a = {a} cards, got {len(h)}: {h}")
    bad = [q for q in h if not 0 <= q < n]
    if bad:
        raise ValueError(f"cards {bad} are outside the deck 0..{n - 1}")
    return h


def _cards_of(hand: object, what: str) -> tuple[int, ...]:
    """The cards of a hand as Python ints; non-integer cards (2.7, True, '3') are refused."""
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise checks.ArgumentTypeError(
            f"{what} must be a collection of card numbers, got {hand!r}")
    return checks.integers(list(hand), f"a card of {what}", low=0)


def hand_lists(ann: object) -> list[tuple[int, ...]]:
    """The hands of an announcement as tuples of non-negative ints (no size check)."""
    if isinstance(ann, (str, bytes)) or not isinstance(ann, Iterable):
        raise checks.ArgumentTypeError(
            f"an announcement must be a collection of hands, got {ann!r}")
    return [_cards_of(h, "an announced hand") for h in ann]


def parse_hand(text: str) -> list[int]:
    """Read '0123' (one digit per card) or '0, 1, 12' / '0 1 12' (separated numbers)."""
    parts = checks.text(text, "hand").replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdecimal() and parts[0].isascii():
        return [int(ch) for ch in parts[0]]
    if parts and all(p.isdecimal() and p.isascii() for p in parts):
        return [int(p) for p in parts]
    raise ValueError(f"a hand must be card numbers such as '0123' or '0, 1, 12', got {text!r}")


def check_announcement(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int,
    hand: Iterable[int] | None = None,
) -> Announcement:
    """Validate an announcement: distinct a-card hands from the deck, containing `hand` if given.

    Parameters
    ----------
    announcement : iterable of iterables of int
        The hands Anne announces ("my hand is one of these").
    a, b, c : int
        The hand sizes (`check_sizes`).
    hand : iterable of int, optional
        Anne's actual hand, which a truthful announcement must contain (`check_hand`).

    Returns
    -------
    Announcement
        The hands, each sorted, in lexicographic order.

    Raises
    ------
    ValueError
        If the sizes are invalid, the announcement is not a collection of hands or is empty, a
        hand is not a set of a distinct cards of 0..n-1, a hand is listed twice, or `hand` is
        given and not announced.

    Examples
    --------
    >>> check_announcement([(6, 5, 0), (0, 1, 2)], 3, 3, 1)
    ((0, 1, 2), (0, 5, 6))
    >>> check_announcement([(0, 1, 2), (0, 5, 6)], 3, 3, 1, hand=(1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: the announcement does not contain Anne's hand (1, 2, 3)

    References
    ----------
    Announcements as sets of hands: group11_rc (source document 000), sections 2.1 and 3; van
    Ditmarsch (2003), Studia Logica 75.
    """
    n = check_sizes(a, b, c)
    if isinstance(announcement, (str, bytes)) or not isinstance(announcement, Iterable):
        raise checks.ArgumentTypeError(
            f"an announcement must be a collection of hands, got {announcement!r}")
    hs = [tuple(sorted(_cards_of(h, "an announced hand"))) for h in announcement]
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
    """Rule 1 on masks: every two hands share at most a - c - 1 cards (pairwise, or, for long
    announcements, as "no (a-c)-set of cards lies in two hands": the same rule, faster)."""
    k = max_shared(a, c)
    if k < 0 or len(L) <= 2 * comb(a, k + 1):
        return all((h & g).bit_count() <= k for h, g in combinations(L, 2))
    seen: set[int] = set()
    for h in L:
        for part in combinations([1 << q for q in range(h.bit_length()) if h >> q & 1], k + 1):
            m = sum(part)
            if m in seen:
                return False
            seen.add(m)
    return True


def safe_masks(L: Sequence[int], n: int, c: int, *, every_c_set: bool = False) -> bool:
    """Rule 2 on masks: for each c-set X, hands avoiding X cover the rest and share no card.

    With `every_c_set=False` (the semantics), c-sets avoided by no hand are skipped (no deal
    has Cath holding them); with True (the report's literal wording) they make the rule fail.
    """
    deck = full(n)
    for x in subset_masks(n, c):
        union, inter, seen = 0, deck, False
        for h in L:
            if not h & x:
                union |= h
                inter &= h
                seen = True
        if not seen:
            if every_c_set:
                return False
            continue
        if inter or union != deck & ~x:
            return False
    return True


def _safety_within_budget(n: int, c: int, hands: int) -> None:
    """Refuse a Rule-2 check over more (c-set, hand) pairs than a few seconds' worth (each
    pair a step on masks of n bits: one machine word per 64 cards)."""
    checks.within_budget(f"Rule 2 over C({n},{c}) c-sets and {hands} hands",
                         checks.binomial(n, c) * max(hands, 1) * -(-n // 64), 5 * 10**7,
                         unit="checks")


def is_informative(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int,
    hand: Iterable[int] | None = None,
) -> bool:
    """Rule 1 (group11_rc §3): Bill learns Anne's hand in every deal where the announcement holds.

    Pairwise form: every two announced hands share at most a - c - 1 cards (module docstring).

    Parameters
    ----------
    announcement : iterable of iterables of int
        The hands Anne announces.
    a, b, c : int
        The hand sizes.
    hand : iterable of int, optional
        Anne's hand, checked to be announced.

    Returns
    -------
    bool
        Whether the announcement is informative.

    Raises
    ------
    ValueError
        On an invalid announcement or hand (`check_announcement`).

    Examples
    --------
    The seven lines of the Fano plane, the classic (3,3,1) answer, share one card pairwise; a
    hand sharing two cards with 012 breaks the rule:

    >>> fano = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    >>> is_informative(fano, 3, 3, 1), is_informative([(0, 1, 2), (0, 1, 3)], 3, 3, 1)
    (True, False)

    References
    ----------
    group11_rc (source document 000), section 3, Rule 1; van Ditmarsch (2003), Studia Logica 75.
    """
    L = check_announcement(announcement, a, b, c, hand)
    return informative_masks([from_bits(h) for h in L], a, c)


def is_safe(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int,
    hand: Iterable[int] | None = None,
) -> bool:
    """Rule 2 (group11_rc §3): in every deal where it is true, Cath learns no card's owner.

    Parameters
    ----------
    announcement, a, b, c, hand
        As in `is_informative`.

    Returns
    -------
    bool
        Whether the announcement is safe: for each c-set Cath may hold, the hands avoiding it
        cover the other cards and have no card in common.

    Raises
    ------
    ValueError
        On an invalid announcement or hand (`check_announcement`), or a check over more (c-set,
        hand) pairs than a few seconds' worth.

    Examples
    --------
    >>> fano = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    >>> is_safe(fano, 3, 3, 1)
    True
    >>> is_safe(fano[:4], 3, 3, 1)  # Cath holding 1 keeps 034 and 056: Bill must hold 2
    False

    References
    ----------
    group11_rc (source document 000), section 3, Rule 2; Albert et al. (2005), Australasian J.
    Combinatorics 33.
    """
    n = check_sizes(a, b, c)
    L = check_announcement(announcement, a, b, c, hand)
    _safety_within_budget(n, c, len(L))
    return safe_masks([from_bits(h) for h in L], n, c)


def is_solution(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int,
    hand: Iterable[int] | None = None,
) -> bool:
    """Informative and safe: a two-step solution (Anne announces, Bill replies Cath's hand).

    Parameters
    ----------
    announcement, a, b, c, hand
        The announcement, hand sizes and Anne's hand, as `is_informative` takes them.

    Returns
    -------
    bool
        `is_informative` and `is_safe`.

    Raises
    ------
    ValueError
        On an invalid announcement or hand (`check_announcement`), or a Rule-2 check too large.

    Examples
    --------
    The report's (4,4,1) output for Anne's hand 0123 (section 4) is a solution:

    >>> report = "0123 0145 0167 0246 0257 0347 0356 1247 1256 1346 1357 2345 2368 4578"
    >>> is_solution([[int(q) for q in h] for h in report.split()], 4, 4, 1, hand="0123")
    True

    References
    ----------
    group11_rc (source document 000), sections 3-4; the two-step protocols of Albert et al. (2005),
    Australasian J. Combinatorics 33.
    """
    return is_informative(announcement, a, b, c, hand) and is_safe(announcement, a, b, c, hand)


# -- what each player still considers possible (the report's appendix) --------------------
def views(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, who: str,
) -> dict[Hand, list[Hand]]:
    """For every hand Bill (who='B') or Cath (who='C') might hold, Anne's announced hands left.

    Parameters
    ----------
    announcement : iterable of iterables of int
        Anne's announced hands, in any order.
    a, b, c : int
        The sizes of the three hands.
    who : {'B', 'C'}
        Whose view: Bill's or Cath's.

    Returns
    -------
    dict
        Each b-card (or c-card) hand of 0..n-1, in lexicographic order, mapped to the announced
        hands disjoint from it (those Anne may hold in that player's eyes).

    Raises
    ------
    ValueError
        On an invalid announcement, a `who` other than 'B' or 'C', or a view too large to list.

    Examples
    --------
    After the Fano announcement, Bill holding 345 knows Anne's hand; Cath holding 0 keeps four
    hands:

    >>> fano = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    >>> views(fano, 3, 3, 1, "B")[(3, 4, 5)]
    [(0, 1, 2)]
    >>> views(fano, 3, 3, 1, "C")[(0,)]
    [(1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]

    References
    ----------
    The appendix of group11_rc (source document 000): the hands each player considers possible.
    """
    n = check_sizes(a, b, c)
    L = check_announcement(announcement, a, b, c)
    k = {"B": b, "C": c}[checks.choice(who, "who", ("B", "C"))]
    held = all_hands(n, k)
    _safety_within_budget(n, k, len(L))
    return {x: [h for h in L if not set(h) & set(x)] for x in held}


def covering_counts(a: int, b: int, c: int) -> list[int]:
    """r_j for j = 0..c: how many hands any safe announcement has avoiding each j-set of cards
    (r_0 is its size), by the covering lemma (group11_rc §3, Rule 2; proved in the notebook).

    Every c-set X is avoided by some hand (Rule 2 read over every c-set), and the hands
    avoiding X contain and miss each other card: at least r_c = max(2, ceil((n - c) / a),
    ceil((n - c) / b)) of them. Their complements (b + c cards each) cover every (c+1)-set, so
    counting pairs (card y outside a j-set J, complement containing J and y) gives
    r_j >= ceil((n - j) r_{j+1} / (b + c - j)), the Schönheim recursion for coverings.
    """
    n = cards_within_budget(a, b, c, "the covering counts")
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's uint8 wraps round below 0)
    r = [0] * c + [max(2, -(-(n - c) // a), -(-(n - c) // b))]
    for j in range(c - 1, -1, -1):
        r[j] = -(-(n - j) * r[j + 1] // (b + c - j))
    return r


def holding_counts(a: int, b: int, c: int) -> list[int]:
    """q_j for j = 0..c: how many hands of any safe announcement hold a card y and avoid a
    j-set J without y (q_0: hands holding y), by the holding lemma (proved in the notebook).

    Rule 2 gives q_c = 1: for every c-set X and card y outside it some hand avoiding X holds y.
    Counting pairs (card z outside J and y, hand holding y avoiding J and z) gives
    q_j >= ceil((n - 1 - j) q_{j+1} / (n - a - j)): such a hand misses n - a - j other cards.
    """
    n = cards_within_budget(a, b, c, "the holding counts")
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's uint8 wraps round below 0)
    q = [0] * c + [1]
    for j in range(c - 1, -1, -1):
        q[j] = -(-(n - 1 - j) * q[j + 1] // (n - a - j))
    return q


def holding_bound(a: int, b: int, c: int) -> int:
    """ceil(n q_0 / a): every card is held by q_0 hands (`holding_counts`), a cards per hand."""
    n = cards_within_budget(a, b, c, "the holding bound")
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's uint8 wraps round below 0)
    return -(-n * holding_counts(a, b, c)[0] // a)


def packing_upper_bound(a: int, b: int, c: int) -> int:
    """Johnson's bound (1962, IRE Trans. Information Theory 8) on an informative announcement:
    every (a - c)-set lies in at most one hand, so |L| <= floor(n/a floor((n-1)/(a-1) ...))."""
    n = cards_within_budget(a, b, c, "Johnson's bound")
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's uint8 wraps round below 0)
    bound = 1
    for j in range(a - c - 1, -1, -1):  # hands through j fixed cards, innermost first
        bound = (n - j) * bound // (a - j)
    return bound


def counting_lower_bound(a: int, b: int, c: int) -> int:
    """A lower bound on the size of any safe announcement: the larger of r_0 (`covering_counts`)
    and ceil(n q_0 / a) (`holding_counts`: every card is held by q_0 hands of a cards each).

    r_0 is at least the one-step double count |L| C(n - a, c) >= C(n, c) m (each hand avoids
    C(n - a, c) c-sets, each c-set is avoided by m >= max(2, ceil((n - c) / a)) hands).
    """
    return max(covering_counts(a, b, c)[0], holding_bound(a, b, c))


def design_divisible(t: int, k: int, v: int, lam: int = 1) -> bool:
    """The divisibility conditions of a t-(v, k, lam) design (lam = 1: a Steiner system
    S(t, k, v)): lam C(v - i, t - i) / C(k - i, t - i) whole for i < t (Lemmas C and E)."""
    t = checks.integer(t, "t", low=1, high=10_000)
    k = checks.integer(k, "k", low=t, high=10_000)
    v = checks.integer(v, "v", low=k, high=10_000)
    lam = checks.integer(lam, "lam", low=1, high=10**9)
    return all(lam * comb(v - i, t - i) % comb(k - i, t - i) == 0 for i in range(t))
