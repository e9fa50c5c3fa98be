"""The counterfeit-coin game by classes of interchangeable coins (Klimoš 2014, §2.1, §3.5).

Coins that the knowledge cannot tell apart are interchangeable symbols, so a knowledge state
is just four numbers: u coins that may be light or heavy, l coins that may only be light,
h coins that may only be heavy, and the rest, known genuine (plus the extra genuine coin).
A weighing is how many coins of each class go on each pan. This is the symmetry reduction of
§3.5 done by hand for one game; it reaches sizes (w = 4: about 40 coins) where the explicit
table of weighings would have ~10^18 rows, and it is cross-checked against the generic engine.

Closed form to compare with: Dyson (1946), "The problem of the pennies", Math. Gazette 30:
with w weighings one can find the fake coin and whether it is heavy or light among
n ≤ (3^w − 3)/2 coins, or n ≤ (3^w − 1)/2 coins given one extra genuine coin.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from itertools import product

from .. import checks

__all__ = ["MAX_COINS", "MAX_WEIGHINGS", "State", "dyson_bound", "fewest_weighings", "initial",
           "least_total", "max_coins", "solvable", "weighings"]

State = tuple[int, int, int, int]  # (u, l, h, genuine coins available)
MAX_COINS = 125  # enough for 5 weighings; the class-count search grows like coins^6 per state
MAX_WEIGHINGS = 5  # max_coins(w) searches every n up to 3^w / 2


def _state(state: object) -> State:
    """A knowledge state (u, l, h, g) of non-negative counts, within MAX_COINS coins."""
    values = checks.integers(state, "state (u, l, h, genuine)", low=0)
    if len(values) != 4:
        raise ValueError(f"a state is four counts (u, l, h, genuine), got {state!r}")
    if sum(values) > MAX_COINS + 1:
        raise ValueError(f"a state of more than {MAX_COINS} coins is beyond the class-count search")
    return values


def _codes(state: State) -> int:
    u, l, h, _ = state
    return 2 * u + l + h


def _canonical(u: int, l: int, h: int, g: int) -> State:
    """Swapping 'light' and 'heavy' everywhere is a symmetry of the game."""
    return (u, min(l, h), max(l, h), g)


def weighings(state: State) -> Iterator[tuple[State, State, State]]:
    """Every weighing from this state as its outcome states (left, right heavier, balance)."""
    return _weighings(_state(state))


def _weighings(state: State) -> Iterator[tuple[State, State, State]]:
    u, l, h, g = state
    total = u + l + h + g
    seen = set()
    for u1, l1, h1 in product(range(u + 1), range(l + 1), range(h + 1)):
        for u2, l2, h2 in product(range(u - u1 + 1), range(l - l1 + 1), range(h - h1 + 1)):
            diff = (u1 + l1 + h1) - (u2 + l2 + h2)
            if abs(diff) > g or (u1 + l1 + h1 + u2 + l2 + h2) == 0:
                continue  # the difference is made up with genuine coins
            if (u2, l2, h2) > (u1, l1, h1):
                continue  # the mirror image gives the same split
            # left heavier: u1 or h1 heavy, u2 or l2 light
            left = _canonical(0, u2 + l2, u1 + h1, 0)
            right = _canonical(0, u1 + l1, u2 + h2, 0)
            rest = (u - u1 - u2, l - l1 - l2, h - h1 - h2)
            outcomes = tuple(
                (a, b, c, total - a - b - c)
                for a, b, c in (left[:3], right[:3], _canonical(*rest, 0)[:3])
            )
            if outcomes not in seen:
                seen.add(outcomes)
                yield outcomes


def initial(coins: int, extra_genuine: bool = False) -> State:
    """The state before any weighing."""
    coins = checks.integer(coins, "coins", low=1, high=MAX_COINS)
    return (coins, 0, 0, int(checks.boolean(extra_genuine, "extra_genuine")))


def solvable(state: State, w: int) -> bool:
    """Can the fake coin and its weight be found within w more weighings?

    A weighing that teaches something leaves fewer codes in every outcome, so n codes never
    need more than n - 1 weighings: a larger w is answered as n - 1 (10**20 at once).
    """
    state = _state(state)
    return _solvable(state, min(checks.integer(w, "w", low=0), max(_codes(state) - 1, 0)))


@lru_cache(maxsize=None)
def _solvable(state: State, w: int) -> bool:
    n = _codes(state)
    if n <= 1:
        return True
    if w < 64 and n > 3**w:
        return False
    for outs in _weighings(state):
        if all(_codes(o) <= 3 ** (w - 1) for o in outs) and all(_solvable(o, w - 1) for o in outs):
            return True
    return False


def fewest_weighings(coins: int, extra_genuine: bool = False) -> float:
    """The optimal worst case (math.inf if the coin game cannot be solved, e.g. 2 coins alone)."""
    state = initial(coins, extra_genuine)
    for w in range(0, 2 * state[0] + 2):
        if _solvable(state, w):
            return w
    return math.inf


def least_total(state: State) -> float:
    """The least total number of weighings over the codes of the state (average optimum × codes)."""
    return _least_total(_state(state))


@lru_cache(maxsize=None)
def _least_total(state: State) -> float:
    n = _codes(state)
    if n <= 1:
        return 0
    best = math.inf
    for outs in _weighings(state):
        if max(_codes(o) for o in outs) == n:
            continue  # learns nothing
        best = min(best, n + sum(_least_total(o) for o in outs))
    return best


def max_coins(w: int, extra_genuine: bool = False) -> int:
    """The largest n such that n coins can be solved within w weighings (by search, not by formula).

    Every n is tried up to ⌊3^w / 2⌋ + 1; beyond that the 2n codes exceed the 3^w outcome
    sequences, so no larger n can work.
    """
    w = checks.integer(w, "w", low=0, high=MAX_WEIGHINGS)
    best = 0
    for n in range(1, 3**w // 2 + 2):
        if _solvable(initial(n, extra_genuine), w):
            best = n
    return best


def dyson_bound(w: int, extra_genuine: bool = False) -> int:
    """Dyson's (1946) closed form: (3^w − 3)/2 coins, or (3^w − 1)/2 with an extra genuine coin."""
    w = checks.integer(w, "w", low=1, high=10_000)
    checks.boolean(extra_genuine, "extra_genuine")
    return (3**w - 1) // 2 if extra_genuine else (3**w - 3) // 2
