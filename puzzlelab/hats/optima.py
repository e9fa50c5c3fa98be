"""Exact optima (most rounds a deal can win) with a proof record, and bounds where unproven.

`optimum_bounds` tries three kinds of step in turn (janssen2017 asks the question; the methods
are ours and the literature's):

- exact: exhaustive over all deals (the thesis's brute force) when there are at most a few
  million; exhaustive over all won sets with the characterization of `sets.achievable`
  (M**N <= 16); for M = 2, N <= 6, a branch and bound over lost sets (`minimum_covers`);
- constructive: an upper bound that a construction reaches. Upper bounds: every won round needs
  a line whose M - 1 other rounds are lost and every lost round lies on N lines, so
  (M - 1)|W| <= N |L| (for M = 2 the sphere-covering bound, lenstra_seroussi2002); for M = 2
  and N even, the excess bound of van_wee1988 (`van_wee_lost_bound`); for M >= 3 the full-line
  lemma (`fullline`). Constructions: Hamming codes for N = 2**k - 1 and doubling L x {0, 1}
  (Cohen, Honkala, Litsyn and Lobstein, *Covering Codes*, 1997, Ch. 3); for M >= 3 the product
  W1 x L2 + L1 x W2 of smaller worlds' won sets (`product_won_set`), then seeded local search,
  then the best union of orbits of one symmetry of the game (`orbits`, CP-SAT per symmetry);
- solver: CP-SAT (puzzlelab.solvers, one worker, fixed seed) with a proven objective bound; its
  incumbent from a hint improves the lower bound only under a deterministic limit (work units),
  so that a cached witness does not depend on the machine's speed;
- slices: where a slice (one player's one colour) has at most 27 rounds, every canonical
  smallest slice of a lost set one round smaller than the best deal's is ruled out by counting
  or CP-SAT (`slices`): this proves M = 3, N = 4 (48 of 81 rounds).

Each result is a `Bounds` whose `proof` (puzzlelab.proofs.Proof) records how it was obtained.
The bounds and constructions live in `covering` (re-exported here); `puzzlelab compute
hats_optima` recomputes data/hats_optima.csv, the table the notebook reads (`tables`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import bits, from_bits, full
from ..proofs import Proof
from ..solvers import Deadline, WallClockStop, solve, solve_limited
from . import brute
from .covering import (  # re-exported: the bounds and constructions are part of the pipeline's API
    construction, constructed_lost_set, counting_upper_bound, direction_upper_bound,
    hamming_coset_check, hamming_lost_set, hamming_syndrome, known_won_sets, product_won_set,
    single_player_won_set, upper_bound, van_wee_lost_bound,
)
from .slices import MAX_SLICE_ROUNDS, slice_certificate
from .orbits import orbit_search
from .sets import (
    LARGE_WORLD, achievable_mask, check_mask, closed_neighbourhoods, stubs,
    won_round_vars,
)
from .world import check_two_colours, check_world, check_world_within

__all__ = [
    "CPSAT_WORK_UNITS", "MAX_COVER_PLAYERS", "MAX_OPTIMUM_ROUNDS", "MAX_SEARCH_STEPS", "Bounds",
    "NotProvenError", "construction", "constructed_lost_set", "count_optimal_won_sets",
    "counting_upper_bound", "cpsat_bounds", "cpsat_model", "direction_upper_bound",
    "exhaustive_over_lost_sets", "hamming_coset_check", "hamming_lost_set", "hamming_syndrome",
    "local_search", "minimum_covers", "optimum", "optimum_bounds", "product_won_set",
    "single_player_won_set", "upper_bound", "van_wee_lost_bound", "won_given_lost",
]

CPSAT_WORK_UNITS = 20.0  # CP-SAT's deterministic limit for the open cases
MAX_OPTIMUM_ROUNDS = LARGE_WORLD  # optimum_bounds: worlds of at most this many rounds
MAX_SEARCH_STEPS = 1_000_000  # local search steps per run
MAX_COVER_PLAYERS = 6  # minimum_covers: an exhaustive branch and bound over lost sets of Q_N


class NotProvenError(ValueError):
    """Raised by `optimum` when optimality cannot be proven within its limits (the optima of
    janssen2017, source document 004, Table 5.3).

    A ValueError whose message gives the limits and the bounds reached (lower <= optimum <= upper).

    Examples
    --------
    >>> try:
    ...     optimum(5, 3, time_limit=0.001)  # N = 5, M = 3: far from proven in a millisecond
    ... except NotProvenError as error:
    ...     print(str(error).split(" (")[0], isinstance(error, ValueError))
    optimum for N = 5, M = 3 not proven within the limits True

    References
    ----------
    janssen2017 (source document 004), Section 5.1.3 and Table 5.3 (the optima it asks for).
    """


_METHOD_PREFIX = {"exhaustive": "exhaustive ", "construction": "combinatorial: ", "open": "open: ",
                  "lemma": "lemma: ", "solver": ""}


@dataclass(frozen=True, repr=False)
class Bounds:
    """Best deal found (lower) and proven upper bound on won rounds, with the proof of each
    (janssen2017, source document 004, Table 5.3).

    Parameters
    ----------
    n_players, n_colors : int
        N players and M hat colours.
    lower : int
        Rounds won by the best deal found (`witness`).
    upper : int
        A proven upper bound on the rounds any deal wins; equal to `lower` when proven.
    proof : puzzlelab.proofs.Proof
        How the bounds were obtained (exhaustive, construction, lemma, solver or open).
    witness : int
        Bitmask of the won set of a deal reaching `lower` (bit x: round x in lexicographic order).

    Raises
    ------
    ValueError
        If a field is not of its declared type (`checks.record`).

    Examples
    --------
    >>> b = optimum_bounds(3, 2)
    >>> b.lower, b.upper, b.proven, b.method  # 6 of the 8 rounds, as the Hamming code wins
    (6, 6, True, 'exhaustive over all deals')

    References
    ----------
    janssen2017 (source document 004), Section 5.1.3 and Table 5.3; the proofs:
    `puzzlelab.proofs`.
    """

    n_players: int
    n_colors: int
    lower: int
    upper: int
    proof: Proof
    witness: int  # bitmask of the won set of a deal reaching `lower`

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def proven(self) -> bool:
        """True when the bounds meet (the optimum is known)."""
        return self.lower == self.upper

    @property
    def method(self) -> str:
        """The proof as the tables print it, e.g. 'exhaustive over all deals'."""
        return _METHOD_PREFIX[self.proof.kind] + self.proof.detail

    def __repr__(self) -> str:
        return (f"Bounds(n_players={self.n_players}, n_colors={self.n_colors}, lower={self.lower}, "
                f"upper={self.upper}, proof={self.proof!r}, "
                f"witness=<won set of {self.witness.bit_count()} rounds>)")


def _exact(n: int, m: int, won: int, detail: str) -> Bounds:
    return Bounds(n, m, won.bit_count(), won.bit_count(), Proof.exhaustive(detail), won)


# --- exhaustive searches -------------------------------------------------------------------------


def exhaustive_over_lost_sets(n_players: int, n_colors: int = 2) -> int:
    """Most won rounds over all 2**(M**N) sets that pass `achievable` (M**N <= 16): a mask."""
    n, m = check_world(n_players, n_colors)
    if m**n > 16:
        raise ValueError(f"exhaustive search over lost sets needs M**N <= 16, got {m**n}")
    order = sorted(range(1 << m**n), key=lambda w: -w.bit_count())
    return next(w for w in order if achievable_mask(w, n, m))


def _covers(n: int, size: int, through_zero: bool) -> Iterator[int]:
    """Dominating sets of Q_N with at most `size` rounds, by branch and bound.

    Branch on the lowest round not yet covered, over the rounds of its closed neighbourhood
    (excluding those tried in earlier branches), and cut when the rounds still uncovered exceed
    what the remaining budget can cover at the best available gain.
    """
    closed = closed_neighbourhoods(n)
    everything = full(2**n)

    def rec(chosen: int, dom: int, excl: int, left: int) -> Iterator[int]:
        if dom == everything:
            yield chosen
            return
        if left == 0:
            return
        und = everything & ~dom
        gain = max((closed[c] & und).bit_count() for c in bits(everything & ~excl))
        if gain * left < und.bit_count():
            return
        u = (und & -und).bit_length() - 1
        for w in bits(closed[u] & ~excl):
            yield from rec(chosen | 1 << w, dom | closed[w], excl, left - 1)
            excl |= 1 << w

    if through_zero:  # the hypercube is vertex-transitive: round 0 may be taken lost
        yield from rec(1, closed[0], 1, size - 1)
    else:
        yield from rec(0, 0, 0, size)


def minimum_covers(n_players: int, size: int, *, through_zero: bool = False,
                   limit: int | None = None) -> list[int]:
    """For M = 2: the dominating sets of Q_N with `size` rounds, `size` being the minimum K(N).

    A cover with fewer rounds raises ValueError (`size` is then not the minimum); none means no
    cover that small exists. With `through_zero` only the covers containing round 0 are listed
    (by vertex-transitivity each round lies in the same number of them, so the total is
    2**N * len(result) / size). `limit` stops after that many covers (in search order).
    """
    n = check_two_colours(n_players, MAX_COVER_PLAYERS, "minimum_covers (an exhaustive search)")
    size = checks.integer(size, "size", low=1, high=2**n)
    through_zero = checks.boolean(through_zero, "through_zero")
    if limit is not None:
        limit = checks.integer(limit, "limit", low=1)
    out: list[int] = []
    for cover in _covers(n, size, through_zero):
        if cover.bit_count() != size:
            raise ValueError(f"{size} is not the minimum cover size of Q{n}")
        out.append(cover)
        if limit is not None and len(out) >= limit:
            break
    return sorted(out)


def count_optimal_won_sets(n_players: int, size: int) -> int:
    """Number of optimal won sets (complements of minimum covers), double counting through 0."""
    n = check_two_colours(n_players, MAX_COVER_PLAYERS, "count_optimal_won_sets")
    through = len(minimum_covers(n, size, through_zero=True))
    total, rest = divmod(2**n * through, size)
    if rest:
        raise AssertionError("double counting must give an integer")
    return total


@lru_cache(maxsize=16)
def _branch_and_bound_optimum(n: int, start_lost: int) -> int:
    """For M = 2: an optimal won set, trying lost-set sizes upward from a proven lower bound."""
    for size in range(max(start_lost, 1), 2**n + 1):
        found = minimum_covers(n, size, through_zero=True, limit=1)
        if found:
            return full(2**n) & ~found[0]
    raise AssertionError("unreachable: all rounds lost is a dominating set")


# --- local search and CP-SAT -----------------------------------------------------------------


def won_given_lost(lost: int, n_players: int, n_colors: int) -> int:
    """The largest won set compatible with a lost set: rounds outside it with a fully lost line."""
    lost = check_mask(lost, n_players, n_colors, "lost")
    st = stubs(n_players, n_colors)
    return from_bits(x for x in bits(full(len(st)) & ~lost) if any(s & ~lost == 0 for s in st[x]))


def local_search(
    n_players: int, n_colors: int = 2, start: int | None = None, steps: int = 20000,
    seed: int = 0, time_limit: float | None = None,
) -> int:
    """A seeded, fixed-length simulated annealing over lost sets (deterministic): a good won set.

    `time_limit` (seconds) stops it early, a safety net: the result is then the best found so
    far and depends on the machine's speed.
    """
    n, m = _optimum_world(n_players, n_colors)
    start = None if start is None else check_mask(start, n, m, "start")
    steps = checks.integer(steps, "steps", low=0, high=MAX_SEARCH_STEPS)
    seed = checks.seed(seed)
    limit = checks.number(time_limit, "time_limit", low=0.0, allow_none=True)
    deadline = None if limit is None else time.monotonic() + limit
    return _local_search(n, m, start, steps, seed, deadline)[0]


def _local_search(
    n: int, m: int, start: int | None, steps: int, seed: int, deadline: float | None,
) -> tuple[int, bool]:
    """`local_search` and whether it ran all its steps."""
    rng = np.random.default_rng(seed)
    total = m**n
    lost = full(total) & ~(single_player_won_set(n, m) if start is None else start)
    score = won_given_lost(lost, n, m).bit_count()
    best_lost, best = lost, score
    flips = rng.integers(0, total, size=steps)
    coins = rng.random(steps)
    for k in range(steps):
        if deadline is not None and time.monotonic() > deadline:
            return won_given_lost(best_lost, n, m), False
        cand = lost ^ (1 << int(flips[k]))
        cand_score = won_given_lost(cand, n, m).bit_count()
        temperature = 1.0 * (1 - k / steps) + 1e-3
        if cand_score >= score or coins[k] < math.exp((cand_score - score) / temperature):
            lost, score = cand, cand_score
            if score > best:
                best_lost, best = lost, score
    return won_given_lost(best_lost, n, m), True


def cpsat_model(n_players: int, n_colors: int = 2) -> tuple[cp_model.CpModel, list]:
    """Maximise won rounds: won[x] needs a line through x whose other rounds are all lost."""
    n, m = _optimum_world(n_players, n_colors)
    model = cp_model.CpModel()
    won = won_round_vars(model, n, m)
    # symmetry: permuting the colours of each player separately maps won sets to won sets and
    # moves any round to round 0; some round is lost, so round 0 may be taken lost
    model.Add(won[0] == 0)
    model.Maximize(sum(won))
    return model, won


def cpsat_bounds(
    n_players: int, n_colors: int = 2, time_limit: float = 60.0, hint: int | None = None,
    deterministic_limit: float | None = None,
) -> tuple[str, int | None, int | None]:
    """(status, best won mask, proven upper bound) from CP-SAT.

    With `deterministic_limit` the answer is the same on every machine (`solvers.solve_limited`):
    if `time_limit` runs out first, WallClockStop is raised instead of a machine-dependent answer.
    """
    n, m = _optimum_world(n_players, n_colors)
    time_limit = checks.number(time_limit, "time_limit", low=0.001)
    work = checks.number(deterministic_limit, "deterministic_limit", low=0.001, allow_none=True)
    hint = None if hint is None else check_mask(hint, n, m, "hint")
    model, won = cpsat_model(n, m)
    if hint is not None:
        for x, v in enumerate(won):
            model.AddHint(v, bool(hint >> x & 1))
    if work is None:
        res = solve(model, time_limit=time_limit)
    else:
        res = solve_limited(model, work, deadline=Deadline(time_limit),
                            what=f"hats N = {n}, M = {m}")
    if not res.feasible:
        return res.status, None, None
    mask = from_bits(x for x, v in enumerate(won) if res.value(v))
    return res.status, mask, int(math.floor(res.bound + 1e-9))


# --- the pipeline: exact, constructive and solver steps -------------------------------------------


def _optimum_world(n_players: int, n_colors: int) -> tuple[int, int]:
    """A world small enough for the optimum pipeline (at most MAX_OPTIMUM_ROUNDS rounds)."""
    return check_world_within(n_players, n_colors, MAX_OPTIMUM_ROUNDS, "optima are searched")


def _exact_step(n: int, m: int) -> Bounds | None:
    """The optimum by exhaustion, where an exhaustive method takes the world (else None)."""
    if brute.feasible(n, m):
        bf = brute.brute_force(n, m)
        return _exact(n, m, int(bf.won[int(np.argmax(bf.wins))]), "over all deals")
    if m**n <= 16:
        return _exact(n, m, exhaustive_over_lost_sets(n, m), "over all won sets")
    if m == 2 and n <= MAX_COVER_PLAYERS:
        upper, _ = upper_bound(n, m)
        construct, _ = construction(n, m)
        if construct.bit_count() < upper:
            best = _branch_and_bound_optimum(n, 2**n - upper)
            return _exact(n, m, best, "branch and bound over lost sets")
    return None


@dataclass(frozen=True)
class _Candidate:
    """The constructive step's result: a won set, its name, the upper bound and its name."""

    witness: int
    name: str
    upper: int
    upper_name: str
    searched_all: bool  # False when the local search was cut short by the time limit

    def bounds(self, n: int, m: int, proof: Proof) -> Bounds:
        return Bounds(n, m, self.witness.bit_count(), self.upper, proof, self.witness)

    @property
    def meets(self) -> bool:
        return self.witness.bit_count() == self.upper


