"""Smallest announcements as 0/1 matrices: one row per hand, one column per card (ours).

Source: group11_rc §4 asks for the smallest announcements; the model is ours. A safe
announcement of s hands is an s x n matrix with a ones in every row such that

* Rule 1: two rows share at most a - c - 1 ones (`model.max_shared`);
* Rule 2: for every c-set X of columns avoided by some row, the rows avoiding X hold every
  other card somewhere and miss it somewhere (`model.safe_masks`).

Renaming the hands permutes the rows and renaming the cards permutes the columns, so every
announcement has a copy whose rows decrease strictly (hands are distinct) and whose columns
decrease, both lexicographically (Flener, Frisch, Hnich, Kiziltan, Miguel, Pearson and Walsh,
CP 2002: double-lex ordering breaks row and column symmetry together). CP-SAT on this model
has s·n variables instead of one per possible hand, which settles many sizes that the hand
model (`smallest.fewer_hands`) leaves open. Safety is not monotone in the hands, so each size
from the lower bound up is decided on its own (`settle`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from math import comb

from ortools.sat.python import cp_model

from .. import checks
from ..solvers import solve_limited, work_used
from .model import Announcement, check_sizes, is_solution, max_shared

__all__ = ["MATRIX_WORK", "announcement_of_size", "matrix_model", "settle"]

MATRIX_WORK = 100.0  # CP-SAT work units per size
MAX_CELLS = 2000  # s * n: larger matrices are refused (the model grows like s**2 n + C(n, c) s n)
# Rule 2's literals, C(n, c) s (2n + 1): larger models are refused. The matrix run needs at most
# 186,120 (10 + 4 + 2 cards, 47 hands: half a minute to build on a busy core); 849,420
# ((4, 4, 8), 2 hands) took minutes before CP-SAT even started.
MAX_RULE2 = 200_000


def _both(model: cp_model.CpModel, p, q) -> cp_model.IntVar:
    """A literal equal to p AND q."""
    v = model.NewBoolVar("")
    model.AddBoolAnd([p, q]).OnlyEnforceIf(v)
    model.AddBoolOr([p.Not(), q.Not(), v])
    return v


def _lex_at_least(model: cp_model.CpModel, u: Sequence, v: Sequence, strict: bool) -> None:
    """u >= v lexicographically (u > v when strict): while the prefixes agree, u_t >= v_t."""
    agree = model.NewConstant(1)
    for p, q in zip(u, v):
        model.AddBoolOr([agree.Not(), p, q.Not()])  # agree so far => not (p = 0 and q = 1)
        same = model.NewBoolVar("")
        model.Add(p == q).OnlyEnforceIf(same)
        model.Add(p != q).OnlyEnforceIf(same.Not())
        agree = _both(model, agree, same)
    if strict:
        model.Add(agree == 0)


def matrix_model(a: int, b: int, c: int, hands: int) -> tuple[cp_model.CpModel, list[list]]:
    """The rows-by-cards model of a safe announcement of exactly `hands` hands (see above)."""
    n = check_sizes(a, b, c)
    s = checks.integer(hands, "hands", low=1)
    checks.within_budget(f"a {s} x {n} announcement matrix", s * n, MAX_CELLS, unit="cells")
    checks.within_budget(f"Rule 2 on a {s} x {n} matrix", comb(n, c) * s * (2 * n + 1),
                         MAX_RULE2, unit="literals")
    model = cp_model.CpModel()
    x = [[model.NewBoolVar(f"h{r}c{q}") for q in range(n)] for r in range(s)]
    for row in x:
        model.Add(sum(row) == a)
    for u, v in itertools.combinations(x, 2):  # Rule 1
        model.Add(sum(_both(model, p, q) for p, q in zip(u, v)) <= max_shared(a, c))
    for cath in itertools.combinations(range(n), c):  # Rule 2
        avoid = []
        for row in x:
            v = model.NewBoolVar("")
            model.AddBoolAnd([row[q].Not() for q in cath]).OnlyEnforceIf(v)
            model.AddBoolOr([row[q] for q in cath] + [v])
            avoid.append(v)
        seen = model.NewBoolVar("")
        model.AddBoolOr(avoid).OnlyEnforceIf(seen)
        for v in avoid:
            model.AddImplication(v, seen)
        for card in (q for q in range(n) if q not in cath):
            model.AddBoolOr([_both(model, v, row[card]) for v, row in zip(avoid, x)]
                            ).OnlyEnforceIf(seen)
            model.AddBoolOr([_both(model, v, row[card].Not()) for v, row in zip(avoid, x)]
                            ).OnlyEnforceIf(seen)
    for u, v in zip(x, x[1:]):  # rows strictly decreasing
        _lex_at_least(model, u, v, strict=True)
    columns = [list(col) for col in zip(*x)]
    for u, v in zip(columns, columns[1:]):  # columns decreasing
        _lex_at_least(model, u, v, strict=False)
    return model, x


def announcement_of_size(a: int, b: int, c: int, hands: int, work: float = MATRIX_WORK
                         ) -> tuple[str, Announcement, float]:
    """Is there a safe announcement of exactly `hands` hands? ("found", one, work used),
    ("none", (), work) when CP-SAT proves there is none, ("unknown", (), work) when `work`
    units run out first. The answer is the same on every machine (deterministic limit)."""
    work = checks.number(work, "work", low=0.01, high=10_000)
    model, x = matrix_model(a, b, c, hands)
    res = solve_limited(model, work, what=f"a {hands}-hand announcement for {(a, b, c)}")
    used = round(work_used(res), 2)
    if res.infeasible:
        return "none", (), used
    if not res.feasible:
        return "unknown", (), used
    found = tuple(tuple(q for q, v in enumerate(row) if res.value(v)) for row in x)
    if not is_solution(found, a, b, c):
        raise AssertionError(f"the matrix announcement found for {(a, b, c)} fails the verifier")
    return "found", found, used


def settle(row: Mapping, work: float = MATRIX_WORK) -> dict:
    """Decide the sizes lower_bound, lower_bound + 1, ... below `smallest` of one row, in turn:
    each size proved impossible raises the lower bound, the first size found is the smallest.
    Stops at the first size CP-SAT leaves undecided. Returns the row's new bounds and witness
    (None for the witness when no smaller announcement was found) and the sizes decided."""
    if not isinstance(row, Mapping):
        raise checks.ArgumentTypeError(f"a row is a mapping (dict), got {type(row).__name__}")
    a, b, c = (checks.integer(row.get(k), k, low=1) for k in "abc")
    check_sizes(a, b, c)
    best = checks.integer(row.get("smallest"), "smallest", low=1)
    low = checks.integer(row.get("lower_bound"), "lower_bound", low=0, high=best)
    found, used, ruled_out = None, 0.0, []
    for size in range(max(low, 1), best):
        answer, ann, spent = announcement_of_size(a, b, c, size, work)
        used += spent
        if answer == "none":
            ruled_out.append(size)
            low = size + 1
            continue
        if answer == "found":
            found, best, low = ann, size, size
        break
    return {"lower_bound": low, "smallest": best, "proven": low == best, "witness": found,
            "ruled_out": ruled_out, "work_units": round(used, 2)}
