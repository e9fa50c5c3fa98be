"""Deciding (a, b, c): a witness the verifier accepts, or a proof that none exists.

Order of attack (each step names itself in `Verdict.method`, its proof in `Verdict.proof`):

1. **Lemmas** (proved in the notebook, section "Four impossibility lemmas"):
   a <= c + 1 (informative hands are pairwise disjoint, so Cath always learns something);
   b <= c (two hands Cath cannot rule out share >= a - c cards, breaking Rule 1);
   b = c + 1 (the complements of the hands must form a Steiner system S(c+1, 2c+1, n);
   when its divisibility conditions fail, no announcement exists);
   a = c + 2 (hands share at most one card, so the >= c+1 hands through a card are disjoint
   elsewhere: n - 1 >= (c+1)^2).
2. **Constructions** from the literature (`constructions.py`), checked by the verifier.
3. **Random greedy packings, then the report's depth-first search**, with a node budget.
4. **CP-SAT**: first on orbits of a group of cards (`orbits.py`, witnesses only: the cycles
   mod n and n-1, then the affine and projective groups of `orbits.card_groups`), then the
   symmetry-broken cases of `symmetry.py` one by one (largest overlap k of two hands fixed,
   lex-leader constraints): a FEASIBLE case gives a witness, INFEASIBLE in every case is a
   proof. A case model whose Rule-2 clauses would hold more than `MAX_LITERALS` literals is
   not built (the size stays open, saying so). Each call stops at a deterministic work limit
   (`puzzlelab.solvers.solve_limited`), so verdicts do not depend on the machine: a case
   stopped by the work limit leaves the cell "open"; a call stopped by the wall-clock safety
   net raises `WallClockStop` (never a verdict).

`Verdict.proof` is a `puzzlelab.proofs.Proof`: its kind (lemma, construction, exhaustive,
solver, open) and what the method established (the lemma with its numbers, the CP-SAT cases
and the work each took); `Verdict.work` is the CP-SAT work spent (deterministic units).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

from .. import checks
from ..bitsets import from_bits
from ..proofs import Proof
from ..solvers import Deadline, solve_limited, work_used
from .constructions import first_construction, relabel
from .model import (
    Announcement, cards, cards_within_budget, check_hand, design_divisible, hand_sizes,
    hands_within_budget, is_solution,
)
from .orbits import group_search, witness_groups
from .search import MAX_CHECKS, MAX_NODES, enumerate_masks, random_greedy, report_dfs
from .symmetry import case_model, case_range

__all__ = [
    "MAX_LITERALS", "ORBIT_WORK", "WORK_LIMIT", "Verdict", "decide", "for_hand", "lemma",
    "lemma_proof", "rule2_literals", "safe_announcements", "solve", "steiner_size",
]

# CP-SAT deterministic work units per symmetry case. The hardest grid case needs 16.15
# units ((7,6,3), k=3), so 40 leaves a margin of 2.5.
WORK_LIMIT = 40.0
ORBIT_WORK = 5.0   # per orbit search (the largest one in the grid needs 1.5 units)
MAX_LITERALS = 60_000_000  # Rule 2's clause literals in one case model (~100 bytes each)


@dataclass(frozen=True)
class Verdict:
    """The decision for one size (a, b, c): status, the method's name, its proof, a witness.

    Attributes
    ----------
    a, b, c : int
        The hand sizes decided.
    status : str
        "solvable", "unsolvable" or "open" (the work limit ran out).
    method : str
        The method that decided, as the grid tables print it.
    proof : puzzlelab.proofs.Proof
        Its kind (lemma, construction, exhaustive, solver, open) and what it established.
    witness : Announcement or None
        An informative and safe announcement through 0..a-1 when solvable, accepted by
        `is_solution`.
    work : float
        The CP-SAT work spent, in deterministic units.

    Examples
    --------
    >>> v = decide(3, 3, 1)
    >>> v.status, v.method, v.size
    ('solvable', 'construction: lines of a finite plane', 7)

    References
    ----------
    The solvability grids of group11_rc (source document 000), section 4.
    """

    a: int
    b: int
    c: int
    status: str                       # "solvable", "unsolvable" or "open"
    method: str                       # the method's printed name (grid tables)
    proof: Proof
    witness: Announcement | None = None
    work: float = 0.0                 # CP-SAT work units spent (deterministic time)

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def size(self) -> int | None:
        """The number of hands of the witness (None without one)."""
        return len(self.witness) if self.witness else None

    @property
    def detail(self) -> str:
        """What the method established (the proof's content)."""
        return self.proof.detail


def steiner_divisible(t: int, k: int, v: int) -> bool:
    """The necessary divisibility conditions for a Steiner system S(t, k, v)."""
    return design_divisible(t, k, v)


def lemma_proof(a: int, b: int, c: int) -> tuple[str, str] | None:
    """The impossibility lemma that applies to (a, b, c), if any: its name and its numbers.

    The four lemmas (proved in the notebook): A, a <= c + 1; B, b <= c; C, b = c + 1 and the
    divisibility conditions of the Steiner system S(c+1, 2c+1, n) fail; D, a = c + 2 and
    n < (c+1)² + 1.

    Parameters
    ----------
    a, b, c : int
        The hand sizes (no hand needed: a lemma rules out every hand).

    Returns
    -------
    tuple of (str, str) or None
        The lemma's short name (as in the grid tables) and its statement with the numbers of
        (a, b, c); None when no lemma applies.

    Raises
    ------
    ValueError
        If a size is not an integer at least 1.

    Examples
    --------
    >>> name, numbers = lemma_proof(3, 2, 1)
    >>> name
    'lemma: b = c+1 needs S(2,3,6), divisibility fails'
    >>> numbers.split('; ')[1]
    'but C(5,1) = 5 is not divisible by C(2,1) = 2'
    >>> lemma_proof(3, 3, 1) is None
    True

    References
    ----------
    The (x, x, x-1) impossibility of group11_rc (source document 000), section 4 (Lemma A);
    Steiner systems: Albert et al. (2005), Australasian J. Combinatorics 33.
    """
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    if a <= c + 1:
        why = ("only one hand can be announced" if a <= c else
               "hands share no card, so Cath's hand would be the complement of their union")
        return "lemma: a <= c+1", f"Lemma A: a = {a} <= c + 1 = {c + 1}; {why}"
    if b <= c:
        return "lemma: b <= c", (f"Lemma B: b = {b} <= c = {c}; two hands Cath keeps share "
                                 f">= a - b = {a - b} > a - c - 1 = {a - c - 1} cards")
    if b == c + 1 and not steiner_divisible(c + 1, 2 * c + 1, n):
        return _steiner_lemma(b, c, n)
    if a == c + 2 and n < (c + 1) ** 2 + 1:
        return ("lemma: a = c+2 needs n >= (c+1)^2 + 1",
                f"Lemma D: a = c + 2 = {a} needs n >= (c+1)^2 + 1 = {(c + 1) ** 2 + 1}, "
                f"but n = {n}")
    return None


def _steiner_lemma(b: int, c: int, n: int) -> tuple[str, str]:
    """Lemma C's name and numbers: the divisibility condition of S(c+1, 2c+1, n) that fails."""
    t, k = c + 1, 2 * c + 1
    i = next(i for i in range(t) if comb(n - i, t - i) % comb(k - i, t - i))
    return (f"lemma: b = c+1 needs S({t},{k},{n}), divisibility fails",
            f"Lemma C: b = c + 1 = {b}, so the complements of the hands would form S({t},{k},{n}); "
            f"but C({n - i},{t - i}) = {comb(n - i, t - i)} is not divisible by "
            f"C({k - i},{t - i}) = {comb(k - i, t - i)}")


def steiner_size(a: int, b: int, c: int) -> int | None:
    """Lemma C's exact size: for b = c + 1 (and a > c + 1) every informative and safe
    announcement has C(n, c+1) / C(2c+1, c+1) hands (the blocks of S(c+1, 2c+1, n)); else None."""
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    if b != c + 1 or a <= c + 1 or not steiner_divisible(c + 1, 2 * c + 1, n):
        return None
    return comb(n, c + 1) // comb(2 * c + 1, c + 1)


def lemma(a: int, b: int, c: int) -> str | None:
    """The name of an impossibility lemma that applies to (a, b, c), if any (`lemma_proof`).

    Parameters
    ----------
    a, b, c : int
        The hand sizes, as in `lemma_proof`.

    Returns
    -------
    str or None
        The lemma's short name, or None.

    Raises
    ------
    ValueError
        On a size that is not an integer at least 1.

    Examples
    --------
    The report's diagonal a = b = c + 1 is unsolvable (section 4):

    >>> [lemma(x, x, x - 1) for x in (2, 3, 4)]
    ['lemma: a <= c+1', 'lemma: a <= c+1', 'lemma: a <= c+1']

    References
    ----------
    group11_rc (source document 000), section 4.
    """
    found = lemma_proof(a, b, c)
    return found[0] if found else None


def decide(
    a: int, b: int, c: int, *, time_limit: float | None = None, dfs_nodes: int = 2000,
    greedy_tries: int = 20, use_lemmas: bool = True, work_limit: float = WORK_LIMIT,
) -> Verdict:
    """Decide (a, b, c) for Anne's hand 0..a-1 (every hand is a relabelling of it).

    In order: the impossibility lemmas, the literature's constructions, random greedy packings
    and the report's search, then CP-SAT on orbits and on symmetry cases (module docstring).

    Parameters
    ----------
    a, b, c : int
        The hand sizes to decide.
    time_limit : float, optional
        Seconds for the whole decision, a safety net: when it passes `WallClockStop` is raised
        (never a verdict). Default: only each CP-SAT call's own cap.
    dfs_nodes : int
        Nodes of the report's search (at most `MAX_NODES`).
    greedy_tries : int
        Random greedy packings tried (at most 10,000).
    use_lemmas : bool
        Whether the lemmas and constructions are tried first.
    work_limit : float
        CP-SAT work units per symmetry case (deterministic), 0.01 to 10,000.

    Returns
    -------
    Verdict
        Solvable with a witness, unsolvable with its proof, or open.

    Raises
    ------
    ValueError
        On invalid sizes or options, or sizes with more than `MAX_HANDS` hands that no lemma
        settles.

    Examples
    --------
    >>> decide(2, 2, 1).proof.kind, decide(4, 4, 1).method
    ('lemma', 'construction: sum mod 9')

    References
    ----------
    group11_rc (source document 000), sections 3-4; the constructions of Albert et al. (2005) and
    Cordón-Franco et al. (2012), Australasian J. Combinatorics 33 and 54.
    """
    a, b, c = hand_sizes(a, b, c)
    time_limit = checks.number(time_limit, "time_limit", low=0, allow_none=True)
    dfs_nodes = checks.integer(dfs_nodes, "dfs_nodes", low=0, high=MAX_NODES)
    greedy_tries = checks.integer(greedy_tries, "greedy_tries", low=0, high=10_000)
    work_limit = checks.number(work_limit, "work_limit", low=0.01, high=10_000)
    if checks.boolean(use_lemmas, "use_lemmas") and (found := lemma_proof(a, b, c)):
        return Verdict(a, b, c, "unsolvable", found[0], Proof.lemma(found[1]))
    n = hands_within_budget(a, b, c, "deciding")
    if use_lemmas and (built := first_construction(a, b, c)):
        return _accepted(Verdict(a, b, c, "solvable", f"construction: {built[0]}",
                                 Proof.construction(built[0]), built[1]))
    deadline = Deadline(time_limit)
    return _search(a, b, c, greedy_tries, dfs_nodes, deadline) or _cpsat(
        a, b, c, n, deadline, work_limit)


def _search(a: int, b: int, c: int, greedy_tries: int, dfs_nodes: int,
            deadline: Deadline) -> Verdict | None:
    """Random greedy packings, then the report's depth-first search (node budget)."""
    if (greedy := random_greedy(a, b, c, tries=greedy_tries)) is not None:
        ann = tuple(sorted(cards(h) for h in greedy))
        why = f"a maximal Rule-1 packing (seeded, {greedy_tries} tries at most)"
        return _accepted(Verdict(a, b, c, "solvable", "random greedy packing",
                                 Proof.construction(why), ann))
    dfs = report_dfs(a, b, c, max_nodes=dfs_nodes, deadline=deadline)
    if dfs.announcement:
        return _accepted(Verdict(a, b, c, "solvable", "report DFS",
                                 Proof.construction(f"found after {dfs.nodes} nodes"),
                                 dfs.announcement))
    if dfs.complete:
        why = (f"the report's DFS tried every Rule-1 packing through Anne's hand "
               f"({dfs.nodes} nodes): none satisfies Rule 2")
        return Verdict(a, b, c, "unsolvable", "exhaustive search (report DFS)",
                       Proof.exhaustive(why))
    return None


def _cpsat(a: int, b: int, c: int, n: int, deadline: Deadline, work_limit: float) -> Verdict:
    """Orbit witnesses, then CP-SAT case by case (module `symmetry`: a proof needs all).

    Every CP-SAT call has a deterministic work limit (the same answer on every machine).
    """
    work, groups = 0.0, witness_groups(n)
    for name, what, gens in groups:
        ann, used = group_search(a, b, c, gens, work_limit=ORBIT_WORK, deadline=deadline,
                                 what=name)
        work += used
        if ann is not None:
            why = f"invariant under {what} ({used:.2f} work units)"
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT on orbits of {name}",
                                     Proof.solver(why), ann, work))
    done = [f"no witness on orbits of {len(groups)} groups ({work:.2f} units)"]
    if (size := rule2_literals(a, b, c)) > MAX_LITERALS:
        why = "; ".join([*done, f"a case model would hold {size:,} literals (limit "
                                f"{MAX_LITERALS:,}), so none was built"])
        return Verdict(a, b, c, "open", "open (size): CP-SAT model too large",
                       Proof.open(why), work=work)
    for k in case_range(a, b, c):  # the largest overlap k of two announced hands
        model, x, hands = case_model(a, b, c, k)
        res = solve_limited(model, work_limit, deadline=deadline, what=f"{(a, b, c)} case k={k}")
        used = work_used(res)
        work += used
        if res.feasible:
            ann = relabel([cards(h) for h, v in zip(hands, x) if res.value(v)], tuple(range(a)), n)
            why = "; ".join([*done, f"case k={k} FEASIBLE ({used:.2f} units)"])
            return _accepted(Verdict(a, b, c, "solvable", f"CP-SAT (case k={k})",
                                     Proof.solver(why), ann, work))
        if not res.infeasible:
            why = "; ".join([*done, f"case k={k} undecided at the work limit"])
            return Verdict(a, b, c, "open",
                           f"open (limit): CP-SAT {work_limit:g} work units in case k={k}",
                           Proof.open(why), work=work)
        done.append(f"largest overlap k={k}: INFEASIBLE ({used:.2f} units)")
    why = "; ".join([*done, "hence no announcement exists (case lemma, symmetry.py)"])
    return Verdict(a, b, c, "unsolvable", "CP-SAT INFEASIBLE in every symmetry case",
                   Proof.solver(why), work=work)