def _constructive_step(n: int, m: int, steps: int, known: dict[int, int], deadline: float
                       ) -> _Candidate:
    """Upper bound, construction, then seeded local search from the construction."""
    upper, upper_name = upper_bound(n, m)
    witness, name = construction(n, m, known)
    if witness.bit_count() < upper:
        small = m**n <= 100  # small worlds get four longer restarts
        seeds, length = (range(4), 3 * steps) if small else (range(1), steps)
        runs = [_local_search(n, m, witness, length, k, deadline) for k in seeds]
        searched = max((w for w, _ in runs), key=int.bit_count)
        if searched.bit_count() > witness.bit_count():
            witness, name = searched, "seeded local search"
        return _Candidate(witness, name, upper, upper_name, all(done for _, done in runs))
    return _Candidate(witness, name, upper, upper_name, True)


def _solver_step(n: int, m: int, found: _Candidate, work: float | None, deadline: float) -> Bounds:
    """CP-SAT hinted with the best won set found; its incumbent counts only under a work limit."""
    vs = f"{found.name} vs {found.upper_name}"
    try:
        status, mask, _ = cpsat_bounds(n, m, min(deadline - time.monotonic(), 1e6),
                                       hint=found.witness, deterministic_limit=work)
    except WallClockStop:
        return found.bounds(n, m, Proof.open(f"{vs} (CP-SAT cut short by the time limit)"))
    if status == "OPTIMAL":
        best = mask if mask.bit_count() > found.witness.bit_count() else found.witness
        size = best.bit_count()
        return Bounds(n, m, size, size, Proof.solver("CP-SAT OPTIMAL"), best)
    if work is not None and mask is not None and mask.bit_count() > found.witness.bit_count():
        if not achievable_mask(mask, n, m):
            raise AssertionError("CP-SAT returned a won set that no deal achieves")
        name = f"CP-SAT hinted with the {found.name} ({work:g} work units)"
        return Bounds(n, m, mask.bit_count(), found.upper,
                      Proof.open(f"{name} vs {found.upper_name}"), mask)
    return found.bounds(n, m, Proof.open(vs))


