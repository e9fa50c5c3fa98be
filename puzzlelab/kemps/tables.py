"""The Kemps tables: every named table the notebook reads from data/ and what computes each
(group6_kemps2023); `puzzlelab compute NAME` rebuilds each one.

- `claims(cards)`: the report's stories over 1,000 seeded self-play deals (`CLAIMS`);
- `tournament_games(name)`: the tournaments, one row per game, stored packed (`TOURNAMENTS`);
- `valve()`: how games depend on the turn valve (`VALVE`);
- `long_run(name)`: exact sums over deals of the long runs (`LONG_RUNS`), committed in data/ and
  recomputed only by `puzzlelab compute NAME --long-run`.

`tournament_run` and `sums_run` compute the same tables with other settings (games, line-ups,
deals) into tables of their own names, never over a committed one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from .. import cache, checks
from ..cache import Table, cached_table, read_long_run
from .cards import FULL, Deck
from .game import MAX_TURNS
from .source import claims_table
from .strategies import STRATEGIES
from .streaming import MAX_GAMES, check_lineups, deal_sums
from .summaries import merge_sums
from .tournament import DECKS, MEDIUM, SMALL, lineups, pack, tournament, unpack, valve_table

__all__ = [
    "CLAIMS", "CLAIM_DECKS", "EVERY_ORDER", "GAMES", "LONG_RUNS", "LONG_RUN_SPECS", "SELF_PLAY",
    "TOURNAMENTS", "TOURNAMENT_SPECS", "VALVE", "check_long_run", "claims", "long_run",
    "tournament_games", "valve",
]  # the runs `tournament_run` and `sums_run` write tables: tested with real arguments

SELF_PLAY = tuple((s,) * 3 for s in STRATEGIES)  # greedy, kb-greedy, blocking, tom
EVERY_ORDER = tuple(lineups(list(STRATEGIES)))  # the 64 line-ups of a tournament


# ----- the report's stories ------------------------------------------------------------------
CLAIM_DECKS = {20: SMALL, 28: MEDIUM}
CLAIMS = {cards: cache.register(Table(f"kemps_claims_{cards}", params=dict(cards=cards,
                                                                          deals=1000)))
          for cards in CLAIM_DECKS}


def claims(cards: int) -> pd.DataFrame:
    """The report's stories over 1,000 seeded self-play deals (data/kemps_claims_<cards>.csv)."""
    cards = checks.choice(cards, "cards", sorted(CLAIM_DECKS))
    deals = CLAIMS[cards].params["deals"]
    return cached_table(CLAIMS[cards], lambda: claims_table(CLAIM_DECKS[cards], range(deals),
                                                            [list(up) for up in SELF_PLAY]))


# ----- tournaments ---------------------------------------------------------------------------
# The tournaments the notebook reads (keyword arguments of `tournament.tournament`).
TOURNAMENT_SPECS: dict[str, dict[str, Any]] = {
    "kemps_tournament_28": {"deck": MEDIUM},
    "kemps_tournament_52": {"deck": FULL},
    "kemps_ablation_52": {"strategies": ("tom", "bold"), "deck": FULL},
}
GAMES = 1000  # deals per line-up of the notebook's tournaments
# What makes each of those tables, and the command that rebuilds it.
TOURNAMENTS: dict[str, Table] = {
    name: cache.register(Table(name, params=dict(
        strategies=spec.get("strategies", tuple(STRATEGIES)), cards=4 * len(spec["deck"]),
        games=GAMES)))
    for name, spec in TOURNAMENT_SPECS.items()}


def tournament_games(name: str) -> pd.DataFrame:
    """The games of one of the notebook's tournaments (`TOURNAMENT_SPECS`), cached packed in
    data/<name>.csv."""
    name = checks.choice(name, "name", sorted(TOURNAMENT_SPECS))
    games = TOURNAMENTS[name].params["games"]
    return unpack(cached_table(TOURNAMENTS[name], lambda: pack(tournament(
        **TOURNAMENT_SPECS[name], games=games))))


# ----- the turn valve ------------------------------------------------------------------------
VALVE = cache.register(Table("kemps_valve_52"))


@cache.rebuilds(VALVE)
def valve() -> pd.DataFrame:
    """How all-ToM and Greedy-between-two-ToM games depend on the turn valve
    (data/kemps_valve_52.csv)."""
    return cached_table(VALVE, lambda: valve_table(
        [["tom"] * 3, ["greedy", "tom", "tom"]], [600, 2400, MAX_TURNS], FULL, 1000))


# ----- long runs -----------------------------------------------------------------------------
# A million deals for each self-play line-up, and the tournaments (every seat order of the four
# strategies) on 100,000 deals (28 cards) and on 10,000 (52 cards).
LONG_RUN_SPECS: dict[str, dict[str, Any]] = {
    "kemps_million_28": {"lineups": SELF_PLAY, "deck": MEDIUM, "deals": 10**6},
    "kemps_million_52": {"lineups": SELF_PLAY[:3], "deck": FULL, "deals": 10**6},
    "kemps_tournament_28_100k": {"lineups": EVERY_ORDER, "deck": MEDIUM, "deals": 10**5},
    "kemps_tournament_52_10k": {"lineups": EVERY_ORDER, "deck": FULL, "deals": 10**4},
}


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


