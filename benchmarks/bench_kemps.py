"""Kemps speed: Greedy self-play on 52 cards (fast path vs the general engine vs a full-tracking
baseline) and a 10,000-game tournament on 1 and 2 processes. Writes data/bench_kemps.csv."""

from __future__ import annotations

import os
import time

import pandas as pd

from puzzlelab.cache import write_table
from puzzlelab.kemps import FULL, play
from puzzlelab.kemps.fast import greedy_selfplay
from puzzlelab.kemps.tournament import tournament


def rate(fn, games: int) -> float:
    """Games per second of fn(seed) over seeds 0..games-1."""
    start = time.perf_counter()
    for seed in range(games):
        fn(seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    os.environ.setdefault("TQDM_DISABLE", "1")
    naive = rate(lambda s: play(["greedy"] * 3, s, FULL, trace=True, knowledge=True), 200)
    engine = rate(lambda s: play(["greedy"] * 3, s, FULL, trace=False), 1000)
    fast = rate(lambda s: greedy_selfplay(s, FULL), 5000)
    rows = [
        {"task": "greedy self-play, 52 cards", "method": "baseline: engine with trace + all knowledge bases",
         "games": 200, "games_per_s": naive, "speedup_vs_baseline": 1.0, "target": ""},
        {"task": "greedy self-play, 52 cards", "method": "general engine, no trace",
         "games": 1000, "games_per_s": engine, "speedup_vs_baseline": engine / naive, "target": ""},
        {"task": "greedy self-play, 52 cards", "method": "fast path (fast.greedy_selfplay)",
         "games": 5000, "games_per_s": fast, "speedup_vs_baseline": fast / naive,
         "target": ">= 1000 games/s/core"},
    ]
    games = 157  # x 64 line-ups = 10,048 games
    one = None
    for workers in (1, 2):
        start = time.perf_counter()
        tournament(games=games, deck=FULL, progress=False, workers=workers)
        seconds = time.perf_counter() - start
        one = one or seconds
        rows.append({"task": "tournament, 64 line-ups x 157 games, 52 cards",
                     "method": f"{workers} process(es)" + (" (baseline)" if workers == 1 else ""),
                     "games": 64 * games, "games_per_s": 64 * games / seconds,
                     "speedup_vs_baseline": one / seconds, "target": "< 60 s on 2 cores",
                     "seconds": seconds})
    df = pd.DataFrame(rows)
    write_table(df, "bench_kemps")
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
