"""Chains, chain crossing and the Chain-Method (janssen2017, Chapter 4, Section 5.1.2), M = 2.

A *chain* is named by one round x (its incorrect round): every player i, seeing x without hat i,
guesses the other colour than x_i. It makes x wrong and the N neighbours of x right (Section
4.2.1). Two chains *cross* (Section 4.2.2) when one's incorrect round is a correct round of the
other, i.e. when their rounds differ in exactly one hat: the crossing graph is the hypercube Q_N.

The Chain-Method as the thesis's program runs it (Section 5.1.2): breadth first over
combinations of chains, kept as increasing sequences; a combination is *complete* when its
chains treat (make right or wrong) every round; an incomplete combination is extended by each
higher-numbered chain whose addition changes the set of correct rounds (*viability*); a complete
combination is accepted as maximal unless a combination found earlier (with fewer chains) is a
subset of it. A combination becomes a deal by Table 5.1: each chain's guesses, and a pass where
two chains cross.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from .. import checks
from ..bitsets import bits, from_bits, full, union
from ..solvers import solve
from .sets import (
    MAX_NEIGHBOURHOOD_PLAYERS, canonical_deal, check_mask,
    closed_neighbourhoods, maximal_won_masks, valid_lost_mask,
)
from .world import Round, check_two_colours, round_index, round_to_string, rounds

__all__ = [
    "MAX_CODE_PLAYERS", "MAX_COMBINATIONS", "VIABILITY", "Chain", "ChainMethodResult",
    "chain_crossings", "chain_method", "chains", "combination", "disjoint_chain_pairs",
    "max_disjoint_chains",
]

MAX_COMBINATIONS = 10**7  # chain_method: combinations explored at most (a level is kept whole)
MAX_CODE_PLAYERS = 10  # max_disjoint_chains: 2**N chains with one clause per pair at distance <= 2


@dataclass(frozen=True)
class Chain:
    """One chain: its number (1-based, rounds in lexicographic order) and its rounds."""

    number: int
    incorrect: Round
    correct: tuple[Round, ...]

    def __post_init__(self) -> None:
        checks.record(self)


def chains(n_players: int) -> list[Chain]:
    """The 2**N chains of the N-player, two-colour world (Table 4.1 for N = 3)."""
    n = check_two_colours(n_players, MAX_NEIGHBOURHOOD_PLAYERS, "chains")
    allr = rounds(n, 2)
    out = []
    for k, x in enumerate(allr):
        correct = tuple(x[:i] + (1 - x[i],) + x[i + 1 :] for i in range(n))
        out.append(Chain(k + 1, x, correct))
    return out


def chain_crossings(n_players: int) -> list[tuple[int, int, int]]:
    """Crossing chains (a, b, agent), a < b: rounds that differ in the agent's hat only."""
    n = check_two_colours(n_players, MAX_NEIGHBOURHOOD_PLAYERS, "chain_crossings")
    out = []
    for a in range(2**n):
        for j in range(n):
            b = a ^ (1 << (n - 1 - j))
            if a < b:
                out.append((a + 1, b + 1, j + 1))
    return out


def _won(combo_mask: int, treated: int) -> int:
    """Rounds a chain combination makes correct and none wrong: treated minus its rounds."""
    return treated & ~combo_mask


@dataclass(frozen=True)
class ChainMethodResult:
    """What the Chain-Method returns: the maximal combinations and how much it explored."""

    n_players: int
    combinations: tuple[tuple[int, ...], ...]  # chain numbers, 1-based
    explored: int  # combinations generated (all levels)
    levels: int

    def __post_init__(self) -> None:
        checks.record(self)

    def lost_masks(self) -> list[int]:
        """Each combination as the bitmask of its chains' incorrect rounds."""
        return [sum(1 << (c - 1) for c in combo) for combo in self.combinations]

    def won_masks(self) -> list[int]:
        """The won set of each combination's deal."""
        everything = full(2**self.n_players)
        return [everything & ~lost for lost in self.lost_masks()]

    def deals(self) -> list[np.ndarray]:
        """Each combination converted to a deal (Table 5.1: crossings pass)."""
        return [canonical_deal(w, self.n_players) for w in self.won_masks()]


VIABILITY = ("changes-correct", "each-chain-correct")


