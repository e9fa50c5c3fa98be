"""Tournaments: every seat order of every line-up, thousands of seeded games, means with 95% CIs.

`tournament` returns one row per game. Every line-up plays the same deals (game i uses seed
`seed + i`), so the unit of independent sampling is the *deal*: the summaries below first
average a strategy's seats within a deal (two copies of a strategy in one game, or the same
deal in several line-ups, are not independent samples) and take the confidence interval
over deals. Seat effects are paired differences between seats over the same deals. A table of
games is one block of deals, summarised by exact sums (`game_sums`); each summary is read from
those sums (`summaries`), as the long runs' are from theirs.

The games run through `puzzlelab.sweeps.sweep` on any executor, in blocks of `BLOCK` games of
one line-up; the seeds come from the parameters, so the table is the same whatever ran it.
The tournaments the notebook reads are declared in `tables` (`TOURNAMENTS`): `puzzlelab
compute NAME [--workers N] [--scheduler ADDR]` writes one; `tables.tournament_run` with `games`
other than 1,000 writes tables of their own names (`<name>_games<N>`), never the notebook's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from .. import checks, sweeps
from ..exact_sums import Z95
from .cards import FULL, Deck, make_deck
from .game import MAX_TURNS
from .matches import play_scores
from .strategies import ABLATIONS, STRATEGIES
from .summaries import (SUMS, block_sums, head_to_head_from_sums, lineup_from_sums,
                        seats_from_sums, strategy_from_sums)

__all__ = [
    "BLOCK", "DECKS", "ENDS", "MEDIUM", "SMALL", "Z95", "by_strategy", "check_lineup", "game_sums",
    "head_to_head", "lineup_games", "lineup_table", "lineups", "pack", "seat_differences",
    "seat_rows", "tournament", "unpack", "valve_table", "win_shares",
]

ENDS = {"deck exhausted": "d", "stalemate": "s", "turn limit": "t"}
COLUMNS = ["lineup", "seed", "k1", "k2", "k3", "turns", "end"]
PACKED = ["lineup", "seed", "k1", "k2", "k3", "end"]  # what pack() keeps
BLOCK = 50  # games of one line-up per task: the progress bar advances by this many games
MAX_TASKS = 256  # chunks of blocks handed to other processes
BYTES_PER_GAME = 400  # a generous estimate of one game's row while the table is built
SMALL, MEDIUM = range(2, 7), range(2, 9)  # the report's 20- and 28-card decks
DECKS = {20: SMALL, 28: MEDIUM, 52: FULL}  # by number of cards



def lineups(strategies: Sequence[str], *, all_orders: bool = True) -> list[tuple[str, str, str]]:
    """Every ordered triple of strategies (seat 1, 2, 3), or one per multiset if
    all_orders=False."""
    known = STRATEGIES | ABLATIONS
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise checks.ArgumentTypeError(
            f"strategies must be a sequence of names, got {strategies!r}")
    names = [checks.text(s, "strategies[i]") for s in strategies]
    unknown = [s for s in names if s not in known]
    if unknown or not names:
        raise ValueError(f"unknown strategies {unknown}; choose from {sorted(known)}")
    if len(set(names)) != len(names):
        raise ValueError(f"strategies must be distinct (line-ups repeat them), got {names}")
    if checks.boolean(all_orders, "all_orders"):
        return list(itertools.product(names, repeat=3))
    return list(itertools.combinations_with_replacement(names, 3))


def win_shares(scores: Sequence[int]) -> list[float]:
    """Each seat's share of the win: the top scorers split it; nobody wins a game without a
    Kemps."""
    scores = checks.integers(scores, "scores", low=0)
    top = max(scores, default=0)
    if top == 0:
        return [0.0] * len(scores)
    k = sum(s == top for s in scores)
    return [1.0 / k if s == top else 0.0 for s in scores]


def _block(params: tuple[tuple[str, ...], int, int, Deck, int]) -> list[tuple]:
    """The sweep task: `count` games of one line-up from seed `first` on, one row each."""
    lineup, first, count, deck, max_turns = params
    name = "/".join(lineup)
    return [(name, s, *sc, turns, end) for s in range(first, first + count)
            for sc, turns, end in [play_scores(lineup, s, deck, max_turns)]]


def tournament(strategies: Sequence[str] = tuple(STRATEGIES), games: int = 1000,
               deck: Deck | Sequence[int] = FULL, *, seed: int = 0, all_orders: bool = True,
               max_turns: int = MAX_TURNS, workers: int = 1,
               executor: Executor | None = None) -> pd.DataFrame:
    """One row per game: line-up, seed, each seat's Kemps (k1, k2, k3), turns and how it ended.

    Game i of every line-up uses seed `seed + i` (the same deals for every line-up). The games
    run serially, on `workers` local processes or on `executor` (e.g. a Dask client's), with
    the same table in every case; sizes whose table cannot fit in memory are refused.
    """
    games = checks.integer(games, "games", low=1)
    seed = checks.seed(seed)
    max_turns = checks.integer(max_turns, "max_turns", low=1)
    workers = checks.integer(workers, "workers", low=1)
    deck = make_deck(deck)
    ups = lineups(strategies, all_orders=all_orders)
    largest = checks.MEMORY_BUDGET // (BYTES_PER_GAME * len(ups))
    checks.within_budget(f"a tournament of {len(ups)} line-ups x {games} games",
                         len(ups) * games * BYTES_PER_GAME, checks.MEMORY_BUDGET,
                         largest=f"games={largest:,}")
    params = [(lineup, first, min(BLOCK, seed + games - first), deck, max_turns)
              for lineup in ups for first in range(seed, seed + games, BLOCK)]
    # other processes get at most about MAX_TASKS chunks (few futures to submit or cancel)
    chunk = 1 if executor is None and workers == 1 else -(-len(params) // MAX_TASKS)
    blocks = sweeps.sweep(_block, params, executor=executor, workers=workers, chunk_size=chunk,
                          desc=f"Kemps tournament (blocks of {BLOCK} games)")
    return pd.DataFrame([row for block in blocks for row in block], columns=COLUMNS)


def lineup_games(lineup: Sequence[str], games: int, deck: Deck | Sequence[int] = FULL,
                 seed: int = 0, max_turns: int = MAX_TURNS) -> pd.DataFrame:
    """Play `games` seeded games of one line-up (seeds seed, seed + 1, ...); one row per game."""
    games = checks.integer(games, "games", low=1, high=10**6)
    rows = _block((tuple(check_lineup(lineup)), checks.seed(seed), games, make_deck(deck),
                   checks.integer(max_turns, "max_turns", low=1)))
    return pd.DataFrame(rows, columns=COLUMNS)


# ----- compact storage for the cache ---------------------------------------------------------
def _table(df: object, columns: Sequence[str], name: str = "games") -> pd.DataFrame:
    """`df` if it is a DataFrame with the given columns (a tournament's game table by default)."""
    if checks.table(df, name, columns, made_by="tournament()").empty:
        raise ValueError(f"{name} must be a non-empty table with columns {list(columns)}")
    return df


def pack(games: pd.DataFrame) -> pd.DataFrame:
    """One row per seed, one column per line-up, cells like '102d' (seat Kemps, then how it
    ended)."""
    games = _table(games, PACKED)
    if games[["k1", "k2", "k3"]].to_numpy().max() > 9:
        raise ValueError("pack() stores one digit per seat: at most 9 Kemps")
    cell = (games["k1"].astype(str) + games["k2"].astype(str) + games["k3"].astype(str)
            + games["end"].map(ENDS))
    wide = games.assign(cell=cell).pivot(index="seed", columns="lineup", values="cell")
    order = list(dict.fromkeys(games["lineup"]))
    return wide[order].reset_index()


def unpack(wide: pd.DataFrame) -> pd.DataFrame:
    """The inverse of pack (without the turn counts): one row per game."""
    wide = _table(wide, ["seed"], "wide")
    cells = wide.drop(columns="seed").astype(str)
    if not cells.stack().str.fullmatch(r"\d\d\d[dst]").all():
        raise ValueError("wide must hold packed cells such as '102d' (from pack())")
    ends = {v: k for k, v in ENDS.items()}
    long = wide.melt(id_vars="seed", var_name="lineup", value_name="cell")
    long["cell"] = long["cell"].astype(str)
    out = pd.DataFrame({"lineup": long["lineup"], "seed": long["seed"].astype(int)})
    for j in range(3):
        out[f"k{j + 1}"] = long["cell"].str[j].astype(int)
    out["end"] = long["cell"].str[3].map(ends)
    order = {u: i for i, u in enumerate(wide.columns[1:])}
    return out.sort_values(["lineup", "seed"], ignore_index=True,
                           key=lambda s: s.map(order) if s.name == "lineup" else s)


# ----- summaries -----------------------------------------------------------------------------
def seat_rows(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): line-up, seed, seat, strategy, Kemps and win share."""
    games = _table(games, ["lineup", "seed", "k1", "k2", "k3"])
    k = games[["k1", "k2", "k3"]].to_numpy()
    top = k.max(axis=1, keepdims=True)
    win = np.where((k == top) & (top > 0), 1.0, 0.0)
    total = win.sum(axis=1, keepdims=True)
    win = np.divide(win, total, out=np.zeros_like(win), where=total > 0)
    names = games["lineup"].str.split("/", expand=True).to_numpy()
    if names.shape[1] != 3:
        raise ValueError("games['lineup'] must name three strategies such as 'greedy/tom/tom'")
    lineup, seed = games["lineup"].to_numpy(), games["seed"].to_numpy()
    parts = [pd.DataFrame({"lineup": lineup, "seed": seed, "seat": j + 1, "strategy": names[:, j],
                           "kemps": k[:, j], "win": win[:, j]}) for j in range(3)]
    return pd.concat(parts, ignore_index=True)


def game_sums(games: pd.DataFrame) -> pd.DataFrame:
    """A table of games as one block of deals: its exact sums (`summaries.block_sums`); every
    line-up must have played the same deals, each once."""
    games = _table(games, PACKED)
    order = list(dict.fromkeys(games["lineup"]))
    deals = games["seed"].nunique()
    if len(games) != len(order) * deals or games.duplicated(["lineup", "seed"]).any():
        raise ValueError("every line-up must have played the same deals (seeds), each once")
    games = games.sort_values("seed", kind="stable")
    by_lineup = [games[games["lineup"] == up] for up in order]
    kemps = np.stack([g[["k1", "k2", "k3"]].to_numpy(dtype=np.int64) for g in by_lineup])
    stalled = np.stack([g["end"].isin(["stalemate", "turn limit"]).to_numpy() for g in by_lineup])
    names = [up.split("/") for up in order]
    if any(len(up) != 3 for up in names):
        raise ValueError("games['lineup'] must name three strategies such as 'greedy/tom/tom'")
    return pd.DataFrame(block_sums(names, kemps, stalled), columns=SUMS)


def by_strategy(games: pd.DataFrame) -> pd.DataFrame:
    """Each strategy over every line-up and seat it played: mean per deal, 95% CI over deals."""
    return strategy_from_sums(game_sums(games))


def head_to_head(games: pd.DataFrame, focal: str) -> pd.DataFrame:
    """One `focal` agent against two copies of each other strategy, all three seat orders pooled.

    Per deal: the focal agent's mean over its 3 seat-games, the others' mean over their 6, and
    the paired difference; means and 95% CIs over deals.
    """
    sums = game_sums(games)
    played = sorted(set(sums.loc[sums["table"] == "strategy", "scope"]))
    return head_to_head_from_sums(sums, checks.choice(focal, "focal", played))


def lineup_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per line-up and seat: mean Kemps and win share; per line-up: the share of games without a
    winner and of games stalled."""
    return lineup_from_sums(game_sums(games))


def seat_differences(games: pd.DataFrame) -> pd.DataFrame:
    """Paired seat differences in win share over the same deals, with 95% CIs.

    For each self-play line-up, and for all line-ups together (every strategy sits in every
    seat equally often, so only the seat differs): per deal, seat i's win share minus seat j's.
    """
    return seats_from_sums(game_sums(games))


# ----- the turn valve ------------------------------------------------------------------------
def _valve_row(params: tuple[tuple[str, ...], int, Deck, int]) -> dict[str, Any]:
    """The sweep task of valve_table: one line-up under one turn valve."""
    lineup, valve, deck, games = params
    g = lineup_games(lineup, games, deck, 0, valve)  # seeds 0..games-1, as in tournament()
    s = seat_rows(g).groupby("seat")[["kemps", "win"]].mean()
    return {"lineup": "/".join(lineup), "valve": valve, "games": len(g),
            "cut_off": (g["end"] == "turn limit").mean(),
            "stalemate": (g["end"] == "stalemate").mean(), "mean_turns": g["turns"].mean(),
            "total_kemps": g[["k1", "k2", "k3"]].sum(axis=1).mean(),
            **{f"win_{j}": s.loc[j, "win"] for j in (1, 2, 3)}}


def valve_table(lineups: Sequence[Sequence[str]], valves: Sequence[int],
                deck: Deck | Sequence[int] = FULL, games: int = 1000, *, workers: int = 1,
                executor: Executor | None = None) -> pd.DataFrame:
    """How results depend on the turn valve: per line-up and valve, games cut off, Kemps and win
    share per seat (the same seeds 0..games-1 for every valve)."""
    if isinstance(lineups, (str, bytes)) or not isinstance(lineups, Sequence):
        raise checks.ArgumentTypeError(f"lineups must be a sequence of line-ups, got {lineups!r}")
    ups = [tuple(check_lineup(u)) for u in lineups]
    valves = checks.integers(valves, "valves", low=1)
    games = checks.integer(games, "games", low=1, high=10**6)
    deck = make_deck(deck)
    params = [(u, valve, deck, games) for u in ups for valve in valves]
    return pd.DataFrame(sweeps.sweep(_valve_row, params, executor=executor, workers=workers,
                                     desc="Kemps turn valve"))


def check_lineup(lineup: object) -> list[str]:
    """A line-up as a list of three known strategy names; anything else is refused."""
    if isinstance(lineup, (str, bytes)) or not isinstance(lineup, Sequence) or len(lineup) != 3:
        raise checks.ArgumentTypeError(f"a line-up is three strategy names, got {lineup!r}")
    for name in lineup:
        checks.choice(name, "strategy", sorted(STRATEGIES | ABLATIONS))
    return list(lineup)