def _bounds(n: int, m: int, steps: int, known: dict[int, int] | None, work: float | None,
            deadline: float, prove: bool = True) -> Bounds:
    """`optimum_bounds` against an absolute deadline (time.monotonic()).

    `prove=False` skips the slice step (smaller worlds wanted only for their best deal)."""
    exact = _exact_step(n, m)
    if exact is not None:
        return exact
    if known is None and m >= 3:  # the product construction uses the smaller worlds' best deals
        known = {}
        for k in range(2, n):
            known[k] = _bounds(k, m, steps, dict(known), work, deadline, prove=False).witness
    found = _constructive_step(n, m, steps, known or {}, deadline)
    if found.meets:
        return found.bounds(n, m, Proof.construction(f"{found.name} meets the {found.upper_name}"))
    if not found.searched_all or deadline <= time.monotonic():
        why = "local search cut short by" if not found.searched_all else "no CP-SAT: reached"
        detail = f"{found.name} vs {found.upper_name} ({why} the time limit)"
        return found.bounds(n, m, Proof.open(detail))
    found = _orbit_step(n, m, found, deadline)
    if isinstance(found, Bounds):  # the orbit search was cut short by the time limit
        return found
    if found.meets:
        return found.bounds(n, m, Proof.construction(f"{found.name} meets the {found.upper_name}"))
    solved = _solver_step(n, m, found, work, deadline)
    return _slice_step(n, m, solved, deadline) if prove else solved


