"""The report's Tables 1-3 and its claims, checked over many seeded games (group6_kemps2023).

`trace_table` writes a game as the report's Tables 1-3 (Player, Table cards, Hand cards,
Move, Comment); the other functions count, per seeded game, how often the report's stories
happen (no move in round 1, Kemps per game, blocks, knowledge growth, surprises on DEALT).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from .. import checks
from ..progress import tqdm
from .cards import FULL, Deck, make_deck
from .game import GameRecord, Turn
from .matches import make_agents, play, play_scores
from .strategies import best_group, value_counts

__all__ = [
    "MAX_SEEDS", "claims_table", "comment_text", "dealt_surprises", "game_stats",
    "knowledge_growth", "long_waits", "move_text", "trace_table",
]

WORDS = {1: "One", 2: "Pair", 3: "Three of a kind", 4: "Four of a kind"}
MAX_SEEDS = 100_000  # games per call of the functions below (a few minutes at most)


def _record(rec: object) -> GameRecord:
    return checks.instance(rec, "rec", GameRecord, "a GameRecord (from play())")


def _turn(t: object, rec: GameRecord) -> Turn:
    """A Turn of a game of `rec`'s deck (its cards in the deck)."""
    checks.instance(t, "t", Turn, "a Turn (a row of a game's trace)")
    t.check_cards(rec.deck.n)
    return t


def move_text(rec: GameRecord, t: Turn) -> str:
    """The report's Move column: 'Collects 5 Discards 6♠ and 8♠', 'Picks 4♠ Discards 8♦', 'No
    move'."""
    d, t = _record(rec).deck, _turn(t, rec)
    if not t.picked:
        return "No move"
    discards = " and ".join(d.name(c) for c in t.discarded)
    if t.why and t.why[0] == "collect":
        return f"Collects {d.value_label(t.why[1])} Discards {discards}"
    return f"Picks {d.names(t.picked)} Discards {discards}"


def comment_text(rec: GameRecord, t: Turn) -> str:
    """The report's Comment column, from the agent's reason for its move."""
    d, why = _record(rec).deck, _turn(t, rec).why
    if t.kemps is not None:
        return "Kemps!"
    kind = why[0] if why else "nothing"
    strategy = rec.strategies[t.player]
    if kind == "collect":
        if strategy == "greedy":
            return f"{WORDS[why[2]]} is the highest"
        if strategy in ("kb-greedy", "blocking"):
            return f"Knows that all {d.value_label(why[1])} are available"
        return f"No opponent known to hold a {d.value_label(why[1])}"
    if kind == "block":
        return f"Blocks player {why[2] + 1}"
    if strategy != "greedy":  # a knowledge-base agent passed: did it want something?
        hc, _ = value_counts(t.hand, t.table, d.m)
        want, size = best_group(t.hand, t.table, d.m)
        if size >= 2 and size > max(hc):
            return f"Wants {d.value_label(want)} but not sure if available"
    return "Nothing to collect"


def trace_table(rec: GameRecord, turns: int | None = None) -> pd.DataFrame:
    """A game as the report's Tables 1-3: Player, Table cards, Hand cards, Move, Comment (+
    round)."""
    rec = _record(rec)
    if turns is not None:
        turns = checks.integer(turns, "turns", low=0)
    return pd.DataFrame([{
        "round": t.round, "Player": f"Player {t.player + 1}",
        "Table cards": rec.deck.names(t.table),
        "Hand cards": rec.deck.names(sorted(t.hand)), "Move": move_text(rec, t),
        "Comment": comment_text(rec, t),
    } for t in rec.trace[:turns]], columns=["round", "Player", "Table cards", "Hand cards",
                                             "Move", "Comment"])


def _seeds(seeds: object) -> list[int]:
    """Seeds: non-negative integers, at most MAX_SEEDS of them."""
    if isinstance(seeds, range) and len(seeds) > MAX_SEEDS:
        raise ValueError(f"at most {MAX_SEEDS} seeds per call, got {len(seeds)}")
    values = checks.integers(seeds, "seeds", low=0)
    if len(values) > MAX_SEEDS:
        raise ValueError(f"at most {MAX_SEEDS} seeds per call, got {len(values)}")
    return list(values)


def _lineup(lineup: object) -> Sequence[str]:
    """A line-up of three strategies, checked before any game is played (even with no seeds)."""
    make_agents(lineup)  # type: ignore[arg-type]
    return lineup  # type: ignore[return-value]


def _stats_row(rec: GameRecord) -> dict[str, Any]:
    moves = [t for t in rec.trace if t.picked]
    return {
        "seed": rec.seed, "kemps": sum(rec.scores), "turns": rec.turns, "rounds": rec.rounds,
        "end": rec.end, "round1_moves": sum(t.round == 1 for t in moves),
        "blocks": sum(t.why[0] == "block" for t in moves),
        "first_kemps_turn": next((t.turn + 1 for t in rec.trace if t.kemps is not None), None),
    }


def game_stats(lineup: Sequence[str], deck: Deck | Sequence[int] = FULL,
               seeds: Iterable[int] = range(10)) -> pd.DataFrame:
    """One row per seeded game: total Kemps, turns, rounds, how it ended, moves in round 1,
    blocks."""
    return _game_stats(_lineup(lineup), make_deck(deck), _seeds(seeds), None)


