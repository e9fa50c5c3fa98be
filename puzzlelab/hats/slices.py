"""An exact upper bound by slices: the smallest slice of a lost set, up to symmetry (ours).

Fix a player i and a colour a: the rounds where player i wears colour a form a *slice*, a copy of
the world of the other N - 1 players (M**(N-1) rounds). A deal's lost set L meets the N M slices;
those of one player partition L, so the smallest slice of L holds at most floor(|L| / M) rounds.
Permuting the players, and the colours of each player separately, maps deals to deals (the hat
game's automorphisms), so we may take the smallest slice to be player 1's colour 0, and then
replace it by the canonical member of its orbit under the automorphisms of the other N - 1
players (`slice_orbits`).

To show that no deal loses only `lost` rounds (so that at least lost + 1 rounds are lost and at
most M**N - lost - 1 are won) it is enough to rule out each canonical first slice S with
|S| <= lost // M (`refute`):

- *counting*: a round of slice 0 outside S that no line inside slice 0 serves (`uncovered`) must
  be served by player 1's line, whose other M - 1 rounds are then lost; so every other slice of
  player 1 holds those rounds and at least |S| rounds, and |L| >= |S| + (M - 1) max(|S|, |U|);
- *solver*: otherwise CP-SAT decides the rest of the world with slice 0 fixed to S, every slice
  at least |S| and |L| <= lost; INFEASIBLE rules S out.

`slice_certificate` lists every canonical slice with how it was ruled out: the certificate that
`tests/test_hats_slices.py` re-checks (orbit counts by Burnside's lemma, the method against
exhaustive optima in small worlds). Feasible for M**(N-1) <= 27 (M = 3, N <= 4; M = 2, N <= 6).
"""

from __future__ import annotations

import itertools
import time
from functools import lru_cache

import numpy as np
import pandas as pd
from ortools.sat.python import cp_model

from .. import checks
from ..progress import tqdm
from ..solvers import WallClockStop, solve_limited
from .sets import lines_through, won_round_vars
from .world import LETTERS, check_world, largest_players

__all__ = ["MAX_SLICE_ROUNDS", "SLICE_WORK_UNITS", "canonical", "point_permutations", "refute",
           "refute_slice", "slice_certificate", "slice_orbits", "uncovered"]

MAX_SLICE_ROUNDS = 27  # slices of at most this many rounds (2**27 subsets, 27-bit masks)
SLICE_WORK_UNITS = 60.0  # CP-SAT's deterministic limit for one canonical slice
_CHUNK = 9  # bits per lookup table when permuting masks


def _slice_world(n_players: int, n_colors: int) -> tuple[int, int, int]:
    """(N, M, rounds of a slice) for a world whose slices `slice_orbits` can enumerate."""
    n, m = check_world(n_players, n_colors)
    size = m ** (n - 1)
    if size > MAX_SLICE_ROUNDS:
        raise ValueError(f"slices of {size} rounds are too many to enumerate (at most "
                         f"{MAX_SLICE_ROUNDS}: M = 3 with N <= 4, M = 2 with N <= 6)")
    return n, m, size


def _small_world(k: int, m: int) -> tuple[int, int, int]:
    """(k, m, m**k) for a world of k >= 1 players and m colours with at most MAX_SLICE_ROUNDS
    rounds (its sets of rounds are the slices above; refused up front otherwise)."""
    k = checks.integer(k, "k (players)", low=1)
    m = checks.integer(m, "m (colours)", low=2, high=len(LETTERS))
    most = largest_players(m, MAX_SLICE_ROUNDS)
    checks.within_budget(f"a slice of {k} players and {m} colours", checks.power(m, k),
                         MAX_SLICE_ROUNDS, unit="rounds",
                         largest=f"{most} players with {m} colours")
    return k, m, m**k


