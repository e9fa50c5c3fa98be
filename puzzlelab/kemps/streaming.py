"""Tournaments too large to keep: exact sums over deals, in constant memory.

`tournament.tournament` keeps one row per game; a million deals for each of 64 line-ups would
be 64 million rows. Its summaries (`by_strategy`, `head_to_head`, `seat_differences`,
`lineup_table`) need, for each per-deal quantity x, only the number of deals, the sum of x and
the sum of x squared. Every such quantity is an integer S over a fixed denominator (Kemps, or
six times a win share, which is 1, 1/2 or 1/3 of a win), so a block of deals is summarised by
exact integers (deals, sum S, sum S^2) and blocks add up exactly: the tables are the same
whatever the executor, the block size or the order in which blocks finish. Finished blocks are
kept by `sweeps.sweep_table`, so an interrupted run resumes.

Command line: `python -m puzzlelab.kemps.streaming --table kemps_million_28 [--workers 2]
[--scheduler ADDR]` recomputes a long run the notebook reads; `--lineups tom/tom/tom --cards 52
--deals 1000000 --name NAME` runs any other (under a name of its own: a long run's table is
never replaced by sums over other line-ups or deals).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from .. import cache, checks, exact_sums, sweeps
from ..cache import Table
from ..exact_sums import mean_ci_from_sums, sum_row
from .cards import FULL, Deck, make_deck
from .engine import MAX_TURNS
from .strategies import STRATEGIES
from .tournament import DECKS, MEDIUM, _block, _lineup, lineups

__all__ = [
    "LONG_RUNS", "check_long_run",
    "DEALS_PER_TASK", "GAMES_PER_TASK", "KEYS", "SUMS", "TABLES", "deal_sums",
    "deals_per_task_for", "head_to_head_from_sums", "lineup_from_sums", "mean_ci_from_sums",
    "merge_sums", "seats_from_sums", "strategy_from_sums",
]

SIX = 6  # a win share is 0, 1/3, 1/2 or 1: six times it is an integer
KEYS = ["table", "scope", "item", "measure"]
SUMS = [*KEYS, *exact_sums.COUNTS]
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
def _six_wins(k: np.ndarray) -> np.ndarray:
    """Six times each seat's win share, from Kemps k[..., seat] (top scorers split the win)."""
    top = k.max(axis=-1, keepdims=True)
    won = (k == top) & (top > 0)
    winners = np.maximum(won.sum(axis=-1, keepdims=True), 1)
    return np.where(won, SIX // winners, 0)


def _row(table: str, scope: str, item: str, measure: str, s: np.ndarray, den: int) -> dict:
    """One row of sums for the per-deal quantity s / den."""
    return sum_row({"table": table, "scope": scope, "item": item, "measure": measure}, s, den)


def _strategy_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray) -> list[dict]:
    """Each strategy's mean Kemps and win share per deal over every seat it holds."""
    rows = []
    for s in sorted({name for up in ups for name in up}):
        mask = np.array([[name == s for name in up] for up in ups])[:, None, :]
        m = int(mask.sum())
        rows.append(_row("strategy", s, "", "kemps", (k * mask).sum(axis=(0, 2)), m))
        rows.append(_row("strategy", s, "", "win", (w * mask).sum(axis=(0, 2)), SIX * m))
    return rows


def _head_to_head_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray) -> list[dict]:
    """One focal agent against two copies of another, its three seat orders pooled."""
    rows, names = [], sorted({name for up in ups for name in up})
    for focal, other in itertools.permutations(names, 2):
        idx = [i for i, up in enumerate(ups) if sorted(up) == sorted((focal, other, other))]
        if not idx:
            continue
        sub = [ups[i] for i in idx]
        f = np.array([[n == focal for n in up] for up in sub])[:, None, :]
        o = np.array([[n == other for n in up] for up in sub])[:, None, :]
        mf, mo = int(f.sum()), int(o.sum())
        scope = f"{focal} vs {other}"
        for measure, x, six in (("win", w[idx], SIX), ("kemps", k[idx], 1)):
            sf, so = (x * f).sum(axis=(0, 2)), (x * o).sum(axis=(0, 2))
            rows += [_row("head_to_head", scope, "focal", measure, sf, six * mf),
                     _row("head_to_head", scope, "other", measure, so, six * mo),
                     _row("head_to_head", scope, "diff", measure, sf * mo - so * mf,
                          six * mf * mo)]
    return rows


def _seat_rows(ups: list[tuple[str, ...]], w: np.ndarray) -> list[dict]:
    """Paired seat differences in win share: per self-play line-up, and over all line-ups."""
    scopes = [(f"{s} self-play", [ups.index((s,) * 3)])
              for s in sorted({n for up in ups for n in up}) if (s,) * 3 in ups]
    scopes.append(("all line-ups", list(range(len(ups)))))
    rows = []
    for scope, idx in scopes:
        a = w[idx].sum(axis=0)  # per deal and seat, six times the summed win share
        rows += [_row("seats", scope, f"{i} - {j}", "win", a[:, i - 1] - a[:, j - 1],
                      SIX * len(idx)) for i, j in ((1, 2), (1, 3), (2, 3))]
    return rows


