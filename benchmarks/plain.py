"""Baselines a competent programmer would write in plain Python (standard library only).

Nothing here imports numpy, pandas or puzzlelab, so a fresh interpreter running one of these
pays only for the interpreter: the whole-process figures compare honestly with the library's.
Each function returns a small summary that the library's method must reproduce exactly.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from itertools import combinations, product

__all__ = [
    "greedy_total", "hanabi_capped_brute", "hanabi_rows", "hats_bitmask", "hats_naive",
    "maximal_summary", "russian_cards_lists", "russian_cards_rules",
]


# --- hats (Janssen 2017, §2.1.9): all (M+1)^(N·M^(N-1)) deals -------------------------------
def maximal_summary(won: list[int]) -> tuple[int, int, int]:
    """(deals, distinct won sets, inclusion-maximal won sets) of a list of won-set bitmasks."""
    distinct = set(won)
    maximal = [a for a in distinct if not any(a != b and a & b == a for b in distinct)]
    return len(won), len(distinct), len(maximal)


def _views(n: int, i: int) -> list[tuple[int, ...]]:
    return sorted({r[:i] + r[i + 1:] for r in product((0, 1), repeat=n)})


def hats_bitmask(n: int = 3) -> tuple[int, int, int]:
    """Every deal's won set as (any right) & ~(any wrong), strategies turned into bitmasks once."""
    rounds = list(product((0, 1), repeat=n))
    per_player = []
    for i in range(n):
        views = _views(n, i)
        masks = []
        for guesses in product((None, 0, 1), repeat=len(views)):
            say = dict(zip(views, guesses))
            right = wrong = 0
            for k, r in enumerate(rounds):
                g = say[r[:i] + r[i + 1:]]
                if g is not None:
                    right, wrong = (right | 1 << k, wrong) if g == r[i] else (right, wrong | 1 << k)
            masks.append((right, wrong))
        per_player.append(masks)
    partial = [(0, 0)]
    for masks in per_player[:-1]:
        partial = [(r | r2, w | w2) for r, w in partial for r2, w2 in masks]
    won = [(r | r2) & ~(w | w2) for r, w in partial for r2, w2 in per_player[-1]]
    return maximal_summary(won)


def hats_naive(n: int = 3) -> tuple[int, int, int]:
    """Deal after deal, round after round, player after player: who guesses, right or wrong."""
    rounds = list(product((0, 1), repeat=n))
    seen = [[r[:i] + r[i + 1:] for i in range(n)] for r in rounds]
    strategies = [
        [dict(zip(_views(n, i), guesses)) for guesses in product((None, 0, 1), repeat=2 ** (n - 1))]
        for i in range(n)
    ]
    won = []
    for deal in product(*strategies):
        mask = 0
        for k, r in enumerate(rounds):
            right = wrong = False
            for i in range(n):
                g = deal[i][seen[k][i]]
                if g is not None:
                    right, wrong = right or g == r[i], wrong or g != r[i]
            if right and not wrong:
                mask |= 1 << k
        won.append(mask)
    return maximal_summary(won)


# --- Hanabi hint packing (source 003, 'Solution'): colour-only possibility tables ------------
def hanabi_rows(n_hints: int, n_rows: int, seed: int, p: float = 0.35) -> list[list[int]]:
    """A seeded random colour-only table: each row a 0/1 list, every row with some 1."""
    rng = random.Random(seed)
    rows: list[list[int]] = []
    while len(rows) < n_rows:
        row = [int(rng.random() < p) for _ in range(n_hints)]
        if any(row):
            rows.append(row)
    return rows


def hanabi_capped_brute(n_hints: int, n_rows: int, seed: int) -> int:
    """Most pairwise-disjoint rows: duplicates removed, sizes tried from min(rows, hints) down."""
    table = hanabi_rows(n_hints, n_rows, seed)
    rows = sorted({sum(bit << h for h, bit in enumerate(row)) for row in table})
    for size in range(min(len(rows), n_hints), 0, -1):
        for chosen in combinations(rows, size):
            union = 0
            for m in chosen:
                if union & m:
                    break
                union |= m
            else:
                return size
    return 0


