"""Symmetry-broken CP-SAT cases: the two most-overlapping hands fixed, then lex-leader constraints.

Source: group11_rc §3 (Rules 1 and 2); the design view of albert2005 (Albert, Aldred, Atkinson,
van Ditmarsch and Handley 2005: an informative announcement is a packing).

**Case lemma.** Let L be informative and safe (so |L| >= 2) and let k be the largest number of
cards two of its hands share. Relabelling the cards maps L to an informative and safe
announcement, so we may take the two hands to be H0 = {0..a-1} and H1 = {0..k-1, a..2a-k-1}.
Then (i) L contains H0 and H1 and (ii) *every* two hands of L share at most k cards: every
(k+1)-set lies in at most one hand (a packing, stronger than Rule 1's (a-c)-sets when k < a-c-1).
The permutations G of the cards that map {H0, H1} to itself keep (i) and (ii); choosing L
lexicographically largest in its G-orbit (hands in lexicographic order, 1 before 0) gives
(iii) L >=lex σ(L) for every σ in G. We impose (iii) for the generators of G: the adjacent
transpositions inside the four classes of interchangeable cards (in both hands, only in H0,
only in H1, in neither) and the swap of H0 with H1. So (a, b, c) is solvable iff one case
k = max(0, 2a-n) .. a-c-1 is feasible, and a proof of INFEASIBLE in every case proves that
no announcement exists. `reference.in_case` checks (i)-(iii) directly (the tests use it
against exhaustive enumeration).

`add_counting` adds the counting lemmas of `model` as redundant linear constraints (every
j-set avoided by r_j hands, every card held by q_0 hands, at most so many hands); they hold
for every informative and safe announcement and are invariant under relabelling, so the case
lemma still applies to a case model that carries them (`smallest.fewer_hands`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import from_bits
from ..solvers import check_model
from .model import (
    cards, check_sizes, covering_counts, hand_sizes, hands_within_budget, holding_counts,
    packing_upper_bound, subset_masks,
)
from .search import add_packing, add_rule2, rule2_size

__all__ = ["add_counting", "case_hand_masks", "case_literals", "case_model", "case_range"]


def case_range(a: int, b: int, c: int) -> range:
    """The possible largest overlaps k of two hands of an informative announcement."""
    n = check_sizes(a, b, c)
    a, b, c = hand_sizes(a, b, c)  # Python ints (numpy's uint8 wraps round below 0)
    return range(max(0, 2 * a - n), max(0, a - c))


def case_hands(a: int, k: int) -> tuple[int, int]:
    """H0 = {0..a-1} and H1 = {0..k-1, a..2a-k-1} as bit masks."""
    return from_bits(range(a)), from_bits([*range(k), *range(a, 2 * a - k)])


def generators(a: int, n: int, k: int) -> list[list[int]]:
    """Card permutations generating the stabiliser of {H0, H1} (as lists: card -> image)."""
    classes = [range(0, k), range(k, a), range(a, 2 * a - k), range(2 * a - k, n)]
    gens = []
    for cl in classes:
        for i, j in zip(cl, cl[1:]):
            p = list(range(n))
            p[i], p[j] = j, i
            gens.append(p)
    p = list(range(n))
    for i, j in zip(range(k, a), range(a, 2 * a - k)):
        p[i], p[j] = j, i
    if a > k:
        gens.append(p)
    return gens


def permute(p: Sequence[int], h: int) -> int:
    """The image of the hand (mask) h under the card permutation p."""
    return from_bits(p[q] for q in cards(h))


def lex_pairs(hands: Sequence[int], p: Sequence[int]) -> list[tuple[int, int]]:
    """Positions (i, j) with hand j = p(hand i), i < j, in order: x >=lex x∘p compares these."""
    pos = {h: i for i, h in enumerate(hands)}
    out = []
    for i, h in enumerate(hands):
        j = pos[permute(p, h)]
        if j > i:
            out.append((i, j))
    return out


def case_hand_masks(a: int, b: int, c: int, k: int) -> list[int]:
    """The hands of case k (bit masks): H0, H1 and every hand sharing at most k cards with each."""
    n = hands_within_budget(a, b, c, "the symmetry-case model")
    a = hand_sizes(a, b, c)[0]
    k = checks.integer(k, "k")
    if k not in case_range(a, b, c):
        raise ValueError(f"k must lie in {case_range(a, b, c)} for {(a, b, c)}, got {k}")
    h0, h1 = case_hands(a, k)
    return [h for h in subset_masks(n, a)
            if h in (h0, h1) or ((h & h0).bit_count() <= k and (h & h1).bit_count() <= k)]


def case_literals(a: int, b: int, c: int, k: int) -> int:
    """The literals of Rule 2's clauses in case k's model (`search.rule2_size`), counted
    without building it: the size that decides whether the case model fits in memory, often
    far below the whole model's (`solver.rule2_literals`)."""
    a, b, c = hand_sizes(a, b, c)
    hands = np.array(case_hand_masks(a, b, c, k), dtype=np.int64)
    return rule2_size(hands, a + b + c, a, c)


