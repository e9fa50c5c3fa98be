"""Won sets made of orbits of a symmetry of the hat game: best deals of the largest worlds (ours).

Renaming the players and, separately for each player, the colours maps deals to deals and won
sets to won sets (the game's symmetry group, the wreath product S_M wr S_N). If a won set is a
union of orbits of one symmetry g, whether a round has a serving line (a line whose other rounds
are all lost) is the same for every round of its orbit, so one constraint per orbit decides it
(the Kramer–Mesner idea, as in Russian Cards' `orbits`). CP-SAT then chooses among a few dozen
orbits instead of hundreds of rounds.

Up to conjugacy a symmetry is a *twisted shift*: the players fall into cycles, each player takes
the next one's hat, and the last player of a cycle takes the first one's hat through a colour
permutation, the cycle's twist; only the twist's cycle type matters. `symmetry_classes` lists
one symmetry per class, `best_on_orbits` maximises over one, `orbit_search` tries them all
(fewest orbits first, each under a deterministic CP-SAT limit) and keeps the best won set.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import from_bits
from ..solvers import Deadline, solve_limited
from .sets import LARGE_WORLD, achievable_mask
from .world import check_world, check_world_within

__all__ = ["ORBIT_WORK_UNITS", "MAX_ORBITS", "Symmetry", "best_on_orbits", "orbit_search",
           "orbits", "symmetry_classes", "twisted_shift"]

ORBIT_WORK_UNITS = 2.0  # CP-SAT's deterministic limit per symmetry in `orbit_search`
MAX_ORBITS = 40  # `orbit_search` skips symmetries with more orbits than this


@dataclass(frozen=True)
class Symmetry:
    """A twisted shift: player cycles (lengths, in order) and each cycle's colour twist."""

    cycles: tuple[int, ...]
    twists: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        checks.record(self)
        if len(self.twists) != len(self.cycles) or min(self.cycles, default=1) < 1:
            raise ValueError(f"a symmetry has cycles of at least one player, one twist each; got "
                             f"cycles {self.cycles} and {len(self.twists)} twists")
        for t in self.twists:
            if sorted(t) != list(range(len(t))):
                raise ValueError(f"every twist must be a permutation of the {len(t)} colours "
                                 f"0..{len(t) - 1}, got {t}")

    def __str__(self) -> str:
        """E.g. "5-cycle twisted by (0 1 2)": the cycles of players, each with its twist."""
        return ", ".join(f"{c}-cycle" + ("" if _cycle_notation(t) == "()" else
                                         f" twisted by {_cycle_notation(t)}")
                         for c, t in zip(self.cycles, self.twists))


def _cycle_notation(perm: tuple[int, ...]) -> str:
    """A colour permutation in cycle notation, fixed colours left out: (0 1)(2 3); () for none."""
    seen, parts = set(), []
    for x in range(len(perm)):
        cycle = []
        while x not in seen:
            seen.add(x)
            cycle.append(x)
            x = perm[x]
        if len(cycle) > 1:
            parts.append("(" + " ".join(map(str, cycle)) + ")")
    return "".join(parts) or "()"


def _partitions(k: int, most: int | None = None) -> Iterator[tuple[int, ...]]:
    """Partitions of k, parts non-increasing, largest first."""
    if k == 0:
        yield ()
        return
    for p in range(min(k, most or k), 0, -1):
        for rest in _partitions(k - p, p):
            yield (p, *rest)