def _orbit_step(n: int, m: int, found: _Candidate, deadline: float) -> _Candidate | Bounds:
    """The best union of orbits of one symmetry (`orbits.orbit_search`), if larger than `found`."""
    left = None if deadline == math.inf else max(0.0, deadline - time.monotonic())
    try:
        won, g = orbit_search(n, m, time_limit=left)
    except WallClockStop:
        detail = f"{found.name} vs {found.upper_name} (orbit search cut short by the time limit)"
        return found.bounds(n, m, Proof.open(detail))
    if won.bit_count() <= found.witness.bit_count():
        return found
    return _Candidate(won, f"won set on orbits of a {g}", found.upper, found.upper_name, True)


def _slice_step(n: int, m: int, found: Bounds, deadline: float) -> Bounds:
    """Where slices are small enough (`slices`): rule out every deal losing fewer rounds than
    the best deal found loses, which proves that deal optimal; otherwise `found` unchanged (its
    proof says so when the deadline passed first)."""
    if found.proven or m ** (n - 1) > MAX_SLICE_ROUNDS:
        return found
    try:
        if deadline <= time.monotonic():
            raise WallClockStop("no time left for the slice proof")
        ok, table = slice_certificate(n, m, m**n - found.lower - 1, deadline=deadline)
    except WallClockStop:
        cut = found.proof.detail
        if "time limit" not in cut:
            cut += " (slice proof cut short by the time limit)"
        return Bounds(n, m, found.lower, found.upper, Proof.open(cut), found.witness)
    if not ok:
        return found
    how = table.ruled_out.value_counts()
    detail = (f"over the smallest slice up to symmetry ({len(table):,} canonical slices: "
              f"{how.get('counting', 0):,} by counting, {how.get('CP-SAT INFEASIBLE', 0):,} "
              "CP-SAT INFEASIBLE)")
    return Bounds(n, m, found.lower, found.lower, Proof.exhaustive(detail), found.witness)


