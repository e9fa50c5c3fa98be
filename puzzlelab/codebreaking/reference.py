"""Slow, obvious reference implementations (Klimoš 2014, Definitions 12–13) for cross-checks.

`analyze_table` is the vectorised table engine (one bincount over the outcome table per node),
the reference of the compiled engine; `analyze_plain` plays a strategy by recursion over Python
lists; `optimal_plain` computes the
optimal worst case and total by plain recursion over every experiment, with no bounds, no
symmetry and no merging of equal partitions. Both are for small games only.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd

from .analysis import Analysis, choose_by_table, play_tree
from .game import Game, check_game
from .strategies import Scoring, scoring, strategy_name

__all__ = ["PLAIN_MAX_CODES", "analyze_plain", "analyze_table", "optimal_plain"]

PLAIN_MAX_CODES = 64  # the plain recursions are exponential: small games only


def _small(game: object) -> Game:
    game = check_game(game)
    if game.n_codes > PLAIN_MAX_CODES:
        raise ValueError(f"{game.name}: {game.n_codes} codes is too many for the plain recursion "
                         f"(at most {PLAIN_MAX_CODES})")
    return game


def _parts(row: list[int], live: list[int]) -> dict[int, list[int]]:
    """The live codes grouped by their outcome in one row of the outcome table."""
    parts: dict[int, list[int]] = {}
    for k in live:
        parts.setdefault(row[k], []).append(k)
    return parts


def analyze_plain(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """The analysis of `analysis.analyze` written the slow, obvious way (recursion, lists)."""
    game, score_of = _small(game), scoring(strategy)
    table, final = game.outcome_table.tolist(), set(game.final_outcomes)
    lengths = [0] * game.n_codes

    def best(live: list[int]) -> int:
        scored = []
        for j, row in enumerate(table):
            counts = np.bincount([row[k] for k in live], minlength=game.n_outcomes)
            scored.append((float(score_of(counts[None, :])[0]), j))
        low = min(s for s, _ in scored)
        ties = [j for s, j in scored if s == low]
        hitting = [j for j in ties if any(table[j][k] in final for k in live)]
        return (hitting or ties)[0]

    def solve(live: list[int], depth: int) -> None:
        if len(live) == 1 and not final:
            lengths[live[0]] = depth
            return
        parts = _parts(table[best(live)], live)
        if len(parts) == 1 and next(iter(parts)) not in final:
            raise ValueError(f"{game.name}: no experiment tells apart {len(live)} codes")
        for o, part in parts.items():
            if o in final:
                lengths[part[0]] = depth + 1
            else:
                solve(part, depth + 1)

    solve(list(range(game.n_codes)), 0)
    arr = np.array(lengths)
    return Analysis(game, strategy_name(strategy), arr, arr.copy(), pd.DataFrame())


def optimal_plain(game: Game) -> tuple[int, int]:
    """The optimal worst case and the optimal total by plain recursion over every experiment.

    The two optima may come from different strategies.
    """
    game = _small(game)
    table, final = game.outcome_table.tolist(), set(game.final_outcomes)

    @lru_cache(maxsize=None)
    def solve(live: frozenset) -> tuple[float, float]:
        if len(live) == 1:
            return (1, 1) if final else (0, 0)
        best_worst, best_total = math.inf, math.inf
        for row in table:
            parts = _parts(row, sorted(live))
            if len(parts) == 1 and next(iter(parts)) not in final:
                continue  # teaches nothing
            worst, total = 0, 0
            for o, part in parts.items():
                w, t = (1, 1) if o in final else _after(solve(frozenset(part)), len(part))
                worst, total = max(worst, w), total + t
            best_worst, best_total = min(best_worst, worst), min(best_total, total)
        return best_worst, best_total

    worst, total = solve(frozenset(range(game.n_codes)))
    if worst == math.inf:
        raise ValueError(f"{game.name}: some codes cannot be told apart")
    return int(worst), int(total)


def _after(sub: tuple[float, float], size: int) -> tuple[float, float]:
    """Worst and total of a part solved after one more experiment."""
    return 1 + sub[0], size + sub[1]


def analyze_table(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """The table engine (the compiled engine's reference): at every node every experiment is
    scored by one bincount over the codes × experiments outcome table (Klimoš 2014, §3.3)."""
    game, score_of = check_game(game), scoring(strategy)
    table_game = game if game.rule is None else game.with_final_outcomes(game.final_outcomes)
    result = play_tree(table_game, lambda live, depth: choose_by_table(table_game, live, score_of),
                       strategy_name(strategy))
    result.game = game
    return result
