"""Tournaments: every seat order of every line-up, thousands of seeded games, means with 95% CIs.

`tournament` returns one row per game. Every line-up plays the same deals (game i uses seed
`seed + i`), so the unit of independent sampling is the *deal*: the summaries below first
average a strategy's seats within a deal (two copies of a strategy in one game, or the same
deal in several line-ups, are not independent samples) and take the confidence interval
over deals. Seat effects are paired differences between seats over the same deals.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..progress import tqdm
from .cards import FULL
from .engine import MAX_TURNS
from .fast import greedy_game
from .play import check_max_turns, check_seed, make_agents, new_game, play_out
from .strategies import ABLATIONS, STRATEGIES

Z95 = 1.959963984540054  # two-sided 95% normal quantile
ENDS = {"deck exhausted": "d", "stalemate": "s", "turn limit": "t"}


def play_scores(lineup: Sequence[str], seed: int, deck=FULL, max_turns: int = MAX_TURNS) -> tuple:
    """(scores, turns, end) of one game without a trace; Greedy self-play takes the fast path."""
    if tuple(lineup) == ("greedy",) * 3:
        return greedy_game(seed, deck, max_turns)
    agents = make_agents(lineup)
    game = play_out(new_game(agents, seed, deck), agents, max_turns)
    return tuple(game.scores), game.turn, game.end


def lineups(strategies: Sequence[str], *, all_orders: bool = True) -> list[tuple[str, str, str]]:
    """Every ordered triple of strategies (seat 1, 2, 3), or one per multiset if all_orders=False."""
    if isinstance(strategies, str):
        raise ValueError(f"strategies must be a sequence of names, got the string {strategies!r}")
    unknown = [s for s in strategies if s not in STRATEGIES and s not in ABLATIONS]
    if unknown or not strategies:
        raise ValueError(f"unknown strategies {unknown}; choose from {sorted(STRATEGIES | ABLATIONS)}")
    if all_orders:
        return list(itertools.product(strategies, repeat=3))
    return list(itertools.combinations_with_replacement(strategies, 3))


def win_shares(scores: Sequence[int]) -> list[float]:
    """Each seat's share of the win: the top scorers split it; nobody wins a game without a Kemps."""
    top = max(scores)
    if top == 0:
        return [0.0] * len(scores)
    k = sum(s == top for s in scores)
    return [1.0 / k if s == top else 0.0 for s in scores]


def tournament(strategies: Sequence[str] = tuple(STRATEGIES), games: int = 1000, deck=FULL, *,
               seed: int = 0, all_orders: bool = True, max_turns: int = MAX_TURNS,
               progress: bool = True, workers: int = 1) -> pd.DataFrame:
    """One row per game: line-up, seed, each seat's Kemps (k1, k2, k3), turns and how it ended.

    Game i of every line-up uses seed `seed + i` (the same deals for every line-up).
    `workers` > 1 spreads the line-ups over processes (the benchmark; notebooks use 1).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    check_seed(seed)
    check_max_turns(max_turns)
    ups = lineups(strategies, all_orders=all_orders)
    bar = tqdm(total=len(ups) * games, disable=not progress, desc="Kemps tournament")
    jobs = [(lineup, games, deck, seed, max_turns) for lineup in ups]
    parts: list[pd.DataFrame] = []
    if workers == 1:
        for job in jobs:
            parts.append(lineup_games(*job))
            bar.update(games)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(lineup_games, *zip(*jobs)):
                parts.append(part)
                bar.update(games)
    bar.close()
    return pd.concat(parts, ignore_index=True)


def lineup_games(lineup: tuple[str, ...], games: int, deck, seed: int, max_turns: int) -> pd.DataFrame:
    """Play `games` seeded games of one line-up; one row per game."""
    rows = []
    for i in range(games):
        sc, turns, end = play_scores(lineup, seed + i, deck, max_turns)
        rows.append(("/".join(lineup), seed + i, *sc, turns, end))
    return pd.DataFrame(rows, columns=["lineup", "seed", "k1", "k2", "k3", "turns", "end"])


# ----- compact storage for the cache ---------------------------------------------------------
def pack(games: pd.DataFrame) -> pd.DataFrame:
    """One row per seed, one column per line-up, cells like '102d' (seat Kemps, then how it ended)."""
    if games[["k1", "k2", "k3"]].to_numpy().max() > 9:
        raise ValueError("pack() stores one digit per seat: at most 9 Kemps")
    cell = (games["k1"].astype(str) + games["k2"].astype(str) + games["k3"].astype(str)
            + games["end"].map(ENDS))
    wide = games.assign(cell=cell).pivot(index="seed", columns="lineup", values="cell")
    order = list(dict.fromkeys(games["lineup"]))
    return wide[order].reset_index()


def unpack(wide: pd.DataFrame) -> pd.DataFrame:
    """The inverse of pack (without the turn counts): one row per game."""
    ends = {v: k for k, v in ENDS.items()}
    long = wide.melt(id_vars="seed", var_name="lineup", value_name="cell")
    long["cell"] = long["cell"].astype(str)
    out = pd.DataFrame({"lineup": long["lineup"], "seed": long["seed"].astype(int)})
    for j in range(3):
        out[f"k{j + 1}"] = long["cell"].str[j].astype(int)
    out["end"] = long["cell"].str[3].map(ends)
    order = {u: i for i, u in enumerate(wide.columns[1:])}
    return out.sort_values(["lineup", "seed"], key=lambda s: s.map(order) if s.name == "lineup" else s,
                           ignore_index=True)


# ----- summaries -----------------------------------------------------------------------------
def seat_rows(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): line-up, seed, seat, strategy, Kemps and win share."""
    k = games[["k1", "k2", "k3"]].to_numpy()
    top = k.max(axis=1, keepdims=True)
    win = np.where((k == top) & (top > 0), 1.0, 0.0)
    win = np.divide(win, win.sum(axis=1, keepdims=True), out=np.zeros_like(win), where=win.sum(axis=1, keepdims=True) > 0)
    names = games["lineup"].str.split("/", expand=True).to_numpy()
    parts = [pd.DataFrame({"lineup": games["lineup"].to_numpy(), "seed": games["seed"].to_numpy(), "seat": j + 1,
                           "strategy": names[:, j], "kemps": k[:, j], "win": win[:, j]}) for j in range(3)]
    return pd.concat(parts, ignore_index=True)


