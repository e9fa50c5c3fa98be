"""The source's claims checked by computation: Example 10's printed clauses (Klimoš 2014, §2.2).

Example 10 prints the start of the disjunction Outcome(1, 1) for 4 pegs; `clause_report`
checks each printed clause: repeated literals, contradictions, white-marker literals, and
the answers of the codes that satisfy it.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .. import checks
from .games import check_size, colour_strings
from .strings import black_white

__all__ = ["clause_report", "printed_clauses", "printed_outcome_1_1"]

_LITERAL = re.compile(r"(\\neg\s*|¬\s*)?f_\{?(\d+)\}?\(\\?\$(\d+)\)")


def printed_outcome_1_1(text: str) -> str:
    """Example 10's printed start of Outcome(1, 1), cut out of the thesis's text (Klimoš 2014)."""
    checks.text(text, "the thesis's text")
    start = text.find(r"(\neg f_0(\$0)")
    end = text.find(r"\dots", start)
    if start < 0 or end < 0:
        raise ValueError("Example 10's clauses (\\neg f_0(\\$0) … \\dots) are not in the text")
    return text[start:end]


def printed_clauses(text: str) -> list[list[tuple[bool, int, int]]]:
    """Clauses '(¬f_0($0) ∧ … ∧ f_3($3)) ∨ …' (LaTeX or Unicode) as lists of (positive, i, n)."""
    checks.text(text, "clauses")
    clauses = []
    for chunk in re.findall(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)", text):
        literals = [(not neg, int(i), int(n)) for neg, i, n in _LITERAL.findall(chunk)]
        if literals:
            clauses.append(literals)
    if not clauses:
        raise ValueError("no clause of literals f_i($n) found in the text")
    return clauses


def clause_report(text: str, pegs: int = 4, colors: int = 6) -> pd.DataFrame:
    """Example 10's printed Outcome(1,1) clauses checked one by one (indices as printed, from 0).

    For each clause: its literals, a literal repeated, a contradiction (x and ¬x), the
    positive literals, whether one is a white-marker literal f_j($i) with i ≠ j (Outcome(1,1)
    needs one), an earlier identical clause, and the answers (b, w) of the codes that satisfy it
    when the guess is 1, 2, …, pegs (distinct colours; f_i($n) = "peg i of the code has colour
    p[n]").
    """
    pegs, colors = check_size(pegs, colors)
    if colors < pegs:
        raise ValueError(f"the guess 1..{pegs} needs at least {pegs} colours, got {colors}")
    guess = np.arange(1, pegs + 1, dtype=np.int8)[None, :]
    strings = colour_strings(pegs, colors)
    black, white = black_white(guess, strings, colors)
    rows, seen = [], {}
    for k, clause in enumerate(printed_clauses(text), 1):
        if any(i >= pegs or n >= pegs for _, i, n in clause):
            raise ValueError(
                f"clause {k} refers to a peg beyond {pegs - 1} (indices are printed from 0)"
            )
        holds = np.ones(len(strings), dtype=bool)
        for positive, i, n in clause:
            holds &= (strings[:, i] == guess[0, n]) == positive
        key = frozenset(clause)
        answers = sorted({f"{b}B{w}W" for b, w in zip(black[0][holds], white[0][holds])})
        rows.append(
            {
                "clause": k,
                "literals": len(clause),
                "repeated literal": len(set(clause)) < len(clause),
                "contradiction": any((not p, i, n) in clause for p, i, n in clause),
                "positive literals": " ".join(f"f{i}(${n})" for p, i, n in clause if p),
                "white literal f_j($i), i≠j": any(p and i != n for p, i, n in clause),
                "same as clause": seen.get(key, ""),
                "answers of the codes satisfying it": (
                    ", ".join(answers) if answers else "none (unsatisfiable)"
                ),
            }
        )
        seen.setdefault(key, k)
    return pd.DataFrame(rows)
