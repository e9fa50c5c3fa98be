"""Per-game statistics used to check the report's claims (first-round moves, Kemps per game, blocks)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from ..progress import tqdm
from .play import play


def game_stats(lineup: Sequence[str], deck, seeds: Iterable[int], bar=None) -> pd.DataFrame:
    """One row per seeded game: total Kemps, turns, rounds, how it ended, moves in round 1, blocks."""
    rows = []
    for seed in seeds:
        if bar is not None:
            bar.update()
        rec = play(lineup, seed, deck)
        moves = [t for t in rec.trace if t.picked]
        rows.append({
            "seed": seed, "kemps": sum(rec.scores), "turns": rec.turns, "rounds": rec.rounds, "end": rec.end,
            "round1_moves": sum(t.round == 1 for t in moves),
            "blocks": sum(t.why[0] == "block" for t in moves),
            "first_kemps_turn": next((t.turn + 1 for t in rec.trace if t.kemps is not None), None),
        })
    return pd.DataFrame(rows)


def claims_table(deck, seeds: Iterable[int], lineups: Sequence[Sequence[str]]) -> pd.DataFrame:
    """game_stats summarised per self-play line-up: how often each of the report's stories happens."""
    seeds = list(seeds)
    rows = []
    bar = tqdm(total=len(seeds) * len(lineups), desc="Kemps traced games")
    for lineup in lineups:
        g = game_stats(lineup, deck, seeds, bar)
        rows.append({
            "lineup": "/".join(lineup), "games": len(g), "mean_kemps": g["kemps"].mean(),
            "max_kemps": int(g["kemps"].max()), "no_kemps": (g["kemps"] == 0).mean(),
            "no_move_in_round_1": (g["round1_moves"] == 0).mean(),
            "stalemate": (g["end"] == "stalemate").mean(), "turn_limit": (g["end"] == "turn limit").mean(),
            "mean_turns": g["turns"].mean(), "games_with_block": (g["blocks"] > 0).mean(),
        })
    bar.close()
    return pd.DataFrame(rows)