def _masks(masks: object, size: int) -> np.ndarray:
    """Sets of rounds of a slice of `size` rounds as an int64 array (checked in one pass)."""
    if not (isinstance(masks, np.ndarray) and masks.dtype.kind in "iu"):
        masks = np.array(checks.integers(masks, "masks", low=0), dtype=object)
    if masks.size and (masks.min() < 0 or masks.max() >= 1 << size):
        raise ValueError(f"masks must be sets of the {size} rounds (0 <= mask < 2**{size})")
    return masks.astype(np.int64).ravel()


def point_permutations(k: int, m: int) -> np.ndarray:
    """Every automorphism of the world of k players and m colours, as a permutation of its rounds.

    Row g maps round p to round perm[g, p] (rounds numbered as `model.rounds`, first player most
    significant); k! (m!)**k rows, the group that permutes players and each player's colours.
    """
    k, m, _ = _small_world(k, m)
    return _point_permutations(k, m)


@lru_cache(maxsize=8)
def _point_permutations(k: int, m: int) -> np.ndarray:
    points = list(itertools.product(range(m), repeat=k))
    weights = [m ** (k - 1 - j) for j in range(k)]
    out = []
    for order in itertools.permutations(range(k)):
        for colours in itertools.product(itertools.permutations(range(m)), repeat=k):
            out.append([sum(colours[j][p[order[j]]] * weights[j] for j in range(k))
                        for p in points])
    return np.array(out, dtype=np.int64)


