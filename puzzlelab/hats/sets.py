"""Which sets of rounds can be won: the structure behind the thesis's brute force.

A guess by player i at one view is right in exactly one round of that view's *line* (the M rounds
that differ only in hat i) and wrong in the other M - 1. Hence a set W of rounds is the won set
of some deal iff every round w in W has a line through it whose other rounds are all lost
(`achievable`). For M = 2 a line is an edge of the hypercube, so W is achievable iff the lost set
L = V \\ W is a *dominating set* of the hypercube Q_N, i.e. a binary covering code of radius 1
(lenstra_seroussi2002). The maximal deals of janssen2017 (Theorem 1) are the complements of the
*minimal* dominating sets.

Sets of rounds are bitmasks internally (`puzzlelab.bitsets`): bit k is round k of `model.rounds`.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator
from functools import lru_cache

import numpy as np
from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import bits, from_bits, full
from ..solvers import check_model
from .world import (LETTERS, Round, check_two_colours, check_world, largest_players,
                    round_index, rounds)

__all__ = [
    "won_round_vars",
    "LARGE_WORLD", "MAX_MAXIMAL_PLAYERS", "MAX_NEIGHBOURHOOD_PLAYERS", "achievable",
    "achievable_array", "achievable_mask", "canonical_deal", "check_mask",
    "closed_neighbourhoods", "full_mask", "mask_to_array", "maximal_won_masks",
    "lines_through", "maximal_won_sets", "minimal_dominating_sets", "minimal_lost_sets",
    "neighbour_property_won_masks", "stubs", "to_mask", "to_rounds", "valid_lost_mask",
]

LARGE_WORLD = 4096  # above this many rounds, per-round bitmask tables would be too large
MAX_NEIGHBOURHOOD_PLAYERS = 14  # 2**14 neighbourhood masks of 2**14 bits each (32 MiB)
MAX_MAXIMAL_PLAYERS = 5  # two colours: N = 6 has millions of minimal covers (no end in sight)


def full_mask(n_players: int, n_colors: int = 2) -> int:
    """Bitmask of all M**N rounds of a world."""
    n, m = check_world(n_players, n_colors)
    return full(m**n)


def check_mask(mask: object, n_players: int, n_colors: int = 2, name: str = "mask") -> int:
    """A set of rounds as a bitmask (Python or numpy integer) with no bit beyond the M**N rounds."""
    n, m = check_world(n_players, n_colors)
    value = checks.integer(mask, name, low=0)
    if value.bit_length() > m**n:
        raise ValueError(f"{name} has bits beyond the {m**n} rounds of N = {n}, M = {m}")
    return value


def _small_world(n_players: int, n_colors: int, what: str, fewest: int = 2) -> tuple[int, int]:
    """A world of at least `fewest` players and at most LARGE_WORLD rounds (tables with one
    bitmask per round and line)."""
    n = checks.integer(n_players, "n_players", low=fewest)
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    if n > largest_players(m, LARGE_WORLD):  # compared before M**N is ever computed
        raise ValueError(f"{what} handles at most {LARGE_WORLD} rounds; with {m} colours the "
                         f"largest world has N = {largest_players(m, LARGE_WORLD)} players")
    return n, m


# --- geometry: lines and neighbourhoods ---------------------------------------------------------


def lines_through(n_players: int, n_colors: int = 2) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """lines[x][i]: the other M - 1 rounds on the line through round x in direction i (player
    i + 1's colour changed), for N >= 1 players and at most LARGE_WORLD rounds."""
    return _lines_through(*_small_world(n_players, n_colors, "lines_through", fewest=1))


def stubs(n_players: int, n_colors: int = 2) -> tuple[tuple[int, ...], ...]:
    """stubs[x][i]: bitmask of the other M - 1 rounds on the line through round x in direction i."""
    return _stubs(*_small_world(n_players, n_colors, "stubs"))


@lru_cache(maxsize=32)  # behind the check above: (3, 2.0) must not hit the entry of (3, 2)
def _stubs(n: int, m: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(from_bits(line) for line in row) for row in _lines_through(n, m))


@lru_cache(maxsize=32)  # behind the checks of lines_through and stubs
def _lines_through(n: int, m: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for x in range(m**n):
        row = []
        for i in range(n):
            w = m ** (n - 1 - i)
            digit = (x // w) % m
            row.append(tuple(x + (c - digit) * w for c in range(m) if c != digit))
        out.append(tuple(row))
    return tuple(out)


def won_round_vars(model: cp_model.CpModel, n_players: int, n_colors: int = 2) -> list:
    """A won flag per round in `model`: won[x] needs a line through x whose other rounds are lost."""
    n, m = _small_world(n_players, n_colors, "won_round_vars")
    check_model(model)
    won = [model.NewBoolVar(f"won{x}") for x in range(m**n)]
    for x, row in enumerate(stubs(n, m)):
        lines = []
        for i, stub in enumerate(row):
            others = list(bits(stub))
            if len(others) == 1:
                lines.append(won[others[0]].Not())
            else:
                y = model.NewBoolVar(f"line{x}_{i}")
                for z in others:
                    model.AddImplication(y, won[z].Not())
                lines.append(y)
        model.AddBoolOr(lines).OnlyEnforceIf(won[x])
    return won


def closed_neighbourhoods(n_players: int) -> tuple[int, ...]:
    """For M = 2: bitmask of N[x] (x and its N hypercube neighbours) for every round x."""
    return _closed_neighbourhoods(
        check_two_colours(n_players, MAX_NEIGHBOURHOOD_PLAYERS, "closed_neighbourhoods"))


@lru_cache(maxsize=32)  # behind the check above
def _closed_neighbourhoods(n: int) -> tuple[int, ...]:
    return tuple((1 << x) | sum(1 << (x ^ (1 << j)) for j in range(n)) for x in range(2**n))


def to_mask(won: Iterable[Round], n_players: int, n_colors: int = 2) -> int:
    """A set of rounds (tuples of colour indices) -> bitmask, validating every round.

    Parameters
    ----------
    won : iterable of Round
        Rounds of N hats, colour indices 0..M-1.
    n_players, n_colors : int
        N, the number of hats in a round, and M, the number of colours.

    Returns
    -------
    int
        The bitmask: bit k set for round k of `rounds`.

    Raises
    ------
    ValueError
        If the world is refused, or an entry is not a round of N hats in M colours (a wrong kind
        of value raises `checks.ArgumentTypeError`, also a TypeError).

    Examples
    --------
    The six rounds that BPPR wins, all but RRR (round 0) and BBB (round 7):

    >>> from puzzlelab.hats.model import evaluate
    >>> bin(to_mask(evaluate(["BPPR"] * 3), 3))
    '0b1111110'

    References
    ----------
    The rounds of janssen2017 (source document 004), Section 2.1.5, as a set.
    """
    n, m = check_world(n_players, n_colors)
    if isinstance(won, (str, bytes)) or not isinstance(won, Iterable):
        raise checks.ArgumentTypeError(f"won must be a collection of rounds, got {won!r}")
    indices = []
    for r in won:
        if isinstance(r, (str, bytes)) or not isinstance(r, Iterable):
            raise checks.ArgumentTypeError(f"{r!r} is not a round (a tuple of colour indices)")
        r = tuple(r)
        if len(r) != n:
            raise ValueError(f"{r!r} is not a round of {n} hats in {m} colours")
        try:
            indices.append(round_index(r, m))
        except checks.ArgumentTypeError as err:
            raise checks.ArgumentTypeError(f"{r!r} is not a round: {err}") from None
        except ValueError as err:
            raise ValueError(f"{r!r} is not a round of {n} hats in {m} colours: {err}") from None
    return from_bits(indices)


def to_rounds(mask: int, n_players: int, n_colors: int = 2) -> frozenset[Round]:
    """Bitmask -> frozenset of rounds.

    Parameters
    ----------
    mask : int
        Bit k for round k of `rounds`.
    n_players, n_colors : int
        The world: N players, M colours.

    Returns
    -------
    frozenset of Round
        The rounds whose bits are set.

    Raises
    ------
    ValueError
        If the world is refused, or the mask is negative or has bits beyond the M**N rounds.

    Examples
    --------
    >>> from puzzlelab.hats.world import round_to_string
    >>> sorted(round_to_string(r) for r in to_rounds(0b10000001, 3))
    ['BBB', 'RRR']

    References
    ----------
    janssen2017 (source document 004), Section 2.1.5.
    """
    value = check_mask(mask, n_players, n_colors)
    allr = rounds(n_players, n_colors)
    return frozenset(allr[k] for k in bits(value))


# --- achievable won sets ----------------------------------------------------------------------


def mask_to_array(mask: int, n_rounds: int) -> np.ndarray:
    """Bitmask -> boolean array over the rounds (entry k is bit k)."""
    size = checks.integer(n_rounds, "n_rounds", low=0, high=1 << 24)
    value = checks.integer(mask, "mask", low=0)
    if value.bit_length() > size:
        raise ValueError(f"mask has bits beyond the {size} rounds")
    raw = np.frombuffer(value.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(bool)


def achievable_array(won: np.ndarray, n_players: int, n_colors: int = 2) -> bool:
    """`achievable_mask` on a boolean array: per direction, count the lost rounds of each line."""
    n, m = check_world(n_players, n_colors)
    grid = np.asarray(won)
    if grid.dtype != bool or grid.size != m**n:
        raise ValueError(f"won must be a boolean array of the {m**n} rounds, got {grid.dtype} "
                         f"of size {grid.size}")
    lost = ~grid.reshape((m,) * n)
    served = np.zeros_like(lost)
    for axis in range(n):  # a won round's line is serving iff its M - 1 other rounds are all lost
        served |= lost.sum(axis=axis, keepdims=True) == m - 1
    return bool(np.all(served | lost))


def achievable_mask(won: int, n_players: int, n_colors: int = 2) -> bool:
    """True iff every won round has a line whose other rounds are all lost."""
    won = check_mask(won, n_players, n_colors, "won")
    n, m = int(n_players), int(n_colors)
    if m**n > LARGE_WORLD:  # per-round bitmask stubs would need memory quadratic in the rounds
        return achievable_array(mask_to_array(won, m**n), n, m)
    lost = full(m**n) & ~won
    st = stubs(n, m)
    return all(any(s & ~lost == 0 for s in st[w]) for w in bits(won))


def achievable(won: Iterable[Round], n_players: int, n_colors: int = 2) -> bool:
    """Can some deal win exactly these rounds? Yes iff each lies on a line of otherwise lost rounds.

    A line: the M rounds that differ only in one player's hat (see the module docstring).

    Parameters
    ----------
    won : iterable of Round
        The rounds to win.
    n_players, n_colors : int
        N players, M colours.

    Returns
    -------
    bool
        Whether some deal wins exactly `won` (no more, no fewer).

    Raises
    ------
    ValueError
        If the world is refused, or an entry of `won` is not one of its rounds.

    Examples
    --------
    BPPR's six rounds can be won; adding RRR cannot (every neighbour of RRR is won):

    >>> from puzzlelab.hats.model import evaluate
    >>> won = evaluate(["BPPR"] * 3)
    >>> achievable(won, 3), achievable(won | {(0, 0, 0)}, 3)
    (True, False)

    References
    ----------
    The chains of janssen2017 (source document 004), Chapter 4; for M = 2 the covering codes
    of Lenstra and Seroussi (2002), On hats and other covers, ISIT 2002.
    """
    return achievable_mask(to_mask(won, n_players, n_colors), n_players, n_colors)


def valid_lost_mask(lost: int, n_players: int, n_colors: int = 2) -> bool:
    """Is `lost` the lost set of some deal, i.e. is its complement achievable?"""
    lost = check_mask(lost, n_players, n_colors, "lost")
    return achievable_mask(full_mask(n_players, n_colors) & ~lost, n_players, n_colors)


def canonical_deal(won: Iterable[Round] | int, n_players: int, n_colors: int = 2) -> np.ndarray:
    """The deal that guesses on every line holding exactly one round of `won` (its colour there).

    For M = 2 this is the thesis's conversion of a chain combination (Table 5.1) with the chains
    of the lost rounds: crossing chains pass. It wins exactly `won` when `won` is achievable.

    Parameters
    ----------
    won : iterable of Round or int
        The rounds to win, as rounds or as a bitmask (`to_mask`).
    n_players, n_colors : int
        The world: N players, M colours.

    Returns
    -------
    numpy.ndarray
        The deal, int8 of shape (N, M**(N-1)), -1 a pass (`parse_deal`'s form).

    Raises
    ------
    ValueError
        If the world is refused, or `won` is not a set of its rounds (or their mask).

    Examples
    --------
    From the six rounds it wins, the classic deal comes back:

    >>> from puzzlelab.hats.model import deal_to_strings
    >>> deal_to_strings(canonical_deal(0b01111110, 3))
    ('BPPR', 'BPPR', 'BPPR')

    References
    ----------
    The Chain-Method of janssen2017 (source document 004), Chapter 4 and Table 5.1.
    """
    n, m = check_world(n_players, n_colors)
    if isinstance(won, numbers.Integral) and not isinstance(won, bool):
        mask = check_mask(won, n, m, "won")
    else:
        mask = to_mask(won, n, m)
    count = np.zeros((n, m ** (n - 1)), dtype=np.int64)
    last = np.zeros((n, m ** (n - 1)), dtype=np.int64)
    for k in bits(mask):
        for i in range(n):
            w = m ** (n - 1 - i)
            view = k // (w * m) * w + k % w  # round k without hat i
            count[i, view] += 1
            last[i, view] = k // w % m
    deal = np.full((n, m ** (n - 1)), -1, dtype=np.int8)
    deal[count == 1] = last[count == 1]
    return deal


# --- maximal won sets = complements of minimal lost sets ----------------------------------------


def minimal_dominating_sets(n_players: int, *, progress: bool = False) -> Iterator[int]:
    """Every minimal dominating set of the hypercube Q_N, each once (bitmasks), lazily.

    Branch on the lowest undominated vertex u: add the first, second, ... vertex of N[u],
    excluding the earlier ones in later branches (so no set is produced twice), and prune as
    soon as a chosen vertex has lost its last private neighbour (a dominating set is minimal iff
    each of its vertices has one).

    Parameters
    ----------
    n_players : int
        N, the dimension of the hypercube (two colours; at most `MAX_NEIGHBOURHOOD_PLAYERS`).
    progress : bool
        Whether to show a progress bar over the top-level branches.

    Returns
    -------
    iterator of int
        The minimal dominating sets as bitmasks over the 2**N rounds: the lost sets of the
        maximal deals.

    Raises
    ------
    ValueError
        If N is below 2 or above `MAX_NEIGHBOURHOOD_PLAYERS`, or `progress` is not a boolean.

    Examples
    --------
    In the square Q_2 any two of the four rounds dominate (six sets: four edges, two diagonals):

    >>> sorted(minimal_dominating_sets(2))
    [3, 5, 6, 9, 10, 12]
    >>> sum(1 for _ in minimal_dominating_sets(4))  # the 130 maximal deals for N = 4
    130

    References
    ----------
    Lenstra and Seroussi (2002), On hats and other covers, ISIT 2002 (hat strategies as covering
    codes); the maximal deals of janssen2017 (source document 004), Theorem 1.
    """
    closed = closed_neighbourhoods(n_players)  # validates N before the generator starts
    progress = checks.boolean(progress, "progress")
    return _minimal_dominating_sets(int(n_players), closed, progress)


def _minimal_dominating_sets(n: int, closed: tuple[int, ...], progress: bool) -> Iterator[int]:
    everything = full(2**n)
    bar = None
    if progress:
        from ..progress import tqdm

        bar = tqdm(total=n + 1, desc=f"Q{n} top-level branches")

    def rec(chosen: list[int], dom: int, once: int, excl: int) -> Iterator[int]:
        if dom == everything:
            yield from_bits(chosen)
            return
        undominated = everything & ~dom
        u = (undominated & -undominated).bit_length() - 1
        for w in bits(closed[u] & ~excl):
            cw = closed[w]
            new_once = (once & ~cw) | (cw & ~dom)
            if all(closed[v] & new_once for v in chosen):
                chosen.append(w)
                yield from rec(chosen, dom | cw, new_once, excl)
                chosen.pop()
            excl |= 1 << w
            if bar is not None and not chosen:
                bar.update(1)

    yield from rec([], 0, 0, 0)
    if bar is not None:
        bar.close()


def minimal_lost_sets(n_players: int, n_colors: int = 2) -> list[int]:
    """Every inclusion-minimal lost set (complements of maximal won sets), for small worlds only.

    Supported: M = 2 with N <= MAX_MAXIMAL_PLAYERS (5), and M >= 3 with M**N <= 16 rounds;
    larger worlds raise ValueError (for M = 2, iterate `minimal_dominating_sets` lazily instead).

    Parameters
    ----------
    n_players, n_colors : int
        N players and M colours: N <= 5 with two, M**N <= 16 rounds with more.

    Returns
    -------
    list of int
        The lost sets as bitmasks, in increasing order.

    Raises
    ------
    ValueError
        If the world is refused or larger than the supported ones.

    Examples
    --------
    For N = 3 the twelve maximal deals of Guo et al. lose two rounds (four deals) or four:

    >>> lost = minimal_lost_sets(3)
    >>> len(lost), sorted(x.bit_count() for x in lost)
    (12, [2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4])

    References
    ----------
    janssen2017 (source document 004), Theorem 1 and Section 5.1.1 (the twelve deals of Guo,
    Kasala, Rao and Tucker 2006, The hat problem and some variations).
    """
    n, m = check_world(n_players, n_colors)
    if m == 2:
        if n > MAX_MAXIMAL_PLAYERS:
            raise ValueError(
                f"maximal won sets are listed for at most {MAX_MAXIMAL_PLAYERS} players with two "
                f"colours, got N = {n} (millions of them: iterate "
                f"sets.minimal_dominating_sets({n}) lazily instead)")
        return sorted(minimal_dominating_sets(n))
    if m**n > 16:
        raise ValueError(f"maximal won sets for M = {m} colours are enumerated only up to 16 "
                         f"rounds, not {m**n}")
    return _minimal_lost_sets_by_lines(n, m)


def _minimal_lost_sets_by_lines(n: int, m: int) -> list[int]:
    """Branch on the first unsatisfied round: lose it, or lose a whole line through it."""
    st = stubs(n, m)
    found: set[int] = set()

    def satisfied(x: int, lost: int) -> bool:
        return bool(lost >> x & 1) or any(s & ~lost == 0 for s in st[x])

    def is_minimal(lost: int) -> bool:
        return all(not valid_lost_mask(lost & ~(1 << v), n, m) for v in bits(lost))

    def rec(lost: int, banned: int) -> None:
        todo = [x for x in range(m**n) if not satisfied(x, lost)]
        if not todo:
            if is_minimal(lost):
                found.add(lost)
            return
        u = todo[0]
        for opt in [1 << u] + list(st[u]):
            if opt & banned:
                continue
            rec(lost | opt, banned)
            if opt == 1 << u:
                banned |= opt  # later branches keep u won

    rec(0, 0)
    return sorted(found)


def maximal_won_masks(n_players: int, n_colors: int = 2) -> list[int]:
    """Bitmasks of all inclusion-maximal achievable won sets (Theorem 1), as `minimal_lost_sets`.

    Parameters
    ----------
    n_players, n_colors : int
        The world (the sizes `minimal_lost_sets` supports).

    Returns
    -------
    list of int
        The won sets as bitmasks, complements of the minimal lost sets in their order.

    Raises
    ------
    ValueError
        If `minimal_lost_sets` refuses the world.

    Examples
    --------
    >>> [len(maximal_won_masks(n)) for n in (2, 3, 4)]
    [6, 12, 130]
    >>> bin(maximal_won_masks(3)[7])  # BPPR's six rounds
    '0b1111110'

    References
    ----------
    janssen2017 (source document 004), Theorem 1.
    """
    lost_sets = minimal_lost_sets(n_players, n_colors)
    everything = full_mask(n_players, n_colors)
    return [everything & ~lost for lost in lost_sets]


def maximal_won_sets(n_players: int, n_colors: int = 2) -> list[frozenset[Round]]:
    """Every inclusion-maximal achievable set of won rounds, largest first (Theorem 1).

    Supported: two colours with N <= 5 (46,432 sets for N = 5) and M >= 3 colours with at most 16
    rounds; larger worlds raise ValueError rather than run without end.

    Parameters
    ----------
    n_players, n_colors : int
        N players and M colours, a world small enough to list (above).

    Returns
    -------
    list of frozenset of Round
        The won sets, by decreasing size, then by bitmask.

    Raises
    ------
    ValueError
        When the world is invalid, or larger than the supported ones.

    Examples
    --------
    The twelve maximal deals for N = 3: four win six rounds (BPPR and its relabellings), eight
    win four.

    >>> best = maximal_won_sets(3)
    >>> [len(w) for w in best]
    [6, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4]

    References
    ----------
    janssen2017 (source document 004), Theorem 1, Section 5.1.1 and Table 5.3.
    """
    masks = maximal_won_masks(n_players, n_colors)
    masks.sort(key=lambda w: (-w.bit_count(), w))
    return [to_rounds(w, n_players, n_colors) for w in masks]


# --- the thesis's two neighbour properties (Section 5.1.1) ----------------------------------------


def neighbour_property_won_masks(n_players: int) -> list[int]:
    """For M = 2, N <= 4: every won set W whose won rounds each have a lost neighbour and whose lost
    rounds each have a won neighbour (the circle/cross properties of janssen2017, Section 5.1.1).

    Exhaustive over all 2**(2**N) sets with numpy (65,536 for N = 4).
    """
    n = check_two_colours(n_players, 4, "the neighbour properties are checked exhaustively: it")
    size = 2**n
    sets_ = np.arange(1 << size, dtype=np.int64)
    won = ((sets_[:, None] >> np.arange(size)[None, :]) & 1).astype(bool)  # [set, round]
    nbr = np.array([[x ^ (1 << j) for j in range(n)] for x in range(size)])  # [round, neighbour]
    has_lost_nbr = (~won[:, nbr]).any(axis=2)
    has_won_nbr = won[:, nbr].any(axis=2)
    ok = np.where(won, has_lost_nbr, has_won_nbr).all(axis=1)
    return [int(x) for x in sets_[ok]]
