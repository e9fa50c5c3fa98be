"""Tournaments too large to keep: exact sums over deals, in constant memory.

`tournament.tournament` keeps one row per game; a million deals for each of 64 line-ups would
be 64 million rows. Its summaries are read from exact integer sums over blocks of deals
(`summaries`), and blocks add up exactly, so a long run keeps only the sums of each block: the
tables are the same whatever the executor, the block size or the order in which blocks finish.
Finished blocks are kept by `sweeps.sweep_table`, so an interrupted run resumes.

The long runs the notebook reads are declared in `tables` (`LONG_RUNS`): `puzzlelab compute
kemps_million_28 --long-run [--workers 2] [--scheduler ADDR]` recomputes one of them;
`tables.sums_run` runs any other line-ups, cards or deals (under a name of its own: a long run's
table is never replaced by sums over other line-ups or deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor

import pandas as pd

from .. import checks, sweeps
from .cards import FULL, Deck, make_deck
from .game import MAX_TURNS
from .summaries import merge_sums
from .tournament import check_lineup, game_sums, lineup_games

__all__ = ["DEALS_PER_TASK", "GAMES_PER_TASK", "MAX_GAMES", "check_lineups", "deal_sums", "deals_per_task_for"]

DEALS_PER_TASK = 500  # the fewest deals of a task
# A task plays at least this many games (deals x line-ups): about 1.5 s of one core for the
# cheapest line-up (Greedy self-play on 28 cards, 0.2 ms a game), so that what each task costs
# besides its games (sending it, its result, its chunk file; a few ms on any executor) is small.
GAMES_PER_TASK = 8000
SECONDS_PER_GAME = 2e-4  # the cheapest line-up's game (Greedy self-play, 28 cards), one core
MAX_GAMES = 10**8  # games (deals x line-ups) of one call: 5.6 CPU-hours at the cheapest


# ----- one block of deals --------------------------------------------------------------------
def _block_sums(params: tuple[tuple[tuple[str, ...], ...], int, int, Deck, int]) -> list[dict]:
    """The sweep task: play `count` deals from seed `first` in every line-up; their sums."""
    ups, first, count, deck, max_turns = params
    return game_sums(pd.concat([lineup_games(up, count, deck, first, max_turns) for up in ups],
                               ignore_index=True)).to_dict("records")


# ----- the sweep -----------------------------------------------------------------------------
def deal_sums(lineup_list: Sequence[Sequence[str]], deals: int = 1000,
              deck: Deck | Sequence[int] = FULL, *, seed: int = 0,
              deals_per_task: int | None = None, max_turns: int = MAX_TURNS,
              name: str = "kemps_deal_sums", workers: int = 1,
              executor: Executor | None = None) -> pd.DataFrame:
    """Exact sums over `deals` seeded deals (seeds seed, seed + 1, ...) of every line-up given
    (e.g. `tournament.lineups(names)`: every seat order), in constant memory.

    Blocks of `deals_per_task` deals (by default `deals_per_task_for(len(lineup_list))`) run on
    any executor and are kept under data/partial/<name> until the run ends, so an interrupted
    run resumes; the result does not depend on either.
    """
    ups = check_lineups(lineup_list)
    deals = checks.integer(deals, "deals", low=2, high=10**12)
    hours = deals * len(ups) * SECONDS_PER_GAME / 3600
    checks.within_budget(f"deal_sums of {deals} deals x {len(ups)} line-ups (at least "
                         f"{hours:.3g} CPU-hours)", deals * len(ups), MAX_GAMES, unit="games",
                         largest=f"deals = {MAX_GAMES // len(ups)}")
    seed = checks.seed(seed)
    per_task = (deals_per_task_for(len(ups)) if deals_per_task is None
                else checks.integer(deals_per_task, "deals_per_task", low=1))
    max_turns = checks.integer(max_turns, "max_turns", low=1)
    deck = make_deck(deck)
    params = [(tuple(ups), first, min(per_task, seed + deals - first), deck, max_turns)
              for first in range(seed, seed + deals, per_task)]
    parts = sweeps.sweep_table(checks.text(name, "name"), _block_sums, params, executor=executor,
                               workers=workers,
                               desc=f"Kemps deals (blocks of {per_task} x {len(ups)} line-ups)")
    return merge_sums(parts)


def deals_per_task_for(lineups: int) -> int:
    """Deals per task for this many line-ups: `DEALS_PER_TASK`, or more so that a task plays at
    least `GAMES_PER_TASK` games."""
    lineups = checks.integer(lineups, "lineups", low=1)
    return max(DEALS_PER_TASK, -(-GAMES_PER_TASK // lineups))


def check_lineups(lineup_list: object) -> list[tuple[str, ...]]:
    """Distinct line-ups of three known strategies, as tuples; anything else is refused."""
    if isinstance(lineup_list, (str, bytes)) or not isinstance(lineup_list, Sequence) \
            or not lineup_list:
        raise checks.ArgumentTypeError(
            f"lineup_list must be a non-empty sequence of line-ups, got {lineup_list!r}")
    ups = [tuple(check_lineup(up)) for up in lineup_list]
    if len(set(ups)) != len(ups):
        raise ValueError("line-ups must be distinct")
    return ups