@lru_cache(maxsize=8)
def _tables(k: int, m: int) -> np.ndarray:
    """tables[g, c, v]: the image under g of the rounds 9c + j, j a bit of v (masks permuted fast)."""
    perms = _point_permutations(k, m)
    size = m**k
    chunks = -(-size // _CHUNK)
    out = np.zeros((len(perms), chunks, 1 << _CHUNK), dtype=np.int64)
    for c in range(chunks):
        for j in range(min(_CHUNK, size - _CHUNK * c)):
            bit = np.int64(1) << perms[:, _CHUNK * c + j]
            has = (np.arange(1 << _CHUNK) >> j) & 1
            out[:, c, :] |= np.where(has[None, :] == 1, bit[:, None], 0)
    return out


def _images(masks: np.ndarray, k: int, m: int) -> np.ndarray:
    """images[g, i]: the mask masks[i] moved by automorphism g."""
    tables = _tables(k, m)
    out = np.zeros((tables.shape[0], len(masks)), dtype=np.int64)
    for c in range(tables.shape[1]):
        out |= tables[:, c, (masks >> (_CHUNK * c)) & ((1 << _CHUNK) - 1)]
    return out


def canonical(masks: np.ndarray, k: int, m: int) -> np.ndarray:
    """The least mask of each one's orbit (its canonical form), in batches to bound memory."""
    k, m, size = _small_world(k, m)
    return _canonical(_masks(masks, size), k, m)


def _canonical(masks: np.ndarray, k: int, m: int) -> np.ndarray:
    step = max(1, 2_000_000 // len(_point_permutations(k, m)))
    parts = [_images(masks[i:i + step], k, m).min(axis=0) for i in range(0, len(masks), step)]
    return np.concatenate(parts) if parts else masks


def slice_orbits(k: int, m: int, most: int, *, deadline: float | None = None
                 ) -> list[np.ndarray]:
    """Canonical sets of rounds of the k-player, m-colour world, by size 0..most (one per orbit).

    Built size by size: each canonical set of size s, with one round added, canonicalized; the
    distinct results are the orbits of size s + 1 (every set of size s + 1 contains one of size s).
    `deadline` (time.monotonic()): raise WallClockStop if it passes before the last size.
    """
    k, m, size = _small_world(k, m)
    most = checks.integer(most, "most", low=0, high=size)
    deadline = checks.number(deadline, "deadline", allow_none=True)
    level = np.zeros(1, dtype=np.int64)
    out = [level]
    for s in range(most):
        if deadline is not None and time.monotonic() > deadline:
            raise WallClockStop(f"canonical slices k = {k}, M = {m}: the time limit ran out at "
                                f"size {s} of {most}")
        grown = (level[:, None] | (np.int64(1) << np.arange(size, dtype=np.int64))[None, :]).ravel()
        grown = np.unique(grown[np.bitwise_count(grown) == np.bitwise_count(level).max() + 1])
        level = np.unique(_canonical(grown, k, m))
        out.append(level)
    return out


def uncovered(lost: int, k: int, m: int) -> int:
    """Rounds outside `lost` that no line of the k-player world serves (a line all lost but them)."""
    k, m, size = _small_world(k, m)
    lost = checks.integer(lost, "lost", low=0, high=(1 << size) - 1)
    out = 0
    for p, row in enumerate(lines_through(k, m)):
        if not lost >> p & 1 and not any(all(lost >> q & 1 for q in line) for line in row):
            out |= 1 << p
    return out


def _rest_model(n: int, m: int, first: int, lost: int) -> cp_model.CpModel:
    """CP-SAT: the won rounds with slice 0 lost exactly on `first`, |L| <= lost, slices >= |S|."""
    model = cp_model.CpModel()
    total, size = m**n, m ** (n - 1)
    won = won_round_vars(model, n, m)
    for p in range(size):
        model.add(won[p] == 1 - (first >> p & 1))
    model.add(sum(won) >= total - lost)
    most_won = size - first.bit_count()
    for j in range(n):  # slice 0 of player 1 is the smallest slice of all players
        w = m ** (n - 1 - j)
        for c in range(m):
            model.add(sum(won[x] for x in range(total) if (x // w) % m == c) <= most_won)
    return model


def refute_slice(n_players: int, n_colors: int, first: int, lost: int,
                 work: float = SLICE_WORK_UNITS) -> str:
    """How a deal losing at most `lost` rounds with smallest slice `first` is ruled out.

    "counting", "CP-SAT INFEASIBLE", or, where it is not: "FEASIBLE" (such a deal exists) or
    "UNKNOWN" (CP-SAT ran out of work). Deterministic.
    """
    n, m, size = _slice_world(n_players, n_colors)
    first = checks.integer(first, "first", low=0, high=(1 << size) - 1)
    lost = checks.integer(lost, "lost", low=0, high=m**n)
    s, u = first.bit_count(), uncovered(first, n - 1, m).bit_count()
    if s + (m - 1) * max(s, u) > lost:
        return "counting"
    res = solve_limited(_rest_model(n, m, first, lost), work, what=f"hats slice {first:x}")
    return "CP-SAT INFEASIBLE" if res.infeasible else "FEASIBLE" if res.feasible else "UNKNOWN"


def refute(n_players: int, n_colors: int, lost: int, work: float = SLICE_WORK_UNITS, *,
           deadline: float | None = None) -> pd.DataFrame:
    """`refute_slice` on every canonical first slice of at most lost // M rounds: one row each.

    `deadline` (time.monotonic()): raise WallClockStop if it passes before the last slice."""
    n, m, _ = _slice_world(n_players, n_colors)
    lost = checks.integer(lost, "lost", low=0, high=m**n)
    work = checks.number(work, "work", low=0.01)
    rows = []
    levels = slice_orbits(n - 1, m, lost // m, deadline=deadline)
    todo = [(s, int(v)) for s, level in enumerate(levels) for v in level]
    for s, first in tqdm(todo, desc=f"slices N = {n}, M = {m}"):
        if deadline is not None and time.monotonic() > deadline:
            raise WallClockStop(f"slices N = {n}, M = {m}: the time limit ran out")
        rows.append(dict(slice_size=s, slice_hex=f"{first:x}",
                         uncovered=uncovered(first, n - 1, m).bit_count(),
                         ruled_out=refute_slice(n, m, first, lost, work)))
    return pd.DataFrame(rows)


def slice_certificate(n_players: int, n_colors: int, lost: int, *, deadline: float | None = None
                      ) -> tuple[bool, pd.DataFrame]:
    """(every canonical slice ruled out, the table): True proves at most M**N - lost - 1 won."""
    table = refute(n_players, n_colors, lost, deadline=deadline)
    return bool(table.ruled_out.isin(["counting", "CP-SAT INFEASIBLE"]).all()), table
