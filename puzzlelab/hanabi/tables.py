"""The named tables of notebooks/hanabi.ipynb: each declared, computed and cached here.

- `hanabi_hint_capacity`: the hint-capacity study (`knowledge.hint_capacity_study`) with 400
  random tables per point (`capacity_run` with other ``samples`` writes a table of its own
  name, ``hanabi_hint_capacity_samples<N>``).
- `hanabi_hat_games`: the hat strategies over 20,000 seeded deals per player count and variant
  as exact sums (`hat_sweep.game_sums`), a long run (`hat_games_run` with other ``deals``
  writes ``hanabi_hat_games_deals<N>``, or ``name``, never over the committed table).
- `hanabi_hat_summary`, `hanabi_hat_gains`: read from the long run in a second
  (`hat_sweep.summary_from_sums`, `hat_sweep.gains_from_sums`).
- `hanabi_strong_games`: the strong information strategy (`info_compiled`) over 100,000 seeded
  deals per player count and way of counting messages, as exact sums (`hat_sweep.game_sums`,
  family "strong").

Each is rebuilt by ``puzzlelab compute NAME`` (``--workers N`` or ``--scheduler ADDR`` for the
sweeps, ``--long-run`` for the long run).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from .. import cache, checks, exact_sums
from ..cache import Table, cached_table
from .hat_sweep import (
    KEYS, PLAYERS, STRONG_VARIANTS, VARIANTS, gains_from_sums, game_sums, summary_from_sums,
    variants_for,
)
from .knowledge import hint_capacity_study

__all__ = [
    "CAPACITY", "CAPACITY_SAMPLES", "CAPACITY_TABLE", "HAT_DEALS", "HAT_GAINS", "HAT_GAMES",
    "HAT_GAMES_TABLE", "HAT_SUMMARY", "STRONG_DEALS", "STRONG_GAMES",
    "STRONG_TABLE", "check_hat_games", "hat_gains", "hat_game_sums", "hat_summary",
    "hint_capacity_table", "peer_scores", "strong_game_sums", "strong_gains", "strong_summary",
]  # the runs `capacity_run` and `hat_games_run` write tables: tested with real arguments

# ----- the hint-capacity study -------------------------------------------------------------------

CAPACITY_TABLE = "hanabi_hint_capacity"
CAPACITY_SAMPLES = 400  # random tables per point of the study the notebook shows
CAPACITY = cache.register(Table(CAPACITY_TABLE, params=dict(samples=CAPACITY_SAMPLES)))


@cache.rebuilds("hanabi_hint_capacity")
def hint_capacity_table(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The hint-capacity study of the Hanabi post (source document 003), 400 tables per point,
    cached as data/hanabi_hint_capacity.csv.

    Parameters
    ----------
    executor : concurrent.futures.Executor, optional
        Where the points run when the table is computed (a Dask client's executor, a process
        pool); by default `workers` local processes.
    workers : int
        Local processes when no executor is given.

    Returns
    -------
    pandas.DataFrame
        A row per hand size, public cards and hints received: the mean number of parts and of
        bits a hint gives when colours and ranks are mixed or kept separate, the share of tables
        where mixing gives more, the share where every part is a rectangle
        (`knowledge.hint_capacity_study`).

    Raises
    ------
    ValueError
        If `executor` is not an executor or `workers` is not a positive count within the
        machine's limit (both checked before the cache is read).

    Examples
    --------
    >>> table = hint_capacity_table()
    >>> int(table.samples.min()), bool((table.mean_bits_mixed >= table.mean_bits_separate).all())
    (400, True)

    References
    ----------
    The Hanabi post (source document 003; O'Dwyer 2018) takes the table of possibilities as
    given; the hints of the rules: Cox et al. (2015), Section 2.
    """
    executor, workers = checks.sweep_options(executor, workers)
    return cached_table(CAPACITY, lambda: hint_capacity_study(
        samples=CAPACITY.params["samples"], executor=executor, workers=workers))


def capacity_run(*, samples: int = CAPACITY_SAMPLES, executor: Executor | None = None,
                 workers: int = 1) -> pd.DataFrame:
    """Recompute the hint-capacity study with `samples` random tables per point on any executor:
    data/hanabi_hint_capacity.csv for the notebook's 400, else
    data/hanabi_hint_capacity_samples<N>.csv."""
    executor, workers = checks.sweep_options(executor, workers)
    table = cache.check_writable(CAPACITY.variant(
        samples=samples, command=f"puzzlelab.hanabi.tables.capacity_run(samples={samples!r})"))
    return cache.compute_table(table, lambda: hint_capacity_study(
        samples=table.params["samples"], executor=executor, workers=workers))


