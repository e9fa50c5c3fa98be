"""The full-line lemma with slack: sharper upper bounds for the larger worlds (ours).

The full-line lemma (`fullline`) needs a direction forced to its cap with no slack. Here the
same counting is carried through every case. Let W be an achievable won set of k rounds, L its
lost set, l = M**N - k. As there, u_i counts the lines of direction i that meet W exactly once;
every won round needs such a line (a *serving* line, `sets` module docstring) and each serves one
round, so u_1 + ... + u_N >= k, while u_i <= c = floor(l / (M - 1)). Number the players so that
direction 1 has the most: ceil(k / N) <= u <= c, where u = u_1. For each such u:

- the u *single* positions (lines of direction 1, indexed by the other players' hats) hold
  (M - 1) u lost rounds; the other s = l - (M - 1) u lost rounds (the *slack*) lie on E *empty*
  positions (no won round, M lost) and P *partial* ones (2 to M - 1 won), so
  P <= s - M E <= (M - 2) P, and F = M**(N-1) - u - P - E positions are *full* (all M won);
- a full position p has its won round in layer a (player 1's hat) served by a line of another
  direction j, whose other M - 1 positions q all have (a, q) lost: that j-line is *free* for p
  and holds p as its only full position;
- a partial position's won rounds are not served along direction 1 either, so each lies on a
  j-line with no full position at all; one such line serves at most `most_services` of them,
  and only a line given all M layers (its partial positions' won rounds part them) more than
  M - 1, so at least Z such lines are needed (`fewest_zero_full_lines`);
- direction j's M**(N-2) lines part the positions: its free lines (one full position each),
  its z_j lines without one, and lines holding 2 to M full positions each, which bounds its
  free lines (`most_free_lines`);
- one direction serves all M layers of p only when its other M - 1 positions are empty; at most
  X of the full positions are so served (X = C(E, M - 1) for M >= 3, E (N - 1) for M = 2), and
  every other one needs two free directions.

So 2 F - X is at most the most free lines any spread of Z lines over the N - 1 directions
leaves; where that fails for every u, P and E, no won set has k rounds, nor any larger
(removing a won round keeps a set achievable): the optimum is at most k - 1. A split where it
holds with equality everywhere is rigid (`rigid_split`) and searched exactly by `rigid`.
`reduced_feasible` decides each case again with CP-SAT on positions and layers alone, an
independent check of the counting (not of the reduction to positions).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import lru_cache

import pandas as pd
from ortools.sat.python import cp_model

from .. import checks
from ..solvers import solve_limited
from .fullline import cap
from .rigid import MAX_COLORS, rigid_structures
from .world import check_world, check_world_within

__all__ = ["CASE_COLUMNS", "MAX_SLACK_ROUNDS", "case_excluded", "case_rows", "cases", "certificate",
           "excluded", "fewest_zero_full_lines", "most_free_lines", "most_services",
           "reduced_feasible", "rigid_split", "slack_upper_bound", "split_counts"]

MAX_SLACK_ROUNDS = 256  # N = 4, M = 4's size; larger worlds take minutes to search
CASE_COLUMNS = ["n_players", "n_colors", "k", "u", "slack", "partial", "empty", "full",
                "nonfull", "one_direction", "zero_full_lines", "needed", "free_lines",
                "rigid_structures", "excluded"]


def cases(n_players: int, n_colors: int, k: int) -> range:
    """The values u of the busiest direction's serving lines a won set of k rounds allows."""
    n, m = check_world(n_players, n_colors)
    k = checks.integer(k, "k", low=1, high=m**n)
    return range(-(-k // n), cap(n, m, k) + 1)


def most_free_lines(n_players: int, n_colors: int, nonfull: int, zero_full: int) -> int | None:
    """The most free lines N - 1 directions can hold with `nonfull` non-full positions and
    `zero_full` lines without a full position among them (None when those do not fit)."""
    n, m = check_world_within(n_players, n_colors, MAX_SLACK_ROUNDS, "free lines are counted")
    nonfull = checks.integer(nonfull, "nonfull", low=0, high=m ** (n - 1))
    zero_full = checks.integer(zero_full, "zero_full", low=0, high=n * m ** (n - 1))
    full, per_direction = m ** (n - 1) - nonfull, m ** (n - 2)
    most = [_most_free_in_direction(n, m, full, z) for z in range(per_direction + 1)]
    best = {0: 0}  # lines without a full position spread so far -> most free lines
    for _ in range(n - 1):  # the directions alike: the best spread, direction by direction
        spread: dict[int, int] = {}
        for placed, free in best.items():
            for z, f in enumerate(most[: zero_full - placed + 1]):
                if f is not None:
                    spread[placed + z] = max(spread.get(placed + z, 0), free + f)
        best = spread
    return best.get(zero_full)


def _most_free_in_direction(n: int, m: int, full: int, zero_full: int) -> int | None:
    """The most lines with exactly one full position a direction holds beside `zero_full`
    lines without one: its M**(N-2) lines part the positions, each full position lies on one
    of them, and the full positions not alone on a line share lines of 2 to M."""
    def shared_lines(rest: int) -> int | None:
        lines = -(-rest // m)
        return lines if 2 * lines <= rest or rest == 0 else None

    for free in range(full, -1, -1):
        rest = shared_lines(full - free)
        if rest is not None and free + zero_full + rest <= m ** (n - 2):
            return free
    return None


def most_services(n_colors: int, partial: int, lost: int) -> int:
    """The most won rounds of partial positions one line without a full position can serve,
    when `partial` partial positions hold `lost` lost rounds (at least 1 each).

    A lone partial position has its own M - r won rounds served at most. Of t >= 2 on a line,
    position i is served only in layers it has won and all the others have lost: those sets are
    disjoint (at most M in all) and each served layer is lost by t - 1 of them, so at most
    floor((r_1 + ... + r_t) / (t - 1)), and i gets at most the fewest r_j of the others."""
    m = checks.integer(n_colors, "n_colors", low=3, high=8)
    partial = checks.integer(partial, "partial", low=1, high=8**7)
    lost = checks.integer(lost, "lost", low=partial, high=(m - 2) * partial)
    return _most_services(m, partial, lost)


@lru_cache(maxsize=4096)  # behind the checks above
def _most_services(m: int, partial: int, lost: int) -> int:
    best = 0
    for t in range(1, min(m, partial) + 1):
        for on_line in itertools.combinations_with_replacement(range(1, m - 1), t):
            rest, spare = partial - t, lost - sum(on_line)
            if not rest <= spare <= (m - 2) * rest:  # the others cannot hold the rest
                continue
            if t == 1:
                best = max(best, m - on_line[0])
            else:
                each = sum(min(m - r, min(on_line[:i] + on_line[i + 1:]))
                           for i, r in enumerate(on_line))
                best = max(best, min(m, sum(on_line) // (t - 1), each))
    return best


def fewest_zero_full_lines(n_colors: int, partial: int, lost: int) -> int:
    """The fewest lines without a full position that serve every won round of `partial`
    partial positions holding `lost` lost rounds.

    Give each such round one serving line. A line given all M layers serves each to one of its
    partial positions, which has lost the others: their won rounds part the M layers, so all
    of them are given to that line, and two such lines share no partial position. Each of those
    t >= 2 positions has won at most M - 2 rounds (lost at least 2), and at most lost - partial
    positions have, so at most (lost - partial) // 2 lines are given M; every other line is
    given at most M - 1, and at most `most_services`."""
    m = checks.integer(n_colors, "n_colors", low=3, high=8)
    partial = checks.integer(partial, "partial", low=1, high=8**7)
    lost = checks.integer(lost, "lost", low=partial, high=(m - 2) * partial)
    won, most = m * partial - lost, most_services(m, partial, lost)
    if most < m:
        return -(-won // most)
    full_lines = min((lost - partial) // 2, won // m)
    return min(q + -(-(won - m * q) // (m - 1)) for q in range(full_lines + 1))


def split_counts(n_players: int, n_colors: int, k: int, u: int, partial: int, empty: int) -> dict:
    """The counts of the module docstring for k won rounds, u serving lines in direction 1,
    and that many partial and empty positions."""
    n, m = check_world(n_players, n_colors)
    k = checks.integer(k, "k", low=1, high=m**n)
    u = checks.integer(u, "u", low=0, high=m ** (n - 1))
    partial = checks.integer(partial, "partial", low=0, high=m ** (n - 1))
    empty = checks.integer(empty, "empty", low=0, high=m ** (n - 1))
    slack = _slack(n, m, k, u)
    if not partial <= slack - m * empty <= (m - 2) * partial or u + partial + empty > m ** (n - 1):
        raise ValueError(f"{partial} partial and {empty} empty positions cannot hold exactly the "
                         f"{slack} lost rounds off the {u} single positions")
    full = m ** (n - 1) - u - partial - empty
    one = min(full, math.comb(empty, m - 1) if m > 2 else empty * (n - 1))
    lost_on_partials = slack - m * empty
    zero_full = fewest_zero_full_lines(m, partial, lost_on_partials) if partial else 0
    free = most_free_lines(n, m, m ** (n - 1) - full, zero_full)
    counted_out = free is None or 2 * full - one > free
    rigid = not counted_out and rigid_split(n, m, full, partial, lost_on_partials, zero_full,
                                            one, free)
    found = len(rigid_structures(m, full, partial, zero_full)) if rigid else -1
    return dict(n_players=n, n_colors=m, k=k, u=u, slack=slack, partial=partial, empty=empty,
                full=full, nonfull=m ** (n - 1) - full, one_direction=one,
                zero_full_lines=zero_full, needed=2 * full - one,
                free_lines=-1 if free is None else free, rigid_structures=found,
                excluded=counted_out or found == 0)


def rigid_split(n_players: int, n_colors: int, full: int, partial: int, lost: int,
                zero_full: int, one_direction: int, free_lines: int) -> bool:
    """True when a split's counts hold with equality, so that `rigid` can search it: four
    players, 4 <= M <= `rigid.MAX_COLORS`, no full position served along one direction, the
    free lines exactly the 2 F needed, the partial positions (`lost` lost rounds) each lost
    once, Z = P lines given M - 1 rounds each, and one more such line too many.

    Then each full position has exactly two free lines; no line holds two partial positions
    (two lost once each are given at most 2 < M - 1 there), so each of the Z lines holds one,
    which lies on no other; and there are exactly Z lines without a full position."""
    n, m = check_world(n_players, n_colors)
    top = n * m ** (n - 1)
    full, partial, lost, zero_full, one_direction, free_lines = (
        checks.integer(v, name, low=0, high=top) for v, name in (
            (full, "full"), (partial, "partial"), (lost, "lost"), (zero_full, "zero_full"),
            (one_direction, "one_direction"), (free_lines, "free_lines")))
    if n != 4 or not 4 <= m <= MAX_COLORS or one_direction or free_lines != 2 * full \
            or lost != partial:
        return False
    if zero_full != partial or full + partial > m ** (n - 1):
        return False
    more = most_free_lines(n, m, m ** (n - 1) - full, zero_full + 1)
    return more is None or more < 2 * full


def case_rows(n_players: int, n_colors: int, k: int, u: int) -> list[dict]:
    """`split_counts` for every way the slack of the case can make partial and empty positions."""
    return list(_rows(n_players, n_colors, k, u))


def case_excluded(n_players: int, n_colors: int, k: int, u: int) -> bool:
    """True when the counting rules out k won rounds with u serving lines in direction 1."""
    return all(row["excluded"] for row in _rows(n_players, n_colors, k, u))


def _slack(n: int, m: int, k: int, u: int) -> int:
    """The lost rounds off the u single positions (a ValueError when there are too few)."""
    slack = m**n - k - (m - 1) * u
    if slack < 0:
        raise ValueError(f"u = {u} single lines need {(m - 1) * u} lost rounds, more than the "
                         f"{m**n - k} that k = {k} leaves")
    return slack


def _rows(n_players: int, n_colors: int, k: int, u: int) -> Iterator[dict]:
    """The splits of one case, one at a time (so that `case_excluded` stops at the first kept)."""
    n, m = check_world(n_players, n_colors)
    k = checks.integer(k, "k", low=1, high=m**n)
    u = checks.integer(u, "u", low=0, high=m ** (n - 1))
    slack, room = _slack(n, m, k, u), m ** (n - 1) - u
    for e in range(min(slack // m, room) + 1):
        for p in range(min(slack - m * e, room - e) + 1):
            if p <= slack - m * e <= (m - 2) * p:
                yield split_counts(n, m, k, u, p, e)


def excluded(n_players: int, n_colors: int, k: int) -> bool:
    """True when the counting rules out every case u of k won rounds (none when k > N c)."""
    n, m = check_world(n_players, n_colors)
    return all(case_excluded(n, m, k, u) for u in cases(n, m, k))


def slack_upper_bound(n_players: int, n_colors: int) -> int:
    """The largest k below the smallest excluded one: an upper bound on the won rounds (worlds
    of at most `MAX_SLACK_ROUNDS` rounds, where the search over k takes seconds)."""
    n, m = check_world_within(n_players, n_colors, MAX_SLACK_ROUNDS, "the slack count is searched")
    return _slack_upper_bound(n, m)


@lru_cache(maxsize=64)  # behind the checks above
def _slack_upper_bound(n: int, m: int) -> int:
    return next((k for k in range(1, m**n + 1) if excluded(n, m, k)), m**n + 1) - 1


def certificate(n_players: int, n_colors: int) -> pd.DataFrame:
    """Every case of the smallest excluded k, with its counts: the proof of the upper bound."""
    n, m = check_world(n_players, n_colors)
    k = slack_upper_bound(n, m) + 1  # at most M**N, which no won set reaches
    return pd.DataFrame([row for u in cases(n, m, k) for row in case_rows(n, m, k, u)],
                        columns=CASE_COLUMNS)


def reduced_feasible(n_players: int, n_colors: int, k: int, u: int,
                     work: float = 60.0) -> bool | None:
    """CP-SAT on positions and layers alone: u single positions, l lost rounds in all, every
    won round of a position that is not single served along another direction. False = proven
    impossible, None = undecided within `work` deterministic units."""
    n, m = check_world(n_players, n_colors)
    k = checks.integer(k, "k", low=1, high=m**n)
    u = checks.integer(u, "u", low=0, high=m ** (n - 1))
    work = checks.number(work, "work", low=0.01, high=3600)
    positions = list(itertools.product(range(m), repeat=n - 1))
    model = cp_model.CpModel()
    lost = {(p, a): model.NewBoolVar("") for p in positions for a in range(m)}
    full = {p: model.NewBoolVar("") for p in positions}
    single = {(p, a): model.NewBoolVar("") for p in positions for a in range(m)}
    other = {p: model.NewBoolVar("") for p in positions}
    for p in positions:
        model.AddExactlyOne([full[p], other[p]] + [single[p, a] for a in range(m)])
        for a in range(m):
            model.AddImplication(full[p], lost[p, a].Not())
            for b in range(m):
                model.AddImplication(single[p, a], lost[p, b] if b != a else lost[p, b].Not())
        model.AddBoolOr([lost[p, a] for a in range(m)]).OnlyEnforceIf(other[p])
        for a in range(m):  # exactly one won round (in layer a) makes the position single
            model.AddBoolOr([lost[p, a]] + [lost[p, b].Not() for b in range(m) if b != a]
                            ).OnlyEnforceIf(other[p])
    model.Add(sum(single.values()) == u)
    model.Add(sum(lost.values()) == m**n - k)
    model.Add(sum(other.values()) <= m**n - k - (m - 1) * u)  # each holds a lost round of slack
    model.Add(sum(full.values()) + sum(other.values()) == len(positions) - u)
    for p, a in itertools.product(positions, range(m)):
        ways = []
        for j in range(n - 1):
            free = model.NewBoolVar("")
            for b in range(m):
                if b != p[j]:
                    model.AddImplication(free, lost[p[:j] + (b,) + p[j + 1:], a])
            ways.append(free)
        # a won round off a single position is served along another direction
        model.AddBoolOr(ways + [lost[p, a]] + [single[p, b] for b in range(m)])
    res = solve_limited(model, work, what=f"reduced hats model N = {n}, M = {m}, k = {k}, u = {u}")
    if res.infeasible:
        return False
    return True if res.feasible else None