def chain_method(
    n_players: int, *, viability: str = "changes-correct", max_combinations: int = 500_000
) -> ChainMethodResult:
    """The thesis's Chain-Method, breadth first, implemented as described (Section 5.1.2).

    `viability="changes-correct"` is the rule as written: "the last added Chain changes the set
    of correct rounds". `"each-chain-correct"` is the purpose the thesis gives for it: no chain
    of the combination ends up making no round correct (every chain keeps a neighbour outside).
    """
    n = check_two_colours(n_players, MAX_NEIGHBOURHOOD_PLAYERS, "the Chain-Method")
    viability = checks.choice(viability, "viability", VIABILITY)
    limit = checks.integer(max_combinations, "max_combinations", low=1, high=MAX_COMBINATIONS)
    closed = closed_neighbourhoods(n)
    found: list[int] = []
    found_combos: list[tuple[int, ...]] = []
    level = [((c,), 1 << c, closed[c]) for c in range(2**n)]
    explored, depth, everything = len(level), 0, full(2**n)
    while level:
        depth += 1
        nxt: list = []
        for combo, mask, treated in level:
            if treated == everything:  # complete
                if not any(f & mask == f for f in found):
                    found.append(mask)
                    found_combos.append(tuple(c + 1 for c in combo))
                continue
            nxt += _extensions(combo, mask, treated, closed, viability)
            if explored + len(nxt) > limit:
                raise ValueError(f"Chain-Method for N = {n} exceeds {limit} combinations")
        explored += len(nxt)
        level = nxt
    return ChainMethodResult(n, tuple(found_combos), explored, depth)


def _extensions(combo: tuple[int, ...], mask: int, treated: int, closed: tuple[int, ...],
                viability: str) -> list:
    """The viable one-chain extensions of a combination by higher-numbered chains."""
    won = _won(mask, treated)
    out = []
    for c in range(combo[-1] + 1, len(closed)):
        m2, t2 = mask | 1 << c, treated | closed[c]
        if viability == "changes-correct":
            ok = _won(m2, t2) != won
        else:
            ok = all(closed[v] & ~m2 for v in (*combo, c))
        if ok:
            out.append((combo + (c,), m2, t2))
    return out


def max_disjoint_chains(n_players: int, time_limit: float = 60.0) -> int:
    """Most chains with pairwise disjoint rounds (Theorem 6's 'non crossing' chains), by CP-SAT.

    Two chains touch no common round iff their rounds differ in at least 3 hats, so this is the
    largest binary code of length N and minimum distance 3, A(N, 3).
    """
    n = check_two_colours(n_players, MAX_CODE_PLAYERS, "max_disjoint_chains")
    time_limit = checks.number(time_limit, "time_limit", low=0.001, high=3600)
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"c{k}") for k in range(2**n)]
    pairs = itertools.combinations(range(n), 2)
    near = [1 << j for j in range(n)] + [1 << i | 1 << j for i, j in pairs]
    for a in range(2**n):
        for b in (a ^ d for d in near):
            if a < b:
                model.AddBoolOr([x[a].Not(), x[b].Not()])
    model.Add(x[0] == 1)  # vertex-transitivity
    model.Maximize(sum(x))
    res = solve(model, time_limit=time_limit)
    if not res.optimal:
        raise ValueError(f"max_disjoint_chains({n}) not proven within {time_limit} s")
    return int(round(res.objective))


def disjoint_chain_pairs(lost: int, n_players: int) -> list[tuple[int, int]]:
    """Pairs of chains (1-based numbers) of a combination whose rounds are disjoint (distance >= 3).

    The combination is given by its chains' incorrect rounds (a lost-set bitmask); two chains
    share no round iff their incorrect rounds differ in at least three hats (thesis Section 5.2.3).
    """
    n = check_two_colours(n_players, MAX_NEIGHBOURHOOD_PLAYERS, "disjoint_chain_pairs")
    xs = list(bits(check_mask(lost, n, 2, "lost")))
    return [(a + 1, b + 1) for k, a in enumerate(xs) for b in xs[k + 1 :]
            if (a ^ b).bit_count() >= 3]


def combination(numbers: Sequence[int], numbering: Mapping[int, Round], n_players: int) -> dict:
    """A chain combination named by chain numbers under a numbering (number -> incorrect round):
    is it complete (its rounds treat every round), what does it win, is that won set maximal?"""
    n = check_two_colours(n_players, 5, "combination")
    numbers = checks.integers(numbers, "numbers", low=1)
    if not isinstance(numbering, Mapping):
        raise checks.ArgumentTypeError(
            f"numbering must map chain numbers to rounds, got {numbering!r}")
    unknown = [k for k in numbers if k not in numbering]
    if unknown:
        raise ValueError(f"chain numbers {unknown} are not in the numbering (1..{len(numbering)})")
    incorrect = [_chain_round(numbering[k], n) for k in numbers]
    lost = from_bits(round_index(r, 2) for r in incorrect)
    closed = closed_neighbourhoods(n)
    won = _won(lost, union(closed[x] for x in bits(lost)))  # some chain right, none wrong
    return {"incorrect rounds": " ".join(round_to_string(r) for r in incorrect),
            "complete": valid_lost_mask(lost, n, 2), "won rounds": won.bit_count(),
            "won set maximal": won in set(maximal_won_masks(n))}


def _chain_round(rnd: object, n: int) -> Round:
    """A chain's incorrect round: N colour indices 0 or 1."""
    colours = tuple(rnd) if isinstance(rnd, (tuple, list)) else None
    if colours is None or len(colours) != n:
        raise ValueError(f"{rnd!r} is not a round of {n} hats")
    round_index(colours, 2)  # validates every colour
    return tuple(int(c) for c in colours)
