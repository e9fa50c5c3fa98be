"""Kemps speed: Greedy self-play on 52 cards (fast path vs the general engine vs a full-tracking
baseline) and a 10,048-game tournament on 1 and 2 processes, with its progress bar on (as the
issue asks). Best-of timings; the CSV records os.cpu_count() and the load average, because the
machine may be shared. Writes data/bench_kemps.csv."""

from __future__ import annotations

import os

import pandas as pd

from puzzlelab.cache import write_table
from puzzlelab.kemps import FULL, play
from puzzlelab.kemps.fast import greedy_selfplay
from puzzlelab.kemps.tournament import tournament
from puzzlelab.timing import best_of

TASK = "greedy self-play, 52 cards"
GAMES = 157  # x 64 line-ups = 10,048 games


def rate(fn, games: int, repeat: int = 3) -> float:
    """Games per second of fn(seed) over seeds 0..games-1, best of `repeat` runs."""
    return games / best_of(lambda: [fn(seed) for seed in range(games)], repeat)


def main() -> None:
    machine = {"cpu_count": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    naive = rate(lambda s: play(["greedy"] * 3, s, FULL, trace=True, knowledge=True), 200)
    engine = rate(lambda s: play(["greedy"] * 3, s, FULL, trace=False), 1000)
    fast = rate(lambda s: greedy_selfplay(s, FULL), 5000)
    rows = [
        {"task": TASK, "method": "baseline: engine with trace + all knowledge bases", "games": 200,
         "games_per_s": naive, "speedup_vs_baseline": 1.0, "target": ""},
        {"task": TASK, "method": "general engine, no trace", "games": 1000, "games_per_s": engine,
         "speedup_vs_baseline": engine / naive, "target": ""},
        {"task": TASK, "method": "fast path (fast.greedy_selfplay)", "games": 5000, "games_per_s": fast,
         "speedup_vs_baseline": fast / naive, "target": ">= 1000 games/s/core"},
    ]
    os.environ.pop("TQDM_DISABLE", None)  # the issue asks for the tournament *with* its progress bar
    one = None
    for workers in (1, 2):
        seconds = best_of(lambda: tournament(games=GAMES, deck=FULL, progress=True, workers=workers), 2)
        one = one or seconds
        rows.append({"task": f"tournament, 64 line-ups x {GAMES} games, 52 cards, progress bar on",
                     "method": f"{workers} process(es)" + (" (baseline)" if workers == 1 else ""),
                     "games": 64 * GAMES, "games_per_s": 64 * GAMES / seconds, "speedup_vs_baseline": one / seconds,
                     "target": "< 60 s on 2 cores", "seconds": seconds})
    machine["load_1min_after"] = round(os.getloadavg()[0], 2)
    df = pd.DataFrame(rows).assign(**machine)
    write_table(df, "bench_kemps")
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