# --- Mastermind (Knuth 1977; Klimoš 2014, §3.3): max-models over all codes ------------------
def _feedback(secret: tuple[int, ...], guess: tuple[int, ...], colors: int) -> tuple[int, int]:
    black = sum(s == g for s, g in zip(secret, guess))
    common = sum(min(secret.count(c), guess.count(c)) for c in range(colors))
    return black, common - black


@lru_cache(maxsize=None)
def _feedback_table(pegs: int, colors: int) -> list[list[tuple[int, int]]]:
    """table[guess][secret]: the markers of every guess against every code (built once)."""
    codes = list(product(range(colors), repeat=pegs))
    return [[_feedback(s, g, colors) for s in codes] for g in codes]


_SCORES = {  # lower is better, from the sizes of the parts a guess splits the live codes into
    "max-models": max,
    "exp-models": lambda sizes: sum(c * c for c in sizes),
    "ent-models": lambda sizes: round(sum(c * math.log(c) for c in sizes), 9),
    "parts": lambda sizes: -len(sizes),
}


def greedy_total(pegs: int = 4, colors: int = 6, strategy: str = "max-models") -> int:
    """Guesses summed over all codes for a greedy strategy, Knuth's (max-models) by default.

    Ties go to a guess that may be the code, then to the first guess.
    """
    table, score = _feedback_table(pegs, colors), _SCORES[strategy]
    win = (pegs, 0)
    total, stack = 0, [(list(range(len(table))), 1)]
    while stack:
        live, depth = stack.pop()
        if len(live) == 1:
            total += depth
            continue
        best, pick, alive = None, -1, set(live)
        for g, row in enumerate(table):
            value = score(Counter(row[s] for s in live).values())
            if best is None or value < best or (value == best and g in alive and pick not in alive):
                best, pick = value, g
        parts: dict[tuple[int, int], list[int]] = {}
        for s in live:
            parts.setdefault(table[pick][s], []).append(s)
        for outcome, part in parts.items():
            total += depth if outcome == win else 0
            if outcome != win:
                stack.append((part, depth + 1))
    return total


# --- Russian Cards (3,3,1) (van Ditmarsch 2003; the report's Rules 1 and 2) -----------------
def russian_cards_lists(n: int = 7, a: int = 3, shared: int = 1, sizes: tuple | None = (5, 6, 7),
                        first: int | None = None) -> list[tuple[int, ...]]:
    """Lists of a-card hands (bitmasks, lexicographic) pairwise sharing <= `shared` cards (Rule 1).

    Only sizes in `sizes` (all sizes if None); only lists starting with hand `first` if given.
    """
    hands = [sum(1 << x for x in h) for h in combinations(range(n), a)]
    top = max(sizes) if sizes else len(hands)
    out: list[tuple[int, ...]] = []

    def extend(chosen: list[int], pool: list[int]) -> None:
        if chosen and (sizes is None or len(chosen) in sizes):
            out.append(tuple(chosen))
        if len(chosen) < top:
            for i, h in enumerate(pool):
                extend(chosen + [h], [g for g in pool[i + 1:] if bin(g & h).count("1") <= shared])

    if first is None:
        extend([], hands)
    else:
        extend([first], [h for h in hands if h > first and bin(h & first).count("1") <= shared])
    return out


def _safe(hands: tuple[int, ...], n: int, c: int) -> bool:
    """Rule 2: for every c cards Cath may hold, hands avoiding them cover the rest, share none."""
    full = (1 << n) - 1
    for x in (sum(1 << y for y in cs) for cs in combinations(range(n), c)):
        avoiding = [h for h in hands if not h & x]
        if not avoiding:
            continue
        union, inter = 0, full
        for h in avoiding:
            union, inter = union | h, inter & h
        if inter or union != full & ~x:
            return False
    return True


def russian_cards_rules(a: int = 3, b: int = 3, c: int = 1) -> int:
    """How many announcements through Anne's hand {0..a-1} keep Rules 1 and 2 (generate, filter)."""
    n, first = a + b + c, (1 << a) - 1
    return sum(_safe(L, n, c) for L in russian_cards_lists(n, a, a - c - 1, None, first))
