"""Greedy strategies and their analysis over all codes (Klimoš, thesis §3.3, Definitions 12–13, 21; Lemma 14).

A strategy looks at the codes still possible (knowledge = a set of codes, which makes it
memory-less, Definition 18) and scores every experiment by the sizes of the parts it would
split them into, all experiments at once (`Game.partition_sizes`, one bincount):

| strategy     | picks the experiment with                 | known as                  |
|--------------|-------------------------------------------|---------------------------|
| `max-models` | the smallest largest part                 | Knuth (1977), #-greedy    |
| `exp-models` | the smallest expected part, Σ c²/n        | Irving (1979)             |
| `ent-models` | the largest entropy of the outcome        | Neuwirth (1982)           |
| `parts`      | the most (non-empty) parts                | Kooi (2005)               |

Ties: first an experiment whose final outcome is still possible (a guess that could be the
code), then the lowest experiment index (the game's fixed order, e.g. lowest code first).

Counting: if the game has final outcomes (Mastermind) a code's length is the number of
experiments up to and including the one that hits it; otherwise (the coin game) it is the
number of experiments until the code is determined (thesis Definition 12). Both lengths are
recorded: `lengths` (the game's rule) and `determined` (the thesis's |σ|_v).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .game import Game

STRATEGIES = ("max-models", "exp-models", "ent-models", "parts")


def _scores(counts: np.ndarray, strategy: str) -> np.ndarray:
    """A score per experiment, lower is better, from the part sizes counts[j, outcome]."""
    if strategy == "max-models":
        return counts.max(axis=1).astype(np.float64)
    if strategy == "exp-models":
        return (counts.astype(np.int64) ** 2).sum(axis=1).astype(np.float64)
    if strategy == "ent-models":  # max entropy ⇔ min Σ c ln c (n fixed); rounded so that ties are ties
        c = counts.astype(np.float64)
        return np.round((c * np.log(np.where(c > 0, c, 1.0))).sum(axis=1), 9)
    if strategy == "parts":
        return -(counts > 0).sum(axis=1).astype(np.float64)
    raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")


def check_strategy(strategy: str) -> str:
    """The strategy name, or ValueError naming the choices."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    return strategy


