"""Kemps (Group 6, 2023): Greedy self-play by the library's lean game loop (`play_scores`, the
tournament's) against the engine keeping a trace and every knowledge base (its records dropped
after each game, as a competent baseline would), and a tournament on one and two processes.

Writes data/bench_kemps.csv; notes give games per second. The original student program is
an outside figure (data/bench_outside.csv).
"""

from __future__ import annotations

from collections.abc import Iterable

from puzzlelab.kemps.cards import FULL
from puzzlelab.kemps.matches import play, play_scores
from puzzlelab.kemps.tournament import tournament
from puzzlelab.timing import Method, Task, measure, quick, repetitions, with_rates, write_rows

HERE = "bench_kemps"
GAMES = 200 if quick() else 1000
LINEUP_GAMES = 20 if quick() else 157  # x 64 line-ups = 10,048 games in a full run
GREEDY = ["greedy"] * 3


def lean(games: int) -> tuple[int, ...]:
    """Summed scores of Greedy self-play over seeds 0..games-1, no trace (`play_scores`)."""
    return _sum(play_scores(GREEDY, seed, FULL)[0] for seed in range(games))


def engine(games: int) -> tuple[int, ...]:
    """The same by `play` with its trace off (a game record is still built)."""
    return _sum(play(GREEDY, seed, FULL, trace=False).scores for seed in range(games))


def engine_tracking(games: int) -> tuple[int, ...]:
    """The same by `play` keeping a trace and every knowledge base (records not kept)."""
    return _sum(play(GREEDY, seed, FULL, trace=True, knowledge=True).scores
                for seed in range(games))


def _sum(scores: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    total = [0, 0, 0]
    for s in scores:
        total = [t + x for t, x in zip(total, s)]
    return tuple(total)


def run_tournament(games: int, workers: int) -> tuple[int, int]:
    """(games played, Kemps scored) of a tournament of every line-up."""
    table = tournament(games=games, deck=FULL, workers=workers)
    return len(table), int(table[["k1", "k2", "k3"]].to_numpy().sum())


def main() -> None:
    selfplay = measure("kemps", f"Greedy self-play, 52 cards, {GAMES} games", [
        Method("play_scores, no trace (library)", Task(HERE, "lean", (GAMES,)),
               note="the tournament's game loop"),
        Method("play, trace off (library)", Task(HERE, "engine", (GAMES,)), "baseline",
               note="builds a game record"),
        Method("play, trace + knowledge bases (library)", Task(HERE, "engine_tracking", (GAMES,)),
               "baseline", note="records dropped after each game"),
    ], repeat=repetitions(7), cold_repeat=repetitions(3, 1))
    rows = with_rates(selfplay, GAMES)
    n, case = 64 * LINEUP_GAMES, f"tournament, 64 line-ups x {LINEUP_GAMES} games, 52 cards"
    rows += with_rates(measure("kemps", case, [
        Method("2 processes", Task(HERE, "run_tournament", (LINEUP_GAMES, 2)), warm=False),
        Method("1 process", Task(HERE, "run_tournament", (LINEUP_GAMES, 1)), "baseline",
               warm=False),
    ], cold_repeat=1, profile_below=0), n)
    print(write_rows(rows, "bench_kemps").to_string(index=False))


if __name__ == "__main__":
    main()
