"""Exact optima (most rounds a deal can win) with a proof method, and bounds where unproven.

Proof methods, tried in this order:
- exhaustive over all deals (the thesis's brute force), when there are at most a few million;
- exhaustive over all lost sets with the characterization of `sets.achievable` (M**N <= 16);
- combinatorial: an upper bound that a construction reaches. Upper bounds: every won round needs
  a line whose M - 1 other rounds are lost and every lost round lies on N lines, so
  (M - 1)|W| <= N |L| (for M = 2 the sphere-covering bound, Lenstra & Seroussi 2002); for M = 2
  and N even, van Wee's excess bound |L| >= 2**N (N + 2) / ((N + 1)**2 + 1) (G. J. M. van Wee,
  "Improved sphere bounds on the covering radius of codes", IEEE Trans. IT 34, 1988; derivation
  in `van_wee_lost_bound`); for M >= 3 the full-line lemma (`fullline`). Constructions: Hamming
  codes for N = 2**k - 1 and doubling L x {0, 1} (Cohen, Honkala, Litsyn & Lobstein, *Covering
  Codes*, 1997, Ch. 3); for M >= 3 the product W1 x L2 + L1 x W2 of smaller worlds' won sets
  (`product_won_set`), then seeded local search;
- CP-SAT (puzzlelab.solvers.solve, one worker, fixed seed) with a proven objective bound; its
  incumbent from a hint improves the lower bound only under a deterministic limit (work units),
  so the cached witness does not depend on the machine's speed.

`optimum_bounds` with its default arguments runs exactly the pipeline of the cached table
(data/hats_optima.csv, `results.optimum_table`): smaller worlds first for the product
construction, CPSAT_WORK_UNITS deterministic work units for CP-SAT.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ..solvers import Deadline, WallClockStop, solve, solve_limited
from .brute import MAX_DEALS, brute_force, n_deals
from .fullline import full_line_upper_bound
from .model import check_world
from .sets import achievable_mask, bits, closed_neighbourhoods, full_mask, stubs


CPSAT_WORK_UNITS = 20.0  # CP-SAT's deterministic limit for the open cases (about 20-40 s on one core)


class NotProvenError(ValueError):
    """Raised by `optimum` when optimality cannot be proven within its limits."""


@dataclass(frozen=True)
class Bounds:
    """Best deal found (lower) and proven upper bound on won rounds, with how each was obtained."""

    n_players: int
    n_colors: int
    lower: int
    upper: int
    method: str
    witness: int  # bitmask of the won set of a deal reaching `lower`

    @property
    def proven(self) -> bool:
        return self.lower == self.upper


# --- upper bounds ------------------------------------------------------------------------------


def counting_upper_bound(n_players: int, n_colors: int = 2) -> int:
    """(M - 1)|W| <= N |L| with |W| + |L| = M**N, so |W| <= N M**N / (N + M - 1)."""
    n, m = check_world(n_players, n_colors)
    return (n * m**n) // (n + m - 1)


def direction_upper_bound(n_players: int, n_colors: int = 2) -> int:
    """Per direction, the lines serving a won round are disjoint and hold M - 1 lost rounds each.

    So at most floor(|L| / (M - 1)) serve per direction and |W| <= N floor(|L| / (M - 1)); the best
    case over |L| = M**N - |W| bounds |W|. It is the counting bound with the rounding done per
    direction (sharper for M >= 3 only).
    """
    n, m = check_world(n_players, n_colors)
    total = m**n
    return max(min(total - lost, n * (lost // (m - 1))) for lost in range(total + 1))


def van_wee_lost_bound(n_players: int) -> int:
    """For M = 2, N even: |L| >= 2**N (N + 2) / ((N + 1)**2 + 1) (van Wee 1988).

    Derivation: for a ball N[x], the codewords (lost rounds) counted with multiplicity over the
    balls N[y], y in N[x], sum to (N + 1) a0 + 2 a1 + 2 a2 (a_d = codewords at distance d from x).
    With N + 1 odd, a ball in which every round is covered exactly once (sum N + 1) needs a0 = 1:
    so every x outside L sees excess >= 1 in its ball. Summing, (N + 1) E >= 2**N - |L| where the
    total excess is E = (N + 1)|L| - 2**N.
    """
    n, _ = check_world(n_players, 2)
    if n % 2:
        raise ValueError("van Wee's parity bound needs an even number of players")
    return math.ceil(2**n * (n + 2) / ((n + 1) ** 2 + 1))


def upper_bound(n_players: int, n_colors: int = 2) -> tuple[int, str]:
    """The best combinatorial upper bound on won rounds we have, and its name."""
    n, m = check_world(n_players, n_colors)
    best, name = counting_upper_bound(n, m), "counting (sphere) bound"
    per_direction = direction_upper_bound(n, m)
    if per_direction < best:
        best, name = per_direction, "per-direction counting bound"
    if m == 2 and n % 2 == 0:
        vw = 2**n - van_wee_lost_bound(n)
        if vw < best:
            best, name = vw, "van Wee bound"
    full_line = full_line_upper_bound(n, m)
    if full_line < best:
        best, name = full_line, "full-line lemma bound"
    return best, name


# --- constructions -----------------------------------------------------------------------------


def hamming_syndrome(x: int, n_players: int) -> int:
    """XOR of the positions j + 1 of the Blue hats of round x: 0 exactly on the Hamming code."""
    syndrome = 0
    for j in range(n_players):
        if x >> j & 1:
            syndrome ^= j + 1
    return syndrome


def _check_hamming_length(n: int) -> None:
    if n < 3 or (n + 1) & n:
        raise ValueError(f"Hamming codes need N = 2**k - 1 >= 3 players, got {n}")


def hamming_lost_set(n_players: int) -> int:
    """For N = 2**k - 1: the Hamming code (rounds whose set hat positions XOR to 0), a perfect cover."""
    n, _ = check_world(n_players, 2)
    _check_hamming_length(n)
    mask = 0
    for x in range(2**n):
        if hamming_syndrome(x, n) == 0:
            mask |= 1 << x
    return mask


def hamming_coset_check(n_players: int) -> tuple[int, bool]:
    """(lost rounds, covers every round) for the Hamming code of length N = 2**k - 1, without listing rounds.

    The syndrome is linear over GF(2), so the code is its kernel and has 2**N / (number of
    syndromes) rounds; a round x is within one hat of the code iff its syndrome is 0 or the
    syndrome of a single Blue hat (flip that hat). So the code covers all rounds iff those N + 1
    syndromes are all the syndromes, here the k-bit numbers. Works for N = 31, 63 (2**N rounds).
    """
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise ValueError(f"n_players must be an integer, got {n_players!r}")
    n = n_players
    _check_hamming_length(n)
    k = (n + 1).bit_length() - 1
    image = {0}
    for j in range(n):  # the span of the single-hat syndromes is the image of the syndrome map
        image |= {s ^ hamming_syndrome(1 << j, n) for s in image}
    coset_leaders = {0} | {hamming_syndrome(1 << j, n) for j in range(n)}
    if len(image) != 2**k:
        raise AssertionError("the syndromes of a Hamming code are the k-bit numbers")
    return 2**n // len(image), coset_leaders == image


def constructed_lost_set(n_players: int) -> int:
    """A covering code from Hamming codes and doubling (L x {0, 1}): the lost set of a good deal."""
    n, _ = check_world(n_players, 2) if n_players >= 2 else (1, 2)
    if n == 1:
        return 1  # the single round 0 covers the 1-cube
    if not (n + 1) & n:
        return hamming_lost_set(n)
    half = constructed_lost_set(n - 1)  # rounds of N - 1 players; append a last hat of either colour
    return sum(1 << (2 * x + b) for x in bits(half) for b in (0, 1))


def single_player_won_set(n_players: int, n_colors: int = 2) -> int:
    """Player 1 always guesses colour 0: wins the M**(N-1) rounds where his hat is colour 0."""
    n, m = check_world(n_players, n_colors)
    return (1 << m ** (n - 1)) - 1


def product_won_set(won1: int, n1: int, won2: int, n2: int, n_colors: int) -> int:
    """W = W1 x L2 + L1 x W2 on N1 + N2 players (first N1 hats from world 1): achievable.

    A round (x, y) with x in W1, y in L2 is served by x's serving line, whose other rounds
    (x', y) have x' in L1 and y in L2, so are lost; symmetrically for x in L1, y in W2. Hence
    |W| = |W1| |L2| + |L1| |W2| (the direct-sum idea for covering codes, Cohen et al. Ch. 3).
    One player (N = 1) who always guesses colour 0 has W = {0}. N1, N2 >= 1 and each mask must
    fit its world's M**N rounds (ValueError otherwise).
    """
    for name, value in (("n1", n1), ("n2", n2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a number of players >= 1, got {value!r}")
    _, m = check_world(n1 + n2, n_colors)
    for name, won, k in (("won1", won1, n1), ("won2", won2, n2)):
        if isinstance(won, bool) or not isinstance(won, int) or won < 0 or won >> m**k:
            raise ValueError(f"{name} must be a bitmask of the {m}**{k} = {m**k} rounds of its world, got {won!r}")
    t1, t2 = m**n1, m**n2
    out = 0
    for x in range(t1):
        a = won1 >> x & 1
        for y in range(t2):
            if a != won2 >> y & 1:
                out |= 1 << (x * t2 + y)
    return out


def construction(n_players: int, n_colors: int = 2, known: dict[int, int] | None = None) -> tuple[int, str]:
    """The best won set our constructions give, and its name.

    `known` maps smaller player counts (same M) to won sets already found: for M >= 3 each split
    N = N1 + N2 is tried with `product_won_set` (N = 1 being one player always guessing).
    """
    n, m = check_world(n_players, n_colors)
    if m == 2:
        return full_mask(n) & ~constructed_lost_set(n), "Hamming code / doubling"
    best, name = single_player_won_set(n, m), "one player always guesses"
    parts = {1: 1} | {k: w for k, w in (known or {}).items() if 2 <= k < n}
    for n1 in sorted(parts):
        if n - n1 in parts:
            w = product_won_set(parts[n1], n1, parts[n - n1], n - n1, m)
            if w.bit_count() > best.bit_count():
                best, name = w, f"product of N = {n1} and N = {n - n1}"
    return best, name


# --- exhaustive and CP-SAT ---------------------------------------------------------------------


def exhaustive_over_lost_sets(n_players: int, n_colors: int = 2) -> int:
    """Most won rounds over all 2**(M**N) won sets that pass `achievable` (M**N <= 16): a bitmask."""
    n, m = check_world(n_players, n_colors)
    if m**n > 16:
        raise ValueError(f"exhaustive search over lost sets needs M**N <= 16, got {m**n}")
    order = sorted(range(1 << m**n), key=lambda w: -w.bit_count())
    return next(w for w in order if achievable_mask(w, n, m))


def find_lost_set(n_players: int, size: int) -> int | None:
    """For M = 2: a dominating set of Q_N with at most `size` rounds containing round 0, or None.

    Exhaustive branch and bound: round 0 is lost without loss of generality (the hypercube is
    vertex-transitive); then branch on the lowest round not yet covered, over the rounds of its
    closed neighbourhood (excluding those tried in earlier branches), and cut when the rounds
    still uncovered exceed what the remaining budget can cover at the best available gain.
    """
    n, _ = check_world(n_players, 2)
    closed = closed_neighbourhoods(n)
    full = full_mask(n)
    if size < 1:
        return None

    def rec(chosen: int, dom: int, excl: int, left: int) -> int | None:
        if dom == full:
            return chosen
        und = full & ~dom
        if left == 0:
            return None
        cnt = und.bit_count()
        gain = max((closed[c] & und).bit_count() for c in bits(full & ~excl))
        if gain * left < cnt:
            return None
        u = (und & -und).bit_length() - 1
        for w in bits(closed[u] & ~excl):
            found = rec(chosen | 1 << w, dom | closed[w], excl, left - 1)
            if found is not None:
                return found
            excl |= 1 << w
        return None

    return rec(1, closed[0], 1, size - 1)


def minimum_covers(n_players: int, size: int, through_zero: bool = False) -> list[int]:
    """For M = 2: every dominating set of Q_N with exactly `size` rounds, `size` being the minimum K(N).

    Same branch and bound as `find_lost_set`, but collecting every leaf. With `through_zero` only
    the covers containing round 0 are listed (by vertex-transitivity each round lies in the same
    number of them, so the total is 2**N * len(result) / size).
    """
    n, _ = check_world(n_players, 2)
    closed = closed_neighbourhoods(n)
    full = full_mask(n)
    out: list[int] = []

    def rec(chosen: int, dom: int, excl: int, left: int) -> None:
        if dom == full:
            if chosen.bit_count() != size:
                raise ValueError(f"{size} is not the minimum cover size of Q{n}")
            out.append(chosen)
            return
        if left == 0:
            return
        und = full & ~dom
        gain = max((closed[c] & und).bit_count() for c in bits(full & ~excl))
        if gain * left < und.bit_count():
            return
        u = (und & -und).bit_length() - 1
        for w in bits(closed[u] & ~excl):
            rec(chosen | 1 << w, dom | closed[w], excl, left - 1)
            excl |= 1 << w

    if through_zero:
        rec(1, closed[0], 1, size - 1)
    else:
        rec(0, 0, 0, size)
    return sorted(out)


def count_optimal_won_sets(n_players: int, size: int) -> int:
    """Number of optimal won sets (complements of minimum covers) by double counting covers through 0."""
    n, _ = check_world(n_players, 2)
    through = len(minimum_covers(n, size, through_zero=True))
    total, rest = divmod(2**n * through, size)
    if rest:
        raise AssertionError("double counting must give an integer")
    return total


def branch_and_bound_optimum(n_players: int, start_lost: int) -> int:
    """For M = 2: the won set of an optimal deal, trying lost-set sizes upward from `start_lost`."""
    n, _ = check_world(n_players, 2)
    for size in range(max(start_lost, 1), 2**n + 1):
        lost = find_lost_set(n, size)
        if lost is not None:
            return full_mask(n) & ~lost
    raise AssertionError("unreachable: all rounds lost is a dominating set")


def won_given_lost(lost: int, n_players: int, n_colors: int) -> int:
    """The largest won set compatible with a lost set: rounds outside it with a fully lost line."""
    st = stubs(n_players, n_colors)
    full = full_mask(n_players, n_colors)
    return sum(1 << x for x in bits(full & ~lost) if any(s & ~lost == 0 for s in st[x]))


def local_search(
    n_players: int, n_colors: int = 2, start: int | None = None, steps: int = 20000, seed: int = 0,
    deadline: float | None = None,
) -> int:
    """A seeded, fixed-length simulated annealing over lost sets (deterministic): a good won set.

    `deadline` (a time.monotonic() value) stops it early, a safety net: the result is then the
    best found so far and depends on the machine's speed (`optimum_bounds` reports it).
    """
    return _local_search(n_players, n_colors, start, steps, seed, deadline)[0]


def _local_search(
    n_players: int, n_colors: int, start: int | None, steps: int, seed: int, deadline: float | None,
) -> tuple[int, bool]:
    """`local_search` and whether it ran all its steps."""
    n, m = check_world(n_players, n_colors)
    rng = np.random.default_rng(seed)
    total = m**n
    lost = full_mask(n, m) & ~start if start is not None else full_mask(n, m) & ~single_player_won_set(n, m)
    score = won_given_lost(lost, n, m).bit_count()
    best_lost, best = lost, score
    flips = rng.integers(0, total, size=steps)
    coins = rng.random(steps)
    for k in range(steps):
        if deadline is not None and k % 256 == 0 and time.monotonic() > deadline:
            return won_given_lost(best_lost, n, m), False
        cand = lost ^ (1 << int(flips[k]))
        cand_score = won_given_lost(cand, n, m).bit_count()
        temperature = 1.0 * (1 - k / steps) + 1e-3
        if cand_score >= score or coins[k] < math.exp((cand_score - score) / temperature):
            lost, score = cand, cand_score
            if score > best:
                best_lost, best = lost, score
    return won_given_lost(best_lost, n, m), True


def cpsat_model(n_players: int, n_colors: int = 2):
    """Maximise won rounds: won[x] needs a line through x whose other rounds are all lost."""
    n, m = check_world(n_players, n_colors)
    model = cp_model.CpModel()
    won = [model.NewBoolVar(f"won{x}") for x in range(m**n)]
    st = stubs(n, m)
    for x in range(m**n):
        lines = []
        for i, stub in enumerate(st[x]):
            others = list(bits(stub))
            if len(others) == 1:
                lines.append(won[others[0]].Not())
            else:
                y = model.NewBoolVar(f"line{x}_{i}")
                for z in others:
                    model.AddImplication(y, won[z].Not())
                lines.append(y)
        model.AddBoolOr(lines).OnlyEnforceIf(won[x])
    # symmetry: permuting the colours of each player separately maps won sets to won sets and
    # moves any round to round 0; some round is lost, so round 0 may be taken lost
    model.Add(won[0] == 0)
    model.Maximize(sum(won))
    return model, won


def cpsat_bounds(
    n_players: int, n_colors: int = 2, time_limit: float = 60.0, hint: int | None = None,
    deterministic_limit: float | None = None,
):
    """(status, best won mask, proven upper bound) from CP-SAT.

    With `deterministic_limit` the answer is the same on every machine (`solvers.solve_limited`):
    if `time_limit` runs out first, WallClockStop is raised instead of a machine-dependent answer.
    """
    n, m = check_world(n_players, n_colors)
    model, won = cpsat_model(n, m)
    if hint is not None:
        for x, v in enumerate(won):
            model.AddHint(v, bool(hint >> x & 1))
    if deterministic_limit is None:
        res = solve(model, time_limit=time_limit)
    else:
        res = solve_limited(model, deterministic_limit, deadline=Deadline(time_limit), what=f"hats N = {n}, M = {m}")
    if not res.feasible:
        return res.status, None, None
    mask = sum(1 << x for x, v in enumerate(won) if res.value(v))
    return res.status, mask, int(math.floor(res.bound + 1e-9))


def optimum_bounds(
    n_players: int, n_colors: int = 2, time_limit: float = 60.0, search_steps: int = 20000,
    known: dict[int, int] | None = None, deterministic_limit: float | None = CPSAT_WORK_UNITS,
) -> Bounds:
    """Lower and upper bounds on the most rounds a deal wins, with the method; equal when proven.

    The defaults run the pipeline of the cached table data/hats_optima.csv. `known`: won sets of
    smaller worlds (same M) for the product construction; None computes them first, N = 2, 3, ...
    with these same arguments (as the table does). Limits: `search_steps` fixes the local search,
    `deterministic_limit` (CP-SAT work units) fixes CP-SAT, and its incumbent may raise the lower
    bound only under it (None: CP-SAT counts only when it proves optimality). `time_limit` is a
    wall-clock budget for the whole call, a safety net: the local search and CP-SAT stop when it
    runs out (the method then says so, and the result depends on the machine). The exhaustive
    methods are not interrupted (they take at most a few seconds in the worlds they accept).
    """
    n, m = check_world(n_players, n_colors)
    if time_limit <= 0:
        raise ValueError(f"time_limit must be positive, got {time_limit}")
    return _bounds(n, m, search_steps, known, deterministic_limit, time.monotonic() + time_limit)


def _bounds(
    n: int, m: int, search_steps: int, known: dict[int, int] | None, deterministic_limit: float | None,
    deadline: float,
) -> Bounds:
    """`optimum_bounds` against an absolute deadline (time.monotonic())."""
    if n_deals(n, m) <= MAX_DEALS and m**n <= 64:
        bf = brute_force(n, m)
        k = int(np.argmax(bf.wins))
        best = int(bf.won[k])
        return Bounds(n, m, best.bit_count(), best.bit_count(), "exhaustive over all deals", best)
    if m**n <= 16:
        best = exhaustive_over_lost_sets(n, m)
        return Bounds(n, m, best.bit_count(), best.bit_count(), "exhaustive over all won sets", best)
    upper, upper_name = upper_bound(n, m)
    if known is None and m >= 3:  # the product construction uses the smaller worlds' best deals
        known = {}
        for k in range(2, n):
            known[k] = _bounds(k, m, search_steps, dict(known), deterministic_limit, deadline).witness
    witness, cons_name = construction(n, m, known)
    if witness.bit_count() == upper:
        return Bounds(n, m, upper, upper, f"combinatorial: {cons_name} meets the {upper_name}", witness)
    if m == 2 and n <= 6:
        best = branch_and_bound_optimum(n, 2**n - upper)
        method = "exhaustive branch and bound over lost sets"
        return Bounds(n, m, best.bit_count(), best.bit_count(), method, best)
    small = m**n <= 100  # small worlds get four longer restarts
    seeds, steps = (range(4), 3 * search_steps) if small else (range(1), search_steps)
    runs = [_local_search(n, m, witness, steps, k, deadline) for k in seeds]
    searched = max((w for w, _ in runs), key=int.bit_count)
    if searched.bit_count() > witness.bit_count():
        witness, cons_name = searched, "seeded local search"
    if witness.bit_count() == upper:
        return Bounds(n, m, upper, upper, f"combinatorial: {cons_name} meets the {upper_name}", witness)
    left = deadline - time.monotonic()
    if not all(done for _, done in runs) or left <= 0:
        why = "local search cut short by" if not all(done for _, done in runs) else "no CP-SAT: reached"
        method = f"open: {cons_name} vs {upper_name} ({why} the time limit)"
        return Bounds(n, m, witness.bit_count(), upper, method, witness)
    # A time-limited incumbent or bound would make the cached tables depend on the machine's
    # speed: CP-SAT's incumbent counts only under a deterministic limit, its bound only if OPTIMAL.
    try:
        status, mask, bound = cpsat_bounds(n, m, left, hint=witness, deterministic_limit=deterministic_limit)
    except WallClockStop:
        return Bounds(n, m, witness.bit_count(), upper, f"open: {cons_name} vs {upper_name} (CP-SAT cut short by "
                      "the time limit)", witness)
    if status == "OPTIMAL":
        if mask.bit_count() > witness.bit_count():
            witness = mask
        return Bounds(n, m, witness.bit_count(), witness.bit_count(), "CP-SAT OPTIMAL", witness)
    if deterministic_limit is not None and mask is not None and mask.bit_count() > witness.bit_count():
        if not achievable_mask(mask, n, m):
            raise AssertionError("CP-SAT returned a won set that no deal achieves")
        witness, cons_name = mask, f"CP-SAT hinted with the {cons_name} ({deterministic_limit:g} work units)"
    return Bounds(n, m, witness.bit_count(), upper, f"open: {cons_name} vs {upper_name}", witness)


def optimum(
    n_players: int, n_colors: int = 2, time_limit: float = 60.0, search_steps: int = 20000,
    deterministic_limit: float | None = CPSAT_WORK_UNITS,
) -> int:
    """The exact number of rounds an optimal deal wins; NotProvenError when not proven within the limits.

    Same pipeline and limits as `optimum_bounds` (time_limit is a wall-clock budget for the call).
    """
    b = optimum_bounds(n_players, n_colors, time_limit, search_steps, deterministic_limit=deterministic_limit)
    if not b.proven:
        raise NotProvenError(
            f"optimum for N = {n_players}, M = {n_colors} not proven within the limits "
            f"({time_limit} s, {search_steps} search steps, {deterministic_limit} CP-SAT work units): "
            f"{b.lower} <= optimum <= {b.upper}"
        )
    return b.lower