def optimum_bounds(
    n_players: int, n_colors: int = 2, time_limit: float | None = 60.0,
    search_steps: int = 20000, known: dict[int, int] | None = None,
    deterministic_limit: float | None = CPSAT_WORK_UNITS, *, prove: bool = True,
) -> Bounds:
    """Lower and upper bounds on the most rounds a deal wins, with their proof; equal when proven.

    The defaults run the pipeline of the cached table data/hats_optima.csv. `known`: won sets of
    smaller worlds (same M) for the product construction; None computes them first, N = 2, 3, ...
    with these same arguments (as the table does). Limits: `search_steps` fixes the local search,
    `deterministic_limit` (CP-SAT work units) fixes CP-SAT, and its incumbent may raise the lower
    bound only under it (None: CP-SAT counts only when it proves optimality). `time_limit` is a
    wall-clock budget for the whole call (None: no budget), a safety net: the local search and
    CP-SAT stop when it runs out (the proof then says so, and the result depends on the
    machine). The exhaustive steps are not interrupted (a few seconds in the worlds they take).
    `prove=False` skips the slice proof (for the best deal only, not its optimality).

    Parameters
    ----------
    n_players, n_colors : int
        N players and M hat colours, M**N at most `MAX_OPTIMUM_ROUNDS` rounds.
    time_limit : float or None
        Wall-clock budget in seconds for the whole call; None: no budget.
    search_steps : int
        Steps of each seeded local search (0 to `MAX_SEARCH_STEPS`).
    known : dict of int to int, optional
        Won-set masks of smaller worlds (same M) keyed by their N; None computes them.
    deterministic_limit : float or None
        CP-SAT work units under which its incumbent may raise the lower bound.
    prove : bool
        False skips the slice proof.

    Returns
    -------
    Bounds
        The lower and upper bounds, the proof of each and a deal's won set reaching the lower.

    Raises
    ------
    ValueError
        If N < 2, M is not 2..8, or the world has more than `MAX_OPTIMUM_ROUNDS` rounds (the
        message names the largest N); if `time_limit` or `deterministic_limit` is not positive,
        `search_steps` is out of range, `known` is not a mapping of player counts to won sets of
        those worlds, or `prove` is not a bool.

    Examples
    --------
    >>> b = optimum_bounds(3, 2)
    >>> b.lower, b.upper, b.method  # 6 of 8 rounds: the Hamming code of length 3
    (6, 6, 'exhaustive over all deals')
    >>> optimum_bounds(4, 2).lower  # 12 of 16 rounds, proven over all won sets
    12

    References
    ----------
    janssen2017 (source document 004), Sections 2.1.9 and 5.1.3, Table 5.3; covering codes:
    Cohen, Honkala, Litsyn and Lobstein (1997), *Covering Codes*, Ch. 3; van Wee (1988), IEEE
    Trans. Inform. Theory 34(2).
    """
    n, m = _optimum_world(n_players, n_colors)
    limit = checks.number(time_limit, "time_limit", low=0.001, allow_none=True)
    steps = checks.integer(search_steps, "search_steps", low=0, high=MAX_SEARCH_STEPS)
    work = checks.number(deterministic_limit, "deterministic_limit", low=0.001, allow_none=True)
    given = None if known is None else known_won_sets(known, n, m)
    deadline = math.inf if limit is None else time.monotonic() + limit
    return _bounds(n, m, steps, given, work, deadline, prove=checks.boolean(prove, "prove"))


