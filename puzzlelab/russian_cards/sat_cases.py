"""The symmetry cases as CNF for a SAT solver: a third round on the open sizes.

Source: group11_rc §3 (Rules 1 and 2), with the case lemma of `symmetry.py`.

A case model for CP-SAT costs about 150 bytes a literal, so the last case of (11,6,3), with
145,406,100 literals, cannot be built on a machine of 24 GB. The same clauses given straight
to a SAT solver take about a quarter of that. `case_cnf` writes case k of (a, b, c) as CNF over
the variables 1..len(hands), one per hand of `symmetry.case_hand_masks`, in its order:

* the units H0 and H1 (`symmetry.case_hands`);
* the packing, every (k+1)-set of cards in at most one announced hand (`search.packing_groups`),
  pairwise for at most `PAIRWISE` hands and otherwise with a sequential counter (Sinz 2005,
  CP), whose auxiliary variables follow the hands';
* Rule 2's clauses (`search.rule2_clauses`), the same clauses as in the CP-SAT model;
* the lex-leader constraints x >=lex x∘p for the generators p of `symmetry.generators`, with
  "pairs 1..i all equal" variables defined both ways, as `symmetry._add_lex` defines them, so
  that every model of the CNF is fixed by its hand variables.

`solve_case_sat` gives the clauses to Kissat 4.0 or CaDiCaL 1.9 (Biere, Fazekas, Fleury and
Heisinger 2020, SAT Competition 2020) through PySAT (Ignatiev, Morgado and Marques-Silva 2018,
SAT), with a budget of conflicts per case: a single-threaded run, so a budget gives the same
verdict every time. Kissat in PySAT reports no statistics, so a round records its cost in CPU
seconds.

**The third round** (`sat_row`) gives each size the second round left open `SAT_CONFLICTS`
conflicts per case, from the case where that round stopped (`open_cases.stuck_at`), each case
built when its clauses hold at most `SAT_LITERALS` literals. An INFEASIBLE case is an
UNSAT answer of one solver; the tests check both solvers against the grid and CP-SAT.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from pysat.solvers import Solver

from .. import checks
from .grid import format_announcement
from .model import Announcement, cards, hand_sizes
from .open_cases import FocusEnd, check_attempts, one_large_case, round_method
from .orbits import verified_witness
from .search import packing_groups, rule2_clauses
from .symmetry import case_hand_masks, case_hands, case_literals, case_range, generators, lex_pairs

__all__ = ["PAIRWISE", "SAT_COLUMNS", "SAT_CONFLICTS", "SAT_LITERALS", "SAT_SOLVERS", "at_most_one",
           "case_cnf", "check_sat_round", "lex_leader", "sat_cases", "sat_row", "solve_case_sat"]

SAT_SOLVERS = ("kissat404", "cadical195")  # PySAT's names: Kissat 4.0.4, CaDiCaL 1.9.5
SAT_CONFLICTS = 200_000  # Kissat conflicts per case in the third round (minutes on n = 18)
SAT_LITERALS = 200_000_000  # the largest case the third round writes (about 8 GB while solved)
PAIRWISE = 5  # at most so many hands in a packing group: pairwise clauses, else a counter
SAT_COLUMNS = ["a", "b", "c", "n", "status", "method", "solver", "conflict_limit", "cpu_seconds",
               "detail", "witness"]

Clause = list[int]


def case_cnf(a: int, b: int, c: int, k: int, add: Callable[[Clause], object]
             ) -> tuple[list[int], int]:
    """Give add() every clause of case k of (a, b, c) (module docstring); returns the hands
    (variable i + 1 is hand i) and the number of variables."""
    hands = case_hand_masks(a, b, c, k)  # checks the sizes and k
    add = checks.function(add, "add")
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    arr = np.array(hands, dtype=np.int64)
    top = len(hands)
    for h in case_hands(a, k):
        add([hands.index(h) + 1])
    for group in packing_groups(arr, n, k + 1):
        top = _at_most_one((group + 1).tolist(), top, add)
    for clause in rule2_clauses(arr, n, c):
        add((clause + 1).tolist())
    for p in generators(a, n, k):
        top = _lex_leader(lex_pairs(hands, p), top, add)
    return hands, top


def at_most_one(lits: Sequence[int], top: int, add: Callable[[Clause], object]) -> int:
    """At most one of `lits` true: pairwise for a few, else a sequential counter whose variable
    s_i says "one of lits[0..i] is true"; returns the last variable used."""
    lits = checks.integers(lits, "lits", low=1)
    return _at_most_one(lits, *_next_free(top, lits, add))


def _at_most_one(lits: Sequence[int], top: int, add: Callable[[Clause], object]) -> int:
    """`at_most_one` on checked arguments (`case_cnf` calls it once per packing group)."""
    if len(lits) <= PAIRWISE:
        for i, x in enumerate(lits):
            for y in lits[i + 1:]:
                add([-x, -y])
        return top
    prev = None
    for x in lits[:-1]:
        top += 1
        add([-x, top])
        if prev is not None:
            add([-prev, top])
            add([-x, -prev])
        prev = top
    add([-lits[-1], -prev])
    return top


def lex_leader(pairs: Sequence[tuple[int, int]], top: int, add: Callable[[Clause], object]
               ) -> int:
    """x >=lex x∘p over the compared positions `pairs` (`symmetry.lex_pairs`), hand i being
    variable i + 1: eq_i <=> (eq_{i-1} and x_v <=> x_w); returns the last variable used."""
    pairs = [tuple(checks.integers(pair, "a pair of positions", low=0))
             for pair in checks.collection(pairs, "pairs", what="a list of pairs (i, j)")]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError(f"pairs must hold pairs of positions (i, j), got {pairs!r}")
    return _lex_leader(pairs, *_next_free(top, [j + 1 for pair in pairs for j in pair], add))


def _lex_leader(pairs: Sequence[tuple[int, int]], top: int, add: Callable[[Clause], object]
                ) -> int:
    """`lex_leader` on checked arguments (`case_cnf` calls it once per generator)."""
    prev = None
    for i, j in pairs:
        v, w = i + 1, j + 1
        guard = [] if prev is None else [-prev]
        add([-w, v, *guard])  # v >= w while every earlier pair is equal
        top += 1
        add([top, v, w, *guard])
        add([top, -v, -w, *guard])
        add([-top, -v, w])
        add([-top, v, -w])
        if prev is not None:
            add([-top, prev])
        prev = top
    return top


def _next_free(top: object, used: Sequence[int], add: object
               ) -> tuple[int, Callable[[Clause], object]]:
    """`top`, checked to lie at or above every variable in `used`, and `add`, checked callable."""
    top = checks.integer(top, "top", low=max(used, default=0))
    return top, checks.function(add, "add")


def solve_case_sat(a: int, b: int, c: int, k: int, *, conflicts: int | None = None,
                   solver: str = SAT_SOLVERS[0]
                   ) -> tuple[str, list[tuple[int, ...]] | None]:
    """Case k of (a, b, c) solved by `solver` (one of `SAT_SOLVERS`) within `conflicts` (None:
    no limit): "FEASIBLE" with the announced hands, "INFEASIBLE" or "UNKNOWN" with None."""
    if solver not in SAT_SOLVERS:
        raise ValueError(f"solver must be one of {SAT_SOLVERS}, got {solver!r}")
    if conflicts is not None:
        conflicts = checks.integer(conflicts, "conflicts", low=1)
    with Solver(name=solver) as sat:
        hands, _ = case_cnf(a, b, c, k, sat.add_clause)
        if conflicts is not None:
            sat.conf_budget(conflicts)
        answer = sat.solve_limited() if conflicts is not None else sat.solve()
        if answer is None:
            return "UNKNOWN", None
        if not answer:
            return "INFEASIBLE", None
        model = sat.get_model()
        return "FEASIBLE", [cards(h) for i, h in enumerate(hands) if model[i] > 0]


def sat_cases(a: int, b: int, c: int, k: int, conflicts: int, *, solver: str = SAT_SOLVERS[0],
              literals: int = SAT_LITERALS) -> FocusEnd:
    """The symmetry cases k, k+1, ... of (a, b, c) by a SAT solver, `conflicts` a case, each
    written when its Rule-2 clauses hold at most `literals` literals: as `open_cases.focus_cases`
    ends, with the solver's CPU seconds as the work."""
    a, b, c = hand_sizes(a, b, c)
    conflicts = checks.integer(conflicts, "conflicts", low=1)
    literals = checks.integer(literals, "literals", low=0)
    cases = case_range(a, b, c)
    k = checks.integer(k, "k", low=cases.start, high=max(cases.start, cases.stop - 1))
    start, done = time.process_time(), []

    def end(status: str, said: str, witness: Announcement | None = None,
            stopped: int | None = None, why: str | None = None) -> FocusEnd:
        return FocusEnd(status, witness, round(time.process_time() - start, 2),
                        "; ".join([*done, said]), stopped, why)

    for j in range(k, cases.stop):
        if (size := case_literals(a, b, c, j)) > literals:
            return end("open", f"case k={j}'s clauses would hold {size:,} literals, so none "
                               "were written", stopped=j, why="too large")
        with one_large_case(size):  # one large model on the machine at a time, as in CP-SAT's
            verdict, chosen = solve_case_sat(a, b, c, j, conflicts=conflicts, solver=solver)
        if verdict == "FEASIBLE":
            ann = verified_witness(a, b, c, chosen, f"{(a, b, c)} case k={j} by {solver}")
            return end("solvable", f"case k={j} SATISFIABLE", witness=ann)
        if verdict == "UNKNOWN":
            return end("open", f"case k={j} undecided after {conflicts:,} conflicts",
                       stopped=j, why="limit")
        done.append(f"largest overlap k={j}: UNSATISFIABLE")
    below = f"the cases below k={k} proved INFEASIBLE before; " if k > cases.start else ""
    return end("unsolvable", below + "hence no announcement exists (case lemma, symmetry.py)")


def sat_row(case: tuple[int, int, int, int, int]) -> dict:
    """The third round on (a, b, c): `conflicts` a case from case k on (`sat_cases`, Kissat),
    its cost recorded (module docstring)."""
    a, b, c, conflicts, k = checks.sequence(case, "case", what="a tuple (a, b, c, conflicts, k)",
                                            length=5)
    a, b, c = hand_sizes(a, b, c)
    solver = SAT_SOLVERS[0]
    start = time.process_time()
    end = sat_cases(a, b, c, k, conflicts, solver=solver)
    method = round_method(end, k, solver=solver, limit=f"{conflicts:,} conflicts",
                          proof="UNSATISFIABLE", round_name="third")
    return dict(a=a, b=b, c=c, n=a + b + c, status=end.status, method=method, solver=solver,
                conflict_limit=conflicts, cpu_seconds=round(time.process_time() - start),
                detail=f"from case k={k}; {end.detail}", witness=format_announcement(end.witness))


def check_sat_round(table: pd.DataFrame) -> None:
    """A stored third round holds: its columns, and every solvable row's witness passes the
    verifier (`open_cases.check_attempts`)."""
    check_attempts(table, SAT_COLUMNS)