def rule2_literals(a: int, b: int, c: int) -> int:
    """Literals in Rule 2's clauses over all C(n, a) hands (`search.add_rule2`): the size that
    decides whether a case model fits in memory (decks of up to MAX_FORMULA_CARDS cards)."""
    n = cards_within_budget(a, b, c, "the Rule-2 literal count")
    a, b, c = hand_sizes(a, b, c)
    return (comb(n, c) * (n - c) * comb(n - c - 1, a - 1)
            + comb(n, c + 1) * comb(n - c - 1, a))


def _accepted(v: Verdict) -> Verdict:
    """Only return a witness the verifier accepts (a wrong witness is a bug, not an answer)."""
    if not is_solution(v.witness, v.a, v.b, v.c):
        raise AssertionError(f"{v.method} produced an announcement the verifier rejects")
    return v


def solve(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, time_limit: float | None = None
) -> Announcement | None:
    """One informative and safe announcement containing `hand`, or None when proven impossible.

    Parameters
    ----------
    a, b, c : int
        The sizes of the three hands.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), contained in the answer.
    time_limit : float, optional
        Seconds, as in `decide`.

    Returns
    -------
    Announcement or None
        The witness of `decide`, relabelled to contain `hand`; None when no announcement exists.

    Raises
    ------
    ValueError
        On invalid sizes, hand or time limit (`decide`).
    TimeoutError
        When the search could neither find one nor prove that none exists (the work limit, or
        the wall-clock `time_limit`, ran out).

    Examples
    --------
    >>> ann = solve(3, 3, 1, hand=(4, 5, 6))
    >>> (4, 5, 6) in ann, len(ann), is_solution(ann, 3, 3, 1)
    (True, 7, True)
    >>> solve(3, 3, 2) is None  # a = c + 1: Lemma A
    True

    References
    ----------
    group11_rc (source document 000), section 3.
    """
    h = check_hand(hand, a, b, c)
    v = decide(a, b, c, time_limit=time_limit)
    if v.status == "open":
        raise TimeoutError(f"({a},{b},{c}) undecided within the work limit: {v.method}")
    return for_hand(v, h)