def mean_ci(x) -> tuple[float, float]:
    """Mean and 95% normal half-width of independent samples x."""
    x = np.asarray(x, dtype=float)
    return float(x.mean()), float(Z95 * x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def per_deal(rows: pd.DataFrame) -> pd.DataFrame:
    """Average Kemps and win share per deal (seed) over the given seat rows."""
    return rows.groupby("seed")[["kemps", "win"]].mean()


def by_strategy(games: pd.DataFrame) -> pd.DataFrame:
    """Each strategy over every line-up and seat it played: mean per deal, 95% CI over deals."""
    rows = seat_rows(games)
    out = []
    for name, g in rows.groupby("strategy", sort=True):
        d = per_deal(g)
        (mk, ck), (mw, cw) = mean_ci(d["kemps"]), mean_ci(d["win"])
        out.append({"strategy": name, "deals": len(d), "seat_games": len(g), "kemps_mean": mk, "kemps_ci": ck,
                    "win_share": mw, "win_ci": cw})
    return pd.DataFrame(out)


def head_to_head(games: pd.DataFrame, focal: str) -> pd.DataFrame:
    """One `focal` agent against two copies of each other strategy, all three seat orders pooled.

    Per deal: the focal agent's mean over its 3 seat-games, the others' mean over their 6, and
    the paired difference; means and 95% CIs over deals.
    """
    rows = seat_rows(games)
    out = []
    for other in sorted(set(rows["strategy"]) - {focal}):
        ups = {"/".join(t) for t in set(itertools.permutations((focal, other, other)))}
        g = rows[rows["lineup"].isin(ups)]
        if g.empty:
            continue
        f, o = per_deal(g[g["strategy"] == focal]), per_deal(g[g["strategy"] == other])
        row = {"focal": focal, "against": other, "deals": len(f)}
        for col, label in (("win", "win"), ("kemps", "kemps")):
            row[f"focal_{label}"], row[f"focal_{label}_ci"] = mean_ci(f[col])
            row[f"other_{label}"], row[f"other_{label}_ci"] = mean_ci(o[col])
            row[f"{label}_diff"], row[f"{label}_diff_ci"] = mean_ci(f[col] - o[col])
        out.append(row)
    return pd.DataFrame(out)


def lineup_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per line-up and seat: mean Kemps and win share; per line-up: share of games without a winner, stalled."""
    rows = seat_rows(games)
    t = rows.groupby(["lineup", "seat", "strategy"], sort=False)[["kemps", "win"]].mean().reset_index()
    t = t.rename(columns={"kemps": "kemps_mean", "win": "win_share"})
    per_game = games.assign(no_winner=games[["k1", "k2", "k3"]].max(axis=1) == 0,
                            stalled=games["end"].isin(["stalemate", "turn limit"]))
    extra = per_game.groupby("lineup", sort=False)[["no_winner", "stalled"]].mean().reset_index()
    return t.merge(extra, on="lineup")


def seat_means(games: pd.DataFrame) -> pd.DataFrame:
    """Self-play line-ups: mean win share by seat with its 95% CI (one seat per game: independent)."""
    rows = seat_rows(games)
    same = rows[rows["lineup"].map(lambda s: len(set(s.split("/"))) == 1)]
    out = []
    for (strategy, seat), g in same.groupby(["strategy", "seat"]):
        m, c = mean_ci(g["win"])
        out.append({"strategy": strategy, "seat": seat, "games": len(g), "win_share": m, "win_ci": c})
    return pd.DataFrame(out)


def seat_differences(games: pd.DataFrame) -> pd.DataFrame:
    """Paired seat differences in win share over the same deals, with 95% CIs.

    For each self-play line-up, and for all line-ups together (every strategy sits in every
    seat equally often, so only the seat differs): per deal, seat i's win share minus seat j's.
    """
    rows = seat_rows(games)
    scopes = [(f"{s} self-play", rows[rows["lineup"] == "/".join([s] * 3)]) for s in sorted(set(rows["strategy"]))]
    scopes.append(("all line-ups", rows))
    out = []
    for scope, g in scopes:
        if g.empty:
            continue
        w = g.groupby(["seed", "seat"])["win"].mean().unstack("seat")
        for i, j in ((1, 2), (1, 3), (2, 3)):
            m, c = mean_ci(w[i] - w[j])
            out.append({"scope": scope, "seats": f"{i} - {j}", "deals": len(w), "win_diff": m, "ci": c,
                        "significant": abs(m) > c})
    return pd.DataFrame(out)