# ----- the hat strategies over many deals (a long run) ------------------------------------------

HAT_GAMES_TABLE = "hanabi_hat_games"
HAT_DEALS = 20_000  # per player count and variant


def check_hat_games(deals: int, family: str = "hat") -> Callable[[pd.DataFrame], None]:
    """A check of a table of sums: every player count and variant of the family
    (`hat_sweep.FAMILIES`) over exactly `deals` deals."""
    deals = checks.integer(deals, "deals", low=1)
    expected = {(p, v) for p in PLAYERS for v in variants_for(p, family)}

    def verify(sums: pd.DataFrame) -> None:
        rows = exact_sums.merge_sums(sums, KEYS)
        played = {(p, v) for p, v in zip(rows["players"], rows["variant"]) if " - " not in v}
        if played != expected:
            raise ValueError("the sums are over other player counts or variants")
        if (rows["deals"] != deals).any():
            raise ValueError(f"the sums are not over {deals} deals per player count and variant")
    return verify


# The long run behind the notebook (not recomputed by `make reproduce`; its command rebuilds it).
HAT_GAMES = cache.register(Table(HAT_GAMES_TABLE, params=dict(deals=HAT_DEALS,
                                                              players=list(PLAYERS),
                                                              variants=list(VARIANTS)),
                                 long_run=True,
                                 check=check_hat_games(HAT_DEALS)))


def hat_game_sums() -> pd.DataFrame:
    """Exact sums over 20,000 deals per player count and variant of the hat strategies of Cox
    et al. (2015) and the Hanabi post (source document 003): the long run, committed as
    data/hanabi_hat_games.csv (`puzzlelab compute hanabi_hat_games --long-run` recomputes it).

    Returns
    -------
    pandas.DataFrame
        A row per player count, variant ("plain", "mixed", "separate", "recommendation",
        "plain, Cox rules", and the paired differences such as "mixed - plain") and measure:
        deals, total, squares, denominator (`exact_sums`).

    Raises
    ------
    ValueError
        If data/hanabi_hat_games.csv is missing (the message names the command that makes
        it), damaged, stale, or not over 20,000 deals of every player count and variant.

    Examples
    --------
    >>> sums = hat_game_sums()
    >>> sorted(set(sums.players)), int(sums.deals.min()), int(sums.deals.max())
    ([2, 3, 4, 5], 20000, 20000)

    References
    ----------
    Cox et al. (2015), the hat strategies (Mathematics Magazine 88(5)); the Hanabi post (source
    document 003), mixed and separate hints.
    """
    sums = cache.read_long_run(HAT_GAMES)
    if sums is None:
        raise ValueError(f"data/{HAT_GAMES_TABLE}.csv is missing: it is a long run, made by "
                         f"{HAT_GAMES.command}")
    return exact_sums.merge_sums(sums, KEYS)


