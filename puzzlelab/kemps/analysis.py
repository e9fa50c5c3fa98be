"""Per-game statistics used to check the report's claims (first-round moves, Kemps per game, blocks)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from ..progress import tqdm
from .play import play


def game_stats(lineup: Sequence[str], deck, seeds: Iterable[int], bar=None) -> pd.DataFrame:
    """One row per seeded game: total Kemps, turns, rounds, how it ended, moves in round 1, blocks."""
    rows = []
    for seed in seeds:
        if bar is not None:
            bar.update()
        rec = play(lineup, seed, deck)
        moves = [t for t in rec.trace if t.picked]
        rows.append({
            "seed": seed, "kemps": sum(rec.scores), "turns": rec.turns, "rounds": rec.rounds, "end": rec.end,
            "round1_moves": sum(t.round == 1 for t in moves),
            "blocks": sum(t.why[0] == "block" for t in moves),
            "first_kemps_turn": next((t.turn + 1 for t in rec.trace if t.kemps is not None), None),
        })
    return pd.DataFrame(rows)


def claims_table(deck, seeds: Iterable[int], lineups: Sequence[Sequence[str]]) -> pd.DataFrame:
    """game_stats summarised per self-play line-up: how often each of the report's stories happens."""
    seeds = list(seeds)
    rows = []
    bar = tqdm(total=len(seeds) * len(lineups), desc="Kemps traced games")
    for lineup in lineups:
        g = game_stats(lineup, deck, seeds, bar)
        rows.append({
            "lineup": "/".join(lineup), "games": len(g), "mean_kemps": g["kemps"].mean(),
            "max_kemps": int(g["kemps"].max()), "no_kemps": (g["kemps"] == 0).mean(),
            "no_move_in_round_1": (g["round1_moves"] == 0).mean(),
            "stalemate": (g["end"] == "stalemate").mean(), "turn_limit": (g["end"] == "turn limit").mean(),
            "mean_turns": g["turns"].mean(), "games_with_block": (g["blocks"] > 0).mean(),
        })
    bar.close()
    return pd.DataFrame(rows)


def valve_table(lineups: Sequence[Sequence[str]], valves: Sequence[int], deck, games: int) -> pd.DataFrame:
    """How results depend on the turn valve: per line-up and valve, games cut off, Kemps and win share per seat."""
    from .tournament import lineup_games, seat_rows

    rows = []
    bar = tqdm(total=len(lineups) * len(valves) * games, desc="Kemps turn valve")
    for lineup in lineups:
        for valve in valves:
            g = lineup_games(tuple(lineup), games, deck, 0, valve)  # seeds 0..games-1, as in tournament()
            bar.update(games)
            s = seat_rows(g).groupby("seat")[["kemps", "win"]].mean()
            rows.append({"lineup": "/".join(lineup), "valve": valve, "games": len(g),
                         "cut_off": (g["end"] == "turn limit").mean(), "stalemate": (g["end"] == "stalemate").mean(),
                         "mean_turns": g["turns"].mean(), "total_kemps": g[["k1", "k2", "k3"]].sum(axis=1).mean(),
                         **{f"win_{j}": s.loc[j, "win"] for j in (1, 2, 3)}})
    bar.close()
    return pd.DataFrame(rows)



def knowledge_growth(lineup: Sequence[str], deck, seeds: Iterable[int]) -> pd.DataFrame:
    """Per game: turns in which some agent's sub-model of some card gained a state (more relations, report 3.1),
    and how many of those turns had a Kemps (whose new hand is the DEALT update)."""
    rows = []
    for seed in seeds:
        rec = play(lineup, seed, deck, knowledge=True)
        grew = []
        for t, before, after in zip(rec.trace, rec.snapshots, rec.snapshots[1:]):
            if any(bin(a).count("1") > bin(b).count("1")
                   for kb0, kb1 in zip(before["kb"], after["kb"]) for a, b in zip(kb1, kb0)):
                grew.append(t.kemps is not None)
        rows.append({"seed": seed, "turns": rec.turns, "turns_with_growth": len(grew), "of_which_kemps": sum(grew)})
    return pd.DataFrame(rows)


def dealt_surprises(lineup: Sequence[str], deck, seeds: Iterable[int]) -> pd.DataFrame:
    """Per new hand dealt after a Kemps: does it hold a card that an opponent had already placed with nobody?

    Without the DEALT update (the report has none, 3.2) that opponent would go on believing the card
    is with nobody: its knowledge base would rule out the truth.
    """
    rows = []
    for seed in seeds:
        rec = play(lineup, seed, deck, knowledge=True)
        for t, before, after in zip(rec.trace, rec.snapshots, rec.snapshots[1:]):
            if t.kemps is None or not after["hands"][t.player]:
                continue
            p, new = t.player, after["hands"][t.player]
            seen = [q for q in range(3) if q != p and any(before["kb"][q][c] == 1 for c in new)]
            rows.append({"seed": seed, "turn": t.turn, "player": p + 1, "known_nobody_by": len(seen)})
    return pd.DataFrame(rows)


def long_waits(lineup: Sequence[str], deck, seeds: Iterable[int], min_turns: int = 600) -> pd.DataFrame:
    """Games longer than `min_turns`: the share of turns without a pick, the longest run of such turns,
    and how many table cards the move that ended that run picked (and for which group size)."""
    from .tournament import play_scores

    rows = []
    for seed in seeds:
        if play_scores(lineup, seed, deck)[1] <= min_turns:
            continue
        rec = play(lineup, seed, deck)
        run = best = end = 0
        for i, t in enumerate(rec.trace):
            run = 0 if t.picked else run + 1
            if run > best:
                best, end = run, i + 1
        breaker = rec.trace[end] if end < len(rec.trace) else None
        rows.append({"seed": seed, "turns": rec.turns, "no_pick_share": sum(not t.picked for t in rec.trace) / rec.turns,
                     "longest_wait": best, "breaker_picks": len(breaker.picked) if breaker else 0,
                     "breaker_group": breaker.why[2] if breaker and breaker.why[0] == "collect" else 0})
    return pd.DataFrame(rows)