def case_model(
    a: int, b: int, c: int, k: int, *, lex: bool = True,
) -> tuple[cp_model.CpModel, list, list[int]]:
    """CP-SAT model of case k (see the module docstring); returns (model, variables, hands)."""
    n = hands_within_budget(a, b, c, "the symmetry-case model")
    hands = case_hand_masks(a, b, c, k)  # checks k
    k = checks.integer(k, "k")
    h0, h1 = case_hands(a, k)
    arr = np.array(hands, dtype=np.int64)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"h{i}") for i in range(len(hands))]
    model.add(x[hands.index(h0)] == 1)
    model.add(x[hands.index(h1)] == 1)
    add_packing(model, arr, n, k + 1)  # (ii): every two hands share at most k cards
    add_rule2(model, arr, n, c)
    if checks.boolean(lex, "lex"):
        for p in generators(a, n, k):
            _add_lex(model, x, lex_pairs(hands, p))
    return model, x, hands


def add_counting(model: cp_model.CpModel, x: list, arr: np.ndarray, a: int, b: int, c: int,
                 most: int | None = None) -> None:
    """The counting lemmas as linear constraints on hands `arr` (variable x[i] = hand i), after
    "at most `most` hands" (default: Johnson's packing bound)."""
    check_model(model)
    n = hands_within_budget(a, b, c, "the counting constraints")
    arr = _hand_masks(arr, n)
    if (isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != len(arr)
            or not all(isinstance(v, cp_model.LinearExpr) for v in x)):
        raise checks.ArgumentTypeError(f"x must be a list of one model variable per hand "
                                       f"({len(arr)}), got {x!r}")
    most = None if most is None else checks.integer(most, "most", low=0)
    avoid, hold = covering_counts(a, b, c), holding_counts(a, b, c)
    model.add(sum(x) <= (packing_upper_bound(a, b, c) if most is None else most))
    for j in range(1, c + 1):  # each j-set is avoided by r_j hands
        for s in subset_masks(n, j):
            model.add(sum(x[i] for i in np.nonzero((arr & s) == 0)[0]) >= avoid[j])
    for y in range(n):  # each card is held by q_0 hands
        model.add(sum(x[i] for i in np.nonzero((arr >> y) & 1)[0]) >= hold[0])


def _hand_masks(arr: object, n: int) -> np.ndarray:
    """Hands as a 1-D integer array of masks of n cards."""
    if not isinstance(arr, np.ndarray) or arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(
            f"arr must be a 1-D integer array of hand masks, got {arr!r}")
    if arr.size and (arr.min() < 0 or int(arr.max()) >> n):
        raise ValueError(f"arr must hold hands of the cards 0..{n - 1}")
    return arr


def _add_lex(model: cp_model.CpModel, x: list, pairs: list[tuple[int, int]]) -> None:
    """x >=lex x∘p, given the compared positions; mirror positions are implied and skipped.

    eq_i is *defined* as "pairs 1..i are all equal" (both directions), so every solution of the
    model is fixed by its x: the tests enumerate the model's solutions and compare them with
    `in_case`.
    """
    prev = None
    for i, j in pairs:
        v, w = x[i], x[j]
        ct = model.add_implication(w, v)  # v >= w while every earlier pair is equal
        if prev is not None:
            ct.only_enforce_if(prev)
        eq = model.new_bool_var("")  # eq <=> prev and (v <=> w)
        guard = [] if prev is None else [prev.Not()]
        model.add_bool_or([eq, v, w, *guard])
        model.add_bool_or([eq, v.Not(), w.Not(), *guard])
        model.add_bool_or([eq.Not(), v.Not(), w])
        model.add_bool_or([eq.Not(), v, w.Not()])
        if prev is not None:
            model.add_implication(eq, prev)
        prev = eq