def for_hand(v: Verdict, hand: Iterable[int] | None) -> Announcement | None:
    """The verdict's witness (for hand 0..a-1) relabelled to contain `hand`."""
    if not isinstance(v, Verdict):
        raise checks.ArgumentTypeError(f"v must be a Verdict (from decide), got {v!r}")
    h = check_hand(hand, v.a, v.b, v.c)
    if v.witness is None:
        return None
    first = tuple(range(v.a))
    return relabel([first, *[w for w in v.witness if w != first]], h, v.a + v.b + v.c)


def safe_announcements(
    a: int, b: int, c: int, hand: Iterable[int] | None = None, *, limit: int | None = None
) -> list[Announcement]:
    """Every informative and safe announcement containing `hand` (sorted; exhaustive search).

    The number grows fast (hundreds of thousands already for (3,5,1)); `limit` keeps the
    first `limit` found (in search order) and `limit=1` decides existence exhaustively.

    Parameters
    ----------
    a, b, c : int
        Anne's, Bill's and Cath's numbers of cards.
    hand : iterable of int, optional
        Anne's hand (default 0..a-1), in every announcement.
    limit : int, optional
        Stop after this many announcements (at least 1).

    Returns
    -------
    list of Announcement
        The announcements, sorted.

    Raises
    ------
    ValueError
        On invalid sizes, hand or limit, more than `MAX_HANDS` hands, or a search of more than
        `MAX_NODES` nodes or `MAX_CHECKS` Rule-2 checks (the message names the budget).

    Examples
    --------
    The 102 announcements through 012 that van Ditmarsch (2003) lists, by number of hands:

    >>> from collections import Counter
    >>> found = safe_announcements(3, 3, 1)
    >>> len(found), sorted(Counter(map(len, found)).items())
    (102, [(5, 60), (6, 36), (7, 6)])

    References
    ----------
    van Ditmarsch (2003), The Russian cards problem, Studia Logica 75; Rules 1 and 2 of group11_rc
    (source document 000), section 3.
    """
    n = hands_within_budget(a, b, c, "the enumeration")
    h = check_hand(hand, a, b, c)
    limit = None if limit is None else checks.integer(limit, "limit", low=1)
    found = enumerate_masks(n, a, c, from_bits(h), limit, max_nodes=MAX_NODES,
                            max_checks=MAX_CHECKS)
    return sorted(tuple(sorted(cards(m) for m in L)) for L in found)
