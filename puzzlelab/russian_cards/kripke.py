"""An independent check of Rules 1 and 2 by explicit epistemic model checking.

The model of group11_rc §2.1-2.2: one world per deal (Anne's, Bill's, Cath's hands), each player
distinguishing deals by her own hand. Anne's announcement "my hand is one of L" is the public
announcement of K_A φ with φ = "Anne's hand is in L" (Anne sees her hand, so K_A φ = φ);
Bill's reply "Cath holds X" is the announcement of K_B(Cath holds X). We evaluate the report's
formulas (1)-(3) with :mod:`puzzlelab.epistemic`, never with the combinatorial rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from math import factorial

import numpy as np

from .. import checks
from ..epistemic import KripkeModel
from .model import (
    Hand, all_hands, check_announcement, check_hand, check_sizes, hand_sizes, is_informative,
    is_safe,
)

__all__ = [
    "AGENTS", "Deal", "MAX_DEALS", "MAX_WORLDS", "ModelCheck", "agreement", "deal_model",
    "deals", "model_check", "random_announcements",
]

Deal = tuple[Hand, Hand, Hand]
AGENTS = ("A", "B", "C")
MAX_DEALS = 2_000_000   # deals listed at most (a few hundred MB of tuples)
MAX_WORLDS = 60_000     # worlds of an explicit Kripke model at most (every (a, b, c) with n <= 12)


def deal_count(a: int, b: int, c: int) -> int:
    """n! / (a! b! c!): the number of deals."""
    a, b, c = hand_sizes(a, b, c)
    return factorial(a + b + c) // (factorial(a) * factorial(b) * factorial(c))


def deals(a: int, b: int, c: int) -> list[Deal]:
    """Every deal of cards 0..n-1 into hands of sizes a, b, c (n! / (a! b! c!) of them).

    Parameters
    ----------
    a, b, c : int
        The sizes of Anne's, Bill's and Cath's hands.

    Returns
    -------
    list of Deal
        (Anne's hand, Bill's hand, Cath's hand) triples, Anne's hand in lexicographic order
        first, then Bill's.

    Raises
    ------
    ValueError
        On invalid sizes, or more than `MAX_DEALS` deals.

    Examples
    --------
    >>> all_deals = deals(3, 3, 1)
    >>> len(all_deals), all_deals[0]  # 7! / (3! 3! 1!) = 140
    (140, ((0, 1, 2), (3, 4, 5), (6,)))

    References
    ----------
    Deals as functions from cards to players: group11_rc (source document 000), section 2.1.
    """
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    checks.within_budget(f"listing the deals of {(a, b, c)}", checks.multinomial((a, b, c)),
                         MAX_DEALS, unit="deals")
    out = []
    for h_a in combinations(range(n), a):
        rest = [q for q in range(n) if q not in h_a]
        for h_b in combinations(rest, b):
            out.append((h_a, h_b, tuple(q for q in rest if q not in h_b)))
    return out


def deal_model(a: int, b: int, c: int) -> KripkeModel:
    """The initial Kripke model: worlds are deals, player i sees only hand i.

    Parameters
    ----------
    a, b, c : int
        The sizes of the three hands.

    Returns
    -------
    puzzlelab.epistemic.KripkeModel
        One world per deal (`deals`); agents 'A', 'B', 'C', each unable to tell apart two deals
        that give her the same hand. Cached: equal sizes return the same model.

    Raises
    ------
    ValueError
        On invalid sizes, or more than `MAX_WORLDS` worlds (every size with n <= 12 fits).

    Examples
    --------
    >>> deal_model(3, 3, 1)
    KripkeModel(140 worlds, agents ['A', 'B', 'C'])

    References
    ----------
    The epistemic model of group11_rc (source document 000), sections 2.1-2.2; van Ditmarsch
    (2003), Studia Logica 75.
    """
    a, b, c = hand_sizes(a, b, c)
    checks.within_budget(f"the Kripke model of {(a, b, c)}", checks.multinomial((a, b, c)),
                         MAX_WORLDS, unit="worlds", largest="every (a, b, c) with n <= 12 cards")
    return _deal_model(a, b, c)


@lru_cache(maxsize=8)
def _deal_model(a: int, b: int, c: int) -> KripkeModel:
    return KripkeModel.from_observations(
        deals(a, b, c), {p: (lambda w, i=i: w[i]) for i, p in enumerate(AGENTS)}
    )


def knows_hand(m: KripkeModel, agent: str, owner: int) -> frozenset:
    """Worlds where `agent` knows the hand of player number `owner` (formulas (1), (2))."""
    return m.knows_value(agent, lambda w: w[owner])


def cath_ignorant(m: KripkeModel, n: int) -> frozenset:
    """Formula (3): for every card q, Cath knows neither 'Anne holds q' nor 'Bill holds q'."""
    good = m.worlds
    for q in range(n):
        holds_a = m.prop(lambda w: q in w[0])
        holds_b = m.prop(lambda w: q in w[1])
        good = good - m.knows("C", holds_a) - m.knows("C", holds_b)
    return good


@dataclass(frozen=True)
class ModelCheck:
    """Truth of the report's conditions in the model after the announcements (`model_check`).

    Attributes
    ----------
    b_knows_a : bool
        Formula (1), Bill knows Anne's hand, in every world after Anne's announcement.
    c_ignorant : bool
        Formula (3), Cath knows no card's owner, in every world after Anne's announcement.
    common_c_ignorant : bool
        Common knowledge of A, B and C of formula (3) in every world after the announcement.
    anne_hand_safe : bool
        Anne knows that common knowledge at the worlds where she holds her hand.
    after_reply : bool
        After each reply of Bill's ("Cath holds X"): Anne and Bill know each other's hands and
        Cath is ignorant, everywhere, and Bill can make a reply in every deal.
    informative : bool
        `b_knows_a` (Rule 1 in the model).
    safe : bool
        `common_c_ignorant` (Rule 2 in the model).

    Examples
    --------
    >>> fano = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    >>> check = model_check(fano, 3, 3, 1)
    >>> check.informative, check.safe, check.after_reply
    (True, True, True)

    References
    ----------
    Formulas (1)-(3) of group11_rc (source document 000), section 2.2.
    """

    b_knows_a: bool           # BknowsA in every world after Anne's announcement
    c_ignorant: bool          # Cignorant in every world after Anne's announcement
    common_c_ignorant: bool   # C_ABC Cignorant in every world after Anne's announcement
    anne_hand_safe: bool      # K_A C_ABC Cignorant at the worlds where Anne holds `hand`
    after_reply: bool         # after Bill's reply: AknowsB, BknowsA and Cignorant everywhere

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def informative(self) -> bool:
        return self.b_knows_a

    @property
    def safe(self) -> bool:
        return self.common_c_ignorant


def model_check(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, hand: Iterable[int] | None = None
) -> ModelCheck:
    """Announce `announcement` in the deal model and evaluate formulas (1)-(3) and their CK.

    Independent of Rules 1 and 2: Anne's announcement is the public announcement of K_A φ
    (φ: "Anne's hand is announced"); Bill's reply of K_B(Cath holds X); every condition is a
    formula evaluated in `puzzlelab.epistemic`.

    Parameters
    ----------
    announcement : iterable of iterables of int
        The hands Anne announces.
    a, b, c : int
        The hand sizes (the model must fit `MAX_WORLDS`).
    hand : iterable of int, optional
        Anne's hand, which must be announced (default: the first announced hand).

    Returns
    -------
    ModelCheck
        The truth of each condition.

    Raises
    ------
    ValueError
        On invalid sizes, announcement or hand, a hand not announced, or a model too large.

    Examples
    --------
    Five hands through 012 that break Rule 1 (012 and 013 share two cards): Bill holding 456
    keeps both, so he does not always learn Anne's hand.

    >>> check = model_check([(0, 1, 2), (0, 1, 3), (2, 4, 5), (3, 4, 6), (0, 5, 6)], 3, 3, 1)
    >>> check.b_knows_a, check.after_reply
    (False, False)

    References
    ----------
    group11_rc (source document 000), sections 2.1-2.2 (formulas (1)-(3)); public announcement
    logic as in van Ditmarsch (2003), Studia Logica 75.
    """
    m0 = deal_model(a, b, c)
    n = a + b + c
    L = set(check_announcement(announcement, a, b, c))
    h = check_hand(hand, a, b, c) if hand is not None else min(L)
    if h not in L:
        raise ValueError(f"the announcement does not contain Anne's hand {h}")
    m1 = m0.announce(m0.knows("A", m0.prop(lambda w: w[0] in L)))
    b_knows = knows_hand(m1, "B", 0)
    ignorant = cath_ignorant(m1, n)
    common = m1.common_knowledge(AGENTS, ignorant)
    anne_worlds = m1.prop(lambda w: w[0] == h)
    anne_safe = anne_worlds <= m1.knows("A", common)
    return ModelCheck(
        b_knows_a=m1.everywhere(b_knows),
        c_ignorant=m1.everywhere(ignorant),
        common_c_ignorant=m1.everywhere(common),
        anne_hand_safe=anne_safe,
        after_reply=_after_reply(m1, n),
    )


def _after_reply(m1: KripkeModel, n: int) -> bool:
    """Bill announces K_B(Cath holds X) for each X he can know; check the final conditions."""
    covered: frozenset = frozenset()
    for x in sorted({w[2] for w in m1.worlds}):
        told = m1.knows("B", m1.prop(lambda w: w[2] == x))
        if not told:
            return False  # in no world can Bill truthfully tell Cath's hand X
        covered |= told
        m2 = m1.announce(told)
        if not (
            m2.everywhere(knows_hand(m2, "A", 1))
            and m2.everywhere(knows_hand(m2, "B", 0))
            and m2.everywhere(cath_ignorant(m2, n))
        ):
            return False
    return covered == m1.worlds  # in every deal Bill can make his reply


def agreement(
    announcements: Iterable[Iterable[Iterable[int]]], a: int, b: int, c: int,
) -> dict[str, int]:
    """Model check each announcement and compare with Rules 1 and 2: counts of (dis)agreement."""
    deal_model(a, b, c)  # validates the sizes and the model's budget
    if isinstance(announcements, (str, bytes)) or not isinstance(announcements, Iterable):
        raise checks.ArgumentTypeError(
            f"announcements must be a collection of announcements, got {announcements!r}")
    counts = dict(announcements=0, informative=0, safe=0, solutions=0, disagreements=0,
                  safe_for_anne_only=0)
    for ann in announcements:
        ann = check_announcement(ann, a, b, c)
        mc = model_check(ann, a, b, c)
        rule1, rule2 = is_informative(ann, a, b, c), is_safe(ann, a, b, c)
        counts["announcements"] += 1
        counts["informative"] += rule1
        counts["safe"] += rule2
        counts["solutions"] += rule1 and rule2
        agree = (mc.informative == rule1 and mc.safe == rule2 == mc.c_ignorant
                 and mc.after_reply == (rule1 and rule2))
        counts["disagreements"] += not agree
        # K_A C_ABC Cignorant where Anne holds the first hand, although Cignorant fails elsewhere
        counts["safe_for_anne_only"] += mc.anne_hand_safe and not mc.safe
    return counts


def random_announcements(
    a: int, b: int, c: int, count: int, seed: int = 0, max_hands: int = 12,
) -> list[list[Hand]]:
    """`count` random announcements (1..max_hands distinct hands), seeded."""
    hands = all_hands(check_sizes(a, b, c), hand_sizes(a, b, c)[0])
    count = checks.integer(count, "count", low=0, high=100_000)
    seed = checks.seed(seed)
    max_hands = checks.integer(max_hands, "max_hands", low=1, high=1000)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        k = int(rng.integers(1, min(max_hands, len(hands)) + 1))
        out.append([hands[i] for i in sorted(rng.choice(len(hands), size=k, replace=False))])
    return out
