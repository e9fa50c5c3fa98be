"""Rigid splits of the slack count in four-player worlds, searched exactly (ours).

`slack` counts lines of the position cube (the other three players' hats, M**3 positions, three
directions of M**2 lines each): every full position needs two lines on which it is the only
full one, and the won rounds of partial positions need lines with no full position at all. A
split is *rigid* when those counts leave no room (`slack.rigid_split`): each full position has
exactly two such lines, so its third line holds another full position; exactly Z lines have
no full position, each holding exactly one partial position, which lies on no other of them.
Counting lines, 3 M**2 = 2 F + Z + G, where G is the number of lines holding two or more full
positions; no full position lies on two of them, so they part the F full positions into G
groups of 2 to M, no two positions of different groups on a common line.

`rigid_structures` searches those groups line by line and, for each full set found, whether
partial positions can be placed; none found means no won set has the split.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache

from .. import checks

__all__ = ["MAX_COLORS", "MAX_TRIES", "cube_lines", "full_sets", "partials_fit",
           "rigid_structures"]

MAX_COLORS = 4  # four-player worlds the slack count searches (at most 256 rounds)
MAX_TRIES = 2_000_000  # groups tried; N = 4, M = 4's rigid split tries 167,052

Position = tuple[int, int, int]


def cube_lines(n_colors: int) -> tuple[frozenset[Position], ...]:
    """The 3 M**2 lines of the position cube of a four-player world, direction by direction."""
    return _cube_lines(checks.integer(n_colors, "n_colors", low=2, high=MAX_COLORS))


@lru_cache(maxsize=8)  # behind the check above
def _cube_lines(m: int) -> tuple[frozenset[Position], ...]:
    out = []
    for j in range(3):
        for rest in itertools.product(range(m), repeat=2):
            out.append(frozenset(rest[:j] + (a,) + rest[j:] for a in range(m)))
    return tuple(out)


def _collinear(p: Position, q: Position) -> bool:
    """Two positions on a common line: they differ in exactly one hat."""
    return sum(a != b for a, b in zip(p, q)) == 1


def partials_fit(n_colors: int, full: frozenset[Position]) -> bool:
    """True when every line without a full position holds a position that lies on no other
    such line, where a partial position of a rigid split can sit (one per line)."""
    m = checks.integer(n_colors, "n_colors", low=2, high=MAX_COLORS)
    cube = set(itertools.product(range(m), repeat=3))
    if isinstance(full, (str, bytes)) or not isinstance(full, (set, frozenset, list, tuple)) \
            or not all(isinstance(p, tuple) and p in cube for p in full):
        raise ValueError(f"full must be a set of positions of the cube [{m}]^3 (three hats "
                         f"0..{m - 1}), not {full!r:.80}")
    full = frozenset(full)
    lines = [ln for ln in cube_lines(m) if not ln & full]
    return all(any(sum(p in other for other in lines) == 1 for p in ln) for ln in lines)


def rigid_structures(n_colors: int, full: int, partial: int, zero_full: int,
                     limit: int | None = 1) -> list[frozenset[Position]]:
    """Full position sets of a rigid split (at most `limit` of them; None for all) on which
    `partial` partial positions fit, for `full` full positions and `zero_full` lines without one."""
    m = checks.integer(n_colors, "n_colors", low=2, high=MAX_COLORS)
    full = checks.integer(full, "full", low=0, high=m**3)
    partial = checks.integer(partial, "partial", low=0, high=m**3)
    zero_full = checks.integer(zero_full, "zero_full", low=0, high=3 * m**2)
    if limit is not None:
        limit = checks.integer(limit, "limit", low=1, high=10**9)
    groups = 3 * m**2 - 2 * full - zero_full
    if partial != zero_full or not 2 * groups <= full <= m * groups:
        return []  # each line without a full position holds exactly one partial position
    found = []
    for candidate in full_sets(m, full, groups):
        if partials_fit(m, candidate):
            found.append(candidate)
            if limit is not None and len(found) >= limit:
                break
    return found


def full_sets(n_colors: int, full: int, groups: int) -> Iterator[frozenset[Position]]:
    """Every set of `full` positions made of `groups` groups, each 2 to M positions of one line,
    no two positions of different groups on a common line (groups in the order of their lines)."""
    m = checks.integer(n_colors, "n_colors", low=2, high=MAX_COLORS)
    full = checks.integer(full, "full", low=0, high=m**3)
    groups = checks.integer(groups, "groups", low=0, high=3 * m**2)
    lines, tries = cube_lines(m), itertools.count(1)

    def extend(start: int, chosen: frozenset[Position], left: int, points: int):
        if left == 0:
            if points == 0:
                yield chosen
            return
        for i in range(start, len(lines)):
            for size in range(2, m + 1):
                if not 2 * (left - 1) <= points - size <= m * (left - 1):
                    continue
                for group in itertools.combinations(sorted(lines[i]), size):
                    if next(tries) > MAX_TRIES:
                        raise ValueError(f"the rigid search for M = {m}, {full} full positions "
                                         f"in {groups} groups tries more than {MAX_TRIES:,} "
                                         "groups; rigid splits of the slack count take fewer")
                    if any(_collinear(p, q) or p == q for p in group for q in chosen):
                        continue
                    yield from extend(i + 1, chosen | set(group), left - 1, points - size)

    yield from extend(0, frozenset(), groups, full)