def choose(game: Game, live: np.ndarray, strategy: str) -> int:
    """The experiment the strategy performs when `live` are the codes still possible."""
    counts = game.partition_sizes(live)
    score = _scores(counts, strategy)
    candidates = np.flatnonzero(score == score.min())
    j = int(candidates[0])
    if game.ends_on_final:
        hits = game.is_final[game.outcome_table[candidates][:, live]].any(axis=1)
        if hits.any():
            j = int(candidates[np.argmax(hits)])
    if len(live) > 1 and not _useful(game, counts[j]):
        names = ", ".join(game.code_names[k] for k in live[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return j


def _useful(game: Game, parts: np.ndarray) -> bool:
    """Does an experiment with these part sizes make progress on more than one code?"""
    nonfinal = parts[~game.is_final]
    return nonfinal.max() < parts.sum() or bool(parts[game.is_final].sum())


@dataclass
class Analysis:
    """A strategy played against every code: lengths per code, worst, total, average, tree."""

    game: Game
    strategy: str
    lengths: np.ndarray  # experiments per code, by the game's counting rule
    determined: np.ndarray  # experiments until the code is determined (thesis |σ|_v)
    tree: pd.DataFrame
    stats: dict = field(default_factory=dict)

    @property
    def worst(self) -> int:
        return int(self.lengths.max())

    @property
    def total(self) -> int:
        return int(self.lengths.sum())

    @property
    def average(self) -> float:
        return self.total / len(self.lengths)

    def histogram(self) -> dict[int, int]:
        """Number of codes solved in exactly d experiments, for every d = 0..worst that occurs."""
        return {d: int((self.lengths == d).sum()) for d in range(0, self.worst + 1) if (self.lengths == d).any()}

    def summary(self) -> dict:
        return {"game": self.game.name, "strategy": self.strategy, "codes": len(self.lengths),
                "worst": self.worst, "total": self.total, "average": round(self.average, 4)}


def lemma14_bound(game: Game) -> float:
    """Lemma 14: every strategy needs ⌈log_b #φ0⌉ experiments to determine the code, b = max_t |Φ(t)|.

    b is the most outcome formulas one experiment type has (not the number of labels over
    all types). The bound is on the thesis's length |σ|_v (until determined), so it is to
    be compared with `Analysis.determined`; math.inf if b = 1 and there are several codes.
    """
    return ceil_log(game.max_type_outcomes, game.n_codes)


def ceil_log(b: int, n: int) -> float:
    """⌈log_b n⌉ in exact integer arithmetic (the least k with b^k ≥ n); math.inf if b = 1 < n."""
    if b < 1 or n < 1:
        raise ValueError(f"⌈log_b n⌉ needs b ≥ 1 and n ≥ 1, got b = {b}, n = {n}")
    if b == 1:
        return 0 if n == 1 else math.inf
    k = 0
    while b**k < n:
        k += 1
    return k


def analyze(game: Game, strategy: str = "max-models") -> Analysis:
    """Play `strategy` against every code at once, node by node of its decision tree (vectorised)."""
    check_strategy(strategy)
    return _play(game, lambda live, depth: choose(game, live, strategy), strategy)


def first_hit(game: Game) -> np.ndarray:
    """For every code, the lowest experiment whose final outcome holds on it (the guess of that code)."""
    return np.argmax(game.is_final[game.outcome_table], axis=0)


def _play(game: Game, pick: Callable[[np.ndarray, int], int], label: str) -> Analysis:
    n = game.n_codes
    lengths, determined = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    hit = first_hit(game) if game.ends_on_final else None
    rows: list[tuple] = []
    stack = [(np.arange(n), 0, -1, "")]
    while stack:
        live, depth, parent, outcome = stack.pop()
        node = len(rows)
        if len(live) == 1 and not game.ends_on_final:
            lengths[live] = determined[live] = depth
            rows.append((node, parent, outcome, depth, 1, "", game.code_names[live[0]]))
            continue
        if len(live) == 1:  # every score ties on one code; the tie-break guesses it
            k = int(live[0])
            lengths[k], determined[k] = depth + 1, depth
            rows.append((node, parent, outcome, depth, 1, game.experiment_name(int(hit[k])), game.code_names[k]))
            continue
        j = pick(live, depth)
        rows.append((node, parent, outcome, depth, len(live), game.experiment_name(j), ""))
        for o, part in sorted(game.parts(live, j).items(), reverse=True):
            if game.is_final[o]:
                lengths[part] = depth + 1
                determined[part] = depth + 1
                rows.append((len(rows), node, game.outcome_labels[o], depth + 1, 1, "", game.code_names[part[0]]))
            else:
                stack.append((part, depth + 1, node, game.outcome_labels[o]))
    tree = pd.DataFrame(rows, columns=["node", "parent", "outcome", "depth", "codes", "experiment", "code"])
    return Analysis(game, label, lengths, determined, tree.sort_values("node").reset_index(drop=True))


def simulate(game: Game, strategy: str, code: str | int) -> pd.DataFrame:
    """One play of `strategy` against one secret code: experiment, outcome, codes left after it."""
    check_strategy(strategy)
    if isinstance(code, str):
        k = game.code_index(code)
    elif isinstance(code, (int, np.integer)) and not isinstance(code, (bool, np.bool_)):
        k = int(code)
    else:
        raise ValueError(f"{game.name}: the code must be a code name (str) or an index (int), got {code!r}")
    if not 0 <= k < game.n_codes:
        raise ValueError(f"{game.name}: code index {k} out of range")
    live, steps = np.arange(game.n_codes), []
    while True:
        if len(live) == 1 and not game.ends_on_final:
            break
        j = choose(game, live, strategy)
        o = int(game.outcome_table[j, k])
        live = live[game.outcome_table[j, live] == o]
        steps.append({"step": len(steps) + 1, "experiment": game.experiment_name(j),
                      "outcome": game.outcome_labels[o], "codes left": len(live)})
        if game.is_final[o]:
            break
    return pd.DataFrame(steps)


# --- the plain reference: recursion and Python dictionaries, no numpy ---------------------------
def analyze_plain(game: Game, strategy: str = "max-models") -> Analysis:
    """The same analysis written the slow, obvious way (a cross-check and the benchmark's baseline)."""
    check_strategy(strategy)
    table = game.outcome_table.tolist()
    final = set(game.final_outcomes)
    lengths = [0] * game.n_codes

    def score(counts: Counter, size: int) -> float:
        sizes = list(counts.values())
        if strategy == "max-models":
            return max(sizes)
        if strategy == "exp-models":
            return sum(c * c for c in sizes)
        if strategy == "ent-models":
            return round(sum(c * math.log(c) for c in sizes), 9)
        return -len(sizes)

    def best(live: list[int]) -> int:
        scored = [(score(Counter(row[k] for k in live), len(live)), j) for j, row in enumerate(table)]
        low = min(s for s, _ in scored)
        ties = [j for s, j in scored if s == low]
        hitting = [j for j in ties if any(table[j][k] in final for k in live)]
        return (hitting or ties)[0]

    def solve(live: list[int], depth: int) -> None:
        if len(live) == 1 and not final:
            lengths[live[0]] = depth
            return
        j = best(live)
        parts: dict[int, list[int]] = {}
        for k in live:
            parts.setdefault(table[j][k], []).append(k)
        if len(parts) == 1 and next(iter(parts)) not in final:
            raise ValueError(f"{game.name}: no experiment tells apart {len(live)} codes")
        for o, part in parts.items():
            if o in final:
                lengths[part[0]] = depth + 1
            else:
                solve(part, depth + 1)

    solve(list(range(game.n_codes)), 0)
    arr = np.array(lengths)
    return Analysis(game, strategy, arr, arr.copy(), pd.DataFrame())
