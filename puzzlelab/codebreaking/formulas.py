"""Mastermind as the thesis writes it in propositional logic (Klimoš 2014, Examples 10 and 11).

- `mastermind_by_formulas(pegs, colors)`: the outcome table from Example 11's formulas,
  evaluated on every valuation x_{i,j} (peg i has colour j), to compare with the markers that
  `games.mastermind` counts directly;
- `outcome_clauses(pegs, b, w)`: how many conjunctions Example 10's algorithm writes into
  Outcome(b, w), the count the thesis leaves as "??".
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from .. import checks
from .game_checks import well_formed_table
from .games import check_size, colour_strings

__all__ = ["FORMULA_PAIRS", "mastermind_by_formulas", "outcome_clauses"]

FORMULA_PAIRS = 2 * 10**6  # (guess, code) pairs the formulas are evaluated on (4×6: 1.7e6, seconds)


def mastermind_by_formulas(pegs: int, colors: int) -> np.ndarray:
    """Outcome table of Mastermind from Example 11's formulas, evaluated on every valuation x_{i,j}.

    Outcome (b, t): Exactly_b{f_i($i)} ∧ Exactly_t of {AtLeast_l(x_{1,j},…,x_{n,j}) | l ≤ k_j},
    where k_j is the number of pegs of colour j in the guess. Returns table[guess, code] = index
    of (b, w = t − b) in the order of `mastermind(pegs, colors).outcome_labels`.

    Parameters
    ----------
    pegs : int
        Pegs n: the variables x_{i,j} have i = 1..n.
    colors : int
        Colours m: j = 1..m.

    Returns
    -------
    numpy.ndarray
        table[guess, code], int16.

    Raises
    ------
    ValueError
        If a size is out of range (`check_size`) or there are more than `FORMULA_PAIRS`
        (guess, code) pairs, 2 x 10^6 (4×6 is the largest).

    Examples
    --------
    The thesis's formulas give the markers counted directly:

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> table = mastermind_by_formulas(3, 3)
    >>> bool((table == mastermind(3, 3).outcome_table).all())
    True

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), Example 11.
    """
    pegs, colors = check_size(pegs, colors)
    checks.within_budget(f"Mastermind {pegs}×{colors} by formulas (guess, code) pairs",
                         (colors**pegs) ** 2, FORMULA_PAIRS, unit="pairs", largest="4×6")
    strings = colour_strings(pegs, colors)
    x = strings[:, :, None] - 1 == np.arange(colors)  # x[code, i, j]: peg i has colour j
    pairs = [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b)]
    table = np.zeros((len(strings), len(strings)), dtype=np.int16)
    for g, guess in enumerate(strings):
        f_ii = x[:, np.arange(pegs), guess - 1]  # f_i($i) = x_{i, p[i]}, per code
        blacks = f_ii.sum(1)
        k = np.bincount(guess - 1, minlength=colors)
        per_colour = x.sum(1)  # pegs of colour j in the code
        atleast = [per_colour[:, j] >= l for j in range(colors) for l in range(1, k[j] + 1)]
        totals = np.sum(atleast, axis=0) if atleast else np.zeros(len(strings), int)
        satisfied = np.stack([(blacks == b) & (totals == b + w) for b, w in pairs])
        table[g] = well_formed_table(satisfied[None])[0]
    return table


def outcome_clauses(pegs: int, b: int, w: int, *, drop_contradictions: bool = True) -> int:
    """How many conjunctions Example 10's algorithm puts into Outcome(b, w) (the thesis: '??').

    One per choice of black positions B (|B| = b) and white pairs W ⊆ P × P (|W| = w, a
    partial matching avoiding B). A pair (i, i) gives the clause ¬f_i($i) ∧ f_i($i), which is
    unsatisfiable; `drop_contradictions` leaves those out.

    Parameters
    ----------
    pegs : int
        Pegs, 1 to 8.
    b, w : int
        Black and white markers, b + w ≤ `pegs`.
    drop_contradictions : bool
        Whether to leave out the unsatisfiable clauses.

    Returns
    -------
    int
        The number of conjunctions.

    Raises
    ------
    ValueError
        If `pegs` is out of range, or b or w is negative or b + w exceeds `pegs`.

    Examples
    --------
    On 4 pegs, "0B4W" has the 9 derangements of the pegs; "3B1W" has 4 clauses, one per
    choice of the black pegs, and each pairs the last peg with itself: a contradiction.

    >>> outcome_clauses(4, 0, 4), outcome_clauses(4, 3, 1)
    (9, 0)
    >>> outcome_clauses(4, 3, 1, drop_contradictions=False)
    4

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), Example 10.
    """
    pegs = checks.integer(pegs, "pegs", low=1, high=8)
    b, w = checks.integer(b, "b"), checks.integer(w, "w")
    if b < 0 or w < 0 or b + w > pegs:
        raise ValueError(f"Outcome({b}, {w}) needs 0 ≤ b, w and b + w ≤ {pegs}")
    drop_contradictions = checks.boolean(drop_contradictions, "drop_contradictions")
    count = 0
    for black in combinations(range(pegs), b):
        rest = [p for p in range(pegs) if p not in black]
        for guess_side in combinations(rest, w):
            for code_side in permutations(rest, w):
                if drop_contradictions and any(i == j for i, j in zip(guess_side, code_side)):
                    continue
                count += 1
    return count