def _run_table(name: str, lineup_list: Sequence[Sequence[str]], deck: Sequence[int], deals: int,
               command: str = "") -> Table:
    """The long run of sums over `deals` deals of these line-ups on this deck, checked when
    read (`check_long_run`)."""
    ups = ["/".join(up) for up in lineup_list]
    return Table(name, params=dict(lineups=ups, cards=4 * len(deck), deals=deals),
                 command=command, long_run=True, check=check_long_run(ups, deals))


# The long runs' tables (not recomputed by `make reproduce`): what makes each, and its command.
LONG_RUNS: dict[str, Table] = {
    name: cache.register(_run_table(name, spec["lineups"], spec["deck"], spec["deals"]))
    for name, spec in LONG_RUN_SPECS.items()}


def long_run(name: str) -> pd.DataFrame:
    """Exact sums over deals of one of the long runs (`LONG_RUN_SPECS`, committed in data/;
    `puzzlelab compute <name> --long-run` recomputes it)."""
    name = checks.choice(name, "name", sorted(LONG_RUN_SPECS))
    table = LONG_RUNS[name]
    sums = read_long_run(table)
    if sums is None:
        raise ValueError(f"data/{name}.csv is missing; build it with: {table.command}")
    return merge_sums(sums)


def _compute_sums(table: Table, ups: Sequence[Sequence[str]], deck: Deck | Sequence[int],
                  deals: int, executor: Executor | None, workers: int) -> pd.DataFrame:
    """Write the long run `table` (`cache.check_writable` already): sums over `deals` deals of
    `ups`."""
    return cache.compute_table(table, lambda: deal_sums(
        ups, deals, deck, name=table.name, executor=executor, workers=workers))


# ----- other settings: tables of their own names ----------------------------------------------
def tournament_run(*, names: Sequence[str] | None = None, games: int = GAMES,
                   executor: Executor | None = None, workers: int = 1) -> dict[str, pd.DataFrame]:
    """Recompute the notebook's tournament tables `names` (all by default) on any executor; with
    `games` other than 1,000, tables of their own names (<name>_games<N>)."""
    names = [checks.choice(n, "name", sorted(TOURNAMENT_SPECS))
             for n in checks.sequence(names or sorted(TOURNAMENT_SPECS), "names")]
    games = checks.integer(games, "games", low=1, high=10**6)
    executor, workers = checks.sweep_options(executor, workers)
    tables = {name: cache.check_writable(TOURNAMENTS[name].variant(
        games=games, command=f"puzzlelab.kemps.tables.tournament_run(names=[{name!r}], "
                             f"games={games})"))
        for name in dict.fromkeys(names)}
    return {name: cache.compute_table(table, lambda: pack(tournament(
        **TOURNAMENT_SPECS[name], games=games, executor=executor, workers=workers)))
        for name, table in tables.items()}


def sums_run(*, name: str, lineup_list: Sequence[str] | None = None, cards: int | None = None,
             deals: int | None = None, executor: Executor | None = None,
             workers: int = 1) -> pd.DataFrame:
    """Exact sums over deals, written as data/<name>.csv: a long run of `LONG_RUN_SPECS` by its
    name (its line-ups, deck and deals; other ones are refused), or any line-ups ('tom/tom/tom',
    ...) on `cards` cards (default 52) and `deals` deals (default 1,000) under a name of their
    own."""
    name = cache.check_writable(checks.text(name, "name")).name
    spec = dict(LONG_RUN_SPECS.get(name, {"deals": 1000, "deck": FULL}))
    if lineup_list is not None:
        spec["lineups"] = [u.split("/") for u in checks.sequence(lineup_list, "lineup_list")]
    if cards is not None:
        spec["deck"] = DECKS[checks.choice(cards, "cards", sorted(DECKS))]
    spec["deals"] = spec["deals"] if deals is None else deals
    if "lineups" not in spec:
        raise ValueError(f"{name} is not a long run of LONG_RUN_SPECS: give its line-ups")
    ups = check_lineups(spec["lineups"])
    deals = checks.integer(spec["deals"], f"deals with {len(ups)} line-up(s)", low=2,
                           high=MAX_GAMES // len(ups))  # refused before any work
    table = _run_table(name, ups, spec["deck"], deals, f"puzzlelab.kemps.tables.sums_run("
                       f"name={name!r}, lineup_list={['/'.join(u) for u in ups]!r}, "
                       f"cards={4 * len(spec['deck'])}, deals={deals})")
    if name in LONG_RUNS and table.params != LONG_RUNS[name].params:
        raise ValueError(f"these line-ups, cards or deals are not those of {name}: give the sums "
                         f"a name of their own")
    table = cache.check_writable(LONG_RUNS.get(name, table))
    return _compute_sums(table, ups, spec["deck"], deals, executor, workers)


# ----- what `puzzlelab compute` runs for each table ------------------------------------------
for _cards, _table in CLAIMS.items():
    cache.rebuilds(_table)(functools.partial(claims, _cards))
for _name, _table in TOURNAMENTS.items():
    cache.rebuilds(_table)(functools.partial(tournament_run, names=[_name]))
for _name, _table in LONG_RUNS.items():
    cache.rebuilds(_table)(functools.partial(sums_run, name=_name))