def hat_games_run(*, deals: int = HAT_DEALS, name: str | None = None,
                  executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """The exact sums over `deals` deals per player count and variant behind the notebook:
    data/hanabi_hat_games.csv for 20,000 deals, else data/<name>.csv (by default
    hanabi_hat_games_deals<N>; the committed table is never replaced by another size)."""
    deals = checks.integer(deals, "deals", low=2, high=10**7)
    if deals == HAT_DEALS and name in (None, HAT_GAMES_TABLE):
        table = HAT_GAMES
    else:
        name = checks.text(name, "name") if name is not None else f"{HAT_GAMES_TABLE}_deals{deals}"
        if name == HAT_GAMES_TABLE:
            raise ValueError(f"data/{HAT_GAMES_TABLE}.csv holds {HAT_DEALS:,} deals per point; "
                             f"write {deals:,} deals under another name")
        table = Table(name, HAT_GAMES.version, {**HAT_GAMES.params, "deals": deals},
                      f"puzzlelab.hanabi.tables.hat_games_run(deals={deals}, name={name!r})",
                      long_run=True, check=check_hat_games(deals))
    table = cache.check_writable(table)
    executor, workers = checks.sweep_options(executor, workers)
    return cache.compute_table(table, lambda: game_sums(
        deals, name=table.name, executor=executor, workers=workers))


cache.rebuilds(HAT_GAMES)(hat_games_run)


# Tables derived from the long run (recomputed from it in a second when missing or stale).
HAT_SUMMARY, HAT_GAINS = "hanabi_hat_summary", "hanabi_hat_gains"
cache.register(*(Table(name, params=dict(deals=HAT_DEALS)) for name in (HAT_SUMMARY, HAT_GAINS)))


def _same_as(compute: Callable[[], pd.DataFrame]) -> Callable[[pd.DataFrame], None]:
    """A cache check: the cached table equals what the committed long run gives now."""
    def verify(table: pd.DataFrame) -> None:
        fresh = compute()
        if list(table.columns) != list(fresh.columns) or len(table) != len(fresh) or not all(
                np.allclose(table[c], fresh[c], rtol=1e-9, atol=1e-12) if fresh[c].dtype.kind
                in "fiub" else (table[c].astype(str) == fresh[c].astype(str)).all()
                for c in fresh.columns):
            raise ValueError("it is not what the committed long run gives")
    return verify


@cache.rebuilds("hanabi_hat_summary")
def hat_summary(sums: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per player count and variant of the hat strategies (Cox et al. 2015; the Hanabi post,
    source document 003): mean score (both conventions), perfect games and bits per hint, each
    with its 95% half-width over deals (`hat_sweep.summary_from_sums`).

    Parameters
    ----------
    sums : pandas.DataFrame, optional
        Exact sums as `hat_game_sums` gives them; without them, the committed long run, and the
        result is kept as data/hanabi_hat_summary.csv.

    Returns
    -------
    pandas.DataFrame
        A row per player count and variant: deals, score and score_zero (a game lost to the
        fuses scores 0), perfect_pct, bits_per_hint, each with its 95% half-width (``_ci``),
        then messages per hint, hints, fuses used, lost games and turns per game.

    Raises
    ------
    ValueError
        If `sums` lack a column or are inconsistent (`exact_sums.merge_sums`); without `sums`,
        if the long run is missing, damaged or stale (`hat_game_sums`).

    Examples
    --------
    >>> summary = hat_summary().set_index(["players", "variant"])
    >>> float(summary.bits_per_hint[(3, "plain")])  # 4 messages a hint: 2 bits
    2.0
    >>> bool(summary.score[(3, "mixed")] > summary.score[(3, "plain")])
    True

    References
    ----------
    Cox et al. (2015), the hat strategies (Mathematics Magazine 88(5)); the Hanabi post (source
    document 003), mixed and separate hints.
    """
    if sums is not None:
        return summary_from_sums(sums)

    def compute() -> pd.DataFrame:
        return summary_from_sums(hat_game_sums())

    return cached_table(HAT_SUMMARY, compute, verify=_same_as(compute))


@cache.rebuilds("hanabi_hat_gains")
def hat_gains(sums: pd.DataFrame | None = None) -> pd.DataFrame:
    """Paired score differences between the ways of counting messages of the Hanabi post
    (source document 003), deal by deal, with 95% half-widths (`hat_sweep.gains_from_sums`).

    Parameters
    ----------
    sums : pandas.DataFrame, optional
        The sums of `hat_game_sums` or of another run of `hat_games_run`; by default the
        committed long run's, the differences then cached as data/hanabi_hat_gains.csv.

    Returns
    -------
    pandas.DataFrame
        A row per player count and difference ("mixed - plain", "separate - plain",
        "mixed - separate"): deals, score_gain (mean paired difference), ci (its 95%
        half-width) and significant (the interval excludes 0).

    Raises
    ------
    ValueError
        If the sums given are missing a column or disagree with themselves (`exact_sums`), or,
        when none are given, if data/hanabi_hat_games.csv cannot be used (`hat_game_sums`).

    Examples
    --------
    >>> gains = hat_gains().set_index(["players", "difference"])
    >>> row = gains.loc[(3, "mixed - plain")]
    >>> bool(row.score_gain > 0), bool(row.significant)  # mixing hints pays at 3 players
    (True, True)

    References
    ----------
    The Hanabi post (source document 003), mixed and separate hints; the plain hat strategy:
    Cox et al. (2015).
    """
    if sums is not None:
        return gains_from_sums(sums)

    def compute() -> pd.DataFrame:
        return gains_from_sums(hat_game_sums())

    return cached_table(HAT_GAINS, compute, verify=_same_as(compute))


# ----- the strong information strategy over many deals ------------------------------------------

STRONG_TABLE = "hanabi_strong_games"
STRONG_DEALS = 100_000  # per player count and way of counting messages
STRONG_GAMES = cache.register(Table(STRONG_TABLE, params=dict(deals=STRONG_DEALS,
                                                               players=list(PLAYERS),
                                                               variants=list(STRONG_VARIANTS)),
                                   check=check_hat_games(STRONG_DEALS, "strong")))


@cache.rebuilds(STRONG_TABLE)
def strong_game_sums(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Exact sums over 100,000 deals per player count and way of counting messages, of the
    strong information strategy (data/hanabi_strong_games.csv).

    Parameters
    ----------
    executor : concurrent.futures.Executor, optional
        Where the blocks of deals run when the table is computed (a Dask client's executor,
        a process pool); by default `workers` local processes.
    workers : int
        Local processes when no executor is given.

    Returns
    -------
    pandas.DataFrame
        A row per player count, variant ("strong cox", "strong index", "strong packing",
        "strong best", and their paired differences) and measure: deals, total, squares,
        denominator (`exact_sums`).

    Examples
    --------
    >>> sums = strong_game_sums()
    >>> sorted(set(sums.players)), int(sums.deals.max())
    ([2, 3, 4, 5], 100000)

    References
    ----------
    The strategy: `info_compiled` (Wu 2016; O'Dwyer 2019); the sure groups: the Hanabi post
    (source document 003).
    """
    executor, workers = checks.sweep_options(executor, workers)
    return exact_sums.merge_sums(cached_table(STRONG_GAMES, lambda: game_sums(
        STRONG_DEALS, name=STRONG_TABLE, family="strong", executor=executor,
        workers=workers)), KEYS)


def strong_summary() -> pd.DataFrame:
    """Per player count and way of counting: mean score, perfect games, bits per hint, with
    95% half-widths, of the strong strategy (`hat_sweep.summary_from_sums`).

    Returns
    -------
    pandas.DataFrame
        A row per player count and way of counting ("strong cox", "strong index", "strong
        packing", "strong best"), with the columns of `hat_summary`.

    Examples
    --------
    >>> summary = strong_summary().set_index(["players", "variant"])
    >>> bool(summary.score[(5, "strong best")] > summary.score[(5, "strong cox")])
    True

    References
    ----------
    The strategy: `info_compiled` (Wu 2016; O'Dwyer 2019); the sure groups: the Hanabi post
    (source document 003).
    """
    return summary_from_sums(strong_game_sums())


def strong_gains() -> pd.DataFrame:
    """Paired score differences between the ways of counting messages of the strong
    strategy, deal by deal, with 95% half-widths (`hat_sweep.gains_from_sums`).

    Returns
    -------
    pandas.DataFrame
        A row per player count and difference ("strong index - strong cox", ...,
        "strong best - strong packing"): deals, score_gain, ci and significant, as in
        `hat_gains`.

    Examples
    --------
    >>> gains = strong_gains().set_index(["players", "difference"])
    >>> bool(gains.score_gain[(2, "strong packing - strong index")] < 0)  # the post's packing loses
    True

    References
    ----------
    The strategy: `info_compiled` (Wu 2016; O'Dwyer 2019); the packing of messages: the Hanabi
    post (source document 003).
    """
    return gains_from_sums(strong_game_sums())


# ----- the peer programs, measured beside ours (benchmarks/bench_hanabi_peer.py) ---------------

PEER_BENCH = "bench_hanabi_peer"
_PEER_COLUMNS = ["program", "bot", "players", "games", "mean", "ci_low", "ci_high",
                 "perfect_pct", "games_per_cpu_s"]


def peer_scores() -> pd.DataFrame:
    """Scores of O'Dwyer's InfoBot and SmartBot (Quuxplusone/Hanabi, built from its source)
    and of our strategies, measured in one run of `puzzlelab bench hanabi_peer`: a row per
    program, bot and player count (data/bench_hanabi_peer.csv).

    Returns
    -------
    pandas.DataFrame
        A row per program, bot and player count: games, mean score with its 95% interval
        (ci_low, ci_high), perfect_pct and games_per_cpu_s.

    Raises
    ------
    ValueError
        If the committed table is damaged or lacks a column.

    Examples
    --------
    >>> peers = peer_scores().set_index(["program", "bot", "players"])
    >>> ours = peers.loc[("puzzlelab", "strong best", 2)]
    >>> bool(ours.ci_low > peers.loc[("Quuxplusone/Hanabi", "InfoBot", 2)].ci_high)
    True

    References
    ----------
    O'Dwyer (2019), Quuxplusone/Hanabi: InfoBot and SmartBot.
    """
    table = cache.read_table(PEER_BENCH)
    if missing := [c for c in _PEER_COLUMNS if c not in table.columns]:
        raise ValueError(f"data/{PEER_BENCH}.csv lacks the columns {missing}")
    return table
