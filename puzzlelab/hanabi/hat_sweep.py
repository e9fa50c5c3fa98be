"""The hat strategies played over many seeded deals: exact sums per player count and variant.

Every variant plays the same deals (deal i is `game.dealt_deck(i)`), so the variants are
compared deal by deal. A block of deals is kept as exact integer sums (`exact_sums`) of each
per-deal quantity: the score under both conventions, perfect games, fuses burnt, hints, the
bits the hints carried (log2 of the modulus, in 1/1024 bit) and the messages, and the paired
differences of score between the ways of counting messages. Blocks run through
`sweeps.sweep_table` on any executor and resume after an interruption; the table does not
depend on either.

The long run behind the notebook (`data/hanabi_hat_games.csv`) is declared in `tables`;
``puzzlelab compute hanabi_hat_games --long-run [--workers 2] [--scheduler ADDR]`` rebuilds it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from .. import checks, exact_sums, sweeps
from ..exact_sums import mean_ci_from_sums, ratio_ci_from_sums, sum_row
from . import info_compiled
from .hat_compiled import BITS_SCALE, ENDS, STATS, play_deals
from .hat_strategies import play
from .rules import MAX_PLAYERS, MIN_PLAYERS, PERFECT, Rules, cox_rules

__all__ = [
    "FAMILIES", "GAINS", "KEYS", "PLAYERS", "STRONG_GAINS", "STRONG_VARIANTS", "VARIANTS",
    "deal_stats", "game_sums", "gains_from_sums", "summary_from_sums", "variants_for",
]

DEALS_PER_TASK = 1000
PLAYERS = (2, 3, 4, 5)
KEYS = ["players", "variant", "measure"]
# variant -> (strategy, packing, rules): the three ways of counting messages under the
# standard rules, the published count under the rules of Cox et al.'s simulator, and the
# recommendation strategy (five players only).
VARIANTS: dict[str, tuple[str, str, str]] = {
    "plain": ("information", "plain", "standard"),
    "mixed": ("information", "mixed", "standard"),
    "separate": ("information", "separate", "standard"),
    "plain, Cox rules": ("information", "plain", "cox"),
    "recommendation": ("recommendation", "plain", "standard"),
}
GAINS = (("mixed", "plain"), ("separate", "plain"), ("mixed", "separate"))  # paired, by deal
# The strong information strategy (`info_compiled`) under the standard rules, by how many
# messages a hint carries to each teammate (`info_compiled.HINT_COUNTS`), and its paired gains.
STRONG_VARIANTS: dict[str, str] = {f"strong {m}": m for m in info_compiled.HINT_COUNTS}
STRONG_GAINS = (("strong index", "strong cox"), ("strong packing", "strong cox"),
                ("strong packing", "strong index"), ("strong best", "strong index"),
                ("strong best", "strong packing"))
FAMILIES = ("hat", "strong")  # Cox et al.'s strategies as published; the strong strategy


def _rules(players: int, which: str) -> Rules:
    return cox_rules(players) if which == "cox" else Rules(players)


def variants_for(players: int, family: str = "hat") -> list[str]:
    """The variants of a family played with this many players (the recommendation strategy
    needs five)."""
    players = checks.integer(players, "players", low=MIN_PLAYERS, high=MAX_PLAYERS)
    if checks.choice(family, "family", FAMILIES) == "strong":
        return list(STRONG_VARIANTS)
    return [v for v in VARIANTS if v != "recommendation" or players == 5]


def deal_stats(players: int, seeds: Sequence[int], variant: str) -> np.ndarray:
    """One row of `hat_compiled.STATS` per deal, for one variant."""
    variant = checks.choice(variant, "variant", [*VARIANTS, *STRONG_VARIANTS])
    if variant in STRONG_VARIANTS:
        return info_compiled.play_deals(Rules(players), seeds, STRONG_VARIANTS[variant])
    strategy, packing, which = VARIANTS[variant]
    rules = _rules(players, which)
    if strategy == "information":
        return play_deals(rules, seeds, packing)
    rows = []
    for seed in seeds:
        team = play(rules, seed, strategy)
        g = team.game
        hints = len(team.steps)
        modulus = team.steps[0].plan.modulus if team.steps else 0
        bits = round(math.log2(modulus) * BITS_SCALE) * hints if hints else 0
        rows.append([g.score, ENDS.index(g.end), rules.fuses - g.fuses_left, hints, bits,
                     modulus * hints, g.turn, sum(s.values != s.decoded for s in team.steps)])
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(STATS))


def _measures(stats: np.ndarray) -> dict[str, tuple[np.ndarray, int]]:
    """Per-deal integer quantities and their denominators."""
    score, end, hints, bits = stats[:, 0], stats[:, 1], stats[:, 3], stats[:, 4]
    lost = end == ENDS.index("fuses")
    return {
        "score": (score, 1), "score_zero": (np.where(lost, 0, score), 1),
        "perfect": (score == PERFECT, 1), "lost": (lost, 1), "fuses_used": (stats[:, 2], 1),
        "hints": (hints, 1), "bits": (bits, BITS_SCALE), "bits_x_hints": (bits * hints, 1),
        "messages": (stats[:, 5], 1), "turns": (stats[:, 6], 1),
    }


def _block(params: tuple[int, int, int]) -> list[dict]:
    """The sweep task: deals first .. first + count - 1 with every variant; their sums."""
    return _block_sums(params, "hat")


def _strong_block(params: tuple[int, int, int]) -> list[dict]:
    """The sweep task of the strong strategy: a block of deals with every hint count."""
    return _block_sums(params, "strong")


def _block_sums(params: tuple[int, int, int], family: str) -> list[dict]:
    players, first, count = params
    seeds = range(first, first + count)
    stats = {v: deal_stats(players, seeds, v) for v in variants_for(players, family)}
    rows = []
    for variant, st in stats.items():
        for measure, (x, den) in _measures(st).items():
            rows.append(sum_row({"players": players, "variant": variant, "measure": measure},
                                x, den))
    for a, b in GAINS if family == "hat" else STRONG_GAINS:
        rows.append(sum_row({"players": players, "variant": f"{a} - {b}", "measure": "score"},
                            stats[a][:, 0] - stats[b][:, 0], 1))
    return rows


def game_sums(deals: int, players: Sequence[int] = PLAYERS, *,
              deals_per_task: int = DEALS_PER_TASK, name: str = "hanabi_hat_sweep",
              family: str = "hat", workers: int = 1,
              executor: Executor | None = None) -> pd.DataFrame:
    """Exact sums over deals 0 .. deals - 1 of every variant of a family (`FAMILIES`), for
    each player count.

    Blocks of `deals_per_task` deals run on any executor and wait in data/partial/<name>
    (the table's name when `tables` makes one) until the run ends, so an interrupted run
    resumes; the result depends on neither.
    """
    deals = checks.integer(deals, "deals", low=2, high=10**7)
    players = checks.integers(players, "players", low=2, high=5)
    per_task = checks.integer(deals_per_task, "deals_per_task", low=1)
    task = _strong_block if checks.choice(family, "family", FAMILIES) == "strong" else _block
    params = [(n, first, min(per_task, deals - first))
              for n in players for first in range(0, deals, per_task)]
    parts = sweeps.sweep_table(checks.text(name, "name"), task, params, executor=executor,
                               workers=workers, desc=f"Hanabi deals (blocks of {per_task})")
    return exact_sums.merge_sums(parts, KEYS)


# ----- summaries --------------------------------------------------------------------------------

def _pick(sums: pd.DataFrame) -> pd.DataFrame:
    return exact_sums.merge_sums(sums, KEYS).set_index(KEYS)


def summary_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """Per player count and variant: mean score (both conventions), perfect games, bits per
    hint, each with its 95% half-width over deals; hints, messages, fuses per game."""
    t, rows = _pick(sums), []
    for players, variant in dict.fromkeys((p, v) for p, v, _ in t.index):
        if " - " in variant:
            continue
        row = {"players": players, "variant": variant}

        def ci(measure: str) -> tuple[float, float]:
            r = t.loc[(players, variant, measure)]
            return mean_ci_from_sums(r.deals, r.total, r.squares, r.denominator)

        row["deals"] = int(t.loc[(players, variant, "score"), "deals"])
        row["score"], row["score_ci"] = ci("score")
        row["score_zero"], row["score_zero_ci"] = ci("score_zero")
        perfect, perfect_ci = ci("perfect")
        row["perfect_pct"], row["perfect_pct_ci"] = 100 * perfect, 100 * perfect_ci
        b, h, bh = (t.loc[(players, variant, m)] for m in ("bits", "hints", "bits_x_hints"))
        row["bits_per_hint"], row["bits_per_hint_ci"] = ratio_ci_from_sums(
            b.deals, (b.total, b.squares), (h.total, h.squares), bh.total, BITS_SCALE)
        row["messages_per_hint"] = t.loc[(players, variant, "messages"), "total"] / h.total
        for m in ("hints", "fuses_used", "lost", "turns"):
            row[f"{m}_per_game"] = ci(m)[0]
        rows.append(row)
    return pd.DataFrame(rows)


def gains_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """Paired score differences between ways of counting messages, deal by deal, with CIs."""
    t, rows = _pick(sums), []
    for players, variant, measure in t.index:
        if " - " in variant:
            r = t.loc[(players, variant, measure)]
            mean, half = mean_ci_from_sums(r.deals, r.total, r.squares, r.denominator)
            rows.append({"players": players, "difference": variant, "deals": int(r.deals),
                         "score_gain": mean, "ci": half, "significant": abs(mean) > half})
    return pd.DataFrame(rows)