def optimum(
    n_players: int, n_colors: int = 2, time_limit: float | None = 60.0, search_steps: int = 20000,
    deterministic_limit: float | None = CPSAT_WORK_UNITS,
) -> int:
    """The exact number of rounds an optimal deal wins; NotProvenError if unproven in the limits.

    Same pipeline and limits as `optimum_bounds` (time_limit is a wall-clock budget for the call).

    Parameters
    ----------
    n_players, n_colors : int
        N players and M hat colours, M**N at most `MAX_OPTIMUM_ROUNDS` rounds.
    time_limit, search_steps, deterministic_limit
        The limits of `optimum_bounds`.

    Returns
    -------
    int
        The most rounds a deal wins, proven.

    Raises
    ------
    NotProvenError
        If the bounds do not meet within the limits (a ValueError giving both bounds).
    ValueError
        If N < 2, M is not 2..8, the world has more than `MAX_OPTIMUM_ROUNDS` rounds, or a limit
        is out of range (as `optimum_bounds`).

    Examples
    --------
    >>> optimum(3, 2), optimum(4, 2), optimum(2, 3)  # of 8, 16 and 9 rounds
    (6, 12, 4)

    References
    ----------
    janssen2017 (source document 004), Sections 2.1.9 and 5.1.3, Table 5.3; covering codes:
    Cohen, Honkala, Litsyn and Lobstein (1997), *Covering Codes*, Ch. 3; van Wee (1988), IEEE
    Trans. Inform. Theory 34(2).
    """
    b = optimum_bounds(n_players, n_colors, time_limit, search_steps,
                       deterministic_limit=deterministic_limit)
    if not b.proven:
        raise NotProvenError(
            f"optimum for N = {n_players}, M = {n_colors} not proven within the limits "
            f"({time_limit} s, {search_steps} search steps, {deterministic_limit} CP-SAT work "
            f"units): {b.lower} <= optimum <= {b.upper}")
    return b.lower
