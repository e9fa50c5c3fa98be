"""Hanabi played (Cox et al. 2015's information strategy): games per second per core.

The compiled strategy (`hat_compiled.play_deals`, numba) against the readable one it is tested
against move for move (`hat_strategies.play` on the `game.Game` engine), on the same deals and
so the same summed score, for each way of counting the messages; then the compiled strategy
alone on many deals, and the whole study's sweep (every variant, exact sums) on one and two
processes. Notes give games per second. Writes data/bench_hanabi_play.csv.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from puzzlelab import cache
from puzzlelab.hanabi.hat_compiled import play_deals
from puzzlelab.hanabi.hat_strategies import PACKINGS, play
from puzzlelab.hanabi.hat_sweep import game_sums
from puzzlelab.timing import Method, Task, measure, quick, repetitions, with_rates, write_rows

HERE = "bench_hanabi_play"
PLAYERS = 5
SIDE_BY_SIDE = 10 if quick() else 60  # deals both ways
MANY = 200 if quick() else 4000  # deals, compiled only
SWEEP = 20 if quick() else 200  # deals per player count and variant in the sweep case


def compiled(packing: str, deals: int) -> int:
    """Summed score of deals 0..deals-1 played by the compiled information strategy."""
    return int(play_deals(PLAYERS, range(deals), packing)[:, 0].sum())


def readable(packing: str, deals: int) -> int:
    """The same, by the readable strategy on the game engine."""
    return sum(play(PLAYERS, seed, "information", packing).game.score for seed in range(deals))


def sweep(deals: int, workers: int) -> int:
    """Summed score of the study's sweep (every variant, 2-5 players), in a scratch data folder."""
    with tempfile.TemporaryDirectory() as scratch:
        cache.DATA = Path(scratch)
        sums = game_sums(deals, deals_per_task=max(1, deals // 4), workers=workers,
                         name="bench_sweep")
    return int(sums[sums.measure == "score"].total.sum())


def main() -> None:
    rows: list[dict] = []
    for packing in PACKINGS:
        case = f"{PLAYERS} players, {packing} messages, {SIDE_BY_SIDE} deals"
        rows += with_rates(measure("hanabi-play", case, [
            Method("compiled (library, numba)", Task(HERE, "compiled", (packing, SIDE_BY_SIDE))),
            Method("readable (library, Python)", Task(HERE, "readable", (packing, SIDE_BY_SIDE)),
                   "baseline", note="the same moves on the readable engine (hanabi.game.Game)"),
        ], repeat=repetitions(5), cold_repeat=1), SIDE_BY_SIDE)
    for packing in PACKINGS:
        case = f"{PLAYERS} players, {packing} messages, {MANY} deals"
        rows += with_rates(measure("hanabi-play", case, [
            Method("compiled (library, numba)", Task(HERE, "compiled", (packing, MANY))),
        ], repeat=repetitions(5), cold_repeat=1), MANY)
    games = SWEEP * 4 * 4 + SWEEP  # 4 information variants x 4 player counts + recommendation
    case = f"the study's sweep, {SWEEP} deals per player count and variant ({games} games)"
    rows += with_rates(measure("hanabi-play", case, [
        Method("2 processes", Task(HERE, "sweep", (SWEEP, 2)), warm=False),
        Method("1 process", Task(HERE, "sweep", (SWEEP, 1)), "baseline", warm=False),
    ], cold_repeat=1, profile_below=0), games)
    print(write_rows(rows, HERE).to_string(index=False))


if __name__ == "__main__":
    main()