def _lineup_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray,
                 stalled: np.ndarray) -> list[dict]:
    """Per line-up and seat mean Kemps and win share; games without a winner and stalled."""
    rows = []
    for i, up in enumerate(ups):
        name = "/".join(up)
        for j in range(3):
            rows += [_row("lineup", name, str(j + 1), "kemps", k[i, :, j], 1),
                     _row("lineup", name, str(j + 1), "win", w[i, :, j], SIX)]
        rows += [_row("lineup", name, "", "no winner", k[i].max(axis=1) == 0, 1),
                 _row("lineup", name, "", "stalled", stalled[i], 1)]
    return rows


def _block_sums(params: tuple[tuple[tuple[str, ...], ...], int, int, Deck, int]) -> list[dict]:
    """The sweep task: play `count` deals from seed `first` in every line-up; their sums."""
    ups, first, count, deck, max_turns = params
    ups = list(ups)
    games = [_block((up, first, count, deck, max_turns)) for up in ups]  # rows as in tournament
    k = np.array([[row[2:5] for row in rows] for rows in games], dtype=np.int64)
    stalled = np.array([[row[6] != "deck exhausted" for row in rows] for rows in games])
    w = _six_wins(k)
    return (_strategy_rows(ups, k, w) + _head_to_head_rows(ups, k, w) + _seat_rows(ups, w)
            + _lineup_rows(ups, k, w, stalled))


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
    ups = [tuple(_lineup(up)) for up in lineup_list]
    if len(set(ups)) != len(ups):
        raise ValueError("line-ups must be distinct")
    return ups


def merge_sums(parts: pd.DataFrame) -> pd.DataFrame:
    """Add up blocks' sums row by row (same table, scope, item, measure); checks the parts."""
    return exact_sums.merge_sums(parts, KEYS, text_keys=("item",))


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


def _pick(sums: pd.DataFrame, table: str) -> pd.DataFrame:
    t = merge_sums(sums)
    return t[t["table"] == table]


def _ci(row: pd.Series) -> tuple[float, float]:
    return mean_ci_from_sums(row["deals"], row["total"], row["squares"], row["denominator"])


def strategy_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.by_strategy` from sums: each strategy's mean per deal with its 95% CI."""
    t = _pick(sums, "strategy").set_index(["scope", "measure"])
    out = []
    for s in sorted(set(t.index.get_level_values("scope"))):
        (mk, ck), (mw, cw) = _ci(t.loc[(s, "kemps")]), _ci(t.loc[(s, "win")])
        kemps = t.loc[(s, "kemps")]
        out.append({"strategy": s, "deals": int(kemps["deals"]),
                    "seat_games": int(kemps["deals"] * kemps["denominator"]),
                    "kemps_mean": mk, "kemps_ci": ck, "win_share": mw, "win_ci": cw})
    return pd.DataFrame(out)


def head_to_head_from_sums(sums: pd.DataFrame, focal: str) -> pd.DataFrame:
    """`tournament.head_to_head` from sums: one focal agent against two copies of each other."""
    t = _pick(sums, "head_to_head").set_index(["scope", "item", "measure"])
    focals = sorted({scope.split(" vs ")[0] for scope in t.index.get_level_values("scope")})
    checks.choice(focal, "focal (an agent of the head-to-head sums)", focals)
    out = []
    for scope in dict.fromkeys(t.index.get_level_values("scope")):
        f, other = scope.split(" vs ")
        if f != focal:
            continue
        row: dict[str, Any] = {"focal": focal, "against": other,
                               "deals": int(t.loc[(scope, "focal", "win"), "deals"])}
        for col in ("win", "kemps"):
            row[f"focal_{col}"], row[f"focal_{col}_ci"] = _ci(t.loc[(scope, "focal", col)])
            row[f"other_{col}"], row[f"other_{col}_ci"] = _ci(t.loc[(scope, "other", col)])
            row[f"{col}_diff"], row[f"{col}_diff_ci"] = _ci(t.loc[(scope, "diff", col)])
        out.append(row)
    return pd.DataFrame(out).sort_values("against", ignore_index=True) if out else pd.DataFrame()


def seats_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.seat_differences` from sums: paired seat differences in win share."""
    out = []
    for _, r in _pick(sums, "seats").iterrows():
        m, c = _ci(r)
        out.append({"scope": r["scope"], "seats": r["item"], "deals": int(r["deals"]),
                    "win_diff": m, "ci": c, "significant": abs(m) > c})
    return pd.DataFrame(out)


def lineup_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.lineup_table` from sums: per line-up and seat, mean Kemps and win share."""
    t = _pick(sums, "lineup")
    mean = t["total"] / (t["deals"] * t["denominator"])
    t = t.assign(mean=mean)
    seats = t[t["item"] != ""].pivot_table(index=["scope", "item"], columns="measure",
                                           values="mean", sort=False).reset_index()
    games = t[t["item"] == ""].pivot_table(index="scope", columns="measure", values="mean",
                                           sort=False).reset_index()
    seats = seats.rename(columns={"scope": "lineup", "item": "seat", "kemps": "kemps_mean",
                                  "win": "win_share"})
    seats["seat"] = seats["seat"].astype(int)
    seats["strategy"] = [u.split("/")[s - 1] for u, s in zip(seats["lineup"], seats["seat"])]
    seats = seats.sort_values("seat", kind="stable")  # seat 1 of every line-up first, as there
    games = games.rename(columns={"scope": "lineup", "no winner": "no_winner"})
    out = seats[["lineup", "seat", "strategy", "kemps_mean", "win_share"]].merge(
        games[["lineup", "no_winner", "stalled"]], on="lineup")
    out.columns.name = None
    return out


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