def _game_stats(lineup: Sequence[str], deck: Deck, seeds: list[int], bar: Any) -> pd.DataFrame:
    rows = []
    for seed in seeds:
        rows.append(_stats_row(play(lineup, seed, deck)))
        if bar is not None:
            bar.update()
    return pd.DataFrame(rows)


def _claims_row(lineup: Sequence[str], g: pd.DataFrame) -> dict[str, Any]:
    return {
        "lineup": "/".join(lineup), "games": len(g), "mean_kemps": g["kemps"].mean(),
        "max_kemps": int(g["kemps"].max()), "no_kemps": (g["kemps"] == 0).mean(),
        "no_move_in_round_1": (g["round1_moves"] == 0).mean(),
        "stalemate": (g["end"] == "stalemate").mean(),
        "turn_limit": (g["end"] == "turn limit").mean(),
        "mean_turns": g["turns"].mean(), "games_with_block": (g["blocks"] > 0).mean(),
    }


def claims_table(deck: Deck | Sequence[int], seeds: Iterable[int],
                 lineups: Sequence[Sequence[str]]) -> pd.DataFrame:
    """game_stats summarised per line-up: how often each of the report's stories happens."""
    deck, seeds = make_deck(deck), _seeds(seeds)
    if isinstance(lineups, (str, bytes)) or not isinstance(lineups, Sequence) or not seeds:
        raise checks.ArgumentTypeError("lineups must be a sequence of line-ups and seeds non-empty")
    rows = []
    with tqdm(total=len(seeds) * len(lineups), desc="Kemps traced games") as bar:
        for lineup in lineups:
            rows.append(_claims_row(lineup, _game_stats(lineup, deck, seeds, bar)))
    return pd.DataFrame(rows)


def _grew(before: dict, after: dict) -> bool:
    """Some agent's sub-model of some card gained a state between two snapshots."""
    return any(bin(a).count("1") > bin(b).count("1")
               for kb0, kb1 in zip(before["kb"], after["kb"]) for a, b in zip(kb1, kb0))


def knowledge_growth(lineup: Sequence[str], deck: Deck | Sequence[int],
                     seeds: Iterable[int]) -> pd.DataFrame:
    """Per game: turns in which some agent's sub-model of some card gained a state (more
    relations, report 3.1), and how many of those turns had a Kemps (the DEALT update)."""
    lineup, deck, rows = _lineup(lineup), make_deck(deck), []
    for seed in _seeds(seeds):
        rec = play(lineup, seed, deck, knowledge=True)
        grew = [t.kemps is not None for t, before, after
                in zip(rec.trace, rec.snapshots, rec.snapshots[1:]) if _grew(before, after)]
        rows.append({"seed": seed, "turns": rec.turns, "turns_with_growth": len(grew),
                     "of_which_kemps": sum(grew)})
    return pd.DataFrame(rows, columns=["seed", "turns", "turns_with_growth", "of_which_kemps"])


def dealt_surprises(lineup: Sequence[str], deck: Deck | Sequence[int],
                    seeds: Iterable[int]) -> pd.DataFrame:
    """Per new hand dealt after a Kemps: does it hold a card an opponent had already placed with
    nobody? Without the DEALT update (the report has none, 3.2) that opponent would go on
    believing so: its knowledge base would rule out the truth."""
    lineup, deck, rows = _lineup(lineup), make_deck(deck), []
    for seed in _seeds(seeds):
        rec = play(lineup, seed, deck, knowledge=True)
        for t, before, after in zip(rec.trace, rec.snapshots, rec.snapshots[1:]):
            if t.kemps is None or not after["hands"][t.player]:
                continue
            p, new = t.player, after["hands"][t.player]
            seen = [q for q in range(3) if q != p and any(before["kb"][q][c] == 1 for c in new)]
            rows.append({"seed": seed, "turn": t.turn, "player": p + 1,
                         "known_nobody_by": len(seen)})
    return pd.DataFrame(rows, columns=["seed", "turn", "player", "known_nobody_by"])


def _longest_wait(rec: GameRecord) -> dict[str, Any]:
    """The longest run of turns without a pick, and the move that ended it."""
    run = best = end = 0
    for i, t in enumerate(rec.trace):
        run = 0 if t.picked else run + 1
        if run > best:
            best, end = run, i + 1
    breaker = rec.trace[end] if end < len(rec.trace) else None
    collect = breaker is not None and breaker.why[0] == "collect"
    return {"seed": rec.seed, "turns": rec.turns,
            "no_pick_share": sum(not t.picked for t in rec.trace) / rec.turns,
            "longest_wait": best, "breaker_picks": len(breaker.picked) if breaker else 0,
            "breaker_group": breaker.why[2] if collect else 0}


def long_waits(lineup: Sequence[str], deck: Deck | Sequence[int], seeds: Iterable[int],
               min_turns: int = 600) -> pd.DataFrame:
    """Games longer than `min_turns`: the share of turns without a pick, the longest run of such
    turns, and how many table cards the move that ended that run picked (for which group size)."""
    lineup, deck = _lineup(lineup), make_deck(deck)
    min_turns = checks.integer(min_turns, "min_turns", low=0)
    rows = [_longest_wait(play(lineup, seed, deck)) for seed in _seeds(seeds)
            if play_scores(lineup, seed, deck)[1] > min_turns]
    return pd.DataFrame(rows, columns=["seed", "turns", "no_pick_share", "longest_wait",
                                       "breaker_picks", "breaker_group"])
