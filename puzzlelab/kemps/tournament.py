"""Tournaments: every seat order of every line-up, thousands of seeded games, means with 95% CIs."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..progress import tqdm
from .cards import FULL
from .engine import MAX_TURNS
from .fast import greedy_game
from .play import make_agents, new_game
from .strategies import ABLATIONS, STRATEGIES

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def play_scores(lineup: Sequence[str], seed: int, deck=FULL, max_turns: int = MAX_TURNS) -> tuple:
    """(scores, turns, end) of one game without a trace; Greedy self-play takes the fast path."""
    if tuple(lineup) == ("greedy",) * 3:
        return greedy_game(seed, deck, max_turns)
    agents = make_agents(lineup)
    game = new_game(agents, seed, deck)
    while not game.over:
        p = game.current
        picks, discards, _ = agents[p].choose(game, p)
        game.step(p, picks, discards)
        if game.turn >= max_turns and not game.over:
            game.over, game.end = True, "turn limit"
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
    """One row per (line-up, seat): games, mean Kemps and win share with their standard deviations.

    Game i of every line-up uses seed `seed + i` (the same deals for every line-up).
    `workers` > 1 spreads the line-ups over processes (the benchmark; notebooks use 1).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    ups = lineups(strategies, all_orders=all_orders)
    bar = tqdm(total=len(ups) * games, disable=not progress, desc="Kemps tournament")
    jobs = [(lineup, games, deck, seed, max_turns) for lineup in ups]
    rows: list[dict] = []
    if workers == 1:
        for job in jobs:
            rows += lineup_rows(*job)
            bar.update(games)
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(lineup_rows, *zip(*jobs)):
                rows += part
                bar.update(games)
    bar.close()
    return pd.DataFrame(rows)


def lineup_rows(lineup: tuple[str, ...], games: int, deck, seed: int, max_turns: int) -> list[dict]:
    """Play `games` seeded games of one line-up; one summary row per seat."""
    scores = np.zeros((games, 3))
    shares = np.zeros((games, 3))
    stalled = 0
    for i in range(games):
        sc, _, end = play_scores(lineup, seed + i, deck, max_turns)
        scores[i], shares[i] = sc, win_shares(sc)
        stalled += end in ("stalemate", "turn limit")
    return [{
        "lineup": "/".join(lineup), "seat": seat + 1, "strategy": lineup[seat], "games": games,
        "kemps_mean": scores[:, seat].mean(), "kemps_sd": scores[:, seat].std(ddof=1),
        "win_share": shares[:, seat].mean(), "win_sd": shares[:, seat].std(ddof=1),
        "no_winner": float((scores.max(axis=1) == 0).mean()), "stalled": stalled / games,
    } for seat in range(3)]


def with_ci(df: pd.DataFrame) -> pd.DataFrame:
    """Add 95% confidence half-widths for mean Kemps and win share (normal approximation)."""
    out = df.copy()
    root = np.sqrt(out["games"])
    out["kemps_ci"] = Z95 * out["kemps_sd"] / root
    out["win_ci"] = Z95 * out["win_sd"] / root
    return out


def by_strategy(df: pd.DataFrame) -> pd.DataFrame:
    """Each strategy over all line-ups and seats it played in (pooled means, CI from pooled variance)."""
    rows = []
    for name, g in df.groupby("strategy", sort=True):
        n = g["games"].sum()
        mk = (g["kemps_mean"] * g["games"]).sum() / n
        mw = (g["win_share"] * g["games"]).sum() / n
        # pooled variance: within-line-up variance plus the spread of the line-up means
        vk = (((g["games"] - 1) * g["kemps_sd"] ** 2).sum() + (g["games"] * (g["kemps_mean"] - mk) ** 2).sum()) / (n - 1)
        vw = (((g["games"] - 1) * g["win_sd"] ** 2).sum() + (g["games"] * (g["win_share"] - mw) ** 2).sum()) / (n - 1)
        rows.append({"strategy": name, "seat_games": int(n), "kemps_mean": mk, "kemps_ci": Z95 * np.sqrt(vk / n),
                     "win_share": mw, "win_ci": Z95 * np.sqrt(vw / n)})
    return pd.DataFrame(rows)


def head_to_head(df: pd.DataFrame, focal: str) -> pd.DataFrame:
    """The focal strategy in one seat against two copies of each other strategy (all seat orders pooled)."""
    rows = []
    for other in sorted(set(df["strategy"]) - {focal}):
        ups = {"/".join(t) for t in set(itertools.permutations((focal, other, other)))}
        g = df[df["lineup"].isin(ups)]
        for name in (focal, other):
            s = by_strategy(g[g["strategy"] == name])
            rows.append({"focal": focal, "against": other, "strategy": name, **s.iloc[0].drop("strategy").to_dict()})
    return pd.DataFrame(rows)


def seat_effects(df: pd.DataFrame) -> pd.DataFrame:
    """Self-play line-ups only: mean Kemps and win share by seat (who moves first matters?)."""
    same = df[df["lineup"].map(lambda s: len(set(s.split("/"))) == 1)]
    return with_ci(same)[["strategy", "seat", "games", "kemps_mean", "kemps_ci", "win_share", "win_ci"]]
