"""Tournaments too large to keep: exact sums over deals, in constant memory.

`tournament.tournament` keeps one row per game; a million deals for each of 64 line-ups would
be 64 million rows. Its summaries are read from exact integer sums over blocks of deals
(`summaries`), and blocks add up exactly, so a long run keeps only the sums of each block: the
tables are the same whatever the executor, the block size or the order in which blocks finish.
Finished blocks are kept by `sweeps.sweep_table`, so an interrupted run resumes.

Command line: `python -m puzzlelab.kemps.streaming --table kemps_million_28 [--workers 2]
[--scheduler ADDR]` recomputes a long run the notebook reads; `--lineups tom/tom/tom --cards 52
--deals 1000000 --name NAME` runs any other (under a name of its own: a long run's table is
never replaced by sums over other line-ups or deals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from .. import cache, checks, sweeps
from ..cache import Table
from .cards import FULL, Deck, make_deck
from .game import MAX_TURNS
from .strategies import STRATEGIES
from .summaries import merge_sums
from .tournament import DECKS, MEDIUM, check_lineup, game_sums, lineup_games, lineups

__all__ = [
    "LONG_RUNS", "check_long_run",
    "DEALS_PER_TASK", "GAMES_PER_TASK", "TABLES", "deal_sums", "deals_per_task_for",
]

DEALS_PER_TASK = 500  # the fewest deals of a task
# A task plays at least this many games (deals x line-ups): about 1.5 s of one core for the
# cheapest line-up (Greedy self-play on 28 cards, 0.2 ms a game), so that what each task costs
# besides its games (sending it, its result, its chunk file; a few ms on any executor) is small.
GAMES_PER_TASK = 8000
SELF_PLAY = tuple((s,) * 3 for s in STRATEGIES)  # greedy, kb-greedy, blocking, tom
# The long runs behind the notebook: a million deals for each self-play line-up, and the
# tournaments (every seat order of the four strategies) on 100,000 deals (28 cards) and on
# 10,000 (52 cards).
EVERY_ORDER = tuple(lineups(list(STRATEGIES)))  # the 64 line-ups of a tournament
TABLES: dict[str, dict[str, Any]] = {
    "kemps_million_28": {"lineups": SELF_PLAY, "deck": MEDIUM, "deals": 10**6},
    "kemps_million_52": {"lineups": SELF_PLAY[:3], "deck": FULL, "deals": 10**6},
    "kemps_tournament_28_100k": {"lineups": EVERY_ORDER, "deck": MEDIUM, "deals": 10**5},
    "kemps_tournament_52_10k": {"lineups": EVERY_ORDER, "deck": FULL, "deals": 10**4},
}
COMMAND = "python -m puzzlelab.kemps.streaming"


def _run_table(name: str, lineup_list: Sequence[Sequence[str]], deck: Sequence[int], deals: int,
               command: str = "") -> Table:
    """The long run of sums over `deals` deals of these line-ups on this deck, checked when
    read (`check_long_run`)."""
    ups = ["/".join(up) for up in lineup_list]
    return Table(name, params=dict(lineups=ups, cards=4 * len(deck), deals=deals),
                 command=command, long_run=True, check=check_long_run(ups, deals))


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
    ups = _lineups(lineup_list)
    deals = checks.integer(deals, "deals", low=2, high=10**9)
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


def _lineups(lineup_list: object) -> list[tuple[str, ...]]:
    """Distinct line-ups of three known strategies."""
    if isinstance(lineup_list, (str, bytes)) or not isinstance(lineup_list, Sequence) \
            or not lineup_list:
        raise checks.ArgumentTypeError(
            f"lineup_list must be a non-empty sequence of line-ups, got {lineup_list!r}")
    ups = [tuple(check_lineup(up)) for up in lineup_list]
    if len(set(ups)) != len(ups):
        raise ValueError("line-ups must be distinct")
    return ups


# ----- summaries from sums -------------------------------------------------------------------
def check_long_run(lineup_list: Sequence[str], deals: int) -> Callable[[pd.DataFrame], None]:
    """A check of a table of sums against what made it: its rows add up (`merge_sums`) to
    exactly these line-ups ('tom/tom/tom', ...) and `deals` deals for each."""
    expected = sorted(checks.text(up, "line-up")
                      for up in checks.sequence(lineup_list, "lineup_list"))
    deals = checks.integer(deals, "deals", low=1)

    def verify(sums: pd.DataFrame) -> None:
        rows = merge_sums(sums)
        rows = rows[rows["table"] == "lineup"]
        if sorted(set(rows["scope"])) != expected:
            raise ValueError(f"the sums are over other line-ups than {len(expected)} expected")
        if (rows["deals"] != deals).any():
            raise ValueError(f"the sums are not over {deals} deals per line-up")
    return verify


# The long runs' tables (not recomputed by `make reproduce`): what makes each, and its command.
LONG_RUNS: dict[str, Table] = {
    name: cache.register(_run_table(name, spec["lineups"], spec["deck"], spec["deals"],
                                    f"{COMMAND} --table {name} --workers 2"))
    for name, spec in TABLES.items()}


# ----- command line --------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> None:
    """Exact sums over deals for a long run (data/kemps_*.csv) or any line-ups, on any executor."""
    parser = sweeps.CommandParser(prog=COMMAND, description=main.__doc__)
    parser.add_argument("--table", choices=sorted(TABLES), default=None,
                        help="a long run the notebook reads (its line-ups, deck and deals)")
    parser.add_argument("--lineups", nargs="+", default=None,
                        help="line-ups such as tom/tom/tom (instead of the table's)")
    parser.add_argument("--cards", type=int, choices=sorted(DECKS), default=None)
    parser.add_argument("--deals", type=int, default=None, help="deals per line-up")
    parser.add_argument("--name", default=None,
                        help="write data/<name>.csv (default: the --table name, when its line-ups, "
                             "cards and deals are the table's)")
    sweeps.add_executor_arguments(parser)
    args = parser.parse_args(argv)
    spec = dict(TABLES[args.table]) if args.table else {"deals": 1000, "deck": FULL}
    if args.lineups is not None:
        spec["lineups"] = [u.split("/") for u in args.lineups]
    if args.cards is not None:
        spec["deck"] = DECKS[args.cards]
    if args.deals is not None:
        spec["deals"] = args.deals
    name = args.name or args.table
    if name is None or "lineups" not in spec:
        raise ValueError("give --table, or --lineups and --name (and --cards, --deals)")
    ups = _lineups(spec["lineups"])
    deals = checks.integer(spec["deals"], "--deals", low=2, high=10**9)
    table = _run_table(name, ups, spec["deck"], deals, sweeps.invocation(parser, argv))
    if name in LONG_RUNS and table.params != LONG_RUNS[name].params:
        raise ValueError(f"these line-ups, cards or deals are not those of {name}: give the sums "
                         f"a name of their own with --name")
    table = cache.check_writable(LONG_RUNS.get(name, table))
    with sweeps.executor_from_arguments(args) as (executor, workers):
        out = cache.compute_table(table, lambda: deal_sums(
            ups, deals, spec["deck"], name=name, executor=executor, workers=workers))
    print(f"wrote {cache.data_path(name)} ({len(out)} sums)")


if __name__ == "__main__":
    sweeps.command_line(main)