def _permutation_of_type(cycle_type: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation 0 -> 1 -> ... of consecutive blocks with the given cycle lengths."""
    perm, start = [], 0
    for c in cycle_type:
        perm += [start + (j + 1) % c for j in range(c)]
        start += c
    return tuple(perm)


def symmetry_classes(n_players: int, n_colors: int) -> list[Symmetry]:
    """One twisted shift per conjugacy class of the game's symmetry group, in a fixed order."""
    n, m = check_world(n_players, n_colors)
    twists = [_permutation_of_type(t) for t in _partitions(m)]
    seen, out = set(), []
    for cycles in _partitions(n):
        for chosen in itertools.product(range(len(twists)), repeat=len(cycles)):
            key = tuple(sorted(zip(cycles, chosen)))
            if key not in seen:
                seen.add(key)
                out.append(Symmetry(cycles, tuple(twists[k] for k in chosen)))
    return out


def _orbit_world(n_players: int, n_colors: int) -> tuple[int, int]:
    """A world of at most LARGE_WORLD rounds (the optimum pipeline's worlds)."""
    return check_world_within(n_players, n_colors, LARGE_WORLD, "orbit searches run")


def _check_symmetry(g: Symmetry, n: int, m: int) -> None:
    if not isinstance(g, Symmetry):
        raise checks.ArgumentTypeError(f"expected a Symmetry, got {g!r}")
    if sum(g.cycles) != n or min(g.cycles, default=0) < 1 or len(g.twists) != len(g.cycles):
        raise ValueError(f"{g} does not split {n} players into cycles with one twist each")
    if any(sorted(t) != list(range(m)) for t in g.twists):
        raise ValueError(f"{g}: every twist must be a permutation of the {m} colours")


def twisted_shift(g: Symmetry, n_players: int, n_colors: int) -> tuple[int, ...]:
    """The symmetry as a permutation of the M**N rounds (player 1's hat the leading digit)."""
    n, m = check_world(n_players, n_colors)
    _check_symmetry(g, n, m)
    image = []
    for hats in itertools.product(range(m), repeat=n):
        out, start = list(hats), 0
        for c, twist in zip(g.cycles, g.twists):
            out[start:start + c - 1] = hats[start + 1:start + c]
            out[start + c - 1] = twist[hats[start]]
            start += c
        image.append(sum(h * m ** (n - 1 - i) for i, h in enumerate(out)))
    return tuple(image)


def orbits(perm: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The cycles of a permutation of the rounds, each from its smallest round, in order."""
    perm = checks.integers(perm, "perm (round indices)")
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"perm must list each of the rounds 0 .. {len(perm) - 1} once")
    seen, out = set(), []
    for x in range(len(perm)):
        if x not in seen:
            cycle, y = [], x
            while y not in seen:
                seen.add(y)
                cycle.append(y)
                y = perm[y]
            out.append(tuple(cycle))
    return out


def _line(x: int, i: int, n: int, m: int) -> list[int]:
    """The other M - 1 rounds on the line through round x in direction i (player i's hat)."""
    w = m ** (n - 1 - i)
    base = x - (x // w) % m * w
    return [base + c * w for c in range(m) if base + c * w != x]


def best_on_orbits(n_players: int, n_colors: int, g: Symmetry, work: float = ORBIT_WORK_UNITS,
                   time_limit: float | None = None) -> tuple[int, bool]:
    """(largest won set that is a union of g's orbits found by CP-SAT, proven largest among them).

    One orbit variable each; a chosen orbit's first round needs a serving line, a direction whose
    other M - 1 rounds lie in unchosen orbits (a line through two rounds of one orbit cannot
    serve). CP-SAT runs on one worker under `work` deterministic units, so the answer is the
    same on every machine (WallClockStop if the wall clock, or `time_limit` seconds, stops it
    first); the won set returned is checked with `sets.achievable_mask`.
    """
    n, m = _orbit_world(n_players, n_colors)
    work = checks.number(work, "work", low=0.001, high=1e4)
    return _best_on_orbits(n, m, g, work, Deadline(time_limit))


def _best_on_orbits(n: int, m: int, g: Symmetry, work: float, deadline: Deadline
                    ) -> tuple[int, bool]:
    """`best_on_orbits` on a checked world, under a shared wall-clock budget."""
    cycles = orbits(twisted_shift(g, n, m))
    orbit_of = {x: k for k, cycle in enumerate(cycles) for x in cycle}
    model = cp_model.CpModel()
    chosen = [model.NewBoolVar(f"orbit{k}") for k in range(len(cycles))]
    for k, cycle in enumerate(cycles):
        serving = []
        for i in range(n):
            others = {orbit_of[y] for y in _line(cycle[0], i, n, m)}
            if k not in others:
                line = model.NewBoolVar(f"serve{k}_{i}")
                for j in others:
                    model.AddImplication(line, chosen[j].Not())
                serving.append(line)
        model.AddBoolOr(serving).OnlyEnforceIf(chosen[k])
    model.Maximize(sum(len(cycle) * v for cycle, v in zip(cycles, chosen)))
    res = solve_limited(model, work, deadline=deadline,
                        what=f"hats N = {n}, M = {m}, orbits of {g}")
    if not res.feasible:
        return 0, res.optimal
    won = from_bits(x for cycle, v in zip(cycles, chosen) if res.value(v) for x in cycle)
    if not achievable_mask(won, n, m):
        raise AssertionError(f"a union of orbits of {g} failed the won-set test")
    return won, res.optimal


def orbit_search(n_players: int, n_colors: int, work: float = ORBIT_WORK_UNITS,
                 max_orbits: int = MAX_ORBITS, time_limit: float | None = None
                 ) -> tuple[int, Symmetry | None]:
    """The best won set over `symmetry_classes` with at most `max_orbits` orbits, and its symmetry
    (fewest orbits first; a later symmetry replaces the best only if strictly larger).

    `time_limit` (seconds, a safety net) raises WallClockStop when it runs out first.
    """
    n, m = _orbit_world(n_players, n_colors)
    work = checks.number(work, "work", low=0.001, high=1e4)
    most = checks.integer(max_orbits, "max_orbits", low=1)
    deadline = Deadline(time_limit)
    sized = []
    for k, g in enumerate(symmetry_classes(n, m)):
        deadline.cap(0, f"orbit search N = {n}, M = {m}")  # raises once the budget is spent
        sized.append((len(orbits(twisted_shift(g, n, m))), k, g))
    best, best_g = 0, None
    for count, _, g in sorted(sized, key=lambda t: t[:2]):
        if count > most:
            break
        won, _ = _best_on_orbits(n, m, g, work, deadline)
        if won.bit_count() > best.bit_count():
            best, best_g = won, g
    return best, best_g
