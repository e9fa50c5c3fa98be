"""Small studies the code-breaking notebook shows, computed by the solvers: Lemma 22's bound
beside the optimal worst case of the coin game, the optimal coin totals beside class counting,
what FINAL_OUTCOME changes in Mastermind 4 × 6 (Klimoš 2014, Definition 12), and the experiment
types of a game written in the language (§4.1).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import checks
from . import coins
from .analysis import analyze
from .bounds import ceil_log
from .games import mastermind
from .language import GAMES_DIR, game_tables, parse

__all__ = ["coin_average_check", "explore_game_text", "final_outcome_effect", "lambda_table"]

def lambda_table(max_coins: int = 13) -> pd.DataFrame:
    """Lemma 22 / Example 23's Λ = ⌈log₃ 2n⌉ beside the optimal worst case, n = 1..max_coins."""
    max_coins = checks.integer(max_coins, "max_coins", low=1, high=20)
    rows = []
    for genuine in (False, True):
        for n in range(1, max_coins + 1):
            predicted, actual = ceil_log(3, 2 * n), coins.fewest_weighings(n, genuine)
            rows.append({"coins": n, "extra genuine coin": genuine, "codes": 2 * n,
                         "⌈log₃ 2n⌉ (Lemma 22)": predicted,
                         "optimal worst": actual if actual < float("inf") else "unsolvable",
                         "match": predicted == actual})
    return pd.DataFrame(rows)


def coin_average_check(optimal_results: pd.DataFrame) -> pd.DataFrame:
    """Optimal coin totals by the generic search beside class counting (`coins.least_total`)."""
    _table(optimal_results, ["game", "measure", "codes", "total"], "optimal_table")
    rows = []
    for r in optimal_results[
        optimal_results.game.str.startswith("coin") & (optimal_results.measure == "average")
    ].itertuples():
        n, genuine = int(r.game.split()[1]), "+ genuine" in r.game
        counted = coins.least_total(coins.initial(n, genuine))
        rows.append({"game": r.game, "codes": r.codes, "generic search total": r.total,
                     "class counting total": counted, "match": r.total == counted,
                     "average": round(r.total / r.codes, 4)})
    return pd.DataFrame(rows)


def final_outcome_effect() -> pd.DataFrame:
    """Knuth's strategy on Mastermind 4 × 6 counted until guessed and until determined, and max-
    models
    on data/games/mastermind.cobra read with its FINAL_OUTCOME lines as plain OUTCOME lines."""
    knuth = analyze(mastermind(4, 6), "max-models")
    text = (GAMES_DIR / "mastermind.cobra").read_text(encoding="utf-8")
    plain = analyze(
        parse(re.sub(r"\bFINAL_OUTCOME\b", "OUTCOME", text), "mastermind without FINAL_OUTCOME"),
        "max-models",
    )
    return pd.DataFrame(
        [
            {
                "game": "mastermind.cobra (FINAL_OUTCOME '4B0W')",
                "counted until": "guessed",
                "total": knuth.total,
                "worst": knuth.worst,
            },
            {
                "game": "the same plays (Knuth's strategy)",
                "counted until": "determined (Definition 12)",
                "total": int(knuth.determined.sum()),
                "worst": int(knuth.determined.max()),
            },
            {
                "game": "mastermind.cobra with FINAL_OUTCOME read as OUTCOME",
                "counted until": "determined",
                "total": plain.total,
                "worst": plain.worst,
            },
        ]
    )


def explore_game_text(text: str) -> pd.DataFrame:
    """One row per experiment type of a game written in the language: its parameters,
    parametrizations, outcomes that occur, and the smallest worst-case part over its
    parametrizations (the best first experiment for Knuth's max-models rule)."""
    t = game_tables(text)
    types = np.array([e for e, _ in t.experiments])
    b = len(t.outcome_labels)
    rows = []
    for name in dict.fromkeys(types.tolist()):
        table = t.outcome_table[types == name].astype(np.int64)
        flat = table + b * np.arange(len(table))[:, None]
        parts = np.bincount(flat.ravel(), minlength=b * len(table)).reshape(len(table), b)
        rows.append({"experiment": name,
                     "parameters": len(t.experiments[int(np.argmax(types == name))][1]),
                     "parametrizations": len(table),
                     "outcomes that occur": int((parts.sum(0) > 0).sum()),
                     "best worst part": int(parts.max(axis=1).min())})
    return pd.DataFrame(rows).assign(codes=len(t.codes))


def _table(df: object, columns: Sequence[str], made_by: str) -> pd.DataFrame:
    """`df` if it is a DataFrame with these columns (the message names where it comes from)."""
    return checks.table(df, "the table", columns, made_by=made_by)
